"""TER in the core (`_core.stats` and `_core.tokenize` with a `TerKernel`): sacrebleu 2.6.0's
published and verified vectors (tests/data/golden_ter.jsonl) as exact tests, and the binding's
contract. No sacrebleu needed."""

from __future__ import annotations

import numpy as np
import pytest

from bleuprint import _core
from bleuprint.errors import InvalidInputError, InvalidOptionError
from tests.support.golden import Vector, params


def ter_stats(hyps, streams, workers=-1, **flags):
    """`_core.stats` of a `TerKernel(**flags)`: the rows and the references per segment."""
    stats, nrefs, _ = _core.stats(_core.TerKernel(**flags), hyps, streams, workers=workers)
    return stats, nrefs


def ter_tokenize(lines, **flags):
    """`_core.tokenize` with a `TerKernel(**flags)`."""
    return _core.tokenize(_core.TerKernel(**flags), lines)


def rows(hyps, streams, case_sensitive=False, **flags):
    """sacrebleu's per-segment `[best_edits, ref_lengths / len(refs)]`."""

    def prepare(s):
        return s if case_sensitive or s is None else s.lower()

    stats, _ = ter_stats(
        [prepare(h) for h in hyps], [[prepare(r) for r in s] for s in streams], **flags
    )
    return [[edits, total / k] for edits, total, k in stats.tolist()]


def score(hyps, streams, **kwargs):
    """sacrebleu's corpus TER (×100) from the rows, in sacrebleu's order of operations."""
    per_segment = rows(hyps, streams, **kwargs)
    edits = sum(r[0] for r in per_segment)
    length = sum(r[1] for r in per_segment)
    if length > 0:
        return 100 * (edits / length)
    return 100.0 if edits > 0 else 0.0


@pytest.mark.parametrize("vector", params("ter", call="sentence_score"))
def test_published_sentence_rows(vector: Vector) -> None:
    expected = vector["expected"]
    flags = vector["args"]
    assert rows(vector["hypotheses"], vector["references"], **flags) == [
        [expected["num_edits"], expected["ref_length"]]
    ]


@pytest.mark.parametrize(
    "vector", params("ter", call="sentence_score") + params("ter", call="corpus_score")
)
def test_published_scores(vector: Vector) -> None:
    assert (
        score(vector["hypotheses"], vector["references"], **vector["args"])
        == (vector["expected"]["score"])
    )


@pytest.mark.parametrize("vector", params("ter", call="stats"))
def test_published_corpus_rows(vector: Vector) -> None:
    """sacrebleu's test_ter.py realistic example (17 edits over 125 words)."""
    assert rows(vector["hypotheses"], vector["references"]) == vector["expected"]["rows"]


README_HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
README_REF1 = ["The dog bit the man.", "It was not unexpected.", "The man bit him first."]
README_REF2 = ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]


def test_readme_example():
    streams = [README_REF1, README_REF2]
    assert rows(README_HYPS, streams) == [[0, 5.5], [3, 4.0], [3, 5.5]]
    assert rows(README_HYPS, streams, normalized=True) == [[0, 6.5], [3, 5.0], [3, 6.5]]


def test_empty_reference_is_kept_and_none_is_dropped():
    empty = ["", *README_REF1[1:]]
    dropped = [None, *README_REF1[1:]]
    assert rows(README_HYPS, [empty, README_REF2]) == [[1, 3.0], [3, 4.0], [3, 5.5]]
    assert rows(README_HYPS, [dropped, README_REF2]) == [[1, 6.0], [3, 4.0], [3, 5.5]]


def test_references_are_tokenized_twice():
    """sacrebleu normalizes references twice (and "it's's" is not stable), hypotheses once."""
    assert ter_tokenize(["it's's"], normalized=True) == ["it's 's"]
    assert rows(["it's's"], [["it's's"]], normalized=True) == [[2, 3.0]]


@pytest.mark.parametrize("vector", params("ter", call="tokenize"))
def test_tokenizer_vectors(vector: Vector) -> None:
    line = vector["hypotheses"][0].lower()  # sacrebleu lowercases before the Tercom rules
    assert ter_tokenize([line], **vector["args"]) == [vector["expected"]["tokens"]]


def test_binding_contract():
    stats, nrefs = ter_stats(["a b", "c"], [["a b", "c d"], ["b", None]])
    assert stats.dtype == np.int64
    assert stats.shape == (2, 3)
    assert stats.tolist() == [[0, 3, 2], [1, 2, 1]]
    assert nrefs == -1
    stats, nrefs = ter_stats([], [[], []])
    assert stats.shape == (0, 3)
    assert nrefs == 2
    for workers in (1, 2, -1):
        again, _ = ter_stats(["a b", "c"], [["a b", "c d"], ["b", None]], workers=workers)
        assert again.tolist() == [[0, 3, 2], [1, 2, 1]]


def test_binding_errors():
    with pytest.raises(InvalidInputError, match="no references"):
        ter_stats(["a"], [[None]])
    with pytest.raises(InvalidInputError, match="reference stream 0"):
        ter_stats(["a", "b"], [["a"]])
    with pytest.raises(InvalidInputError, match="no reference streams"):
        ter_stats(["a"], [])
    with pytest.raises(InvalidOptionError):
        ter_stats(["a"], [["a"]], workers=0)
    with pytest.raises(TypeError):
        ter_stats("a", [["a"]])
    with pytest.raises(TypeError):
        ter_stats([1], [["a"]])
    with pytest.raises(TypeError):
        ter_tokenize("a b")
