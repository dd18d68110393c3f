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
from typing import TYPE_CHECKING, Any, Optional, cast

from bleuprint import _core
from bleuprint.errors import InvalidOptionError
from bleuprint.metrics.bleu.aggregation import CorpusCounts, Number
from bleuprint.metrics.bleu.knobs import Knobs, check_sacrebleu_arithmetic
from bleuprint.metrics.bleu.score import BLEUScore
from bleuprint.metrics.bleu.smoothing import Fraction, smooth

if TYPE_CHECKING:
    import numpy as np

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


def raise_python_error(error: Optional[tuple[str, str]]) -> None:
    if error is not None:
        raise _PYTHON_ERRORS[error[0]](error[1])


def _coco_details(rows: np.ndarray, config: Knobs) -> dict[str, Any]:
    details = _core.details(config.kernel, rows)
    raise_python_error(cast("Optional[tuple[str, str]]", details["error"]))
    return details  # type: ignore[no-any-return]


def coco_row_orders(rows: np.ndarray, config: Knobs) -> list[list[float]]:
    """Every row's Bleu_1 .. Bleu_N under the coco arithmetic, from one core call: the
    ``score`` lists of :func:`coco_row_scores` without making a score object per row."""
    return _coco_details(rows, config)["scores"]  # type: ignore[no-any-return]


def coco_row_scores(rows: np.ndarray, config: Knobs) -> list[BLEUScore]:
    """Every row's score under the coco arithmetic with its own smoothing, from one core call:
    what :func:`score_counts` gives for each row alone (pycocoevalcap's per-image lists)."""
    details = _coco_details(rows, config)
    n = config.orders
    return [
        BLEUScore(
            scores,
            row[2 : 2 + n],
            row[2 + n :],
            precisions,
            bp,
            row[0],
            row[1],
            ratio=ratio,
            config=config,
        )
        for row, scores, bp, ratio, precisions in zip(
            rows.tolist(),
            details["scores"],
            details["bp"],
            details["ratio"],
            details["precisions"],
        )
    ]


def brevity_penalty(hyp_len: Number, ref_len: Number, arithmetic: str) -> Any:
    """The brevity penalty of ``hyp_len`` tokens against ``ref_len``, with the float
    operations, edge cases and result type of ``arithmetic`` (the core's rule).

    sacrebleu: ``exp(1 - r/c)`` when shorter, 0.0 when empty; nltk: int 1 when longer, int 0
    when empty; nmt: from the length ratio; torch: float32; moses: 1.0 unless shorter; mteval:
    ``exp(min(0, 1 - r/c))``, 0.0 when empty.
    """
    import numpy as np

    value, is_int, error = _core.brevity_penalty(hyp_len, ref_len, arithmetic=arithmetic)
    raise_python_error(error)
    if is_int:
        return int(value)
    return np.float32(value) if arithmetic == "torch" else value


