#!/usr/bin/env bash
# Rewrites tests/golden/expected/ from the current build, when a change of output is meant:
#   scripts/update-golden.sh [BUILD_DIR]    (default: build)
# Review the diff (git diff tests/golden) before committing it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
ninja -C "$build" benchguard bg_history_db >/dev/null
exec bash "$root/tests/golden/run.sh" "$build/benchguard" "$build/tests/helpers/bg_history_db" \
  "$build/tests/golden" --update
