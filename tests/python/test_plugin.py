"""The pytest plugin (python/benchguard_pytest): fixtures without --benchguard, recording into
a database with it, failed tests, and the iteration protocol under `benchguard run`."""

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

# Benchmarks as tests: every fixture, both forms, parameters, and a test that is none.
BENCH_TESTS = """
    import os
    import time

    import pytest

    def ran(name):
        with open(os.path.join(os.path.dirname(__file__), "ran.txt"), "a") as f:
            f.write(name + "\\n")

    def test_with(benchmark_time):
        for _ in range(benchmark_time.iterations):
            with benchmark_time:
                time.sleep(0.001)
                ran("with")

    @pytest.mark.parametrize("n", [10, 1000])
    def test_sorted(benchmark_time, n):
        assert benchmark_time(sorted, range(n, 0, -1))[0] == 1
        ran("sorted")

    @pytest.mark.parametrize("data", [pytest.param(object(), id="obj")])
    def test_object_param(benchmark_time, data):
        assert benchmark_time(id, data) == id(data)

    def test_memory(benchmark_memory):
        def grow():
            block = bytearray(32 * 1024 * 1024)
            block[::4096] = b"\\x01" * (len(block) // 4096)
            time.sleep(0.01)
            ran("memory")
            return len(block)
        assert benchmark_memory(grow) == 32 * 1024 * 1024

    def test_time_memory(benchmark_time_memory):
        with benchmark_time_memory:
            sum(range(10000))
            time.sleep(0.02)  # long enough for rss_avg_bytes (3 samples at least)
            ran("time_memory")

    def test_not_a_benchmark():
        pass
"""

BENCHMARKS = {
    "test_bench.py::test_with",
    "test_bench.py::test_sorted/n=10",
    "test_bench.py::test_sorted/n=1000",
    "test_bench.py::test_object_param/data=data0",
    "test_bench.py::test_memory",
    "test_bench.py::test_time_memory",
}

# Outcomes other than passed.
OUTCOME_TESTS = """
    import pytest

    def test_passes(benchmark_time):
        with benchmark_time:
            pass

    def test_fails(benchmark_time):
        with benchmark_time:
            pass
        assert 1 == 2, "slower than it should be"

    @pytest.fixture
    def broken():
        raise RuntimeError("no input")

    def test_setup_error(broken, benchmark_time):
        pass

    @pytest.mark.skip(reason="not on this machine")
    def test_skipped(benchmark_time):
        pass

    @pytest.mark.xfail(reason="known bug")
    def test_xfail(benchmark_time):
        with benchmark_time:
            pass
        assert False

    def test_two_fixtures(benchmark_time, benchmark_memory):
        pass

    def test_unused(benchmark_time):
        pass
"""

PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
          "benchguard_pytest"]


def bg(binary, *args, cwd=None, check=True):
    proc = subprocess.run([binary] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, cwd=cwd)
    if check and proc.returncode != 0:
        raise AssertionError("benchguard {} exited {}:\n{}\n{}".format(
            " ".join(args), proc.returncode, proc.stdout, proc.stderr))
    return proc


def exported(binary, db):
    """The variants of every run in db, by benchmark name, from `export --format json`."""
    doc = json.loads(bg(binary, "export", "--all", "--format", "json", "--db", str(db)).stdout)
    return doc["runs"], {v["benchmark"]: v for r in doc["runs"] for v in r["variants"]}


def iterations(variant):
    return [it for inst in variant["instances"] for it in inst["iterations"]]


def write(pytester, source, name="test_bench"):
    pytester.makepyfile(**{name: textwrap.dedent(source)})


def test_without_the_flag_the_fixtures_run_the_body_and_record_nothing(pytester, clean_env):
    write(pytester, BENCH_TESTS)
    pytester.makepyfile(test_probe="""
        def test_probe(benchmark_time, benchmark_memory=None):
            pass

        def test_not_recording(benchmark_memory):
            assert not benchmark_memory.recording
            assert benchmark_memory.iterations == 1
            assert benchmark_memory(lambda x: x + 1, 1) == 2
    """)
    result = pytester.runpytest("-p", "benchguard_pytest", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=9)
    ran = (pytester.path / "ran.txt").read_text().split()
    assert sorted(ran) == sorted(["with", "sorted", "sorted", "memory", "time_memory"])
    assert not list(pytester.path.glob("*.db"))
    assert "benchguard" not in result.stdout.str().replace("benchguard_pytest", "")


