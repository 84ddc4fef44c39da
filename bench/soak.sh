#!/usr/bin/env bash
# A day of load, compressed (docs/store.md, "Soak"): WRITERS concurrent writers (`run` of 20
# instances, over and over) and 4 readers (`serve` answering page requests, `compare`,
# `detect`, `summary`) against one database for MINUTES, with a writer killed (-9) every
# KILL_EVERY seconds. Then: every instance that finished is stored (a killed run may lose
# only the instance in flight), no reader failed, `db check` is clean, and serve's memory.
#   bench/soak.sh [BUILD_DIR] [MINUTES] [BACKEND...]   backends: sqlite postgres (default both)
# Environment: WRITERS (16), KILL_EVERY (60). Not part of CI: 30 minutes a backend by default.
set -euo pipefail
build=${1:-build}
minutes=${2:-30}
shift 2 || shift $#
backends=${*:-sqlite postgres}
writers=${WRITERS:-16}
kill_every=${KILL_EVERY:-60}
instances=20
bg="$(cd "$(dirname "$build/benchguard")" && pwd)/benchguard"
here=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$bg" ] || { echo "build first: make build" >&2; exit 2; }
command -v python3 > /dev/null || { echo "needs python3 for the tally" >&2; exit 2; }
command -v curl > /dev/null || { echo "needs curl for the serve reader" >&2; exit 2; }

