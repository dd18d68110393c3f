"""pycocoevalcap 1.2's ``meteor/meteor.py``: ``Meteor()`` is pycocoevalcap's own scorer (METEOR
1.5, a Java program bleuprint does not reimplement), from the real package, with Java.

Without the real pycocoevalcap or without Java, ``Meteor()`` raises
:class:`~bleuprint.errors.ModelUnavailableError` naming what to install.
"""

from __future__ import annotations

from typing import Any

from bleuprint.compat.pycocoevalcap.eval import upstream_scorer


class Meteor:
    """pycocoevalcap's ``Meteor``: ``Meteor()`` returns an instance of the real class."""

    def __new__(cls) -> Any:  # type: ignore[misc]
        return upstream_scorer("METEOR")
