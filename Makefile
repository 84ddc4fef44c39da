# The two commands of the README: `make demo` and `make test`.
BUILD ?= build
BENCHGUARD_WERROR ?= OFF
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc)
# The sanitizer build: clang, AddressSanitizer + UBSan, the fuzz targets (docs/dev/fuzzing.md).
ASAN_BUILD ?= build-asan
ASAN_CMAKE_FLAGS = -DBENCHGUARD_SANITIZE=ON -DBENCHGUARD_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  '-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1'
FUZZ_SECONDS ?= 40

.PHONY: all deps configure build cli demo test test-asan asan-compiler fuzz bench format clean

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) -G Ninja -DBENCHGUARD_WERROR=$(BENCHGUARD_WERROR) $(CMAKE_FLAGS) >/dev/null

build: configure
	@ninja -C $(BUILD) -j $(JOBS)

# Only the CLI (build/benchguard), with only the packages it builds with: what a CI job that
# measures and gates benchmarks installs (examples/github-actions.yml). No tests, no test-only
# packages (PostgreSQL server, Slurm, Chromium).
cli:
	@scripts/install-deps.sh --cli
	@cmake -S . -B $(BUILD) -G Ninja -DBENCHGUARD_WERROR=$(BENCHGUARD_WERROR) -DBENCHGUARD_TESTS=OFF $(CMAKE_FLAGS) >/dev/null
	@ninja -C $(BUILD) -j $(JOBS) benchguard

# Builds only what the quickstart suite runs, runs it into benchguard.db and shows what was
# measured.
demo: configure
	@ninja -C $(BUILD) -j $(JOBS) benchguard sort_bench
	$(BUILD)/benchguard run examples/quickstart.yml --db benchguard.db
	@echo
	$(BUILD)/benchguard summary --db benchguard.db

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The tests again under AddressSanitizer and UndefinedBehaviorSanitizer, built with clang at -O1
# with the fuzz targets, which `make fuzz` then runs for FUZZ_SECONDS each.
test-asan: asan-compiler
	@CC=clang CXX=clang++ $(MAKE) --no-print-directory test BUILD=$(ASAN_BUILD) CMAKE_FLAGS="$(ASAN_CMAKE_FLAGS)"

fuzz: asan-compiler
	@CC=clang CXX=clang++ $(MAKE) --no-print-directory configure BUILD=$(ASAN_BUILD) CMAKE_FLAGS="$(ASAN_CMAKE_FLAGS)"
	@ninja -C $(ASAN_BUILD) -j $(JOBS) fuzzers
	scripts/fuzz.sh $(ASAN_BUILD) $(FUZZ_SECONDS)

# A sanitizer build directory configured by another compiler (gcc, before) is configured afresh.
asan-compiler:
	@if [ -f $(ASAN_BUILD)/CMakeCache.txt ] && \
	  ! grep -q '^CMAKE_CXX_COMPILER:FILEPATH=.*clang' $(ASAN_BUILD)/CMakeCache.txt; then \
	  echo "$(ASAN_BUILD) was configured with another compiler: configuring it for clang" >&2; \
	  rm -rf $(ASAN_BUILD)/CMakeCache.txt $(ASAN_BUILD)/CMakeFiles; \
	fi

bench: build
	bench/run.sh $(BUILD)

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf build build-asan
