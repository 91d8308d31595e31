#!/usr/bin/env bash
# CI's and the README's setup: the same install steps as docker/Dockerfile (scripts/install.sh),
# so every CI run tests them on a bare machine. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/install.sh "$@"
