"""torchmetrics' BLEU (``bleu_score``, ``sacre_bleu_score``, ``BLEUScore``,
``SacreBLEUScore``) and ROUGE (``rouge_score``, ``ROUGEScore``; these need torch), as
torchmetrics 1.9.0 computes them::

    from bleuprint.compat.torchmetrics import BLEUScore

The Rust core counts; the float32 arithmetic is torch's when torch is installed, so scores
equal torchmetrics' bit for bit. With torchmetrics installed the classes are
``torchmetrics.Metric`` subclasses (``.to()``, DDP sync, ``torch.jit.script``); without it
they are plain classes with the same methods. Without torch, results are ``numpy.float32``
scalars (numpy's float32 ``exp``/``log``: the last bits may differ from torch's).
Presets ``torchmetrics`` (``str.split()`` tokens) and ``torchmetrics-sacrebleu``.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

from bleuprint.compat.torchmetrics.functional import bleu_score, rouge_score, sacre_bleu_score
from bleuprint.compat.torchmetrics.statistics import AVAILABLE_TOKENIZERS, TokenizerName

if TYPE_CHECKING:
    from bleuprint.compat.torchmetrics.metric import BLEUScore, SacreBLEUScore

    ROUGEScore: type

#: torchmetrics' name for the ``tokenize=`` type.
_TokenizersLiteral = TokenizerName


def __getattr__(name: str) -> Any:
    # The classes load on first use: importing torch takes seconds (and much memory), and
    # the functional forms import it only when they compute.
    if name == "ROUGEScore":  # a torchmetrics.Metric subclass: torchmetrics is required
        value = importlib.import_module(f"{__name__}.rouge_metric").ROUGEScore
        globals()[name] = value
        return value
    if name not in ("BLEUScore", "SacreBLEUScore"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    kind = "metric" if importlib.util.find_spec("torchmetrics") is not None else "plain"
    value = getattr(importlib.import_module(f"{__name__}.{kind}"), name)
    globals()[name] = value
    return value


__all__ = [
    "AVAILABLE_TOKENIZERS",
    "BLEUScore",
    "ROUGEScore",
    "SacreBLEUScore",
    "TokenizerName",
    "bleu_score",
    "rouge_score",
    "sacre_bleu_score",
]
