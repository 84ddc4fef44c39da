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
# machine's other load does not change) and, with GNU time at hand, its peak RSS.
timed() {
  local label=$1 figure=$2
  shift 2
  local t
  if [ -x /usr/bin/time ]; then
    t=$(/usr/bin/time -f '%e %U %S %M' "$@" 2>&1 > /dev/null | tail -1)
  else
    local TIMEFORMAT='%R %U %S'
    t=$({ time "$@" > /dev/null 2>&1; } 2>&1)
  fi
  awk -v l="$label" -v f="$figure" -v t="$t" 'BEGIN { split(t, x, " ");
    printf "%s: %.2f s (cpu %.2f s%s)%s\n", l, x[1], x[2] + x[3],
      x[4] == "" ? "" : sprintf(", peak %.0f MB", x[4] / 1024), f == "" ? "" : " (figure: " f ")" }'
}

echo "== dashboard: $series series x $commits commits (3 instances of 1 iteration each)"
t0=$(now)
"$gen" "$tmp/h.db" --benchmarks "$series" --commits "$commits" --instances 3 --iterations 1
t1=$(now)
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "database written in %.1f s\n", b - a }'
# For scale: loading the series alone, as `history` does, from the runs' series cache entries
# (saved as the runs were stored, as `run` and `import` do).
timed "history (loading the series alone)" "" "$bg" -q history --db "$tmp/h.db" --format csv --last 1
timed "report --html, change points detected" "< 5 s" \
  "$bg" -q report --db "$tmp/h.db" --html "$tmp/site" --run-pages 1
# As after a nightly `detect` or `gate`: their stored change points are reused.
"$bg" -q detect --db "$tmp/h.db" > /dev/null
# The gate of the newest commit, against history (every series from the runs' series cache
# entries) and against the branch (the two runs compared).
# (Exit 1, a regression found, is a gate's answer here, not a failure of the script.)
gate='"$0" -q gate --db "$1" "${@:2}" || [ $? = 1 ]'
timed "gate against history" "" bash -c "$gate" "$bg" "$tmp/h.db"
timed "gate --against main" "" bash -c "$gate" "$bg" "$tmp/h.db" --against main
rm -rf "$tmp/site"
timed "report --html after detect" "< 5 s" \
  "$bg" -q report --db "$tmp/h.db" --html "$tmp/site" --run-pages 1
rm -rf "$tmp/site2"
timed "report --html after detect, --resamples 2000" "< 5 s" \
  "$bg" -q report --db "$tmp/h.db" --html "$tmp/site2" --run-pages 1 --resamples 2000
# A nightly site: built with the default 20 run pages, then built again into its directory as
# each night does, after `detect` (the nightly job's gate), with nothing new, with one more
# commit of every benchmark and with one more commit of one benchmark. A run's page and the
# compare page are kept when their runs did not change (docs/dashboard.md); every other page is
# made again from the whole history.
timed "report --html, 20 run pages (the default)" "" \
  "$bg" -q report --db "$tmp/h.db" --html "$tmp/nightly"
timed "report --html into that site, nothing new" "" \
  "$bg" -q report --db "$tmp/h.db" --html "$tmp/nightly"
"$gen" "$tmp/h.db" --benchmarks "$series" --commits $((commits + 1)) --from "$commits" \
  --instances 3 --iterations 1
"$bg" -q detect --db "$tmp/h.db" > /dev/null
timed "report --html into that site, one more commit in every series" "< 1 s" \
  "$bg" -q report --db "$tmp/h.db" --html "$tmp/nightly"
"$gen" "$tmp/h.db" --benchmarks 1 --commits $((commits + 2)) --from $((commits + 1)) \
  --instances 3 --iterations 1
"$bg" -q detect --db "$tmp/h.db" > /dev/null
timed "report --html into that site, one more commit in one series" "< 0.2 s" \
  "$bg" -q report --db "$tmp/h.db" --html "$tmp/nightly"
# That build followed the last one (docs/dashboard.md): the directory must hold byte for byte
# what a build into an empty one writes.
"$bg" -q report --db "$tmp/h.db" --html "$tmp/fresh"
if diff -r "$tmp/nightly" "$tmp/fresh" > /dev/null; then
  echo "the site after those builds: byte for byte a build into an empty directory"
else
  echo "the site after those builds DIFFERS from a build into an empty directory" >&2
  exit 1
fi
rm -rf "$tmp/nightly" "$tmp/fresh"
# Without the series cache (a database from before it, or runs the library wrote): history
# reads every instance; the first `detect` derives and saves every run's entry.
if command -v sqlite3 > /dev/null; then
  sqlite3 "$tmp/h.db" "DELETE FROM series_cache"
  timed "history without the series cache (every instance read)" "" \
    "$bg" -q history --db "$tmp/h.db" --format csv --last 1
  timed "detect deriving and saving every run's series cache entry" "" \
    "$bg" -q detect --db "$tmp/h.db"
  timed "history again (from the entries)" "" "$bg" -q history --db "$tmp/h.db" --format csv --last 1
fi
bytes=$(du -sb "$tmp/site" | cut -f1)
files=$(find "$tmp/site" -type f | wc -l)
awk -v b="$bytes" -v f="$files" 'BEGIN { printf "site: %.1f MB in %d files (figure: < 20 MB)\n", b / 1e6, f }'

# serve: its peak RSS after the first pages (the site built once), then after 20 more rounds
# of every page kind: a server whose memory grows with requests shows it here.
if command -v curl > /dev/null; then
  "$bg" serve --db "$tmp/h.db" --port 0 2> "$tmp/serve.log" &
  serve_pid=$!
  url=""
  for _ in $(seq 600); do
    url=$(grep -o 'http://[^ ]*/' "$tmp/serve.log" || true)
    [ -n "$url" ] && break
    sleep 0.1
  done
  if [ -n "$url" ]; then
    page=$(cd "$tmp/site" && find . -name '*.html' ! -name 'index.html' ! -name 'run-*' -print -quit)
    run=$(cd "$tmp/site" && find . -name 'run-*.html' -print -quit)
    failed=0
    fetch() {
      for p in "" "${page#./}" "${run#./}"; do
        [ "$(curl -s -m 300 -o /dev/null -w '%{http_code}' "$url$p")" = 200 ] || failed=$((failed + 1))
      done
    }
    t0=$(now); fetch; t1=$(now)
    first=$(awk '/VmHWM/ { print $2 }' "/proc/$serve_pid/status")
    for _ in $(seq 20); do fetch; done
    last=$(awk '/VmHWM/ { print $2 }' "/proc/$serve_pid/status")
    awk -v a="$t0" -v b="$t1" -v f="$first" -v l="$last" 'BEGIN {
      printf "serve: first pages %.2f s, peak %.0f MB; after 20 more rounds %.0f MB\n", b - a,
        f / 1024, l / 1024 }'
    [ "$failed" = 0 ] || echo "serve: $failed requests not answered 200"
  else
    echo "serve: did not start: $(cat "$tmp/serve.log")"
  fi
  kill "$serve_pid" 2> /dev/null || true
  wait "$serve_pid" 2> /dev/null || true
fi

modules="$(cd "$build" && pwd)/tests/browser/node_modules"
if [ -x /usr/bin/chromium ] && [ -d "$modules/playwright-core" ] && command -v node > /dev/null; then
  NODE_PATH="$modules" node "$(dirname "$0")/dashboard_load.mjs" "$tmp/site" "$modules"
else
  echo "page load: skipped (needs /usr/bin/chromium, node and $modules: ctest -L browser installs it)"
fi
