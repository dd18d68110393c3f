"""The command line of the generators: write the generated file, or with ``--check`` exit 1
(naming the generator to rerun) when the file in the tree is not what it would write."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path


def write_or_check(render: Callable[[], str], out: Path, doc: str, script: str) -> None:
    """Parses the arguments of the generator ``tools/{script}`` (``doc``, its module docstring,
    describes it) and writes ``render()`` to ``out``, or checks that ``out`` holds it already."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if the file is stale")
    args = parser.parse_args()
    text = render()
    if args.check:
        if not out.exists() or out.read_text(encoding="utf-8") != text:
            sys.exit(f"{out} is out of date; rerun tools/{script}")
        return
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}")


def fill_rows(items: list[str], width: int = 99) -> list[str]:
    """Lay short array items out the way rustfmt does: as many per line as fit."""
    rows: list[str] = []
    line = "   "
    for item in items:
        if len(line) + 1 + len(item) > width:
            rows.append(line)
            line = "   "
        line += " " + item
    rows.append(line)
    return rows
