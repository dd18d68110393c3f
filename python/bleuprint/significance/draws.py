"""Resampled scores from statistics, never from text.

The draws come from numpy's ``default_rng`` exactly as sacrebleu makes them (an index matrix
per bootstrap, a boolean swap matrix per randomization test); the sums run in the Rust core
and the scores are computed in one batch per metric.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import numpy as np

from bleuprint import _core
from bleuprint.metrics.stats import Stats
from bleuprint.significance.estimates import ResampledScores
from bleuprint.significance.promotion import numpy_promotion

if TYPE_CHECKING:
    from bleuprint.metrics.config import Float32ResampledConfig


def bootstrap_indices(rng: np.random.Generator, n_segments: int, n_samples: int) -> np.ndarray:
    """sacrebleu's ``rng.choice(N, size=(n, N), replace=True)``: one row of segment indices
    per resample."""
    return rng.choice(n_segments, size=(n_samples, n_segments), replace=True)


class SwapFlags:
    """Per trial, which segments the first pseudo-system takes from the baseline: sacrebleu's
    ``rng.integers(2, size=(n, N), dtype=bool)``, also packed 8 segments to a byte for the
    core (packed once, however many systems and metrics use it)."""

    def __init__(self, flags: np.ndarray) -> None:
        self.flags = np.ascontiguousarray(flags, dtype=bool)
        self.packed = np.packbits(self.flags, axis=1, bitorder="little")

    @classmethod
    def draw(cls, rng: np.random.Generator, n_segments: int, n_trials: int) -> SwapFlags:
        """The draw sacrebleu's ``_paired_ar_test`` makes first."""
        return cls(rng.integers(2, size=(n_trials, n_segments), dtype=bool))


def resampled_sums(stats: Stats, indices: np.ndarray, workers: int = -1) -> np.ndarray:
    """Each resample's rows summed exactly (int64), one row per resample, in one core call."""
    indices = np.ascontiguousarray(indices, dtype=np.int64)
    return _core.bootstrap_sums(stats.rows, indices, workers=workers)  # type: ignore[no-any-return]


def bootstrap_scores(stats: Stats, indices: np.ndarray, workers: int = -1) -> ResampledScores:
    """The score of every resample ``stats[indices[k]]``.

    Metrics that sacrebleu resamples as float32 statistics (BLEU, chrF, TER) are summed in
    float32 and scored with the loaded numpy's scalar promotion, as sacrebleu is; the WER
    family sums exact integers.
    """
    config = stats.config
    indices = np.ascontiguousarray(indices, dtype=np.int64)
    if config.resample_float32:
        rows = np.ascontiguousarray(config.float_rows(stats.rows), dtype=np.float32)
        float32_sums = _core.bootstrap_sums(rows, indices, workers=workers)
        float32_config = cast("Float32ResampledConfig", config)  # what resample_float32 promises
        scored = float32_config.score_float32_sums(float32_sums, numpy_promotion())
        return ResampledScores(*scored)
    if getattr(config, "resample_float64", False):  # per-segment scores (ROUGE's mean)
        float_sums = _core.bootstrap_sums(config.float_rows(stats.rows), indices, workers=workers)
        return ResampledScores.of_floats(config.score_sums(float_sums))
    return ResampledScores.of_floats(config.score_sums(resampled_sums(stats, indices, workers)))


def _randomization_sums(
    config: Any, baseline: np.ndarray, system: np.ndarray, swaps: SwapFlags, workers: int
) -> tuple[np.ndarray, np.ndarray]:
    exact_baseline = config.randomization_rows(baseline)
    exact_system = config.randomization_rows(system)
    if (
        exact_baseline is not None
        and exact_system is not None
        and exact_baseline[1] == exact_system[1]
    ):
        (bl, divisor), (sys, _) = exact_baseline, exact_system
        a, b = _core.randomization_sums(bl, sys, swaps.packed, workers=workers)
        if divisor == 1:
            return a, b
        return a / divisor, b / divisor
    # Float statistics that integers cannot stand for: sacrebleu's own matrix products.
    bl, sys = config.float_rows(baseline), config.float_rows(system)
    take, keep = swaps.flags, ~swaps.flags
    return take @ bl + keep @ sys, keep @ bl + take @ sys


def randomization_scores(
    baseline: Stats, system: Stats, swaps: SwapFlags, workers: int = -1
) -> tuple[np.ndarray, np.ndarray]:
    """Scores of the two pseudo-systems of every trial: float64 arrays ``(a, b)``.

    In trial ``k``, ``a`` takes segment ``i`` from the baseline where ``swaps.flags[k, i]`` is
    true and from the system elsewhere; ``b`` takes the rest. The sums are sacrebleu's integer (or
    float64) matrix products, so the scores are identical to its.
    """
    config = baseline.config
    a, b = _randomization_sums(config, baseline.rows, system.rows, swaps, workers)
    return config.score_sums(a), config.score_sums(b)
