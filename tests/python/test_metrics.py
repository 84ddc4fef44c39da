"""The plugin's own metrics: bench.record() (custom metrics, their units and directions), the
memory of the block (rss_above_start_bytes, python_peak_bytes), and the interpreter's packages
(python_packages, `python3 -m benchguard_pytest.packages`)."""

import json
import sqlite3
import pytest

from test_plugin import PYTEST, bg, exported, iterations, write

RECORD_TESTS = """
    import time

    def test_inside(benchmark_time):
        for i in range(benchmark_time.iterations):
            with benchmark_time:
                time.sleep(0.001)
                benchmark_time.record("items_per_call", 100 + i, better="higher")
                benchmark_time.record("scratch_bytes", 4096 * (i + 1), unit="B")

    def test_after(benchmark_memory):
        for i in range(benchmark_memory.iterations):
            with benchmark_memory:
                sum(range(1000))
            benchmark_memory.record("tasks", i)         # the iteration just measured
        benchmark_memory(sum, range(10))                # iterations more, then the last one's
        benchmark_memory.record("tasks", 99)

    def test_inside_a_call(benchmark_time_memory):
        def work():
            benchmark_time_memory.record("inner_seconds", 0.25, unit="s")
            return 1
        assert benchmark_time_memory(work) == 1
"""

RECORD_ERRORS = """
    import math

    import pytest

    def test_no_iteration_yet(benchmark_time):
        benchmark_time.record("tasks", 1)

    @pytest.mark.parametrize("name, value, kwargs, error", [
        ("", 1, {}, "metric name '' is empty"),
        ("a\\tb", 1, {}, "contains the control character U+0009 at offset 1"),
        ("a\\u202eb", 1, {}, "contains the bidirectional control U+202E"),
        ("x" * 5000, 1, {}, "is 5000 bytes long, above the limit of 4096"),
        ("tasks", math.nan, {}, "the value must be a finite number, not nan"),
        ("tasks", math.inf, {}, "the value must be a finite number, not inf"),
        ("tasks", "12", {}, "the value must be a number (int or float), not str"),
        ("tasks", True, {}, "the value must be a number (int or float), not bool"),
        ("spill", -1, {"unit": "B"}, "the value is negative (-1 B)"),
        ("tasks", 1, {"better": "more"}, "better must be \\"lower\\" or \\"higher\\""),
        ("tasks", 1, {"unit": "x" * 40}, "is longer than 32 bytes"),
        ("wall_time", 1, {}, "'wall_time' is measured by the fixture itself"),
        ("rss_peak_bytes", 1, {}, "'rss_peak_bytes' is measured by the fixture itself"),
        ("throughput", 1, {"better": "lower"}, "'throughput' is built into benchguard"),
    ])
    def test_refused(benchmark_time, name, value, kwargs, error):
        with benchmark_time:
            pass
        with pytest.raises((TypeError, ValueError)) as info:
            benchmark_time.record(name, value, **kwargs)
        assert error in str(info.value), str(info.value)
        assert "test_errors.py::test_refused[" in str(info.value)

    def test_one_unit_per_metric(benchmark_time):
        with benchmark_time:
            benchmark_time.record("moved", 1, unit="B")
            benchmark_time.record("moved", 2, unit="s")

    def test_accepted(benchmark_time):
        with benchmark_time:
            benchmark_time.record("throughput", 5.0, better="higher")   # the built-in's own
            benchmark_time.record("n", 3)
            benchmark_time.record("n", 4)                               # the last value counts
"""


def metric_table(db):
    """The database's metrics: name -> (unit, direction) (docs/store.md)."""
    con = sqlite3.connect(str(db))
    try:
        return {n: (u, d) for n, u, d in con.execute("select name, unit, direction from metrics")}
    finally:
        con.close()


