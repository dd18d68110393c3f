"""How the modules load: the command line imports each subcommand's module through one table
(``bleuprint.cli.entry.SUBCOMMANDS``) when the subcommand runs, the lazily loaded parts stay
out of ``import bleuprint`` and ``bleuprint -V``, and the few imports left inside functions
are the known ones, each with a comment saying why."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import bleuprint
from bleuprint.cli import entry

PACKAGE = Path(bleuprint.__file__).parent

#: Where imports inside functions are counted, and the ones allowed there (start-up time).
CHECKED = ("cli", "analysis", "testsets", "tokenizers", "compat/sacrebleu")
NOT_CHECKED = ("analysis/pairwise.py",)
ALLOWED_LOCAL_IMPORTS = {
    ("cli/running.py", "bleuprint.cli.presets"),  # --preset only: the compat code
    ("tokenizers/__init__.py", "bleuprint.tokenizers.external"),  # MeCab, SentencePiece
}


def _function_local_imports(path: Path) -> list[tuple[str, int]]:
    """(module, line) of each import of a bleuprint module inside a function of ``path``."""
    found = []
    for function in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.ImportFrom) and (
                node.level or (node.module or "").startswith("bleuprint")
            ):
                found.append((node.module or "", node.lineno))
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
                found += [(name, node.lineno) for name in names if name.startswith("bleuprint")]
    return found


def test_function_local_imports_are_the_known_ones() -> None:
    found = set()
    for folder in CHECKED:
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            relative = path.relative_to(PACKAGE).as_posix()
            if relative in NOT_CHECKED:
                continue
            lines = path.read_text(encoding="utf-8").splitlines()
            for module, line in _function_local_imports(path):
                found.add((relative, module))
                above = [text.strip() for text in lines[: line - 1] if text.strip()]
                assert above[-1].startswith("#"), f"{relative}:{line}: a comment says why"
    assert found == ALLOWED_LOCAL_IMPORTS


@pytest.mark.parametrize("target", [*entry.SUBCOMMANDS.values(), entry.SCORING])
def test_every_command_names_a_function(target: str) -> None:
    module, _, name = target.partition(":")
    assert callable(getattr(importlib.import_module(module), name))


def _imported(code: str) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        capture_output=True,
        check=True,
        timeout=120,
    )
    lines = result.stderr.decode().splitlines()
    return {line.rsplit("|", 1)[-1].strip() for line in lines if line.startswith("import time:")}


LAZY = {
    "bleuprint.tokenizers.external",
    "bleuprint.tokenizers.mecab",
    "bleuprint.tokenizers.spm",
    "bleuprint.testsets",
    "bleuprint.analysis.report",
    "bleuprint.analysis.mbr",
}


def test_version_loads_no_command_module() -> None:
    modules = _imported(
        "import sys; from bleuprint.cli import main; sys.argv = ['bleuprint', '-V']; main()"
    )
    assert "bleuprint.cli.parser" in modules
    commands = {target.partition(":")[0] for target in [*entry.SUBCOMMANDS.values(), entry.SCORING]}
    assert not modules & (commands | LAZY)


def test_import_bleuprint_loads_nothing_lazy() -> None:
    modules = _imported("import bleuprint")
    assert "bleuprint.tokenizers" in modules
    assert not modules & LAZY
