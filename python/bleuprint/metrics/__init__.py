"""Metric classes. Each turns text into per-segment statistics and statistics into scores.

``__all__`` is what the package root exports; :class:`Metric` (the base class) and GLEU's
configuration and score are reachable here too (loaded on first use: start-up time).
"""

import importlib
from typing import TYPE_CHECKING

from bleuprint.metrics.bleu import BLEU, BLEUConfig, BLEUScore, BLEUSignature
from bleuprint.metrics.chrf import CHRF, CHRFConfig, CHRFScore, CHRFSignature
from bleuprint.metrics.cider import CIDEr, CIDErConfig, CIDErScore, CIDErStats
from bleuprint.metrics.config import LAZY_CONFIG_MODULES
from bleuprint.metrics.metric import Metric as Metric
from bleuprint.metrics.rouge import ROUGE, ROUGEConfig, ROUGEScore, ROUGESignature
from bleuprint.metrics.scores import Score, Signature
from bleuprint.metrics.ter import TER, TERConfig, TERScore, TERSignature
from bleuprint.metrics.wer import CER, WER, WERConfig, WERScore, WERSignature

if TYPE_CHECKING:
    from bleuprint.metrics.gleu import GLEUConfig as GLEUConfig
    from bleuprint.metrics.gleu import GLEUScore as GLEUScore

METRICS = {"BLEU": BLEU, "CHRF": CHRF, "TER": TER, "WER": WER, "CER": CER, "ROUGE": ROUGE}

__all__ = [
    "BLEU",
    "CER",
    "CHRF",
    "CIDEr",
    "METRICS",
    "ROUGE",
    "TER",
    "WER",
    "BLEUConfig",
    "BLEUScore",
    "BLEUSignature",
    "CHRFConfig",
    "CHRFScore",
    "CHRFSignature",
    "CIDErConfig",
    "CIDErScore",
    "CIDErStats",
    "ROUGEConfig",
    "ROUGEScore",
    "ROUGESignature",
    "Score",
    "Signature",
    "TERConfig",
    "TERScore",
    "TERSignature",
    "WERConfig",
    "WERScore",
    "WERSignature",
]


def __getattr__(name: str) -> object:
    if name in ("GLEUConfig", "GLEUScore"):
        return getattr(importlib.import_module(LAZY_CONFIG_MODULES["GLEU"]), name)
    raise AttributeError(f"module 'bleuprint.metrics' has no attribute {name!r}")
