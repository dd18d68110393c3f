"""``install()``: makes ``import sacrebleu`` (and every ``sacrebleu.<sub>``) load this package.

A meta-path finder answers every ``sacrebleu`` and ``sacrebleu.*`` import with the module of
the same name under ``bleuprint.compat.sacrebleu``: the very same module object, so
``sacrebleu.metrics.BLEU is bleuprint.compat.sacrebleu.metrics.BLEU``.
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

ALIAS = "sacrebleu"
TARGET = "bleuprint.compat.sacrebleu"


class SacrebleuAlreadyImportedError(BleuprintError, RuntimeError):
    """The real sacrebleu was imported before ``install()``."""


def renamed(name: str, package: str, new: str) -> Optional[str]:
    """``name`` with its leading ``package`` (the package itself or a module under it)
    replaced by ``new``; ``None`` for a name outside ``package``."""
    if name == package or name.startswith(package + "."):
        return new + name[len(package) :]
    return None


class _AliasLoader(importlib.abc.Loader):
    """Hands back an already imported module under its ``sacrebleu`` name."""

    def __init__(self, module: ModuleType) -> None:
        self.module = module

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return self.module

    def exec_module(self, module: ModuleType) -> None:
        pass  # imported already, under its own name


class SacrebleuFinder(importlib.abc.MetaPathFinder):
    """Finds ``sacrebleu`` and ``sacrebleu.*`` as this package's modules."""

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
                return None  # no such submodule: the import fails as for sacrebleu
            raise
        return importlib.machinery.ModuleSpec(
            fullname, _AliasLoader(module), is_package=hasattr(module, "__path__")
        )


_finder = SacrebleuFinder()


def _is_ours(module: ModuleType) -> bool:
    return getattr(module, "__name__", "").startswith(TARGET)


def install() -> None:
    """Registers this package as ``sacrebleu``: afterwards ``import sacrebleu``, ``from
    sacrebleu.metrics import BLEU`` and ``import sacrebleu.metrics.bleu`` load bleuprint's
    modules. Calling it again does nothing.

    Raises
    ------
    SacrebleuAlreadyImportedError
        When the real sacrebleu was imported first: modules holding it would keep it.
        Call ``install()`` before anything imports sacrebleu.
    """
    current = sys.modules.get(ALIAS)
    if current is not None and not _is_ours(current):
        raise SacrebleuAlreadyImportedError(
            f"the real sacrebleu ({getattr(current, '__file__', '?')}) was imported before "
            "bleuprint.compat.sacrebleu.install(); call install() first, e.g. at the top of "
            "your script or with `python -m bleuprint.compat.sacrebleu script.py`"
        )
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)
    # The submodules imported so far, under their sacrebleu names (the rest via the finder).
    for name, module in list(sys.modules.items()):
        alias = renamed(name, TARGET, ALIAS)
        if alias is not None and module is not None:
            sys.modules.setdefault(alias, module)
    importlib.import_module(ALIAS)


def uninstall() -> None:
    """Undoes :func:`install`: removes the finder and every ``sacrebleu`` module that is this
    package's, so a later ``import sacrebleu`` finds the real one again."""
    while _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
    for name, module in list(sys.modules.items()):
        if renamed(name, ALIAS, TARGET) is not None and _is_ours(module):
            del sys.modules[name]


def installed() -> bool:
    """Whether ``sacrebleu`` is this package now."""
    current = sys.modules.get(ALIAS)
    return current is not None and _is_ours(current)
