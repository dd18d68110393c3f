"""CI runs every quality gate: `make check` (which .ci/run calls) lists them before the suites."""

from __future__ import annotations

import ast
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


# --- the one metric model's layout (docs/design.md, "Adding a metric") -----------------------

PACKAGE = REPO / "python" / "bleuprint"


def test_bindings_are_generic_operations() -> None:
    # A metric adds a kernel class to src/python/kernels.rs, never a #[pyfunction].
    bindings = [
        line
        for path in (REPO / "src" / "python").rglob("*.rs")
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() == "#[pyfunction]"
    ]
    assert 0 < len(bindings) <= 20


def test_package_root_holds_only_entry_points() -> None:
    # Every file, built ones included: the compiled core lives in _core/, not at the root.
    files = {p.name for p in PACKAGE.iterdir() if p.is_file()}
    assert files == {"__init__.py", "__main__.py", "errors.py", "py.typed"}
    core = {
        p.name
        for p in (PACKAGE / "_core").iterdir()
        if p.is_file() and not (p.name.startswith("_ext.") and p.suffix in (".so", ".pyd"))
    }
    assert core == {"__init__.py", "_ext.pyi"}


def test_tests_mirror_the_package() -> None:
    assert len([p for p in (REPO / "tests").iterdir() if p.is_file()]) <= 8


def _local_imports() -> list[tuple[str, int, list[str]]]:
    """Each import of a bleuprint module inside a function: (path, line, the lines above)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for function in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom):
                    names = ["." if node.level else (node.module or "")]
                else:
                    continue
                if any(name == "." or name.split(".")[0] == "bleuprint" for name in names):
                    above = lines[max(0, node.lineno - 4) : node.lineno]
                    found.append((str(path.relative_to(REPO)), node.lineno, above))
    return found


def test_function_local_imports_are_few_and_say_why() -> None:
    # Layers import downwards at the top of a module; a function-local import is for start-up
    # time or an optional dependency, and its comment says which.
    local = _local_imports()
    assert len(local) <= 10, [f"{path}:{line}" for path, line, _ in local]
    for path, line, above in local:
        assert any("#" in text for text in above), f"{path}:{line} does not say why it is local"


def test_core_access_contract_sees_every_way_to_import_the_core(tmp_path) -> None:
    # tools/import_contracts.py reads import statements: each spelling of an import of the
    # compiled core (the package or its extension) must count, and nothing else.
    import sys

    sys.path.insert(0, str(REPO / "tools"))
    try:
        from import_contracts import core_imports
    finally:
        sys.path.remove(str(REPO / "tools"))
    source = tmp_path / "m.py"
    source.write_text(
        "from bleuprint import _core\n"
        "from bleuprint._core import stats\n"
        "from bleuprint._core._ext import details\n"
        "import bleuprint._core._ext\n"
        "from bleuprint import errors\n"
        "import bleuprint.metrics\n",
        encoding="utf-8",
    )
    assert core_imports(source) == [1, 2, 3, 4]
