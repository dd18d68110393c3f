"""Bootstrap confidence intervals for one system (sacrebleu's ``--confidence``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from bleuprint.resampling.bootstrap import (
    bootstrap_estimate,
    check_samples,
    resample_single_system,
)
from bleuprint.resampling.seed import FROM_ENVIRONMENT, SeedArg, resolve_seed
from bleuprint.stats import Stats

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
    "check_samples",
    "resample_single_system",
]
