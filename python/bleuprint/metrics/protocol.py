"""What the jobs built on metrics may assume of a metric object.

Streaming, tables, shards, Ray, pairwise matrices and the resampling code take any object
with these members (every :class:`~bleuprint.metrics.metric.Metric` has them). They depend on
this protocol, never on the metric classes, so the metric classes can delegate their
conveniences (``score_stream``, ``pairwise``, ...) to them without an import circle.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Optional, Protocol

if TYPE_CHECKING:
    import numpy as np

    from bleuprint.metrics.config import MetricConfig
    from bleuprint.metrics.stats import Stats


class CountingMetric(Protocol):
    """A metric that counts text into :class:`~bleuprint.Stats` (streams, tables, Ray)."""

    config: MetricConfig
    workers: int
    #: References per segment in the last evaluation (-1: it varies), for signatures.
    num_refs: Optional[int]

    def stats(self, hypotheses: Any, references: Any = None) -> Stats:
        """Per-segment statistics of text (lists, Arrow columns or blocks of file lines)."""
        ...

    def _warnings_summed(self) -> AbstractContextManager[None]:
        """A context within which warnings that count segments are given once, for the
        totals over every ``stats`` call (the chunks of a stream)."""
        ...


#: A block of a pairwise matrix: the ``(start, stop)`` ranges of the counted hypotheses and
#: references it pairs.
Block = tuple[tuple[int, int], tuple[int, int]]


class PairwiseScorer(Protocol):
    """What pairwise matrices need of a metric: counting sentences once, then scoring blocks
    of cells (``(H, R)`` float64; and, for reference aggregation, each hypothesis against the
    references' averaged statistics) from the counts."""

    def _before_sentence_scores(self) -> None: ...
    def _count_sentences(self, sentences: list[str]) -> Any: ...
    def _score_block(self, counted: Any, block: Block) -> np.ndarray: ...
    def _aggregate_block(
        self, counted: Any, block: Block, log_weights: list[float]
    ) -> np.ndarray: ...
