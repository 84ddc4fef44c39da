#!/usr/bin/env bash
# The dashboard's browser tests: a database with history (hostile names included), the static
# site of `report --html` and `serve`, loaded in headless Chromium by dashboard.test.mjs.
#   run.sh BENCHGUARD HISTORY_DB WORK_DIR
set -euo pipefail
benchguard=$1 history_db=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
chromium=${BENCHGUARD_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "skipped: no chromium at $chromium (Debian: apt-get install chromium)"; exit 77
fi
if ! command -v node > /dev/null || ! command -v npm > /dev/null; then
  echo "skipped: node and npm are needed (Debian: apt-get install nodejs npm)"; exit 77
fi
mkdir -p "$work"
# playwright-core, as the lock file pins it, installed once per lock file.
if ! cmp -s "$here/package-lock.json" "$work/package-lock.json" ||
   [ ! -d "$work/node_modules/playwright-core" ]; then
  cp "$here/package.json" "$here/package-lock.json" "$work/"
  if ! (cd "$work" && npm ci --ignore-scripts --no-audit --no-fund > npm.log 2>&1); then
    cat "$work/npm.log"
    rm -f "$work/package-lock.json"
    echo "skipped: npm ci could not install playwright-core (is the npm registry reachable?)"
    exit 77
  fi
fi
rm -rf "$work/site" "$work/h.db"* "$work/vsite" "$work/v.db"*
"$history_db" "$work/h.db" --benchmarks 6 --commits 40 --hostile --wide-last
"$benchguard" -q report --db "$work/h.db" --html "$work/site" --plan-run 40 --compare-runs 20
# Two runs of three benchmarks in variants A and B, the first cold and the second warm: the
# compare page and the run page against `compare --format json`.
"$history_db" "$work/v.db" --benchmarks 3 --commits 2 --two-variants
"$benchguard" -q report --db "$work/v.db" --html "$work/vsite"
export BG_SITE="$work/site" BG_DB="$work/h.db" BG_BINARY="$benchguard" BG_CHROMIUM="$chromium"
export BG_VSITE="$work/vsite" BG_VDB="$work/v.db"
export NODE_PATH="$work/node_modules"
cd "$work"
exec node --test --test-reporter=spec "$here/dashboard.test.mjs"
