"""``BLEUScore`` and ``SacreBLEUScore`` as real ``torchmetrics.Metric`` subclasses (imported
only when torchmetrics is installed).

The states are torchmetrics' own (names, shapes, ``dist_reduce_fx="sum"``), so ``.to()``,
``state_dict``, DDP sync, ``forward``, pickling and ``torch.jit.script`` behave as upstream;
``update`` counts with bleuprint's core, ``compute`` runs torchmetrics' torch operations.
"""

# No `from __future__ import annotations`: torch.jit.script reads the state annotations.
from collections.abc import Sequence
from typing import Any, ClassVar, Optional, Union

import numpy as np
import torch  # type: ignore[import-not-found, unused-ignore]
from torch import Tensor  # type: ignore[import-not-found, unused-ignore]
from torchmetrics import Metric  # type: ignore[import-not-found, unused-ignore]

from bleuprint.compat.torchmetrics.arithmetic import torch_bleu
from bleuprint.compat.torchmetrics.statistics import (
    BLEUArguments,
    RunningState,
    SacreBLEUArguments,
    corpus_layout,
)


class BLEUScore(BLEUArguments, Metric):  # type: ignore[misc, unused-ignore]
    """torchmetrics' ``BLEUScore``: ``update(preds, target)`` per batch, ``compute()``;
    ``kwargs`` are ``Metric``'s (``dist_sync_on_step``, ``sync_on_compute``, ...)."""

    is_differentiable: bool = False
    higher_is_better: bool = True
    full_state_update: bool = True
    plot_lower_bound: float = 0.0
    plot_upper_bound: float = 1.0
    # torch.jit.script compiles properties unless listed here.
    __jit_unused_properties__: ClassVar[list[str]] = [
        *Metric.__jit_unused_properties__,
        "_state",
    ]

    preds_len: Tensor
    target_len: Tensor
    numerator: Tensor
    denominator: Tensor

    def _begin(self, kwargs: dict[str, Any]) -> None:
        Metric.__init__(self, **kwargs)

    def _add_states(self) -> None:
        n_gram = self.n_gram
        self.add_state("preds_len", torch.tensor(0.0), dist_reduce_fx="sum")
        self.add_state("target_len", torch.tensor(0.0), dist_reduce_fx="sum")
        self.add_state("numerator", torch.zeros(n_gram), dist_reduce_fx="sum")
        self.add_state("denominator", torch.zeros(n_gram), dist_reduce_fx="sum")

    @property
    def _state(self) -> RunningState:
        """The states as one float32 vector, as the plain classes keep them."""
        states = (self.preds_len, self.target_len, self.numerator, self.denominator)
        return RunningState(
            np.concatenate(
                [np.atleast_1d(t.detach().to("cpu", torch.float32).numpy()) for t in states]
            )
        )

    def update(self, preds: Any, target: Any) -> None:
        """Adds a batch's counts to the states (counted by bleuprint's core)."""
        preds, refs = corpus_layout(preds, target)
        if not preds:
            return
        values = torch.from_numpy(self._counter.add(self._state.sums, preds, refs))
        n = self.n_gram  # copies: each state owns its storage, as upstream's do
        self.preds_len = values[0].to(self.preds_len, copy=True)
        self.target_len = values[1].to(self.target_len, copy=True)
        self.numerator = values[2 : 2 + n].to(self.numerator, copy=True)
        self.denominator = values[2 + n : 2 + 2 * n].to(self.denominator, copy=True)

    def compute(self) -> Tensor:
        """The BLEU score of the states, with torchmetrics' torch operations."""
        return torch_bleu(
            self.preds_len,
            self.target_len,
            self.numerator,
            self.denominator,
            self.n_gram,
            self.weights,
            self.smooth,
        )

    def plot(
        self, val: Optional[Union[Tensor, Sequence[Tensor]]] = None, ax: Optional[Any] = None
    ) -> Any:
        """Plots one value or several (by default ``compute()``'s); needs matplotlib."""
        return self._plot(val, ax)


class SacreBLEUScore(SacreBLEUArguments, BLEUScore):  # type: ignore[misc, unused-ignore]
    """torchmetrics' ``SacreBLEUScore``: sacrebleu's tokenizers, then ``str.lower()``."""
