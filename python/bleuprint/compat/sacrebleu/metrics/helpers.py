"""``sacrebleu.metrics.helpers``: n-gram counters as sacrebleu returns them, counted by
bleuprint's core (``bleu_ngram_details``, the n-gram lister behind ``explain``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bleuprint.errors import InputTypeError, InvalidOptionError
from bleuprint.metrics.bleu.counting import ngram_details


def check_text(name: str, value: object) -> str:
    """``value`` if it is a str, else :class:`InputTypeError`."""
    if not isinstance(value, str):
        raise InputTypeError(f"{name} must be a str, got {type(value).__name__}")
    return value


def check_tokens(name: str, tokens: object) -> list[str]:
    """``tokens`` as a list if it is a list or tuple of str, else :class:`InputTypeError`."""
    if not isinstance(tokens, (list, tuple)):
        raise InputTypeError(f"{name} must be a list of str, got {type(tokens).__name__}")
    for k, token in enumerate(tokens):
        check_text(f"{name}[{k}]", token)
    return list(tokens)


def _orders(tokens: Sequence[str], max_order: int) -> list[Counter[tuple[str, ...]]]:
    """One Counter per order ``1..max_order``, keys in order of first occurrence."""
    if isinstance(max_order, bool) or not isinstance(max_order, int):
        raise InputTypeError(f"the order must be an int, got {type(max_order).__name__}")
    if max_order < 1:
        return []
    details = ngram_details(list(tokens), [], max_order)
    return [Counter({gram: count for gram, count, _, _ in order}) for order in details]


def _check_order(name: str, n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidOptionError(f"{name} must be an int >= 1, got {n!r}")


def extract_all_word_ngrams(
    line: str, min_order: int, max_order: int
) -> tuple[Counter[tuple[str, ...]], int]:
    """Word n-grams of orders ``min_order..max_order`` of ``line`` (split on whitespace) and
    its number of words."""
    if isinstance(min_order, bool) or not isinstance(min_order, int):
        raise InputTypeError(f"min_order must be an int, got {type(min_order).__name__}")
    tokens = check_text("line", line).split()
    ngrams: Counter[tuple[str, ...]] = Counter()
    for n, counts in enumerate(_orders(tokens, max_order), start=1):
        if n >= min_order:
            ngrams.update(counts)
    return ngrams, len(tokens)


def extract_word_ngrams(tokens: list[str], n: int) -> Counter[str]:
    """The order-``n`` n-grams of a token list, each as its tokens joined by spaces (chrF++'s
    word n-grams)."""
    _check_order("n", n)
    return _joined(_orders(check_tokens("tokens", tokens), n)[n - 1], " ")


def _joined(counts: Counter[tuple[str, ...]], separator: str) -> Counter[str]:
    # Two n-grams can join to one string (tokens holding the separator): their counts add up.
    joined: Counter[str] = Counter()
    for gram, count in counts.items():
        joined[separator.join(gram)] += count
    return joined


def _characters(line: str, include_whitespace: bool) -> list[str]:
    check_text("line", line)
    return list(line if include_whitespace else "".join(line.split()))


def extract_char_ngrams(line: str, n: int, include_whitespace: bool = False) -> Counter[str]:
    """The order-``n`` character n-grams of ``line`` (whitespace removed unless
    ``include_whitespace``)."""
    _check_order("n", n)
    return _joined(_orders(_characters(line, include_whitespace), n)[n - 1], "")


def extract_all_char_ngrams(
    line: str, max_order: int, include_whitespace: bool = False
) -> list[Counter[str]]:
    """Character n-grams of orders ``1..max_order``, one Counter per order."""
    return [
        _joined(counts, "") for counts in _orders(_characters(line, include_whitespace), max_order)
    ]


__all__ = [
    "extract_all_char_ngrams",
    "extract_all_word_ngrams",
    "extract_char_ngrams",
    "extract_word_ngrams",
]
