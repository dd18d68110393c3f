"""``python -m bleuprint.compat.sacrebleu script.py ARGS`` (or ``-m module ARGS``): runs a
script or module as ``__main__`` with :func:`~bleuprint.compat.sacrebleu.install` done first,
so its ``import sacrebleu`` loads bleuprint. ``-m sacrebleu`` is sacrebleu's command line."""

from __future__ import annotations

import runpy
import sys
from collections.abc import Sequence
from typing import Optional

from bleuprint.compat.sacrebleu._install import ALIAS, TARGET, install, renamed

USAGE = "usage: python -m bleuprint.compat.sacrebleu (SCRIPT.py | -m MODULE) [ARGS ...]"


def _runnable(module: str) -> str:
    """The module to run for ``-m module``: ``sacrebleu`` is its command line, and a
    ``sacrebleu.*`` module runs under its bleuprint name (the alias has no code to run)."""
    if module in ("sacrebleu", "sacrebleu.__main__"):
        return f"{TARGET}.sacrebleu"
    return renamed(module, ALIAS, TARGET) or module


def run(argv: Optional[Sequence[str]] = None) -> int:
    """Runs ``argv`` (``[script, args...]`` or ``["-m", module, args...]``); the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help") or (args[0] == "-m" and len(args) < 2):
        print(USAGE, file=sys.stderr)
        return 0 if args and args[0] in ("-h", "--help") else 2
    install()
    if args[0] == "-m":
        module = args[1]
        sys.argv = [module, *args[2:]]
        runpy.run_module(_runnable(module), run_name="__main__", alter_sys=True)
    else:
        sys.argv = args
        runpy.run_path(args[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(run())
