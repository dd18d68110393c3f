"""sacrebleu's ``TokenizerV14International``, run by bleuprint's Rust core."""

from bleuprint.compat.sacrebleu.tokenizers.tokenizer_base import BleuprintTokenizer


class TokenizerV14International(BleuprintTokenizer):
    """Tokenizes as mteval-v14.pl --international-tokenization."""

    name = "intl"
