"""torchmetrics' ``ROUGEScore`` as a real ``torchmetrics.Metric`` subclass (imported only when
torchmetrics is installed): per-sentence float32 states as torchmetrics keeps them, scored by
:mod:`bleuprint.compat.torchmetrics.rouge`."""

from collections.abc import Callable, Sequence
from typing import Any, Optional

from torchmetrics import Metric  # type: ignore[import-not-found, unused-ignore]

from bleuprint.compat.torchmetrics.rouge import (
    _PARTS,
    ALLOWED_ROUGE_KEYS,
    _check_keys,
    _compute,
    _layout,
    _Scorer,
)


class ROUGEScore(Metric):  # type: ignore[misc, unused-ignore]
    """torchmetrics' ``ROUGEScore``: per-sentence float32 states (``dist_reduce_fx=None``),
    ``compute()`` their means."""

    is_differentiable: bool = False
    higher_is_better: bool = True
    full_state_update: bool = True
    plot_lower_bound: float = 0.0
    plot_upper_bound: float = 1.0

    def __init__(
        self,
        use_stemmer: bool = False,
        normalizer: Optional[Callable[[str], str]] = None,
        tokenizer: Optional[Callable[[str], Sequence[str]]] = None,
        accumulate: str = "best",
        rouge_keys: Any = ("rouge1", "rouge2", "rougeL", "rougeLsum"),
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        keys = _check_keys(rouge_keys)
        self._scorer = _Scorer(keys, accumulate, use_stemmer, normalizer, tokenizer)
        self.rouge_keys = keys
        self.rouge_keys_values = [ALLOWED_ROUGE_KEYS[k] for k in keys]
        self.accumulate = accumulate
        for key in keys:
            for part in _PARTS:
                self.add_state(f"{key}_{part}", [], dist_reduce_fx=None)

    def update(self, preds: Any, target: Any) -> None:
        """Scores a batch's sentences and keeps their float32 values."""
        output = self._scorer.update(*_layout(preds, target))
        for name, values in output.items():
            getattr(self, name).extend(v.to(self.device) for v in values)

    def compute(self) -> dict[str, Any]:
        """Each key's mean over every sentence since the last reset."""
        return _compute(
            {
                f"rouge{value}_{part}": getattr(self, f"rouge{value}_{part}")
                for value in self.rouge_keys_values
                for part in _PARTS
            }
        )
