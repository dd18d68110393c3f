"""Validation of the hypothesis/reference layout: the most common silent error in this field.

References are a list of *streams*, as in sacrebleu: ``references[k][i]`` is the k-th reference
of segment ``i``, and every stream holds one item per hypothesis. ``None`` drops that reference
for that segment; ``""`` is a real, empty reference. Nothing is ever truncated.

Only the containers are checked here, in O(number of streams). The item types are checked by
the core as it reads them, and its errors name the position (``references[1][5] must be str or
None, got int``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence, Set
from contextlib import AbstractContextManager
from typing import Any, Optional

from bleuprint import _core
from bleuprint.errors import InputTypeError, InvalidInputError, ReferenceLayoutError

_STREAMS_HINT = (
    "references must be a list of reference streams, one stream per reference set, each "
    "holding one string per hypothesis: references[k][i] is reference k of segment i, e.g. "
    "hypotheses=['h1', 'h2'], references=[['r1 of h1', 'r1 of h2'], ['r2 of h1', 'r2 of h2']]"
)

#: What a stream of lines may be; named in every container error.
#: The containers every check passes untouched (exact types: subclasses are checked).
_PLAIN = (list, tuple)

ACCEPTED_FORMS = (
    "a list or tuple of str, a 1-D numpy array, a pandas Series (e.g. a DataFrame column) "
    "or a pyarrow Array/ChunkedArray of strings"
)


def _type_name(obj: Any) -> str:
    return type(obj).__name__


def _module_of(obj: Any) -> str:
    return type(obj).__module__.partition(".")[0]


def _is_dataframe(value: Any) -> bool:
    return _module_of(value) == "pandas" and hasattr(value, "columns")


def as_text_sequence(value: Any, name: str) -> Sequence[Any]:
    """Returns ``value`` as a sequence of lines, or raises :class:`InputTypeError` naming
    ``name`` and the accepted forms.

    Lists and tuples pass through untouched (no copy: the core copies what it reads). Arrays,
    Series and Arrow arrays become lists. Containers without a defined order or length (sets,
    dicts, iterators) are refused: their score would depend on hash seeds or be consumed.
    """
    if isinstance(value, (list, tuple)):
        return value
    if isinstance(value, (str, bytes)):
        raise InputTypeError(
            f"{name} must be a sequence of str (one item per segment), got a single "
            f"{_type_name(value)}; wrap it in a list: [{name}]"
        )
    if isinstance(value, (Set, Mapping)):
        raise InputTypeError(
            f"{name} must be an ordered sequence, got a {_type_name(value)}, whose order is "
            f"not the segments' order; pass {ACCEPTED_FORMS}"
        )
    if _is_dataframe(value):
        raise InputTypeError(
            f"{name} is a whole pandas DataFrame; pass one column, e.g. df['column'] "
            f"(references: one column per stream, [df[c] for c in columns])"
        )
    if _module_of(value) == "pyarrow" and hasattr(value, "to_pylist"):
        return value.to_pylist()
    if hasattr(value, "tolist") and hasattr(value, "ndim"):  # numpy array, pandas Series
        if value.ndim != 1:
            raise InputTypeError(
                f"{name} must be one-dimensional (one item per segment), got an array of "
                f"shape {value.shape}"
            )
        return value.tolist()
    if isinstance(value, Sequence):
        return value
    if isinstance(value, Iterator):
        raise InputTypeError(
            f"{name} is a {_type_name(value)} (a one-shot iterator of unknown length); pass "
            f"{ACCEPTED_FORMS}, e.g. {name}=list(...)"
        )
    raise InputTypeError(f"{name} must be {ACCEPTED_FORMS}; got {_type_name(value)}")


def check_hypotheses(hypotheses: Any) -> Sequence[Any]:
    """Validates the hypothesis container."""
    return as_text_sequence(hypotheses, "hypotheses")


def _reference_streams(references: Any) -> Sequence[Any]:
    """The streams of ``references``: a sequence of streams, or a 2-D array whose rows are
    the streams (shape ``(n_refs, n_segments)``)."""
    if type(references) in _PLAIN:  # the usual list of streams: none of the checks below apply
        return references  # type: ignore[no-any-return]
    if isinstance(references, (str, bytes)):
        raise ReferenceLayoutError(f"{_STREAMS_HINT}; got a single {_type_name(references)}")
    if _is_dataframe(references):
        raise InputTypeError(
            f"{_STREAMS_HINT}. A whole pandas DataFrame would be read by its column names; "
            f"pass its columns as streams: references=[df[c] for c in ['ref1', 'ref2']]"
        )
    if hasattr(references, "ndim") and hasattr(references, "tolist") and references.ndim != 1:
        if references.ndim != 2:
            raise InputTypeError(
                f"{_STREAMS_HINT}; an array of references must have shape (n_refs, "
                f"n_segments), got {references.shape}"
            )
        return references.tolist()  # numpy: references[k][i], one row per stream
    return as_text_sequence(references, "references")


def check_references(references: Any, n_hypotheses: Optional[int]) -> list[Sequence[Any]]:
    """Validates reference streams against the number of hypotheses (``None``: the streams
    need only agree with each other, for references given before any hypotheses).

    Raises
    ------
    ReferenceLayoutError
        For a flat ``list[str]`` or anything that is not a list of streams.
    InputTypeError
        For a container without a defined order or length (set, dict, iterator, DataFrame).
    InvalidInputError
        When a stream's length differs from the number of hypotheses, or there is no stream.
    """
    streams = _reference_streams(references)
    if len(streams) == 0:
        raise InvalidInputError("references is empty: give at least one reference stream")
    checked: list[Sequence[Any]] = []
    for k, stream in enumerate(streams):
        if type(stream) not in _PLAIN:  # a list or tuple needs none of these checks
            stream = _reference_stream(stream, k)
        if n_hypotheses is None:  # references given alone: streams agree with stream 0
            expected, what = (len(checked[0]), "reference stream 0 has") if checked else (None, "")
        else:
            expected, what = n_hypotheses, "there are"
        if expected is not None and len(stream) != expected:
            raise InvalidInputError(
                f"reference stream {k} has {len(stream)} segments but {what} {expected}"
                f"{' hypotheses' if n_hypotheses is not None else ''}; every stream needs one "
                f"item per hypothesis (use None to drop a reference for one segment)"
            )
        checked.append(stream)
    return checked


def _reference_stream(stream: Any, k: int) -> Sequence[Any]:
    """Reference stream ``k`` as a sequence of lines (see :func:`as_text_sequence`)."""
    if isinstance(stream, str):
        raise ReferenceLayoutError(
            f"{_STREAMS_HINT}. references[{k}] is a str, so references looks like a flat "
            f"list of strings; for one reference per segment pass references=[refs]"
        )
    if stream is None or not (hasattr(stream, "__len__") or isinstance(stream, Iterator)):
        raise ReferenceLayoutError(f"{_STREAMS_HINT}; references[{k}] is a {_type_name(stream)}")
    return as_text_sequence(stream, f"references[{k}]")


def count_references(streams: list[Sequence[Any]]) -> int:
    """sacrebleu's ``num_refs``: the references per segment, or -1 if that varies (``None``).

    The core's count, the same one its statistics bindings report."""
    return _core.references_per_segment(streams)


