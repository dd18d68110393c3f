"""Comparisons of bleuprint with an upstream that several test files make."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest

from bleuprint.metrics.functional_wer import corpus_cer, corpus_wer


def assert_native_wer_equals_jiwer(
    hypothesis: list[str], reference: list[str], words: Any, chars: Any
) -> None:
    """The native ``corpus_wer``/``corpus_cer`` equal jiwer's ``process_words`` (``words``) and
    ``process_characters`` (``chars``) output: every measure and count."""
    native = corpus_wer(hypothesis, [reference])
    assert (native.wer, native.mer, native.wil, native.wip) == (
        words.wer,
        words.mer,
        words.wil,
        words.wip,
    )
    assert (native.hits, native.substitutions, native.deletions, native.insertions) == (
        words.hits,
        words.substitutions,
        words.deletions,
        words.insertions,
    )
    assert corpus_cer(hypothesis, [reference]).cer == chars.cer


def outcome(
    fn: Callable[..., Any], *args: Any, **kwargs: Any
) -> tuple[Any, list[tuple[type[Warning], str]]]:
    """The value (or the exception) and the warnings of one call, for comparing two tools."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = fn(*args, **kwargs)
        except Exception as error:
            value = error
    return value, [(w.category, str(w.message)) for w in caught]


def assert_same_value(ours: Any, expected: Any) -> None:
    """Equal with `==` and of the same type (int, float, list), element by element."""
    assert type(ours) is type(expected), (ours, expected)
    if isinstance(expected, list):
        assert len(ours) == len(expected)
        for a, b in zip(ours, expected):
            assert_same_value(a, b)
    else:
        assert ours == expected


def assert_same_lines(label: str, lines: list[str], expected: list[Any], got: list[Any]) -> None:
    """``got`` (bleuprint's result for each of ``lines``) equals ``expected`` (sacrebleu's), or
    the test fails naming how many lines differ and the first five of them."""
    assert len(got) == len(lines)
    if got != expected:
        bad = [(line, e, g) for line, e, g in zip(lines, expected, got) if e != g]
        shown = "\n".join(
            f"  {line!r}\n    sacrebleu {e!r}\n    bleuprint {g!r}" for line, e, g in bad[:5]
        )
        pytest.fail(f"{label}: {len(bad)} of {len(lines)} lines differ, e.g.\n{shown}")


def assert_same_bleu(ours: Any, theirs: Any, length: str = "sys_len") -> None:
    """A BLEU score equals sacrebleu's ``theirs`` field by field: score, counts, totals,
    precisions, brevity penalty and lengths (``length``: the name of our hypothesis length)."""
    assert ours.score == theirs.score
    assert ours.counts == theirs.counts
    assert ours.totals == theirs.totals
    assert ours.precisions == theirs.precisions
    assert (ours.bp, getattr(ours, length), ours.ref_len) == (
        theirs.bp,
        theirs.sys_len,
        theirs.ref_len,
    )
