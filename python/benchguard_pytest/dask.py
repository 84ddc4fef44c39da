"""Metrics of a Dask cluster for one measured iteration: `cluster_metrics(client, bench)`.

    from benchguard_pytest.dask import cluster_metrics

    def test_groupby(benchmark_time_memory, client):
        df = make_frame()
        with cluster_metrics(client, benchmark_time_memory), benchmark_time_memory:
            df.groupby("k").x.sum().compute()

Around one iteration of a benchguard fixture (outside the `with bench:` block, so that its own
set-up and collection are not timed, or inside it) it records, with `bench.record`:

- dask_compute_time (s): the sum of the durations of the tasks' "compute" phases in the
  scheduler's task stream (distributed.get_task_stream), every worker thread summed: more than
  the wall time when threads compute in parallel.
- dask_transfer_time (s): the same for the "transfer" phases (fetching inputs from other
  workers; 0 with one worker).
- dask_disk_time (s): the same for "disk-write" and "disk-read" (spilling to disk and
  reading back), and dask_deserialize_time (s) for "deserialize" (usually 0 where workers
  share the client's process). These four are what Coiled's benchmark_task_durations
  records.
- dask_spilled_bytes (B): bytes the workers wrote to disk during the block (the difference of
  their SpillBuffer's cumulative disk_write_bytes_total, as distributed 2022.12 has it); not
  recorded where the version does not expose it or a worker has no spill buffer.
- dask_worker_peak_bytes (B): each worker process's resident set sampled every `interval`
  seconds (10 ms) by a thread on the worker during the block, the peaks of the workers
  summed (with one worker, its peak; with several, an upper bound of the cluster's peak).
- dask_worker_above_start_bytes (B): the same peaks minus each worker's resident set when
  the block started, summed: what the block added on the workers.

Without --benchguard nothing is sampled and nothing recorded. distributed is imported only
when cluster_metrics is called; without it the call raises ImportError saying so. A worker in
the client's process (LocalCluster(processes=False)) samples that process: its memory includes
the client's. The functions that run on the workers are sent by value (cloudpickle), so the
workers need not have benchguard_pytest installed, only psutil (a dependency of distributed).
"""

import contextlib
import uuid


def _distributed():
    try:
        import distributed
    except ImportError as e:
        raise ImportError(
            "benchguard_pytest.dask needs the distributed package (pip install distributed, "
            "or Debian's python3-distributed): {}".format(e)) from None
    return distributed


def _worker_functions():
    """(start, stop): the functions client.run sends to the workers, made here as closures so
    that cloudpickle sends their code (a module-level function would be sent by reference, and
    a worker without benchguard_pytest could not load it)."""

    def spill_total(worker):
        data = getattr(worker, "data", None)
        get_metrics = getattr(data, "get_metrics", None)
        if get_metrics is None:
            return None
        try:
            value = get_metrics().get("disk_write_bytes_total")
        except Exception:
            return None
        return None if value is None else int(value)

    def start(token, interval, dask_worker=None):
        import threading

        import psutil

        proc = psutil.Process()
        first = proc.memory_info().rss
        state = {"peak": first, "first": first, "spilled": spill_total(dask_worker),
                 "stop": threading.Event()}

        def sample():
            while not state["stop"].wait(interval):
                rss = proc.memory_info().rss
                if rss > state["peak"]:
                    state["peak"] = rss

        state["thread"] = threading.Thread(target=sample, name="benchguard-dask-memory",
                                           daemon=True)
        samplers = getattr(dask_worker, "_benchguard_samplers", None)
        if samplers is None:
            samplers = {}
            dask_worker._benchguard_samplers = samplers
        samplers[token] = state
        state["thread"].start()
        return first

    def stop(token, dask_worker=None):
        import psutil

        state = getattr(dask_worker, "_benchguard_samplers", {}).pop(token, None)
        if state is None:  # the worker joined (or restarted) during the block
            return None
        state["stop"].set()
        state["thread"].join()
        peak = max(state["peak"], psutil.Process().memory_info().rss)
        spilled = spill_total(dask_worker)
        if spilled is None or state["spilled"] is None:
            spilled = None
        else:
            spilled = max(0, spilled - state["spilled"])
        return {"first": state["first"], "peak": peak, "spilled": spilled}

    return start, stop


def _phase_seconds(task_stream):
    """Seconds per startstop action ("compute", "transfer", "disk-write", ...) summed over the
    task stream's records."""
    seconds = {}
    for record in task_stream:
        for ss in record.get("startstops", ()):
            action = ss.get("action")
            try:
                d = float(ss["stop"]) - float(ss["start"])
            except (KeyError, TypeError, ValueError):
                continue
            if d > 0:
                seconds[action] = seconds.get(action, 0.0) + d
    return seconds


@contextlib.contextmanager
def cluster_metrics(client, bench, interval=0.01):
    """Records the cluster's task times, spilled bytes and worker memory of one iteration of
    `bench` (a benchguard fixture) run on `client` (a distributed.Client); see the module's
    documentation. Wrap one iteration: around `bench(fn)` with several iterations it raises
    RuntimeError rather than give them one iteration's metrics."""
    if not getattr(bench, "recording", False):
        yield
        return
    distributed = _distributed()
    start_fn, stop_fn = _worker_functions()
    token = uuid.uuid4().hex
    done_before = bench._done
    stream = distributed.get_task_stream(client=client)
    client.run(start_fn, token, float(interval))
    stopped = False
    try:
        with stream:
            yield
        results = client.run(stop_fn, token)
        stopped = True
    finally:
        if not stopped:
            try:
                client.run(stop_fn, token)
            except Exception:
                pass
    finished = bench._done - done_before
    if finished > 1:
        raise RuntimeError(
            "cluster_metrics wrapped {} iterations of {}: wrap one (a `with` block, or a call "
            "with one iteration)".format(finished, bench._fixture))
    phases = _phase_seconds(stream.data)
    bench.record("dask_compute_time", phases.get("compute", 0.0), unit="s")
    bench.record("dask_transfer_time", phases.get("transfer", 0.0), unit="s")
    bench.record("dask_disk_time", phases.get("disk-write", 0.0) + phases.get("disk-read", 0.0),
                 unit="s")
    bench.record("dask_deserialize_time", phases.get("deserialize", 0.0), unit="s")
    per_worker = [r for r in results.values() if r is not None]
    spills = [r["spilled"] for r in per_worker]
    if per_worker and all(s is not None for s in spills):
        bench.record("dask_spilled_bytes", sum(spills), unit="B")
    if per_worker:
        bench.record("dask_worker_peak_bytes", sum(r["peak"] for r in per_worker), unit="B")
        bench.record("dask_worker_above_start_bytes",
                     sum(max(0, r["peak"] - r["first"]) for r in per_worker), unit="B")