def test_the_plugin_imports_only_the_standard_library():
    if not hasattr(sys, "stdlib_module_names"):
        pytest.skip("sys.stdlib_module_names needs Python 3.10")
    code = textwrap.dedent("""
        import sys
        import pytest
        before = set(sys.modules)
        import benchguard_pytest
        new = set(sys.modules) - before
        print(sorted(m for m in new if m.split(".")[0] not in sys.stdlib_module_names
                     and m.split(".")[0] != "benchguard_pytest"))
    """)
    out = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, check=True,
                         universal_newlines=True).stdout
    assert out.strip() == "[]"


def test_the_flag_records_one_benchmark_per_test_with_params_time_and_memory(
        pytester, clean_env):
    write(pytester, BENCH_TESTS)
    db = pytester.path / "results.db"
    result = pytester.runpytest("-p", "benchguard_pytest", "-p", "no:cacheprovider",
                                "--benchguard={}".format(db), "--benchguard-warmup=0",
                                "--benchguard-iterations", "3",
                                "--benchguard-label", "team=seed")
    result.assert_outcomes(passed=7)
    result.stdout.fnmatch_lines(["*6 test(s) recorded into*results.db*"])

    runs = json.loads(bg(clean_env, "runs", "--format", "json", "--db", str(db)).stdout)["runs"]
    assert len(runs) == 1
    assert runs[0]["benchmarks"] == 6 and runs[0]["instances"] == 6
    assert runs[0]["labels"] == {"team": "seed"}

    (run,), variants = exported(clean_env, db)
    assert set(variants) == BENCHMARKS
    assert run["suite"] == "pytest"
    assert run["artifacts"]["pytest_outcomes"] == "passed=6"
    for name, v in variants.items():
        assert len(v["instances"]) == 1 and v["instances"][0]["failure"] == "", name
        its = iterations(v)
        # A call measures --benchguard-iterations calls; `with` one each time it is entered,
        # which test_with does `iterations` times, and test_time_memory once a call, so it is
        # called again until it has them (rounds).
        assert len(its) == 3, name
        for it in its:
            assert it["failure"] == "" and it["metrics"]["wall_time"] > 0, name
            assert it["end_ns"] > it["start_ns"] > 0
    assert min(it["metrics"]["wall_time"] for it in iterations(variants[
        "test_bench.py::test_with"])) >= 0.001
    # The average needs 3 samples inside the body (_measure.MIN_AVERAGE_SAMPLES): on a busy
    # machine the sampler thread can miss them in a short body, which then has none. Where
    # there is one it lies below the peak, and the sampler gave most iterations one.
    averaged = 0
    for name in ("test_bench.py::test_memory", "test_bench.py::test_time_memory"):
        for it in iterations(variants[name]):
            m = it["metrics"]
            assert m["rss_peak_bytes"] > 0, name
            if "rss_avg_bytes" in m:
                averaged += 1
                assert m["rss_peak_bytes"] >= m["rss_avg_bytes"] > 0, name
    assert averaged >= 3
    for it in iterations(variants["test_bench.py::test_memory"]):
        assert it["metrics"]["rss_peak_bytes"] >= 32 * 1024 * 1024
    for it in iterations(variants["test_bench.py::test_with"]):
        assert set(it["metrics"]) == {"wall_time"}

    # A second session is a second run of the same benchmarks: what history and compare use.
    result = pytester.runpytest("-p", "benchguard_pytest", "-p", "no:cacheprovider",
                                "test_bench.py::test_with", "--benchguard={}".format(db),
                                "--benchguard-warmup=0")
    result.assert_outcomes(passed=1)
    runs, _ = exported(clean_env, db)
    assert len(runs) == 2


def test_the_flag_alone_records_into_benchguard_db_or_its_env(pytester, clean_env, monkeypatch):
    write(pytester, BENCH_TESTS)
    result = pytester.runpytest("-p", "benchguard_pytest", "-p", "no:cacheprovider",
                                "test_bench.py::test_with", "--benchguard")
    result.assert_outcomes(passed=1)
    assert (pytester.path / "benchguard.db").exists()
    other = pytester.path / "other.db"
    monkeypatch.setenv("BENCHGUARD_DB", str(other))
    result = pytester.runpytest("-p", "benchguard_pytest", "-p", "no:cacheprovider",
                                "test_bench.py::test_with", "--benchguard")
    result.assert_outcomes(passed=1)
    _, variants = exported(clean_env, other)
    assert set(variants) == {"test_bench.py::test_with"}


