"""``install()``: makes ``import rouge_score`` (and every ``rouge_score.<module>``) load this
package.

A meta-path finder answers every ``rouge_score`` and ``rouge_score.*`` import with the module
of the same name under ``bleuprint.compat.rouge_score``: the very same module object, so
``rouge_score.rouge_scorer.RougeScorer is bleuprint.compat.rouge_score.rouge_scorer.RougeScorer``.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Optional

from bleuprint.errors import BleuprintError

ALIAS = "rouge_score"
TARGET = "bleuprint.compat.rouge_score"


class RougeScoreAlreadyImportedError(BleuprintError, RuntimeError):
    """The real rouge-score was imported before ``install()``."""


def renamed(name: str, package: str, new: str) -> Optional[str]:
    """``name`` with its leading ``package`` (the package itself or a module under it)
    replaced by ``new``; ``None`` for a name outside ``package``."""
    if name == package or name.startswith(package + "."):
        return new + name[len(package) :]
    return None


class _AliasLoader(importlib.abc.Loader):
    """Hands back an already imported module under its ``rouge_score`` name."""

    def __init__(self, module: ModuleType) -> None:
        self.module = module

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return self.module

    def exec_module(self, module: ModuleType) -> None:
        pass  # imported already, under its own name


class RougeScoreFinder(importlib.abc.MetaPathFinder):
    """Finds ``rouge_score`` and ``rouge_score.*`` as this package's modules."""

    def find_spec(
        self,
        fullname: str,
        path: Optional[Sequence[str]] = None,
        target: Optional[ModuleType] = None,
    ) -> Optional[importlib.machinery.ModuleSpec]:
        name = renamed(fullname, ALIAS, TARGET)
        if name is None:
            return None
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name == name:
                return None  # no such module here (rouge_score.rouge, test_util): not found
            raise
        return importlib.machinery.ModuleSpec(
            fullname, _AliasLoader(module), is_package=hasattr(module, "__path__")
        )


_finder = RougeScoreFinder()


def _is_ours(module: ModuleType) -> bool:
    return getattr(module, "__name__", "").startswith(TARGET)


def install() -> None:
    """Registers this package as ``rouge_score``: afterwards ``import rouge_score``, ``from
    rouge_score import rouge_scorer, scoring`` and ``import rouge_score.tokenizers`` load
    bleuprint's modules. Calling it again does nothing.

    Raises
    ------
    RougeScoreAlreadyImportedError
        When the real rouge-score was imported first: modules holding it would keep it.
        Call ``install()`` before anything imports rouge_score.
    """
    current = sys.modules.get(ALIAS)
    if current is not None and not _is_ours(current):
        raise RougeScoreAlreadyImportedError(
            f"the real rouge_score ({getattr(current, '__file__', '?')}) was imported before "
            "bleuprint.compat.rouge_score.install(); call install() first, e.g. at the top of "
            "your script or with `python -m bleuprint.compat.rouge_score script.py`"
        )
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)
    # The modules imported so far, under their rouge_score names (the rest via the finder).
    for name, module in list(sys.modules.items()):
        alias = renamed(name, TARGET, ALIAS)
        if alias is not None and module is not None:
            sys.modules.setdefault(alias, module)
    importlib.import_module(ALIAS)


def uninstall() -> None:
    """Undoes :func:`install`: removes the finder and every ``rouge_score`` module that is
    this package's, so a later ``import rouge_score`` finds the real one again."""
    while _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
    for name, module in list(sys.modules.items()):
        if renamed(name, ALIAS, TARGET) is not None and _is_ours(module):
            del sys.modules[name]


def installed() -> bool:
    """Whether ``rouge_score`` is this package now."""
    current = sys.modules.get(ALIAS)
    return current is not None and _is_ours(current)
