"""``python -m bleuprint.compat.sacrebleu script.py ARGS`` (or ``-m module ARGS``): runs a
script or module as ``__main__`` with :func:`~bleuprint.compat.sacrebleu.install` done first,
so its ``import sacrebleu`` loads bleuprint. ``-m sacrebleu`` is sacrebleu's command line."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Optional

from bleuprint.compat.sacrebleu._install import TARGET, _alias


def _runnable(module: str) -> Optional[str]:
    """``sacrebleu`` (and ``sacrebleu.__main__``) is sacrebleu's command line."""
    return f"{TARGET}.sacrebleu" if module in ("sacrebleu", "sacrebleu.__main__") else None


def run(argv: Optional[Sequence[str]] = None) -> int:
    """Runs ``argv`` (``[script, args...]`` or ``["-m", module, args...]``); the exit status."""
    return _alias.run(argv, _runnable)


if __name__ == "__main__":
    sys.exit(run())
