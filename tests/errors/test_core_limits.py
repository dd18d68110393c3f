"""The core's option bounds, `workers` rule and error classes, through the bindings: every bad
value is a BleuprintError naming the option, raised before anything is allocated."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

import bleuprint
from bleuprint import _core
from bleuprint.errors import BleuprintError, InputTypeError, InvalidOptionError

HYPS = ["the cat sat on the mat"] * 100
REFS = [["the cat is on the mat"] * 100]
BLEU_13A = _core.BleuKernel(tokenizer="13a", max_order=4)


@pytest.mark.parametrize("order", [0, 256, -1, 2**31, 2**62, 2**63, 10**30])
def test_bleu_order_out_of_range(order: int) -> None:
    with pytest.raises(InvalidOptionError, match=rf"max_ngram_order .*1 to 255, got {order}"):
        _core.stats(_core.BleuKernel(tokenizer="13a", max_order=order), ["a"], [["a"]])


@pytest.mark.parametrize("order", [2**62, 2**63])
def test_bleu_api_order_out_of_range(order: int) -> None:
    with pytest.raises(InvalidOptionError, match="max_ngram_order"):
        bleuprint.BLEU(max_ngram_order=order).corpus_score(["a"], [["a"]])


def test_bleu_highest_order_scores() -> None:
    kernel = _core.BleuKernel(tokenizer="13a", max_order=255)
    rows, _, _ = _core.stats(kernel, ["a b"], [["a b"]])
    assert rows.shape == (1, 2 + 2 * 255)


@pytest.mark.parametrize(
    ("name", "value"),
    [("char_order", 2**31), ("word_order", 2**62), ("char_order", 256), ("word_order", 10**30)],
)
def test_chrf_orders_out_of_range(name: str, value: int) -> None:
    options = {"char_order": 6, "word_order": 0, name: value}
    with pytest.raises(InvalidOptionError, match=rf"{name} must be an integer from 0 to 255"):
        _core.stats(
            _core.ChrfKernel(
                factor=4.0, one_plus_factor=5.0, whitespace=False, eps_smoothing=False, **options
            ),
            ["a"],
            [["a"]],
        )


@pytest.mark.parametrize(("name", "value"), [("min_len", 0), ("max_len", 256), ("max_len", 2**64)])
def test_gleu_lengths_out_of_range(name: str, value: int) -> None:
    with pytest.raises(InvalidOptionError, match=name):
        _core.grouped_stats(_core.GleuKernel(tokenizer=None, **{name: value}), [["a"]], [[["a"]]])


@pytest.mark.parametrize("value", [-0.1, float("nan"), float("inf")])
@pytest.mark.parametrize("method", ["floor", "add-k"])
def test_smooth_value_must_be_finite_and_not_negative(method: str, value: float) -> None:
    rows, _, _ = _core.stats(BLEU_13A, ["a"], [["a"]])
    with pytest.raises(InvalidOptionError, match="smooth_value"):
        _core.scores(
            _core.BleuKernel(
                tokenizer="13a",
                max_order=4,
                smooth_method=method,
                smooth_value=value,
                effective_order=False,
                compensated_sum=False,
            ),
            rows,
        )


def test_order_of_wrong_type_is_an_input_type_error() -> None:
    with pytest.raises(InputTypeError, match="max_ngram_order must be an int"):
        _core.stats(_core.BleuKernel(tokenizer="13a", max_order="4"), ["a"], [["a"]])


@pytest.mark.parametrize("workers", ["2", 2.0, None])
def test_workers_of_wrong_type(workers: object) -> None:
    with pytest.raises(InputTypeError, match="workers must be an int") as info:
        _core.stats(BLEU_13A, HYPS, REFS, workers=workers)
    assert isinstance(info.value, TypeError)


@pytest.mark.parametrize("workers", [0, -2, 10**30, -(10**30)])
def test_workers_out_of_range(workers: int) -> None:
    with pytest.raises(InvalidOptionError, match="workers must be a positive thread count"):
        _core.stats(BLEU_13A, HYPS, REFS, workers=workers)


def _os_threads() -> int:
    status = Path("/proc/self/status").read_text().splitlines()
    return next(int(line.split()[1]) for line in status if line.startswith("Threads:"))


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="counts threads in /proc")
def test_huge_workers_is_clamped_and_threads_do_not_accumulate() -> None:
    expected, _, _ = _core.stats(BLEU_13A, HYPS, REFS, workers=1)
    before = _os_threads()
    for workers in (10**6, 1000, 999, 998, 3, 2, -1):
        rows, _, _ = _core.stats(BLEU_13A, HYPS, REFS, workers=workers)
        assert (rows == expected).all()
    # Clamped to the cores, at most two pools alive (the default size and one other).
    assert _os_threads() - before <= 2 * max(os.cpu_count() or 1, 2)


def test_non_str_items_are_input_type_errors() -> None:
    with pytest.raises(InputTypeError, match=r"hypotheses\[1\] must be str, got int") as info:
        _core.stats(BLEU_13A, ["a", 3], [["a", "b"]])
    assert isinstance(info.value, TypeError)
    assert isinstance(info.value, BleuprintError)
    with pytest.raises(InputTypeError, match=r"references\[0\]\[0\] must be str or None"):
        _core.stats(_core.TerKernel(), ["a"], [[b"a"]])
    with pytest.raises(InputTypeError, match=r"hypotheses\[0\]\[1\] must be str, got int"):
        _core.grouped_stats(_core.WerKernel(), [["a", 1]], [[["a"]]])


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: _core.stats(_core.BleuKernel(tokenizer=3, max_order=4), ["a"], [["a"]]),
            "tokenizer must be",
        ),
        (
            lambda: _core.stats(
                _core.BleuKernel(tokenizer="13a", max_order=4, normalize=1), ["a"], [["a"]]
            ),
            "normalize must be a str",
        ),
        (
            lambda: _core.stats(_core.WerKernel(unit=None), ["a"], [["a"]]),
            "unit must be a str, got NoneType",
        ),
        (
            lambda: _core.stats(_core.TerKernel(normalized="yes"), ["a"], [["a"]]),
            "normalized must be a bool",
        ),
        (
            lambda: _core.tokenize(b"13a", ["a"]),
            r"tokenizer must be a str \(a tokenizer name\) or a metric kernel, got bytes",
        ),
        (
            # The statistics argument of the scoring call is now named `rows`.
            lambda: _core.scores(BLEU_13A, [[1, 2]]),
            "rows must be a 2-D int64 numpy array, got list",
        ),
        (lambda: _core.read_lines(3), "path must be a str or os.PathLike, got int"),
        (
            # levenshtein_opcodes(s1=[-1], s2=[2]) is now `alignments` of token lists, with s1
            # the reference: its bad first element is named by its position.
            lambda: _core.alignments(_core.WerKernel(), [["2"]], [[-1]], tokens=True),
            r"references\[0\]\[0\] must be str, got int",
        ),
        (
            lambda: _core.resampled_scores(_core.TerKernel(), [[1.0, 2.0]], promotion="weak"),
            "sums must be a 2-D float32",
        ),
    ],
)
def test_arguments_of_the_wrong_type_name_themselves(
    call: Callable[[], object], message: str
) -> None:
    with pytest.raises(InputTypeError, match=message) as info:
        call()
    assert isinstance(info.value, TypeError)


@pytest.mark.parametrize(
    ("streams", "expected"),
    [
        ([["a", "b"], ["c", None]], -1),
        ([["a", "b"], ["c", "d"]], 2),
        ([["a"], [None]], 1),
        ([[None], [None]], 0),
        ([[]], 1),
        ([], 0),
    ],
)
def test_references_per_segment(streams: list[list[str | None]], expected: int) -> None:
    assert _core.references_per_segment(streams) == expected
    if streams and expected != 0:  # with no reference at all, scoring refuses the segment
        hyps = [""] * len(streams[0])
        _, nrefs, _ = _core.stats(BLEU_13A, hyps, streams)
        assert nrefs == expected
