#!/usr/bin/env bash
# The dashboard at scale: SERIES series x COMMITS commits (default 1,000 x 1,000, one run per
# commit). Prints the time `report --html` takes, the size of the site, and, where Chromium and
# playwright-core are at hand (after `ctest -L browser` installed it), the time until the
# overview and a benchmark page are drawn.
#   bench/dashboard.sh [BUILD_DIR] [SERIES] [COMMITS]
set -euo pipefail
build=${1:-build}
series=${2:-1000}
commits=${3:-1000}
bg="$build/benchguard"
gen="$build/tests/helpers/bg_history_db"
[ -x "$bg" ] && [ -x "$gen" ] || { echo "build first: ninja -C $build benchguard bg_history_db" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
# timed LABEL FIGURE CMD...: runs CMD, prints its wall and CPU time (user + system: what the
# machine's other load does not change).
timed() {
  local label=$1 figure=$2
  shift 2
  local TIMEFORMAT='%R %U %S'
  local t
  t=$({ time "$@" > /dev/null 2>&1; } 2>&1)
  awk -v l="$label" -v f="$figure" -v t="$t" 'BEGIN { split(t, x, " ");
    printf "%s: %.2f s (cpu %.2f s)%s\n", l, x[1], x[2] + x[3], f == "" ? "" : " (figure: " f ")" }'
}

echo "== dashboard: $series series x $commits commits (3 instances of 1 iteration each)"
t0=$(now)
"$gen" "$tmp/h.db" --benchmarks "$series" --commits "$commits" --instances 3 --iterations 1
t1=$(now)
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "database written in %.1f s\n", b - a }'
# For scale: loading the series alone, as `history` does.
timed "history (loading the series alone)" "" "$bg" -q history --db "$tmp/h.db" --format csv --last 1
timed "report --html, change points detected" "< 10 s" \
  "$bg" -q report --db "$tmp/h.db" --html "$tmp/site" --run-pages 1
# As after a nightly `detect` or `gate`: their stored change points are reused.
"$bg" -q detect --db "$tmp/h.db" > /dev/null
rm -rf "$tmp/site"
timed "report --html after detect" "< 10 s" \
  "$bg" -q report --db "$tmp/h.db" --html "$tmp/site" --run-pages 1
rm -rf "$tmp/site2"
timed "report --html after detect, --resamples 2000" "< 10 s" \
  "$bg" -q report --db "$tmp/h.db" --html "$tmp/site2" --run-pages 1 --resamples 2000
bytes=$(du -sb "$tmp/site" | cut -f1)
files=$(find "$tmp/site" -type f | wc -l)
awk -v b="$bytes" -v f="$files" 'BEGIN { printf "site: %.1f MB in %d files (figure: < 20 MB)\n", b / 1e6, f }'

modules="$(cd "$build" && pwd)/tests/browser/node_modules"
if [ -x /usr/bin/chromium ] && [ -d "$modules/playwright-core" ] && command -v node > /dev/null; then
  NODE_PATH="$modules" node "$(dirname "$0")/dashboard_load.mjs" "$tmp/site" "$modules"
else
  echo "page load: skipped (needs /usr/bin/chromium, node and $modules: ctest -L browser installs it)"
fi
