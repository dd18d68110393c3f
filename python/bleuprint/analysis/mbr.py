"""Minimum Bayes risk (MBR) selection: for each source, the sample with the best expected
utility against the other samples (or against pseudo-references).

The utilities are :meth:`Metric.expected_utility` (``math.fsum`` row means of the pairwise
matrix, every cell equal to the metric's ``sentence_score``), so the choice is the one a loop
over sacrebleu's ``sentence_score`` would make, made in the Rust core.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional, Union

from bleuprint.errors import InputTypeError, InvalidInputError, InvalidOptionError
from bleuprint.io.progress import Progress, reporter
from bleuprint.metrics import BLEU, CHRF, ROUGE, TER
from bleuprint.metrics.metric import Metric

#: ``metric=`` names and the metric each makes (BLEU as mbrs and sentence-level use have it).
METRIC_NAMES = ("bleu", "chrf", "chrf++", "ter", "rouge")


def make_metric(name: str, **options: Any) -> Metric[Any]:
    """The metric for a ``metric=`` name: ``bleu`` (effective order, exp smoothing, as mbrs
    uses it), ``chrf``, ``chrf++`` (word order 2), ``ter`` or ``rouge`` (utility: the first
    type's F-measure); ``options`` go to its class."""
    if name == "bleu":
        return BLEU(**{"effective_order": True, **options})
    if name == "chrf":
        return CHRF(**options)
    if name == "chrf++":
        return CHRF(**{"word_order": 2, **options})
    if name == "ter":
        return TER(**options)
    if name == "rouge":
        return ROUGE(**options)
    raise InvalidOptionError(f"unknown metric {name!r}; expected one of {', '.join(METRIC_NAMES)}")


@dataclass(frozen=True)
class Selection:
    """One source's MBR choice."""

    #: Position of the chosen sample among the source's samples.
    index: int
    #: The chosen sample.
    sentence: str
    #: Its expected utility (for TER, the lowest expected TER).
    score: float


def group_samples(samples: Sequence[Any], n: Optional[int]) -> list[list[str]]:
    """Samples per source: ``samples`` as lists of lists, or a flat list of ``n`` consecutive
    samples per source."""
    if isinstance(samples, (str, bytes)) or not isinstance(samples, Sequence):
        raise InputTypeError(
            f"samples must be a list of sample lists (one per source) or a flat list with n=, "
            f"got {type(samples).__name__}"
        )
    if n is None:
        if samples and all(isinstance(s, str) for s in samples):
            raise InvalidOptionError(
                "samples is a flat list of str: pass n= (samples per source), or one list of "
                "samples per source"
            )
        for k, group in enumerate(samples):
            if isinstance(group, (str, bytes)) or not isinstance(group, Sequence):
                raise InputTypeError(
                    f"samples[{k}] must be the list of one source's samples, got "
                    f"{type(group).__name__}"
                )
        groups = [list(s) for s in samples]
    else:
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise InvalidOptionError(f"n must be an int >= 1, got {n!r}")
        if len(samples) % n:
            raise InvalidInputError(
                f"{len(samples)} samples are not a whole number of groups of n={n}: the last "
                f"source has {len(samples) % n}"
            )
        groups = [list(samples[k : k + n]) for k in range(0, len(samples), n)]
    if not groups:
        raise InvalidInputError("no samples: there is nothing to select from")
    return groups


def select(
    samples: Sequence[Any],
    metric: Union[str, Metric[Any]] = "bleu",
    *,
    n: Optional[int] = None,
    references: Optional[Sequence[Sequence[str]]] = None,
    exclude_self: bool = False,
    progress: Progress = None,
) -> list[Selection]:
    """The MBR choice for every source.

    Parameters
    ----------
    samples
        One list of candidate sentences per source, or a flat list with ``n`` consecutive
        samples per source.
    metric
        A metric object (``BLEU(...)``, ``CHRF(...)``, ``TER(...)``) or a name from
        :data:`METRIC_NAMES`.
    references
        Pseudo-references per source (default: the samples themselves).
    exclude_self
        Leave each sample's score against itself out of its utility (needs
        ``references=None``).
    progress
        ``True`` for a bar on stderr, or a callable ``progress(done, total)`` called after
        each source.

    Returns
    -------
    list of Selection
        Per source: the index, the sentence and the expected utility of the best sample (the
        first one on ties). TER and the WER family pick the lowest.
    """
    scorer = make_metric(metric) if isinstance(metric, str) else metric
    if not isinstance(scorer, Metric):
        raise InputTypeError(f"metric must be a metric name or object, got {type(metric).__name__}")
    groups = group_samples(samples, n)
    if references is not None and len(references) != len(groups):
        raise InvalidInputError(f"got {len(groups)} sources but {len(references)} reference lists")
    report = reporter(progress, total=len(groups), what="mbr", unit="sources")
    higher = getattr(scorer.config, "higher_is_better", True)
    chosen = []
    for k, group in enumerate(groups):
        refs = None if references is None else references[k]
        utility = scorer.expected_utility(group, refs, exclude_self=exclude_self).tolist()
        best = max(utility) if higher else min(utility)
        index = utility.index(best)
        chosen.append(Selection(index, group[index], best))
        if report is not None:
            report(k + 1, len(groups))
    return chosen


__all__ = ["METRIC_NAMES", "Selection", "group_samples", "make_metric", "select"]
