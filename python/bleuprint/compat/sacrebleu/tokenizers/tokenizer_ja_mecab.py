"""sacrebleu's ``TokenizerJaMecab``: MeCab, loaded and run by bleuprint (``bleuprint[ja]``)."""

from bleuprint.compat.sacrebleu.tokenizers.tokenizer_base import BleuprintTokenizer

#: What to install when MeCab is missing (sacrebleu names the same constant).
FAIL_MESSAGE = """
Japanese text needs MeCab and its dictionary: pip install 'bleuprint[ja]'
"""


class TokenizerJaMecab(BleuprintTokenizer):
    """Tokenizes Japanese with MeCab, as sacrebleu does (the same dictionary and version)."""

    name = "ja-mecab"
