"""torchmetrics' BLEU (``bleu_score``, ``sacre_bleu_score``, ``BLEUScore``,
``SacreBLEUScore``), float32 like upstream::

    from bleuprint.compat.torchmetrics import BLEUScore

Results are a ``torch.Tensor`` when torch is installed, else a ``numpy.float32`` scalar.
Presets ``torchmetrics`` (``str.split()`` tokens) and ``torchmetrics-sacrebleu`` (sacrebleu's
tokenizers, lowercasing after tokenizing): closest reference with ties to the first listed,
float32 state, 0 when any order has no match (even with ``smooth=True``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

import numpy as np

from bleuprint.errors import InvalidInputError, InvalidOptionError, ReferenceLayoutError
from bleuprint.layout import as_text_sequence
from bleuprint.variants import PRESETS, BleuKnobs, float32_running_sum, score_counts
from bleuprint.variants.aggregation import sums_counts
from bleuprint.variants.config import preset_config

_TOKENIZERS = ("none", "13a", "zh", "intl", "char")


def _result(value: np.float32) -> Any:
    try:
        import torch  # type: ignore[import-not-found]
    except ImportError:
        return value
    return torch.tensor(float(value), dtype=torch.float32)


def _knobs(
    preset: str, n_gram: int, smooth: bool, weights: Optional[Sequence[float]], **changes: Any
) -> BleuKnobs:
    if weights is not None and len(weights) != n_gram:
        raise InvalidOptionError(
            f"List of weights has different weights than `n_gram`: {len(weights)} != {n_gram}"
        )
    return PRESETS[preset].knobs.replace(
        max_order=n_gram,
        weights=None if weights is None else tuple(weights),
        smoothing="add-k" if smooth else "none",
        **changes,
    )


def _layout(preds: Any, target: Any) -> tuple[list[str], list[list[str]]]:
    preds, target = as_text_sequence(preds, "preds"), as_text_sequence(target, "target")
    if len(preds) != len(target):
        raise InvalidInputError(f"Corpus has different size {len(preds)} != {len(target)}")
    refs = []
    for i, t in enumerate(target):
        if (
            isinstance(t, str)
            or not isinstance(t, Sequence)
            or not all(isinstance(x, str) for x in t)
        ):
            raise ReferenceLayoutError(
                f"target[{i}] must be a list of reference strings for preds[{i}]: "
                "target=[['ref a1', 'ref a2'], ['ref b1'], ...]"
            )
        refs.append(list(t))
    return list(preds), refs


class _State:
    """torchmetrics' float32 state tensors (``preds_len``, ``target_len``, numerator,
    denominator), added to batch by batch: the running float32 sum of the preset's rows,
    the same sum its :class:`~bleuprint.Stats` score with."""

    def __init__(self, knobs: BleuKnobs) -> None:
        self.knobs = knobs
        self.config = preset_config(knobs)
        self.sums = np.zeros(self.config.width, dtype=np.float32)

    def update(self, preds: list[str], refs: list[list[str]]) -> None:
        if preds:
            self.sums = float32_running_sum(self.config.rows(preds, refs), self.sums)

    def compute(self) -> np.float32:
        score: np.float32 = score_counts(sums_counts(list(self.sums), self.knobs), self.knobs).score
        return score


def bleu_score(
    preds: Any,
    target: Any,
    n_gram: int = 4,
    smooth: bool = False,
    weights: Optional[Sequence[float]] = None,
) -> Any:
    """torchmetrics' functional ``bleu_score``: ``str.split()`` tokens."""
    preds = [preds] if isinstance(preds, str) else preds
    target = [[t] if isinstance(t, str) else t for t in as_text_sequence(target, "target")]
    state = _State(_knobs("torchmetrics", n_gram, smooth, weights))
    state.update(*_layout(preds, target))
    return _result(state.compute())


def _sacre_knobs(
    n_gram: int, smooth: bool, tokenize: str, lowercase: bool, weights: Any
) -> BleuKnobs:
    if tokenize not in _TOKENIZERS:
        raise InvalidOptionError(
            f"Unsupported tokenizer selected. Please, choose one of {_TOKENIZERS}"
        )
    return _knobs(
        "torchmetrics-sacrebleu",
        n_gram,
        smooth,
        weights,
        tokenizer=tokenize,
        lowercase="after" if lowercase else "no",
    )


def sacre_bleu_score(
    preds: Sequence[str],
    target: Sequence[Sequence[str]],
    n_gram: int = 4,
    smooth: bool = False,
    tokenize: str = "13a",
    lowercase: bool = False,
    weights: Optional[Sequence[float]] = None,
) -> Any:
    """torchmetrics' functional ``sacre_bleu_score``."""
    state = _State(_sacre_knobs(n_gram, smooth, tokenize, lowercase, weights))
    state.update(*_layout(preds, target))
    return _result(state.compute())


class BLEUScore:
    """torchmetrics' ``BLEUScore``: ``update(preds, target)`` per batch, ``compute()``."""

    def __init__(
        self,
        n_gram: int = 4,
        smooth: bool = False,
        weights: Optional[Sequence[float]] = None,
        **kwargs: Any,
    ) -> None:
        self.n_gram, self.smooth, self.weights = n_gram, smooth, weights
        self._knobs = _knobs("torchmetrics", n_gram, smooth, weights)
        self.reset()

    def reset(self) -> None:
        self._state = _State(self._knobs)

    def update(self, preds: Any, target: Any) -> None:
        self._state.update(*_layout(preds, target))

    def compute(self) -> Any:
        return _result(self._state.compute())

    def __call__(self, preds: Any, target: Any) -> Any:
        """``forward``: updates the state and returns this batch's score."""
        batch = _State(self._knobs)
        batch.update(*_layout(preds, target))
        self.update(preds, target)
        return _result(batch.compute())


class SacreBLEUScore(BLEUScore):
    """torchmetrics' ``SacreBLEUScore``."""

    def __init__(
        self,
        n_gram: int = 4,
        smooth: bool = False,
        tokenize: str = "13a",
        lowercase: bool = False,
        weights: Optional[Sequence[float]] = None,
        **kwargs: Any,
    ) -> None:
        self.n_gram, self.smooth, self.weights = n_gram, smooth, weights
        self.tokenize, self.lowercase = tokenize, lowercase
        self._knobs = _sacre_knobs(n_gram, smooth, tokenize, lowercase, weights)
        self.reset()


__all__ = ["BLEUScore", "SacreBLEUScore", "bleu_score", "sacre_bleu_score"]
