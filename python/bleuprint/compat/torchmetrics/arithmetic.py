"""torchmetrics' final BLEU arithmetic on the float32 state: in torch ops when torch is
installed (so every bit is torch's), else in numpy (the last bit may differ)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from types import ModuleType
from typing import Any, Optional

import numpy as np

from bleuprint.metrics.bleu.aggregation import sums_counts
from bleuprint.metrics.bleu.config import BLEUConfig
from bleuprint.metrics.bleu.scoring import score_counts


@lru_cache(maxsize=1)
def torch_module() -> Optional[ModuleType]:
    """``torch`` if it is installed (imported on first use: it takes seconds)."""
    try:
        import torch  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    return torch


def torch_bleu(
    preds_len: Any,
    target_len: Any,
    numerator: Any,
    denominator: Any,
    n_gram: int,
    weights: Sequence[float],
    smooth: bool,
) -> Any:
    """The score of torchmetrics' state tensors, with torchmetrics' own torch operations in
    its order, on the state's device."""
    import torch  # type: ignore[import-not-found, unused-ignore]  # the caller holds tensors

    device = numerator.device
    if bool((numerator == 0).any()):
        return torch.tensor(0.0, device=device)
    if smooth:
        ones = torch.ones(n_gram, device=device)
        precisions = torch.div(torch.add(numerator, ones), torch.add(denominator, ones))
        precisions[0] = numerator[0] / denominator[0]
    else:
        precisions = numerator / denominator
    log_precisions = torch.tensor(weights, device=device) * torch.log(precisions)
    geometric_mean = torch.exp(torch.sum(log_precisions))
    if preds_len > target_len:
        brevity_penalty = torch.tensor(1.0, device=device)
    else:
        brevity_penalty = torch.exp(1 - (target_len / preds_len))
    return brevity_penalty * geometric_mean


def numpy_bleu(state: np.ndarray, config: BLEUConfig) -> np.float32:
    """The score of a float32 state vector in numpy float32 (bleuprint's ``torch``
    arithmetic): torch's ``exp``/``log`` kernels may round the last bit differently."""
    score: np.float32 = score_counts(sums_counts(list(state), config), config).score  # type: ignore[assignment]
    return score


def state_tensors(state: np.ndarray, n_gram: int) -> tuple[Any, Any, Any, Any]:
    """``preds_len, target_len, numerator, denominator`` of a state vector, as float32
    tensors (torchmetrics' state)."""
    torch = torch_module()
    if torch is None:
        raise ImportError("state_tensors needs torch")
    values = torch.from_numpy(np.array(state, dtype=np.float32))
    return values[0], values[1], values[2 : 2 + n_gram], values[2 + n_gram : 2 + 2 * n_gram]


def state_score(
    state: np.ndarray, config: BLEUConfig, n_gram: int, weights: Sequence[float], smooth: bool
) -> Any:
    """A state vector's score: a float32 tensor with torch, else a ``numpy.float32``."""
    if torch_module() is None:
        return numpy_bleu(state, config)
    return torch_bleu(*state_tensors(state, n_gram), n_gram, weights, smooth)
