"""``sacrebleu.sacrebleu``: the command line, run by bleuprint's (the same options, and the same
output bytes as the ``bleuprint`` command).

``python -m bleuprint.compat.sacrebleu.sacrebleu ARGS`` runs it directly.
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

from bleuprint.cli import main as _bleuprint_main
from bleuprint.cli.parser import build_parser
from bleuprint.compat.sacrebleu.metrics import METRICS
from bleuprint.compat.sacrebleu.utils import dataset_name as _dataset_name
from bleuprint.compat.sacrebleu.version import __version__ as VERSION  # noqa: N812

sacrelogger = logging.getLogger("sacrebleu")

__all__ = ["METRICS", "VERSION", "main", "parse_args", "sacrelogger"]


def parse_args() -> argparse.Namespace:
    """The options of ``sys.argv``, parsed as the command line parses them."""
    return build_parser().parse_args()


def main() -> None:
    """Runs the command line on ``sys.argv``; exits with its status when it is not 0."""
    status = _bleuprint_main()  # sys.argv, as the command (a closed pipe ends it quietly)
    if status:
        sys.exit(status)


def __getattr__(name: str) -> Any:
    if name == "DATASETS":
        return _dataset_name(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    main()
