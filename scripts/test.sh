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
# The speed guard (#26): the bridge's suite against the in-process playwright-core floor,
# interleaved, judged by ratios. It fails when the suite passes 1.3x the floor (the 2.2x
# regression #26 found would have failed it) or a step kind 2.5x in two measurements in a row;
# the click kind is shown, not enforced (bench/src/guard/speedGuard.ts, docs/benchmarks.md).
pnpm bench:guard
