"""rouge-score's confidence intervals: a percentile bootstrap of the mean on numpy's global
random state, and HF ``evaluate``'s handling of that state around a metric.

rouge-score 0.1.2's ``BootstrapAggregator`` draws each resample with the legacy
``np.random.choice`` (the module-level ``RandomState``, which ``np.random.seed`` seeds) and
takes ``np.percentile`` of the resampled means. :func:`percentile_bootstrap` makes the same
numpy calls in the same order, so for the same global state it draws the same indices, leaves
the state where rouge-score leaves it and returns the same floats.

HF ``evaluate`` runs a metric's computation with the global state seeded by a seed taken from
that state when the metric was loaded (:func:`seed_of_global_state`), and restores the state
afterwards (:func:`global_state_seeded`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np


def percentile_bootstrap(
    rows: Sequence[Sequence[float]], n_samples: int, confidence_interval: float
) -> np.ndarray:
    """The low, mid and high percentiles of ``n_samples`` resampled column means of ``rows``
    (one row per sample, one column per measure); shape ``(3, columns)``.

    rouge-score's ``BootstrapAggregator._bootstrap_resample`` on ``np.vstack(rows)``: each
    resample takes ``len(rows)`` row indices with ``np.random.choice`` (numpy's global random
    state), low and high are the ``(1 - confidence_interval) / 2`` percentiles from each end
    and mid is the median of the resampled means.
    """
    # Start-up time: numpy loads only when an interval is asked for.
    import numpy as np

    matrix = np.vstack(tuple(rows))
    sample_mean = np.zeros((n_samples, matrix.shape[1]))
    for i in range(n_samples):
        # rouge-score's draw, from the global state the caller seeds with np.random.seed.
        sample_idx = np.random.choice(np.arange(matrix.shape[0]), size=matrix.shape[0])  # noqa: NPY002
        sample = matrix[sample_idx, :]
        sample_mean[i, :] = np.mean(sample, axis=0)
    percentile_delta = (1 - confidence_interval) / 2
    q = 100 * np.array([percentile_delta, 0.5, 1 - percentile_delta])
    return np.percentile(sample_mean, q, axis=0)


def seed_of_global_state() -> int:
    """The seed HF ``evaluate`` gives a metric it loads without one: the word of numpy's
    global Mersenne Twister state at its position (the first word once every word is used).
    Reads the state; draws nothing."""
    # Start-up time, as above.
    import numpy as np

    state: Any = np.random.get_state()  # noqa: NPY002 (HF's read of the global state)
    keys, pos = state[1], state[2]
    return int(keys[pos] if pos < 624 else keys[0])


@contextmanager
def global_state_seeded(seed: int) -> Iterator[None]:
    """Within it, numpy's global random state is seeded with ``seed``; afterwards it is what
    it was before (``datasets``' ``temp_seed``, around HF ``evaluate``'s ``_compute``)."""
    # Start-up time, as above.
    import numpy as np

    state = np.random.get_state()  # noqa: NPY002 (the state HF saves and restores)
    np.random.seed(seed)  # noqa: NPY002
    try:
        yield
    finally:
        np.random.set_state(state)  # noqa: NPY002
