"""The instructions an iteration executes, under `benchguard run --measure instructions`.

benchguard then runs the test session under Valgrind's callgrind and names in
BENCHGUARD_COUNT_LIB a small library of its own (libbenchguard_count.so) that issues callgrind's
client requests, which Python code cannot issue itself. begin() asks for a dump just before an
iteration's body and end() for one just after it, and gives the instructions executed in
between: the body's, and a fixed few thousand of the interpreter's calls into the library.
Anywhere else the library is not loaded and end() gives None.
"""

import os

_library = None
_loaded = False


def library():
    """The loaded count library, or None when not counting (or it cannot be loaded)."""
    global _library, _loaded
    if _loaded:
        return _library
    _loaded = True
    path = os.environ.get("BENCHGUARD_COUNT_LIB")
    if not path or not os.environ.get("BENCHGUARD_CALLGRIND_OUT"):
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
    except (OSError, AttributeError):
        return None
    if lib.benchguard_count_active():
        _library = lib
    return _library


class Counter:
    """Brackets one iteration's body: begin() before it, end() after it."""

    def __init__(self):
        self._lib = library()

    def begin(self):
        if self._lib is not None:
            self._lib.benchguard_count_begin()

    def end(self):
        """The instructions since begin(), or None."""
        if self._lib is None:
            return None
        n = self._lib.benchguard_count_end()
        return n if n >= 0 else None
