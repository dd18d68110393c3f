"""Summed counts to a BLEU score under the scoring knobs: aggregation, smoothing, effective
order and auto_reweigh, weights, arithmetic, scale and dtype.

Each ``arithmetic`` value is the exact sequence of float operations one upstream uses, so a
preset's score is bit-identical to its upstream, while any other combination of knobs still
gives a well-defined score (that is how ``explain`` measures what each knob does).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Optional, Union

import numpy as np

from bleuprint.errors import InvalidInputError, InvalidOptionError
from bleuprint.metrics.bleu import BLEUConfig
from bleuprint.variants.knobs import BleuKnobs
from bleuprint.variants.smoothing import Fraction, smooth

# sacrebleu's and multi-bleu.perl's stand-in for log(0).
LOG_ZERO = -9999999999.0
_SACREBLEU_SMOOTHINGS = ("none", "floor", "add-k", "exp")

#: Counts and lengths: Python ints, floats (average reference length) or numpy.float32.
Number = Union[int, float, np.floating[Any]]


@dataclass
class CorpusCounts:
    """Counts summed over a corpus, plus what some aggregations need besides sums."""

    hyp_len: Number
    ref_len: Number
    correct: list[Any]
    total: list[Any]
    #: The last segment's tokens: nltk's smoothing methods 5 and 6 look at them.
    last_hypothesis: Any = None
    last_references: Any = None
    #: multi-prediction: summed per-item longest prediction and shortest reference.
    item_hyp_len: Optional[int] = None
    item_ref_len: Optional[int] = None


@dataclass
class VariantScore:
    """A score with the parts behind it, in the upstream's own types and scale.

    ``score`` is a float, nltk's int ``0``, or a list (one per weight tuple);
    ``precisions`` are 0-1 (percent under the sacrebleu arithmetic).
    """

    score: Any
    precisions: list[Any]
    bp: Any
    ratio: Number
    hyp_len: Number
    ref_len: Number
    counts: list[Any]
    totals: list[Any]
    knobs: BleuKnobs = field(repr=False, default_factory=BleuKnobs)


def aggregate(
    rows: np.ndarray,
    knobs: BleuKnobs,
    *,
    ref_counts: Optional[Sequence[int]] = None,
    items: Optional[Sequence[int]] = None,
    last_hypothesis: Any = None,
    last_references: Any = None,
) -> CorpusCounts:
    """Sums per-segment rows into corpus counts as ``knobs.aggregation`` says.

    ``ref_counts`` (references per row) is needed for ``ref_length="average"``; ``items``
    (the item of each row) for ``aggregation="multi-prediction"``.
    """
    n = (rows.shape[1] - 2) // 2
    hyp, refs = rows[:, 0], rows[:, 1]
    if knobs.aggregation == "nltk":
        rows = rows.copy()
        np.maximum(rows[:, 2 + n :], 1, out=rows[:, 2 + n :])
    if knobs.dtype == "float32":
        # torchmetrics keeps its state in float32 tensors, added to segment by segment.
        sums = (
            np.cumsum(rows.astype(np.float32), axis=0, dtype=np.float32)[-1]
            if len(rows)
            else np.zeros(rows.shape[1], dtype=np.float32)
        )
        totals: list[Any] = list(sums)
    else:
        totals = rows.sum(axis=0).tolist()
    if knobs.ref_length == "average":
        if ref_counts is None:
            raise InvalidOptionError("ref_length='average' needs the number of references per row")
        ref_len: Number = 0.0
        for length, k in zip(refs.tolist(), ref_counts):
            ref_len += float(length) / k
    else:
        ref_len = totals[1]
    counts = CorpusCounts(
        hyp_len=totals[0],
        ref_len=ref_len,
        correct=totals[2 : 2 + n],
        total=totals[2 + n :],
        last_hypothesis=last_hypothesis,
        last_references=last_references,
    )
    if knobs.aggregation == "multi-prediction":
        if items is None:
            raise InvalidOptionError("aggregation='multi-prediction' needs the item of each row")
        item_ids = np.asarray(items)
        longest: dict[int, int] = {}
        shortest: dict[int, int] = {}
        for item, h, r in zip(item_ids.tolist(), hyp.tolist(), refs.tolist()):
            longest[item] = max(longest.get(item, h), h)
            shortest[item] = min(shortest.get(item, r), r)
        counts.item_hyp_len = sum(longest.values())
        counts.item_ref_len = sum(shortest.values())
    return counts


def score_counts(
    counts: CorpusCounts,
    knobs: BleuKnobs,
    *,
    smoothing_function: Optional[Callable[..., Any]] = None,
) -> VariantScore:
    """The score of summed counts under ``knobs``. ``smoothing_function`` (nltk arithmetic
    only) replaces the smoothing knob with any nltk-style callable."""
    if smoothing_function is not None:
        if knobs.arithmetic != "nltk":
            raise InvalidOptionError("smoothing_function needs the nltk arithmetic")
        result = _nltk(counts, knobs, smoothing_function)
    else:
        result = _ARITHMETIC[knobs.arithmetic](counts, knobs)
    if knobs.aggregation == "multi-prediction":
        result = _rescale_multi_prediction(result, counts)
    result.knobs = knobs
    if knobs.scale == 100 and knobs.arithmetic != "sacrebleu":
        result.score = _times(result.score, 100)
    elif knobs.scale == 1 and knobs.arithmetic == "sacrebleu":
        result.score = _times(result.score, 0.01)
    return result


def _times(score: Any, factor: float) -> Any:
    if isinstance(score, list):
        return [_times(s, factor) for s in score]
    if isinstance(score, np.floating):
        return type(score)(score * type(score)(factor))
    return score * factor


# --- the arithmetics -------------------------------------------------------------------------


def _orders_in_use(counts: CorpusCounts, knobs: BleuKnobs) -> int:
    """Orders that take part: with effective order, those before the first without
    hypothesis n-grams (at least one)."""
    n = knobs.orders
    if not knobs.effective_order:
        return n
    for i, t in enumerate(counts.total[:n]):
        if t == 0:
            return max(i, 1)
    return n


def _weights(knobs: BleuKnobs, orders: int) -> tuple[tuple[float, ...], ...]:
    if knobs.weights is None or knobs.effective_order:
        return ((1.0 / orders,) * orders,)
    return knobs.weights


def _fractions(counts: CorpusCounts, orders: int) -> list[Fraction]:
    """nltk's precisions ``Fraction(matches, total)``; an order without hypothesis n-grams
    (possible outside the nltk aggregation, whose totals are at least 1) is 0/1."""
    return [
        Fraction(int(c), int(t)) if t != 0 else Fraction(0, 1)
        for c, t in zip(counts.correct[:orders], counts.total[:orders])
    ]


def _smoothed(counts: CorpusCounts, knobs: BleuKnobs, orders: int) -> list[Any]:
    """nltk-style precisions after smoothing; an order without hypothesis n-grams stays 0,
    or becomes 1/1 under Lin-Och."""
    present = [t != 0 for t in counts.total[:orders]]
    smoothed = smooth(
        knobs.smoothing,
        knobs.effective_smooth_value,
        _fractions(counts, orders),
        counts.last_references,
        counts.last_hypothesis,
        int(counts.hyp_len),
    )
    if knobs.smoothing != "lin-och":
        smoothed = [p if ok else Fraction(0, 1) for p, ok in zip(smoothed, present)]
    return smoothed


def _lengths(counts: CorpusCounts) -> tuple[Number, Number, Number]:
    c, r = counts.hyp_len, counts.ref_len
    return c, r, (float(c) / r if r else 0.0)


def _sacrebleu(counts: CorpusCounts, knobs: BleuKnobs) -> VariantScore:
    """sacrebleu's ``compute_bleu``, by the core's scorer."""
    if (
        knobs.smoothing not in _SACREBLEU_SMOOTHINGS
        or knobs.weights is not None
        or knobs.auto_reweigh
    ):
        raise InvalidOptionError(
            "the sacrebleu arithmetic takes smoothing none, floor, add-k or exp, uniform "
            "weights and no auto_reweigh"
        )
    if knobs.ref_length == "average":
        raise InvalidOptionError("the sacrebleu arithmetic needs integer reference lengths")
    config = BLEUConfig(
        tokenize="none",
        max_ngram_order=knobs.max_order,
        smooth_method=knobs.smoothing,
        smooth_value=knobs.smooth_value,
        effective_order=knobs.effective_order,
    )
    row = [int(counts.hyp_len), int(counts.ref_len), *counts.correct, *counts.total]
    s = config.score_row(row)
    return VariantScore(
        s.score, s.precisions, s.bp, s.ratio, s.sys_len, s.ref_len, s.counts, s.totals
    )


def _nltk(
    counts: CorpusCounts, knobs: BleuKnobs, smoothing_function: Optional[Callable[..., Any]] = None
) -> VariantScore:
    """nltk's ``corpus_bleu`` after the sums."""
    n = knobs.orders
    weights = knobs.weight_sets
    c, r, ratio = _lengths(counts)
    bp: Number = 1 if c > r else 0 if c == 0 else math.exp(1 - r / c)
    base = VariantScore(0, [], bp, ratio, c, r, list(counts.correct[:n]), list(counts.total[:n]))
    if counts.correct[0] == 0:
        base.score = 0 if len(weights) == 1 else [0] * len(weights)
        base.precisions = [float(x) for x in _fractions(counts, n)]
        return base
    orders = _orders_in_use(counts, knobs)
    if smoothing_function is None:
        p_n = _smoothed(counts, knobs, n)
    else:
        p_n = smoothing_function(
            _fractions(counts, n),
            references=counts.last_references,
            hypothesis=counts.last_hypothesis,
            hyp_len=c,
        )
    scores = []
    weight_sets: tuple[tuple[Any, ...], ...] = (
        _weights(knobs, orders) if knobs.effective_order else weights
    )
    for weight in weight_sets:
        if knobs.auto_reweigh and c < 4 and weight == (0.25, 0.25, 0.25, 0.25):
            weight = (1 / c,) * int(c)  # nltk: uniform over the hypothesis' length
        s = (w_i * math.log(p_i) for w_i, p_i in zip(weight, p_n) if p_i > 0)
        scores.append(bp * math.exp(math.fsum(s)))
    base.score = scores[0] if len(scores) == 1 else scores
    base.precisions = [float(p) for p in p_n]
    return base


