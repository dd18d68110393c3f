"""CI runs every quality gate: `make check` (which .ci/run calls) lists them before the suites."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.support.data import REPO

# In the order `make check` runs them; the two suites come last.
GATES = [
    "cargo fmt --check",
    "-m ruff check",
    "-m ruff format --check",
    "tools/gen_unicode_tables.py --check",
    "tools/gen_testsets_registry.py --check",
    "-m mypy",
    "-m mypy.stubtest bleuprint._core",
    "lint-imports",
    "tools/import_cycles.py",
    "cargo clippy --all-targets -- -D warnings",
    "cargo doc --no-deps --no-default-features",
    "cargo test --no-default-features",
    "-m pytest",
]


def test_ci_runs_make_check() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert 'python3 -m pip install ".[test]" && make check' in ci


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_check_runs_every_gate_in_order() -> None:
    dry_run = subprocess.run(
        ["make", "-n", "check"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    positions = []
    for gate in GATES:
        lines = [i for i, line in enumerate(dry_run) if gate in line and "pytest -m" not in line]
        assert lines, f"`make check` does not run {gate!r}"
        positions.append(lines[0])
    assert positions == sorted(positions)


def test_tools_the_gates_need_are_in_the_test_extra() -> None:
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    test_extra = pyproject.split("test = [", 1)[1].split("]", 1)[0]
    for package in ("pytest-timeout", "ruff", "mypy", "import-linter"):
        assert f'"{package}' in test_extra


def test_every_test_has_a_timeout(pytestconfig: pytest.Config) -> None:
    # pytest-timeout's default, from pyproject.toml: a hang fails one test, not the run.
    assert float(pytestconfig.getini("timeout")) == 600
