"""Running ``bleuprint`` and ``sacrebleu`` on the command line: in a subprocess (and comparing
their output byte for byte) or in this process."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

import pytest

import bleuprint

OUR_VERSION = f"bleuprint-{bleuprint.__version__}"
SACREBLEU_VERSION = "2.6.0"


def subprocess_env(extra: Optional[dict[str, str]] = None) -> dict[str, str]:
    """This environment without the output-format variables, UTF-8 stdio, and ``extra``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("SACREBLEU_FORMAT", "BLEUPRINT_FORMAT", "NO_COLOR")
    }
    env["PYTHONIOENCODING"] = "utf-8"
    env.update(extra or {})
    return env


def installed_script(name: str) -> Optional[str]:
    """The console script ``name`` beside this interpreter, else on PATH, else None."""
    candidate = Path(sys.executable).parent / name
    if candidate.exists():
        return str(candidate)
    return shutil.which(name)


def run(
    command: list[str],
    cwd: Path,
    stdin: Optional[bytes] = None,
    env: Optional[dict[str, str]] = None,
) -> subprocess.CompletedProcess:
    return subprocess.run(
        command,
        cwd=cwd,
        input=stdin if stdin is not None else b"",
        capture_output=True,
        env=subprocess_env(env),
        timeout=120,
        check=False,
    )


def bleuprint_cli(
    args: list[str],
    cwd: Path,
    stdin: Optional[bytes] = None,
    env: Optional[dict[str, str]] = None,
    console: bool = False,
) -> subprocess.CompletedProcess:
    if console:
        script = installed_script("bleuprint")
        if script is None:
            pytest.skip("the bleuprint console script is not installed")
        command = [script]
    else:
        command = [sys.executable, "-m", "bleuprint"]
    return run(command + args, cwd, stdin, env)


def sacrebleu_cli(
    args: list[str], cwd: Path, stdin: Optional[bytes] = None, env: Optional[dict[str, str]] = None
) -> subprocess.CompletedProcess:
    pytest.importorskip("sacrebleu")
    return run([sys.executable, "-m", "sacrebleu", *args], cwd, stdin, env)


def assert_same_as_sacrebleu(args: list[str], cwd: Path, console: bool = False, **io: Any) -> str:
    """Both command lines on ``args`` in ``cwd`` succeed and print the same (``io``: their
    ``stdin`` and ``env``; ``console``: ours through the console script). Returns ours."""
    ours = bleuprint_cli(args, cwd, console=console, **io)
    theirs = sacrebleu_cli(args, cwd, **io)
    assert theirs.returncode == 0, theirs.stderr.decode()
    assert ours.returncode == 0, ours.stderr.decode()
    out = ours.stdout.decode("utf-8").replace(OUR_VERSION, SACREBLEU_VERSION)
    assert out == theirs.stdout.decode("utf-8")
    assert b"Traceback" not in ours.stderr
    return out


def run_cli_in_process(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``bleuprint`` run in this process: (exit status, stdout, stderr)."""
    from bleuprint.cli import main

    try:
        code = main(argv)
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
