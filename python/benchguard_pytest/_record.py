"""Where the measurements of a test go.

- Under `benchguard run` (BENCHGUARD_RESULTS set): one JSON line per iteration appended to
  that file, the iteration protocol (docs/protocol.md), after a declaration line for each
  metric with a unit or a higher-is-better direction; benchguard stores them with the
  instance it launched.
- Otherwise: every test's iterations, at the end of the session, in one file of benchguard's
  own CSV layout (what `benchguard export --format csv` writes and `benchguard import` reads
  back: one column per metric, a failure column), imported with `benchguard import` as one
  run. That layout has no place for a metric's unit or direction: the plugin keeps them in
  the run artifact `metric_declarations` (JSON), and the database stores the metrics it does
  not already know without a unit, lower is better.
"""

import csv
import json
import os
import shutil
import subprocess
import tempfile

from . import _metrics

CSV_FIXED = [
    "suite", "benchmark", "type", "order", "pair", "runid", "iteration", "iteration_start_ns",
    "iteration_end_ns", "iteration_time_ns", "burn_in", "timed_out", "failure",
]


class Record:
    """One test that uses a benchguard fixture: its name, its iterations and its outcome."""

    def __init__(self, nodeid, name, fixture):
        self.nodeid = nodeid
        self.name = name
        self.fixture = fixture
        self.iterations = []  # (start_ns, end_ns, {metric: value})
        self.declared = {}  # metric -> (unit, better) of the metrics in the iterations
        self.burn_in = 0  # the first iterations are warm-up (direct mode)
        self.failure = ""  # empty: passed
        self.outcome = "passed"
        self.start_ns = 0  # when the test started and ended (CLOCK_MONOTONIC)
        self.end_ns = 0

    def fail(self, outcome, text):
        # The first thing that went wrong is the one to tell.
        if not self.failure:
            self.outcome = outcome
            self.failure = text

    @property
    def clean(self):
        """Whether the test passed and measured at least one iteration."""
        return not self.failure and bool(self.iterations)

    def rows(self):
        """(start_ns, end_ns, metrics, failure) per iteration; a test that measured nothing
        gives one row covering its run, failed."""
        failure = self.failure
        if not self.iterations:
            if not failure:
                failure = "not measured: the test never used its {} fixture".format(self.fixture)
            return [(self.start_ns, max(self.start_ns, self.end_ns), {}, failure)]
        return [(s, e, m, failure) for s, e, m in self.iterations]


def protocol_lines(record):
    """The test's lines of the iteration protocol: a declaration line for every metric with a
    unit or a higher-is-better direction, then one line per iteration."""
    lines = []
    present = set()
    for _, _, metrics in record.iterations:
        present.update(metrics)
    for name in sorted(present):
        if name in record.declared:
            line = _metrics.declaration(name, *record.declared[name])
            if line is not None:
                lines.append(json.dumps(line, ensure_ascii=False))
    for i, (start, end, metrics, failure) in enumerate(record.rows()):
        line = {"iteration": i, "start_ns": start, "end_ns": end}
        if metrics:
            line["metrics"] = metrics
        if failure:
            line["failure"] = failure
        lines.append(json.dumps(line, ensure_ascii=False, allow_nan=False))
    return lines


def append_protocol(path, record):
    text = "".join(line + "\n" for line in protocol_lines(record))
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)
        f.flush()


def _number(x):
    if isinstance(x, int):
        return str(x)
    return repr(float(x))


def write_csv(path, records, suite, started_at_ns, artifacts):
    """benchguard's CSV layout: the fixed columns, one per metric, run, started_at, then the
    run's artifacts. Each test is one instance of variant `default`; a test selected twice
    (pytest runs it twice) gives two instances."""
    metrics = []
    for r in records:
        for _, _, m in r.iterations:
            for name in m:
                if name not in metrics:
                    metrics.append(name)
    artifact_names = [k for k, _ in artifacts]
    artifact_values = [v for _, v in artifacts]
    instances = {}
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(CSV_FIXED + metrics + ["run", "started_at"] + artifact_names)
        for r in records:
            runid = instances.get(r.name, 0)
            instances[r.name] = runid + 1
            for i, (start, end, m, failure) in enumerate(r.rows()):
                row = [suite, r.name, "sequential", "", "default", runid, i, start, end,
                       end - start, 1 if i < r.burn_in else 0, 0, failure]
                row += [_number(m[k]) if k in m else "" for k in metrics]
                row += ["pytest", started_at_ns] + artifact_values
                w.writerow(row)


def find_binary():
    """The benchguard program: $BENCHGUARD_BIN, else `benchguard` on PATH; None if neither."""
    given = os.environ.get("BENCHGUARD_BIN")
    if given:
        return os.path.abspath(given) if os.access(given, os.X_OK) else None
    return shutil.which("benchguard")


def import_csv(binary, path, db, labels):
    """Runs `benchguard import`; (ok, output)."""
    cmd = [binary, "import", path, "--input-format", "duet-csv", "--db", db]
    for label in labels:
        cmd += ["--label", label]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    return proc.returncode == 0, proc.stdout.strip()


def temp_csv_path():
    fd, path = tempfile.mkstemp(prefix="benchguard-pytest-", suffix=".csv")
    os.close(fd)
    return path
