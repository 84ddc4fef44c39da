"""`python -m benchguard_pytest._collect PYTEST_ARGS...`: what `benchguard pytest` measures.

Collects the selection as pytest would run it (nothing runs) and prints pytest's own output,
then, as the last line, a JSON object: {"exit": pytest's exit code, "rootdir": the directory
node ids are relative to, "tests": [{"nodeid": ..., "name": ..., "fixture": ...}, ...]} for
every collected test that takes a benchmark fixture, in collection order. Standard error is
folded into standard output so that pytest's messages about a selection it cannot collect
stay in the order it wrote them.
"""

import json
import sys


def main(argv):
    sys.stderr = sys.stdout
    import pytest

    from .plugin import FIXTURES, benchmark_name

    found = []
    root = {"dir": ""}

    class _Collector:
        def pytest_collection_finish(self, session):
            root["dir"] = str(session.config.rootpath)
            for item in session.items:
                names = getattr(item, "fixturenames", ())
                fixtures = [f for f in FIXTURES if f in names]
                if fixtures:
                    found.append({"nodeid": item.nodeid, "name": benchmark_name(item),
                                  "fixture": fixtures[0]})

    code = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", "-p",
                        "benchguard_pytest"] + list(argv), plugins=[_Collector()])
    sys.stdout.flush()
    print("\n" + json.dumps({"exit": int(code), "rootdir": root["dir"], "tests": found}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
