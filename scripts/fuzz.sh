#!/usr/bin/env bash
# Runs the libFuzzer targets of a BENCHGUARD_FUZZ build for a fixed time each, two at a time,
# and fails when any of them finds a crash, a sanitizer report, a leak or a timeout.
#
#   scripts/fuzz.sh [BUILD_DIR [SECONDS [TARGET...]]]     (default: build-asan 40, every target)
#
# Each target starts from a copy of its seeds (tests/data/ingest files of its format, the
# example suites, fuzz/corpus/<name>/) in BUILD_DIR/fuzz-corpus/<target>/, which keeps what the
# fuzzer adds for the next run; the sources are never written to. Crash inputs go to
# BUILD_DIR/fuzz-artifacts/, logs to BUILD_DIR/fuzz-logs/. FUZZ_JOBS targets run at once
# (default 2); FUZZ_ARGS adds libFuzzer options. docs/dev/fuzzing.md has the longer runs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-build-asan}"
seconds="${2:-40}"
shift $(($# > 2 ? 2 : $#))
jobs="${FUZZ_JOBS:-2}"
bin="$build/fuzz"

if ! compgen -G "$bin/*_fuzz" >/dev/null; then
  echo "fuzz.sh: no fuzz targets in $bin; build them with 'make fuzz' (clang, BENCHGUARD_FUZZ=ON)" >&2
  exit 2
fi
if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for t in "$bin"/*_fuzz; do targets+=("$(basename "$t")"); done
fi

# The seed files of a target, one per line.
seeds() {
  local data="$root/tests/data/ingest"
  case "$1" in
    ingest_google_benchmark_fuzz) ls "$data"/gbench-*.json ;;
    ingest_hyperfine_fuzz) ls "$data"/hyperfine-*.json ;;
    ingest_jmh_fuzz) ls "$data"/jmh-*.json ;;
    ingest_renaissance_fuzz) ls "$data"/renaissance-*.json ;;
    ingest_pytest_benchmark_fuzz) ls "$data"/pytest-benchmark*.json ;;
    ingest_hail_jsonl_fuzz) ls "$data"/hail-*.jsonl ;;
    ingest_duet_csv_fuzz) ls "$data"/duet-*.csv ;;
    ingest_go_fuzz) ls "$data"/go-*.txt ;;
    ingest_otava_csv_fuzz) ls "$data"/otava-*.csv ;;
    ingest_auto_fuzz) ls "$data"/*.json "$data"/*.jsonl "$data"/*.csv "$data"/*.txt ;;
    suite_fuzz) ls "$root"/examples/*.yml ;;
  esac
  local own="$root/fuzz/corpus/${1%_fuzz}"
  if [ -d "$own" ]; then find "$own" -type f; fi
}

# libFuzzer options of a target: the longest input and a dictionary.
options() {
  case "$1" in
    ingest_duet_csv_fuzz | ingest_go_fuzz | ingest_otava_csv_fuzz) echo "-max_len=16384 -dict=$root/fuzz/text.dict" ;;
    ingest_*) echo "-max_len=16384 -dict=$root/fuzz/json.dict" ;;
    protocol_fuzz | calibration_fuzz) echo "-max_len=4096 -dict=$root/fuzz/json.dict" ;;
    suite_fuzz | plan_fuzz) echo "-max_len=4096 -dict=$root/fuzz/yaml.dict" ;;
    *) echo "-max_len=4096" ;;
  esac
}

mkdir -p "$build/fuzz-corpus" "$build/fuzz-artifacts" "$build/fuzz-logs"
# run TARGET: fuzzes it for $seconds, prints one line, returns libFuzzer's status.
run() {
  local t="$1" corpus="$build/fuzz-corpus/$1" log="$build/fuzz-logs/$1.log" status=0
  if [ ! -x "$bin/$t" ]; then
    echo "fuzz.sh: no target $bin/$t" >&2
    return 2
  fi
  mkdir -p "$corpus"
  seeds "$t" | while read -r f; do cp "$f" "$corpus/"; done
  # shellcheck disable=SC2046,SC2086  # the options are words
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    timeout --kill-after=10 $((seconds + 120)) \
    "$bin/$t" $(options "$t") -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$t-" ${FUZZ_ARGS:-} \
    "$corpus" >"$log" 2>&1 || status=$?
  local runs rate
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  # Printed at once, so that the two targets running together do not interleave.
  {
    if [ "$status" -eq 0 ]; then
      printf '%-32s ok     %10s runs %7s/s  corpus %s\n' "$t" "${runs:-?}" "${rate:-?}" \
        "$(find "$corpus" -type f | wc -l)"
    else
      printf '%-32s FAILED (status %s) after %s runs; log: %s\n' "$t" "$status" "${runs:-?}" "$log"
      grep -E '^(==[0-9]+== ?ERROR|SUMMARY|.*runtime error|ALARM|.*deadly signal|.*out-of-memory|artifact_prefix|Test unit written|Base64)' \
        "$log" | head -n 20 || true
      tail -n 40 "$log"
    fi
  } >"$log.summary"
  cat "$log.summary"
  return "$status"
}

echo "fuzzing ${#targets[@]} targets for ${seconds}s each, $jobs at a time"
failed=0
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
  run "$t" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
if [ "$failed" -ne 0 ]; then
  echo "fuzz.sh: a target failed; crash inputs in $build/fuzz-artifacts/ (reproduce:" \
    "$bin/TARGET FILE)" >&2
  exit 1
fi
