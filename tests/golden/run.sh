#!/usr/bin/env bash
# Golden outputs: each command's output in every format it offers, on a fixed database
# (bg_history_db: 15 commits of 3 benchmarks in variants A and B, hostile names included),
# byte for byte against tests/golden/expected/. Every JSON output is also checked against its
# schema in docs/schema/ (python3-jsonschema).
#   run.sh BENCHGUARD HISTORY_DB WORKDIR [--update]
# --update writes the outputs as the new expected ones (scripts/update-golden.sh).
set -euo pipefail
bg=$(realpath "$1") history_db=$(realpath "$2") work=$3 update=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
expected=$here/expected
export SOURCE_DATE_EPOCH=1767312000  # 2026-01-02T00:00:00Z: what detect and gate call now
export TZ=UTC

rm -rf "$work" && mkdir -p "$work/out"
cd "$work"
"$history_db" golden.db --benchmarks 3 --commits 15 --two-variants --hostile --wide-last >/dev/null

# name|formats|arguments: outputs in out/NAME.FORMAT (table as .txt).
cases=(
  "runs|table md csv json jsonl|runs"
  "show|table md csv json jsonl|show latest"
  "summary|table md csv json jsonl|summary latest"
  "compare|table md csv json jsonl|compare latest --variant-a A --variant-b B"
  "history|table md csv json jsonl|history bench/0000 --last 4"
  "detect|table md csv json jsonl|detect"
  "gate|table md csv json jsonl|gate"
  "export|csv json jsonl|export 14"
  "db-check|table md csv json jsonl|db check"
)
status=0
for c in "${cases[@]}"; do
  IFS='|' read -r name formats args <<<"$c"
  for f in $formats; do
    ext=$f
    [[ $f == table ]] && ext=txt
    out=out/$name.$ext
    # shellcheck disable=SC2086
    set +e
    "$bg" --db golden.db --format "$f" $args >"$out" 2>"$out.err"
    code=$?
    set -e
    echo "exit $code" >>"$out.err"
  done
done

# Every JSON document names its schema and version, and conforms to it.
python3 "$here/check_schema.py" out/*.json || status=1
# JSON Lines: one JSON object a line.
for jsonl in out/*.jsonl; do
  python3 -c 'import json,sys
for n,l in enumerate(open(sys.argv[1]),1):
    assert isinstance(json.loads(l), dict), f"{sys.argv[1]}:{n}: not an object"' "$jsonl" || status=1
done

if [[ $update == --update ]]; then
  rm -rf "$expected" && mkdir -p "$expected"
  cp out/* "$expected/"
  echo "golden outputs written to $expected"
  exit $status
fi
for e in "$expected"/*; do
  got=out/$(basename "$e")
  if ! cmp -s "$e" "$got"; then
    echo "golden: $(basename "$e") differs (scripts/update-golden.sh rewrites it when meant):"
    diff -u "$e" "$got" | head -40 || true
    status=1
  fi
done
for got in out/*; do
  [[ -e $expected/$(basename "$got") ]] || { echo "golden: $(basename "$got") has no expected output"; status=1; }
done
exit $status