def _nmt(counts: CorpusCounts, knobs: BleuKnobs) -> VariantScore:
    """tensorflow/nmt's ``compute_bleu`` (HF evaluate ``bleu``, nlg-metricverse)."""
    n = knobs.orders
    orders = _orders_in_use(counts, knobs)
    if knobs.smoothing == "lin-och":
        precisions = [(m + 1.0) / (p + 1.0) for m, p in zip(counts.correct[:n], counts.total[:n])]
    elif knobs.smoothing == "none":
        precisions = [
            float(m) / p if p > 0 else 0.0 for m, p in zip(counts.correct[:n], counts.total[:n])
        ]
    else:
        precisions = [float(p) for p in _smoothed(counts, knobs, n)]
    used = precisions[:orders]
    scores = []
    for weight in _weights(knobs, orders):
        if min(used) > 0:
            geo_mean = math.exp(sum(w * math.log(p) for w, p in zip(weight, used)))
        else:
            geo_mean = 0
        scores.append(geo_mean)
    c, r = counts.hyp_len, counts.ref_len
    if c == 0 or r == 0:
        raise InvalidInputError(
            f"BLEU with the nmt arithmetic (HF evaluate 'bleu') divides by zero: "
            f"{'the predictions' if c == 0 else 'the references'} have no tokens at all"
        )
    ratio = float(c) / r
    bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    score = [g * bp for g in scores]
    return VariantScore(
        score[0] if len(score) == 1 else score, precisions, bp, ratio, c, r,
        list(counts.correct[:n]), list(counts.total[:n]),
    )  # fmt: skip


