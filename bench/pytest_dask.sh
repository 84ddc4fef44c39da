#!/usr/bin/env bash
# `benchguard pytest` on the Dask tests of tests/data/pytest_dask (docs/pytest.md): an A/B of two
# environments that differ in one Dask setting (array.chunk-size 64 KiB in B, and B's memory
# test holding 50 MB more), then REPS A/A runs of one environment. Prints, for the A/B, the wall
# time from the command to the verdict and the share of it outside the measured blocks
# (interpreter start, imports, collection, cluster start-up: everything but the iterations'
# own times), and the verdicts; for the A/A runs, the firm verdicts (slower, faster) per run
# and in all. Needs /usr/bin/python3 with pytest, dask, distributed and pandas (Debian's
# python3-pytest, python3-dask, python3-distributed).
#   bench/pytest_dask.sh [BUILD_DIR] [REPS (20)] [INSTANCES (5)]
set -euo pipefail
build=${1:-build}
reps=${2:-20}
instances=${3:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
bg=$(cd "$build" && pwd)/benchguard
[ -x "$bg" ] || { echo "build first: make build" >&2; exit 2; }
/usr/bin/python3 -c "import pytest, dask, distributed, pandas" 2>/dev/null ||
  { echo "skipped: /usr/bin/python3 lacks pytest, dask, distributed or pandas"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tests="$here/tests/data/pytest_dask/test_dask_ab.py"
printf '#!/bin/sh\nexec /usr/bin/python3 "$@"\n' >"$tmp/py_a"
printf '#!/bin/sh\nDASK_ARRAY__CHUNK_SIZE=64KiB BG_EXTRA_MB=50 exec /usr/bin/python3 "$@"\n' \
  >"$tmp/py_b"
chmod +x "$tmp/py_a" "$tmp/py_b"
now() { date +%s.%N; }

# The firm verdicts of a --format json comparison, one "metric benchmark verdict" a line.
firm() {
  python3 -c '
import json, sys
j = json.load(sys.stdin)
for m in j["metrics"]:
    for r in m["rows"]:
        if r["verdict"] in ("slower", "faster"):
            print(m["metric"], r["benchmark"], r.get("says", r["verdict"]), round(r["ratio"], 3))
'
}

echo "== benchguard pytest: A/B of two Dask environments, $instances instances a side (load $(cut -d' ' -f1 /proc/loadavg))"
cd "$tmp"
start=$(now)
"$bg" --format json pytest --python ./py_a --python ./py_b --instances "$instances" \
  --db ab.db -- "$tests" -W ignore::DeprecationWarning >ab.json 2>ab.err
end=$(now)
wall=$(awk "BEGIN { printf \"%.1f\", $end - $start }")
# The measured blocks: every stored iteration's own time, burn-in included.
inside=$("$bg" export --db ab.db --format csv | python3 -c '
import csv, sys
rows = csv.DictReader(sys.stdin)
print(sum(float(r["iteration_time_ns"] or 0) for r in rows) / 1e9)')
awk -v w="$wall" -v i="$inside" 'BEGIN { printf "command to verdict: %.1f s; inside the measured blocks %.1f s; outside %.1f s (%.0f%%)\n", w, i, w - i, 100 * (w - i) / w }'
echo "firm verdicts (metric, test, verdict, B/A):"
firm <ab.json | sed 's/^/  /'

echo
echo "== A/A: $reps runs of one environment against itself, $instances instances a side"
total=0
for r in $(seq 1 "$reps"); do
  "$bg" --format json pytest --python ./py_a --null --instances "$instances" --db "aa$r.db" \
    -- "$tests" -W ignore::DeprecationWarning >aa.json 2>aa.err || true
  if ! python3 -c 'import json, sys; json.load(sys.stdin)' <aa.json 2>/dev/null; then
    printf "run %2d: no comparison: %s\n" "$r" "$(tail -1 aa.err)"
    continue
  fi
  n=$(firm <aa.json | wc -l)
  total=$((total + n))
  printf "run %2d: %d firm verdict(s)%s\n" "$r" "$n" "$(firm <aa.json | tr '\n' ';' | sed 's/^./ &/')"
done
echo "A/A: $total firm verdict(s) in $reps runs (target: at most 2)"
