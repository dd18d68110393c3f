"""sacrebleu's ``NoneTokenizer``, run by bleuprint's Rust core."""

from bleuprint.compat.sacrebleu.tokenizers.tokenizer_base import BleuprintTokenizer


class NoneTokenizer(BleuprintTokenizer):
    """Leaves the line as it is (pre-tokenized text)."""

    name = "none"