def test_record_adds_metrics_to_the_iteration_in_progress_or_the_last_one(pytester, clean_env):
    write(pytester, RECORD_TESTS, name="test_record")
    db = pytester.path / "record.db"
    result = pytester.runpytest("-p", "benchguard_pytest", "-p", "no:cacheprovider",
                                "--benchguard={}".format(db), "--benchguard-warmup=0",
                                "--benchguard-iterations", "3")
    result.assert_outcomes(passed=3)
    (run,), variants = exported(clean_env, db)

    its = iterations(variants["test_record.py::test_inside"])
    assert [it["metrics"]["items_per_call"] for it in its] == [100, 101, 102]
    assert [it["metrics"]["scratch_bytes"] for it in its] == [4096, 8192, 12288]
    assert all(it["metrics"]["wall_time"] >= 0.001 for it in its)

    its = iterations(variants["test_record.py::test_after"])
    assert len(its) == 6  # 3 with blocks and 3 calls
    assert [it["metrics"].get("tasks") for it in its] == [0, 1, 2, None, None, 99]
    assert all("rss_above_start_bytes" in it["metrics"] for it in its)

    its = iterations(variants["test_record.py::test_inside_a_call"])
    assert [it["metrics"]["inner_seconds"] for it in its] == [0.25] * 3

    # The units and directions are on record with the run, as an artifact.
    declared = json.loads(run["artifacts"]["metric_declarations"])
    assert declared["items_per_call"] == {"unit": "", "better": "higher"}
    assert declared["scratch_bytes"] == {"unit": "B", "better": "lower"}
    assert declared["rss_above_start_bytes"] == {"unit": "B", "better": "lower"}
    assert declared["inner_seconds"] == {"unit": "s", "better": "lower"}
    # ... and the import declared them to the database from that artifact.
    table = metric_table(db)
    assert table["items_per_call"] == ("", "higher")
    assert table["scratch_bytes"] == ("B", "lower")
    assert table["rss_above_start_bytes"] == ("B", "lower")


def test_record_refuses_what_benchguard_would_refuse_naming_the_test(pytester, clean_env):
    """Checked in Python, with or without --benchguard, so the test fails at the call."""
    write(pytester, RECORD_ERRORS, name="test_errors")
    result = pytester.runpytest("-p", "benchguard_pytest", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=15, failed=2)
    result.stdout.fnmatch_lines([
        "*RuntimeError: benchmark_time.record('tasks') in test_errors.py::test_no_iteration_yet:"
        " no iteration to record into yet*",
        "*ValueError: benchmark_time.record('moved') in test_errors.py::test_one_unit_per_metric:"
        " 'moved' was recorded before with unit 'B'*",
    ])
    # Recording too: the same refusals, and the failures are the tests' own.
    db = pytester.path / "errors.db"
    result = pytester.runpytest("-p", "benchguard_pytest", "-p", "no:cacheprovider",
                                "--benchguard={}".format(db), "--benchguard-warmup=0")
    result.assert_outcomes(passed=15, failed=2)
    _, variants = exported(clean_env, db)
    (it,) = iterations(variants["test_errors.py::test_accepted"])
    assert it["metrics"]["n"] == 4 and it["metrics"]["throughput"] == 5.0
    assert variants["test_errors.py::test_no_iteration_yet"]["instances"][0]["failure"].startswith(
        "failed: RuntimeError: benchmark_time.record('tasks')")


def test_under_benchguard_run_the_declarations_carry_units_and_directions(pytester, clean_env):
    write(pytester, RECORD_TESTS, name="test_record")
    db = pytester.path / "run.db"
    for name, selection in (("inside", "test_record.py::test_inside"),
                            ("after", "test_record.py::test_after")):
        proc = bg(clean_env, "run", "--db", str(db), "--instances", "2", "--iterations", "2",
                  "--name", name, "--", *PYTEST, selection, "--benchguard",
                  cwd=str(pytester.path), check=False)
        assert proc.returncode == 0, proc.stderr
    _, variants = exported(clean_env, db)
    for inst in variants["inside"]["instances"]:
        assert [it["metrics"]["items_per_call"] for it in inst["iterations"]] == [100, 101]
    for inst in variants["after"]["instances"]:
        assert [it["metrics"].get("tasks") for it in inst["iterations"]] == [0, 1, None, 99]
    table = metric_table(db)
    assert table["items_per_call"] == ("", "higher")
    assert table["scratch_bytes"] == ("B", "lower")
    assert table["tasks"] == ("", "lower")
    for metric in ("rss_peak_bytes", "rss_above_start_bytes"):
        assert table[metric] == ("B", "lower"), metric
    # These blocks last well under 6 ms: too short for the sampled average, which is left out
    # rather than made of the first and last reading.
    assert "rss_avg_bytes" not in table
    assert table["wall_time"] == ("s", "lower")


def test_declaration_lines_come_before_the_iterations():
    from benchguard_pytest import _record

    rec = _record.Record("t.py::t", "t.py::t", "benchmark_time")
    rec.iterations = [(1, 2, {"wall_time": 1e-9, "items": 3, "spill": 1, "plain": 2})]
    rec.declared = {"items": ("", "higher"), "spill": ("B", "lower"), "plain": ("", "lower"),
                    "wall_time": ("s", "lower"), "unused": ("B", "lower")}
    lines = [json.loads(line) for line in _record.protocol_lines(rec)]
    # Only what has a unit or is higher-is-better, and is not built in, needs declaring.
    assert lines[:2] == [{"metric": "items", "better": "higher"},
                         {"metric": "spill", "unit": "B", "better": "lower"}]
    assert len(lines) == 3 and lines[2]["metrics"]["items"] == 3


