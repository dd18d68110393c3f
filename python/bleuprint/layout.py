"""Validation of the hypothesis/reference layout: the most common silent error in this field.

References are a list of *streams*, as in sacrebleu: ``references[k][i]`` is the k-th reference
of segment ``i``, and every stream holds one item per hypothesis. ``None`` drops that reference
for that segment; ``""`` is a real, empty reference. Nothing is ever truncated.

Only the containers are checked here, in O(number of streams). The item types are checked by
the core as it reads them, and its errors name the position (``references[1][5] must be str or
None, got int``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bleuprint.errors import InvalidInputError, ReferenceLayoutError

_STREAMS_HINT = (
    "references must be a list of reference streams, one stream per reference set, each "
    "holding one string per hypothesis: references[k][i] is reference k of segment i, e.g. "
    "hypotheses=['h1', 'h2'], references=[['r1 of h1', 'r1 of h2'], ['r2 of h1', 'r2 of h2']]"
)


def _type_name(obj: Any) -> str:
    return type(obj).__name__


def as_text_sequence(value: Any, name: str) -> Sequence[Any]:
    """Returns ``value`` as a sequence of lines, or raises TypeError naming ``name``."""
    if isinstance(value, (str, bytes)):
        raise TypeError(
            f"{name} must be a sequence of str (one item per segment), got a single "
            f"{_type_name(value)}; wrap it in a list: [{name}]"
        )
    if isinstance(value, (list, tuple)):
        return value
    if hasattr(value, "tolist") and hasattr(value, "ndim"):  # numpy array of str
        if value.ndim != 1:
            raise TypeError(f"{name} must be one-dimensional, got an array of shape {value.shape}")
        return value.tolist()
    if isinstance(value, Sequence):
        return value
    try:
        return list(value)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of str, got {_type_name(value)}") from None


def check_hypotheses(hypotheses: Any) -> Sequence[Any]:
    """Validates the hypothesis container."""
    return as_text_sequence(hypotheses, "hypotheses")


def check_references(references: Any, n_hypotheses: int) -> list[Sequence[Any]]:
    """Validates reference streams against the number of hypotheses.

    Raises
    ------
    ReferenceLayoutError
        For a flat ``list[str]`` or anything that is not a list of streams.
    InvalidInputError
        When a stream's length differs from the number of hypotheses, or there is no stream.
    """
    if isinstance(references, (str, bytes)):
        raise ReferenceLayoutError(f"{_STREAMS_HINT}; got a single {_type_name(references)}")
    streams = as_text_sequence(references, "references")
    if len(streams) == 0:
        raise InvalidInputError("references is empty: give at least one reference stream")
    checked = []
    for k, stream in enumerate(streams):
        if isinstance(stream, str):
            raise ReferenceLayoutError(
                f"{_STREAMS_HINT}. references[{k}] is a str, so references looks like a flat "
                f"list of strings; for one reference per segment pass references=[refs]"
            )
        if stream is None or not hasattr(stream, "__len__"):
            raise ReferenceLayoutError(
                f"{_STREAMS_HINT}; references[{k}] is a {_type_name(stream)}"
            )
        stream = as_text_sequence(stream, f"references[{k}]")
        if len(stream) != n_hypotheses:
            raise InvalidInputError(
                f"reference stream {k} has {len(stream)} segments but there are {n_hypotheses} "
                f"hypotheses; every stream needs one item per hypothesis (use None to drop a "
                f"reference for one segment)"
            )
        checked.append(stream)
    return checked


def count_references(streams: list[Sequence[Any]]) -> int:
    """sacrebleu's ``num_refs``: the references per segment, or -1 if that varies (``None``)."""
    if not any(None in stream for stream in streams):
        return len(streams)
    counts = {sum(s[i] is not None for s in streams) for i in range(len(streams[0]))}
    return counts.pop() if len(counts) == 1 else -1
