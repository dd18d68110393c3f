#!/usr/bin/env python3
"""Find the import cycles among bleuprint's Python modules.

Every import counts: imports inside functions (which can hide a cycle from a first look but
not from Python) and imports under ``if TYPE_CHECKING:`` (which never run, but tie the modules'
meaning together just the same). ``lint-imports`` checks the layers with run-time imports; this
script counts the groups of modules that import each other (strongly connected components),
lists them and fails when there is any (``make check`` runs it).

Usage::

    python tools/import_cycles.py     # prints the groups; exits 1 if there is any
"""

from __future__ import annotations

import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]


def import_graph() -> dict[str, set[str]]:
    """Every module's direct imports within bleuprint."""
    sys.path.insert(0, str(ROOT / "python"))
    graph = grimp.build_graph("bleuprint", cache_dir=None, exclude_type_checking_imports=False)
    edges: dict[str, set[str]] = {}
    for importer in graph.modules:
        edges[importer] = {
            imported
            for imported in graph.find_modules_directly_imported_by(importer)
            # grimp cannot see the compiled bleuprint._core, so `from bleuprint import _core`
            # reads as importing the package root; it is not one.
            if not (imported == "bleuprint" and _only_core(graph, importer))
        }
    return edges


def _only_core(graph: grimp.ImportGraph, importer: str) -> bool:
    details = graph.get_import_details(importer=importer, imported="bleuprint")
    return all("_core" in d["line_contents"] for d in details)


def cyclic_groups(edges: dict[str, set[str]]) -> list[list[str]]:
    """The groups of two or more modules that reach each other (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in edges.get(module, ()):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for module in sorted(edges):
        if module not in index:
            visit(module)
    return groups


def main() -> int:
    groups = cyclic_groups(import_graph())
    print(f"{len(groups)} import cycles (groups of modules importing each other)")
    for group in groups:
        print("  " + ", ".join(group))
    return 1 if groups else 0


if __name__ == "__main__":
    sys.exit(main())
