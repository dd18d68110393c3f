"""sacrebleu's ``TokenizerRegexp``: the punctuation stage inside ``13a`` and ``zh``.

bleuprint's core runs that stage only inside those tokenizers, never alone, so this class
exists for imports and signatures; calling it raises an error that names the tokenizer to use.
"""

from __future__ import annotations

from bleuprint.compat.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer
from bleuprint.errors import InvalidOptionError


class TokenizerRegexp(BaseTokenizer):
    """The regular-expression stage of ``13a`` (not callable on its own here)."""

    def signature(self) -> str:
        return "re"

    def __call__(self, line: str) -> str:
        raise InvalidOptionError(
            "TokenizerRegexp (the punctuation stage inside sacrebleu's 13a and zh tokenizers) "
            "is not run on its own by bleuprint; use Tokenizer13a, whose output includes it"
        )
