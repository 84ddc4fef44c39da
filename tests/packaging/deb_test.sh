#!/usr/bin/env bash
# packaging.deb: builds the .deb with cpack (into a temporary directory, from the build's
# CPack configuration), checks its control fields and contents, unpacks it into a temporary
# root, runs the benchguard in it, and tries the man pages and the bash completion it holds.
# Exits 77 (skipped) when a tool is missing.
#
#   deb_test.sh BUILD_DIR
set -euo pipefail

build=$1

for tool in cpack dpkg-deb gzip; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: $tool not found"
    exit 77
  fi
done

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/benchguard-deb-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
version=$("$build/benchguard" --version | awk '{ print $NF }')

echo "== cpack -G DEB"
(cd "$build" && cpack -G DEB -B "$tmp/pkg") >"$tmp/cpack.log" 2>&1 ||
  { cat "$tmp/cpack.log"; fail "cpack failed"; }
debs=("$tmp"/pkg/*.deb)
if [ ${#debs[@]} -ne 1 ] || [ ! -f "${debs[0]}" ]; then
  cat "$tmp/cpack.log"
  fail "expected one .deb in $tmp/pkg"
fi
deb=${debs[0]}
echo "$(basename "$deb"): $(du -h "$deb" | cut -f1)"

echo "== control fields"
dpkg-deb -f "$deb" Package Version Architecture Maintainer Depends
[ "$(dpkg-deb -f "$deb" Package)" = benchguard ] || fail "Package is not benchguard"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "Version is not $version"
if command -v dpkg-shlibdeps >/dev/null; then
  dpkg-deb -f "$deb" Depends | grep -q 'libc6' || fail "Depends names no libc6"
else
  echo "NOTE: dpkg-shlibdeps not found (dpkg-dev): Depends not checked"
fi

echo "== contents"
dpkg-deb -c "$deb" | awk '{ print $NF }' | sed 's|^\./|/|' >"$tmp/contents"
for f in /usr/bin/benchguard /usr/include/benchguard/client.hpp \
  /usr/include/benchguard/internal/core/version.hpp /usr/share/pkgconfig/benchguard.pc \
  /usr/share/man/man1/benchguard.1.gz /usr/share/man/man1/benchguard-run.1.gz \
  /usr/share/man/man1/benchguard-compare.1.gz /usr/share/man/man1/benchguard-db-check.1.gz \
  /usr/share/bash-completion/completions/benchguard /usr/share/zsh/vendor-completions/_benchguard; do
  grep -qxF "$f" "$tmp/contents" || fail "not in the package: $f"
done
grep -q '^/usr/lib/.*cmake/benchguard/benchguardConfig\.cmake$' "$tmp/contents" ||
  fail "not in the package: the CMake package"
grep -q '^/usr/lib/.*libbenchguard_lib\.a$' "$tmp/contents" || fail "not in the package: the library"
grep -q '^/usr/lib/.*pkgconfig/benchguard-library\.pc$' "$tmp/contents" ||
  fail "not in the package: benchguard-library.pc"
echo "$(grep -c 'man1/.*\.1\.gz$' "$tmp/contents") man pages, $(wc -l <"$tmp/contents") entries"

echo "== unpack and run"
root=$tmp/root
dpkg-deb -x "$deb" "$root"
got=$("$root/usr/bin/benchguard" --version)
echo "$got"
[ "$got" = "benchguard $version" ] || fail "benchguard --version printed '$got'"
grep -q '^prefix=/usr$' "$root/usr/share/pkgconfig/benchguard.pc" ||
  fail "benchguard.pc does not name the prefix /usr"

echo "== man pages"
for page in "$root"/usr/share/man/man1/*.1.gz; do
  gzip -t "$page" || fail "$page: not gzip"
  zcat "$page" | grep -q '^\.TH "BENCHGUARD' || fail "$page: no .TH"
  zcat "$page" | grep -q '^\.SH SYNOPSIS' || fail "$page: no SYNOPSIS"
  if command -v groff >/dev/null; then
    warnings=$(zcat "$page" | groff -man -Tutf8 -ww -z 2>&1)
    [ -z "$warnings" ] || fail "$page: groff: $warnings"
  fi
done
zcat "$root/usr/share/man/man1/benchguard-run.1.gz" | grep -q -- '\\-\\-schedule' ||
  fail "benchguard-run.1 does not tell --schedule"

echo "== bash completion"
completion=$root/usr/share/bash-completion/completions/benchguard
# complete WORDS...: what the completion offers for the last word.
out=$(bash --norc --noprofile -c '
  set -u
  . "$1"
  complete -p benchguard
  complete_words() {
    COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
    _benchguard
    echo "$* => ${COMPREPLY[*]}"
  }
  complete_words benchguard ru
  complete_words benchguard db ch
  complete_words benchguard --format j
  complete_words benchguard compare --stati
  complete_words benchguard compare --statistic m
  complete_words benchguard --db x.db run --sched
  complete_words benchguard run --schedule in
' bash "$completion" 2>&1) || { echo "$out"; fail "the bash completion failed"; }
echo "$out"
expect() { grep -qxF -- "$1" <<<"$out" || fail "bash completion: expected '$1'"; }
expect "complete -F _benchguard benchguard"
expect "benchguard ru => run runs"
expect "benchguard db ch => check"
expect "benchguard --format j => json jsonl"
expect "benchguard compare --stati => --statistic"
expect "benchguard compare --statistic m => median mean"
expect "benchguard --db x.db run --sched => --schedule"
expect "benchguard run --schedule in => interleaved"

echo "== zsh completion"
zcompletion=$root/usr/share/zsh/vendor-completions/_benchguard
[ "$(head -n 1 "$zcompletion")" = "#compdef benchguard" ] || fail "_benchguard: no #compdef line"
if command -v zsh >/dev/null; then
  zsh -n "$zcompletion" || fail "_benchguard: zsh syntax"
  out=$(zsh -f -c 'eval "$(sed "/^_benchguard \"\$@\"$/d" "$1")"; _benchguard_described commands db' \
    zsh "$zcompletion") || fail "_benchguard: could not be loaded"
  grep -q '^check:Integrity' <<<"$out" || fail "_benchguard: no description of db check"
  echo "zsh: loaded; db check: $(grep '^check:' <<<"$out")"
else
  echo "NOTE: zsh not found: _benchguard not loaded"
fi

echo "PASS"
