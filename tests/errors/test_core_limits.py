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


@pytest.mark.parametrize("order", [0, 256, -1, 2**31, 2**62, 2**63, 10**30])
def test_bleu_order_out_of_range(order: int) -> None:
    with pytest.raises(InvalidOptionError, match=rf"max_ngram_order .*1 to 255, got {order}"):
        _core.bleu_stats(["a"], [["a"]], tokenizer="13a", max_order=order)


@pytest.mark.parametrize("order", [2**62, 2**63])
def test_bleu_api_order_out_of_range(order: int) -> None:
    with pytest.raises(InvalidOptionError, match="max_ngram_order"):
        bleuprint.BLEU(max_ngram_order=order).corpus_score(["a"], [["a"]])


def test_bleu_highest_order_scores() -> None:
    rows, _, _ = _core.bleu_stats(["a b"], [["a b"]], tokenizer="13a", max_order=255)
    assert rows.shape == (1, 2 + 2 * 255)


@pytest.mark.parametrize(
    ("name", "value"),
    [("char_order", 2**31), ("word_order", 2**62), ("char_order", 256), ("word_order", 10**30)],
)
def test_chrf_orders_out_of_range(name: str, value: int) -> None:
    options = {"char_order": 6, "word_order": 0, name: value}
    with pytest.raises(InvalidOptionError, match=rf"{name} must be an integer from 0 to 255"):
        _core.chrf_stats(
            ["a"],
            [["a"]],
            factor=4.0,
            one_plus_factor=5.0,
            whitespace=False,
            eps_smoothing=False,
            **options,
        )


@pytest.mark.parametrize(("name", "value"), [("min_len", 0), ("max_len", 256), ("max_len", 2**64)])
def test_gleu_lengths_out_of_range(name: str, value: int) -> None:
    with pytest.raises(InvalidOptionError, match=name):
        _core.gleu_stats([["a"]], [[["a"]]], tokenizer=None, **{name: value})


@pytest.mark.parametrize("value", [-0.1, float("nan"), float("inf")])
@pytest.mark.parametrize("method", ["floor", "add-k"])
def test_smooth_value_must_be_finite_and_not_negative(method: str, value: float) -> None:
    rows, _, _ = _core.bleu_stats(["a"], [["a"]], tokenizer="13a", max_order=4)
    with pytest.raises(InvalidOptionError, match="smooth_value"):
        _core.bleu_scores(
            rows,
            max_order=4,
            smooth_method=method,
            smooth_value=value,
            effective_order=False,
            compensated_sum=False,
        )


def test_order_of_wrong_type_is_an_input_type_error() -> None:
    with pytest.raises(InputTypeError, match="max_ngram_order must be an int"):
        _core.bleu_stats(["a"], [["a"]], tokenizer="13a", max_order="4")


@pytest.mark.parametrize("workers", ["2", 2.0, None])
def test_workers_of_wrong_type(workers: object) -> None:
    with pytest.raises(InputTypeError, match="workers must be an int") as info:
        _core.bleu_stats(HYPS, REFS, tokenizer="13a", max_order=4, workers=workers)
    assert isinstance(info.value, TypeError)


@pytest.mark.parametrize("workers", [0, -2, 10**30, -(10**30)])
def test_workers_out_of_range(workers: int) -> None:
    with pytest.raises(InvalidOptionError, match="workers must be a positive thread count"):
        _core.bleu_stats(HYPS, REFS, tokenizer="13a", max_order=4, workers=workers)


def _os_threads() -> int:
    status = Path("/proc/self/status").read_text().splitlines()
    return next(int(line.split()[1]) for line in status if line.startswith("Threads:"))


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="counts threads in /proc")
def test_huge_workers_is_clamped_and_threads_do_not_accumulate() -> None:
    expected, _, _ = _core.bleu_stats(HYPS, REFS, tokenizer="13a", max_order=4, workers=1)
    before = _os_threads()
    for workers in (10**6, 1000, 999, 998, 3, 2, -1):
        rows, _, _ = _core.bleu_stats(HYPS, REFS, tokenizer="13a", max_order=4, workers=workers)
        assert (rows == expected).all()
    # Clamped to the cores, at most two pools alive (the default size and one other).
    assert _os_threads() - before <= 2 * max(os.cpu_count() or 1, 2)


def test_non_str_items_are_input_type_errors() -> None:
    with pytest.raises(InputTypeError, match=r"hypotheses\[1\] must be str, got int") as info:
        _core.bleu_stats(["a", 3], [["a", "b"]], tokenizer="13a", max_order=4)
    assert isinstance(info.value, TypeError)
    assert isinstance(info.value, BleuprintError)
    with pytest.raises(InputTypeError, match=r"references\[0\]\[0\] must be str or None"):
        _core.ter_stats(["a"], [[b"a"]])
    with pytest.raises(InputTypeError, match=r"hypotheses\[0\]\[1\] must be str, got int"):
        _core.wer_token_stats([["a", 1]], [["a"]])


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: _core.bleu_stats(["a"], [["a"]], tokenizer=3, max_order=4), "tokenizer must be"),
        (
            lambda: _core.bleu_stats(["a"], [["a"]], tokenizer="13a", max_order=4, normalize=1),
            "normalize must be a str",
        ),
        (lambda: _core.wer_stats(["a"], [["a"]], unit=None), "unit must be a str, got NoneType"),
        (lambda: _core.ter_stats(["a"], [["a"]], normalized="yes"), "normalized must be a bool"),
        (lambda: _core.tokenize(["a"], b"13a"), "tokenizer must be a str, got bytes"),
        (
            lambda: _core.bleu_scores(
                [[1, 2]],
                max_order=4,
                smooth_method="exp",
                smooth_value=None,
                effective_order=False,
                compensated_sum=False,
            ),
            "stats must be a 2-D int64 numpy array, got list",
        ),
        (lambda: _core.read_lines(3), "path must be a str or os.PathLike, got int"),
        (lambda: _core.levenshtein_opcodes([-1], [2]), r"s1\[0\] must be an int from 0"),
        (lambda: _core.ter_scores_from_sums([[1.0, 2.0]]), "sums must be a 2-D float32"),
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
        _, nrefs, _ = _core.bleu_stats(hyps, streams, tokenizer="13a", max_order=4)
        assert nrefs == expected
