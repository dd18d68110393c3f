"""The Whisper text normalizers one class or function at a time, with upstream's options and
errors (openai-whisper 20250625's, and the whisper-normalizer 0.1.15 package's variants):
what ``bleuprint.compat.whisper_normalizer`` is made of. Metrics take the whole normalizers
by name instead (``normalizer="whisper-english"``, see :data:`bleuprint.tokenizers.NORMALIZATIONS`).
"""

from __future__ import annotations

from typing import Any

from bleuprint import _core
from bleuprint.errors import InvalidInputError

#: Their data as upstream's attributes hold it: ``spelling`` (``english.json``),
#: ``additional_diacritics``, ``replacers`` and ``package_replacers`` (openai-whisper's and
#: whisper-normalizer's, pattern -> replacement in order), ``ignore_patterns``.
TABLES: dict[str, Any] = _core.WHISPER_TABLES
#: The git revision of huggingface/open_asr_leaderboard whose ``normalizer/`` package the
#: ``open-asr-*`` normalizers and WER's ``compound_pairs`` reproduce.
OPEN_ASR_REVISION: str = _core.OPEN_ASR_REVISION
#: The languages of its multilingual normalizer's number words (``open-asr-multilingual-XX``).
OPEN_ASR_LANGUAGES: tuple[str, ...] = tuple(
    name.rsplit("-", 1)[1]
    for name in _core.NORMALIZATIONS
    if name.startswith("open-asr-multilingual-")
)


class WhisperStage:
    """One stage, called on one string: ``english`` (``EnglishTextNormalizer``; with
    ``package``, whisper-normalizer's), ``numbers``, ``spelling``, ``basic`` (with
    ``remove_diacritics``, ``split_letters``, ``preserve_marks``), ``remove_symbols`` (with
    ``preserve_marks``) or ``remove_symbols_and_diacritics`` (with ``keep``)."""

    def __init__(self, stage: str, **options: Any) -> None:
        self._stage = _core.WhisperStage(stage, **options)

    def __call__(self, s: str) -> str:
        """``s`` normalized. A non-``str`` raises ``TypeError``; where upstream raises (a
        number past CPython's 4,300-digit conversion limit) this raises the same exception
        type (``AssertionError`` or ``ValueError``)."""
        if not isinstance(s, str):
            raise TypeError(f"expected str, got {type(s).__name__}")
        try:
            out: str = _core.tokenize(self._stage, [s], name="s", workers=1)[0]
        except InvalidInputError as e:
            # The core names the exception upstream raises there ("AssertionError: ...");
            # a lone surrogate is a ValueError.
            message = str(e)
            kind, _, rest = message.partition(": ")
            if kind == "AssertionError":
                raise AssertionError(rest) from None
            raise ValueError(rest if kind == "ValueError" else message) from None
        return out
