"""sacrebleu's module-level functions, with the same arguments and defaults.

Each call builds a new metric object, as sacrebleu's do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional, Union

from bleuprint.metrics.bleu import BLEU, SMOOTH_DEFAULTS, BLEUScore
from bleuprint.metrics.chrf import BETA, CHAR_ORDER, CHRF, WORD_ORDER, CHRFScore
from bleuprint.metrics.ter import TER, TERScore


def _bleu(
    lowercase: bool,
    force: bool,
    tokenize: Optional[str],
    smooth_method: str,
    smooth_value: Optional[float],
    effective_order: bool,
    normalize: Optional[str],
    spm_model: Optional[str],
) -> BLEU:
    # sacrebleu's functions say use_effective_order where BLEU says effective_order.
    return BLEU(
        lowercase, force, tokenize, smooth_method, smooth_value,
        effective_order=effective_order, normalize=normalize, spm_model=spm_model,
    )  # fmt: skip


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: Optional[str] = None,
    use_effective_order: bool = False,
    *,
    normalize: Optional[str] = None,
    spm_model: Optional[str] = None,
) -> BLEUScore:
    """Corpus BLEU against one or more reference streams (``references[k][i]``).

    ``tokenize=None`` means ``13a`` (sacrebleu's default), and warns when the text looks
    Chinese, Japanese or Korean. ``normalize`` and ``spm_model`` are as in :class:`BLEU`.
    """
    options = (smooth_method, smooth_value, use_effective_order, normalize, spm_model)
    return _bleu(lowercase, force, tokenize, *options).corpus_score(hypotheses, references)


def raw_corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    smooth_value: Optional[float] = SMOOTH_DEFAULTS["floor"],
) -> BLEUScore:
    """Corpus BLEU on untokenized text with floor smoothing and effective order."""
    return corpus_bleu(
        hypotheses,
        references,
        smooth_method="floor",
        smooth_value=smooth_value,
        force=True,
        tokenize="none",
        use_effective_order=True,
    )


def sentence_bleu(
    hypothesis: str,
    references: Sequence[Optional[str]],
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    lowercase: bool = False,
    tokenize: Optional[str] = None,
    use_effective_order: bool = True,
    *,
    normalize: Optional[str] = None,
    spm_model: Optional[str] = None,
) -> BLEUScore:
    """BLEU of one hypothesis against a list of reference strings (effective order on).

    Arguments as in :func:`corpus_bleu`. The tokenizer object (MeCab tagger, SentencePiece
    model) is shared across calls, so calling this in a loop does not reload or leak it.
    """
    options = (smooth_method, smooth_value, use_effective_order, normalize, spm_model)
    return _bleu(lowercase, False, tokenize, *options).sentence_score(hypothesis, references)


def _chrf(
    char_order: int,
    word_order: int,
    beta: Union[int, float],
    remove_whitespace: bool,
    eps_smoothing: bool,
) -> CHRF:
    # sacrebleu's functions say remove_whitespace where CHRF says whitespace (kept).
    return CHRF(char_order, word_order, beta, False, not remove_whitespace, eps_smoothing)


def corpus_chrf(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    char_order: int = CHAR_ORDER,
    word_order: int = WORD_ORDER,
    beta: Union[int, float] = BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """Corpus chrF (``word_order=2``: chrF++) against reference streams (``references[k][i]``).

    ``remove_whitespace=False`` keeps whitespace in character n-grams (``CHRF(whitespace=True)``).
    """
    metric = _chrf(char_order, word_order, beta, remove_whitespace, eps_smoothing)
    return metric.corpus_score(hypotheses, references)


def sentence_chrf(
    hypothesis: str,
    references: Sequence[Optional[str]],
    char_order: int = CHAR_ORDER,
    word_order: int = WORD_ORDER,
    beta: Union[int, float] = BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """chrF of one hypothesis against a list of reference strings."""
    metric = _chrf(char_order, word_order, beta, remove_whitespace, eps_smoothing)
    return metric.sentence_score(hypothesis, references)


def corpus_ter(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """Corpus TER against reference streams (``references[k][i]``)."""
    metric = TER(normalized, no_punct, asian_support, case_sensitive)
    return metric.corpus_score(hypotheses, references)


def sentence_ter(
    hypothesis: str,
    references: Sequence[Optional[str]],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """TER of one hypothesis against a list of reference strings."""
    metric = TER(normalized, no_punct, asian_support, case_sensitive)
    return metric.sentence_score(hypothesis, references)


__all__ = [
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
]
