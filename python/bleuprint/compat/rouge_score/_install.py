"""``install()``: makes ``import rouge_score`` (and every ``rouge_score.<module>``) load this
package (:mod:`bleuprint.compat.aliasing`)."""

from __future__ import annotations

from bleuprint.compat.aliasing import Alias
from bleuprint.errors import BleuprintError

ALIAS = "rouge_score"
TARGET = "bleuprint.compat.rouge_score"


class RougeScoreAlreadyImportedError(BleuprintError, RuntimeError):
    """The real rouge-score was imported before ``install()``."""


_alias = Alias(ALIAS, TARGET, RougeScoreAlreadyImportedError)
#: Registers this package as ``rouge_score``; calling it again does nothing. Raises
#: :class:`RougeScoreAlreadyImportedError` when the real rouge-score was imported first.
install = _alias.install
#: Undoes :func:`install`.
uninstall = _alias.uninstall
#: Whether ``rouge_score`` is this package now.
installed = _alias.installed
