"""The stubs describe the extension module exactly: mypy's stubtest
compares every name, signature and class of `ctxguard` with the module
that was built."""

import importlib.util
import subprocess
import sys

import pytest


def test_the_stubs_match_the_module(tmp_path):
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("SKIPPED: mypy is not installed (pip install mypy); CI installs it")
    # Outside the checkout, so only the installed package is seen.
    ran = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "ctxguard"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
