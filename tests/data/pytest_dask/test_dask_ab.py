"""Dask benchmarks written as tests, for `benchguard pytest` (tests/timing/cli_pytest_dask_test.cpp
and bench/pytest_dask.sh): an array reduction whose chunks come from Dask's configuration
(`array.chunk-size`, set by the environment as DASK_ARRAY__CHUNK_SIZE), a groupby-aggregate, a
bag fold on a one-worker LocalCluster with its cluster metrics, and a block that holds
BG_EXTRA_MB more memory where the environment says so."""

import os

import pytest

from benchguard_pytest.dask import cluster_metrics


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                      dashboard_address=None) as cluster:
        with Client(cluster) as c:
            yield c


def test_array_sum(benchmark_time):
    import dask.array as da

    x = da.ones((2000, 2000))  # chunked by the configuration's array.chunk-size
    with benchmark_time:
        x.sum().compute(scheduler="sync")


def test_groupby(benchmark_time):
    import dask.dataframe as dd
    import pandas as pd

    df = pd.DataFrame({"k": [i % 10 for i in range(50_000)], "v": range(50_000)})
    ddf = dd.from_pandas(df, npartitions=4)
    with benchmark_time:
        ddf.groupby("k").v.sum().compute(scheduler="sync")


def test_bag_fold(benchmark_time, client):
    import dask.bag as db

    b = db.from_sequence(range(20_000), npartitions=8)
    with cluster_metrics(client, benchmark_time), benchmark_time:
        b.fold(lambda acc, x: acc + x, lambda l, r: l + r, initial=0).compute()


def test_block_memory(benchmark_memory):
    size = (10 + int(os.environ.get("BG_EXTRA_MB", "0"))) << 20
    with benchmark_memory:
        block = b"\x01" * size  # written, so resident
        del block
