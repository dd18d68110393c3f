"""The metric of saved statistics (shard files, ``Stats.load``): it scores them, with
bootstrap intervals, and signs them like the metric that counted them, but has no tokenizer,
so it cannot count new text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bleuprint.errors import InvalidOptionError
from bleuprint.metrics.config import MetricConfig
from bleuprint.metrics.metric import Metric
from bleuprint.metrics.scores import Score

if TYPE_CHECKING:
    import numpy as np


class RestoredMetric(Metric[Score]):
    """Scores and signatures for statistics of ``config`` (see :meth:`Metric.score_stats`)."""

    def __init__(self, config: MetricConfig, workers: int = -1) -> None:
        super().__init__(config, None, workers)

    def _compute_stats(
        self, hypotheses: Sequence[Any], streams: list[Sequence[Any]]
    ) -> tuple[np.ndarray, int]:
        raise InvalidOptionError(
            f"this {self.config.metric} metric was restored from saved statistics and has no "
            "tokenizer: count new text with a metric made from its settings"
        )

    def __repr__(self) -> str:
        return f"RestoredMetric({self.config})"