soak() {  # soak BACKEND DB DIR
  local backend=$1 db=$2 dir=$3
  local stop="$dir/stop"
  rm -f "$stop"
  mkdir -p "$dir/marks" "$dir/pids" "$dir/errors"
  # Writers: round r of writer w is one `run`; each instance appends a line to its mark file
  # as it ends, so the lines say how many instances finished.
  for w in $(seq "$writers"); do
    (
      r=0
      while [ ! -e "$stop" ]; do
        r=$((r + 1))
        mark="$dir/marks/$w.$r"
        : > "$mark"
        "$bg" -q --db "$db" run --no-counters --name soak --label "soak=$w.$r" \
          --instances "$instances" -- sh -c "sleep 0.02; echo >> $mark" > /dev/null \
          2>> "$dir/writer.$w.log" &
        echo $! > "$dir/pids/$w"
        wait $! || echo "round $r: exit $?" >> "$dir/writer.$w.exit"
      done
    ) 2> /dev/null &  # not bash's word on each killed writer
  done
  # Readers start once two runs are complete (before, `compare` has nothing to compare); any
  # exit of 2 or more (an error; 1 is a verdict) counts as a failure.
  complete() { "$bg" -q --db "$db" runs --format csv --limit 0 2> /dev/null | grep -c ',complete,' || true; }
  for _ in $(seq 600); do
    [ "$(complete)" -ge 2 ] && break
    sleep 0.1
  done
  local port_log="$dir/serve.log"
  "$bg" --db "$db" serve --port 0 2> "$port_log" &
  local serve_pid=$!
  local url=""
  for _ in $(seq 600); do
    url=$(grep -o 'http://[^ ]*/' "$port_log" || true)
    [ -n "$url" ] && break
    sleep 0.1
  done
  [ -n "$url" ] || { echo "serve did not start: $(cat "$port_log")" >&2; touch "$stop"; }
  reader() {  # reader NAME CMD...
    local name=$1
    shift
    local n=0 bad=0
    while [ ! -e "$stop" ]; do
      n=$((n + 1))
      set +e
      "$@" > /dev/null 2> "$dir/errors/$name.last"
      local rc=$?
      set -e
      if [ $rc -ge 2 ]; then
        bad=$((bad + 1))
        { echo "call $n: exit $rc"; cat "$dir/errors/$name.last"; } >> "$dir/errors/$name.log"
      fi
      sleep 0.5
    done
    echo "$n $bad" > "$dir/reader.$name"
  }
  page() {  # one round of serve's pages; non-200 is a failure
    local code
    for p in "" "run-1.html"; do
      code=$(curl -s -o /dev/null -w '%{http_code}' "$url$p")
      [ "$code" = 200 ] || [ "$code" = 404 ] || { echo "$p: HTTP $code"; return 2; }
    done
  }
  newest_two() {  # compare the two newest complete runs
    local ids
    ids=$("$bg" -q --db "$db" runs --format csv --limit 50 | awk -F, '$4 == "complete" { print $1 }' | head -2)
    # shellcheck disable=SC2086
    "$bg" -q --db "$db" compare $ids
  }
  reader serve page &
  reader compare newest_two &
  reader detect "$bg" -q --db "$db" detect &
  reader summary "$bg" -q --db "$db" summary latest &
  # The killer, and serve's memory a minute in and at the end.
  local start now rss_first="" kills=0
  start=$(date +%s)
  local next_kill=$((start + kill_every))
  while true; do
    now=$(date +%s)
    [ $((now - start)) -ge $((minutes * 60)) ] && break
    if [ -z "$rss_first" ] && [ $((now - start)) -ge 60 ]; then
      rss_first=$(awk '/VmRSS/ { print $2 }' "/proc/$serve_pid/status")
    fi
    if [ "$now" -ge "$next_kill" ]; then
      local victim
      victim=$(cat "$dir/pids/$((RANDOM % writers + 1))" 2> /dev/null || true)
      [ -n "$victim" ] && kill -9 "$victim" 2> /dev/null && kills=$((kills + 1))
      next_kill=$((next_kill + kill_every))
    fi
    sleep 1
  done
  [ -n "$rss_first" ] || rss_first=$(awk '/VmRSS/ { print $2 }' "/proc/$serve_pid/status")
  local rss_last
  rss_last=$(awk '/VmRSS/ { print $2 }' "/proc/$serve_pid/status")
  touch "$stop"
  wait_for() { while [ "$(jobs -rp | grep -cv "^$serve_pid$")" -gt 0 ]; do sleep 0.5; done; }
  wait_for
  kill "$serve_pid" 2> /dev/null || true
  wait "$serve_pid" 2> /dev/null || true

  local check=clean
  "$bg" -q --db "$db" db check > "$dir/check.log" 2>&1 || check="FAILED: $(tail -1 "$dir/check.log")"
  "$bg" -q --db "$db" runs --format json --limit 0 > "$dir/runs.json"
  python3 - "$dir" "$backend" "$minutes" "$writers" "$kills" "$check" "$rss_first" "$rss_last" \
    "$instances" << 'EOF'
import glob, json, os, sys
d, backend, minutes, writers, kills, check, rss_first, rss_last, n = sys.argv[1:]
n = int(n)
runs = {}
for r in json.load(open(os.path.join(d, "runs.json"))):
    if "soak" in r["labels"]:
        runs[r["labels"]["soak"]] = r
finished = stored = complete = interrupted = lost_in_flight = bad = 0
for mark in glob.glob(os.path.join(d, "marks", "*")):
    key = os.path.basename(mark)
    lines = sum(1 for _ in open(mark))
    r = runs.get(key)
    got = r["instances"] if r else 0
    finished += lines
    stored += got
    if r and r["status"] == "complete":
        complete += 1
        ok = got == n and lines == n
    else:
        interrupted += r is not None
        # Killed: every instance that finished is there, but the one in flight.
        ok = lines - 1 <= got <= lines
        lost_in_flight += lines - got
    if not ok:
        bad += 1
        print(f"  {key}: {lines} finished, {got} stored, status {r['status'] if r else 'none'}")
readers = []
for f in sorted(glob.glob(os.path.join(d, "reader.*"))):
    calls, failed = open(f).read().split()
    readers.append(f"{os.path.basename(f)[7:]} {calls} calls, {failed} failed")
print(f"| {backend} | {minutes} min | {writers} | {kills} | {complete} complete, "
      f"{interrupted} interrupted | {finished} / {stored} (lost in flight {lost_in_flight}) | "
      f"{bad} | {'; '.join(readers)} | {check} | {int(rss_first) // 1024} -> "
      f"{int(rss_last) // 1024} MB |")
EOF
  for f in "$dir"/errors/*.log; do
    [ -s "$f" ] && echo "  $(basename "$f" .log) said: $(tail -2 "$f" | tr '\n' ' ')"
  done
  return 0
}

echo "| store | time | writers | kills | runs | instances finished / stored | wrong | readers (calls, failed) | db check | serve RSS 1 min -> end |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for backend in $backends; do
  dir=$(mktemp -d /tmp/benchguard-soak-XXXXXX)
  case $backend in
    sqlite)
      soak sqlite "$dir/soak.db" "$dir"
      ;;
    postgres)
      pgdir=$(mktemp -u /tmp/benchguard-soakpg-XXXXXX)
      if out=$(bash "$here/tests/postgres/pg_server.sh" start "$pgdir" 2>&1); then
        psql -q -X "host=$pgdir user=benchguard dbname=postgres" -c "CREATE DATABASE soak" > /dev/null
        soak postgres "postgresql:///soak?host=$pgdir&user=benchguard" "$dir"
        bash "$here/tests/postgres/pg_server.sh" stop "$pgdir"
      else
        echo "postgres skipped: $out"
      fi
      ;;
  esac
  [ -n "${KEEP:-}" ] || rm -rf "$dir"
done
