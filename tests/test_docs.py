"""The README's Python examples and the package docstrings run as written."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

import bleuprint.metrics.stats
import bleuprint.tokenizers
from tests.support.data import REPO

README = REPO / "README.md"
SIGNIFICANCE = README.parent / "docs" / "significance.md"


def _python_blocks(path: Path = README) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.S)


def test_readme_has_two_quickstart_commands():
    text = README.read_text(encoding="utf-8")
    quickstart = text.split("## Quickstart", 1)[1].split("##", 1)[0]
    block = re.search(r"```bash\n(.*?)```", quickstart, flags=re.S).group(1)
    commands = [line for line in block.splitlines() if line.strip()]
    assert len(commands) == 2
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1] in ci.splitlines()


def test_readme_python_examples():
    namespace: dict = {}
    for block in _python_blocks():  # later blocks reuse earlier names, as a reader would
        exec(compile(block, str(README), "exec"), namespace)  # the examples assert their claims


def test_readme_printed_values_are_true(capsys):
    namespace: dict = {}
    for block in _python_blocks():
        exec(compile(block, str(README), "exec"), namespace)
        printed = capsys.readouterr().out.splitlines()
        expected = [
            line.split("# ", 1)[1] for line in block.splitlines() if line.startswith("print(")
        ]
        assert printed == expected


def test_significance_guide_runs_as_printed(capsys, monkeypatch):
    """docs/significance.md's example on the shipped examples/ data prints what its comments
    say: ``print(...)  # text`` lines, and ``#> text`` lines for output printed in a loop."""
    monkeypatch.chdir(README.parent)
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    monkeypatch.delenv("BLEUPRINT_SEED", raising=False)
    (block,) = _python_blocks(SIGNIFICANCE)
    exec(compile(block, str(SIGNIFICANCE), "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    expected = []
    for line in block.splitlines():
        if line.startswith("print(") and "# " in line:
            expected.append(line.split("# ", 1)[1])
        elif line.startswith("#> "):
            expected.append(line[3:])
    assert printed == expected


@pytest.mark.parametrize("module", [bleuprint.metrics.stats, bleuprint.tokenizers])
def test_docstring_examples(module):
    failures, tried = doctest.testmod(module)
    assert tried > 0
    assert failures == 0
