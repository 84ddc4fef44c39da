"""Tests of the pytest plugin in python/, run against the benchguard binary.

The binary is $BENCHGUARD_BIN (ctest sets it), else build/benchguard of this checkout. The
plugin is imported from python/ of this checkout whether or not it is installed.
"""

import os
import pathlib
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
PLUGIN_DIR = REPO / "python"

pytest_plugins = ["pytester"]

if str(PLUGIN_DIR) not in sys.path:
    sys.path.insert(0, str(PLUGIN_DIR))
# Programs these tests start (pytest under `benchguard run`) find it too.
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(PLUGIN_DIR)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")


@pytest.fixture(scope="session")
def benchguard_bin():
    path = os.environ.get("BENCHGUARD_BIN") or str(REPO / "build" / "benchguard")
    path = os.path.abspath(path)
    if not os.access(path, os.X_OK):
        pytest.fail("benchguard binary not found at {} (build it, or set BENCHGUARD_BIN)".format(
            path), pytrace=False)
    return path


@pytest.fixture
def clean_env(monkeypatch, benchguard_bin):
    """The environment of a pytest run outside benchguard, with the binary known."""
    for name in ("BENCHGUARD_RESULTS", "BENCHGUARD_ITERATIONS", "BENCHGUARD_BURN_IN",
                 "BENCHGUARD_BENCHMARK", "BENCHGUARD_VARIANT", "BENCHGUARD_INSTANCE",
                 "BENCHGUARD_BARRIER", "BENCHGUARD_DB", "BENCHGUARD_COUNTERS",
                 "BENCHGUARD_COUNT_LIB", "BENCHGUARD_CALLGRIND_OUT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("BENCHGUARD_BIN", benchguard_bin)
    # Only the plugins a test names (-p): other installed plugins stay out of its sessions.
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return benchguard_bin
