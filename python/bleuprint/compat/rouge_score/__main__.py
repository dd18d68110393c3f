"""``python -m bleuprint.compat.rouge_score script.py ARGS`` (or ``-m module ARGS``): runs a
script or module as ``__main__`` with :func:`~bleuprint.compat.rouge_score.install` done
first, so its ``import rouge_score`` loads bleuprint."""

from __future__ import annotations

import runpy
import sys
from collections.abc import Sequence
from typing import Optional

from bleuprint.compat.rouge_score._install import ALIAS, TARGET, install, renamed

USAGE = "usage: python -m bleuprint.compat.rouge_score (SCRIPT.py | -m MODULE) [ARGS ...]"


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
        # A rouge_score.* module runs under its bleuprint name (the alias has no code to run).
        runpy.run_module(
            renamed(module, ALIAS, TARGET) or module, run_name="__main__", alter_sys=True
        )
    else:
        sys.argv = args
        runpy.run_path(args[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(run())
