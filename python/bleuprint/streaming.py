"""Corpus statistics of inputs too large to hold: the hypotheses and reference streams are read
chunk by chunk, each chunk counted in the core, and only its statistics kept, as rows or as
their running sum. The result equals the in-memory ``metric.stats(...)`` / ``corpus_score``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any, Union

from bleuprint.errors import InputDecodeError, InputTypeError, InvalidInputError, InvalidOptionError
from bleuprint.progress import Progress, reporter

if TYPE_CHECKING:
    import numpy as np

    from bleuprint.metrics.metric import Metric
    from bleuprint.stats import Stats

#: A stream: a file path (``.gz`` is decompressed), an open file, or any iterable of strings.
Source = Union[str, "os.PathLike[str]", Iterable[Any]]

DEFAULT_CHUNK_SIZE = 65536
KEEP = ("rows", "sum")


def lines_of(source: Any, what: str, encoding: str = "utf-8") -> Iterator[str]:
    """The lines of ``source``. Files (paths, open text or binary files) give their lines as
    ``read_lines`` and the command line read them (split on ``\\n``, right-stripped); any other
    iterable gives its strings as they are."""
    if isinstance(source, (str, os.PathLike)):
        return _file_lines(os.fspath(source), encoding)
    if isinstance(source, (bytes, bytearray)) or not isinstance(source, Iterable):
        raise InputTypeError(
            f"{what} must be a file path, an open file or an iterable of strings, got "
            f"{type(source).__name__}"
        )
    if hasattr(source, "read"):  # an open file: its lines, as read_lines would give them
        return _stripped(source, what, encoding)
    return iter(source)


def _file_lines(path: str, encoding: str) -> Iterator[str]:
    import gzip

    opener: Any = gzip.open if path.endswith(".gz") else open
    if "\n".encode(encoding) == b"\n":  # ASCII-compatible: lines end at the byte b"\n"
        with opener(path, "rb") as f:
            yield from _stripped(f, path, encoding)
    else:  # UTF-16 and the like: decode first, then split on "\n" only
        with opener(path, "rt", encoding=encoding, newline="\n") as f:
            try:
                yield from _stripped(f, path, encoding)
            except UnicodeDecodeError as e:
                raise InputDecodeError(f"{path}: invalid {encoding} ({e.reason})") from None


def _stripped(lines: Iterable[Any], name: str, encoding: str) -> Iterator[str]:
    # Binary lines end at b"\n" only, as split_lines splits; text files are opened by the
    # caller, whose newline setting decides.
    for number, line in enumerate(lines, 1):
        if isinstance(line, bytes):
            try:
                line = line.decode(encoding)
            except UnicodeDecodeError as e:
                raise InputDecodeError(
                    f"{name}: invalid {encoding} on line {number} at byte {e.start}"
                ) from None
        yield line.rstrip()


def chunks(
    hypotheses: Source, references: Sequence[Source], chunk_size: int, encoding: str
) -> Iterator[tuple[list[str], list[list[str]]]]:
    """``(hypotheses, reference streams)`` of at most ``chunk_size`` segments at a time; a
    stream that ends before the others is an error naming it."""
    if isinstance(references, (str, os.PathLike)) or not isinstance(references, Sequence):
        raise InputTypeError(
            "references must be a list of reference streams (e.g. ['ref.txt']), got "
            f"{type(references).__name__}"
        )
    if not references:
        raise InvalidInputError("references is empty: give at least one reference stream")
    names = ["hypotheses", *(f"references[{k}]" for k in range(len(references)))]
    streams = [lines_of(s, n, encoding) for s, n in zip([hypotheses, *references], names)]
    done = 0
    while True:
        parts = [list(islice(s, chunk_size)) for s in streams]
        lengths = {len(p) for p in parts}
        if len(lengths) > 1:
            counts = ", ".join(f"{n} {done + len(p)}" for n, p in zip(names, parts))
            raise InvalidInputError(f"the streams have different lengths: {counts} lines")
        if not parts[0]:
            return
        done += len(parts[0])
        yield parts[0], parts[1:]


def _from_sums(metric: Metric[Any]) -> bool:
    """Whether the metric's corpus score depends on its rows' sums only."""
    return bool(getattr(metric.config, "corpus_from_sums", False))


def stream_stats(
    metric: Metric[Any],
    hypotheses: Source,
    references: Sequence[Source],
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    keep: str = "rows",
    progress: Progress = None,
    encoding: str = "utf-8",
) -> Stats:
    """``metric.stats`` of streams, counted ``chunk_size`` segments at a time. ``keep="rows"``
    keeps every segment's row (for bootstrap and paired tests); ``keep="sum"`` keeps only the
    running column sums, returned as one row whose corpus score is the stream's."""
    import numpy as np

    from bleuprint.stats import Stats

    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise InvalidOptionError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    if keep not in KEEP:
        raise InvalidOptionError(f"keep must be 'rows' or 'sum', got {keep!r}")
    if keep == "sum" and not _from_sums(metric):
        raise InvalidOptionError(
            f"keep='sum' needs a metric whose corpus score is the score of the summed rows; "
            f"{type(metric).__name__}'s adds per-segment values in order, so keep='rows'"
        )
    chunk_size = min(chunk_size, sys.maxsize)  # islice's limit; larger means the whole stream
    report = reporter(progress, total=None, what="stream", unit="lines")
    rows: list[np.ndarray] = []
    total = None
    nrefs: set[int] = set()
    done = 0
    for hyps, streams in chunks(hypotheses, references, chunk_size, encoding):
        stats = metric.stats(hyps, streams)
        nrefs.add(stats.nrefs)
        if keep == "rows":
            rows.append(stats.rows)
        else:
            part = stats.sum()
            total = part if total is None else total + part
        done += len(hyps)
        if report is not None:
            report(done, None)
    if done == 0:  # the in-memory path's answer for no segments (an error, or empty stats)
        return metric.stats([], [[] for _ in references])
    n = nrefs.pop() if len(nrefs) == 1 else -1
    metric.num_refs = n
    if keep == "rows":
        return Stats._trusted(np.concatenate(rows), metric.config, n)
    return Stats._trusted(np.asarray(total, dtype=np.int64)[None, :], metric.config, n)


def stream_score(
    metric: Metric[Any],
    hypotheses: Source,
    references: Sequence[Source],
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    progress: Progress = None,
    encoding: str = "utf-8",
) -> Any:
    """The corpus score of streams: running sums where the metric allows (BLEU, chrF, WER),
    rows otherwise (TER)."""
    keep = "sum" if _from_sums(metric) else "rows"
    stats = stream_stats(
        metric, hypotheses, references, chunk_size=chunk_size, keep=keep, progress=progress,
        encoding=encoding,
    )  # fmt: skip
    return stats.score()


__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "KEEP",
    "Source",
    "chunks",
    "lines_of",
    "stream_score",
    "stream_stats",
]
