"""One system's bootstrap: sacrebleu's resamples of a test set, their estimate, and the
confidence interval (sacrebleu's ``--confidence``).

:func:`bootstrap_estimate` serves ``Metric.corpus_score(..., n_bootstrap=n)``;
:func:`bootstrap_ci` returns the interval as data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from bleuprint.errors import InvalidOptionError
from bleuprint.metrics.stats import Stats
from bleuprint.significance.draws import bootstrap_indices, bootstrap_scores
from bleuprint.significance.estimates import (
    ResampledScores,
    SingleSystemEstimate,
    score_estimate_ci,
)
from bleuprint.significance.limits import MAX_SAMPLES
from bleuprint.significance.seed import FROM_ENVIRONMENT, Seed, SeedArg, resolve_seed


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


def bootstrap_signature(
    stats: Stats, n_bootstrap: Any, workers: int = -1
) -> tuple[Any, Any, dict[str, Any]]:
    """``corpus_score(..., n_bootstrap=n)``'s estimate: the bootstrap mean and half-width of
    ``n_bootstrap`` resamples seeded from the environment, and the signature's ``bs`` and
    ``seed`` entries."""
    n = check_samples(n_bootstrap, "n_bootstrap")
    seed = resolve_seed()
    mean, ci, _, _ = bootstrap_estimate(stats, n, seed, workers)
    return mean, ci, {"bs": n, "seed": seed.label}


def mean_bootstrap_signature(
    scores: np.ndarray, n_bootstrap: Any
) -> tuple[Any, Any, dict[str, Any]]:
    """:func:`bootstrap_signature` for a corpus score that is the mean of per-segment scores
    fixed by the whole set (CIDEr-D's images, each scored with the document frequencies of
    all): sacrebleu's draws, each resample's score the mean of its segments' scores."""
    n = check_samples(n_bootstrap, "n_bootstrap")
    if len(scores) == 0:
        raise InvalidOptionError("cannot bootstrap a test set of zero segments")
    seed = resolve_seed()
    indices = bootstrap_indices(np.random.default_rng(seed.value), len(scores), n)
    means = np.array([scores[row].mean() for row in indices], dtype=np.float64)
    mean, ci, _, _ = score_estimate_ci(ResampledScores.of_floats(means).as_objects())
    return mean, ci, {"bs": n, "seed": seed.label}


def bootstrap_estimate(
    stats: Stats, n_samples: int, seed: Seed, workers: int = -1
) -> SingleSystemEstimate:
    """sacrebleu's single-system bootstrap (``corpus_score(..., n_bootstrap=n)``): mean,
    half-width and bounds of the resampled scores, of sacrebleu's types."""
    resampled = resample_single_system(stats, n_samples, seed, workers)
    return score_estimate_ci(resampled.as_objects())


DEFAULT_SAMPLES = 1000


@dataclass(frozen=True)
class ConfidenceInterval:
    """A score with its bootstrap estimate.

    Attributes
    ----------
    metric
        The metric's display name (``BLEU``, ``chrF2``, ``TER``, ``WER``).
    score
        The score of the whole test set.
    mean
        The mean of the resampled scores.
    ci
        The half-width of the 95% interval, ``(upper - lower) / 2``: sacrebleu's ``±``.
    lower, upper
        The 2.5% and 97.5% order statistics of the resampled scores.
    n_samples
        Number of resamples.
    seed
        The seed (``None``: unseeded).
    """

    metric: str
    score: float
    mean: float
    ci: float
    lower: float
    upper: float
    n_samples: int
    seed: Optional[int]


def bootstrap_ci(
    stats: Stats,
    n_samples: int = DEFAULT_SAMPLES,
    *,
    seed: SeedArg = FROM_ENVIRONMENT,
    workers: int = -1,
) -> ConfidenceInterval:
    """The bootstrap confidence interval of a system's corpus score, from its statistics.

    Identical to ``corpus_score(..., n_bootstrap=n_samples)`` in sacrebleu for the same seed.

    Parameters
    ----------
    stats
        Per-segment statistics (``metric.stats(hypotheses, references)``).
    n_samples
        Number of resamples.
    seed
        An int, ``None`` (unseeded), or read from ``SACREBLEU_SEED``/``BLEUPRINT_SEED``
        (default 12345).
    workers
        Threads (``-1``: every core). Results do not depend on it.

    Examples
    --------
    >>> import bleuprint
    >>> stats = bleuprint.BLEU().stats(["a b c d", "e f g h"], [["a b c d", "e f x h"]])
    >>> ci = bleuprint.bootstrap_ci(stats, 100, seed=1)
    >>> ci.lower <= ci.mean <= ci.upper
    True
    """
    n_samples = check_samples(n_samples)
    resolved = resolve_seed(seed)
    estimate = bootstrap_estimate(stats, n_samples, resolved, workers)
    score = stats.score()
    return ConfidenceInterval(
        metric=score.name,
        score=score.score,
        mean=float(estimate.mean),
        ci=float(estimate.ci),
        lower=float(estimate.lower),
        upper=float(estimate.upper),
        n_samples=n_samples,
        seed=resolved.value,
    )


__all__ = [
    "DEFAULT_SAMPLES",
    "ConfidenceInterval",
    "bootstrap_ci",
    "bootstrap_estimate",
    "bootstrap_signature",
    "check_samples",
    "resample_single_system",
]
