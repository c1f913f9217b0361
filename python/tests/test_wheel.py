"""The wheel `python/build-wheel` makes, installed as users install it: with
pip into a fresh virtual environment, and with `uv tool install`. Both give
the `ctxguard` command (the binary itself, not a Python shim) and pip's the
module too, and the two reach the same verdict.

The wheel is named by `CTXGUARD_WHEEL`; without it these tests skip, and
with `CTXGUARD_REQUIRE_WHEEL=1` (CI builds the wheel) a skip is a failure.
"""

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "tests" / "scenarios" / "migration"


@pytest.fixture(scope="module")
def wheel() -> Path:
    given = os.environ.get("CTXGUARD_WHEEL")
    if not given:
        if os.environ.get("CTXGUARD_REQUIRE_WHEEL") == "1":
            pytest.fail("CTXGUARD_REQUIRE_WHEEL=1 but CTXGUARD_WHEEL names no wheel: run python/build-wheel")
        pytest.skip("CTXGUARD_WHEEL is not set: build one with python/build-wheel")
    path = Path(given)
    if not path.is_file():
        pytest.fail(f"CTXGUARD_WHEEL names no file: {given}")
    return path


def bin_dir(env: Path) -> Path:
    return env / ("Scripts" if sys.platform == "win32" else "bin")


def is_native(command: Path) -> bool:
    """Whether `command` is an executable of this platform, not a script."""
    head = command.read_bytes()[:4]
    return head in (b"\x7fELF", b"\xcf\xfa\xed\xfe", b"\xca\xfe\xba\xbe") or head[:2] == b"MZ"


def run(command, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(command), *args], cwd=ROOT, capture_output=True, text=True)


def test_pip_installs_the_command_and_the_module(wheel: Path, tmp_path: Path):
    env = tmp_path / "env"
    venv.create(env, with_pip=True)
    python = bin_dir(env) / "python"
    installed = run(python, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", str(wheel))
    assert installed.returncode == 0, installed.stderr

    command = bin_dir(env) / "ctxguard"
    assert command.is_file(), sorted(p.name for p in bin_dir(env).iterdir())
    assert is_native(command), "the command is a script, not the binary"
    version = run(command, "--version")
    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith("ctxguard 0.1.0 (commit "), version.stdout

    # The command and the module reach the same verdict on the same files.
    trace, plan = SCENARIO / "trace.yaml", SCENARIO / "plan-constraint-evaporated.yaml"
    cli = run(command, "verify", "--trace", str(trace), "--plan", str(plan), "--format", "json")
    assert cli.returncode == 1, cli.stderr
    module = run(
        python,
        "-c",
        "import ctxguard, sys; r = ctxguard.verify(sys.argv[1], sys.argv[2]); print(r.verdict)",
        str(trace),
        str(plan),
    )
    assert module.returncode == 0, module.stderr
    assert json.loads(cli.stdout)["verdict"] == module.stdout.strip() == "reject"


def test_uv_tool_install_puts_the_command_on_the_path(wheel: Path, tmp_path: Path):
    uv = shutil.which("uv") or str(Path(sys.executable).parent / "uv")
    if not Path(uv).is_file():
        if os.environ.get("CTXGUARD_REQUIRE_WHEEL") == "1":
            pytest.fail("uv is not installed: `pip install uv`")
        pytest.skip("uv is not installed")
    tools, bins = tmp_path / "tools", tmp_path / "bin"
    env = dict(
        os.environ,
        UV_TOOL_DIR=str(tools),
        UV_TOOL_BIN_DIR=str(bins),
        UV_CACHE_DIR=str(tmp_path / "cache"),
        UV_PYTHON_DOWNLOADS="never",
        UV_NO_CONFIG="1",
    )
    installed = subprocess.run(
        [uv, "tool", "install", "--offline", "--python", sys.executable, str(wheel)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert installed.returncode == 0, installed.stderr
    command = bins / "ctxguard"
    assert command.exists(), installed.stderr
    assert is_native(command.resolve())
    verdict = run(command, "verify", "--trace", str(SCENARIO / "trace.yaml"), "--plan", str(SCENARIO / "plan-good.yaml"))
    assert verdict.returncode == 0, verdict.stderr
