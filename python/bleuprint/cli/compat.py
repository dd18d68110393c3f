"""The presets' options, which the parsers need at start-up: ``--preset NAME`` and its
deprecated alias ``--compat NAME``; and what the commands that run the presets share. Those
commands load the presets and the compat code: ``explain`` and ``compare-presets`` are in
:mod:`bleuprint.cli.presets`, the ``--preset`` output in :mod:`bleuprint.cli.preset_output`.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, Optional

from bleuprint.cli.actions import DEPRECATED_USED, DeprecatedAlias
from bleuprint.cli.errors import Reporter
from bleuprint.errors import BleuprintError

#: The preset names (kept here so that building the parser does not load the presets).
PRESET_NAMES = (
    "sacrebleu", "nltk", "hf", "nlgmetricverse", "torchmetrics", "torchmetrics-sacrebleu",
    "moses", "moses-detok", "mteval-v13a", "mteval-v14", "coco",
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


def references_per_segment(refs: Sequence[Sequence[str]], n: int) -> list[list[str]]:
    """The references of each of the ``n`` segments, from reference streams."""
    for k, stream in enumerate(refs):
        if len(stream) != n:
            raise BleuprintError(
                f"reference file {k + 1} has {len(stream)} lines, the hypothesis file {n}"
            )
    return [[s[i] for s in refs] for i in range(n)]


__all__ = [
    "PRESET_NAMES",
    "add_preset_option",
    "deprecated",
    "note_deprecated",
    "preset_name",
    "references_per_segment",
]
