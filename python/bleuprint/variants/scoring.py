"""Summed counts to a BLEU score under the scoring knobs: aggregation, smoothing, effective
order and auto_reweigh, weights, arithmetic, scale and dtype.

Each ``arithmetic`` value is the exact sequence of float operations one upstream uses, so a
preset's score is bit-identical to its upstream, while any other combination of knobs still
gives a well-defined score (that is how ``explain`` measures what each knob does).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Optional

import numpy as np

from bleuprint.errors import InvalidInputError, InvalidOptionError
from bleuprint.metrics.bleu import SMOOTH_DEFAULTS, BLEUConfig
from bleuprint.scores import Score
from bleuprint.variants.aggregation import CorpusCounts, Number
from bleuprint.variants.aggregation import aggregate as aggregate  # its old home
from bleuprint.variants.knobs import SACREBLEU, BleuKnobs
from bleuprint.variants.smoothing import Fraction, smooth

# sacrebleu's and multi-bleu.perl's stand-in for log(0).
LOG_ZERO = -9999999999.0


class PresetScore(Score):
    """A preset's BLEU with the parts behind it, in the upstream's own types and scale.

    ``score`` is a float (``numpy.float32`` for torchmetrics), nltk's int ``0``, or a list
    (one per weight tuple); ``precisions`` are 0-1 (percent under the sacrebleu arithmetic).
    """

    score: Any

    def __init__(
        self,
        score: Any,
        precisions: list[Any],
        bp: Any,
        ratio: Number,
        hyp_len: Number,
        ref_len: Number,
        counts: list[Any],
        totals: list[Any],
        knobs: Optional[BleuKnobs] = None,
    ) -> None:
        super().__init__("BLEU", score)
        self.precisions = precisions
        self.bp = bp
        self.ratio = ratio
        self.hyp_len = hyp_len
        self.ref_len = ref_len
        self.counts = counts
        self.totals = totals
        self.knobs = knobs if knobs is not None else SACREBLEU

    def _fields(self) -> tuple[Any, ...]:
        return (
            self.score, self.precisions, self.bp, self.ratio, self.hyp_len, self.ref_len,
            self.counts, self.totals, self.knobs,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PresetScore):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"PresetScore(score={self.score!r}, precisions={self.precisions!r}, "
            f"bp={self.bp!r}, ratio={self.ratio!r}, hyp_len={self.hyp_len!r}, "
            f"ref_len={self.ref_len!r}, counts={self.counts!r}, totals={self.totals!r})"
        )


#: The name this result had before it became a :class:`~bleuprint.Score`.
VariantScore = PresetScore


# --- the rules every arithmetic has its own version of ---------------------------------------


def brevity_penalty(hyp_len: Number, ref_len: Number, arithmetic: str) -> Any:
    """The brevity penalty of ``hyp_len`` tokens against ``ref_len``, with the float
    operations, edge cases and result type of ``arithmetic`` (sacrebleu's is in the core).

    nltk: int 1 when longer, int 0 when empty; nmt: from the length ratio; torch: float32;
    moses: 1.0 unless shorter; mteval: ``exp(min(0, 1 - r/c))``, 0.0 when empty.
    """
    c, r = hyp_len, ref_len
    if arithmetic == "nltk":
        return 1 if c > r else 0 if c == 0 else math.exp(1 - r / c)
    if arithmetic == "nmt":
        ratio = length_ratio(c, r)
        return 1.0 if ratio > 1.0 else ratio_penalty(ratio)
    if arithmetic == "torch":
        f32 = np.float32
        return f32(1.0) if c > r else np.exp(f32(1) - f32(r) / f32(c))
    if arithmetic == "moses":
        return math.exp(1 - r / c) if c < r else 1.0
    if arithmetic == "mteval":
        return math.exp(mteval_log_penalty(c, r)) if c > 0 else 0.0
    raise InvalidOptionError(f"no Python brevity penalty for the {arithmetic!r} arithmetic")


def length_ratio(hyp_len: Number, ref_len: Number) -> float:
    """Hypothesis over reference length as a float; 0.0 without reference tokens."""
    return float(hyp_len) / float(ref_len) if ref_len else 0.0


def mteval_log_penalty(hyp_len: Number, ref_len: Number) -> float:
    """mteval's log brevity penalty ``min(0, 1 - r/c)`` (``--no-smoothing`` adds it inside
    the exponent)."""
    return min(0, 1 - ref_len / hyp_len)


def ratio_penalty(ratio: float) -> float:
    """tensorflow/nmt's ``exp(1 - 1/ratio)``, uncapped (nlg-metricverse rescales with it)."""
    return math.exp(1 - 1.0 / ratio)


