#!/usr/bin/env bash
# packaging.install: installs the build into a temporary prefix, then configures and builds
# the project of tests/packaging/example against it (find_package(benchguard CONFIG) with
# CMAKE_PREFIX_PATH), runs its client program with BENCHGUARD_RESULTS set and checks the
# protocol line it wrote, and its library program; then builds both programs again with the
# flags pkg-config gives for benchguard and benchguard-library. Exits 77 (skipped) when a
# tool is missing.
#
#   install_test.sh BUILD_DIR EXAMPLE_DIR CXX_COMPILER SANITIZE(ON|OFF)
set -euo pipefail

build=$1
example=$2
cxx=$3
sanitize=${4:-OFF}

for tool in cmake pkg-config "$cxx"; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: $tool not found"
    exit 77
  fi
done

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/benchguard-install-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
version=$("$build/benchguard" --version | awk '{ print $NF }')

echo "== cmake --install $build --prefix $prefix --strip"
cmake --install "$build" --prefix "$prefix" --strip >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; fail "cmake --install failed"; }

config=$(find "$prefix" -path '*/cmake/benchguard/benchguardConfig.cmake' | head -n 1)
for f in bin/benchguard include/benchguard/client.hpp include/benchguard/barrier.hpp \
  include/benchguard/benchguard.hpp include/benchguard/gtest.hpp include/benchguard/iteration_counters.hpp \
  include/benchguard/internal/core/version.hpp \
  include/benchguard/internal/stats/descriptive.hpp share/pkgconfig/benchguard.pc \
  share/man/man1/benchguard.1.gz share/man/man1/benchguard-run.1.gz \
  share/bash-completion/completions/benchguard share/zsh/vendor-completions/_benchguard; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
[ -n "$config" ] || fail "not installed: lib/cmake/benchguard/benchguardConfig.cmake"
# Where benchguard looks for it (src/measure/count_library.cpp): lib/benchguard beside bin.
[ -e "$prefix/lib/benchguard/libbenchguard_count.so" ] ||
  [ -n "$(find "$prefix" -path '*/lib/*/benchguard/libbenchguard_count.so')" ] ||
  fail "not installed: lib/benchguard/libbenchguard_count.so"
for f in benchguardConfigVersion.cmake benchguardClientTargets.cmake \
  benchguardLibraryTargets.cmake; do
  [ -e "$(dirname "$config")/$f" ] || fail "not installed: $(dirname "$config")/$f"
done
got=$("$prefix/bin/benchguard" --version)
[ "$got" = "benchguard $version" ] || fail "installed benchguard --version: '$got'"
echo "installed: $got, $(find "$prefix" -type f | wc -l) files"

# The project of example/, as another project would use the package.
san=()
flags=()
if [ "$sanitize" = ON ]; then
  # The library was built with the sanitizers: what links it needs their runtime.
  san=("-fsanitize=address,undefined")
  flags=("-DCMAKE_CXX_FLAGS=${san[*]}" "-DCMAKE_EXE_LINKER_FLAGS=${san[*]}")
fi
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
echo "== configure and build $example"
cmake -S "$example" -B "$tmp/example" "${generator[@]}" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" "${flags[@]}" >"$tmp/configure.log" 2>&1 ||
  { cat "$tmp/configure.log"; fail "configuring the example failed"; }
grep -F -- "-- benchguard $version from $(dirname "$config")" "$tmp/configure.log" ||
  { cat "$tmp/configure.log"; fail "the example did not find benchguard $version in $prefix"; }
cmake --build "$tmp/example" -j 2 >"$tmp/build.log" 2>&1 ||
  { cat "$tmp/build.log"; fail "building the example failed"; }

echo "== run the client example"
results=$tmp/results.jsonl
env -u BENCHGUARD_ITERATIONS -u BENCHGUARD_BURN_IN -u BENCHGUARD_BARRIER \
  BENCHGUARD_RESULTS="$results" "$tmp/example/client_example" || fail "client_example failed"
cat "$results"
[ "$(wc -l <"$results")" -eq 1 ] || fail "expected one protocol line in $results"
grep -Eq '^\{"iteration":0,"start_ns":[0-9]+,"end_ns":[0-9]+,"burn_in":false,"metrics":\{"wall_time":[0-9.e+-]+\}\}$' \
  "$results" || fail "not a protocol line: $(cat "$results")"

echo "== run the library example"
got=$("$tmp/example/library_example")
echo "$got"
[ "$got" = "benchguard $version median 2.5" ] || fail "library_example printed '$got'"

echo "== pkg-config"
libdir=$(dirname "$(dirname "$(dirname "$config")")")
export PKG_CONFIG_PATH=$prefix/share/pkgconfig:$libdir/pkgconfig
cflags=$(pkg-config --cflags benchguard | awk '{ $1 = $1; print }')
echo "pkg-config --cflags benchguard: $cflags"
[ "$cflags" = "-I$prefix/include" ] || fail "unexpected cflags '$cflags'"
got=$(pkg-config --modversion benchguard)
[ "$got" = "$version" ] || fail "pkg-config --modversion benchguard: '$got'"
# shellcheck disable=SC2086 # the flags are words
"$cxx" -std=c++20 $cflags "$example/main.cpp" -o "$tmp/pc_example" ||
  fail "compiling with pkg-config's flags failed"
rm -f "$results"
env -u BENCHGUARD_ITERATIONS -u BENCHGUARD_BURN_IN -u BENCHGUARD_BARRIER \
  BENCHGUARD_RESULTS="$results" "$tmp/pc_example" || fail "pc_example failed"
[ "$(grep -c '"iteration":0' "$results")" -eq 1 ] || fail "pc_example wrote no protocol line"

lib_flags=$(pkg-config --cflags --libs benchguard-library)
echo "pkg-config --cflags --libs benchguard-library: $lib_flags"
# shellcheck disable=SC2086 # the flags are words
"$cxx" -std=c++20 "${san[@]}" "$example/library.cpp" $lib_flags -o "$tmp/pc_library_example" ||
  fail "linking with pkg-config's flags for benchguard-library failed"
got=$("$tmp/pc_library_example")
[ "$got" = "benchguard $version median 2.5" ] || fail "pc_library_example printed '$got'"

echo "PASS"
