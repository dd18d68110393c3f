"""whisper-normalizer 0.1.15's ``whisper_normalizer.basic``: openai-whisper's basic normalizer
with ``preserve_marks`` (keep Unicode marks, such as the vowel signs and viramas of Indic
scripts, that ``remove_symbols`` otherwise turns into spaces)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from bleuprint.tokenizers.whisper import TABLES, WhisperStage

__all__ = [
    "ADDITIONAL_DIACRITICS",
    "remove_symbols_and_diacritics",
    "remove_symbols",
    "BasicTextNormalizer",
]

#: Letters NFKD does not decompose, and how ``remove_symbols_and_diacritics`` spells them.
ADDITIONAL_DIACRITICS: dict[str, str] = dict(TABLES["additional_diacritics"])


@functools.lru_cache(maxsize=64)
def _stage(name: str, **options: Any) -> WhisperStage:
    # One core stage per option set, reused by every call of the functions below.
    return WhisperStage(name, **options)


def remove_symbols_and_diacritics(s: str, keep: str = "") -> str:
    """Replace any other markers, symbols and punctuations with a space, and drop any
    diacritics (category 'Mn' and some manual mappings); the characters of ``keep`` stay."""
    return _stage("remove_symbols_and_diacritics", keep=keep)(s)


def remove_symbols(s: str, preserve_marks: bool = False) -> str:
    """Replace symbols and punctuations with a space, optionally preserving Unicode marks."""
    return _stage("remove_symbols", preserve_marks=bool(preserve_marks))(s)


class BasicTextNormalizer:
    """Lowercase; remove bracketed and parenthesized spans; symbols and punctuation (and marks,
    without ``preserve_marks``) to spaces; whitespace collapsed. ``remove_diacritics`` also
    drops diacritics; ``split_letters`` separates the grapheme clusters with spaces."""

    def __init__(
        self,
        remove_diacritics: bool = False,
        split_letters: bool = False,
        preserve_marks: bool = False,
    ):
        if remove_diacritics and preserve_marks:
            raise ValueError("preserve_marks cannot be used with remove_diacritics=True")
        self.split_letters = split_letters
        self._stage = WhisperStage(
            "basic",
            remove_diacritics=remove_diacritics,
            split_letters=split_letters,
            preserve_marks=preserve_marks,
        )
        self.clean: Callable[[str], str] = (
            remove_symbols_and_diacritics
            if remove_diacritics
            else functools.partial(remove_symbols, preserve_marks=preserve_marks)
        )

    def __call__(self, s: str) -> str:
        return self._stage(s)
