"""sacrebleu's ``Tokenizer13a``, run by bleuprint's Rust core."""

from bleuprint.compat.sacrebleu.tokenizers.tokenizer_base import BleuprintTokenizer


class Tokenizer13a(BleuprintTokenizer):
    """Tokenizes as mteval-v13a.pl, WMT's default."""

    name = "13a"
