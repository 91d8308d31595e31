#!/usr/bin/env bash
# One command for the whole suite on a fresh machine: setup, lint, typecheck, unit and
# end-to-end tests (the built extension in real Chromium, driven over MCP stdio).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
pnpm lint
pnpm typecheck
pnpm test
# The benchmark's smoke run: every scenario once, asserting success only, never a time.
pnpm bench:smoke
pnpm bench:guard # speed guard (#26): the suite vs the in-process floor, ratio bounds only
