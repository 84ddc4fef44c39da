"""benchguard's pytest plugin: benchmarks written as ordinary tests.

A test takes one of the fixtures `benchmark_time`, `benchmark_memory` or
`benchmark_time_memory` and runs the code to measure through it:

    def test_sort(benchmark_time):
        data = list(range(100_000, 0, -1))
        with benchmark_time:          # one iteration
            sorted(data)

    def test_parse(benchmark_memory):
        benchmark_memory(parse, text)  # benchmark_memory.iterations iterations

Without `--benchguard` the fixtures run the body and record nothing. With it, every such
test's iterations, its parameters and its outcome are recorded: under `benchguard run` into
the instance's results file (the iteration protocol), else into a database through
`benchguard import` at the end of the session. docs/pytest.md says more.

Only the standard library is used. The package's __init__ imports this module when pytest is
importable, so that `-p benchguard_pytest` and the `pytest11` entry point find the hooks and
fixtures on the package.
"""

import enum
import inspect
import json
import os
import platform
import socket
import time

import pytest

from . import _measure, _metrics, _record
from ._version import __version__

__all__ = [
    "Benchmark", "FIXTURES", "benchmark_name", "benchmark_memory", "benchmark_time",
    "benchmark_time_memory", "pytest_addoption", "pytest_collection_finish",
    "pytest_configure", "pytest_pyfunc_call", "pytest_runtest_makereport",
    "pytest_runtest_protocol",
    "pytest_sessionfinish", "pytest_terminal_summary",
]

FIXTURES = ("benchmark_time", "benchmark_memory", "benchmark_time_memory")
_MEMORY = ("benchmark_memory", "benchmark_time_memory")
_MAX_NAME = 4000  # bytes
_MAX_TEXT = 500


# ----------------------------------------------------------------------------------- options


def pytest_addoption(parser):
    group = parser.getgroup("benchguard", "benchguard: record the benchmark fixtures")
    group.addoption(
        "--benchguard", dest="benchguard", action="store", nargs="?", const="", default=None,
        metavar="DB",
        help="record what the benchmark_* fixtures measure: under `benchguard run` into its "
        "results file, else into DB (default $BENCHGUARD_DB, else benchguard.db) through "
        "`benchguard import`. Write --benchguard=DB, or put --benchguard after the test paths.")
    group.addoption(
        "--benchguard-iterations", dest="benchguard_iterations", type=int, default=None,
        metavar="N",
        help="iterations measured per test after its warm-up (default 1; under `benchguard "
        "run` $BENCHGUARD_ITERATIONS)")
    group.addoption(
        "--benchguard-warmup", dest="benchguard_warmup", type=int, default=None, metavar="N",
        help="iterations run first and stored as burn-in, so that a cold first call is not "
        "measured (default 1; under `benchguard run` its --burn-in)")
    group.addoption(
        "--benchguard-tracemalloc", dest="benchguard_tracemalloc", action="store_true",
        default=False,
        help="benchmark_memory and benchmark_time_memory also record python_peak_bytes, the "
        "peak of the Python allocations tracemalloc traces during the body (slows the body: "
        "docs/pytest.md); the benchguard_tracemalloc mark asks it for one test")
    group.addoption(
        "--benchguard-label", dest="benchguard_labels", action="append", default=[],
        metavar="KEY=VALUE", help="label the imported run (repeatable; as `benchguard run "
        "--label`)")


# ------------------------------------------------------------------------------------- state


class _State:
    def __init__(self):
        self.mode = "off"  # off | protocol | direct
        self.iterations = 1  # warm-up included
        self.warmup = 0  # direct mode: the first iterations, stored as burn-in
        self.db = None
        self.binary = None
        self.labels = []
        self.results = None
        self.items = {}  # nodeid -> (benchmark name, fixture) of the selected benchmark tests
        self.current = {}  # nodeid -> Record of the test running now
        self.done = []  # Records of finished tests (direct mode)
        self.notes = []
        self.declared = {}  # metric -> (unit, better), over the session
        self.started_at_ns = time.time_ns()


if hasattr(pytest, "StashKey"):
    _STATE = pytest.StashKey()

    def _set_state(config, state):
        config.stash[_STATE] = state

    def _state(config):
        return config.stash.get(_STATE, None)

