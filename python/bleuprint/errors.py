"""Exceptions and warnings raised by bleuprint.

Every error derives from :class:`BleuprintError`. Errors about inputs also derive from the
builtin :class:`ValueError` or :class:`TypeError`, so generic handlers keep working.
"""

from __future__ import annotations

import os
import sys
import warnings
from typing import Any


class BleuprintError(Exception):
    """Root of every bleuprint error."""


class InvalidOptionError(BleuprintError, ValueError):
    """An option value that is not one of the accepted choices."""


class InvalidInputError(BleuprintError, ValueError):
    """Input whose shape or content cannot be scored (ragged streams, no references)."""


class ReferenceLayoutError(BleuprintError, TypeError):
    """References nested the wrong way, e.g. a flat ``list[str]`` where streams are expected."""


class InputTypeError(BleuprintError, TypeError):
    """An input of the wrong type: a non-str item, or a container that is not an ordered
    sequence (a set, a dict, a one-shot iterator, a whole DataFrame as references)."""


class InputDecodeError(BleuprintError, ValueError):
    """A file that is not valid text in the requested encoding."""


class InternalError(BleuprintError, RuntimeError):
    """A broken internal invariant: a bug in bleuprint. The message names the invariant;
    please report it."""


class StatsMismatchError(BleuprintError, ValueError):
    """Statistics of different metric configurations combined."""


class StatsFormatError(BleuprintError, ValueError):
    """A file or object that is not valid bleuprint statistics (a foreign ``.npz``, a pickle,
    rows with negative counts or matches above totals)."""


class ModelUnavailableError(BleuprintError, OSError):
    """A tokenizer model (SentencePiece) that can be neither found, downloaded nor loaded."""


class BleuprintWarning(UserWarning):
    """Usage warnings (e.g. sentence BLEU without effective order)."""


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def warn(message: str) -> None:
    """Issues a :class:`BleuprintWarning` attributed to the first caller outside bleuprint, so
    the warning points at the user's line however deep inside the package it arose."""
    frame = sys._getframe(1)
    level = 2  # stacklevel 2 is this function's caller
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    warnings.warn(message, BleuprintWarning, stacklevel=level)


def renamed_keyword(new: Any, old: Any, old_name: str, default: Any) -> Any:
    """The value of a keyword that replaced ``old_name`` (``preset=`` for ``compat=``,
    ``variant=``): the old one still works, with a ``DeprecationWarning``; giving both is an
    error."""
    if old is None:
        return default if new is None else new
    if new is not None:
        raise InvalidOptionError(f"give preset= only; {old_name}= is its deprecated old name")
    warnings.warn(
        f"{old_name}= is deprecated; use preset= (the same values)",
        DeprecationWarning,
        stacklevel=3,
    )
    return old


# What the package root exports; InternalError, warn and renamed_keyword are for bleuprint's
# own modules.
__all__ = [
    "BleuprintError",
    "BleuprintWarning",
    "InputDecodeError",
    "InputTypeError",
    "InvalidInputError",
    "InvalidOptionError",
    "ModelUnavailableError",
    "ReferenceLayoutError",
    "StatsFormatError",
    "StatsMismatchError",
]
