#!/usr/bin/env bash
# Benchmarks of benchguard itself. Prints figures as ratios against baselines measured in
# the same run, because this machine is shared and noisy.
#   bench/run.sh [BUILD_DIR] [SECTION...]   sections: overhead noise drift verdicts sequential
#                                           instructions plan analysis history store memory
#                                           bisect postgres (default: all)
set -euo pipefail
build=${1:-build}
shift || true
sections=${*:-overhead noise drift verdicts sequential instructions plan analysis history store memory bisect postgres}
want() { [[ " $sections " == *" $1 "* ]]; }
bg="$build/benchguard"
[ -x "$bg" ] || { echo "build first: make build" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.6f\", $1 }"; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

if want overhead; then
echo "== harness overhead: /bin/true x 1000 instances (median of ${ROUNDS:-5} rounds, interleaved)"
rounds=${ROUNDS:-5}
: >"$tmp/floor"; : >"$tmp/bg"; : >"$tmp/bgnc"; : >"$tmp/bgs"; : >"$tmp/hf"
have_hf=0
command -v hyperfine >/dev/null && have_hf=1
for r in $(seq $rounds); do
  # Timed from outside like the others, so that each figure includes its program's start-up.
  t0=$(now); "$build/bench/spawn_floor" 1000 /bin/true >/dev/null; t1=$(now)
  { calc "$t1 - $t0"; echo; } >>"$tmp/floor"
  t0=$(now); "$bg" -q run --instances 1000 --db "$tmp/r$r.db" -- /bin/true 2>/dev/null; t1=$(now)
  { calc "$t1 - $t0"; echo; } >>"$tmp/bg"
  t0=$(now); "$bg" -q run --no-counters --instances 1000 --db "$tmp/n$r.db" -- /bin/true 2>/dev/null; t1=$(now)
  { calc "$t1 - $t0"; echo; } >>"$tmp/bgnc"
  # Today's launch without the exact memory source (a memory cgroup per instance, where one
  # can be made): what that source costs an instance is the difference.
  t0=$(now); BENCHGUARD_MEMORY_SOURCE=sampled "$bg" -q run --instances 1000 --db "$tmp/s$r.db" -- /bin/true 2>/dev/null; t1=$(now)
  { calc "$t1 - $t0"; echo; } >>"$tmp/bgs"
  if [ $have_hf = 1 ]; then
    t0=$(now); hyperfine -N --runs 1000 --warmup 0 --style none true >/dev/null 2>&1; t1=$(now)
    { calc "$t1 - $t0"; echo; } >>"$tmp/hf"
  fi
done
floor=$(median <"$tmp/floor"); bgt=$(median <"$tmp/bg"); bgnc=$(median <"$tmp/bgnc")
printf "floor (posix_spawn+wait4)      %8.3f s\n" "$floor"
printf "benchguard run (stores all)    %8.3f s   %.3fx floor\n" "$bgt" "$(calc "$bgt / $floor")"
printf "benchguard run --no-counters   %8.3f s   %.3fx floor\n" "$bgnc" "$(calc "$bgnc / $floor")"
if [ $have_hf = 1 ]; then
  hf=$(median <"$tmp/hf")
  printf "hyperfine -N --runs 1000 true  %8.3f s   %.3fx floor\n" "$hf" "$(calc "$hf / $floor")"
  printf "benchguard / hyperfine         %.3f\n" "$(calc "$bgt / $hf")"
fi
# Ratios within each round, then their median: the rounds share the machine's state.
ratios() { paste "$1" "$2" | awk '{ print $1 / $2 }'; }
# A distribution-free interval for a median: the order statistics k and n-k+1, with k the
# largest for which P(Binomial(n, 1/2) < k) <= 2.5% (at least 95% coverage; none below 6).
median_ci() {
  sort -g | awk '{ a[NR] = $1 }
    END { n = NR; t = 0.5 ^ n; cdf = t; j = 0; k = 0
          while (j < n && cdf <= 0.025) { k = j + 1; t = t * (n - j) / (j + 1); ++j; cdf += t }
          if (k > 0) printf "%.3f to %.3f", a[k], a[n - k + 1] }'
}
report_ratio() {  # NAME A B
  local r ci
  r=$(ratios "$2" "$3")
  ci=$(median_ci <<<"$r")
  printf "%s %.3f" "$1" "$(median <<<"$r")"
  [ -n "$ci" ] && printf " (95%% interval %s)" "$ci"
  return 0
}
printf "median of per-round ratios: "
report_ratio benchguard/floor "$tmp/bg" "$tmp/floor"
[ $have_hf = 1 ] && { printf ", "; report_ratio benchguard/hyperfine "$tmp/bg" "$tmp/hf"; }
echo
# Noise here only ever adds time: each tool's fastest round is the closest to its own cost.
fastest() { sort -g "$1" | head -1; }
printf "fastest rounds: benchguard/floor %.3f" "$(calc "$(fastest "$tmp/bg") / $(fastest "$tmp/floor")")"
[ $have_hf = 1 ] && printf ", benchguard/hyperfine %.3f" "$(calc "$(fastest "$tmp/bg") / $(fastest "$tmp/hf")")"
echo
echo "(targets: benchguard <= 1.05x floor, and no slower than hyperfine -N)"
# The exact memory source beside it: the same run with and without it, interleaved, per
# instance. Where no memory cgroup can be made both are the sampled launch (cost ~0).
source=$("$bg" show --db "$tmp/r1.db" --format json 2>/dev/null |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["benchmarks"][0].get("memory_source") or "none")' 2>/dev/null || echo unknown)
bgs=$(median <"$tmp/bgs")
costs=$(paste "$tmp/bg" "$tmp/bgs" | awk '{ print ($1 - $2) * 1e6 / 1000 }')
printf "exact memory source (%s): %+.1f us an instance (median of per-round differences; %+.1f us between the medians), " \
  "$source" "$(median <<<"$costs")" "$(calc "($bgt - $bgs) * 1e6 / 1000")"
report_ratio "run/run with BENCHGUARD_MEMORY_SOURCE=sampled" "$tmp/bg" "$tmp/bgs"
echo
printf "the sampled launch alone: %.3fx floor (median of per-round ratios %s)\n" "$(calc "$bgs / $floor")" \
  "$(ratios "$tmp/bgs" "$tmp/floor" | median)"
# What the instructions channel costs an instance: the program under callgrind, whose start-up
# and translation dominate a short program (median instance wall time, as stored).
if command -v valgrind >/dev/null; then
  per_instance() {  # DB -> median wall time of its instances, in ms
    "$bg" export --db "$1" --format csv 2>/dev/null | awk -F, '
      NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "iteration_time_ns") c = i; next }
      c { print $c / 1e6 }' | median
  }
  "$bg" -q run --instances 20 --db "$tmp/native.db" -- /bin/true 2>/dev/null
  "$bg" -q run --measure instructions --instances 20 --db "$tmp/vg.db" -- /bin/true 2>/dev/null
  native=$(per_instance "$tmp/native.db"); counted=$(per_instance "$tmp/vg.db")
  printf "an instance of /bin/true: %.2f ms, %.1f ms under --measure instructions (%.0fx)\n" \
    "$native" "$counted" "$(calc "$counted / $native")"