else:  # pytest before 7.0

    def _set_state(config, state):
        config._benchguard_state = state

    def _state(config):
        return getattr(config, "_benchguard_state", None)


def _note(state, text):
    if text not in state.notes:
        state.notes.append(text)


def _looks_like_test_path(value):
    return value.endswith(".py") or "::" in value or os.path.isdir(value)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "benchguard_tracemalloc: the test's benchguard fixture also records "
        "python_peak_bytes (tracemalloc's peak of Python allocations during the body)")
    state = _State()
    _set_state(config, state)
    value = config.getoption("benchguard")
    n = config.getoption("benchguard_iterations")
    if n is not None and n < 1:
        raise pytest.UsageError("--benchguard-iterations must be at least 1")
    warmup = config.getoption("benchguard_warmup")
    if warmup is not None and warmup < 0:
        raise pytest.UsageError("--benchguard-warmup must be 0 or more")
    if value is None:
        return
    if _looks_like_test_path(value):
        raise pytest.UsageError(
            "--benchguard took {!r} for its database; write --benchguard=DB, or put "
            "--benchguard after the test paths".format(value))
    if config.getoption("numprocesses", default=None):
        raise pytest.UsageError("--benchguard records in one process: run without -n (xdist)")
    labels = config.getoption("benchguard_labels") or []
    for label in labels:
        if "=" not in label or label.startswith("="):
            raise pytest.UsageError("--benchguard-label {!r}: expected KEY=VALUE".format(label))
    results = os.environ.get("BENCHGUARD_RESULTS")
    if results:
        if os.environ.get("BENCHGUARD_BARRIER"):
            raise pytest.UsageError(
                "benchguard_pytest cannot wait on the sync-duet barrier: run this benchmark "
                "under another schedule (duet pairs its iterations as well)")
        state.mode = "protocol"
        state.results = results
        try:
            state.iterations = max(1, int(os.environ.get("BENCHGUARD_ITERATIONS", "")))
        except ValueError:
            state.iterations = n or 1
        return
    state.mode = "direct"
    state.db = os.path.abspath(value or os.environ.get("BENCHGUARD_DB") or "benchguard.db")
    state.binary = _record.find_binary()
    if state.binary is None:
        raise pytest.UsageError(
            "--benchguard: the benchguard program was not found: set BENCHGUARD_BIN or put "
            "benchguard on PATH")
    state.warmup = 1 if warmup is None else warmup
    state.iterations = state.warmup + (n or 1)
    state.labels = labels


# ------------------------------------------------------------------------------------ naming


def _escape(text):
    """Text benchguard accepts in a name: control characters, bidirectional controls and lone
    surrogates written as escapes."""
    out = []
    for ch in text:
        c = ord(ch)
        if c < 0x20 or 0x7F <= c <= 0x9F:
            out.append("\\x{:02x}".format(c))
        elif 0x202A <= c <= 0x202E or 0x2066 <= c <= 0x2069 or 0xD800 <= c <= 0xDFFF:
            out.append("\\u{:04x}".format(c))
        else:
            out.append(ch)
    return "".join(out)


def _cap(text, max_bytes=_MAX_NAME):
    """At most max_bytes of UTF-8 (benchguard's names are at most 4,096 bytes)."""
    data = text.encode("utf-8")
    return text if len(data) <= max_bytes else data[:max_bytes].decode("utf-8", "ignore")


