"""pycocoevalcap 1.2's ``spice/spice.py``: ``Spice()`` is pycocoevalcap's own scorer (SPICE 1.0,
a Java program bleuprint does not reimplement; it downloads Stanford CoreNLP's models on first
use), from the real package, with Java.

Without the real pycocoevalcap or without Java, ``Spice()`` raises
:class:`~bleuprint.errors.ModelUnavailableError` naming what to install.
"""

from __future__ import annotations

from typing import Any

from bleuprint.compat.pycocoevalcap.eval import upstream_scorer


class Spice:
    """pycocoevalcap's ``Spice``: ``Spice()`` returns an instance of the real class."""

    def __new__(cls) -> Any:  # type: ignore[misc]
        return upstream_scorer("SPICE")
