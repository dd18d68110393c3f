"""sacrebleu's ``TokenizerRegexp``: the punctuation stage inside ``13a`` and ``zh``, computed by
bleuprint's core on its own (``_core.tokenize_regexp``)."""

from __future__ import annotations

from bleuprint import _core
from bleuprint.compat.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer


class TokenizerRegexp(BaseTokenizer):
    """The regular-expression passes of ``13a``, then ``' '.join(line.split())``."""

    def signature(self) -> str:
        return "re"

    def __call__(self, line: str) -> str:
        (tokenized,) = _core.tokenize_regexp([line], name="line", workers=1)
        return tokenized
