"""Metric classes. Each turns text into per-segment statistics and statistics into scores."""

from bleuprint.metrics.base import Score, Signature
from bleuprint.metrics.bleu import BLEU, BLEUConfig, BLEUScore, BLEUSignature
from bleuprint.metrics.wer import CER, WER, WERConfig, WERScore, WERSignature

METRICS = {"BLEU": BLEU, "WER": WER, "CER": CER}

__all__ = [
    "BLEU",
    "CER",
    "METRICS",
    "WER",
    "BLEUConfig",
    "BLEUScore",
    "BLEUSignature",
    "Score",
    "Signature",
    "WERConfig",
    "WERScore",
    "WERSignature",
]
