#!/usr/bin/env bash
# Regenerates the importer test files that real tools write (tests/data/ingest/README.md
# lists them): Google Benchmark, hyperfine and pytest-benchmark output, each from Debian's
# package of the tool. The hand-written files (JMH, Renaissance, asynchronous-duet CSV, Go
# text, Hail JSONL) are not touched.
#
# The commands fix what the tests count (benchmarks, repetitions, runs, rounds); the times
# are whatever the machine measures, so after a regeneration the values the tests quote
# from these files (tests/unit/ingest/*_test.cpp, tests/e2e/cli_import_test.cpp) must be
# read again from the new files.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/ingest"
src="$out/src"

need=()
command -v hyperfine >/dev/null || need+=(hyperfine)
command -v g++ >/dev/null || need+=(g++)
[ -f /usr/include/benchmark/benchmark.h ] || need+=(libbenchmark-dev)
/usr/bin/python3 -c 'import pytest_benchmark' 2>/dev/null || need+=(python3-pytest-benchmark)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "regenerate.sh: missing ${need[*]}; run as root or install them with apt-get" >&2
    exit 1
  fi
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}"
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# --- Google Benchmark -------------------------------------------------------------------
g++ -O2 -std=c++17 -o "$tmp/gbench_sample" "$src/gbench_sample.cpp" -lbenchmark -lpthread
gbench() {  # gbench OUTPUT ARGS...: run from the temp dir, so the file names ./gbench_sample
  local file="$1"
  shift
  (cd "$tmp" && ./gbench_sample --benchmark_min_time=0.01 --benchmark_out_format=json \
    --benchmark_out="$out/$file" "$@" >/dev/null 2>&1)
}
# No repetitions: rates, a user counter, us and ms units, an error.
gbench gbench-plain.json --benchmark_filter='BM_Memcpy|BM_Accumulate|BM_StringBuild|BM_Unavailable'
# Four repetitions each, then the mean, median, stddev and cv aggregate rows.
gbench gbench-repetitions.json --benchmark_filter='BM_Memcpy|BM_Accumulate' \
  --benchmark_repetitions=4
# Four sizes, then the BigO and RMS rows of the complexity fit.
gbench gbench-complexity.json --benchmark_filter='BM_Sort'
# Aggregates only: nothing an importer can take as a measurement.
gbench gbench-aggregates-only.json --benchmark_filter='BM_StringBuild' \
  --benchmark_repetitions=3 --benchmark_report_aggregates_only=true

# --- hyperfine --------------------------------------------------------------------------
(
  cd "$tmp"
  hyperfine --style basic --runs 5 --warmup 1 --export-json "$out/hyperfine-two.json" \
    'sleep 0.01' 'sleep 0.02'
  hyperfine --style basic -N --runs 8 --export-json "$out/hyperfine-one.json" 'sleep 0.005'
  # A parameter scan in which the runs with code=1 fail (kept by --ignore-failure).
  hyperfine --style basic --runs 3 --ignore-failure -P code 0 1 \
    --export-json "$out/hyperfine-scan.json" 'sleep 0.005; exit {code}'
) >/dev/null 2>&1

# --- pytest-benchmark -------------------------------------------------------------------
# In a git repository of its own with a fixed commit (same id every time) and an
# uncommitted change, so that commit_info has an id, a branch and dirty: true.
proj="$tmp/pytest-sample"
mkdir -p "$proj"
cp "$src/test_pytest_sample.py" "$proj/"
(
  cd "$proj"
  export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
  export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
  export GIT_AUTHOR_DATE='2024-05-01T12:00:00+00:00' GIT_COMMITTER_DATE='2024-05-01T12:00:00+00:00'
  git init -q -b perf .
  git add test_pytest_sample.py
  git commit -q -m 'pytest-benchmark sample'
  echo '# uncommitted' >>test_pytest_sample.py
  pytest=(/usr/bin/python3 -m pytest -q -p no:cacheprovider test_pytest_sample.py
    --benchmark-max-time=0 --benchmark-min-rounds=3)
  "${pytest[@]}" --benchmark-json="$out/pytest-benchmark.json"
  # What --benchmark-save keeps without --benchmark-save-data: summary statistics only.
  "${pytest[@]}" -k 'sum_small or sleep_ms' --benchmark-storage="file://$tmp/store" \
    --benchmark-save=stats-only
) >/dev/null 2>&1
cp "$tmp"/store/*/0001_stats-only.json "$out/pytest-benchmark-stats-only.json"

echo "regenerated in $out:"
(cd "$out" && ls -l gbench-*.json hyperfine-*.json pytest-benchmark*.json)