def test_a_test_path_after_the_flag_is_refused_not_taken_for_the_database(pytester, clean_env):
    write(pytester, BENCH_TESTS)
    result = pytester.runpytest("-p", "benchguard_pytest", "--benchguard", "test_bench.py")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--benchguard took 'test_bench.py' for its database*"])
    assert not list(pytester.path.glob("*.db"))


def test_failed_skipped_and_unmeasured_tests_are_recorded_as_failed(pytester, clean_env):
    write(pytester, OUTCOME_TESTS, name="test_outcomes")
    db = pytester.path / "outcomes.db"
    result = pytester.runpytest("-p", "benchguard_pytest", "-p", "no:cacheprovider",
                                "--benchguard={}".format(db), "--benchguard-warmup=0")
    result.assert_outcomes(passed=2, failed=1, errors=2, skipped=1, xfailed=1)
    result.stdout.fnmatch_lines(["*7 test(s) recorded into*(6 failed, skipped or not measured*"])
    (run,), variants = exported(clean_env, db)
    failures = {name.split("::")[1]: v["instances"][0]["failure"] for name, v in variants.items()}
    assert failures["test_passes"] == ""
    assert failures["test_fails"] == "failed: AssertionError: slower than it should be"
    assert failures["test_setup_error"] == "error in setup: RuntimeError: no input"
    assert failures["test_skipped"] == "skipped: not on this machine"
    assert failures["test_xfail"] == "xfailed: known bug"
    assert failures["test_two_fixtures"].startswith(
        "error in setup: a test takes one benchguard fixture")
    assert failures["test_unused"] == (
        "not measured: the test never used its benchmark_time fixture")
    # No failed test's measurement counts as a clean one: every iteration of it is failed.
    for name, v in variants.items():
        if not name.endswith("test_passes"):
            assert all(it["failure"] for it in iterations(v)), name
    assert run["artifacts"]["pytest_outcomes"] == (
        "error=2 failed=1 passed=2 skipped=1 xfailed=1")
    # What show counts: one clean instance, the others failed and out of the statistics.
    show = json.loads(bg(clean_env, "show", "--format", "json", "--db", str(db)).stdout)
    counts = {b["benchmark"].split("::")[1]: (b["instances"], b["instances_failed"],
                                              b["iterations"]) for b in show["benchmarks"]}
    assert counts.pop("test_passes") == (1, 0, 1)
    assert set(counts.values()) == {(0, 1, 0)}


def run_under_benchguard(binary, cwd, db, selection, *run_args):
    return bg(binary, "run", "--db", str(db), *run_args, "--", *PYTEST, selection,
              "--benchguard", cwd=str(cwd), check=False)


def test_under_benchguard_run_each_instance_reports_its_iterations(pytester, clean_env):
    write(pytester, BENCH_TESTS)
    db = pytester.path / "run.db"
    proc = run_under_benchguard(clean_env, pytester.path, db, "test_bench.py::test_sorted[1000]",
                                "--instances", "3", "--iterations", "4", "--burn-in", "1",
                                "--name", "sorted")
    assert proc.returncode == 0, proc.stderr
    _, variants = exported(clean_env, db)
    v = variants["sorted"]
    assert len(v["instances"]) == 3
    for inst in v["instances"]:
        assert inst["failure"] == "" and not inst["timed_outside"]
        its = inst["iterations"]
        assert [it["burn_in"] for it in its] == [True, False, False, False, False]
        # Where hardware counters work, each iteration reports them too.
        counters = {"instructions", "cycles", "branch_misses", "cache_misses"}
        assert all("wall_time" in it["metrics"] for it in its)
        assert all(set(it["metrics"]) <= {"wall_time"} | counters for it in its)
        assert all(it["metrics"]["wall_time"] > 0 for it in its)

    proc = run_under_benchguard(clean_env, pytester.path, db, "test_bench.py::test_memory",
                                "--instances", "2", "--iterations", "1", "--name", "memory")
    assert proc.returncode == 0, proc.stderr
    _, variants = exported(clean_env, db)
    for inst in variants["memory"]["instances"]:
        (it,) = inst["iterations"]
        assert it["metrics"]["rss_peak_bytes"] >= 32 * 1024 * 1024
        assert it["metrics"]["rss_avg_bytes"] > 0


