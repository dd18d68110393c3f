"""``sacrebleu.metrics.bleu``: bleuprint's :class:`~bleuprint.BLEU` with sacrebleu's public
attributes (``tokenizer``, ``tokenizer_signature``, ``_SIGNATURE_TYPE``) and the private
methods mbrs uses (``_preprocess_segment``, ``_cache_references``, ...)."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from typing import Any, Optional

from bleuprint.compat.sacrebleu.metrics.base import SacrebleuMethods
from bleuprint.compat.sacrebleu.metrics.helpers import check_text, extract_all_word_ngrams
from bleuprint.compat.sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from bleuprint.compat.sacrebleu.tokenizers.tokenizer_base import BleuprintTokenizer
from bleuprint.compat.sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from bleuprint.compat.sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from bleuprint.compat.sacrebleu.tokenizers.tokenizer_ja_mecab import TokenizerJaMecab
from bleuprint.compat.sacrebleu.tokenizers.tokenizer_ko_mecab import TokenizerKoMecab
from bleuprint.compat.sacrebleu.tokenizers.tokenizer_none import NoneTokenizer
from bleuprint.compat.sacrebleu.tokenizers.tokenizer_spm import (
    Flores101Tokenizer,
    Flores200Tokenizer,
    TokenizerSPM,
    spBLEU1KTokenizer,
)
from bleuprint.compat.sacrebleu.tokenizers.tokenizer_zh import TokenizerZh
from bleuprint.errors import InvalidInputError
from bleuprint.io.layout import check_references
from bleuprint.metrics import bleu as _bleu
from bleuprint.metrics.bleu import MAX_NGRAM_ORDER, BLEUConfig, BLEUScore, BLEUSignature
from bleuprint.tokenizers import check_tokenizer

sacrelogger = logging.getLogger("sacrebleu")

#: sacrebleu's tokenizer name -> class table.
_TOKENIZERS: dict[str, type[BleuprintTokenizer]] = {
    "none": NoneTokenizer,
    "zh": TokenizerZh,
    "13a": Tokenizer13a,
    "intl": TokenizerV14International,
    "char": TokenizerChar,
    "ja-mecab": TokenizerJaMecab,
    "ko-mecab": TokenizerKoMecab,
    "spm": TokenizerSPM,
    "flores101": Flores101Tokenizer,
    "flores200": Flores200Tokenizer,
    "spBLEU-1K": spBLEU1KTokenizer,
}


def _get_tokenizer(name: str) -> type[BleuprintTokenizer]:
    """The tokenizer class for ``name`` (sacrebleu's helper of the same name)."""
    check_tokenizer(name)
    return _TOKENIZERS[name]


class ReferenceInfo(dict[str, Any]):
    """sacrebleu's per-segment reference cache entry (``{"ref_ngrams": Counter, "ref_lens":
    [...]}``, equal to sacrebleu's), also holding the preprocessed references so that the core
    can count a hypothesis against them."""

    def __init__(self, ngrams: Optional[Counter[tuple[str, ...]]], lengths: list[int]):
        super().__init__(ref_ngrams=ngrams, ref_lens=lengths)
        self.references: list[str] = []


class BLEU(SacrebleuMethods, _bleu.BLEU):
    """sacrebleu's ``BLEU`` (same constructor), computed by bleuprint."""

    _SIGNATURE_TYPE = BLEUSignature

    _tokenizer: Optional[BleuprintTokenizer] = None

    @property
    def tokenizer(self) -> BleuprintTokenizer:
        """The tokenizer object: ``bleu.tokenizer(line)`` tokenizes one line."""
        if self._tokenizer is None:
            cls = _TOKENIZERS[self.config.tokenize]
            tokenizer = TokenizerSPM("spm") if cls is TokenizerSPM else cls()
            tokenizer._normalize = self.config.normalize  # as bleuprint's BLEU reads text
            self._tokenizer = tokenizer
        return self._tokenizer

    @property
    def tokenizer_signature(self) -> str:
        """The ``tok:`` value of the signature."""
        return str(self.tokenizer.signature())

    @property
    def _force(self) -> bool:
        return bool(self.force)

    def _preprocess_segment(self, sent: str) -> str:
        """Lowercased (if set) and tokenized, as BLEU reads a segment."""
        check_text("sent", sent)
        if self.lowercase:
            sent = sent.lower()
        return self.tokenizer(sent.rstrip())

    def _extract_reference_info(self, refs: Sequence[str]) -> ReferenceInfo:
        """N-gram counts (highest over the references) and lengths of preprocessed
        references."""
        ngrams: Optional[Counter[tuple[str, ...]]] = None
        lengths = []
        for ref in refs:
            counts, length = extract_all_word_ngrams(ref, 1, self.max_ngram_order)
            lengths.append(length)
            ngrams = counts if ngrams is None else ngrams | counts  # | keeps the highest count
        info = ReferenceInfo(ngrams, lengths)
        info.references = list(refs)
        return info

    def _compute_segment_statistics(self, hypothesis: str, ref_kwargs: dict[str, Any]) -> list[int]:
        """``[hyp_len, ref_len, correct..., total...]`` of a preprocessed hypothesis against an
        entry of :meth:`_cache_references`."""
        references = getattr(ref_kwargs, "references", None)
        if references is None:
            raise InvalidInputError(
                "ref_kwargs must come from this BLEU's _cache_references or "
                "_extract_reference_info (it carries the references bleuprint counts against)"
            )
        config = BLEUConfig(tokenize="none", max_ngram_order=self.max_ngram_order)
        rows = config.item_rows([hypothesis], [list(references)], workers=1)
        return [int(v) for v in rows[0]]

    def _cache_references(self, references: Sequence[Sequence[Optional[str]]]) -> list[Any]:
        """Per segment, :meth:`_extract_reference_info` of its preprocessed references
        (``None`` drops a reference); sets ``num_refs`` (-1 when it varies)."""
        cache = []
        counts = set()
        for refs in zip(*check_references(references, None)):
            lines = [r for r in refs if r is not None]
            counts.add(len(lines))
            cache.append(self._extract_reference_info([self._preprocess_segment(r) for r in lines]))
        self.num_refs = counts.pop() if len(counts) == 1 else -1
        return cache


__all__ = ["MAX_NGRAM_ORDER", "BLEU", "BLEUScore", "BLEUSignature", "sacrelogger"]
