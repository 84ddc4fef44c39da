#!/bin/bash
# Slurm tasks storing into PostgreSQL themselves: a two-variant suite submitted over 8 array
# tasks with --db postgresql://...; when the last task ends the run is in the database, with
# every unit once, without collect (which then stores nothing), and compares.
#   slurm_pg_e2e.sh BENCHGUARD HELPER_DIR   (SLURM_CONF and BENCHGUARD_TEST_PG from the fixtures)
set -u
bg=${1:?benchguard binary}
helpers=${2:?helper directory}
fail() { echo "FAIL: $*"; exit 1; }

if ! command -v sbatch >/dev/null || [ -z "${SLURM_CONF:-}" ] || ! sinfo -h >/dev/null 2>&1; then
  echo "SKIP: no Slurm cluster to submit to (the slurm.server_start fixture did not start one)"
  exit 77
fi
if [ -z "${BENCHGUARD_TEST_PG:-}" ] || ! psql -q -X "$BENCHGUARD_TEST_PG" -c "SELECT 1" >/dev/null 2>&1
then
  echo "SKIP: no PostgreSQL server (the postgres.server_start fixture did not start one)"
  exit 77
fi

work=$(mktemp -d /tmp/benchguard-slurm-pg-XXXXXX)
name=bg_slurm_$(basename "$work" | tr -dc 'a-zA-Z0-9' | tr 'A-Z' 'a-z')
psql -q -X "$BENCHGUARD_TEST_PG" -c "CREATE DATABASE $name" || fail "cannot create a database"
trap 'rm -rf "$work"; psql -q -X "$BENCHGUARD_TEST_PG" -c "DROP DATABASE IF EXISTS $name" >/dev/null' EXIT
db=${BENCHGUARD_TEST_PG/\/\/\/postgres/\/\/\/$name}
cd "$work" || exit 1
cat >suite.yml <<YAML
name: cluster-pg
schedule: alternate
instances: 8
benchmarks:
  - name: spin
    command: [$helpers/bg_spin, "5"]
    variants:
      A: {}
      B: {command: [$helpers/bg_spin, "8"]}
YAML
units=16
job=$work/job

start=$(date +%s)
"$bg" --db "$db" submit suite.yml --slurm --tasks 8 --seed 3 --job-dir "$job" >/dev/null \
  2>submit.err || { cat submit.err; fail "submit failed"; }
grep -q "the last task stores the run" submit.err || fail "submit said: $(cat submit.err)"
for _ in $(seq 180); do
  "$bg" status "$job" --format json >status.json || fail "status failed"
  grep -q -E '"state": "(pending|running)"' status.json || break
  sleep 1
done
grep -q -E '"state": "(pending|running)"' status.json && fail "the job did not end within 180 s"
[ "$(grep -c '"state": "done"' status.json)" = 8 ] || { cat status.json; fail "not 8 tasks done"; }
grep -l "every unit is stored" "$job"/attempt-1/task-*.log >/dev/null ||
  { cat "$job"/attempt-1/task-*.log; fail "no task stored the run"; }

count() {
  psql -q -X -t -A "$db" -c "SELECT count(*), count(DISTINCT b.name || '/' || v.name || '#' || i.idx),
    (SELECT count(*) FROM runs) FROM instances i JOIN variants v ON v.id = i.variant_id
    JOIN benchmarks b ON b.id = v.benchmark_id"
}
[ "$(count)" = "$units|$units|1" ] || fail "stored (instances|distinct units|runs): $(count)"
"$bg" --db "$db" collect "$job" 2>collect.err >/dev/null || { cat collect.err; fail "collect failed"; }
grep -q "nothing stored" collect.err || fail "collect said: $(cat collect.err)"
[ "$(count)" = "$units|$units|1" ] || fail "after collect: $(count)"
"$bg" --db "$db" compare --format csv >compare.csv 2>compare.err ||
  { cat compare.err; fail "compare failed"; }
grep -q "^spin," compare.csv || { cat compare.csv; fail "compare shows no spin row"; }
echo "ok: $units units over 8 tasks stored into PostgreSQL by the last task in $(($(date +%s) - start)) s"
