"""``install()``: makes ``import sacrebleu`` (and every ``sacrebleu.<module>``) load this
package (:mod:`bleuprint.compat.aliasing`)."""

from __future__ import annotations

from bleuprint.compat.aliasing import Alias
from bleuprint.errors import BleuprintError

ALIAS = "sacrebleu"
TARGET = "bleuprint.compat.sacrebleu"


class SacrebleuAlreadyImportedError(BleuprintError, RuntimeError):
    """The real sacrebleu was imported before ``install()``."""


_alias = Alias(ALIAS, TARGET, SacrebleuAlreadyImportedError)
#: Registers this package as ``sacrebleu``; calling it again does nothing. Raises
#: :class:`SacrebleuAlreadyImportedError` when the real sacrebleu was imported first.
install = _alias.install
#: Undoes :func:`install`.
uninstall = _alias.uninstall
#: Whether ``sacrebleu`` is this package now.
installed = _alias.installed
