"""sacrebleu's ``TokenizerRegexp``: the punctuation stage inside ``13a`` and ``zh``, computed by
bleuprint's core on its own."""

from __future__ import annotations

from bleuprint.compat.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer
from bleuprint.tokenizers import tokenize_regexp


class TokenizerRegexp(BaseTokenizer):
    """The regular-expression passes of ``13a``, then ``' '.join(line.split())``."""

    def signature(self) -> str:
        return "re"

    def __call__(self, line: str) -> str:
        return tokenize_regexp(line)
