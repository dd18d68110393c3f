"""The presets' options, which the parsers need at start-up: ``--preset NAME`` and its
deprecated alias ``--compat NAME``. The commands that run the presets (``explain``,
``compare-presets``, ``--preset`` output) are in :mod:`bleuprint.cli.presets`, which loads the
presets and the compat code.
"""

from __future__ import annotations

import argparse
from typing import Any, Optional

from bleuprint.cli.actions import DEPRECATED_USED, DeprecatedAlias
from bleuprint.cli.errors import Reporter

#: The preset names (kept here so that building the parser does not load the presets).
PRESET_NAMES = (
    "sacrebleu", "nltk", "hf", "nlgmetricverse", "torchmetrics", "torchmetrics-sacrebleu",
    "moses", "moses-detok", "mteval-v13a", "mteval-v14",
)  # fmt: skip


def preset_name(value: str) -> str:
    """``--preset``'s type: a preset name, or a usage error that lists the names."""
    if value not in PRESET_NAMES:
        raise argparse.ArgumentTypeError(
            f"unknown preset {value!r}; expected one of {', '.join(PRESET_NAMES)}"
        )
    return value


def add_preset_option(add: Any, default: Optional[str], help: str) -> None:
    """``--preset NAME``, and ``--compat NAME`` as its deprecated alias."""
    add("--preset", type=preset_name, default=default, metavar="NAME", help=help)
    add(
        "--compat", type=preset_name, dest="preset", action=DeprecatedAlias, metavar="NAME",
        default=argparse.SUPPRESS, help="Deprecated: the old name of --preset.",
    )  # fmt: skip


def note_deprecated(args: argparse.Namespace) -> None:
    """One stderr line per deprecated option spelling that was used."""
    for option in getattr(args, DEPRECATED_USED, None) or []:
        deprecated(option, "--preset")


def deprecated(old: str, new: str) -> None:
    Reporter.write(f"{old} is deprecated, use {new}")


__all__ = ["PRESET_NAMES", "add_preset_option", "deprecated", "note_deprecated", "preset_name"]
