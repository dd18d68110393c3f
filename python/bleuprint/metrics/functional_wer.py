"""Module-level WER functions: hypotheses first, references as streams.

Each call builds a new :class:`~bleuprint.metrics.wer.WER` (or ``CER``) object. The options
are those of :class:`~bleuprint.metrics.wer.WER`: ``transform`` (``"default"``,
``"standardize"``, ``"none"``), ``lowercase``, ``remove_punctuation``, ``expand_contractions``,
``remove_kaldi_non_words`` and ``workers``.

>>> corpus_wer(["hello duck"], [["hello world"]]).score
50.0
>>> corpus_wil(["hello duck"], [["hello world"]]).wil
0.75
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

from bleuprint.metrics.wer import CER, WER, WERScore


def corpus_wer(
    hypotheses: Sequence[str], references: Sequence[Sequence[Optional[str]]], **options: Any
) -> WERScore:
    """Corpus word error rate: ``.score`` in percent, ``.wer`` (and ``.mer``, ``.wil``,
    ``.wip``) as fractions, with the counts behind them."""
    return WER(**options).corpus_score(hypotheses, references)


def corpus_cer(
    hypotheses: Sequence[str], references: Sequence[Sequence[Optional[str]]], **options: Any
) -> WERScore:
    """Corpus character error rate (``.score`` in percent, ``.cer`` as a fraction)."""
    return CER(**options).corpus_score(hypotheses, references)


def _measure(
    measure: str,
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    options: dict[str, Any],
) -> WERScore:
    metric = WER(**options)
    stats = metric.stats(hypotheses, references)
    return metric.config.score_row(stats.sum(), measure=measure)


def corpus_mer(
    hypotheses: Sequence[str], references: Sequence[Sequence[Optional[str]]], **options: Any
) -> WERScore:
    """Corpus match error rate, ``(S + D + I) / (H + S + D + I)``: ``.score`` in percent."""
    return _measure("mer", hypotheses, references, options)


def corpus_wil(
    hypotheses: Sequence[str], references: Sequence[Sequence[Optional[str]]], **options: Any
) -> WERScore:
    """Corpus word information lost, ``1 - WIP``: ``.score`` in percent."""
    return _measure("wil", hypotheses, references, options)


def corpus_wip(
    hypotheses: Sequence[str], references: Sequence[Sequence[Optional[str]]], **options: Any
) -> WERScore:
    """Corpus word information preserved, ``(H / ref_words) * (H / hyp_words)``: ``.score``
    in percent."""
    return _measure("wip", hypotheses, references, options)


def sentence_wer(hypothesis: str, references: Sequence[Optional[str]], **options: Any) -> WERScore:
    """WER of one hypothesis against a list of reference strings (the best one counts)."""
    return WER(**options).sentence_score(hypothesis, references)


def sentence_cer(hypothesis: str, references: Sequence[Optional[str]], **options: Any) -> WERScore:
    """CER of one hypothesis against a list of reference strings (the best one counts)."""
    return CER(**options).sentence_score(hypothesis, references)


__all__ = [
    "corpus_cer",
    "corpus_mer",
    "corpus_wer",
    "corpus_wil",
    "corpus_wip",
    "sentence_cer",
    "sentence_wer",
]