def log_or_floor(x: float) -> float:
    """``log(x)``, with sacrebleu's and multi-bleu.perl's ``LOG_ZERO`` for 0."""
    return LOG_ZERO if x == 0 else math.log(x)


def score_counts(
    counts: CorpusCounts,
    knobs: BleuKnobs,
    *,
    smoothing_function: Optional[Callable[..., Any]] = None,
) -> PresetScore:
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
        last=counts.last,
    )
    if knobs.smoothing != "lin-och":
        smoothed = [p if ok else Fraction(0, 1) for p, ok in zip(smoothed, present)]
    return smoothed


def _per_weight_set(
    scores: list[Any], precisions: list[Any], bp: Any, counts: CorpusCounts, orders: int
) -> PresetScore:
    """The result of the arithmetics that score each weight set (nltk's ``weights`` may be a
    list of them): one set gives a number, several a list, as nltk returns them."""
    c, r = counts.hyp_len, counts.ref_len
    return PresetScore(
        scores[0] if len(scores) == 1 else scores, precisions, bp, length_ratio(c, r), c, r,
        list(counts.correct[:orders]), list(counts.total[:orders]),
    )  # fmt: skip


def sacrebleu_config(knobs: BleuKnobs) -> BLEUConfig:
    """The sacrebleu configuration that scores like ``knobs`` under the sacrebleu arithmetic
    (the core's scorer), or an error naming what that arithmetic cannot take."""
    if knobs.smoothing not in SMOOTH_DEFAULTS or knobs.weights is not None or knobs.auto_reweigh:
        raise InvalidOptionError(
            "the sacrebleu arithmetic takes smoothing none, floor, add-k or exp, uniform "
            "weights and no auto_reweigh"
        )
    if knobs.ref_length == "average":
        raise InvalidOptionError("the sacrebleu arithmetic needs integer reference lengths")
    return _sacrebleu_config(knobs.max_order, knobs.smoothing, knobs.smooth_value,
                             knobs.effective_order)  # fmt: skip


@lru_cache(maxsize=64)
def _sacrebleu_config(
    order: int, smoothing: str, value: Optional[float], effective: bool
) -> BLEUConfig:
    return BLEUConfig(
        tokenize="none",
        max_ngram_order=order,
        smooth_method=smoothing,
        smooth_value=value,
        effective_order=effective,
    )


def _sacrebleu(counts: CorpusCounts, knobs: BleuKnobs) -> PresetScore:
    """sacrebleu's ``compute_bleu``, by the core's scorer."""
    config = sacrebleu_config(knobs)
    row = [int(counts.hyp_len), int(counts.ref_len), *counts.correct, *counts.total]
    s = config.score_row(row)
    return PresetScore(
        s.score, s.precisions, s.bp, s.ratio, s.sys_len, s.ref_len, s.counts, s.totals
    )


def _nltk(
    counts: CorpusCounts, knobs: BleuKnobs, smoothing_function: Optional[Callable[..., Any]] = None
) -> PresetScore:
    """nltk's ``corpus_bleu`` after the sums."""
    n = knobs.orders
    weights = knobs.weight_sets
    c = counts.hyp_len
    bp = brevity_penalty(c, counts.ref_len, "nltk")
    if counts.correct[0] == 0:
        precisions = [float(x) for x in _fractions(counts, n)]
        return _per_weight_set([0] * len(weights), precisions, bp, counts, n)
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
    return _per_weight_set(scores, [float(p) for p in p_n], bp, counts, n)


