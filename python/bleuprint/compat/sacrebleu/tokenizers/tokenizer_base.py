"""sacrebleu's ``BaseTokenizer``, and the base of every tokenizer here: a callable that hands
the line to bleuprint's tokenizers (the Rust core, MeCab or SentencePiece)."""

from __future__ import annotations

from typing import Optional

from bleuprint.errors import InvalidOptionError
from bleuprint.tokenizers import tokenize, tokenizer_signature


class BaseTokenizer:
    """A base dummy tokenizer to derive from (sacrebleu's, with the same two methods)."""

    def signature(self) -> str:
        """The tokenizer's name in signatures (``tok:...``)."""
        raise NotImplementedError()

    def __call__(self, line: str) -> str:
        """The tokenized line."""
        raise NotImplementedError()


class BleuprintTokenizer(BaseTokenizer):
    """A sacrebleu tokenizer class run by bleuprint: ``name`` is its name in
    :data:`bleuprint.tokenizers.TOKENIZERS`."""

    name: str = ""

    def __init__(self, normalize: Optional[str] = None) -> None:
        if not self.name:
            raise InvalidOptionError(f"{type(self).__name__} names no bleuprint tokenizer")
        self._normalize = normalize
        # Loads MeCab or the SentencePiece model now, as sacrebleu's constructors do.
        self._signature = tokenizer_signature(self.name)

    def signature(self) -> str:
        return self._signature

    def __call__(self, line: str) -> str:
        return tokenize(line, self.name, normalize=self._normalize, workers=1)
