"""The properties every metric has, whatever it measures (docs/design.md, "Adding a metric").

Each check takes a metric object and real text, and asserts one law of the statistics model:

- **merge = concatenate**: the statistics of two shards, added, are the rows of the whole,
  and score exactly as the whole corpus;
- **workers invariance**: every thread count gives the same rows;
- **sentence = corpus of one**: a sentence score is the corpus score of that one segment;
- **pairwise cell = sentence score**: cell ``(i, j)`` of the pairwise matrix is the sentence
  score of hypothesis ``i`` against reference ``j`` alone;
- **saved = counted**: statistics saved and loaded score as they did.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bleuprint import BleuprintError, Stats

Streams = Sequence[Sequence[str]]


def _value(score: Any) -> Any:
    """A score's value, comparable with ``==`` (``BLEUScore.number`` where there are several:
    the first weight set's, or the coco preset's Bleu_N)."""
    if hasattr(score, "number"):
        return score.number
    value = score.score if hasattr(score, "score") else score
    return value[0] if isinstance(value, list) else value


def _same(a: Any, b: Any) -> bool:
    a, b = float(_value(a)), float(_value(b))
    return a == b or (math.isnan(a) and math.isnan(b))


def _outcome(call: Callable[..., Any], *args: Any) -> tuple[str, Any]:
    """``("value", v)``, or ``("error", type)`` where the metric has no score (an upstream
    that divides by zero on an empty hypothesis raises, and so does its preset)."""
    try:
        return "value", float(_value(call(*args)))
    except BleuprintError as error:
        return "error", type(error)


def _same_outcome(a: tuple[str, Any], b: tuple[str, Any]) -> bool:
    if a[0] == b[0] == "value":
        return bool(a[1] == b[1] or (math.isnan(a[1]) and math.isnan(b[1])))
    return a == b


def check_merge_is_concatenation(metric: Any, hypotheses: list[str], references: Streams) -> None:
    whole = metric.stats(hypotheses, references)
    assert whole.rows.dtype == np.int64  # counts: exact under any merge or resample
    for cut in (1, len(hypotheses) // 2, len(hypotheses) - 1):
        first = metric.stats(hypotheses[:cut], [stream[:cut] for stream in references])
        rest = metric.stats(hypotheses[cut:], [stream[cut:] for stream in references])
        merged = first + rest
        np.testing.assert_array_equal(merged.rows, whole.rows)
        assert _same(merged.score(), whole.score())
    assert _same(whole.score(), metric.corpus_score(hypotheses, references))


def check_workers_invariance(metric: Any, hypotheses: list[str], references: Streams) -> None:
    rows = []
    for workers in (1, 2, -1):
        each = copy.copy(metric)
        each.workers = workers
        rows.append(each.stats(hypotheses, references).rows)
    for other in rows[1:]:
        np.testing.assert_array_equal(other, rows[0])


def check_sentence_is_corpus_of_one(
    metric: Any, hypotheses: list[str], references: Streams
) -> None:
    for i, hypothesis in enumerate(hypotheses):
        refs = [stream[i] for stream in references]
        sentence = _outcome(metric.sentence_score, hypothesis, refs)
        corpus = _outcome(metric.corpus_score, [hypothesis], [[r] for r in refs])
        assert _same_outcome(sentence, corpus), (i, sentence, corpus)


def check_pairwise_cell_is_sentence_score(
    metric: Any, hypotheses: list[str], references: list[str]
) -> None:
    cells = {
        (i, j): _outcome(metric.sentence_score, hypothesis, [reference])
        for i, hypothesis in enumerate(hypotheses)
        for j, reference in enumerate(references)
    }
    errors = {outcome[1] for outcome in cells.values() if outcome[0] == "error"}
    if errors:  # a pair without a score: the matrix raises as the sentence score does
        with pytest.raises(tuple(errors)):
            metric.pairwise(hypotheses, references)
        return
    matrix = metric.pairwise(hypotheses, references)
    assert matrix.shape == (len(hypotheses), len(references))
    for (i, j), expected in cells.items():
        assert _same_outcome(("value", float(matrix[i, j])), expected), (i, j)


def check_saved_statistics_score_the_same(
    metric: Any, hypotheses: list[str], references: Streams, folder: Path
) -> None:
    stats = metric.stats(hypotheses, references)
    stats.save(folder / "stats.npz")
    loaded = Stats.load(folder / "stats.npz")
    np.testing.assert_array_equal(loaded.rows, stats.rows)
    assert loaded.config == stats.config
    assert _same(loaded.score(), stats.score())
