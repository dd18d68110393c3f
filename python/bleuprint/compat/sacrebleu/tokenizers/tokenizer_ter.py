"""sacrebleu's ``TercomTokenizer``, run by bleuprint's Rust core."""

from __future__ import annotations

from bleuprint.compat.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer
from bleuprint.errors import InputTypeError
from bleuprint.metrics.ter import TERConfig


class TercomTokenizer(BaseTokenizer):
    """Tercom's normalization, as sacrebleu's TER reads text.

    ``normalized`` splits punctuation and decodes XML entities, ``no_punct`` removes
    punctuation, ``asian_support`` extends both to CJK text, ``case_sensitive`` keeps case
    (TER's settings, :class:`~bleuprint.metrics.ter.TERConfig`, checked as TER checks them).
    """

    ASIAN_PUNCT = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
    FULL_WIDTH_PUNCT = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
    ) -> None:
        self.config = TERConfig(normalized, no_punct, asian_support, case_sensitive)

    def __call__(self, sent: str) -> str:
        if not isinstance(sent, str):
            raise InputTypeError(f"TercomTokenizer takes a str, got {type(sent).__name__}")
        if not sent:
            return ""
        if not self.config.case_sensitive:
            sent = sent.lower()  # the core leaves case alone; sacrebleu lowercases first
        (tokenized,) = self.config.tokenized([sent])
        return tokenized

    def signature(self) -> str:
        return "tercom"
