"""``python -m bleuprint.compat.whisper_normalizer script.py ARGS`` (or ``-m module ARGS``):
runs a script or module as ``__main__`` with
:func:`~bleuprint.compat.whisper_normalizer.install` done first, so its ``import
whisper_normalizer`` loads bleuprint."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Optional

from bleuprint.compat.whisper_normalizer import _alias


def run(argv: Optional[Sequence[str]] = None) -> int:
    """Runs ``argv`` (``[script, args...]`` or ``["-m", module, args...]``); the exit status."""
    return _alias.run(argv)


if __name__ == "__main__":
    sys.exit(run())
