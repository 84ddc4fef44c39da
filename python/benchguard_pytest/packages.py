"""The installed distributions of this interpreter, as JSON: `python3 -m benchguard_pytest.packages`
prints `{"name": "version", ...}` sorted by name (case-insensitively), one object on one line.

It is what the plugin stores as the run artifact `python_packages` of a `pytest --benchguard`
session, and what `benchguard pytest` asks each interpreter it runs for. A distribution found
twice on sys.path counts once, at the first place, as import finds it. Standard library only;
it runs without pytest.
"""

import json
import re
import sys


def _canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def installed():
    """{distribution name: version} of what importlib.metadata finds on sys.path, sorted."""
    from importlib import metadata  # Python 3.8

    found = {}
    seen = set()
    for dist in metadata.distributions():
        try:
            name = dist.metadata["Name"]
            version = dist.version
        except Exception:  # a broken .dist-info: leave it out
            continue
        if not name or version is None:
            continue
        key = _canonical(name)
        if key in seen:
            continue
        seen.add(key)
        found[name] = str(version)
    return dict(sorted(found.items(), key=lambda kv: (kv[0].lower(), kv[0])))


def to_json(packages=None):
    return json.dumps(installed() if packages is None else packages, ensure_ascii=False,
                      separators=(",", ":"))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv:
        sys.stderr.write("usage: python3 -m benchguard_pytest.packages (no arguments)\n")
        return 2
    sys.stdout.write(to_json() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
