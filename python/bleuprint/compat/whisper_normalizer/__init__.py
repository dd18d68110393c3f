"""The whisper-normalizer 0.1.15 package (``whisper_normalizer``): its ``english`` and
``basic`` modules, computed by bleuprint's core.

``from bleuprint.compat.whisper_normalizer.english import EnglishTextNormalizer`` works as
``from whisper_normalizer.english import EnglishTextNormalizer``; :func:`install` makes
``import whisper_normalizer`` (and ``whisper_normalizer.english``, ``.basic``) load this
package, for code you cannot edit; ``python -m bleuprint.compat.whisper_normalizer script.py
ARGS`` runs a script that way.

- :mod:`~bleuprint.compat.whisper_normalizer.english`: ``EnglishTextNormalizer`` (openai-whisper's
  with four more contractions), ``EnglishNumberNormalizer``, ``EnglishSpellingNormalizer``;
- :mod:`~bleuprint.compat.whisper_normalizer.basic`: ``BasicTextNormalizer`` (with
  ``preserve_marks``), ``remove_symbols``, ``remove_symbols_and_diacritics``,
  ``ADDITIONAL_DIACRITICS``.

Every output is the package's string (docs/wer.md#normalizers says how that was checked). The
normalizers' helper methods (``EnglishNumberNormalizer.process_words``, ``preprocess``,
``postprocess``) are the normalizing itself and are not provided; the package's ``indic`` and
``international`` modules are not either. Where the package raises for a number past CPython's
4,300-digit conversion limit, so does this (``ValueError``); a non-``str`` input raises
``TypeError``.
"""

from bleuprint.compat.aliasing import Alias, AlreadyImportedError

__version__ = "0.1.15"


class WhisperNormalizerAlreadyImportedError(AlreadyImportedError):
    """The real whisper-normalizer was imported before ``install()``."""


_alias = Alias("whisper_normalizer", __name__, WhisperNormalizerAlreadyImportedError)
install, uninstall, installed = _alias.install, _alias.uninstall, _alias.installed
