"""Significance and confidence: bootstrap intervals, paired bootstrap resampling and paired
approximate randomization, bit-identical to sacrebleu 2.6.0 for the same seed.

Everything works on :class:`~bleuprint.Stats`: text is scored once, then resampled.

- :func:`bootstrap_ci`: one system's bootstrap confidence interval.
- :func:`paired_test`: systems (text) against a baseline, or every pair of them.
- :func:`paired_test_stats`: the same on precomputed statistics.
"""

from bleuprint.significance.bootstrap import ConfidenceInterval, bootstrap_ci
from bleuprint.significance.correction import CORRECTIONS, adjust_p_values
from bleuprint.significance.paired import (
    Comparison,
    PairedTestResult,
    SystemResult,
    paired_test,
    paired_test_stats,
)
from bleuprint.significance.seed import FROM_ENVIRONMENT, Seed, resolve_seed

__all__ = [
    "CORRECTIONS",
    "FROM_ENVIRONMENT",
    "Comparison",
    "ConfidenceInterval",
    "PairedTestResult",
    "Seed",
    "SystemResult",
    "adjust_p_values",
    "bootstrap_ci",
    "paired_test",
    "paired_test_stats",
    "resolve_seed",
]