fi
fi

# Every schedule under every kind of controlled noise (bench/noise_source.cpp). 3 repetitions
# take about 3 minutes; the table in docs/schedules.md comes from NOISE_REPS=20.
if want noise && [ -x "$build/bench/noise_bench" ]; then
  echo
  echo "== schedules under controlled noise: A/A false alarms, power for 3%, interval width"
  "$build/bench/noise_bench" "$build/examples/spin_bench" "$build/bench/noise_source" \
    "${NOISE_REPS:-3}" "${NOISE_KINDS:-none,cpu-one,cpu-all-onoff,membw,burst}" \
    "${NOISE_SCHEDULES:-sequential,alternate,randomized,duet,sync-duet}"
fi

if want drift && [ -x "$build/bench/schedule_drift_bench" ]; then
  echo
  echo "== schedules under simulated machine drift: A/A false alarms and power for 5%, beside Welch"
  "$build/bench/schedule_drift_bench" "${DRIFT_TRIALS:-2000}" 10
fi

if want verdicts && [ -x "$build/bench/verdict_bench" ]; then
  echo
  echo "== verdicts at the limit: A/A false alarms and power per statistic, beside Welch"
  "$build/bench/verdict_bench" "${VERDICT_AA_TRIALS:-2000}" "${VERDICT_TRIALS:-1000}" \
    "${VERDICT_RESAMPLES:-2000}"
fi

