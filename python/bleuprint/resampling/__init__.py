"""Resampling statistics as sacrebleu does, below the metrics and the significance tests.

- :mod:`~bleuprint.resampling.seed`: the seed, read from ``SACREBLEU_SEED``.
- :mod:`~bleuprint.resampling.draws`: the index and swap draws, and the resampled scores.
- :mod:`~bleuprint.resampling.estimates`: sacrebleu's interval and p-value formulas.
- :mod:`~bleuprint.resampling.bootstrap`: one system's bootstrap estimate, which both
  ``Metric.corpus_score(..., n_bootstrap=n)`` and :func:`bleuprint.bootstrap_ci` use.

These modules need only :class:`~bleuprint.Stats` and a metric configuration, never a metric
class, so a metric may call them without an import circle.
"""