def _nmt(counts: CorpusCounts, knobs: BleuKnobs) -> PresetScore:
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
    bp = brevity_penalty(c, r, "nmt")
    return _per_weight_set([g * bp for g in scores], precisions, bp, counts, n)


def _torch(counts: CorpusCounts, knobs: BleuKnobs) -> PresetScore:
    """torchmetrics' ``_bleu_score_compute``, in float32."""
    f32 = np.float32
    n = knobs.orders
    numerator = np.array(counts.correct[:n], dtype=f32)
    denominator = np.array(counts.total[:n], dtype=f32)
    c, r = f32(counts.hyp_len), f32(counts.ref_len)
    ratio = length_ratio(c, r)
    base = PresetScore(
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
    bp = brevity_penalty(c, r, "torch")
    base.score = f32(bp * geometric_mean)
    base.bp = f32(bp)
    base.precisions = precision.tolist()
    return base


def _moses(counts: CorpusCounts, knobs: BleuKnobs) -> PresetScore:
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
    bp = brevity_penalty(c, r, "moses")
    orders = _orders_in_use(counts, knobs)
    scores = []
    for weight in _weights(knobs, orders):
        if knobs.weights is None or knobs.effective_order:
            log_sum = 0.0
            for p in precisions[:orders]:
                log_sum += log_or_floor(p)
            scores.append(bp * math.exp(log_sum / orders))
        else:
            scores.append(
                bp * math.exp(sum(w * log_or_floor(p) for w, p in zip(weight, precisions)))
            )
    return _per_weight_set(scores, precisions, bp, counts, n)


def _mteval(counts: CorpusCounts, knobs: BleuKnobs) -> PresetScore:
    """mteval-v13a.pl's ``bleu_score`` (and ``bleu_score_nosmoothing``)."""
    n = knobs.orders
    c, r = counts.hyp_len, counts.ref_len
    ratio = length_ratio(c, r)
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
            len_score = mteval_log_penalty(c, r)
            log_sum += math.log(m / t)
            score = math.exp(log_sum / j + len_score)
            precisions.append(m / t)
        bp = brevity_penalty(c, r, "mteval")
        return PresetScore(score, precisions, bp, ratio, c, r, list(correct), list(total))
    bp = brevity_penalty(c, r, "mteval")
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
        return PresetScore(score, precisions, bp, ratio, c, r, list(correct), list(total))
    # Other smoothings: the smoothed precisions, with mteval's "no n-grams: precision 1".
    smoothed = _smoothed(counts, knobs, n)
    log_sum = 0.0
    for j, (p, t) in enumerate(zip(smoothed, total), start=1):
        log_sum += 0.0 if t == 0 else log_or_floor(float(p))
        precisions.append(1.0 if t == 0 else float(p))
        score = math.exp(log_sum / j) * bp
    return PresetScore(score, precisions, bp, ratio, c, r, list(correct), list(total))


_ARITHMETIC = {
    "sacrebleu": _sacrebleu,
    "nltk": _nltk,
    "nmt": _nmt,
    "torch": _torch,
    "moses": _moses,
    "mteval": _mteval,
}


def _rescale_multi_prediction(result: PresetScore, counts: CorpusCounts) -> PresetScore:
    """nlg-metricverse's ``_compute_multi_pred_multi_ref`` after the flattened corpus score."""
    if counts.item_hyp_len is None or counts.item_ref_len is None:
        raise InvalidOptionError("aggregation='multi-prediction' needs per-item lengths")
    ratio = result.hyp_len / result.ref_len
    adjusted_ratio = counts.item_hyp_len / counts.item_ref_len
    score = result.score
    if ratio > 1.0:
        adjusted_bp = 1.0
    else:
        score = score * (ratio_penalty(adjusted_ratio) / ratio_penalty(ratio))
        adjusted_bp = ratio_penalty(adjusted_ratio)
    result.score = score
    result.bp = adjusted_bp
    result.ratio = adjusted_ratio
    result.hyp_len = counts.item_hyp_len
    result.ref_len = counts.item_ref_len
    return result