def _clean(text, limit=_MAX_TEXT):
    text = " ".join(_escape(text.strip()).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _param_text(argname, value, callspec):
    """A parameter's value as pytest's id shows it: scalars as themselves, other objects as
    argname and position (pytest's id for them)."""
    if isinstance(value, enum.Enum):
        return str(value)
    if value is None or isinstance(value, (str, int, float, bool)):
        return str(value)
    index = getattr(callspec, "indices", {}).get(argname)
    return "{}{}".format(argname, "" if index is None else index)


def benchmark_name(item):
    """`path::test` for a plain test; `path::test/arg=value/...` for a parametrized one, as
    benchguard names a suite's benchmark with parameters."""
    nodeid = item.nodeid
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return _cap(_escape(nodeid))
    base = nodeid
    original = getattr(item, "originalname", None)
    if original and nodeid.endswith(item.name):
        base = nodeid[: len(nodeid) - len(item.name)] + original
    parts = [_escape(base)]
    for argname, value in callspec.params.items():
        parts.append("{}={}".format(_escape(argname),
                                    _escape(_param_text(argname, value, callspec))))
    return _cap("/".join(parts))


def _fixtures_of(item):
    names = getattr(item, "fixturenames", ())
    return [f for f in FIXTURES if f in names]


# ---------------------------------------------------------------------------- test lifecycle


def pytest_collection_finish(session):
    state = _state(session.config)
    if state is None:
        return
    for item in session.items:
        fixtures = _fixtures_of(item)
        if fixtures:
            state.items[item.nodeid] = (benchmark_name(item), fixtures[0])
    if state.mode == "protocol" and len(state.items) > 1:
        shown = ", ".join(sorted(state.items)[:5])
        pytest.exit(
            "--benchguard under `benchguard run`: one pytest instance measures one test, and "
            "{} use benchguard fixtures ({}{}); select one by its node id".format(
                len(state.items), shown, ", ..." if len(state.items) > 5 else ""),
            returncode=pytest.ExitCode.USAGE_ERROR)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    state = _state(item.config)
    if state is not None and state.mode != "off" and item.nodeid in state.items:
        name, fixture = state.items[item.nodeid]
        rec = _record.Record(item.nodeid, name, fixture)
        rec.burn_in = state.warmup
        rec.start_ns = _measure.now_ns()
        state.current[item.nodeid] = rec


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    """Rounds: a recorded benchmark test that measured fewer iterations in a call than it is
    asked for (a body of one `with bench:` block) is called again with the same fixtures until
    it has them, as pytest-benchmark's rounds. Its first call, cold, is then the warm-up that
    is stored as burn-in (--benchguard-warmup, or `benchguard run`'s --burn-in), and the rest
    are measured warm."""
    state = _state(pyfuncitem.config)
    if state is None or state.mode == "off" or pyfuncitem.nodeid not in state.items:
        return None
    bench = pyfuncitem.funcargs.get(state.items[pyfuncitem.nodeid][1])
    function = pyfuncitem.obj
    if (not isinstance(bench, Benchmark) or bench._record is None
            or inspect.iscoroutinefunction(function) or inspect.isasyncgenfunction(function)):
        return None
    args = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
    function(**args)
    while 0 < bench._done < bench.iterations:
        before = bench._done
        function(**args)
        if bench._done == before:  # this call measured nothing: do not loop for ever
            break
    return True


def _failure_text(report):
    lr = report.longrepr
    msg = ""
    crash = getattr(lr, "reprcrash", None)
    if crash is not None:
        msg = crash.message
    elif isinstance(lr, tuple) and len(lr) == 3:
        msg = str(lr[2])
    elif lr is not None:
        lines = str(lr).strip().splitlines()
        msg = lines[-1] if lines else ""
    msg = msg.strip().splitlines()[0] if msg.strip() else ""
    prefix = "failed" if report.when == "call" else "error in " + report.when
    return _clean(prefix + (": " + msg if msg else ""))


def _skip_text(report):
    if hasattr(report, "wasxfail"):
        reason = str(report.wasxfail or "")
        return "xfailed", _clean("xfailed" + (": " + reason if reason else ""))
    lr = report.longrepr
    reason = str(lr[2]) if isinstance(lr, tuple) and len(lr) == 3 else ""
    if reason.startswith("Skipped: "):
        reason = reason[len("Skipped: "):]
    return "skipped", _clean("skipped" + (": " + reason if reason else ""))


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    # Outermost, so the report is final (xfail and skip already applied).
    outcome = yield
    state = _state(item.config)
    rec = state.current.get(item.nodeid) if state is not None else None
    if rec is None:
        return
    report = outcome.get_result()
    if report.failed:
        rec.fail("failed" if report.when == "call" else "error", _failure_text(report))
    elif report.skipped:
        rec.fail(*_skip_text(report))
    if report.when == "teardown":
        rec.end_ns = _measure.now_ns()
        del state.current[item.nodeid]
        if state.mode == "protocol":
            _record.append_protocol(state.results, rec)
        else:
            state.done.append(rec)


def _artifacts(config, state):
    counts = {}
    for rec in state.done:
        counts[rec.outcome] = counts.get(rec.outcome, 0) + 1
    outcomes = " ".join("{}={}".format(k, counts[k]) for k in sorted(counts))
    args = " ".join(str(a) for a in config.invocation_params.args)
    return [
        ("hostname", socket.gethostname()),
        ("python_version", platform.python_version()),
        ("pytest_version", pytest.__version__),
        ("benchguard_pytest_version", __version__),
        ("pytest_args", _clean(args, 1000)),
        ("pytest_outcomes", outcomes),
        ("python_packages", _packages_json(state)),
        # The CSV layout the session is imported in has no place for units and directions:
        # kept here, so that they are on record with the run.
        ("metric_declarations", _declarations_json(state)),
    ]


def _packages_json(state):
    from . import packages  # only when recording a session

    try:
        return packages.to_json()
    except Exception as e:  # importlib.metadata can meet anything on sys.path
        _note(state, "python_packages not recorded: {}: {}".format(type(e).__name__, e))
        return ""


def _declarations_json(state):
    metrics = {}
    for rec in state.done:
        metrics.update(rec.declared)
    return json.dumps({name: {"unit": unit, "better": better}
                       for name, (unit, better) in sorted(metrics.items())},
                      ensure_ascii=False, separators=(",", ":"))


def pytest_sessionfinish(session, exitstatus):
    state = _state(session.config)
    if state is None:
        return
    if state.mode != "direct":
        return
    if not state.done:
        _note(state, "no test used a benchmark fixture: nothing recorded")
        return
    path = _record.temp_csv_path()
    _record.write_csv(path, state.done, "pytest", state.started_at_ns,
                      _artifacts(session.config, state))
    ok, output = _record.import_csv(state.binary, path, state.db, state.labels)
    failed = sum(1 for r in state.done if not r.clean)
    if ok:
        os.unlink(path)
        _note(state, "{} test(s) recorded into {}{}".format(
            len(state.done), state.db,
            " ({} failed, skipped or not measured: stored as failed)".format(failed)
            if failed else ""))
        if output:
            # The file is gone: benchguard's lines without its name.
            _note(state, output.replace(path + ": ", ""))
    else:
        _note(state, "benchguard import failed; the results are kept in {}".format(path))
        _note(state, output)
        if session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.INTERNAL_ERROR


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    state = _state(config)
    if state is None:
        return
    if state.mode == "off" and os.environ.get("BENCHGUARD_RESULTS") and state.items:
        _note(state, "BENCHGUARD_RESULTS is set but --benchguard is not: the fixtures record "
                     "nothing and benchguard times the whole pytest process")
    if state.mode == "protocol" and not state.items:
        _note(state, "no selected test uses a benchguard fixture: benchguard times the whole "
                     "pytest process")
    if state.notes:
        terminalreporter.write_sep("-", "benchguard")
        for note in state.notes:
            terminalreporter.write_line(note)


# ---------------------------------------------------------------------------------- fixtures


class Benchmark:
    """What the benchguard fixtures give a test.

    `with bench:` measures its body as one iteration (a test may enter it several times,
    e.g. `for _ in range(bench.iterations)`); `bench(fn, *args, **kwargs)` measures
    `bench.iterations` calls of fn, one iteration each, and returns what the last returned.
    `bench.record(name, value, unit=None, better="lower")` adds a metric of its own to an
    iteration. Without --benchguard all run the code once each time and record nothing.
    """

    def __init__(self, fixture, iterations, record, notes, nodeid="", declared=None,
                 python_memory=False):
        self._fixture = fixture
        self._iterations = iterations
        self._record = record
        self._notes = notes
        self._nodeid = nodeid
        self._declared = {} if declared is None else declared
        self._python_memory = python_memory
        self._measurement = None
        self._active = False
        self._pending = {}
        self._done = 0  # iterations measured (or, not recording, run) so far

    @property
    def iterations(self):
        """How many iterations a call measures: 1 without --benchguard, else
        --benchguard-iterations or, under `benchguard run`, $BENCHGUARD_ITERATIONS."""
        return self._iterations

    @property
    def recording(self):
        """Whether the measurements go anywhere (--benchguard was given)."""
        return self._record is not None

    def record(self, name, value, unit=None, better="lower"):
        """Records metric `name` = `value` for an iteration: inside `with bench:` (or inside the
        fn of `bench(fn)`) the iteration in progress, after it the last one measured. `unit`
        ("s", "B", ...; default none) and `better` ("lower" or "higher") describe the metric;
        a metric keeps one unit and direction. Recording a name twice in one iteration keeps
        the last value. Wrong names, units or values (not a finite number; a negative time or
        size) raise TypeError or ValueError naming the test, with or without --benchguard."""
        where = "{}.record({!r}) in {}".format(
            self._fixture, name if not isinstance(name, str) else name[:100], self._nodeid)
        name, value, unit, better = _metrics.check(where, name, value, unit, better,
                                                   self._declared)
        if self._active:
            self._pending[name] = value
        elif self._done:
            if self._record is not None and self._record.iterations:
                self._record.iterations[-1][2][name] = value
        else:
            raise RuntimeError(
                "{}: no iteration to record into yet: call it inside `with {}:` (the iteration "
                "in progress) or after one (the last iteration)".format(where, self._fixture))
        if self._record is not None:
            self._record.declared[name] = (unit, better)

    def __call__(self, fn, *args, **kwargs):
        if not callable(fn):
            raise TypeError("{}(fn, *args, **kwargs): fn must be callable".format(self._fixture))
        result = None
        for _ in range(self._iterations):
            with self:
                result = fn(*args, **kwargs)
        return result

    def __enter__(self):
        if self._active:
            raise RuntimeError("{}: a measurement is already running (nested use)".format(
                self._fixture))
        self._active = True
        self._pending = {}
        if self._record is not None:
            if self._measurement is None:
                self._measurement = _measure.Measurement(
                    memory=self._fixture in _MEMORY, python_memory=self._python_memory)
                if self._fixture in _MEMORY and not self._measurement.rss_available:
                    _note_list(self._notes,
                               "memory not measured: /proc/self/statm is not readable")
            self._measurement.start()
        return self

    def __exit__(self, exc_type, exc, tb):
        self._active = False
        self._done += 1
        if self._record is not None:
            start, end, metrics = self._measurement.stop()
            for name in metrics:
                if name in _metrics.MEASURED:
                    self._record.declared[name] = _metrics.MEASURED[name]
            metrics.update(self._pending)
            self._record.iterations.append((start, end, metrics))
        self._pending = {}
        return False

    def _close(self):
        if self._measurement is not None:
            self._measurement.close()
            self._measurement = None


def _note_list(notes, text):
    if text not in notes:
        notes.append(text)


def _wants_python_memory(request, fixture):
    if request.node.get_closest_marker("benchguard_tracemalloc") is not None:
        return True
    return fixture in _MEMORY and bool(request.config.getoption("benchguard_tracemalloc",
                                                                default=False))


def _benchmark_fixture(request, fixture):
    requested = [f for f in FIXTURES if f in request.fixturenames]
    if len(requested) > 1:
        pytest.fail("a test takes one benchguard fixture, not {} (benchmark_time_memory "
                    "measures time and memory)".format(" and ".join(requested)), pytrace=False)
    state = _state(request.config)
    record = None
    if state is not None and state.mode != "off":
        record = state.current.get(request.node.nodeid)
    iterations = state.iterations if record is not None else 1
    notes = state.notes if state is not None else []
    declared = state.declared if state is not None else None
    bench = Benchmark(fixture, iterations, record, notes, nodeid=request.node.nodeid,
                      declared=declared,
                      python_memory=_wants_python_memory(request, fixture))
    try:
        yield bench
    finally:
        bench._close()


@pytest.fixture
def benchmark_time(request):
    """Measures the wall time of its body (`with benchmark_time:`) or of a call
    (`benchmark_time(fn, *args)`): metric wall_time (s)."""
    yield from _benchmark_fixture(request, "benchmark_time")


@pytest.fixture
def benchmark_memory(request):
    """Measures the memory of the process while its body runs (bytes): rss_peak_bytes (the
    resident set's high-water mark), rss_avg_bytes (its time-weighted mean, sampled) and
    rss_above_start_bytes (the peak above the resident set when the body started), with the
    iteration's wall_time; python_peak_bytes too with --benchguard-tracemalloc."""
    yield from _benchmark_fixture(request, "benchmark_memory")


@pytest.fixture
def benchmark_time_memory(request):
    """Measures time and memory of the same iterations: what benchmark_memory records, named
    for tests whose time matters as well."""
    yield from _benchmark_fixture(request, "benchmark_time_memory")
