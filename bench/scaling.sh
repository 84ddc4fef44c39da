#!/usr/bin/env bash
# How import, summary, compare and export grow with the number of stored iterations.
#   bench/scaling.sh [BUILD_DIR]     (MAX_EXP=7 goes up to 10^7 iterations; default 6)
#
# For n = 10^3 .. 10^MAX_EXP iterations it writes a Hail JSONL file of 10 instances of n/10
# iterations (lognormal timings), imports it twice into a fresh database and times:
#   import   one file of n iterations
#   summary  the run (intervals, variability, steady state, outliers)
#   compare  the two imports, A/A (trimmed means, the default)
#   export   the run as JSON
#   floor    reading the stored value arrays back with the sqlite3 shell (what the storage
#            alone costs)
# and prints the database's bytes per stored iteration (after VACUUM, both imports). The last line gives the growth
# exponent between the two largest sizes, log10(t(10n) / t(n)): 1 is linear.
set -euo pipefail
build=${1:-build}
max_exp=${MAX_EXP:-6}
bg="$build/benchguard"
[ -x "$bg" ] || { echo "build first: make build" >&2; exit 2; }
command -v python3 >/dev/null || { echo "scaling.sh needs python3 to write its input" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
seconds() { local t0; t0=$(now); "$@" >/dev/null 2>&1; awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }

write_input() {  # N FILE
  python3 - "$1" "$2" <<'EOF'
import json, random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(7)
with open(path, "w") as f:
    for k in range(10):
        level = rng.lognormvariate(0, 0.02)
        # Only the time: Hail's other members are optional, and 10^7 iterations of the full
        # record would pass the 1 GiB import limit.
        its = [{"time": level * rng.lognormvariate(0, 0.05)} for i in range(n // 10)]
        f.write(json.dumps({"name": "scaling", "start": "2024-11-05T14:02:11+00:00",
                            "end": "2024-11-05T15:02:11+00:00", "iterations": its}) + "\n")
EOF
}

printf "%10s %9s %9s %9s %9s %9s %8s\n" iterations import summary compare export floor "B/iter"
declare -A last prev
for e in $(seq 3 "$max_exp"); do
  n=$((10 ** e))
  write_input "$n" "$tmp/in.jsonl"
  db="$tmp/s$e.db"
  import=$(seconds "$bg" -q --db "$db" import "$tmp/in.jsonl" --input-format hail-jsonl)
  "$bg" -q --db "$db" import "$tmp/in.jsonl" --input-format hail-jsonl >/dev/null 2>&1
  summary=$(seconds "$bg" --db "$db" summary 1)
  compare=$(seconds "$bg" --db "$db" compare 1 2)
  export=$(seconds "$bg" --db "$db" export 1 --format json)
  floor=$(seconds sqlite3 "$db" "SELECT sum(length(data || x'00')) FROM iteration_values")
  sqlite3 "$db" "VACUUM"
  bytes=$(stat -c %s "$db")  # two imports: 2n iterations
  printf "%10d %8ss %8ss %8ss %8ss %8ss %8.1f\n" "$n" "$import" "$summary" "$compare" "$export" \
    "$floor" "$(awk -v b="$bytes" -v n="$n" 'BEGIN { print b / (2 * n) }')"
  for k in import summary compare export floor; do
    prev[$k]=${last[$k]:-}
    last[$k]=${!k}
  done
  rm -f "$db" "$db"-wal "$db"-shm
done
if [ -n "${prev[import]:-}" ]; then
  printf "%10s" "exponent"
  for k in import summary compare export floor; do
    printf " %9s" "$(awk -v a="${prev[$k]}" -v b="${last[$k]}" \
      'BEGIN { if (a > 0.001) printf "%.2f", log(b / a) / log(10); else print "-" }')"
  done
  echo
fi