MEMORY_TESTS = """
    import pytest

    HELD = []

    def touch(n):
        block = bytearray(n)
        block[::4096] = b"\\x01" * (len(block) // 4096)
        return block

    @pytest.fixture(scope="module", autouse=True)
    def imports():
        # What imports and set-up hold before the block: 80 MB, not the block's.
        HELD.append(touch(80 * 1024 * 1024))

    @pytest.mark.parametrize("extra_mb", [0, 50])
    def test_block(benchmark_memory, extra_mb):
        small = bytes(1024)
        for _ in range(benchmark_memory.iterations):
            with benchmark_memory:
                data = touch(extra_mb * 1024 * 1024) if extra_mb else small
                del data

    @pytest.mark.benchguard_tracemalloc
    def test_python_objects(benchmark_time):
        with benchmark_time:
            objects = [str(i) for i in range(200000)]
            del objects
"""


def test_rss_above_start_is_what_the_block_needed_not_the_imports(pytester, clean_env):
    write(pytester, MEMORY_TESTS, name="test_mem")
    db = pytester.path / "mem.db"
    result = pytester.runpytest("-p", "benchguard_pytest", "-p", "no:cacheprovider",
                                "--benchguard={}".format(db), "--benchguard-warmup=0",
                                "--benchguard-iterations", "3")
    result.assert_outcomes(passed=3)
    _, variants = exported(clean_env, db)
    mb = 1024 * 1024
    small = iterations(variants["test_mem.py::test_block/extra_mb=0"])
    large = iterations(variants["test_mem.py::test_block/extra_mb=50"])
    for it in small + large:
        m = it["metrics"]
        # The whole process's resident set holds the 80 MB set up before the block ...
        assert m["rss_peak_bytes"] > 80 * mb, m
        assert m["rss_peak_bytes"] - m["rss_above_start_bytes"] > 80 * mb, m
        assert "python_peak_bytes" not in m  # only where asked
    # ... the block's own figure does not: a few MB at most where it allocates nothing, 50 MB
    # more where it allocates 50 MB.
    assert max(it["metrics"]["rss_above_start_bytes"] for it in small) < 8 * mb
    for it in large:
        assert 48 * mb <= it["metrics"]["rss_above_start_bytes"] < 60 * mb, it["metrics"]

    # The mark asks tracemalloc's figure for one test, whatever its fixture: 200,000 strs and
    # the list hold about 13 MB of Python objects.
    # (One block a call: called until it has its 3 iterations.)
    its = iterations(variants["test_mem.py::test_python_objects"])
    assert len(its) == 3
    for it in its:
        assert 8 * mb < it["metrics"]["python_peak_bytes"] < 30 * mb, it["metrics"]
        assert "rss_peak_bytes" not in it["metrics"]


def test_the_tracemalloc_flag_adds_python_peak_bytes_to_the_memory_fixtures(pytester, clean_env):
    write(pytester, MEMORY_TESTS, name="test_mem")
    db = pytester.path / "trace.db"
    result = pytester.runpytest("-p", "benchguard_pytest", "-p", "no:cacheprovider",
                                "--benchguard={}".format(db), "--benchguard-warmup=0",
                                "--benchguard-tracemalloc",
                                "test_mem.py::test_block")
    result.assert_outcomes(passed=2)
    _, variants = exported(clean_env, db)
    mb = 1024 * 1024
    (small,) = iterations(variants["test_mem.py::test_block/extra_mb=0"])
    (large,) = iterations(variants["test_mem.py::test_block/extra_mb=50"])
    # bytearray's buffer is a traced Python allocation; the 80 MB held before is not counted.
    assert small["metrics"]["python_peak_bytes"] < mb
    assert 50 * mb <= large["metrics"]["python_peak_bytes"] < 51 * mb


def test_a_session_records_the_interpreters_packages(pytester, clean_env):
    write(pytester, RECORD_TESTS, name="test_record")
    db = pytester.path / "packages.db"
    result = pytester.runpytest("-p", "benchguard_pytest", "-p", "no:cacheprovider",
                                "--benchguard={}".format(db), "--benchguard-warmup=0",
                                "test_record.py::test_inside")
    result.assert_outcomes(passed=1)
    (run,), _ = exported(clean_env, db)
    packages = json.loads(run["artifacts"]["python_packages"])
    assert packages["pytest"] == pytest.__version__
    assert list(packages) == sorted(packages, key=lambda n: (n.lower(), n))
