"""pyarrow string columns reach the core in place, through the Arrow C data interface
(``TextColumn.from_arrow``), not as a Python string per cell: the statistics equal those of
the same cells as lists, for every slice, chunking, null and string width; malformed buffers
and capsules are refused, naming the fault; the column keeps the array's memory alive."""

from __future__ import annotations

import gc
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleuprint
from bleuprint import _core
from bleuprint.errors import BleuprintWarning, InputTypeError, InvalidInputError

pa = pytest.importorskip("pyarrow")

from bleuprint.io.arrow_text import text_column  # noqa: E402 (after the pyarrow skip)

METRICS = {
    "BLEU": lambda: bleuprint.BLEU(),
    "chrF++": lambda: bleuprint.CHRF(word_order=2),
    "TER": lambda: bleuprint.TER(),
}
cells = st.text(st.sampled_from("ab é✓語 .,\t"), max_size=12)


def _arrow(values: list[Any], large: bool, chunks: int, start: int) -> Any:
    """``values`` as a (sliced, chunked) pyarrow column of the given string width."""
    kind = pa.large_string() if large else pa.string()
    padded = pa.array(["pad"] * start + values, type=kind).slice(start)
    if chunks < 2 or len(values) < 2:
        return padded
    cut = len(values) // 2
    return pa.chunked_array([padded.slice(0, cut), padded.slice(cut)], type=kind)


@settings(max_examples=120, deadline=None)
@given(
    rows=st.lists(st.tuples(cells, cells, st.one_of(cells, st.none())), min_size=1, max_size=9),
    large=st.booleans(),
    chunks=st.integers(1, 2),
    start=st.integers(0, 3),
    metric=st.sampled_from(sorted(METRICS)),
)
def test_arrow_columns_equal_lists(
    rows: list[tuple[str, str, Any]], large: bool, chunks: int, start: int, metric: str
) -> None:
    hyps, refs, more = (list(c) for c in zip(*rows))
    arrow = [_arrow(c, large, chunks, start) for c in (hyps, refs, more)]
    scorer = METRICS[metric]()
    assert text_column(arrow[0]) is not None
    with warnings.catch_warnings():  # BLEU's advice (Chinese text under 13a) comes from both
        warnings.simplefilter("ignore", BleuprintWarning)
        assert scorer.stats(arrow[0], arrow[1:]) == scorer.stats(hyps, [refs, more])


def test_a_null_hypothesis_is_refused_like_none_in_a_list() -> None:
    with pytest.raises(InputTypeError, match=r"hypotheses\[1\] must be str, got NoneType"):
        bleuprint.BLEU().stats(pa.array(["a", None]), [pa.array(["a", "b"])])
    with pytest.raises(InvalidInputError, match="segment 1 has no references"):
        bleuprint.BLEU().stats(pa.array(["a", "b"]), [pa.array(["a", None])])


def test_other_columns_and_lowercasing_take_the_lists_path() -> None:
    assert text_column(pa.array([1, 2])) is None
    assert text_column(["a"]) is None
    hyps, refs = pa.array(["The Cat", "A"]), pa.array(["the cat", "a"])
    lower = bleuprint.BLEU(lowercase=True)
    assert lower.stats(hyps, [refs]) == lower.stats(hyps.to_pylist(), [refs.to_pylist()])
    assert (
        lower.stats(hyps, [refs]).rows.tolist()
        == bleuprint.BLEU().stats(refs, [refs]).rows.tolist()
    )


def _offsets(*values: int) -> bytes:
    return np.array(values, dtype=np.int64).tobytes()