def test_under_benchguard_run_a_failed_test_fails_its_instances(pytester, clean_env):
    write(pytester, OUTCOME_TESTS, name="test_outcomes")
    db = pytester.path / "run.db"
    proc = run_under_benchguard(clean_env, pytester.path, db, "test_outcomes.py::test_fails",
                                "--instances", "2", "--name", "fails")
    assert proc.returncode == 3  # benchmarks failed while measuring
    _, variants = exported(clean_env, db)
    for inst in variants["fails"]["instances"]:
        assert inst["failure"] == "exit code 1"
        assert [it["failure"] for it in inst["iterations"]] == [
            "failed: AssertionError: slower than it should be"]


def test_under_measure_instructions_each_iteration_reports_its_own_count(pytester, clean_env):
    """Under `run --measure instructions` (Valgrind's callgrind; about 10 s here) each
    iteration reports the instructions its body executed, through benchguard's count library:
    more than the 1,000 values sorted() walks, far below the whole session's, and nearly the
    same in every instance (benchguard fixes PYTHONHASHSEED; what is left, 0.2% at most here,
    is the interpreter's allocator and garbage collector in a slightly other state, as are
    the iterations of one instance, by a few percent, from one to the next)."""
    if shutil.which("valgrind") is None:
        pytest.skip("valgrind is not installed")
    write(pytester, BENCH_TESTS)
    db = pytester.path / "run.db"
    proc = run_under_benchguard(clean_env, pytester.path, db, "test_bench.py::test_sorted[1000]",
                                "--measure", "instructions", "--instances", "2", "--iterations",
                                "3", "--name", "sorted")
    assert proc.returncode == 0, proc.stderr
    _, variants = exported(clean_env, db)
    per_instance = []
    for inst in variants["sorted"]["instances"]:
        counts = [it["metrics"].get("instructions") for it in inst["iterations"]]
        assert all(c is not None for c in counts), inst["iterations"]
        assert all(c > 10000 for c in counts), counts
        assert max(counts) < inst["instructions"] / 100, (counts, inst["instructions"])
        assert max(counts) < 1.5 * min(counts), counts
        per_instance.append(counts)
    assert len(per_instance) == 2
    for a, b in zip(*per_instance):
        assert abs(a - b) <= 1e-2 * a, per_instance


def test_each_iteration_counts_the_events_benchguard_names(pytester, clean_env, monkeypatch):
    """Per-iteration perf events through benchguard's count library, as the C++ client counts
    them: where hardware counters work benchguard names them; here software events, named in
    the environment, stand in (this VM has no PMU). A sum of 1,000,000 numbers takes more than
    ten times the task clock of one of 10,000; a name the library does not know is left out."""
    write(pytester, """
        import pytest

        @pytest.mark.parametrize("n", [10000, 1000000])
        def test_sum(benchmark_time, n):
            assert benchmark_time(sum, range(n)) == n * (n - 1) // 2
    """, name="test_counted")
    db = pytester.path / "run.db"
    monkeypatch.setenv("BENCHGUARD_COUNTERS", "task_clock,bogus,page_faults")
    clock = {}
    for n in ("10000", "1000000"):
        proc = run_under_benchguard(clean_env, pytester.path, db,
                                    "test_counted.py::test_sum[{}]".format(n), "--instances",
                                    "1", "--iterations", "3", "--name", "sum" + n)
        assert proc.returncode == 0, proc.stderr
        _, variants = exported(clean_env, db)
        its = iterations(variants["sum" + n])
        assert len(its) == 3
        if not any("task_clock" in it["metrics"] for it in its):
            pytest.skip("perf_event_open is refused here")
        for it in its:
            assert "task_clock" in it["metrics"] and "page_faults" in it["metrics"], it
            assert "bogus" not in it["metrics"], it
        clock[n] = sorted(it["metrics"]["task_clock"] for it in its)[1]
    assert clock["1000000"] > 10 * clock["10000"], clock


def test_under_benchguard_run_one_instance_measures_one_test(pytester, clean_env):
    write(pytester, BENCH_TESTS)
    db = pytester.path / "run.db"
    proc = run_under_benchguard(clean_env, pytester.path, db, "test_bench.py",
                                "--instances", "1", "--name", "all")
    assert proc.returncode == 3
    _, variants = exported(clean_env, db)
    assert variants["all"]["instances"][0]["failure"] == "exit code 4"  # pytest's usage error