if want sequential && [ -x "$build/bench/sequential_bench" ]; then
  echo
  echo "== sequential A/B against the fixed design (threshold 1%, then 4%)"
  "$build/bench/sequential_bench" 2000 1000 10 20 1 1
  "$build/bench/sequential_bench" 2000 1000 10 20 1 4
  if [ -x "$build/bench/sequential_family_bench" ]; then
    echo
    echo "== sequential runs of 5 benchmarks off the model: any false alarm, by first look"
    "$build/bench/sequential_family_bench" "${SEQUENTIAL_FAMILY_TRIALS:-2000}" 20 3,5
  fi
  # And on the machine: examples/ab.yml (B 10% slower) and its A/A at 3%, until decided.
  ( cd "$tmp" && "$OLDPWD/$bg" run "$OLDPWD/examples/ab.yml" --until-decided --db seq.db -q &&
    "$OLDPWD/$bg" run "$OLDPWD/examples/ab.yml" --until-decided --null --threshold 3% --db seq.db -q ) 2>&1 |
    grep -v "stored run"
fi

# The two channels on a noisy machine (docs/measurement.md): PAIRS A/A pairs of the quickstart's
# sort benchmark with bursty CPU noise running (noise_source cpu-all-onoff), compared at a 2%
# threshold by wall time (5 instances a side) and by Valgrind's instruction count (1 instance a
# side); and a loop 3% longer, by instructions. About 1.5 s a pair.
if want instructions && command -v valgrind >/dev/null && [ -x "$build/bench/noise_source" ] &&
  [ -x "$build/tests/helpers/bg_loop" ]; then
  echo
  pairs=${PAIRS:-100}
  echo "== instructions and wall time, $pairs A/A pairs under bursty CPU noise, threshold 2%"
  "$build/bench/noise_source" cpu-all-onoff 7 &
  noise=$!
  verdict() {  # the verdict of METRIC's first row in a JSON comparison on stdin
    python3 -c 'import json,sys; m=[x for x in json.load(sys.stdin)["metrics"] if x["metric"]==sys.argv[1]]; print(m[0]["rows"][0]["verdict"] if m else "none")' "$1"
  }
  sort_cmd=("$build/examples/sort_bench" --n 100000)
  loop=$build/tests/helpers/bg_loop
  : >"$tmp/ins.v"; : >"$tmp/wall.v"; : >"$tmp/det.v"
  for p in $(seq "$pairs"); do
    db="$tmp/ch$p.db"
    for side in a b; do
      "$bg" -q run --instances 5 --label "w=$side" --db "$db" -- "${sort_cmd[@]}" 2>/dev/null
      "$bg" -q run --measure instructions --instances 1 --label "i=$side" --db "$db" -- \
        "${sort_cmd[@]}" 2>/dev/null
    done
    "$bg" compare w=a w=b --threshold 2% --db "$db" --format json | verdict wall_time >>"$tmp/wall.v"
    "$bg" compare i=a i=b --threshold 2% --db "$db" --format json |
      verdict instructions >>"$tmp/ins.v"
    "$bg" -q run --measure instructions --instances 1 --label d=a --db "$db" -- "$loop" 1000000 2>/dev/null
    "$bg" -q run --measure instructions --instances 1 --label d=b --db "$db" -- "$loop" 1030000 2>/dev/null
    "$bg" compare d=a d=b --threshold 2% --db "$db" --format json | verdict instructions >>"$tmp/det.v"
    rm -f "$db"
  done
  kill "$noise" 2>/dev/null || true
  wait "$noise" 2>/dev/null || true
  alarms() { grep -cE '^(slower|faster)$' "$1" || true; }
  printf "channel        A/A pairs  false alarms  inconclusive\n"
  printf "wall_time      %9d  %12d  %12d\n" "$pairs" "$(alarms "$tmp/wall.v")" "$(grep -c inconclusive "$tmp/wall.v" || true)"
  printf "instructions   %9d  %12d  %12d\n" "$pairs" "$(alarms "$tmp/ins.v")" "$(grep -c inconclusive "$tmp/ins.v" || true)"
  printf "a loop 3%% longer, by instructions, 1 instance a side: slower in %d of %d\n" \
    "$(grep -c '^slower$' "$tmp/det.v" || true)" "$pairs"
  echo "(target: 0 false alarms from instructions)"
fi

