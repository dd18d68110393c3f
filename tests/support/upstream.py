"""An upstream's published source distribution, fetched from the package index pip uses.

Some upstreams cannot be pip-installed here (fairseq needs torch and a C++ build), so their
tests run on the code in their sdist instead. Files are checked against the sha256 the index
lists and cached under ``~/.cache/bleuprint-tests`` (``BLEUPRINT_TEST_CACHE``).
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tarfile
import urllib.request
from pathlib import Path

import pytest

INDEX = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/")


def cache_dir() -> Path:
    default = Path.home() / ".cache" / "bleuprint-tests"
    path = Path(os.environ.get("BLEUPRINT_TEST_CACHE", default))
    path.mkdir(parents=True, exist_ok=True)
    return path


def _fetch(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=120) as response:
            return bytes(response.read())
    except OSError as e:
        if os.environ.get("CI"):  # CI reaches the index: a failure there is a real one
            raise
        pytest.skip(f"the package index is unreachable ({e})")


def sdist(name: str, version: str) -> Path:
    """The path of ``name``'s ``version`` sdist (``.tar.gz``), downloaded once and verified."""
    filename = f"{name}-{version}.tar.gz"
    path = cache_dir() / filename
    if path.exists():
        return path
    page = _fetch(f"{INDEX}/{name}/").decode()
    found = re.search(rf'href="([^"#]*/{re.escape(filename)})#sha256=([0-9a-f]{{64}})"', page)
    if found is None:
        raise FileNotFoundError(f"{filename} is not listed at {INDEX}/{name}/")
    url, sha256 = found.groups()
    data = _fetch(url)
    if hashlib.sha256(data).hexdigest() != sha256:
        raise OSError(f"{filename} does not match the index's sha256 {sha256}")
    partial = path.with_name(f"{filename}.{os.getpid()}.part")
    partial.write_bytes(data)
    partial.replace(path)  # atomic: parallel workers never read a partial file
    return path


def read_member(archive: Path, member: str) -> bytes:
    """One file of an sdist."""
    with tarfile.open(archive) as tar:
        extracted = tar.extractfile(member)
        if extracted is None:
            raise FileNotFoundError(f"{member} is not a file in {archive.name}")
        return extracted.read()


# --- running an upstream's suite in a subprocess -------------------------------------------


def suite_environment(extra: dict[str, str], *paths: Path) -> dict[str, str]:
    """This environment for a suite's pytest: no outer pytest options or plugins, then
    ``paths``, the repository (the ``tests`` package) and the bleuprint this process imported
    (installed or editable) first on PYTHONPATH, and ``extra``. The repository comes before
    the installed package's directory: site-packages may hold another distribution's stray
    top-level ``tests`` package, which would hide this one."""
    import bleuprint

    package_root = Path(bleuprint.__file__).resolve().parents[1]
    repo = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "PYTEST_PLUGINS")}
    python_path = [*map(str, paths), str(repo), str(package_root), env.get("PYTHONPATH", "")]
    return {**env, **extra, "PYTHONPATH": os.pathsep.join(filter(None, python_path))}


def run_pytest(
    root: Path, args: list[str], env: dict[str, str], timeout: int
) -> subprocess.CompletedProcess[str]:
    """``python -m pytest ARGS`` in ``root``, without the cache, random order or xdist
    plugins (an upstream's suite runs as its authors run it)."""
    plugins = ["-p", "no:cacheprovider", "-p", "no:randomly"]
    return subprocess.run(
        [sys.executable, "-m", "pytest", *plugins, *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def junit_cases(report: Path) -> dict[str, str]:
    """``FILE::TEST`` -> passed, failed, error or skipped, for every case of a JUnit report.
    The file is the class name's module part (``test.test_api``, ``rouge_scorer_test.X``); a
    file that fails to import is one case named after the module."""
    import xml.etree.ElementTree as ET

    cases: dict[str, str] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        parts = (case.get("classname") or case.get("name") or "").split(".")
        is_module = [p.startswith("test") or p.endswith("_test") for p in parts]
        module = (
            parts[len(parts) - 1 - is_module[::-1].index(True)] if any(is_module) else parts[-1]
        )
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = {"failure": "failed", "error": "error", "skipped": "skipped"}[child.tag]
        cases[f"{module}.py::{case.get('name', '')}"] = outcome
    return cases
