#!/usr/bin/env bash
# Checks that every #include across the folders of src/ runs down a layer as src/layers.txt
# allows, that the public headers of include/benchguard/ include nothing of src/, and that the
# files of one folder include each other in no circle.
#   scripts/check-layers.sh [ROOT]             check (ROOT: a checkout, default this one)
#   scripts/check-layers.sh --markdown [ROOT]  print the layer table for docs/dev/architecture.md
# Prints one line per violation, as FILE:LINE: ..., and exits 1 when there is any.
set -euo pipefail
markdown=0
if [ "${1:-}" = "--markdown" ]; then
  markdown=1
  shift
fi
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
layers_file="$root/src/layers.txt"
[ -f "$layers_file" ] || { echo "check-layers: no $layers_file" >&2; exit 2; }

declare -A allowed=()
order=()
bad=0
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
  lineno=$((lineno + 1))
  line=${line%%#*}
  [[ "$line" =~ ^[[:space:]]*$ ]] && continue
  if ! [[ "$line" =~ ^([a-z_]+):(.*)$ ]]; then
    echo "src/layers.txt:$lineno: expected 'folder: folders it may include'" >&2
    exit 2
  fi
  folder=${BASH_REMATCH[1]}
  deps=$(echo "${BASH_REMATCH[2]}" | xargs)
  # Each folder may include only folders above it in the file: the layers form no circle.
  for d in $deps; do
    if [ "$d" != benchguard ] && [ -z "${allowed[$d]+x}" ]; then
      echo "src/layers.txt:$lineno: $folder may include '$d', which is not listed above it" >&2
      bad=1
    fi
  done
  allowed[$folder]=" $deps "
  order+=("$folder")
done <"$layers_file"

if [ $markdown = 1 ]; then
  echo "| layer | may include |"
  echo "|---|---|"
  for f in "${order[@]}"; do
    deps=$(echo "${allowed[$f]}" | xargs)
    echo "| \`$f\` | ${deps:-(nothing of src/)} |"
  done
  exit $bad
fi

# Every folder of src/ has a line.
for dir in "$root"/src/*/; do
  f=$(basename "$dir")
  if [ -z "${allowed[$f]+x}" ]; then
    echo "src/$f/: a folder with no line in src/layers.txt" >&2
    bad=1
  fi
done

# FILE LINE TARGET for every include whose first path component names a folder of src/ or
# benchguard/.
scan() {
  grep -rnE --include='*.cpp' --include='*.hpp' --include='*.in' \
    '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"][a-z_]+/' "$@" |
    sed -E 's/^([^:]+):([0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([a-z_]+)\/.*/\1 \2 \3/'
}

while read -r file line target; do
  rel=${file#"$root"/}
  folder=${rel#src/}
  folder=${folder%%/*}
  [ "$target" = "$folder" ] && continue
  [ "$target" = benchguard ] || [ -n "${allowed[$target]+x}" ] || continue  # a library's own
  case "${allowed[$folder]-}" in
    *" $target "*) ;;
    *)
      deps=$(echo "${allowed[$folder]-}" | xargs)
      echo "$rel:$line: $folder/ includes $target/, which src/layers.txt does not allow" \
        "($folder/ may include: ${deps:-nothing of src/})"
      bad=1
      ;;
  esac
done < <(scan "$root/src")

# The public headers stand alone: only each other and the system.
while read -r file line target; do
  rel=${file#"$root"/}
  if [ "$target" != benchguard ] && [ -n "${allowed[$target]+x}" ]; then
    echo "$rel:$line: a public header includes $target/ of src/; include/benchguard/ stands alone"
    bad=1
  fi
done < <(scan "$root/include")

# Within a folder, no circle: X -> Y when X.cpp includes Y.hpp of the same folder (X.hpp and
# X.cpp are one unit X), and no unit may reach itself that way. A circle means files that
# cannot be read, tested or moved one without the other; what they share belongs in one of them
# or in a third file that both include.
declare -A edges=() edge_at=() state=()
while IFS=: read -r file line target; do
  rel=${file#"$root"/src/}
  dir=${rel%/*}
  from=${rel##*/}
  from=${from%.cpp}
  to=${target##*/}
  to=${to%.hpp}
  if [ "${target%/*}" != "$dir" ] || [ "$from" = "$to" ] ||
    [ -n "${edge_at["$dir/$from $dir/$to"]+x}" ]; then
    continue
  fi
  edges["$dir/$from"]+=" $dir/$to"
  edge_at["$dir/$from $dir/$to"]="src/$rel:$line"
done < <(grep -rnE --include='*.cpp' \
  '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z0-9_/]+\.hpp"' "$root/src" |
  sed -E 's/^([^:]+):([0-9]+):[^"]*"([^"]+)".*/\1:\2:\3/' | sort -t: -k1,1 -k2,2n)

# Depth first from UNIT (DIR/NAME); a unit met again while still on the stack closes a circle,
# printed as "a -> b -> a" with the include that makes each step.
stack=()
visit() {
  local unit=$1 next i to circle where
  state[$unit]=open
  stack+=("$unit")
  for next in ${edges[$unit]-}; do
    if [ "${state[$next]-}" = open ]; then
      circle="" where=""
      for ((i = ${#stack[@]} - 1; i >= 0; i--)); do
        circle="${stack[i]##*/} -> $circle"
        if [ "${stack[i]}" = "$next" ]; then break; fi
      done
      for ((; i < ${#stack[@]}; i++)); do
        to=$next
        if [ $((i + 1)) -lt ${#stack[@]} ]; then to=${stack[i + 1]}; fi
        where+="${where:+, }${edge_at["${stack[i]} $to"]} includes ${to##*/}.hpp"
      done
      echo "src/${unit%/*}/: a circle of includes within the folder: $circle${next##*/} ($where);" \
        "move what they share into one of them or into a third file"
      bad=1
    elif [ -z "${state[$next]-}" ]; then
      visit "$next"
    fi
  done
  unset 'stack[${#stack[@]}-1]'
  state[$unit]=closed
}
for unit in $(printf '%s\n' "${!edges[@]}" | sort); do
  if [ -z "${state[$unit]-}" ]; then visit "$unit"; fi
done

if [ $bad = 0 ]; then
  echo "layers: every include across src/ runs down src/layers.txt; no folder includes in a circle"
fi
exit $bad
