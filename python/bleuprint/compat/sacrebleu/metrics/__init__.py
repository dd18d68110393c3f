"""``sacrebleu.metrics``: BLEU, chrF and TER, bleuprint's metrics with sacrebleu's attributes."""

from bleuprint.compat.sacrebleu.metrics.bleu import BLEU, BLEUScore
from bleuprint.compat.sacrebleu.metrics.chrf import CHRF, CHRFScore
from bleuprint.compat.sacrebleu.metrics.ter import TER, TERScore

METRICS = {"BLEU": BLEU, "CHRF": CHRF, "TER": TER}

__all__ = ["BLEU", "CHRF", "METRICS", "TER", "BLEUScore", "CHRFScore", "TERScore"]
