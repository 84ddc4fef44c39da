#!/usr/bin/env bash
# Installs the Debian packages benchguard builds and tests with, when any is missing.
#   scripts/install-deps.sh         everything `make test` needs
#   scripts/install-deps.sh --cli   only what building the CLI needs (`make cli`): no
#                                   PostgreSQL server, Slurm, Chromium, sanitizers or test tools
set -euo pipefail
if [ "${1:-}" = "--cli" ]; then
  packages=(
    cmake ninja-build g++ pkg-config git
    libcli11-dev libyaml-cpp-dev nlohmann-json3-dev libsimdjson-dev libfmt-dev libsqlite3-dev
    libboost-dev libtbb-dev libpq-dev libjemalloc-dev
  )
else
packages=(
  cmake ninja-build g++ pkg-config git
  clang libclang-rt-14-dev
  libcli11-dev libyaml-cpp-dev nlohmann-json3-dev libsimdjson-dev libfmt-dev libsqlite3-dev sqlite3
  libboost-dev libtbb-dev libgtest-dev libgmock-dev libpq-dev libjemalloc-dev
  postgresql  # the PostgreSQL store's tests start a server of their own (docs/postgres.md)
  slurm-wlm munge  # the Slurm tests start a one-node cluster of their own (docs/cluster.md)
  hyperfine
  valgrind  # the instructions channel (measure: instructions) and its tests
  libbenchmark-dev
  python3 python3-pytest python3-pip python3-setuptools
  python3-dask python3-distributed python3-pandas  # benchguard pytest on real Dask (its tests)
  python3-jsonschema  # every command's JSON checked against docs/schema (tests/golden)
  dpkg-dev zsh groff-base
  chromium            # the dashboard's browser tests (ctest -L browser)
)
fi
# npm fetches the dashboard's chart library at configure time and playwright-core for the
# browser tests; a node that brings its own npm (NodeSource) conflicts with Debian's npm.
command -v npm > /dev/null || packages+=(nodejs npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
