"""Pairwise matrices and expected utilities (MBR): every cell equals the metric's own
``sentence_score`` and sacrebleu's, for every metric and setting; properties; bad input."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

import bleuprint
from bleuprint.analysis.pairwise import aggregate_utility
from bleuprint.errors import InputTypeError, InvalidInputError, InvalidOptionError
from bleuprint.presets import PRESETS
from tests.support.data import SAMPLE, read_lines

# Short, empty, repeated, punctuated and non-Latin lines: the edge cases of every metric.
EDGE = [
    "",
    " ",
    "a",
    "The cat sat on the mat.",
    "the cat the cat the cat",
    "On the mat, (a) cat sat!",
    "Übermäßig große Äpfel – 12,5 %",
    "猫がマットの上に座った。",
    "a b c d e f g",
    "g f e d c b a",
]

# (bleuprint metric, sacrebleu metric): sacrebleu's settings, spelled the same way.
SETTINGS = [
    ("BLEU", {"effective_order": True}),
    ("BLEU", {}),
    ("BLEU", {"smooth_method": "floor", "effective_order": True}),
    ("BLEU", {"smooth_method": "add-k", "smooth_value": 2}),
    ("BLEU", {"smooth_method": "none"}),
    ("BLEU", {"tokenize": "intl", "lowercase": True, "effective_order": True}),
    ("BLEU", {"tokenize": "char", "max_ngram_order": 2}),
    ("BLEU", {"tokenize": "zh"}),
    ("BLEU", {"tokenize": "none", "max_ngram_order": 6}),
    ("CHRF", {}),
    ("CHRF", {"word_order": 2}),
    ("CHRF", {"whitespace": True, "char_order": 3, "word_order": 1}),
    ("CHRF", {"eps_smoothing": True, "beta": 1}),
    ("CHRF", {"lowercase": True, "beta": 3}),
    ("TER", {}),
    ("TER", {"normalized": True, "no_punct": True, "case_sensitive": True}),
    ("TER", {"normalized": True, "asian_support": True}),
]


def _metrics(name: str, kwargs: dict) -> tuple:
    return getattr(bleuprint, name)(**kwargs), getattr(sacrebleu, name)(**kwargs)


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # BLEU without effective order warns on sentence scores, as sacrebleu does.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize(("name", "kwargs"), SETTINGS)
def test_every_cell_equals_sentence_score(name: str, kwargs: dict) -> None:
    ours, theirs = _metrics(name, kwargs)
    hyps = EDGE + read_lines(SAMPLE / "sys.fair.en")[:6]
    refs = read_lines(SAMPLE / "ref.A.en")[:6] + EDGE[::-1]
    matrix = ours.pairwise(hyps, refs)
    assert matrix.shape == (len(hyps), len(refs))
    assert matrix.dtype == np.float64
    for i, h in enumerate(hyps):
        for j, r in enumerate(refs):
            expected = theirs.sentence_score(h, [r]).score
            assert matrix[i, j] == expected, (h, r)
            assert matrix[i, j] == ours.sentence_score(h, [r]).score
    # Without references, the hypotheses score each other (each pair matched once in the core,
    # for both of its cells).
    square = ours.pairwise(hyps)
    for i, h in enumerate(hyps):
        for j, r in enumerate(hyps):
            assert square[i, j] == theirs.sentence_score(h, [r]).score, (h, r)


@pytest.mark.differential
@pytest.mark.parametrize(
    ("name", "kwargs", "n"),
    [
        ("BLEU", {"effective_order": True}, 100),
        ("CHRF", {}, 50),
        ("CHRF", {"word_order": 2}, 50),
        ("TER", {}, 30),
    ],
)
def test_wmt22_cells_equal_sacrebleu(wmt22: Path, name: str, kwargs: dict, n: int) -> None:
    """10,000 BLEU cells, 2,500 chrF, 2,500 chrF++ and 900 TER cells of real sentences
    against sacrebleu."""
    ours, theirs = _metrics(name, kwargs)
    lines = read_lines(wmt22 / "references" / "generaltest2022.en-de.ref.A.de")
    hyps, refs = lines[:n], lines[500 : 500 + n]
    matrix = ours.pairwise(hyps, refs)
    expected = np.array([[theirs.sentence_score(h, [r]).score for r in refs] for h in hyps])
    assert np.array_equal(matrix, expected)


def test_expected_utility_is_the_fsum_row_mean() -> None:
    bleu = bleuprint.BLEU(effective_order=True)
    samples = read_lines(SAMPLE / "sys.poor.en")[:12] + EDGE
    matrix = bleu.pairwise(samples)
    utility = bleu.expected_utility(samples)
    assert [math.fsum(row) / len(row) for row in matrix.tolist()] == utility.tolist()
    weights = np.linspace(0.5, 3.0, len(samples))
    weighted = bleu.expected_utility(samples, weights=weights)
    for i, row in enumerate(matrix.tolist()):
        w = weights.tolist()
        assert weighted[i] == math.fsum(a * b for a, b in zip(w, row)) / math.fsum(w)
    excluded = bleu.expected_utility(samples, exclude_self=True)
    for i, row in enumerate(matrix.tolist()):
        others = row[:i] + row[i + 1 :]
        assert excluded[i] == math.fsum(others) / len(others)


def test_expected_utility_in_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    chrf = bleuprint.CHRF(word_order=2)
    samples = read_lines(SAMPLE / "sys.good.en")[:20]
    whole = chrf.expected_utility(samples, weights=range(1, 21))
    import bleuprint.analysis.pairwise as module

    monkeypatch.setattr(module, "BLOCK_CELLS", 7)  # a few rows per block
    assert np.array_equal(chrf.expected_utility(samples, weights=range(1, 21)), whole)
    assert np.array_equal(chrf.pairwise(samples), bleuprint.CHRF(word_order=2).pairwise(samples))


def test_exclude_self_and_batches() -> None:
    chrf = bleuprint.CHRF()
    a, b = EDGE[:5], EDGE[5:]
    matrix = chrf.pairwise(a, exclude_self=True)
    assert np.isnan(np.diag(matrix)).all()
    off = ~np.eye(5, dtype=bool)
    assert np.array_equal(matrix[off], chrf.pairwise(a)[off])
    batch = chrf.pairwise([a, b], [b, a])
    assert batch.shape == (2, 5, 5)
    assert np.array_equal(batch[1], chrf.pairwise(b, a))
    assert chrf.pairwise([a, b]).shape == (2, 5, 5)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.text(alphabet=st.sampled_from("ab c.,Ü猫 "), max_size=12), min_size=1, max_size=8)
)
def test_properties(samples: list[str]) -> None:
    # chrF with beta=1 is symmetric: precision and recall swap, F1 does not change.
    symmetric = bleuprint.CHRF(beta=1, word_order=1).pairwise(samples)
    assert np.array_equal(symmetric, symmetric.T)
    for metric in (bleuprint.BLEU(effective_order=True), bleuprint.CHRF(word_order=2)):
        metric.workers = 1
        serial = metric.pairwise(samples)
        for workers in (2, -1):
            metric.workers = workers
            assert np.array_equal(metric.pairwise(samples), serial)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda m: m.pairwise([]), InvalidInputError, "hypotheses is empty"),
        (lambda m: m.pairwise(["a"], []), InvalidInputError, "references is empty"),
        (lambda m: m.pairwise(["a", 3]), InputTypeError, r"hypotheses\[1\]"),
        (lambda m: m.pairwise(["a"], ["b"], exclude_self=True), InvalidOptionError, "None"),
        (lambda m: m.pairwise(["a"], exclude_self=True), InvalidInputError, "two"),
        (lambda m: m.pairwise(["a", "b"], exclude_self=1), InputTypeError, "bool"),
        (lambda m: m.pairwise([["a"], ["b", "c"]]), InvalidInputError, "shapes"),
        (lambda m: m.pairwise([["a"]], [["b"], ["c"]]), InvalidInputError, "reference lists"),
        (lambda m: m.expected_utility(["a", "b"], weights=[1]), InvalidInputError, "shape"),
        (lambda m: m.expected_utility(["a", "b"], weights=[1, -1]), InvalidOptionError, ">= 0"),
        (lambda m: m.expected_utility(["a"], weights=["x"]), InputTypeError, "numbers"),
        (
            lambda m: m.expected_utility(["a", "b"], weights=[0, 1], exclude_self=True),
            InvalidOptionError,
            "sum to 0",
        ),
    ],
)
def test_bad_input(call: Callable[[Any], Any], error: type[Exception], message: str) -> None:
    for metric in (bleuprint.BLEU(), bleuprint.CHRF(), bleuprint.TER()):
        with pytest.raises(error, match=message):
            call(metric)


def test_core_ranges_are_checked() -> None:
    from bleuprint import _core

    chrf = _core.ChrfKernel(
        char_order=6, word_order=0, factor=4.0, one_plus_factor=5.0, whitespace=False,
        eps_smoothing=False,
    )  # fmt: skip
    bags = _core.bags(chrf, ["a", "b"])
    assert len(bags) == 2
    assert bags.metric == "chrF"
    with pytest.raises(InvalidInputError, match="not a range"):
        _core.pairwise(chrf, bags, (0, 3), (0, 2))
    bleu = _core.BleuKernel(
        max_order=4, smooth_method="exp", smooth_value=None, effective_order=True,
        compensated_sum=True,
    )  # fmt: skip
    with pytest.raises(InvalidInputError, match="counted for chrF"):
        _core.pairwise(bleu, bags, (0, 1), (0, 1))
    rows = _core.pairwise(chrf, bags, (0, 2), (1, 2), rows=True)
    assert rows.shape == (2, 18)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_preset_cells_equal_the_presets_own_score(preset: str) -> None:
    """Every preset (HF's bleu, nltk, torchmetrics, Moses, mteval, ...): cell (i, j) is the
    preset's corpus score of the one pair, as its compat module computes it."""
    hyps = [s for s in EDGE if s.strip()] + read_lines(SAMPLE / "sys.poor.en")[:4]
    refs = read_lines(SAMPLE / "ref.B.en")[:5] + ["the cat the cat the cat"]
    bleu = bleuprint.BLEU(preset=preset)
    matrix = bleu.pairwise(hyps, refs)
    for i, h in enumerate(hyps):
        for j, r in enumerate(refs):
            score = bleuprint.BLEUConfig.from_preset(preset).item_score([h], [[r]])
            assert matrix[i, j] == score.number, (h, r)
    utility = bleu.expected_utility(hyps)
    square = bleu.pairwise(hyps)
    assert utility.tolist() == [math.fsum(row) / len(row) for row in square.tolist()]


def test_presets_refuse_what_they_cannot_score() -> None:
    # HF's bleu divides by zero on a hypothesis without tokens, in the matrix as upstream.
    with pytest.raises(InvalidInputError, match="divides by zero"):
        bleuprint.BLEU(preset="hf").pairwise(["", "a b"], ["a b"])
    with pytest.raises(InvalidInputError, match="drops empty pairs"):
        bleuprint.BLEU(preset="nlgmetricverse").pairwise(["a b"], ["a", ""])
    with pytest.raises(InvalidOptionError, match="sacrebleu's BLEU and chrF, not BLEU of these"):
        aggregate_utility(bleuprint.BLEU(preset="hf"), ["a"], ["b"])
