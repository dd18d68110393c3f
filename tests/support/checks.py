"""Comparisons of bleuprint with an upstream that several test files make."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

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
