"""whisper-normalizer 0.1.15's ``whisper_normalizer.english``: openai-whisper 20250625's
English normalizers, whose ``EnglishTextNormalizer`` also spells out "kinda", "sorta",
"dunno" and "cause"."""

from __future__ import annotations

from bleuprint.tokenizers.whisper import TABLES, WhisperStage

__all__ = ["EnglishNumberNormalizer", "EnglishSpellingNormalizer", "EnglishTextNormalizer"]


class EnglishNumberNormalizer:
    """Spelled-out numbers to Arabic numerals ("two hundred and five" -> "205", "twenty
    first" -> "21st"), with currencies, percents and ordinals; Arabic numbers are left as
    they are."""

    def __init__(self) -> None:
        self._stage = WhisperStage("numbers")

    def __call__(self, s: str) -> str:
        return self._stage(s)


class EnglishSpellingNormalizer:
    """British spellings to American, word by word (``mapping``: its ``english.json``)."""

    def __init__(self) -> None:
        self.mapping: dict[str, str] = dict(TABLES["spelling"])
        self._stage = WhisperStage("spelling")

    def __call__(self, s: str) -> str:
        return self._stage(s)


class EnglishTextNormalizer:
    """The normalization of the Whisper paper's appendix C: lowercase, bracketed spans and
    fillers removed, contractions and titles spelled out, numbers and currencies to digits,
    British to American spelling, symbols removed, whitespace collapsed."""

    def __init__(self) -> None:
        self.ignore_patterns: str = TABLES["ignore_patterns"]
        self.replacers: dict[str, str] = dict(TABLES["package_replacers"])
        self.standardize_numbers = EnglishNumberNormalizer()
        self.standardize_spellings = EnglishSpellingNormalizer()
        self._stage = WhisperStage("english", package=True)

    def __call__(self, s: str) -> str:
        return self._stage(s)