@pytest.mark.parametrize(
    ("data", "offsets", "valid", "message"),
    [
        (b"ab", b"\x00" * 7, None, "multiple of 8 bytes"),
        (b"ab", b"", None, "at least 8"),
        (b"ab", _offsets(0, 3), None, "at most len"),
        (b"ab", _offsets(-1, 2), None, "from 0 or more"),
        (b"ab", _offsets(0, 2, 1, 2), None, "must not decrease"),
        (b"a\xffb", _offsets(0, 3), None, "not UTF-8 from byte 1"),
        (b"xya\xffb", _offsets(2, 5), None, "not UTF-8 from byte 3"),
        ("é".encode(), _offsets(0, 1, 2), None, "character boundaries"),
        (b"ab", _offsets(0, 1, 2), b"\x01", "valid has 1 entries"),
    ],
)
def test_malformed_columns_are_refused(
    data: bytes, offsets: bytes, valid: Any, message: str
) -> None:
    with pytest.raises(InvalidInputError, match=message):
        _core.TextColumn(data, offsets, valid)


def test_a_text_column_is_read_wherever_the_core_reads_text() -> None:
    column = _core.TextColumn("日本語 ok".encode(), _offsets(0, 9, 12), b"\x01\x00")
    assert len(column) == 2
    # The null is skipped where None items are.
    assert _core.script_counts(column) == _core.script_counts(["日本語", None])


def test_the_script_sample_of_a_column_reads_the_lists_lines() -> None:
    """script_counts takes only its sample of a column's cells: the same lines (every step-th,
    from the first) as of the same cells in a list, whatever max_lines is."""
    cells = ["日本", None, "かな", "abc", "한국어", "", "中文字", "x y"]
    column = text_column(pa.array(cells))
    for max_lines in (0, 1, 2, 3, 5, 8, 100):
        assert _core.script_counts(column, max_lines) == _core.script_counts(cells, max_lines)
    assert _core.script_counts(column, 2) != _core.script_counts(column, 8)


def _capsules(array: Any) -> list[Any]:
    return [array.__arrow_c_array__()]


def test_arrow_capsules_are_read_in_place_and_kept_alive() -> None:
    """The column holds the exported arrays: the caller's array may go, the cells stay."""
    hyps = pa.chunked_array([pa.array(["a b c", None]), pa.array(["日本語", ""])])
    column = _core.TextColumn.from_arrow([c.__arrow_c_array__() for c in hyps.chunks])
    assert len(column) == 4
    del hyps
    gc.collect()
    assert _core.script_counts(column) == _core.script_counts(["a b c", None, "日本語", ""])
    assert len(_core.TextColumn.from_arrow([])) == 0
    assert len(_core.TextColumn.from_arrow(_capsules(pa.array([], pa.large_string())))) == 0


@pytest.mark.parametrize(
    ("chunks", "error", "message"),
    [
        ("not a list", InputTypeError, "chunks must be a list"),
        ([("a", "b")], InputTypeError, r"chunks\[0\] must be the \(schema, array\) capsules"),
        ([pa.array(["a"]).__arrow_c_array__()[::-1]], InputTypeError, "capsules"),
        (_capsules(pa.array([1, 2])), InvalidInputError, "Arrow type \"l\", not string"),
        (_capsules(pa.array(["a"], pa.string_view())), InvalidInputError, "not string"),
        (
            _capsules(pa.Array.from_buffers(pa.string(), 1, [None, pa.py_buffer(
                np.array([0, 2], np.int32).tobytes()), pa.py_buffer(b"a\xff")])),
            InvalidInputError,
            r"chunks\[0\]: data is not UTF-8 from byte 1",
        ),
        (
            _capsules(pa.Array.from_buffers(pa.string(), 2, [None, pa.py_buffer(
                np.array([0, 2, 1], np.int32).tobytes()), pa.py_buffer(b"ab")])),
            InvalidInputError,
            "must not decrease",
        ),
        (
            _capsules(pa.Array.from_buffers(pa.string(), 2, [None, pa.py_buffer(
                np.array([0, 1, 3], np.int32).tobytes()), pa.py_buffer("éa".encode())])),
            InvalidInputError,
            "character boundaries",
        ),
    ],
)  # fmt: skip
def test_malformed_arrow_chunks_are_refused(chunks: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        _core.TextColumn.from_arrow(chunks)
