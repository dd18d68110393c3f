"""A drop-in under its upstream's name: ``install()`` makes ``import <upstream>`` (and every
``<upstream>.<module>``) load a bleuprint compat package, and ``python -m <package> script.py``
runs a script with it installed. Written once for every drop-in (sacrebleu, rouge-score).

A meta-path finder answers every ``<alias>`` and ``<alias>.*`` import with the module of the
same name under the compat package: the very same module object, so
``sacrebleu.metrics.BLEU is bleuprint.compat.sacrebleu.metrics.BLEU``.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import runpy
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Optional

from bleuprint.errors import BleuprintError


class AlreadyImportedError(BleuprintError, RuntimeError):
    """The real upstream was imported before ``install()`` (each drop-in names its own)."""


def renamed(name: str, package: str, new: str) -> Optional[str]:
    """``name`` with its leading ``package`` (the package itself or a module under it)
    replaced by ``new``; ``None`` for a name outside ``package``."""
    if name == package or name.startswith(package + "."):
        return new + name[len(package) :]
    return None


class _AliasLoader(importlib.abc.Loader):
    """Hands back an already imported module under its alias."""

    def __init__(self, module: ModuleType) -> None:
        self.module = module

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return self.module

    def exec_module(self, module: ModuleType) -> None:
        pass  # imported already, under its own name


class AliasFinder(importlib.abc.MetaPathFinder):
    """Finds ``alias`` and ``alias.*`` as the modules of ``target``."""

    def __init__(self, alias: str, target: str) -> None:
        self.alias, self.target = alias, target

    def find_spec(
        self,
        fullname: str,
        path: Optional[Sequence[str]] = None,
        target: Optional[ModuleType] = None,
    ) -> Optional[importlib.machinery.ModuleSpec]:
        name = renamed(fullname, self.alias, self.target)
        if name is None:
            return None
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name == name:
                return None  # no such module here: the import fails as for the upstream
            raise
        return importlib.machinery.ModuleSpec(
            fullname, _AliasLoader(module), is_package=hasattr(module, "__path__")
        )


class Alias:
    """The upstream name ``alias`` for the compat package ``target``; ``error`` is raised when
    the real upstream was imported first."""

    def __init__(self, alias: str, target: str, error: type[AlreadyImportedError]) -> None:
        self.alias, self.target, self.error = alias, target, error
        self.finder = AliasFinder(alias, target)

    def _is_ours(self, module: ModuleType) -> bool:
        return getattr(module, "__name__", "").startswith(self.target)

    def install(self) -> None:
        """Registers the package under the alias; calling it again does nothing. Raises
        ``error`` when the real upstream was imported first (modules holding it would keep
        it)."""
        current = sys.modules.get(self.alias)
        if current is not None and not self._is_ours(current):
            raise self.error(
                f"the real {self.alias} ({getattr(current, '__file__', '?')}) was imported "
                f"before {self.target}.install(); call install() first, e.g. at the top of "
                f"your script or with `python -m {self.target} script.py`"
            )
        if self.finder not in sys.meta_path:
            sys.meta_path.insert(0, self.finder)
        # The modules imported so far, under their aliases (the rest via the finder).
        for name, module in list(sys.modules.items()):
            alias = renamed(name, self.target, self.alias)
            if alias is not None and module is not None:
                sys.modules.setdefault(alias, module)
        importlib.import_module(self.alias)

    def uninstall(self) -> None:
        """Undoes :meth:`install`: removes the finder and every aliased module that is the
        package's, so a later import finds the real upstream again."""
        while self.finder in sys.meta_path:
            sys.meta_path.remove(self.finder)
        for name, module in list(sys.modules.items()):
            if renamed(name, self.alias, self.target) is not None and self._is_ours(module):
                del sys.modules[name]

    def installed(self) -> bool:
        """Whether the alias is the package now."""
        current = sys.modules.get(self.alias)
        return current is not None and self._is_ours(current)

    def run(
        self,
        argv: Optional[Sequence[str]],
        runnable: Optional[Callable[[str], Optional[str]]] = None,
    ) -> int:
        """``python -m <target> script.py ARGS`` (or ``-m module ARGS``): runs a script or
        module as ``__main__`` with :meth:`install` done first; an aliased module runs under
        its bleuprint name (``runnable`` may map others, e.g. the upstream's command line).
        Returns the exit status."""
        usage = f"usage: python -m {self.target} (SCRIPT.py | -m MODULE) [ARGS ...]"
        args = list(sys.argv[1:] if argv is None else argv)
        if not args or args[0] in ("-h", "--help") or (args[0] == "-m" and len(args) < 2):
            print(usage, file=sys.stderr)
            return 0 if args and args[0] in ("-h", "--help") else 2
        self.install()
        if args[0] == "-m":
            module = args[1]
            sys.argv = [module, *args[2:]]
            name = (runnable(module) if runnable else None) or renamed(
                module, self.alias, self.target
            )
            runpy.run_module(name or module, run_name="__main__", alter_sys=True)
        else:
            sys.argv = args
            runpy.run_path(args[0], run_name="__main__")
        return 0
