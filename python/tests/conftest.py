"""Shared helpers: the repository's paths and the command-line binary the
differential tests compare the package with."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def cli_binary() -> Path:
    """The `ctxguard` binary built from this checkout (`cargo build` or
    `cargo test` makes it), or `CTXGUARD_BIN`."""
    given = os.environ.get("CTXGUARD_BIN")
    if given:
        if not Path(given).is_file():
            pytest.fail(f"CTXGUARD_BIN names no file: {given}")
        return Path(given)
    candidates = [ROOT / "target" / "debug" / "ctxguard", ROOT / "target" / "release" / "ctxguard"]
    found = [path for path in candidates if path.is_file()]
    if found:
        return max(found, key=lambda path: path.stat().st_mtime)
    on_path = shutil.which("ctxguard")
    if on_path:
        return Path(on_path)
    pytest.fail("the differential tests need the ctxguard binary: run `cargo build` first or set CTXGUARD_BIN")


@pytest.fixture(scope="session")
def cli():
    binary = cli_binary()

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(binary), *args], cwd=ROOT, capture_output=True, text=True)

    return run


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT
