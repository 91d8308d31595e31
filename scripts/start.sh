#!/usr/bin/env bash
# One command on a fresh machine: install what is missing, build, and run the MCP server in
# launch mode (it starts Chromium with the extension itself; headless when there is no display).
# Everything but MCP goes to stderr, so this is safe to use as an MCP client's command.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
exec node mcp-server/bin/browser-agent-mcp.js --launch "$@"