def score_counts(
    counts: CorpusCounts,
    config: Knobs,
    *,
    smoothing_function: Optional[Callable[..., Any]] = None,
) -> BLEUScore:
    """The score of summed counts under ``config``. ``smoothing_function`` (nltk arithmetic
    only) replaces the smoothing knob with any nltk-style callable.

    The core's combine step does the arithmetic (``_core.arithmetic_score``); here are only
    what needs Python: smoothing on ``Fraction`` precisions (and a caller's own smoothing
    function), and the upstream's result types.
    """
    import numpy as np

    arithmetic = config.arithmetic
    if smoothing_function is not None and arithmetic != "nltk":
        raise InvalidOptionError("smoothing_function needs the nltk arithmetic")
    if arithmetic == "sacrebleu":
        check_sacrebleu_arithmetic(config)
    items: Optional[tuple[int, int]] = None
    if config.aggregation == "multi-prediction":
        if counts.item_hyp_len is None or counts.item_ref_len is None:
            raise InvalidOptionError("aggregation='multi-prediction' needs per-item lengths")
        items = (counts.item_hyp_len, counts.item_ref_len)
    n = config.orders
    correct, total = list(counts.correct[:n]), list(counts.total[:n])
    smoothed: Optional[list[float]] = None
    positive: Optional[list[bool]] = None
    if _smooths_here(config, smoothing_function, correct):
        floats = (
            None if smoothing_function is not None else _float_precisions(config, correct, total)
        )
        if floats is not None:
            smoothed, positive = floats
        else:
            values = _smoothed(counts, config, n, smoothing_function)
            smoothed = [float(p) for p in values]
            positive = [bool(p > 0) for p in values]
    scores, bp, ratio, precisions, smoothed_orders, ints, error = _core.arithmetic_score(
        config.kernel,
        correct,
        total,
        hyp_len=counts.hyp_len,
        ref_len=counts.ref_len,
        smoothed=smoothed,
        positive=positive,
        item_lengths=items,
    )
    raise_python_error(error)
    scores_int, bp_int, ratio_int, precision_ints = ints
    torch = arithmetic == "torch"
    typed: list[Any] = [0 if scores_int else np.float32(s) if torch else s for s in scores]
    if precision_ints:  # Moses' int 0 for an order without hypothesis n-grams
        precisions = [0 if is_int else p for p, is_int in zip(precisions, precision_ints)]
    result = BLEUScore(
        # A list per weight set, and under coco one per order, even of one (pycocoevalcap).
        typed if len(typed) > 1 or arithmetic == "coco" else typed[0],
        correct,
        total,
        precisions,
        int(bp) if bp_int else np.float32(bp) if torch and items is None else bp,
        counts.hyp_len,
        counts.ref_len,
        ratio=0 if ratio_int else ratio,
        config=config,
    )
    if torch:  # torchmetrics' float32 state
        result.hyp_len, result.ref_len = np.float32(counts.hyp_len), np.float32(counts.ref_len)
        result.counts = np.array(correct, dtype=np.float32).tolist()
        result.totals = np.array(total, dtype=np.float32).tolist()
    elif arithmetic == "sacrebleu":  # sacrebleu's int statistics
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
    config: Knobs, smoothing_function: Optional[Callable[..., Any]], correct: list[Any]
) -> bool:
    """Whether the precisions are smoothed here: a smoothing the arithmetic does not compute
    itself, unless the upstream stops before smoothing (nltk without unigram matches,
    torchmetrics with a zero match count), so that its warnings and errors stay unraised."""
    if smoothing_function is None and config.smooth_method in OWN_SMOOTHINGS[config.arithmetic]:
        return False
    if config.arithmetic == "nltk":
        return bool(correct[0] != 0)
    if config.arithmetic == "torch":
        return bool(min(correct) != 0)
    return True


def _float_precisions(
    config: Knobs, correct: list[Any], total: list[Any]
) -> Optional[tuple[list[float], list[bool]]]:
    """The smoothed precisions as floats, and which are positive, straight from integer counts
    for nltk's method 1 and for method 0 without a zero count (the common sentence_bleu
    calls); ``None`` for the others, which :func:`_smoothed` computes on Fractions.

    The same floats as ``float()`` of those Fractions: ``int / int`` is correctly rounded,
    as ``Fraction.__float__`` is, and method 1's ``(0 + epsilon) / total`` is nltk's own
    expression."""
    name = config.smooth_method
    if name not in ("nltk0", "nltk1") or {*map(type, correct), *map(type, total)} != {int}:
        return None
    if name == "nltk0" and 0 in correct:
        return None  # method 0 warns about the zero count
    epsilon = config.effective_smooth_value
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
    config: Knobs,
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
        config.smooth_method,
        config.effective_smooth_value,
        _fractions(counts, orders),
        counts.last_references,
        counts.last_hypothesis,
        int(counts.hyp_len),
        last=counts.last,
    )
    if config.smooth_method != "lin-och":
        smoothed = [p if ok else Fraction(0, 1) for p, ok in zip(smoothed, present)]
    return smoothed
