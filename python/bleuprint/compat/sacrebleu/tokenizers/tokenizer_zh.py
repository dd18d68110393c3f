"""sacrebleu's ``TokenizerZh``, run by bleuprint's Rust core."""

from bleuprint.compat.sacrebleu.tokenizers.tokenizer_base import BleuprintTokenizer


class TokenizerZh(BleuprintTokenizer):
    """Tokenizes Chinese characters one by one, the rest as 13a."""

    name = "zh"
