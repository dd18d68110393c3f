"""Significance and confidence: bootstrap intervals, paired bootstrap resampling and paired
approximate randomization, bit-identical to sacrebleu 2.6.0 for the same seed.

Everything works on :class:`~bleuprint.Stats`: text is scored once, then resampled.

- :func:`bootstrap_ci`: one system's bootstrap confidence interval.
- :func:`paired_test`: systems (text) against a baseline, or every pair of them.
- :func:`paired_test_stats`: the same on precomputed statistics.
- :func:`bisani_ney_ci`: Bisani and Ney's bootstrap WER interval and the paired probability
  of improvement, equal to kaldialign's ``bootstrap_wer_ci`` for the same seed.
"""

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bleuprint.significance.bisani_ney import bisani_ney_ci
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

#: The module of each name, loaded on first use: the resampling engine (numpy, statistics,
#: fractions) costs start-up time, and the command line reads ``limits`` and ``seed`` for
#: every run but the tests only when asked for one.
_MODULES = {
    "bisani_ney_ci": "bisani_ney",
    "ConfidenceInterval": "bootstrap",
    "bootstrap_ci": "bootstrap",
    "CORRECTIONS": "correction",
    "adjust_p_values": "correction",
    "Comparison": "paired",
    "PairedTestResult": "paired",
    "SystemResult": "paired",
    "paired_test": "paired",
    "paired_test_stats": "paired",
    "FROM_ENVIRONMENT": "seed",
    "Seed": "seed",
    "resolve_seed": "seed",
}


def __getattr__(name: str) -> object:
    if name in _MODULES:
        return getattr(importlib.import_module(f"{__name__}.{_MODULES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CORRECTIONS",
    "FROM_ENVIRONMENT",
    "Comparison",
    "ConfidenceInterval",
    "PairedTestResult",
    "Seed",
    "SystemResult",
    "adjust_p_values",
    "bisani_ney_ci",
    "bootstrap_ci",
    "paired_test",
    "paired_test_stats",
    "resolve_seed",
]
