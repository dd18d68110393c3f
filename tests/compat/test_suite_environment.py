"""The environment an upstream's suite runs in finds this repository's ``tests`` package."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import bleuprint
from tests.support.data import REPO
from tests.support.upstream import suite_environment


def test_a_stray_tests_package_beside_the_installed_bleuprint_does_not_hide_the_repositorys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # CI installs bleuprint into site-packages, where another distribution had left a
    # top-level ``tests`` package: the suites' plugins then failed to import tests.support.
    site = tmp_path / "site-packages"
    (site / "bleuprint").mkdir(parents=True)
    (site / "tests").mkdir()
    (site / "tests" / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.setattr(bleuprint, "__file__", str(site / "bleuprint" / "__init__.py"))
    env = suite_environment({})
    found = subprocess.run(
        [sys.executable, "-c", "import tests.support.upstream as u; print(u.__file__)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(found).resolve() == (REPO / "tests" / "support" / "upstream.py").resolve()
