"""``sacrebleu.version``: sacrebleu 2.6.0's version with bleuprint's as a PEP 440 local label,
so version checks written for sacrebleu (``>= 2``, ``>= 1.4.12``) see 2.6.0."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bleuprint import __version__ as _bleuprint_version

#: The sacrebleu release whose API this package reproduces.
EMULATED = "2.6.0"


def local_label(version: str) -> str:
    """``bleuprint.<version>`` with every run of other characters made a dot: a local label
    needs ASCII letters, digits and dots only."""
    return "bleuprint." + ".".join(p for p in re.split(r"[^0-9A-Za-z]+", version) if p)


__version__ = version = f"{EMULATED}+{local_label(_bleuprint_version)}"
__version_tuple__ = version_tuple = (2, 6, 0, local_label(_bleuprint_version))
__commit_id__ = commit_id = None

__all__ = ["TYPE_CHECKING", "commit_id", "version", "version_tuple"]
