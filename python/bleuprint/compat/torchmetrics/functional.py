"""torchmetrics' functional ``bleu_score``, ``sacre_bleu_score`` and ``rouge_score``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

from bleuprint.compat.torchmetrics.arithmetic import state_score
from bleuprint.compat.torchmetrics.rouge import rouge_score as rouge_score
from bleuprint.compat.torchmetrics.statistics import (
    Counter,
    TokenizerName,
    corpus_layout,
    functional_bleu_layout,
    uniform_weights,
)


def bleu_score(
    preds: Any,
    target: Any,
    n_gram: int = 4,
    smooth: bool = False,
    weights: Optional[Sequence[float]] = None,
) -> Any:
    """torchmetrics' ``bleu_score``: ``str.split()`` tokens; a float32 tensor (with torch)."""
    counter = Counter.bleu(n_gram, smooth, weights)
    state = counter.add(counter.zeros(), *functional_bleu_layout(preds, target))
    return state_score(state, counter.config, n_gram, uniform_weights(n_gram, weights), smooth)


def sacre_bleu_score(
    preds: Sequence[str],
    target: Sequence[Sequence[str]],
    n_gram: int = 4,
    smooth: bool = False,
    tokenize: TokenizerName = "13a",
    lowercase: bool = False,
    weights: Optional[Sequence[float]] = None,
) -> Any:
    """torchmetrics' ``sacre_bleu_score``: sacrebleu's tokenizers, then ``str.lower()``."""
    counter = Counter.sacre_bleu(n_gram, smooth, tokenize, lowercase, weights)
    state = counter.add(counter.zeros(), *corpus_layout(preds, target))
    return state_score(state, counter.config, n_gram, uniform_weights(n_gram, weights), smooth)
