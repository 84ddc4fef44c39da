"""benchguard's pytest plugin: benchmarks written as ordinary tests (see plugin.py and
docs/pytest.md).

The hooks and fixtures live in benchguard_pytest.plugin and are imported here, so that
`-p benchguard_pytest` and the `pytest11` entry point register them. Where pytest is not
importable only the version is defined, so that `python3 -m benchguard_pytest.packages` runs in
any interpreter.
"""

from ._version import __version__

try:
    import pytest as _pytest  # noqa: F401
except ImportError:  # not inside a pytest session: the stdlib-only helpers still import
    _pytest = None

if _pytest is not None:
    from .plugin import *  # noqa: F401,F403
    from .plugin import __all__  # noqa: F401
