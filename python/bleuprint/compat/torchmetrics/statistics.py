"""torchmetrics' BLEU statistics, counted by bleuprint's core: the input layout, the knobs,
the tokenizers, and the float32 running sums that are torchmetrics' state.

A state vector is ``[preds_len, target_len, numerator_1..N, denominator_1..N]`` in float32.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Optional

import numpy as np

from bleuprint.errors import InvalidInputError, InvalidOptionError, ReferenceLayoutError
from bleuprint.io.layout import as_text_sequence
from bleuprint.metrics.bleu.aggregation import float32_running_sum
from bleuprint.metrics.bleu.config import BLEUConfig
from bleuprint.tokenizers import get_tokenizer
from bleuprint.tokenizers.spm import SPM_MODELS

#: torchmetrics 1.9.0's ``AVAILABLE_TOKENIZERS`` for ``sacre_bleu_score``/``SacreBLEUScore``.
AVAILABLE_TOKENIZERS = (
    "none", "13a", "zh", "intl", "char", "ja-mecab", "ko-mecab", "flores101", "flores200",
)  # fmt: skip
TokenizerName = Literal[
    "none", "13a", "zh", "intl", "char", "ja-mecab", "ko-mecab", "flores101", "flores200"
]
#: Tokenizers the core runs; the others (MeCab, SentencePiece) run in bleuprint.tokenizers.
_NATIVE = ("none", "13a", "zh", "intl", "char")


def uniform_weights(n_gram: int, weights: Optional[Sequence[float]]) -> list[float]:
    """The weights torchmetrics uses: the given ones, else ``1 / n_gram`` for each order."""
    return [1.0 / n_gram] * n_gram if weights is None else list(weights)


def _config(
    preset: str, n_gram: int, smooth: bool, weights: Optional[Sequence[float]], **changes: Any
) -> BLEUConfig:
    if weights is not None and len(weights) != n_gram:
        raise InvalidOptionError(
            f"List of weights has different weights than `n_gram`: {len(weights)} != {n_gram}"
        )
    return BLEUConfig.from_preset(
        preset,
        max_ngram_order=n_gram,
        weights=None if weights is None else tuple(weights),
        smooth_method="add-k" if smooth else "none",
        **changes,
    )


def _torchmetrics_flores_file(tokenize: str) -> Optional[str]:
    """The model file torchmetrics downloaded for ``tokenize``, if it did (the same file)."""
    name = os.path.basename(SPM_MODELS[tokenize]["url"])
    path = os.path.join(tempfile.gettempdir(), "torchmetrics-flores", name)
    return path if os.path.isfile(path) and os.path.getsize(path) > 0 else None


def _line(item: Any) -> Any:
    """torchmetrics counts a falsy item (``""``, ``[]``, ``None``) as an empty line."""
    if isinstance(item, str):
        return item
    try:
        return item if item else ""
    except (TypeError, ValueError):  # e.g. an array: the core names the bad item
        return item


def corpus_layout(preds: Any, target: Any) -> tuple[list[Any], list[list[Any]]]:
    """``preds`` and ``target`` (a list of references per prediction) as lists, checked."""
    preds, target = as_text_sequence(preds, "preds"), as_text_sequence(target, "target")
    if len(preds) != len(target):
        raise InvalidInputError(f"Corpus has different size {len(preds)} != {len(target)}")
    refs = []
    for i, t in enumerate(target):
        if isinstance(t, str) or not isinstance(t, Sequence):
            raise ReferenceLayoutError(
                f"target[{i}] must be a list of reference strings for preds[{i}]: "
                "target=[['ref a1', 'ref a2'], ['ref b1'], ...]"
            )
        refs.append([_line(r) for r in t])
    return [_line(p) for p in preds], refs


def functional_bleu_layout(preds: Any, target: Any) -> tuple[list[Any], list[list[Any]]]:
    """``bleu_score``'s own layout: a str prediction or reference is a list of one."""
    preds = [preds] if isinstance(preds, str) else preds
    target = [[t] if isinstance(t, str) else t for t in as_text_sequence(target, "target")]
    return corpus_layout(preds, target)


@dataclass
class RunningState:
    """A float32 state vector: ``sums`` is ``[preds_len, target_len, numerator...,
    denominator...]``."""

    sums: np.ndarray


