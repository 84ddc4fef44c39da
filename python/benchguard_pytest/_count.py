"""What an iteration counts: its instructions under `benchguard run --measure instructions`, and
its hardware counters where they work.

Under `--measure instructions` benchguard runs the test session under Valgrind's callgrind; where
hardware counters work it names the events to count per iteration in BENCHGUARD_COUNTERS (a
suite's `env` may name software events instead). Either way it names in BENCHGUARD_COUNT_LIB a
small library of its own (libbenchguard_count.so) that issues callgrind's client requests, which
Python code cannot issue itself, and opens and reads the perf events. begin() is called just
before an iteration's body and end() just after it; end() gives what was counted in between: the
body's, and a fixed few thousand instructions of the interpreter's calls into the library.
Anywhere else the library is not loaded and end() gives nothing.
"""

import os

_library = None
_loaded = False
_CAPACITY = 16


def library():
    """The loaded count library, or None when not counting (or it cannot be loaded)."""
    global _library, _loaded
    if _loaded:
        return _library
    _loaded = True
    path = os.environ.get("BENCHGUARD_COUNT_LIB")
    wanted = os.environ.get("BENCHGUARD_CALLGRIND_OUT") or os.environ.get("BENCHGUARD_COUNTERS")
    if not path or not wanted:
        return None
    import ctypes  # only when counting: the plugin otherwise loads nothing more

    try:
        lib = ctypes.CDLL(path)
        lib.benchguard_count_active.restype = ctypes.c_int
        lib.benchguard_count_active.argtypes = []
        lib.benchguard_count_begin.restype = None
        lib.benchguard_count_begin.argtypes = []
        lib.benchguard_count_end.restype = ctypes.c_longlong
        lib.benchguard_count_end.argtypes = []
        lib.benchguard_counters_active.restype = ctypes.c_int
        lib.benchguard_counters_active.argtypes = []
        lib.benchguard_counters_begin.restype = None
        lib.benchguard_counters_begin.argtypes = []
        lib.benchguard_counters_end.restype = ctypes.c_int
        lib.benchguard_counters_end.argtypes = [
            ctypes.POINTER(ctypes.c_char_p),
            ctypes.POINTER(ctypes.c_double),
            ctypes.c_int,
        ]
    except (OSError, AttributeError):
        return None
    if lib.benchguard_count_active() or lib.benchguard_counters_active():
        _library = lib
    return _library


class Counter:
    """Brackets one iteration's body: begin() before it, end() after it."""

    def __init__(self):
        self._lib = library()
        self._instructions = False
        self._events = False
        if self._lib is not None:
            import ctypes

            self._instructions = bool(self._lib.benchguard_count_active())
            # Under Valgrind the simulation counts; perf events would count the simulator.
            self._events = not self._instructions and bool(self._lib.benchguard_counters_active())
            self._names = (ctypes.c_char_p * _CAPACITY)()
            self._values = (ctypes.c_double * _CAPACITY)()

    def begin(self):
        if self._events:
            self._lib.benchguard_counters_begin()
        if self._instructions:
            self._lib.benchguard_count_begin()

    def end(self):
        """What was counted since begin(), by metric name (empty when not counting)."""
        counted = {}
        if self._instructions:
            n = self._lib.benchguard_count_end()
            if n >= 0:
                counted["instructions"] = n
        if self._events:
            k = self._lib.benchguard_counters_end(self._names, self._values, _CAPACITY)
            for i in range(k):
                counted[self._names[i].decode()] = self._values[i]
        return counted
