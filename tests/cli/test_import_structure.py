"""How the modules load: the command line imports each subcommand's module through one table
(``bleuprint.cli.entry.SUBCOMMANDS``) when the subcommand runs, the lazily loaded parts stay
out of ``import bleuprint`` and ``bleuprint -V``, and the few imports left inside functions
are the known ones, each with a comment saying why."""

from __future__ import annotations

import ast
import importlib
import json
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
    ("cli/running.py", "bleuprint.cli.preset_output"),  # --preset only: the compat code
    ("cli/running.py", "bleuprint.significance.paired"),  # paired tests only
    ("cli/test_sets.py", "bleuprint"),  # bleuprint.testsets, for the test-set options only
    ("cli/test_sets.py", "bleuprint.testsets"),  # -d only: the subset scores
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


def _imported(code: str, cwd: Path) -> set[str]:
    """The modules loaded after ``code`` runs in a fresh interpreter (a ``SystemExit`` ends
    it as for the command)."""
    script = (
        "import json, sys\n"
        "try:\n" + "".join(f"    {line}\n" for line in code.splitlines()) + ""
        "except SystemExit:\n    pass\n"
        "sys.stderr.write(json.dumps(sorted(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=cwd, capture_output=True, check=True, timeout=120
    )
    return set(json.loads(result.stderr.decode().splitlines()[-1]))


#: Loaded when used, never by ``import bleuprint`` or ``bleuprint -V``. (The modules the
#: metric classes delegate to, ``io.streaming``, ``io.tables`` and ``analysis.pairwise``, and
#: the preset table load with the metrics: they are the metric's own methods.)
LAZY = {
    "bleuprint.tokenizers.external",
    "bleuprint.tokenizers.mecab",
    "bleuprint.tokenizers.spm",
    "bleuprint.testsets",
    "bleuprint.analysis.report",
    "bleuprint.analysis.mbr",
    "bleuprint.io.shards",
}
COMMANDS = {target.partition(":")[0] for target in [*entry.SUBCOMMANDS.values(), entry.SCORING]}


def test_version_loads_no_command_module(tmp_path: Path) -> None:
    modules = _imported("from bleuprint.cli import main\nmain(['-V'])", tmp_path)
    assert "bleuprint.cli.parser" in modules
    assert not modules & (COMMANDS | LAZY)
    assert "numpy" not in modules


def test_import_bleuprint_loads_nothing_lazy(tmp_path: Path) -> None:
    modules = _imported("import bleuprint", tmp_path)
    assert "bleuprint.tokenizers" in modules
    assert not modules & (COMMANDS | LAZY)


def test_scoring_loads_only_what_it_uses(tmp_path: Path) -> None:
    # Text files, no --preset, no --shard: no compat code or shard files.
    (tmp_path / "ref.txt").write_text("a b c d\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("a b c e\n", encoding="utf-8")
    modules = _imported(
        "from bleuprint.cli import main\nmain(['ref.txt', '-i', 'hyp.txt', '-m', 'bleu', 'chrf'])",
        tmp_path,
    )
    assert "bleuprint.cli.running" in modules
    assert "bleuprint.io.shards" not in modules
    assert not any(m.startswith("bleuprint.compat") for m in modules)
    # No test set (-t) and no paired test: neither machinery loads.
    assert "bleuprint.testsets" not in modules
    assert "bleuprint.significance.paired" not in modules
    assert "bleuprint.significance.bootstrap" not in modules
