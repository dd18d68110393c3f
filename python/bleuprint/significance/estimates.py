"""The confidence-interval and p-value formulas of sacrebleu's ``significance.py``.

Resampled scores arrive as :class:`ResampledScores`: float64 values plus which of them
sacrebleu holds as numpy scalars (``numpy.float32`` under numpy 2, ``numpy.float64`` under
numpy 1; see :mod:`bleuprint.significance.promotion`). These functions rebuild exactly the
Python or numpy values sacrebleu computes with, then apply its formulas, so means, intervals
and p-values are bit-identical (and of the same type).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np


@dataclass(frozen=True)
class ResampledScores:
    """One score per resample or trial: ``values`` as float64 and, per value, whether
    sacrebleu's arithmetic leaves it a numpy scalar of type ``scalar_type`` (else a Python
    float)."""

    values: np.ndarray
    is_numpy: np.ndarray
    scalar_type: type[np.floating] = np.float32

    @classmethod
    def of_floats(cls, values: np.ndarray) -> ResampledScores:
        """Scores that are all Python floats (float64)."""
        return cls(values, np.zeros(len(values), dtype=bool))

    def as_array(self) -> np.ndarray:
        """``np.array([score, ...])`` as sacrebleu builds it: of the scores' numpy type when
        every score is a numpy scalar, else float64."""
        if len(self.values) and self.is_numpy.all():
            return self.values.astype(self.scalar_type)
        return self.values

    def as_objects(self) -> list[Any]:
        """The scores as sacrebleu's Python objects (``float`` or the numpy scalar type)."""
        scalar = self.scalar_type
        values, is_numpy = self.values.tolist(), self.is_numpy.tolist()
        return [scalar(v) if numpy else v for v, numpy in zip(values, is_numpy)]


def _bounds(n: int) -> tuple[int, int]:
    # 95%: drop 1/40 of the sorted values on each side.
    lower = n // 40
    return lower, n - lower - 1


def estimate_ci(scores: np.ndarray) -> tuple[Any, Any]:
    """``(mean, half-width)`` of resampled scores, as ``significance.estimate_ci`` computes
    them (numpy mean of the array, half the spread of the 2.5% and 97.5% order statistics)."""
    scores = np.sort(scores)
    lower, upper = _bounds(len(scores))
    ci = 0.5 * (scores[upper] - scores[lower])
    return scores.mean(), ci


class SingleSystemEstimate(NamedTuple):
    """A single system's bootstrap estimate: ``mean ± ci``, and the order statistics
    ``lower`` and ``upper`` that ``ci`` is half the distance between."""

    mean: Any
    ci: Any
    lower: Any
    upper: Any


def score_estimate_ci(scores: list[Any]) -> SingleSystemEstimate:
    """The estimate as ``Score.estimate_ci`` computes it for a single system's bootstrap: a
    sorted Python list and ``statistics.mean``.

    When a chrF or TER resample scores exactly 0 (a Python float among numpy.float32 values),
    ``statistics.mean`` refuses the mix and sacrebleu stops with a TypeError; the mean is then
    taken over the values as Python floats.
    """
    values = sorted(scores)
    lower, upper = _bounds(len(values))
    try:
        mean = statistics.mean(values)
    except TypeError:
        mean = statistics.mean([float(v) for v in values])
    low, high = values[lower], values[upper]
    return SingleSystemEstimate(mean, 0.5 * (high - low), low, high)


def p_value(sample_statistics: np.ndarray, real_difference: float) -> float:
    """``(count(sample > real) + 1) / (n + 1)``, sacrebleu's (Multeval's) formula.

    One deliberate difference: when the real difference is exactly 0, samples equal to it
    count too (``>=``). sacrebleu's strict ``>`` gives a system compared with itself
    p = 1 / (n + 1), "significantly different", against the intent stated in its own
    comment; here that p-value is 1. Every other p-value is sacrebleu's.
    """
    if real_difference == 0:
        count = int(np.sum(sample_statistics >= real_difference))
    else:
        count = int(np.sum(sample_statistics > real_difference))
    return (count + 1) / (len(sample_statistics) + 1)
