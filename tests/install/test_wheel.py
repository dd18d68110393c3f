"""The release wheel installs and works with no Rust toolchain (docs/install.md).

`make wheel` builds the release abi3 manylinux wheel and the sdist once per run (about a minute
and a half on 2 cores; ``BLEUPRINT_TEST_WHEEL=path/to/wheel`` tests a wheel built before
instead). The wheel goes into a fresh venv (no system site-packages) whose PATH holds no cargo,
rustc or rustup, with pip forbidden to build anything (``--only-binary=:all:``); its dependencies
come from the package index pip is configured for. There it passes the installed-package smoke
tests (tests/install/smoke.py), whose figures must equal the development build's, and the
README's first quickstart command, with the wheel in place of the source tree.

The build and the venv are shared by the pytest-xdist workers (one builds, the others wait on a
lock). The tests skip only where nothing can be installed: the package index unreachable, or no
make and cargo to build with and no BLEUPRINT_TEST_WHEEL; under CI those are failures.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import pytest

import bleuprint
from bleuprint.io.file_lock import file_lock
from tests.install import smoke
from tests.support.cli import subprocess_env
from tests.support.data import EXAMPLES, REPO
from tests.support.upstream import INDEX

# The build takes about a minute and a half alone: longer beside the other xdist workers' tests
# or with a cold cargo cache, and the default 600 s counts the fixture's setup too.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

README = REPO / "README.md"
RUST_TOOLS = ("cargo", "rustc", "rustup")
# Nothing could build Rust code even if a tool were found some other way.
NO_RUST = {
    "CARGO": "/nonexistent",
    "RUSTC": "/nonexistent",
    "CARGO_HOME": "/nonexistent",
    "RUSTUP_HOME": "/nonexistent",
}


@dataclass(frozen=True)
class Installed:
    """The wheel (and the sdist `make wheel` built beside it) and the venv it is installed in."""

    wheel: Path
    sdist: Optional[Path]
    venv: Path
    env: dict[str, str]

    @property
    def python(self) -> Path:
        return self.venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):  # CI builds and reaches the index: there it is a real failure
        pytest.fail(reason)
    pytest.skip(reason)


def _require_index() -> None:
    """The index pip installs numpy from answers (as tests/support/upstream.py's downloads)."""
    try:
        with urllib.request.urlopen(f"{INDEX}/numpy/", timeout=60):
            pass
    except OSError as e:
        _unavailable(f"the package index is unreachable ({e})")


def _no_rust_env(venv: Path) -> dict[str, str]:
    """This environment for the venv: its scripts first on PATH, and no directory holding a
    Rust tool; no PYTHONPATH, user site-packages or Cargo/rustup settings."""
    scripts = venv / ("Scripts" if os.name == "nt" else "bin")
    path = [
        d
        for d in os.environ.get("PATH", "").split(os.pathsep)
        if d and not any(shutil.which(tool, path=d) for tool in RUST_TOOLS)
    ]
    env = {
        k: v
        for k, v in subprocess_env().items()
        if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTEST_ADDOPTS")
        and not k.startswith(("CARGO_", "RUSTUP_", "CONDA_"))
    }
    return {
        **env,
        **NO_RUST,
        "PATH": os.pathsep.join([str(scripts), *path]),
        "VIRTUAL_ENV": str(venv),
        "PYTHONNOUSERSITE": "1",
    }


def _run(command: list[str], log: Path, timeout: int, **kwargs: object) -> None:
    """Runs ``command`` with its output in ``log``; fails the test with the log's tail."""
    with log.open("w", encoding="utf-8") as out:
        done = subprocess.run(
            command, stdout=out, stderr=subprocess.STDOUT, timeout=timeout, check=False, **kwargs
        )
    if done.returncode != 0:
        tail = "\n".join(log.read_text(encoding="utf-8").splitlines()[-40:])
        pytest.fail(f"{shlex.join(command)} exited with {done.returncode}:\n{tail}")


def _build(dist: Path) -> tuple[Path, Optional[Path]]:
    given = os.environ.get("BLEUPRINT_TEST_WHEEL")
    if given:
        return Path(given).resolve(), None
    if shutil.which("make") is None or shutil.which("cargo") is None:
        _unavailable("building the wheel needs make and cargo (or set BLEUPRINT_TEST_WHEEL)")
    # CARGO_TARGET_DIR, where set, is kept: the build reuses that directory's artifacts.
    _run(
        ["make", "wheel", f"DIST={dist}", f"PYTHON={sys.executable}"],
        dist.parent / "make-wheel.log",
        timeout=1500,
        cwd=REPO,
    )
    (wheel,) = dist.glob("bleuprint-*.whl")
    (sdist,) = dist.glob("bleuprint-*.tar.gz")
    return wheel, sdist


def _install(root: Path) -> Installed:
    wheel, sdist = _build(root / "dist")
    venv = root / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], root / "venv.log", timeout=300)
    env = _no_rust_env(venv)
    installed = Installed(wheel, sdist, venv, env)
    _run(
        [str(installed.python), "-m", "pip", "install", "--only-binary=:all:", str(wheel)],
        root / "pip-install.log",
        timeout=900,
        env=env,
        cwd=root,
    )
    return installed


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The wheel installed in its venv, made once per run: xdist's workers share the run's
    temporary directory (the parent of each worker's own)."""
    _require_index()
    base = tmp_path_factory.getbasetemp()
    root = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "release-wheel"
    root.mkdir(exist_ok=True)
    ready = root / "installed.json"
    with file_lock(root / "build.lock"):
        if ready.exists():
            saved = json.loads(ready.read_text(encoding="utf-8"))
            sdist = Path(saved["sdist"]) if saved["sdist"] else None
            return Installed(Path(saved["wheel"]), sdist, Path(saved["venv"]), saved["env"])
        result = _install(root)
        fields = {
            "wheel": str(result.wheel),
            "sdist": str(result.sdist) if result.sdist else None,
            "venv": str(result.venv),
            "env": result.env,
        }
        ready.write_text(json.dumps(fields), encoding="utf-8")
        return result


def _readme_install_command() -> str:
    """The first command of the README's quickstart (tests/test_docs.py counts them)."""
    text = README.read_text(encoding="utf-8")
    quickstart = text.split("## Quickstart", 1)[1].split("##", 1)[0]
    block = re.search(r"```bash\n(.*?)```", quickstart, flags=re.S)
    assert block is not None
    return next(line for line in block.group(1).splitlines() if line.strip())


def _manylinux_glibc(tag: str) -> tuple[int, int]:
    legacy = {"manylinux2014": (2, 17), "manylinux2010": (2, 12), "manylinux1": (2, 5)}
    if tag.split("_")[0] in legacy:
        return legacy[tag.split("_")[0]]
    found = re.fullmatch(r"manylinux_(\d+)_(\d+)_\w+", tag)
    assert found is not None, f"{tag} is not a manylinux tag"
    return int(found.group(1)), int(found.group(2))


# --- the artifacts ---------------------------------------------------------------------------


def test_wheel_is_one_abi3_build_of_the_package(installed: Installed) -> None:
    name, version, python_tag, abi, platform = installed.wheel.name[: -len(".whl")].split("-")
    assert (name, version) == ("bleuprint", bleuprint.__version__)
    assert (python_tag, abi) == ("cp310", "abi3")  # one wheel for CPython 3.10 and later
    if sys.platform == "linux":
        assert all(tag.startswith("manylinux") for tag in platform.split("."))
    with zipfile.ZipFile(installed.wheel) as archive:
        names = archive.namelist()
        entry_points = archive.read(f"bleuprint-{version}.dist-info/entry_points.txt").decode()
    compiled = [n for n in names if n.endswith((".so", ".pyd", ".dylib", ".dll"))]
    assert compiled == [f"bleuprint/_core/_ext{'.pyd' if os.name == 'nt' else '.abi3.so'}"]
    assert {"bleuprint/py.typed", "bleuprint/_core/_ext.pyi", "bleuprint/cli/entry.py"} <= set(
        names
    )
    assert {n.split("/")[0] for n in names} == {"bleuprint", f"bleuprint-{version}.dist-info"}
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert "bleuprint=bleuprint.cli:main" in entry_points.replace(" ", "").splitlines()


@pytest.mark.skipif(sys.platform != "linux", reason="manylinux is Linux's")
def test_auditwheel_accepts_the_manylinux_tag(installed: Installed) -> None:
    pytest.importorskip("auditwheel")
    shown = subprocess.run(
        [sys.executable, "-m", "auditwheel", "show", str(installed.wheel)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    text = " ".join(shown.split())  # auditwheel wraps its lines
    found = re.search(r'consistent with the following platform tag: "([^"]+)"', text)
    assert found is not None, shown
    policy = found.group(1)
    assert policy.startswith("manylinux"), shown  # `linux_*`: it needs unbundled libraries
    platform = installed.wheel.name[: -len(".whl")].split("-")[-1]
    for tag in platform.split("."):  # each tag asks no older glibc than the symbols need
        assert _manylinux_glibc(tag) >= _manylinux_glibc(policy), shown


def test_sdist_holds_the_sources(installed: Installed) -> None:
    if installed.sdist is None:
        pytest.skip("BLEUPRINT_TEST_WHEEL names a wheel built elsewhere, without its sdist")
    top = f"bleuprint-{bleuprint.__version__}"
    with tarfile.open(installed.sdist) as archive:
        names = set(archive.getnames())
    needed = [
        "PKG-INFO",
        "pyproject.toml",
        "Cargo.toml",
        "Cargo.lock",
        "README.md",
        "LICENSE",
        "src/lib.rs",
        "python/bleuprint/__init__.py",
        "python/bleuprint/_core/_ext.pyi",
    ]
    assert {f"{top}/{n}" for n in needed} <= names
    assert not [n for n in names if n.endswith((".so", ".pyd", ".pyc")) or "/target/" in n]


# --- the installed wheel, with no Rust ------------------------------------------------------


def test_no_rust_toolchain_is_reachable(installed: Installed) -> None:
    for tool in RUST_TOOLS:
        assert shutil.which(tool, path=installed.env["PATH"]) is None
    assert all(installed.env[k] == v for k, v in NO_RUST.items())
    config = (installed.venv / "pyvenv.cfg").read_text(encoding="utf-8")
    assert "include-system-site-packages = false" in config


def test_installed_package_passes_the_smoke_tests(installed: Installed, tmp_path: Path) -> None:
    done = subprocess.run(
        [str(installed.python), str(Path(smoke.__file__))],
        cwd=tmp_path,  # not the repository: nothing but the venv can provide bleuprint
        env=installed.env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["version"] == bleuprint.__version__
    assert report["scores"] == smoke.scores()  # the development build's figures, exactly


def test_readme_first_command_runs_on_the_wheel(installed: Installed, tmp_path: Path) -> None:
    readme = _readme_install_command()
    wheel = shlex.quote(str(installed.wheel))
    command, installs = re.subn(
        r"pip install \.(?=\s|$)", lambda _: f"pip install --only-binary=:all: {wheel}", readme
    )
    assert installs == 1, f"the README's first command installs no `.`: {readme}"
    score_command = readme.split("&&")[-1].strip()
    assert score_command.startswith("bleuprint "), readme
    # Its python3 and bleuprint are the venv's; the example data is copied beside it.
    for tool in ("python3", "bleuprint"):
        assert Path(str(shutil.which(tool, path=installed.env["PATH"]))).parent.parent == (
            installed.venv
        )
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    done = subprocess.run(
        ["/bin/sh", "-c", command],
        cwd=tmp_path,
        env=installed.env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    expected = subprocess.run(
        [sys.executable, "-m", "bleuprint", *shlex.split(score_command)[1:]],
        cwd=REPO,
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    assert expected.strip()
    assert done.stdout.endswith(expected)  # after pip's lines, the development build's score
