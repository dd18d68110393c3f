"""One system's bootstrap: sacrebleu's resamples of a test set and their estimate."""

from __future__ import annotations

from typing import Any

import numpy as np

from bleuprint.errors import InvalidOptionError
from bleuprint.resampling.draws import bootstrap_indices, bootstrap_scores
from bleuprint.resampling.estimates import (
    ResampledScores,
    SingleSystemEstimate,
    score_estimate_ci,
)
from bleuprint.resampling.limits import MAX_SAMPLES
from bleuprint.resampling.seed import Seed
from bleuprint.stats import Stats


def check_samples(n: Any, name: str = "n_samples") -> int:
    """``n`` as an int from 1 to :data:`MAX_SAMPLES`, or an error that says so."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n <= 0:
        raise InvalidOptionError(f"{name} must be a positive integer, got {n!r}")
    if n > MAX_SAMPLES:
        raise InvalidOptionError(f"{name} must be at most {MAX_SAMPLES:,}, got {n:,}")
    return int(n)


def resample_single_system(
    stats: Stats, n_samples: int, seed: Seed, workers: int = -1
) -> ResampledScores:
    """The scores of ``n_samples`` bootstrap resamples, drawn as sacrebleu's
    ``_bootstrap_resample`` draws them (a generator seeded with ``seed.value``)."""
    if len(stats) == 0:
        raise InvalidOptionError("cannot bootstrap a test set of zero segments")
    rng = np.random.default_rng(seed.value)
    return bootstrap_scores(stats, bootstrap_indices(rng, len(stats), n_samples), workers)


def bootstrap_estimate(
    stats: Stats, n_samples: int, seed: Seed, workers: int = -1
) -> SingleSystemEstimate:
    """sacrebleu's single-system bootstrap (``corpus_score(..., n_bootstrap=n)``): mean,
    half-width and bounds of the resampled scores, of sacrebleu's types."""
    resampled = resample_single_system(stats, n_samples, seed, workers)
    return score_estimate_ci(resampled.as_objects())
