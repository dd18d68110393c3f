"""``install()``: makes ``import sacrebleu`` (and every ``sacrebleu.<module>``) load this
package (:mod:`bleuprint.compat.aliasing`)."""

from bleuprint.compat.aliasing import Alias, AlreadyImportedError


class SacrebleuAlreadyImportedError(AlreadyImportedError):
    """The real sacrebleu was imported before ``install()``."""


TARGET = "bleuprint.compat.sacrebleu"
_alias = Alias("sacrebleu", TARGET, SacrebleuAlreadyImportedError)
install, uninstall, installed = _alias.install, _alias.uninstall, _alias.installed