def _torch(counts: CorpusCounts, knobs: BleuKnobs) -> VariantScore:
    """torchmetrics' ``_bleu_score_compute``, in float32."""
    f32 = np.float32
    n = knobs.orders
    numerator = np.array(counts.correct[:n], dtype=f32)
    denominator = np.array(counts.total[:n], dtype=f32)
    c, r = f32(counts.hyp_len), f32(counts.ref_len)
    ratio = float(c) / float(r) if r else 0.0
    base = VariantScore(
        f32(0.0), [], f32(1.0), ratio, c, r, numerator.tolist(), denominator.tolist()
    )
    if numerator.min() == 0.0:
        return base
    if knobs.smoothing == "add-k":
        k = f32(knobs.effective_smooth_value)
        precision = (numerator + k) / (denominator + k)
        precision[0] = numerator[0] / denominator[0]
    elif knobs.smoothing == "none":
        precision = numerator / denominator
    else:
        precision = np.array([float(p) for p in _smoothed(counts, knobs, n)], dtype=f32)
    orders = _orders_in_use(counts, knobs)
    weights = np.array(_weights(knobs, orders)[0], dtype=f32)
    log_precision = weights * np.log(precision[: len(weights)])
    geometric_mean = np.exp(np.cumsum(log_precision, dtype=f32)[-1])
    bp = f32(1.0) if c > r else np.exp(f32(1) - r / c)
    base.score = f32(bp * geometric_mean)
    base.bp = f32(bp)
    base.precisions = precision.tolist()
    return base


def _my_log(x: float) -> float:
    return LOG_ZERO if x == 0 else math.log(x)


