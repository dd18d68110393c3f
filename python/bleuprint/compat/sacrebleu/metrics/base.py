"""``sacrebleu.metrics.base``: ``Score``, ``Signature`` and ``Metric``, with the private
methods of sacrebleu's ``Metric`` that client code calls (mbrs, PairedTest-style loops),
computed by bleuprint's core."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Optional

from bleuprint.compat.sacrebleu.utils import sum_of_lists
from bleuprint.errors import InvalidOptionError
from bleuprint.metrics.metric import Metric
from bleuprint.metrics.scores import Score, Signature

sacrelogger = logging.getLogger("sacrebleu")

__all__ = ["Metric", "Score", "Signature", "SacrebleuMethods", "sacrelogger"]


class SacrebleuMethods:
    """sacrebleu's private ``Metric`` methods on top of a bleuprint metric: statistics come
    from the core (``stats``), scores from the metric configuration's scoring functions."""

    def _extract_corpus_statistics(
        self, hypotheses: Sequence[str], references: Optional[Sequence[Sequence[str]]]
    ) -> list[list[Any]]:
        """Per-segment statistics as sacrebleu's lists (references: these, else the ones
        given to the constructor)."""
        metric = self._bleuprint_metric()
        if not references and metric._ref_cache is None:
            raise InvalidOptionError(
                "No references provided and the cache is empty: pass references here or to "
                "the constructor"
            )
        stats = metric.stats(hypotheses, references or None)
        return self._sacrebleu_rows(stats.rows)

    def _sacrebleu_rows(self, rows: Any) -> list[list[Any]]:
        """bleuprint's statistics rows as sacrebleu holds them (the same for BLEU and chrF)."""
        return [list(row) for row in rows.tolist()]

    def _compute_score_from_stats(self, stats: Sequence[Any]) -> Any:
        """The score of summed statistics."""
        return self._bleuprint_metric().config.score_row(stats)

    def _aggregate_and_compute(self, stats: Sequence[Sequence[Any]]) -> Any:
        """The corpus score of per-segment statistics."""
        return self._compute_score_from_stats(sum_of_lists(stats))

    def _bleuprint_metric(self) -> Metric[Any]:
        if not isinstance(self, Metric):
            raise TypeError(f"{type(self).__name__} must also derive from a bleuprint Metric")
        return self
