#!/usr/bin/env bash
# gen-cli-docs.sh BINARY OUTDIR
#
# Writes the man pages and shell completions of benchguard from the --help output of BINARY
# and of each of its subcommands (and theirs):
#   OUTDIR/man/benchguard.1.gz, OUTDIR/man/benchguard-run.1.gz, benchguard-db-check.1.gz, ...
#   OUTDIR/completions/benchguard    bash
#   OUTDIR/completions/_benchguard   zsh
# Needs bash, awk and gzip only. The build runs it after linking benchguard (CMakeLists.txt);
# docs/packaging.md tells more.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 BINARY OUTDIR" >&2
  exit 2
fi
bin=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)

version=$("$bin" --version | awk '{ print $NF; exit }')
if [ -z "$version" ]; then
  echo "$0: $bin --version printed no version" >&2
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/benchguard-cli-docs.XXXXXX")
trap 'rm -rf "$work"' EXIT
model=$work/model.tsv
: >"$model"

# walk [SUBCOMMAND...]: the records of `benchguard SUBCOMMAND... --help`, then those of each
# of its subcommands.
walk() {
  local path="$*" help sub subs
  help=$("$bin" "$@" --help)
  printf '%s\n' "$help" | awk -v path="$path" -f "$here/parse-help.awk" >>"$model"
  mapfile -t subs < <(awk -F '\t' -v path="$path" '$1 == "sub" && $2 == path { print $3 }' "$model")
  for sub in "${subs[@]}"; do
    walk "$@" "$sub"
  done
}
walk

if ! awk -F '\t' '$1 == "sub" && $2 == "" && $3 == "run" { found = 1 } END { exit !found }' "$model"; then
  echo "$0: found no subcommand 'run' in the help of $bin" >&2
  exit 1
fi

mkdir -p "$work/man" "$work/completions"
awk -F '\t' -v version="$version" -v dir="$work/man" -f "$here/man.awk" "$model"
gzip -9n "$work"/man/*.1
{
  echo "# bash completion for benchguard $version, written by gen-cli-docs.sh from its --help."
  echo "# shellcheck shell=bash"
  echo
  awk -F '\t' -v shell=bash -f "$here/completion-data.awk" "$model"
  cat "$here/completion.bash"
} >"$work/completions/benchguard"
{
  echo "#compdef benchguard"
  echo "# zsh completion for benchguard $version, written by gen-cli-docs.sh from its --help."
  echo
  awk -F '\t' -v shell=zsh -f "$here/completion-data.awk" "$model"
  cat "$here/completion.zsh"
} >"$work/completions/_benchguard"

# Replace what an earlier run wrote, so that a page of a removed subcommand goes too.
mkdir -p "$out"
rm -rf "$out/man" "$out/completions"
mv "$work/man" "$work/completions" "$out/"
cp "$model" "$out/cli-model.tsv"
