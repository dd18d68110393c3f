"""BLEU (Papineni et al. 2002): sacrebleu 2.6.0's, bit for bit, and every other upstream's as
a preset of the same configuration.

- :mod:`~bleuprint.metrics.bleu.knobs`: the knobs and what each value means.
- :mod:`~bleuprint.metrics.bleu.counting`: text or tokens to per-segment counts (Rust core).
- :mod:`~bleuprint.metrics.bleu.aggregation`: a configuration's rows, and how they add up.
- :mod:`~bleuprint.metrics.bleu.fraction` and :mod:`~bleuprint.metrics.bleu.smoothing`: nltk's
  precisions and smoothings.
- :mod:`~bleuprint.metrics.bleu.scoring`: summed counts to a score, in each upstream's
  arithmetic (the core's).
- :mod:`~bleuprint.metrics.bleu.score`: :class:`BLEUScore` and the signatures.
- :mod:`~bleuprint.metrics.bleu.config`: :class:`BLEUConfig`, the one configuration.
- :mod:`~bleuprint.metrics.bleu.metric`: the :class:`BLEU` metric.
"""

from bleuprint.metrics.bleu.config import MAX_NGRAM_ORDER, BLEUConfig
from bleuprint.metrics.bleu.knobs import MAX_ORDER, SMOOTH_DEFAULTS
from bleuprint.metrics.bleu.metric import BLEU
from bleuprint.metrics.bleu.score import BLEUScore, BLEUSignature, PresetScore, PresetSignature

__all__ = [
    "BLEU",
    "MAX_NGRAM_ORDER",
    "MAX_ORDER",
    "SMOOTH_DEFAULTS",
    "BLEUConfig",
    "BLEUScore",
    "BLEUSignature",
    "PresetScore",
    "PresetSignature",
]
