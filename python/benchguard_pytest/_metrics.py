"""Metric names, units and directions: what `bench.record()` accepts, checked here as benchguard
checks them (src/core/names.cpp, src/core/model.cpp), so that a wrong call fails its test with
a message naming it instead of failing the benchguard instance or the import later.
"""

import math
import numbers

MAX_NAME_BYTES = 4096  # benchguard's kMaxNameBytes
MAX_UNIT_BYTES = 32

# benchguard's built-in metrics (src/core/model.cpp): name -> (unit, better).
BUILTIN = {
    "wall_time": ("s", "lower"),
    "cpu_time": ("s", "lower"),
    "user_time": ("s", "lower"),
    "sys_time": ("s", "lower"),
    "max_rss": ("B", "lower"),
    "peak_memory": ("B", "lower"),
    "avg_memory": ("B", "lower"),
    "instructions": ("", "lower"),
    "cycles": ("", "lower"),
    "l1_misses": ("", "lower"),
    "ll_misses": ("", "lower"),
    "estimated_cycles": ("", "lower"),
    "branch_misses": ("", "lower"),
    "cache_misses": ("", "lower"),
    "throughput": ("1/s", "higher"),
}

# What the fixtures measure themselves, with the unit and direction they declare.
MEASURED = {
    "wall_time": ("s", "lower"),
    "rss_peak_bytes": ("B", "lower"),
    "rss_avg_bytes": ("B", "lower"),
    "rss_above_start_bytes": ("B", "lower"),
    "python_peak_bytes": ("B", "lower"),
    "instructions": ("", "lower"),
    "cycles": ("", "lower"),
    "branch_misses": ("", "lower"),
    "cache_misses": ("", "lower"),
}


def _is_control(cp):
    return cp < 0x20 or 0x7F <= cp <= 0x9F


def _is_bidi(cp):
    return 0x202A <= cp <= 0x202E or 0x2066 <= cp <= 0x2069


def name_problem(name):
    """What is wrong with a metric name for benchguard, or "" (benchguard's name_problem)."""
    if not name:
        return "is empty"
    try:
        size = len(name.encode("utf-8"))
    except UnicodeEncodeError as e:
        return "is not UTF-8 (a lone surrogate at offset {})".format(e.start)
    if size > MAX_NAME_BYTES:
        return "is {} bytes long, above the limit of {}".format(size, MAX_NAME_BYTES)
    for i, ch in enumerate(name):
        cp = ord(ch)
        if _is_control(cp):
            return "contains the control character U+{:04X} at offset {}".format(cp, i)
        if _is_bidi(cp):
            return "contains the bidirectional control U+{:04X} at offset {}".format(cp, i)
    return ""


def never_negative(name, unit):
    """benchguard refuses negative values of these (a negative time or size)."""
    return name in BUILTIN or unit in ("s", "B") or unit.endswith("/s")


def check(where, name, value, unit, better, declared):
    """The (name, value, unit, better) of one bench.record() call, checked; raises TypeError or
    ValueError with `where` at the start of the message. `declared` maps the metrics seen in
    this session to (unit, better) and is updated."""
    if not isinstance(name, str):
        raise TypeError("{}: the metric name must be a str, not {}".format(
            where, type(name).__name__))
    why = name_problem(name)
    if why:
        raise ValueError("{}: metric name {!r} {} (benchguard's name rules)".format(
            where, name[:200], why))
    if name in MEASURED:
        raise ValueError("{}: {!r} is measured by the fixture itself: record it under another "
                         "name".format(where, name))
    if unit is None:
        unit = BUILTIN.get(name, ("", "lower"))[0]
    if not isinstance(unit, str):
        raise TypeError("{}: unit must be a str or None, not {}".format(where, type(unit).__name__))
    if any(ord(c) < 0x20 or ord(c) == 0x7F or 0xD800 <= ord(c) <= 0xDFFF for c in unit):
        raise ValueError("{}: unit {!r} holds a character benchguard refuses".format(
            where, unit[:40]))
    if len(unit.encode("utf-8")) > MAX_UNIT_BYTES:
        raise ValueError("{}: unit {!r} is longer than {} bytes".format(
            where, unit[:40], MAX_UNIT_BYTES))
    if better not in ("lower", "higher"):
        raise ValueError("{}: better must be \"lower\" or \"higher\", not {!r}".format(
            where, better))
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError("{}: the value must be a number (int or float), not {}".format(
            where, type(value).__name__))
    if isinstance(value, numbers.Integral):
        value = int(value)
    else:
        value = float(value)
        if not math.isfinite(value):
            raise ValueError("{}: the value must be a finite number, not {}".format(where, value))
    if value < 0 and never_negative(name, unit):
        raise ValueError("{}: the value is negative ({}{}), which benchguard refuses for {}".format(
            where, value, " " + unit if unit else "",
            "a built-in metric" if name in BUILTIN else "unit " + repr(unit)))
    if name in BUILTIN and BUILTIN[name] != (unit, better):
        raise ValueError("{}: {!r} is built into benchguard with unit {!r} and {} is better: "
                         "record it so or under another name".format(
                             where, name, BUILTIN[name][0], BUILTIN[name][1]))
    known = declared.get(name)
    if known is not None and known != (unit, better):
        raise ValueError("{}: {!r} was recorded before with unit {!r} and better={!r}, now with "
                         "unit {!r} and better={!r}: one metric has one unit and direction".format(
                             where, name, known[0], known[1], unit, better))
    declared[name] = (unit, better)
    return name, value, unit, better


def declaration(name, unit, better):
    """The protocol's declaration line for a metric, or None where none is needed (no unit and
    lower is better, or a built-in metric, whose unit benchguard knows)."""
    if name in BUILTIN or (not unit and better == "lower"):
        return None
    line = {"metric": name}
    if unit:
        line["unit"] = unit
    line["better"] = better
    return line