# Searched only on error paths; `re` compiles it on first use (not at import: start-up time).
_LONE_SURROGATE = "[\ud800-\udfff]"


def naming_lone_surrogates(
    named_streams: Iterable[tuple[str, Sequence[Any]]],
) -> AbstractContextManager[None]:
    """Names text with a lone surrogate by its position in ``named_streams``.

    The core refuses such text itself (``InvalidInputError`` naming the position in what it
    was given, which is the caller's position for the metrics' own streams); SentencePiece
    raises UnicodeEncodeError, and MeCab sees only the lines missing from its cache, so its
    positions are not the caller's. Either error becomes :func:`lone_surrogate_error`; any
    other ``InvalidInputError`` passes through (the text is scanned only after an error)."""
    return _NamingLoneSurrogates(named_streams)


class _NamingLoneSurrogates(AbstractContextManager[None]):
    # A class, not a @contextmanager generator: it wraps every scoring call, and a generator's
    # set-up costs a few microseconds of a sentence score.
    __slots__ = ("named_streams",)

    def __init__(self, named_streams: Iterable[tuple[str, Sequence[Any]]]) -> None:
        self.named_streams = named_streams

    def __exit__(
        self, kind: Optional[type[BaseException]], error: Optional[BaseException], _: Any
    ) -> None:
        if kind is None:
            return
        if issubclass(kind, UnicodeEncodeError):
            raise lone_surrogate_error(self.named_streams) from None
        if issubclass(kind, InvalidInputError):
            named = _first_lone_surrogate(self.named_streams)
            if named is not None:
                raise named from error


def lone_surrogate_error(named_streams: Iterable[tuple[str, Sequence[Any]]]) -> InvalidInputError:
    """The error for text that cannot be encoded as UTF-8, naming the first item holding a
    lone surrogate (``hypotheses[3]``); ``named_streams`` pairs a name with its lines."""
    named = _first_lone_surrogate(named_streams)
    if named is None:
        return InvalidInputError("the input cannot be encoded as UTF-8 (a lone surrogate)")
    return named


def holds_lone_surrogate(lines: Sequence[Any]) -> bool:
    """Whether some str of ``lines`` holds a lone surrogate (text that cannot be UTF-8)."""
    return _first_lone_surrogate([("lines", lines)]) is not None


def _first_lone_surrogate(
    named_streams: Iterable[tuple[str, Sequence[Any]]],
) -> Optional[InvalidInputError]:
    for name, lines in named_streams:
        for i, line in enumerate(lines):
            found = re.search(_LONE_SURROGATE, line) if isinstance(line, str) else None
            if found:
                # The core's wording (src/python/convert.rs), so both read the same.
                return InvalidInputError(
                    f"{name}[{i}] holds a lone surrogate {found.group()!r} at character "
                    f"{found.start()}, which is not text (it cannot be encoded as UTF-8); "
                    "decode the input with errors='replace' or fix the source"
                )
    return None
