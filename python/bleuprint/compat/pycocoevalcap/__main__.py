"""``python -m bleuprint.compat.pycocoevalcap script.py ARGS`` (or ``-m module ARGS``): runs a
script or module as ``__main__`` with :func:`~bleuprint.compat.pycocoevalcap.install` done
first, so its ``import pycocoevalcap`` loads bleuprint."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Optional

from bleuprint.compat.pycocoevalcap import _alias


def run(argv: Optional[Sequence[str]] = None) -> int:
    """Runs ``argv`` (``[script, args...]`` or ``["-m", module, args...]``); the exit status."""
    return _alias.run(argv)


if __name__ == "__main__":
    sys.exit(run())
