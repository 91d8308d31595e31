#!/usr/bin/env bash
# Builds the MCP Bundle for Claude Desktop: dist-mcpb/browser-agent-<version>.mcpb, made by the
# official @anthropic-ai/mcpb CLI from the packed server (the same tarball npm installs) and
# packaging/mcpb/manifest.json. Needs `pnpm build` first. `--out <dir>` puts it elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$PWD/dist-mcpb"
if [ "${1:-}" = "--out" ]; then out="$(mkdir -p "$2" && cd "$2" && pwd)"; fi
version="$(node -p "require('./mcp-server/package.json').version")"
stage="$(mktemp -d "${TMPDIR:-/tmp}/ba-mcpb-XXXXXX")"
trap 'rm -rf "$stage"' EXIT

(cd mcp-server && pnpm pack --pack-destination "$stage" >/dev/null)
mkdir -p "$stage/bundle/server"
tar -xzf "$stage"/*.tgz -C "$stage/bundle/server" --strip-components=1
# Only registry packages remain to install (bufferutil, with its prebuilt binaries per platform);
# the build's devDependencies (workspace packages among them) are bundled already.
node -e '
  const fs = require("fs");
  const p = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  delete p.devDependencies;
  delete p.scripts;
  fs.writeFileSync(process.argv[1], JSON.stringify(p, null, 2) + "\n");
' "$stage/bundle/server/package.json"
(cd "$stage/bundle/server" && npm install --omit=dev --no-audit --no-fund --prefer-offline \
  --no-package-lock --loglevel=error >/dev/null)
cp packaging/mcpb/mcpb-entry.mjs "$stage/bundle/server/"
node -e '
  const fs = require("fs");
  const m = JSON.parse(fs.readFileSync("packaging/mcpb/manifest.json", "utf8"));
  m.version = process.argv[1];
  fs.writeFileSync(process.argv[2], JSON.stringify(m, null, 2) + "\n");
' "$version" "$stage/bundle/manifest.json"

pnpm exec mcpb validate "$stage/bundle/manifest.json"
mkdir -p "$out"
target="$out/browser-agent-$version.mcpb"
rm -f "$target"
pnpm exec mcpb pack "$stage/bundle" "$target" >/dev/null
pnpm exec mcpb info "$target"
echo "$target"