def _moses(counts: CorpusCounts, knobs: BleuKnobs) -> VariantScore:
    """multi-bleu.perl's final lines."""
    n = knobs.orders
    if knobs.smoothing == "none":
        precisions = [m / t if t else 0 for m, t in zip(counts.correct[:n], counts.total[:n])]
    else:
        precisions = [float(p) for p in _smoothed(counts, knobs, n)]
    c, r = counts.hyp_len, counts.ref_len
    if c == 0 and r > 0:
        raise InvalidInputError(
            "multi-bleu.perl dies on this input (division by zero): the hypotheses have no "
            "tokens at all"
        )
    bp = 1.0
    if c < r:
        bp = math.exp(1 - r / c)
    orders = _orders_in_use(counts, knobs)
    scores = []
    for weight in _weights(knobs, orders):
        if knobs.weights is None or knobs.effective_order:
            log_sum = 0.0
            for p in precisions[:orders]:
                log_sum += _my_log(p)
            scores.append(bp * math.exp(log_sum / orders))
        else:
            scores.append(bp * math.exp(sum(w * _my_log(p) for w, p in zip(weight, precisions))))
    ratio = c / r if r else 0.0
    return VariantScore(
        scores[0] if len(scores) == 1 else scores, precisions, bp, ratio, c, r,
        list(counts.correct[:n]), list(counts.total[:n]),
    )  # fmt: skip


def _mteval(counts: CorpusCounts, knobs: BleuKnobs) -> VariantScore:
    """mteval-v13a.pl's ``bleu_score`` (and ``bleu_score_nosmoothing``)."""
    n = knobs.orders
    c, r = counts.hyp_len, counts.ref_len
    ratio = c / r if r else 0.0
    correct, total = counts.correct[:n], counts.total[:n]
    precisions: list[float] = []
    if knobs.smoothing == "none":
        # --no-smoothing: the length penalty goes inside the exponent.
        log_sum, score = 0.0, 0.0
        for j, (m, t) in enumerate(zip(correct, total), start=1):
            if m == 0:
                score = 0.0
                precisions.append(0.0)
                continue
            len_score = min(0, 1 - r / c)
            log_sum += math.log(m / t)
            score = math.exp(log_sum / j + len_score)
            precisions.append(m / t)
        bp = math.exp(min(0, 1 - r / c)) if c > 0 else 0.0
        return VariantScore(score, precisions, bp, ratio, c, r, list(correct), list(total))
    bp = math.exp(min(0, 1 - r / c)) if c > 0 else 0.0
    if knobs.smoothing == "exp":
        log_sum, smooth_factor = 0.0, 1
        for j, (m, t) in enumerate(zip(correct, total), start=1):
            if t == 0:
                iscore = 0.0
            elif m == 0:
                smooth_factor *= 2
                iscore = math.log(1 / (smooth_factor * t))
            else:
                iscore = math.log(m / t)
            precisions.append(math.exp(iscore))
            log_sum += iscore
            score = math.exp(log_sum / j) * bp
        return VariantScore(score, precisions, bp, ratio, c, r, list(correct), list(total))
    # Other smoothings: the smoothed precisions, with mteval's "no n-grams: precision 1".
    smoothed = _smoothed(counts, knobs, n)
    log_sum = 0.0
    for j, (p, t) in enumerate(zip(smoothed, total), start=1):
        log_sum += 0.0 if t == 0 else _my_log(float(p))
        precisions.append(1.0 if t == 0 else float(p))
        score = math.exp(log_sum / j) * bp
    return VariantScore(score, precisions, bp, ratio, c, r, list(correct), list(total))


_ARITHMETIC = {
    "sacrebleu": _sacrebleu,
    "nltk": _nltk,
    "nmt": _nmt,
    "torch": _torch,
    "moses": _moses,
    "mteval": _mteval,
}


def _rescale_multi_prediction(result: VariantScore, counts: CorpusCounts) -> VariantScore:
    """nlg-metricverse's ``_compute_multi_pred_multi_ref`` after the flattened corpus score."""
    assert counts.item_hyp_len is not None
    assert counts.item_ref_len is not None
    ratio = result.hyp_len / result.ref_len
    adjusted_ratio = counts.item_hyp_len / counts.item_ref_len
    score = result.score
    if ratio > 1.0:
        adjusted_bp = 1.0
    else:
        bp = math.exp(1 - 1.0 / ratio)
        adjusted_bp = math.exp(1 - 1.0 / adjusted_ratio)
        score = score * (adjusted_bp / bp)
    result.score = score
    result.bp = adjusted_bp
    result.ratio = adjusted_ratio
    result.hyp_len = counts.item_hyp_len
    result.ref_len = counts.item_ref_len
    return result