class Counter:
    """Counts batches into the float32 state under one preset's configuration; ``tokenize`` names a
    tokenizer that runs before the core (MeCab, SentencePiece), whose output the core splits
    on whitespace as torchmetrics does."""

    def __init__(self, config: BLEUConfig, tokenize: Optional[str] = None) -> None:
        self.config = config
        self.tokenize = tokenize
        self.width = config.width

    @classmethod
    def bleu(cls, n_gram: int, smooth: bool, weights: Optional[Sequence[float]]) -> Counter:
        """``bleu_score``/``BLEUScore``: ``str.split()`` tokens."""
        return cls(_config("torchmetrics", n_gram, smooth, weights))

    @classmethod
    def sacre_bleu(
        cls,
        n_gram: int,
        smooth: bool,
        tokenize: str,
        lowercase: bool,
        weights: Optional[Sequence[float]],
    ) -> Counter:
        """``sacre_bleu_score``/``SacreBLEUScore``: sacrebleu's tokenizers, lowercasing after
        tokenizing."""
        if tokenize not in AVAILABLE_TOKENIZERS:
            raise InvalidOptionError(
                "Unsupported tokenizer selected. Please, choose one of "
                f"{list(AVAILABLE_TOKENIZERS)}"
            )
        native = tokenize in _NATIVE
        config = _config(
            "torchmetrics-sacrebleu",
            n_gram,
            smooth,
            weights,
            tokenize=tokenize if native else "none",
            lowercase="after" if lowercase else False,
        )
        return cls(config, None if native else tokenize)

    def zeros(self) -> np.ndarray:
        """An empty state."""
        return np.zeros(self.width, dtype=np.float32)

    def _pretokenized(
        self, preds: list[Any], refs: list[list[Any]]
    ) -> tuple[list[Any], list[list[Any]]]:
        if self.tokenize is None:
            return preds, refs
        spm_model = _torchmetrics_flores_file(self.tokenize) if "flores" in self.tokenize else None
        tokenizer = get_tokenizer(self.tokenize, spm_model)
        if tokenizer is None:  # cannot happen: only external names get here
            return preds, refs
        flat = tokenizer.tokenize_stream([*preds, *(r for rs in refs for r in rs)])
        out_refs, at = [], len(preds)
        for rs in refs:
            out_refs.append(flat[at : at + len(rs)])
            at += len(rs)
        return flat[: len(preds)], out_refs

    def add(self, state: np.ndarray, preds: list[Any], refs: list[list[Any]]) -> np.ndarray:
        """``state`` plus each segment's counts in turn, in float32 (torchmetrics' update)."""
        if not preds:
            return np.asarray(state, dtype=np.float32).copy()
        preds, refs = self._pretokenized(preds, refs)
        rows = self.config.item_rows(preds, refs)
        return float32_running_sum(rows, state)


class BLEUArguments:
    """torchmetrics' ``BLEUScore`` constructor, for the ``Metric`` subclass and the plain class
    alike: the counter checks the options first, then ``_begin`` (``Metric.__init__`` where
    there is one) and ``_add_states`` are each class's own."""

    def __init__(
        self,
        n_gram: int = 4,
        smooth: bool = False,
        weights: Optional[Sequence[float]] = None,
        **kwargs: Any,
    ) -> None:
        self._set_up(Counter.bleu(n_gram, smooth, weights), n_gram, smooth, weights, kwargs)

    def _set_up(
        self,
        counter: Counter,
        n_gram: int,
        smooth: bool,
        weights: Optional[Sequence[float]],
        kwargs: dict[str, Any],
    ) -> None:
        self._begin(kwargs)
        self._counter = counter
        self.n_gram = n_gram
        self.smooth = smooth
        self.weights = uniform_weights(n_gram, weights)
        self._add_states()

    def _begin(self, kwargs: dict[str, Any]) -> None:
        """Before any attribute is set (``Metric`` takes ``kwargs``; the plain class none)."""

    def _add_states(self) -> None:
        raise NotImplementedError


class SacreBLEUArguments(BLEUArguments):
    """torchmetrics' ``SacreBLEUScore`` constructor: sacrebleu's tokenizers, then
    ``str.lower()``."""

    def __init__(
        self,
        n_gram: int = 4,
        smooth: bool = False,
        tokenize: TokenizerName = "13a",
        lowercase: bool = False,
        weights: Optional[Sequence[float]] = None,
        **kwargs: Any,
    ) -> None:
        counter = Counter.sacre_bleu(n_gram, smooth, tokenize, lowercase, weights)
        self._set_up(counter, n_gram, smooth, weights, kwargs)
        self.tokenize = tokenize
        self.lowercase = lowercase
