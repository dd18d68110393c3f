"""An upstream's published source distribution, fetched from the package index pip uses.

Some upstreams cannot be pip-installed here (fairseq needs torch and a C++ build), so their
tests run on the code in their sdist instead. Files are checked against the sha256 the index
lists and cached under ``~/.cache/bleuprint-tests`` (``BLEUPRINT_TEST_CACHE``).
"""

from __future__ import annotations

import hashlib
import os
import re
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
