"""import-linter contract types of bleuprint's own (``[tool.importlinter] contract_types`` in
``pyproject.toml``; ``lint-imports`` runs from the repository root, which it puts on the path).

``core_access``: only the named packages import the compiled core, ``bleuprint._core`` (a
package re-exporting the extension ``bleuprint._core._ext``). import-linter's ``forbidden``
contract cannot say this: grimp finds no source file for the compiled module, so it does not
see imports of ``_ext``, and older layouts read ``from bleuprint import _core`` as an import
of the package root. This contract reads every module's import statements instead
(function-local and ``TYPE_CHECKING`` ones included).
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

from grimp import ImportGraph
from importlinter.application import output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck

CORE = "bleuprint._core"


class CoreAccessContract(Contract):
    """Only ``allowed_modules`` (packages, with their modules, or modules) import
    ``bleuprint._core``; the package root always may (``bleuprint.__version__``)."""

    type_name = "core_access"

    allowed_modules = fields.ListField(subfield=fields.StringField())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        allowed = [str(name) for name in self.allowed_modules]  # type: ignore[attr-defined]
        violations = []
        for module in sorted(graph.modules):
            # The root (``__version__``) and the core's own package (its re-exports) may.
            if module == "bleuprint" or _within(module, [CORE, *allowed]):
                continue
            path = _source(module)
            if path is not None:
                violations += [(module, line) for line in core_imports(path)]
        return ContractCheck(kept=not violations, metadata={"violations": violations})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for module, line in check.metadata["violations"]:
            output.print_error(f"{module} (line {line}) imports {CORE}")
            output.new_line()
        output.print("Go through the metric classes, tokenizers or io instead.")


def core_imports(path: Path) -> list[int]:
    """The line numbers of ``path``'s imports of ``bleuprint._core``."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            if any(alias.name == CORE or alias.name.startswith(CORE + ".") for alias in node.names):
                lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            module = node.module or ""
            names = {alias.name for alias in node.names}
            if _within(module, [CORE]) or (module == "bleuprint" and "_core" in names):
                lines.append(node.lineno)
    return lines


def _within(module: str, packages: list[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def _source(module: str) -> Path | None:
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)
