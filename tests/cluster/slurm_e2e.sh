#!/bin/bash
# End to end on the one-node cluster of slurm_server.sh (SLURM_CONF set by the fixture):
# a two-variant suite submitted over 8 array tasks, one task's results lost and resubmitted,
# collected into one run (every unit stored exactly once, twice collected stores nothing
# twice), and compared.
#   slurm_e2e.sh BENCHGUARD HELPER_DIR
set -u
bg=${1:?benchguard binary}
helpers=${2:?helper directory}
fail() { echo "FAIL: $*"; exit 1; }

if ! command -v sbatch >/dev/null || [ -z "${SLURM_CONF:-}" ] || ! sinfo -h >/dev/null 2>&1; then
  echo "SKIP: no Slurm cluster to submit to (the slurm.server_start fixture did not start one)"
  exit 77
fi
command -v sqlite3 >/dev/null || fail "sqlite3 is needed to count what collect stored"

work=$(mktemp -d /tmp/benchguard-slurm-e2e-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
cat >suite.yml <<YAML
name: cluster
schedule: randomized
instances: 8
benchmarks:
  - name: spin
    command: [$helpers/bg_spin, "5"]
    variants:
      A: {}
      B: {command: [$helpers/bg_spin, "8"]}
  - name: noop
    instances: 4
    command: [/bin/true]
    variants:
      A: {}
      B: {env: {X: "1"}}
YAML
units=24
db=$work/bg.db
job=$work/job

# Waits until no task of the job is pending or running (at most $1 seconds).
wait_job() {
  for _ in $(seq "$1"); do
    "$bg" status "$job" --format json >status.json || fail "status failed"
    grep -q -E '"state": "(pending|running)"' status.json || return 0
    sleep 1
  done
  cat status.json
  fail "the job did not end within $1 s"
}
stored() { sed -n 's/^  "stored": \([0-9]*\),$/\1/p' status.json; }

start=$(date +%s)
"$bg" --db "$db" submit suite.yml --slurm --tasks 8 --seed 11 --job-dir "$job" >submit.out \
  2>submit.err || { cat submit.err; fail "submit failed"; }
grep -q "Slurm job" submit.err || fail "submit named no Slurm job: $(cat submit.err)"
[ "$(cat submit.out)" = "$job" ] || fail "submit printed '$(cat submit.out)', not the job folder"
grep -q -- "--array=0-7" "$job/attempt-1/job.sh" || fail "not an array of 8 tasks"

wait_job 180
[ "$(stored)" = "$units" ] || { cat status.json; fail "status: $(stored) of $units units stored"; }
[ "$(grep -c '"state": "done"' status.json)" = 8 ] || { cat status.json; fail "not 8 tasks done"; }
[ "$(ls "$job"/attempt-1/task-*.db | wc -l)" = 8 ] || fail "not 8 task databases"

# Lose one task's results: status names the missing units, collect refuses, resubmit runs
# only those.
lost=$(sqlite3 "$job/attempt-1/task-3.db" "SELECT count(*) FROM instances")
[ "$lost" -gt 0 ] || fail "task 3 stored nothing"
rm -f "$job"/attempt-1/task-3.db* "$job/attempt-1/task-3.exit"
"$bg" status "$job" --format json >status.json || fail "status failed"
[ "$(stored)" = $((units - lost)) ] || fail "status counts $(stored) stored after losing $lost"
"$bg" status "$job" >status.txt || fail "status (table) failed"
grep -q "missing:" status.txt || { cat status.txt; fail "status names no missing unit"; }
"$bg" --db "$db" collect "$job" 2>collect.err && fail "collect of an incomplete job succeeded"
grep -q "units are not stored yet" collect.err || fail "collect said: $(cat collect.err)"
"$bg" submit --resubmit "$job" --tasks 2 2>resubmit.err >/dev/null ||
  { cat resubmit.err; fail "resubmit failed"; }
grep -q "resubmitted $lost missing units" resubmit.err || fail "resubmit said: $(cat resubmit.err)"

# Collect once the resubmitted tasks end: one run, every unit exactly once; a second collect
# stores nothing.
"$bg" --db "$db" collect "$job" --wait --max-wait 180s 2>collect.err >/dev/null ||
  { cat collect.err; fail "collect --wait failed"; }
"$bg" status "$job" --format json >status.json || fail "status failed"
[ "$(stored)" = "$units" ] || { cat status.json; fail "after resubmission $(stored) of $units"; }
count() {
  sqlite3 "$db" "SELECT count(*), count(DISTINCT b.name || '/' || v.name || '#' || i.idx),
    (SELECT count(*) FROM runs) FROM instances i JOIN variants v ON v.id = i.variant_id
    JOIN benchmarks b ON b.id = v.benchmark_id"
}
[ "$(count)" = "$units|$units|1" ] || fail "stored (instances|distinct units|runs): $(count)"
"$bg" --db "$db" collect "$job" 2>collect2.err >/dev/null || fail "second collect failed"
grep -q "nothing stored" collect2.err || fail "second collect said: $(cat collect2.err)"
[ "$(count)" = "$units|$units|1" ] || fail "after a second collect: $(count)"
"$bg" submit --resubmit "$job" 2>/dev/null && fail "resubmit with nothing missing succeeded"

# The A/B comparison over all units of the job.
"$bg" --db "$db" compare --format csv >compare.csv 2>compare.err ||
  { cat compare.err; fail "compare failed"; }
grep -q "^spin," compare.csv || { cat compare.csv; fail "compare shows no spin row"; }
grep -q "^noop," compare.csv || { cat compare.csv; fail "compare shows no noop row"; }
echo "ok: $units units over 8 tasks (+ $lost resubmitted) in $(($(date +%s) - start)) s"
