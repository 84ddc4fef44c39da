"""`python3 -m benchguard_pytest.packages`: the interpreter's installed distributions as JSON, what
`benchguard pytest` asks each interpreter for."""

import json
import os
import subprocess
import sys

import pytest


def test_the_packages_module_prints_them_without_pytest(tmp_path):
    out = subprocess.run([sys.executable, "-m", "benchguard_pytest.packages"],
                         stdout=subprocess.PIPE, check=True, universal_newlines=True).stdout
    packages = json.loads(out)
    assert packages["pytest"] == pytest.__version__
    assert list(packages) == sorted(packages, key=lambda n: (n.lower(), n))
    # An interpreter without pytest: the package imports without the plugin and still answers.
    (tmp_path / "pytest.py").write_text("raise ImportError('no pytest here')\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    proc = subprocess.run([sys.executable, "-m", "benchguard_pytest.packages"], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert json.loads(proc.stdout) == packages
