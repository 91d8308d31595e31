#!/usr/bin/env bash
# Installs what a fresh Debian/Ubuntu machine lacks (pnpm; Chromium via apt), then the
# workspace's dependencies from the lockfile, then builds. Safe to run again: it skips what is
# already there. Used by .ci/run and by the README's one-command setup.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '[bootstrap] %s\n' "$*" >&2; }

if ! command -v pnpm >/dev/null 2>&1; then
  log "installing pnpm"
  npm install -g pnpm >&2
fi

chrome="${CHROME_PATH:-/usr/bin/chromium}"
if [ ! -x "$chrome" ]; then
  if command -v apt-get >/dev/null 2>&1; then
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    log "installing Chromium with apt"
    $sudo_cmd apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium fonts-liberation >&2
  else
    log "no Chromium at $chrome and no apt-get: install Chromium and set CHROME_PATH"
    exit 1
  fi
fi

log "installing dependencies"
pnpm install --frozen-lockfile >&2
log "building"
pnpm build >&2
