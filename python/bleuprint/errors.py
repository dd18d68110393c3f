"""Exceptions and warnings raised by bleuprint.

Every error derives from :class:`BleuprintError`. Errors about inputs also derive from the
builtin :class:`ValueError` or :class:`TypeError`, so generic handlers keep working.
"""

from __future__ import annotations


class BleuprintError(Exception):
    """Root of every bleuprint error."""


class InvalidOptionError(BleuprintError, ValueError):
    """An option value that is not one of the accepted choices."""


class InvalidInputError(BleuprintError, ValueError):
    """Input whose shape or content cannot be scored (ragged streams, no references)."""


class ReferenceLayoutError(BleuprintError, TypeError):
    """References nested the wrong way, e.g. a flat ``list[str]`` where streams are expected."""


class InputDecodeError(BleuprintError, ValueError):
    """A file that is not valid text in the requested encoding."""


class StatsMismatchError(BleuprintError, ValueError):
    """Statistics of different metric configurations combined."""


class BleuprintWarning(UserWarning):
    """Usage warnings (e.g. sentence BLEU without effective order)."""


__all__ = [
    "BleuprintError",
    "BleuprintWarning",
    "InputDecodeError",
    "InvalidInputError",
    "InvalidOptionError",
    "ReferenceLayoutError",
    "StatsMismatchError",
]
