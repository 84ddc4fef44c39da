# The two commands of the README: `make demo` and `make test`.
BUILD ?= build
BENCHGUARD_WERROR ?= OFF
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc)

.PHONY: all deps configure build demo test test-asan bench format clean

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) -G Ninja -DBENCHGUARD_WERROR=$(BENCHGUARD_WERROR) $(CMAKE_FLAGS) >/dev/null

build: configure
	@ninja -C $(BUILD) -j $(JOBS)

# Builds only what the quickstart suite runs, runs it into benchguard.db and shows what was
# measured.
demo: configure
	@ninja -C $(BUILD) -j $(JOBS) benchguard sort_bench
	$(BUILD)/benchguard run examples/quickstart.yml --db benchguard.db
	@echo
	$(BUILD)/benchguard summary --db benchguard.db

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The tests again under AddressSanitizer and UndefinedBehaviorSanitizer.
test-asan:
	@$(MAKE) --no-print-directory test BUILD=build-asan CMAKE_FLAGS="-DBENCHGUARD_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo"

bench: build
	bench/run.sh $(BUILD)

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf build build-asan
