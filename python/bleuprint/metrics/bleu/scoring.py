"""Summed counts to a BLEU score under the scoring knobs: aggregation, smoothing, effective
order and auto_reweigh, weights, arithmetic, scale and dtype.

Each ``arithmetic`` value is the exact sequence of float operations one upstream uses, so a
preset's score is bit-identical to its upstream, while any other combination of knobs still
gives a well-defined score (that is how ``explain`` measures what each knob does). The
operations are the core's (``src/bleu/arithmetic.rs``, one ``Arithmetic`` enum); this module
smooths ``Fraction`` precisions for it where a smoothing needs Python, and gives the results
the upstreams' types (nltk's int ``0``, lists for several weight sets, ``numpy.float32``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, Optional

import numpy as np

from bleuprint import _core
from bleuprint.errors import InvalidOptionError
from bleuprint.metrics.base import COMPENSATED_SUM
from bleuprint.metrics.bleu import SMOOTH_DEFAULTS, BLEUConfig
from bleuprint.metrics.bleu.aggregation import CorpusCounts, Number
from bleuprint.metrics.bleu.aggregation import aggregate as aggregate  # its old home
from bleuprint.metrics.bleu.knobs import SACREBLEU, BleuKnobs
from bleuprint.metrics.bleu.smoothing import Fraction, smooth
from bleuprint.metrics.scores import Score


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


# --- the arithmetic, in the core --------------------------------------------------------------

#: The exceptions the upstreams' Python raises inside their arithmetic (``math.exp``
#: overflow, a division by zero), which the core names instead of raising.
_PYTHON_ERRORS: dict[str, type[Exception]] = {
    "OverflowError": OverflowError,
    "ValueError": ValueError,
    "ZeroDivisionError": ZeroDivisionError,
    "TypeError": TypeError,
}

#: The smoothing methods each arithmetic computes from the counts itself (the core's table);
#: any other smoothing is applied here, on nltk-style ``Fraction`` precisions.
OWN_SMOOTHINGS: dict[str, tuple[str, ...]] = {
    name: tuple(methods) for name, methods in _core.ARITHMETIC_SMOOTHINGS
}


def _raise_python_error(error: Optional[tuple[str, str]]) -> None:
    if error is not None:
        raise _PYTHON_ERRORS[error[0]](error[1])


def brevity_penalty(hyp_len: Number, ref_len: Number, arithmetic: str) -> Any:
    """The brevity penalty of ``hyp_len`` tokens against ``ref_len``, with the float
    operations, edge cases and result type of ``arithmetic`` (the core's rule).

    sacrebleu: ``exp(1 - r/c)`` when shorter, 0.0 when empty; nltk: int 1 when longer, int 0
    when empty; nmt: from the length ratio; torch: float32; moses: 1.0 unless shorter; mteval:
    ``exp(min(0, 1 - r/c))``, 0.0 when empty.
    """
    value, is_int, error = _core.brevity_penalty(hyp_len, ref_len, arithmetic=arithmetic)
    _raise_python_error(error)
    if is_int:
        return int(value)
    return np.float32(value) if arithmetic == "torch" else value


def score_counts(
    counts: CorpusCounts,
    knobs: BleuKnobs,
    *,
    smoothing_function: Optional[Callable[..., Any]] = None,
) -> PresetScore:
    """The score of summed counts under ``knobs``. ``smoothing_function`` (nltk arithmetic
    only) replaces the smoothing knob with any nltk-style callable.

    The core's combine step does the arithmetic (``_core.arithmetic_score``); here are only
    what needs Python: smoothing on ``Fraction`` precisions (and a caller's own smoothing
    function), and the upstream's result types.
    """
    arithmetic = knobs.arithmetic
    if smoothing_function is not None and arithmetic != "nltk":
        raise InvalidOptionError("smoothing_function needs the nltk arithmetic")
    config = sacrebleu_config(knobs) if arithmetic == "sacrebleu" else None
    items: Optional[tuple[int, int]] = None
    if knobs.aggregation == "multi-prediction":
        if counts.item_hyp_len is None or counts.item_ref_len is None:
            raise InvalidOptionError("aggregation='multi-prediction' needs per-item lengths")
        items = (counts.item_hyp_len, counts.item_ref_len)
    n = knobs.orders
    correct, total = list(counts.correct[:n]), list(counts.total[:n])
    smoothed: Optional[list[float]] = None
    positive: Optional[list[bool]] = None
    if _smooths_here(knobs, smoothing_function, correct):
        floats = (
            None if smoothing_function is not None else _float_precisions(knobs, correct, total)
        )
        if floats is not None:
            smoothed, positive = floats
        else:
            values = _smoothed(counts, knobs, n, smoothing_function)
            smoothed = [float(p) for p in values]
            positive = [bool(p > 0) for p in values]
    value = knobs.effective_smooth_value
    scores, bp, ratio, precisions, smoothed_orders, ints, error = _core.arithmetic_score(
        correct,
        total,
        hyp_len=counts.hyp_len,
        ref_len=counts.ref_len,
        arithmetic=arithmetic,
        weights=knobs.weight_sets,
        uniform_weights=knobs.weights is None,
        effective_order=knobs.effective_order,
        auto_reweigh=knobs.auto_reweigh,
        smooth_method=knobs.smoothing,
        smooth_value=None if value is None else float(value),
        smoothed=smoothed,
        positive=positive,
        item_lengths=items,
        scale=knobs.scale,
        compensated_sum=COMPENSATED_SUM,
    )
    _raise_python_error(error)
    scores_int, bp_int, ratio_int, precision_ints = ints
    torch = arithmetic == "torch"
    typed: list[Any] = [0 if scores_int else np.float32(s) if torch else s for s in scores]
    if precision_ints:  # Moses' int 0 for an order without hypothesis n-grams
        precisions = [0 if is_int else p for p, is_int in zip(precisions, precision_ints)]
    result = PresetScore(
        typed[0] if len(typed) == 1 else typed,
        precisions,
        int(bp) if bp_int else np.float32(bp) if torch and items is None else bp,
        0 if ratio_int else ratio,
        counts.hyp_len,
        counts.ref_len,
        correct,
        total,
        knobs,
    )
    if torch:  # torchmetrics' float32 state
        result.hyp_len, result.ref_len = np.float32(counts.hyp_len), np.float32(counts.ref_len)
        result.counts = np.array(correct, dtype=np.float32).tolist()
        result.totals = np.array(total, dtype=np.float32).tolist()
    elif config is not None:  # sacrebleu's int statistics
        result.hyp_len, result.ref_len = int(counts.hyp_len), int(counts.ref_len)
        result.counts, result.totals = [int(c) for c in correct], [int(t) for t in total]
        # sacrebleu reports add-k counts and totals after adding k to the orders it smoothed.
        k = config.effective_smooth_value
        for i in range(1, 1 + smoothed_orders):
            result.counts[i] += k
            result.totals[i] += k
    if items is not None:  # nlg-metricverse reports the items' lengths
        result.hyp_len, result.ref_len = items
    return result


def _smooths_here(
    knobs: BleuKnobs, smoothing_function: Optional[Callable[..., Any]], correct: list[Any]
) -> bool:
    """Whether the precisions are smoothed here: a smoothing the arithmetic does not compute
    itself, unless the upstream stops before smoothing (nltk without unigram matches,
    torchmetrics with a zero match count), so that its warnings and errors stay unraised."""
    if smoothing_function is None and knobs.smoothing in OWN_SMOOTHINGS[knobs.arithmetic]:
        return False
    if knobs.arithmetic == "nltk":
        return bool(correct[0] != 0)
    if knobs.arithmetic == "torch":
        return bool(min(correct) != 0)
    return True


def _float_precisions(
    knobs: BleuKnobs, correct: list[Any], total: list[Any]
) -> Optional[tuple[list[float], list[bool]]]:
    """The smoothed precisions as floats, and which are positive, straight from integer counts
    for nltk's method 1 and for method 0 without a zero count (the common sentence_bleu
    calls); ``None`` for the others, which :func:`_smoothed` computes on Fractions.

    The same floats as ``float()`` of those Fractions: ``int / int`` is correctly rounded,
    as ``Fraction.__float__`` is, and method 1's ``(0 + epsilon) / total`` is nltk's own
    expression."""
    name = knobs.smoothing
    if name not in ("nltk0", "nltk1") or {*map(type, correct), *map(type, total)} != {int}:
        return None
    if name == "nltk0" and 0 in correct:
        return None  # method 0 warns about the zero count
    epsilon = knobs.effective_smooth_value
    smoothed, positive = [], []
    for c, t in zip(correct, total):
        if t == 0:  # an order without hypothesis n-grams stays 0
            value, above = 0.0, False
        elif c == 0:
            value = (c + epsilon) / t
            above = value > 0
        else:
            value, above = c / t, c > 0
        smoothed.append(value)
        positive.append(above)
    return smoothed, positive


def _fractions(counts: CorpusCounts, orders: int) -> list[Fraction]:
    """nltk's precisions ``Fraction(matches, total)``; an order without hypothesis n-grams
    (possible outside the nltk aggregation, whose totals are at least 1) is 0/1."""
    return [
        Fraction(int(c), int(t)) if t != 0 else Fraction(0, 1)
        for c, t in zip(counts.correct[:orders], counts.total[:orders])
    ]


def _smoothed(
    counts: CorpusCounts,
    knobs: BleuKnobs,
    orders: int,
    smoothing_function: Optional[Callable[..., Any]] = None,
) -> list[Any]:
    """nltk-style precisions after smoothing (the knob's, or a caller's nltk-style function,
    which is handed the last segment's tokens as nltk does); with the knob, an order without
    hypothesis n-grams stays 0, or becomes 1/1 under Lin-Och."""
    if smoothing_function is not None:
        result: list[Any] = smoothing_function(
            _fractions(counts, orders),
            references=counts.last_references,
            hypothesis=counts.last_hypothesis,
            hyp_len=counts.hyp_len,
        )
        return result
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


@lru_cache(maxsize=64, typed=True)  # an int smooth_value keeps sacrebleu's counts ints
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
