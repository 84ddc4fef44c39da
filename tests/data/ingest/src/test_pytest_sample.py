"""A few pytest-benchmark tests whose --benchmark-json output is the importer tests' data
(tests/data/regenerate.sh runs them). Rounds are fixed, so every run of this file gives
the same benchmarks with the same number of samples; only the times differ. The tests
span microseconds to a tenth of a second."""
import time

import pytest


def test_sum_small(benchmark):
    # Microseconds: 100 calls per round, each sample is one call's time.
    benchmark.pedantic(sum, args=(range(100),), rounds=6, iterations=100)


@pytest.mark.parametrize("n", [10, 10000])
def test_sorted(benchmark, n):
    data = list(range(n, 0, -1))
    benchmark.pedantic(sorted, args=(data,), rounds=4, iterations=10)


@pytest.mark.benchmark(group="sleep")
def test_sleep_ms(benchmark):
    benchmark.pedantic(time.sleep, args=(0.002,), rounds=5, iterations=1)


@pytest.mark.benchmark(group="sleep")
def test_sleep_tenth(benchmark):
    # Calibrated like any benchmark, but a tenth of a second per call with
    # --benchmark-max-time=0 leaves it at --benchmark-min-rounds.
    benchmark(time.sleep, 0.1)
