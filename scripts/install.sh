#!/usr/bin/env bash
# Installs Browser Agent on a bare Debian/Ubuntu machine that has Node.js (20.19 or later):
# Chromium and fonts with apt, pnpm, the workspace's dependencies from the lockfile, the build,
# and optionally a `browser-agent-mcp` command in --bin-dir. docker/Dockerfile RUNs this same
# script, and CI runs it through scripts/bootstrap.sh, so the container's install steps are
# tested even where Docker cannot run. Safe to run again: it skips what is already there.
#
#   bash scripts/install.sh [--bin-dir /usr/local/bin]
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '[install] %s\n' "$*" >&2; }
die() {
  log "$*"
  exit 1
}

bin_dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bin-dir)
      [ $# -ge 2 ] || die "--bin-dir needs a directory"
      bin_dir="$2"
      shift 2
      ;;
    *) die "unknown option $1 (usage: install.sh [--bin-dir DIR])" ;;
  esac
done

# Node.js comes with the machine (or the container's base image): Debian's own is too old.
command -v node >/dev/null 2>&1 || die "Node.js is missing: install Node.js 20.19 or later first"
node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>20||(a===20&&b>=19)?0:1)' ||
  die "Node.js $(node --version) is too old: install 20.19 or later"

# Chromium, and fonts so that screenshots of pages show text rather than boxes; unzip lets the
# tests read the extension's store zip with a reader other than the one that wrote it.
apt_packages=(chromium fonts-liberation fonts-dejavu-core ca-certificates unzip)
missing=()
for pkg in "${apt_packages[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
chrome="${CHROME_PATH:-/usr/bin/chromium}"
if [ "${#missing[@]}" -gt 0 ]; then
  if [ -x "$chrome" ] && ! command -v apt-get >/dev/null 2>&1; then
    log "no apt-get; using the browser at $chrome as it is"
  elif command -v apt-get >/dev/null 2>&1; then
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    log "installing with apt: ${missing[*]}"
    $sudo_cmd apt-get update -qq >&2
    # With recommends: Debian's Chromium recommends chromium-sandbox, which a non-root user
    # without unprivileged user namespaces needs.
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >&2
  else
    die "no Chromium at $chrome and no apt-get: install Chromium and set CHROME_PATH"
  fi
fi
[ -x "$chrome" ] || die "no Chromium at $chrome: install it or set CHROME_PATH"

if ! command -v pnpm >/dev/null 2>&1; then
  log "installing pnpm"
  npm install -g pnpm >&2
fi

log "installing dependencies"
pnpm install --frozen-lockfile >&2
log "building"
pnpm build >&2

bin="$PWD/mcp-server/bin/browser-agent-mcp.js"
if [ -n "$bin_dir" ]; then
  mkdir -p "$bin_dir"
  ln -sf "$bin" "$bin_dir/browser-agent-mcp"
  log "linked $bin_dir/browser-agent-mcp"
fi
node "$bin" --version 2>&1 | sed 's/^/[install] browser-agent-mcp /' >&2
