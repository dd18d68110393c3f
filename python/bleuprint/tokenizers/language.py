"""Language-aware tokenizer defaults, and a warning when CJK text meets the default tokenizer.

``13a`` sees a Chinese, Japanese or Korean sentence without spaces as one or a few long
tokens, so BLEU on such text is meaningless (sacrebleu #171/#181, lm-eval-harness #212).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

from bleuprint import _core

#: Target language code -> tokenizer, as sacrebleu's ``BLEU(trg_lang=...)`` picks it.
TOKENIZER_FOR_LANGUAGE = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
DEFAULT_TOKENIZER = "13a"
LANGUAGE_NAMES = {"zh": "Chinese", "ja": "Japanese", "ko": "Korean"}

#: Text counts as "mostly CJK" when at least this share of its letters are CJK.
CJK_SHARE = 0.5
#: Fewer CJK letters than this in the sample are too few to judge.
MIN_CJK_LETTERS = 20
#: Segments sampled (spread evenly) from each stream.
SAMPLE_LINES = 1000


def tokenizer_for_language(trg_lang: str) -> str:
    """The tokenizer sacrebleu uses for a target language: ``zh``, ``ja-mecab``, ``ko-mecab``,
    else ``13a``."""
    return TOKENIZER_FOR_LANGUAGE.get(trg_lang, DEFAULT_TOKENIZER)


def guess_cjk_language(streams: Sequence[Sequence[Any]]) -> Optional[str]:
    """``"zh"``, ``"ja"`` or ``"ko"`` when the text is mostly CJK, else ``None``.

    Counts letters by script on a sample of each stream: kana means Japanese, Hangul means
    Korean, ideographs alone mean Chinese.
    """
    han = kana = hangul = other = 0
    for stream in streams:
        h, k, g, o = _core.script_counts(stream, SAMPLE_LINES)
        han, kana, hangul, other = han + h, kana + k, hangul + g, other + o
    cjk = han + kana + hangul
    if cjk < MIN_CJK_LETTERS or cjk < CJK_SHARE * (cjk + other):
        return None
    if hangul >= max(han, kana):
        return "ko"
    # Japanese prose is a third or more kana; Chinese has none.
    if kana >= 0.05 * cjk:
        return "ja"
    return "zh"


def cjk_tokenizer_advice(streams: Sequence[Sequence[Any]], tokenizer: str) -> Optional[str]:
    """For text scored with a tokenizer nobody chose (``13a``): a warning message naming the
    tokenizer to use when the text is mostly CJK, else ``None``."""
    language = guess_cjk_language(streams)
    if language is None:
        return None
    expected = TOKENIZER_FOR_LANGUAGE[language]
    return (
        f"The text looks {LANGUAGE_NAMES[language]}, but BLEU is using the {tokenizer!r} "
        f"tokenizer, which cannot split it into words: the score is not meaningful. Use "
        f"tokenize={expected!r} (CLI: -tok {expected}, or -l xx-{language}), or 'flores200'."
    )
