"""sacrebleu's ``sacrebleu.tokenizers``: one module per tokenizer class, each run by bleuprint."""

from bleuprint.compat.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer

__all__ = ["BaseTokenizer"]