def test_a_suite_declares_one_benchmark_per_test(pytester, clean_env):
    write(pytester, BENCH_TESTS)
    command = ", ".join(json.dumps(a) for a in PYTEST + ["test_bench.py::test_sorted[{n}]",
                                                         "--benchguard"])
    suite = pytester.path / "suite.yml"
    suite.write_text(textwrap.dedent("""\
        name: pytest-benchmarks
        instances: 2
        iterations: 3
        benchmarks:
          - name: sorted
            params: {{n: [10, 1000]}}
            command: [{}]
    """).format(command))
    db = pytester.path / "suite.db"
    proc = bg(clean_env, "run", str(suite), "--db", str(db), check=False)
    assert proc.returncode == 0, proc.stderr
    _, variants = exported(clean_env, db)
    assert set(variants) == {"sorted/n=10", "sorted/n=1000"}
    for name, v in variants.items():
        assert v["params"] == {"n": name.rsplit("=", 1)[1]}
        assert len(v["instances"]) == 2
        assert all(len(inst["iterations"]) == 3 and not inst["timed_outside"]
                   for inst in v["instances"])


def test_pip_installs_it_offline_and_pytest_loads_it_by_its_entry_point(
        pytester, clean_env, tmp_path, monkeypatch):
    for module in ("pip", "setuptools"):
        if importlib.util.find_spec(module) is None:
            pytest.skip("{} is not installed (Debian: python3-{})".format(module, module))
    # A copy, so that the build leaves nothing in the checkout.
    source = tmp_path / "source"
    shutil.copytree(os.path.join(os.path.dirname(__file__), "..", "..", "python"), str(source),
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-build-isolation",
                    "--no-index", "--no-cache-dir", "--disable-pip-version-check", "--target",
                    str(site), str(source)], check=True, stdout=subprocess.PIPE,
                   stderr=subprocess.STDOUT)
    write(pytester, BENCH_TESTS)
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD")
    monkeypatch.setenv("PYTHONPATH", str(site))
    db = pytester.path / "installed.db"
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "test_bench.py::test_with", "--benchguard={}".format(db),
                           "--benchguard-warmup=0"],
                          cwd=str(pytester.path), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    assert proc.returncode == 0, proc.stdout
    _, variants = exported(clean_env, db)
    assert set(variants) == {"test_bench.py::test_with"}


WARM_TESTS = """
    import os

    def _called(name):
        with open(os.path.join(os.environ["CALLS_DIR"], name), "a") as f:
            f.write("x")

    def test_one_block(benchmark_time):
        _called("one_block")
        with benchmark_time:
            sum(range(1000))

    def test_loop(benchmark_time):
        _called("loop")
        for _ in range(benchmark_time.iterations):
            with benchmark_time:
                sum(range(1000))
"""


def test_a_session_is_warm_by_default_and_calls_a_one_block_test_again(pytester, clean_env,
                                                                       monkeypatch):
    """The first iteration is a warm-up stored as burn-in (--benchguard-warmup, default 1);
    a test that measures one block a call is called again until it has its iterations
    (rounds), a test that loops over bench.iterations once."""
    write(pytester, WARM_TESTS, name="test_warm")
    calls = pytester.path / "calls"
    calls.mkdir()
    monkeypatch.setenv("CALLS_DIR", str(calls))
    db = pytester.path / "warm.db"
    result = pytester.runpytest("-p", "benchguard_pytest", "-p", "no:cacheprovider",
                                "--benchguard={}".format(db))
    result.assert_outcomes(passed=2)
    _, variants = exported(clean_env, db)
    for name in ("test_warm.py::test_one_block", "test_warm.py::test_loop"):
        its = iterations(variants[name])
        assert [it["burn_in"] for it in its] == [True, False], name
    assert (calls / "one_block").read_text() == "xx"
    assert (calls / "loop").read_text() == "x"

    # No warm-up, three measured: three calls of the one-block test, none burn-in.
    db = pytester.path / "cold.db"
    for f in calls.iterdir():
        f.unlink()
    result = pytester.runpytest("-p", "benchguard_pytest", "-p", "no:cacheprovider",
                                "--benchguard={}".format(db), "--benchguard-warmup=0",
                                "--benchguard-iterations", "3")
    result.assert_outcomes(passed=2)
    _, variants = exported(clean_env, db)
    its = iterations(variants["test_warm.py::test_one_block"])
    assert [it["burn_in"] for it in its] == [False] * 3
    assert (calls / "one_block").read_text() == "xxx"
    assert (calls / "loop").read_text() == "x"
    result = pytester.runpytest("-p", "benchguard_pytest", "--benchguard-warmup=-1")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
