"""sacrebleu's ``TokenizerChar``, run by bleuprint's Rust core."""

from bleuprint.compat.sacrebleu.tokenizers.tokenizer_base import BleuprintTokenizer


class TokenizerChar(BleuprintTokenizer):
    """One token per character (for languages without spaces)."""

    name = "char"
