#!/usr/bin/env bash
# Runs the test suite while busy loops hold the CPUs, as on a shared machine or a CI runner
# doing other work: a test that fails only here asserts something about an idle machine.
# Use it before changing a test that measures time.
#   scripts/busy-tests.sh [BUILD_DIR] [--loops N] [--runs R] [--jobs J] [-- CTEST_ARGS...]
# Defaults: build, 4 loops (two per core on a 2-core machine), 3 runs, ctest -j2. Prints one
# line per run and a closing line; exits 1 when any run failed.
set -euo pipefail
build=build
loops=4
runs=3
jobs=2
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --loops) loops=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -*) echo "busy-tests: unknown option '$1'" >&2; exit 2 ;;
    *) build=$1; shift ;;
  esac
done
[ -f "$build/CTestTestfile.cmake" ] || { echo "busy-tests: no tests in '$build': run make build first" >&2; exit 2; }

pids=()
stop_loops() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap stop_loops EXIT INT TERM
for _ in $(seq "$loops"); do
  (while :; do :; done) &
  pids+=($!)
done

log=$(mktemp)
trap 'stop_loops; rm -f "$log"' EXIT
clean=0
for r in $(seq "$runs"); do
  start=$(date +%s)
  rc=0
  ctest --test-dir "$build" -j "$jobs" --output-on-failure "${extra[@]}" >"$log" 2>&1 || rc=$?
  secs=$(( $(date +%s) - start ))
  summary=$(grep -E '^[0-9]+% tests passed' "$log" | tail -1 || true)
  if [ $rc -eq 0 ]; then
    clean=$((clean + 1))
    echo "run $r: ${summary:-no summary} (${secs} s, $loops busy loops)"
  else
    echo "run $r: FAILED: ${summary:-ctest exit $rc} (${secs} s, $loops busy loops)"
    sed -n '/The following tests FAILED/,$p' "$log" | grep -E '^\s+[0-9]+ - ' || true
    failed_log="$build/busy-tests-run$r.log"
    cp "$log" "$failed_log"
    echo "  full output: $failed_log"
  fi
done
echo "busy tests: $clean of $runs runs passed every test with $loops busy loops"
[ "$clean" -eq "$runs" ]
