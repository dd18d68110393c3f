"""Metric classes. Each turns text into per-segment statistics and statistics into scores."""

from bleuprint.metrics.bleu import BLEU, BLEUConfig, BLEUScore, BLEUSignature
from bleuprint.metrics.chrf import CHRF, CHRFConfig, CHRFScore, CHRFSignature
from bleuprint.metrics.gleu import GLEUConfig, GLEUScore
from bleuprint.metrics.metric import Metric
from bleuprint.metrics.scores import Score, Signature
from bleuprint.metrics.ter import TER, TERConfig, TERScore, TERSignature
from bleuprint.metrics.wer import CER, WER, WERConfig, WERScore, WERSignature

METRICS = {"BLEU": BLEU, "CHRF": CHRF, "TER": TER, "WER": WER, "CER": CER}

__all__ = [
    "BLEU",
    "CER",
    "CHRF",
    "METRICS",
    "TER",
    "WER",
    "BLEUConfig",
    "BLEUScore",
    "BLEUSignature",
    "CHRFConfig",
    "CHRFScore",
    "CHRFSignature",
    "GLEUConfig",
    "GLEUScore",
    "Metric",
    "Score",
    "Signature",
    "TERConfig",
    "TERScore",
    "TERSignature",
    "WERConfig",
    "WERScore",
    "WERSignature",
]
