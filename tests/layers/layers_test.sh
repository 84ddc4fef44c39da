#!/usr/bin/env bash
# The layer check (scripts/check-layers.sh): this checkout passes, and a scratch copy with an
# include that runs up a layer, a public header that includes src/, a folder with no line, a
# circle in src/layers.txt, or two .cpp files of one folder that include each other's headers
# (directly or through others) fails, naming the file and line.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
check="$root/scripts/check-layers.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$check" "$root" >/dev/null || fail "this checkout breaks its own layers"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fresh() {
  rm -rf "$scratch/copy"
  mkdir -p "$scratch/copy"
  cp -r "$root/src" "$root/include" "$scratch/copy/"
}
expect_fail() {  # NAME NEEDLE
  local out rc=0
  out=$("$check" "$scratch/copy" 2>&1) || rc=$?
  [ $rc -eq 1 ] || fail "$1: exit $rc, expected 1: $out"
  [[ "$out" == *"$2"* ]] || fail "$1: no '$2' in: $out"
  echo "ok: $1: $(echo "$out" | head -1)"
}

fresh
line=$(( $(wc -l <"$scratch/copy/src/stats/descriptive.hpp") + 1 ))
echo '#include "report/table.hpp"' >>"$scratch/copy/src/stats/descriptive.hpp"
expect_fail "stats includes report" "src/stats/descriptive.hpp:$line: stats/ includes report/"

fresh
echo '#include "cli/app.hpp"' >>"$scratch/copy/src/core/model.cpp"
expect_fail "core includes cli" "core/ includes cli/"

fresh
echo '#include "analysis/compare.hpp"' >>"$scratch/copy/src/store/store.hpp"
expect_fail "store includes analysis" "store/ includes analysis/"

fresh
echo '#include "core/model.hpp"' >>"$scratch/copy/include/benchguard/client.hpp"
expect_fail "public header includes src" "include/benchguard/client.hpp"

fresh
mkdir "$scratch/copy/src/extra"
expect_fail "folder without a line" "src/extra/"

fresh
sed -i 's/^core:.*/core: stats/' "$scratch/copy/src/layers.txt"
expect_fail "a circle in the table" "not listed above it"

# samples.cpp -> plan.hpp, while plan.cpp includes samples.hpp.
fresh
line=$(( $(wc -l <"$scratch/copy/src/analysis/samples.cpp") + 1 ))
echo '#include "analysis/plan.hpp"' >>"$scratch/copy/src/analysis/samples.cpp"
expect_fail "a circle within a folder" "src/analysis/samples.cpp:$line includes plan.hpp"

# Three units round: plan.cpp -> samples.hpp is there; samples -> calibrate -> plan closes it.
# (A header that includes another makes no edge: only what a .cpp file includes does.)
fresh
echo '#include "analysis/calibrate.hpp"' >>"$scratch/copy/src/analysis/samples.cpp"
echo '#include "analysis/plan.hpp"' >>"$scratch/copy/src/analysis/calibrate.cpp"
expect_fail "a longer circle within a folder" "calibrate -> plan -> samples -> calibrate"
echo "layers: 8 broken copies caught, this checkout clean"

# docs/dev/architecture.md carries the table as the script prints it.
doc="$root/docs/dev/architecture.md"
documented=$(sed -n '/<!-- layers:begin -->/,/<!-- layers:end -->/p' "$doc" | sed '1d;$d')
[ "$documented" = "$("$check" --markdown "$root")" ] ||
  fail "the layer table of docs/dev/architecture.md differs from src/layers.txt: paste the output of scripts/check-layers.sh --markdown"
echo "layers: docs/dev/architecture.md carries the table"