# The full default `plan` (400 experiments of compare's rule over the 5..25 x 5..25 grid, both
# selections) on a Hail-scale dataset, with the means, CVs and burn-ins of Hail's
# batch-config.yaml when the shared fixtures sit beside the checkout. Target: at most 5 minutes
# on 2 cores. CPU time and load are printed beside the wall time, since the machine is shared.
if want plan && [ -x "$build/bench/plan_dataset" ]; then
  echo
  echo "== plan on a Hail-scale dataset (144 benchmarks x 50 instances x 50 iterations)"
  config="$(dirname "$0")/../../shared/fixtures/hail-batch-config.yaml"
  [ -f "$config" ] || config=""
  "$build/bench/plan_dataset" "$tmp/hail.db" $config >/dev/null
  load0=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/env time -f "%e %U %S" -o "$tmp/plan.time" \
    "$bg" -q plan --db "$tmp/hail.db" -o "$tmp/hail-plan.yml" >"$tmp/plan.txt"
  read -r wall user sys <"$tmp/plan.time"
  printf "benchguard plan, full default grid: %.1f s wall, %.1f s cpu, load %s -> %s (target: at most 300 s on 2 cores)\n" \
    "$wall" "$(calc "$user + $sys")" "$load0" "$(cut -d' ' -f1 /proc/loadavg)"
  # The table: from the fourth line to the first blank one.
  awk 'NR > 3 && NF == 0 { exit } NR > 3' "$tmp/plan.txt" >"$tmp/plan.rows"
  printf "benchmarks %d: target reached %d, not reached %d, not viable %d\n" \
    "$(wc -l <"$tmp/plan.rows")" "$(grep -cv 'not reached\|not viable\|no configuration' "$tmp/plan.rows")" \
    "$(grep -c 'not reached' "$tmp/plan.rows")" "$(grep -c 'not viable' "$tmp/plan.rows")"
fi

# Does the plan keep its promise? Pilots of 50 instances x 30 iterations from known models
# (bench/plan_power_bench.cpp), planned for a 5% slowdown; then fresh A/B and A/A experiments at
# each recommended configuration, judged by compare's verdict and by Welch's t on instance means.
# For one benchmark compared alone (a pilot per seed), then for a family of 10 adjusted with Holm.
if want plan && [ -x "$build/bench/plan_power_bench" ]; then
  echo
  echo "== plan's promised power against compare's achieved power on fresh data"
  for seed in ${PILOT_SEEDS:-77 78 79}; do
    "$build/bench/plan_power_bench" pilot "$tmp/pilot.db" 50 30 "$seed"
    for family in 1 10; do
      "$bg" -q plan --db "$tmp/pilot.db" --family $family --format json \
        -o "$tmp/pilot-plan.yml" >"$tmp/pilot-plan.json"
      "$build/bench/plan_power_bench" check "$tmp/pilot-plan.json" "${FRESH:-2000}"
    done
  done
fi

if want analysis; then
  for b in store_bench import_names_bench bootstrap_bench steady_state_bench; do
    if [ -x "$build/bench/$b" ]; then
      echo
      echo "== $b"
      "$build/bench/$b"
    fi
  done
  if [ -x "$build/bench/steady_state_bench" ]; then
    echo
    echo "== steady_state_bench 1 4 100000 (long instances: segmented on block means)"
    "$build/bench/steady_state_bench" 1 4 100000
  fi
fi

# Change points over commit history (src/stats/series_changes.hpp): full detection of 1,000
# series of 1,000 points with the default method (target: under 2 s on 2 cores), one appended
# point per series (target: under 0.2 s), and precision / recall / A/A false alarms of every
# method on synthetic series. About 20 s, most of it the permutation method.
# The head check (the newest commit against the ones before it) on series with known truth,
# beside Coiled's rule: A/A alarms, with confirmation runs, and a 5% step at the newest commit.
if want history && [ -x "$build/bench/head_check_bench" ]; then
  echo
  echo "== head check: the newest commit judged at once"
  "$build/bench/head_check_bench" "${HEAD_SERIES:-500}" "${HEAD_AA_SERIES:-5000}"
fi

# The rules between what the detector finds and what the gate acts on (docs/history.md):
# false confirmations per 1,000 commits with drift between commits and no change, the power
# to confirm 3% and 5% steps, and the "undone" rule after a lasting step and after a revert.
if want history && [ -x "$build/bench/detection_rules_bench" ]; then
  echo
  echo "== detection rules: confirmation by the history, and undone"
  "$build/bench/detection_rules_bench" "${RULES_AA_SERIES:-6000}" "${RULES_POWER_SERIES:-2000}" \
    "${RULES_REPLAY_SERIES:-2000}"
fi

# The gate over a project's life: series of 300 commits with two regressions replayed one
# commit at a time through gate on SQLite, every alarm acknowledged or none: alarms per
# regression, repeats, passes while a regression is open, false alarms per 100 commits.
if want history && [ -x "$build/bench/gate_replay_bench" ]; then
  echo
  echo "== the gate over a project's life: one change, one alarm"
  "$build/bench/gate_replay_bench" "${REPLAY_SERIES:-4}"
fi

if want history && [ -x "$build/bench/series_changes_bench" ]; then
  echo
  echo "== change points over history: speed and accuracy (load $(cut -d' ' -f1 /proc/loadavg))"
  "$build/bench/series_changes_bench" "${HISTORY_SERIES:-1000}" "${HISTORY_POINTS:-1000}" \
    "${HISTORY_TRIALS:-200}"
