"""rouge-score 0.1.2's ``rouge_score.scoring``: the ``Score`` and ``AggregateScore`` tuples,
``BaseScorer``, ``fmeasure`` and ``BootstrapAggregator``.

``BootstrapAggregator.aggregate()`` resamples with
:func:`bleuprint.significance.percentile_bootstrap.percentile_bootstrap`: the same numpy calls
as rouge-score on numpy's global random state, so ``np.random.seed(s)`` before it gives
rouge-score's intervals bit for bit (``numpy.float64`` values, as rouge-score's), and leaves
the state where rouge-score leaves it.
"""

from __future__ import annotations

import abc
import collections
from collections.abc import Mapping
from typing import Any

from bleuprint.significance.percentile_bootstrap import percentile_bootstrap


class Score(collections.namedtuple("Score", ["precision", "recall", "fmeasure"])):
    """Tuple containing precision, recall, and f-measure values."""


class BaseScorer(metaclass=abc.ABCMeta):
    """Base class for Scorer objects."""

    @abc.abstractmethod
    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """Calculates score between the target and prediction.

        Args:
          target: Text containing the target (ground truth) text.
          prediction: Text containing the predicted text.

        Returns:
          A dict mapping each score_type (string) to Score object.
        """


class AggregateScore(collections.namedtuple("AggregateScore", ["low", "mid", "high"])):
    """Tuple containing confidence intervals for scores."""


class BootstrapAggregator:
    """Aggregates scores to provide confidence intervals (rouge-score's, from the same
    numpy global random state).

    Sample usage::

        scorer = rouge_scorer.RougeScorer(['rouge1', 'rougeL'])
        aggregator = BootstrapAggregator()
        aggregator.add_scores(scorer.score("one two three", "one two"))
        aggregator.add_scores(scorer.score("one two five six", "seven eight"))
        result = aggregator.aggregate()
    """

    def __init__(self, confidence_interval: float = 0.95, n_samples: int = 1000) -> None:
        """Initializes a BootstrapAggregator object.

        Args:
          confidence_interval: Confidence interval to compute on the mean as a decimal.
          n_samples: Number of samples to use for bootstrap resampling.

        Raises:
          ValueError: If invalid argument is given.
        """
        if confidence_interval < 0 or confidence_interval > 1:
            raise ValueError("confidence_interval must be in range [0, 1]")
        if n_samples <= 0:
            raise ValueError("n_samples must be positive")

        self._n_samples = n_samples
        self._confidence_interval = confidence_interval
        self._scores: collections.defaultdict[Any, list[Any]] = collections.defaultdict(list)

    def add_scores(self, scores: Mapping[Any, Any]) -> None:
        """Adds a sample for future aggregation.

        Args:
          scores: Dict mapping score_type strings to a namedtuple object/class representing
            a score.
        """
        for score_type, score in scores.items():
            self._scores[score_type].append(score)

    def aggregate(self) -> dict[Any, AggregateScore]:
        """Aggregates scores previously added using add_scores.

        Returns:
          A dict mapping score_type to AggregateScore objects.
        """
        result = {}
        for score_type, scores in self._scores.items():
            # Percentiles are returned as (interval, measure).
            percentiles = self._bootstrap_resample(scores)
            # The three intervals (low, mid, high), in the class of the scores added.
            intervals = tuple(scores[0].__class__(*percentiles[j, :]) for j in range(3))
            result[score_type] = AggregateScore(
                low=intervals[0], mid=intervals[1], high=intervals[2]
            )
        return result

    def _bootstrap_resample(self, matrix: Any) -> Any:
        """Performs bootstrap resampling on a matrix of scores (one row per sample, one
        column per measure): a ``(3, measures)`` array of low (row 0), mid (the median of the
        resampled means) and high."""
        return percentile_bootstrap(matrix, self._n_samples, self._confidence_interval)


def fmeasure(precision: Any, recall: Any) -> Any:
    """Computes f-measure given precision and recall values.

    rouge-score's helper for callers, kept with its expression; no score of this package
    comes from it (the core computes every ``Score``).
    """
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    else:
        return 0.0
