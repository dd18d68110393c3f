"""sacrebleu's ``TokenizerKoMecab``: MeCab, loaded and run by bleuprint (``bleuprint[ko]``)."""

from bleuprint.compat.sacrebleu.tokenizers.tokenizer_base import BleuprintTokenizer

#: What to install when MeCab is missing (sacrebleu names the same constant).
FAIL_MESSAGE = """
Korean text needs MeCab and its dictionary: pip install 'bleuprint[ko]'
"""


class TokenizerKoMecab(BleuprintTokenizer):
    """Tokenizes Korean with MeCab, as sacrebleu does (the same dictionary and version)."""

    name = "ko-mecab"
