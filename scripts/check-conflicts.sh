#!/usr/bin/env bash
# Fails when a tracked file still holds merge-conflict markers (a line starting with
# <<<<<<<, ======= or >>>>>>> followed by a space or the end of the line).
set -euo pipefail
cd "$(dirname "$0")/.."
if hits=$(git grep -nIE '^(<{7}|={7}|>{7})( |$)' -- .); then
  echo "merge-conflict markers in tracked files:" >&2
  echo "$hits" >&2
  exit 1
fi