fi

# A million iterations stored and read back against a bare SQLite INSERT / SELECT loop in the
# same run (target: at least 1,000,000 iterations per second stored; at most 32 bytes each).
# bench/scaling.sh has the CLI from 10^3 to 10^7.
if want store && [ -x "$build/bench/iteration_store_bench" ]; then
  echo
  echo "== storing iterations (load $(cut -d' ' -f1 /proc/loadavg))"
  "$build/bench/iteration_store_bench" "${STORE_ITERATIONS:-1000000}"
fi

# Memory of analysis over runs of millions of instances (docs/store.md, "Memory of analysis"):
# two hyperfine files of MEMORY_INSTANCES single-iteration runs each (default 1,000,000),
# imported into one database; peak RSS of `compare` of the two and of `summary` of one, and
# bytes an instance. Target: compare of 2 x 10^6 instances <= 300 MB. About 30 s.
if want memory && [ -x /usr/bin/time ]; then
  echo
  n=${MEMORY_INSTANCES:-1000000}
  echo "== memory of analysis: two runs of $n single-iteration instances (load $(cut -d' ' -f1 /proc/loadavg))"
  for side in a b; do
    awk -v n="$n" -v f="$([ $side = a ] && echo 1.00 || echo 1.02)" 'BEGIN {
      srand(7); printf "{\"results\": [{\"command\": \"sleep\", \"mean\": 0.01, \"times\": ["
      for (i = 0; i < n; i++) printf "%s%.9f", (i ? "," : ""), f * (0.01 + 0.0005 * (rand() - 0.5))
      printf "]}]}\n" }' >"$tmp/$side.json"
    "$bg" -q --db "$tmp/m.db" import "$tmp/$side.json" >/dev/null 2>&1
  done
  peak() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
  c=$(peak "$bg" --db "$tmp/m.db" compare 1 2)
  s=$(peak "$bg" --db "$tmp/m.db" summary 1)
  base=$(peak "$bg" --version)
  printf "compare of 2 x %d instances   %8.1f MB   %.0f bytes an instance (above the %.1f MB of --version)\n" \
    "$n" "$(calc "$c / 1024")" "$(calc "($c - $base) * 1024 / (2 * $n)")" "$(calc "$base / 1024")"
  printf "summary of %d instances       %8.1f MB   %.0f bytes an instance\n" \
    "$n" "$(calc "$s / 1024")" "$(calc "($s - $base) * 1024 / $n")"
  echo "(target: compare of 2 x 1,000,000 <= 300 MB)"
fi

# Bisection by measurement (src/analysis/bisect.hpp) on simulated histories: 10 histories of 64
# commits with a 5% step at a random commit (found exactly? candidates and instances measured,
# CPU time of the classifications per candidate), then the A/A control, where every history
# must stop with "endpoints do not differ". About 15 s.
if want bisect && [ -x "$build/bench/bisect_bench" ]; then
  echo
  echo "== bisect on simulated histories (load $(cut -d' ' -f1 /proc/loadavg))"
  "$build/bench/bisect_bench" "${BISECT_HISTORIES:-10}" "${BISECT_COMMITS:-64}" \
    "${BISECT_STEP:-0.05}"
fi

# The two stores side by side (bench/backends_bench.cpp): instances per second into SQLite and
# into PostgreSQL, one writer and 8 concurrent ones, on a PostgreSQL server started here as the
# tests start theirs (tests/postgres/pg_server.sh: a unix socket, fsync off). Skipped without
# Debian's postgresql. About 10 s.
if want postgres && [ -x "$build/bench/backends_bench" ]; then
  echo
  echo "== SQLite and PostgreSQL stores (load $(cut -d' ' -f1 /proc/loadavg))"
  pgdir=$(mktemp -u /tmp/benchguard-pgbench-XXXXXX)  # not under $tmp: the server runs as postgres
  here=$(cd "$(dirname "$0")/.." && pwd)
  if out=$(bash "$here/tests/postgres/pg_server.sh" start "$pgdir" 2>&1); then
    psql -q -X "host=$pgdir user=benchguard dbname=postgres" -c "CREATE DATABASE bench" >/dev/null
    "$build/bench/backends_bench" "postgresql:///bench?host=$pgdir&user=benchguard" \
      "${BACKEND_INSTANCES:-2000}" "${BACKEND_WRITERS:-8}" || true
    bash "$here/tests/postgres/pg_server.sh" stop "$pgdir"
  else
    echo "skipped: $out"
  fi
fi
