"""``BLEUScore`` and ``SacreBLEUScore`` for when torchmetrics is not installed: the same
``update``/``compute``/``reset``/call, the state a float32 numpy vector."""

from __future__ import annotations

from typing import Any

from bleuprint.compat.torchmetrics.arithmetic import state_score
from bleuprint.compat.torchmetrics.statistics import (
    BLEUArguments,
    RunningState,
    SacreBLEUArguments,
    corpus_layout,
)


class BLEUScore(BLEUArguments):
    """torchmetrics' ``BLEUScore``: ``update(preds, target)`` per batch, ``compute()``."""

    is_differentiable = False
    higher_is_better = True
    full_state_update = True

    def _add_states(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forgets every batch."""
        self._state = RunningState(self._counter.zeros())

    def update(self, preds: Any, target: Any) -> None:
        """Adds a batch's counts to the state."""
        self._state.sums = self._counter.add(self._state.sums, *corpus_layout(preds, target))

    def compute(self) -> Any:
        """The score of every batch since the last reset."""
        return state_score(
            self._state.sums, self._counter.config, self.n_gram, self.weights, self.smooth
        )

    def __call__(self, preds: Any, target: Any) -> Any:
        """``forward``: updates the state and returns this batch's score."""
        batch = self._counter.add(self._counter.zeros(), *corpus_layout(preds, target))
        self.update(preds, target)
        return state_score(batch, self._counter.config, self.n_gram, self.weights, self.smooth)


class SacreBLEUScore(SacreBLEUArguments, BLEUScore):
    """torchmetrics' ``SacreBLEUScore``."""
