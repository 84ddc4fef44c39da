"""benchguard_pytest.dask: a cluster's task times, spilled bytes and worker memory per iteration,
on a real one-worker LocalCluster (in the test's process, for speed)."""

import importlib.util
import json
import os
import subprocess
import sys

import pytest

from test_metrics import metric_table
from test_plugin import PYTEST, bg, exported, iterations, write

DASK_TESTS = """
    import dask
    import pytest

    from benchguard_pytest.dask import cluster_metrics

    @pytest.fixture(scope="module")
    def client():
        from distributed import Client, LocalCluster

        # Spill what the worker holds above 40 MB (10% of its 400 MB limit, by sizeof).
        settings = {"distributed.worker.memory.target": 0.1,
                    "distributed.worker.memory.spill": False,
                    "distributed.worker.memory.pause": False,
                    "distributed.worker.memory.terminate": False}
        with dask.config.set(settings):
            with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                              dashboard_address=None, memory_limit="400MB") as cluster:
                with Client(cluster) as client:
                    yield client

    def test_sum(benchmark_time_memory, client):
        import dask.array as da

        x = da.random.random((2000, 2000), chunks=(500, 500))
        for _ in range(benchmark_time_memory.iterations):
            with cluster_metrics(client, benchmark_time_memory), benchmark_time_memory:
                x.sum().compute()

    def test_persist(benchmark_time, client):
        import dask.array as da
        from distributed import wait

        x = da.random.random((4000, 4000), chunks=(1000, 1000))  # 128 MB in 16 chunks
        with benchmark_time, cluster_metrics(client, benchmark_time):   # inside the block
            y = x.persist()
            wait(y)
            del y

    def test_two_iterations_at_once(benchmark_time, client):
        with cluster_metrics(client, benchmark_time):
            benchmark_time(client.submit(sum, [1, 2]).result)
"""


@pytest.fixture
def distributed_installed():
    for module in ("dask", "distributed"):
        if importlib.util.find_spec(module) is None:
            pytest.skip("{} is not installed (Debian: python3-dask, python3-distributed)".format(
                module))


def test_cluster_metrics_records_task_times_spill_and_worker_memory(
        pytester, clean_env, distributed_installed):
    write(pytester, DASK_TESTS, name="test_cluster")
    db = pytester.path / "dask.db"
    # In a process of its own: the cluster's threads and event loop stay out of this one.
    result = pytester.runpytest_subprocess(
        "-p", "benchguard_pytest", "-p", "no:cacheprovider", "--benchguard={}".format(db),
        "--benchguard-warmup=0",
        "--benchguard-iterations", "2", "-W", "ignore::DeprecationWarning")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*RuntimeError: cluster_metrics wrapped 2 iterations of "
                                 "benchmark_time: wrap one*"])
    _, variants = exported(clean_env, db)
    its = iterations(variants["test_cluster.py::test_sum"])
    assert len(its) == 2
    for it in its:
        m = it["metrics"]
        assert m["dask_compute_time"] > 0, m
        assert m["dask_transfer_time"] == 0, m  # one worker: nothing to fetch
        assert m["dask_spilled_bytes"] == 0, m  # a sum holds a few chunks at a time
        # The worker lives in this process: its peak is at least the block's own RSS peak
        # (sampled over a span that holds the block) and at least what it added.
        assert m["dask_worker_peak_bytes"] >= m["dask_worker_above_start_bytes"] >= 0, m
        assert m["dask_worker_peak_bytes"] > 50 * 1024 * 1024, m
    # One block per call: called again until it has its 2 iterations (rounds); the first
    # persist spills.
    its = iterations(variants["test_cluster.py::test_persist"])
    assert len(its) == 2
    m = its[0]["metrics"]
    # 128 MB persisted on a worker that keeps 40 MB in memory: the rest went to disk.
    assert 60e6 < m["dask_spilled_bytes"] <= 128 * 1024 * 1024, m
    assert m["dask_disk_time"] > 0, m
    assert m["dask_compute_time"] > 0 and m["wall_time"] > 0, m


def test_under_benchguard_run_the_cluster_metrics_have_units(pytester, clean_env,
                                                             distributed_installed):
    write(pytester, DASK_TESTS, name="test_cluster")
    db = pytester.path / "run.db"
    proc = bg(clean_env, "run", "--db", str(db), "--instances", "1", "--iterations", "2",
              "--name", "sum", "--", *PYTEST, "-W", "ignore::DeprecationWarning",
              "test_cluster.py::test_sum", "--benchguard", cwd=str(pytester.path), check=False)
    assert proc.returncode == 0, proc.stderr
    _, variants = exported(clean_env, db)
    assert all(it["metrics"]["dask_compute_time"] > 0 for it in iterations(variants["sum"]))
    table = metric_table(db)
    assert table["dask_compute_time"] == ("s", "lower")
    assert table["dask_transfer_time"] == ("s", "lower")
    assert table["dask_disk_time"] == ("s", "lower")
    assert table["dask_deserialize_time"] == ("s", "lower")
    assert table["dask_spilled_bytes"] == ("B", "lower")
    assert table["dask_worker_peak_bytes"] == ("B", "lower")
    assert table["dask_worker_above_start_bytes"] == ("B", "lower")


def test_without_distributed_the_helper_says_what_is_missing(tmp_path):
    code = ("import sys; sys.modules['distributed'] = None\n"
            "from benchguard_pytest.dask import cluster_metrics\n"
            "class Bench:\n    recording = True\n    _done = 0\n"
            "try:\n    cluster_metrics(object(), Bench()).__enter__()\n"
            "except ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, check=True,
                         universal_newlines=True, env=dict(os.environ)).stdout
    assert out.startswith("benchguard_pytest.dask needs the distributed package"), out
    # Importing the helper alone imports nothing of Dask.
    code = ("import sys\nimport benchguard_pytest.dask\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('dask', 'distributed'))))")
    out = subprocess.run([sys.executable, "-c", "import json\n" + code], stdout=subprocess.PIPE,
                         check=True, universal_newlines=True).stdout
    assert json.loads(out) == []
