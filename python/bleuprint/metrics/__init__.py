"""Metric classes. Each turns text into per-segment statistics and statistics into scores."""

from bleuprint.metrics.base import Score, Signature
from bleuprint.metrics.bleu import BLEU, BLEUConfig, BLEUScore, BLEUSignature

METRICS = {"BLEU": BLEU}

__all__ = ["BLEU", "METRICS", "BLEUConfig", "BLEUScore", "BLEUSignature", "Score", "Signature"]
