"""What one iteration measures: its times, and the memory of the process while it ran.

Times are CLOCK_MONOTONIC nanoseconds, the clock benchguard times instances with. Memory is
the resident set of the whole process (every thread), read from /proc/self:

- rss_peak_bytes: the high-water mark of the resident set over the iteration. Before the
  body the mark is reset (writing 5 to /proc/self/clear_refs) and after it VmHWM is read from
  /proc/self/status. Where the kernel refuses the reset, the largest sample below is used
  instead, which can miss a short peak.
- rss_avg_bytes: the time-weighted mean of the resident set, sampled from /proc/self/statm
  every 2 ms by a thread while the body runs, plus a sample at its start and its end. The
  thread needs the GIL to take a sample, so a body that holds it (pure Python) is sampled
  about every 5 ms (the interpreter's switch interval) and runs a little slower.
- rss_above_start_bytes: rss_peak_bytes minus the resident set when the body started: what
  the body itself needed on top of what the process held (the interpreter, imports, input).

All three are bytes (unit "B", lower is better).

python_peak_bytes (only where asked: --benchguard-tracemalloc or the benchguard_tracemalloc
mark): the peak of the Python allocations tracemalloc traced during the body, above what it
traced when the body started. tracemalloc is started before the body and stopped after it
(left running, with its peak reset, if something else started it). It is not on by default:
its own tables grow with every live block (three times the resident set of a body that
allocates a million tuples, and six times its time), so the iteration's time and RSS figures
then include tracemalloc's cost.
"""

import os
import threading
import time
import tracemalloc

from . import _count

SAMPLE_INTERVAL_S = 0.002
# rss_avg_bytes needs this many samples inside the body (about 6 ms of it): a shorter body has
# only its first and last reading, whose mean depends on when the allocator hands memory back.
MIN_AVERAGE_SAMPLES = 3


def now_ns():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def _page_size():
    try:
        return os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 4096


class _ProcFile:
    """A /proc file read again from its start on each call (pread regenerates it)."""

    def __init__(self, path):
        try:
            self._fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            self._fd = None

    @property
    def ok(self):
        return self._fd is not None

    def read(self, size=8192):
        return os.pread(self._fd, size, 0)

    def close(self):
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _reset_peak():
    """Resets the process's RSS high-water mark; False where the kernel does not allow it."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _vm_hwm_bytes(status):
    for line in status.read().split(b"\n"):
        if line.startswith(b"VmHWM:"):
            return int(line.split()[1]) * 1024
    return None


class RssSampler:
    """Samples the resident set of this process in a thread between start() and stop()."""

    def __init__(self, interval_s=SAMPLE_INTERVAL_S):
        self._interval = interval_s
        self._page = _page_size()
        self._statm = _ProcFile("/proc/self/statm")
        self._status = _ProcFile("/proc/self/status")
        self._samples = []
        self._stop = None
        self._thread = None
        self._reset = False

    @property
    def available(self):
        return self._statm.ok

    def _rss(self):
        return int(self._statm.read(256).split()[1]) * self._page

    def _run(self):
        samples = self._samples
        while not self._stop.wait(self._interval):
            samples.append((now_ns(), self._rss()))

    def start(self):
        self._samples = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="benchguard-rss", daemon=True)
        self._reset = self._status.ok and _reset_peak()
        self._samples.append((now_ns(), self._rss()))
        self._thread.start()

    def stop(self):
        """(peak bytes, time-weighted mean bytes, bytes at start) since start(); the mean is
        None when the sampling thread took fewer than MIN_AVERAGE_SAMPLES samples inside the
        body: the first and last alone are not an average of anything."""
        end = (now_ns(), self._rss())
        self._stop.set()
        self._thread.join()
        first = self._samples[0][1]
        samples = sorted(s for s in self._samples if s[0] <= end[0])
        samples.append(end)
        peak = max(rss for _, rss in samples)
        if self._reset:
            hwm = _vm_hwm_bytes(self._status)
            if hwm is not None:
                peak = max(peak, hwm)
        span = samples[-1][0] - samples[0][0]
        if len(samples) - 2 < MIN_AVERAGE_SAMPLES:
            mean = None
        elif span <= 0:
            mean = sum(rss for _, rss in samples) / len(samples)
        else:
            area = 0.0
            for (t0, r0), (t1, r1) in zip(samples, samples[1:]):
                area += (t1 - t0) * (r0 + r1) / 2.0
            mean = area / span
        return peak, mean, first

    def close(self):
        self._statm.close()
        self._status.close()


class _Tracer:
    """The peak of traced Python allocations over the body (tracemalloc)."""

    def __init__(self):
        self._started = False
        self._base = 0

    def start(self):
        self._started = not tracemalloc.is_tracing()
        if self._started:
            tracemalloc.start()
        elif hasattr(tracemalloc, "reset_peak"):  # Python 3.9
            tracemalloc.reset_peak()
        self._base = tracemalloc.get_traced_memory()[0]

    def stop(self):
        peak = tracemalloc.get_traced_memory()[1]
        if self._started:
            tracemalloc.stop()
        return max(0, peak - self._base)


class Measurement:
    """One iteration: call start(), run the body, call stop(); stop() gives
    (start_ns, end_ns, metrics). Under `benchguard run --measure instructions` the metrics
    hold the body's `instructions` too, and where hardware counters work its counts of them
    (_count.py)."""

    def __init__(self, memory, python_memory=False):
        self._rss = RssSampler() if memory else None
        if self._rss is not None and not self._rss.available:
            self._rss.close()
            self._rss = None
        self._tracer = _Tracer() if python_memory else None
        self._count = _count.Counter()
        self._start = 0

    @property
    def rss_available(self):
        return self._rss is not None

    def start(self):
        if self._tracer is not None:
            self._tracer.start()
        if self._rss is not None:
            self._rss.start()
        self._start = now_ns()
        self._count.begin()

    def stop(self):
        counted = self._count.end()
        end = now_ns()
        metrics = dict(counted)
        if self._rss is not None:
            peak, mean, first = self._rss.stop()
            metrics["rss_peak_bytes"] = peak
            if mean is not None:
                metrics["rss_avg_bytes"] = mean
            metrics["rss_above_start_bytes"] = max(0, peak - first)
        if self._tracer is not None:
            metrics["python_peak_bytes"] = self._tracer.stop()
        return self._start, end, metrics

    def close(self):
        if self._rss is not None:
            self._rss.close()
