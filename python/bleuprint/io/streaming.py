"""Corpus statistics of inputs too large to hold: the hypotheses and reference streams are read
chunk by chunk, each chunk counted in the core, and only its statistics kept, as rows or as
their running sum. The result equals the in-memory ``metric.stats(...)`` / ``corpus_score``.

Every chunked input (text streams here, tables in :mod:`bleuprint.io.tables`) is a sequence of
:class:`Chunk`; :func:`count_chunks` folds them into one :class:`~bleuprint.Stats`, and
:func:`count_groups` into one per group key.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from itertools import chain, islice
from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Union

from bleuprint.errors import (
    BleuprintError,
    InputDecodeError,
    InputTypeError,
    InvalidInputError,
    InvalidOptionError,
)
from bleuprint.io.files import is_utf8
from bleuprint.io.line_reader import BlockReader, file_lines, line_blocks, take_together
from bleuprint.io.progress import Progress, ProgressCallback, reporter
from bleuprint.metrics.stats import Stats, StatsAccumulator

if TYPE_CHECKING:
    from bleuprint.metrics.protocol import CountingMetric

#: A stream: a file path (compressed ones are decompressed), an open file, or any iterable of
#: strings.
Source = Union[str, "os.PathLike[str]", Iterable[Any]]

DEFAULT_CHUNK_SIZE = 65536
#: Bytes of text a chunk of UTF-8 files holds, shared by its streams: one chunk of
#: ``DEFAULT_CHUNK_SIZE`` WMT-like lines and one reference is about 13 MB, and counting it
#: took the leaderboard's WER to 130 MB. Cut at this budget (about 10,000 such lines a
#: stream), a stream of any length and any line length is counted in under 100 MB.
CHUNK_BYTES = 2 << 20
KEEP = ("rows", "sum")

_BOM = "\ufeff"


class Chunk(NamedTuple):
    """A chunk of segments: hypotheses, reference streams (``references[k][i]``) and, for
    grouped scores, one group key per segment. ``locate`` is called when the core refuses the
    chunk; it returns an error that names the offending row in the whole input (or None)."""

    hypotheses: list[Any]
    references: list[list[Any]]
    keys: Optional[list[Any]] = None
    locate: Optional[Callable[[], Optional[BleuprintError]]] = None


def lines_of(source: Any, what: str, encoding: str = "utf-8") -> Iterator[str]:
    """The lines of ``source``. Files (paths, open binary files) give their lines as
    ``read_lines`` and the command line read them (split on ``\\n``, right-stripped, a leading
    byte order mark removed), read a block at a time; an open text file gives its lines (as
    its own newline setting splits them) right-stripped; any other iterable gives its strings
    as they are."""
    if isinstance(source, (str, os.PathLike)):
        return _OwnedLines(file_lines(source, encoding))
    if isinstance(source, (bytes, bytearray)) or not isinstance(source, Iterable):
        raise InputTypeError(
            f"{what} must be a file path, an open file or an iterable of strings, got "
            f"{type(source).__name__}"
        )
    if isinstance(source, (io.RawIOBase, io.BufferedIOBase)):
        read = getattr(source, "read1", source.read)
        return chain.from_iterable(line_blocks(read, encoding, what, universal=False))
    if hasattr(source, "read"):  # an open text file (or a file-like object)
        return _stripped(source, what, encoding)
    return iter(source)


class _OwnedLines(Iterator[str]):
    """The lines of a file this module opened from a path: closed when the stream ends."""

    def __init__(self, lines: Iterator[str]) -> None:
        self._lines = lines

    def __next__(self) -> str:
        return next(self._lines)

    def close(self) -> None:
        close = getattr(self._lines, "close", None)
        if close is not None:
            close()


def _stripped(lines: Iterable[Any], name: str, encoding: str) -> Iterator[str]:
    for number, line in enumerate(lines, 1):
        if isinstance(line, bytes):
            try:
                line = line.decode(encoding)
            except UnicodeDecodeError as e:
                raise InputDecodeError(
                    f"{name}: invalid {encoding} on line {number} at byte {e.start}"
                ) from None
        if number == 1 and line.startswith(_BOM):  # as read_lines: the mark is not text
            line = line[1:]
        yield line.rstrip()


def _check_references(references: Any) -> None:
    if isinstance(references, (str, os.PathLike)) or not isinstance(references, Sequence):
        raise InputTypeError(
            "references must be a list of reference streams (e.g. ['ref.txt']), got "
            f"{type(references).__name__}"
        )
    if not references:
        raise InvalidInputError("references is empty: give at least one reference stream")


def chunks(
    hypotheses: Source, references: Sequence[Source], chunk_size: int, encoding: str
) -> Iterator[Chunk]:
    """Chunks of at most ``chunk_size`` segments of the streams; a stream that ends before the
    others is an error naming every stream's length."""
    _check_references(references)
    names = ["hypotheses", *(f"references[{k}]" for k in range(len(references)))]
    streams = [lines_of(s, n, encoding) for s, n in zip([hypotheses, *references], names)]
    return _stream_chunks(streams, names, chunk_size)


def file_chunks(
    hypotheses: Source, references: Sequence[Source], chunk_size: int, encoding: str
) -> Optional[Iterator[Chunk]]:
    """When every stream is a UTF-8 file: chunks of :class:`LineBlock` s, blocks of whole lines
    that the core splits and counts itself (the text never becomes Python strings; equal to
    :func:`chunks`). ``None`` for any other input."""
    _check_references(references)
    paths = [s for s in (hypotheses, *references) if isinstance(s, (str, os.PathLike))]
    if not is_utf8(encoding) or len(paths) != 1 + len(references):
        return None
    readers = [BlockReader(path) for path in paths]
    names = ["hypotheses", *(f"references[{k}]" for k in range(len(references)))]
    return _block_chunks(readers, names, chunk_size)


def _block_chunks(readers: list[BlockReader], names: list[str], size: int) -> Iterator[Chunk]:
    done = 0
    try:
        while True:
            parts = take_together(readers, size, CHUNK_BYTES // len(readers))
            if len({len(p) for p in parts}) > 1:
                counts = ", ".join(f"{n} {done + len(p)}" for n, p in zip(names, parts))
                raise InvalidInputError(f"the streams have different lengths: {counts} lines")
            if not parts[0]:
                return
            yield Chunk(parts[0], parts[1:])  # type: ignore[arg-type]  # blocks stand for lists
            done += len(parts[0])
    finally:
        for reader in readers:
            reader.close()


def _stream_chunks(streams: list[Iterator[Any]], names: list[str], size: int) -> Iterator[Chunk]:
    done = 0
    try:
        while True:
            parts = [list(islice(s, size)) for s in streams]
            lengths = {len(p) for p in parts}
            if len(lengths) > 1:
                counts = ", ".join(f"{n} {done + len(p)}" for n, p in zip(names, parts))
                raise InvalidInputError(f"the streams have different lengths: {counts} lines")
            if not parts[0]:
                return
            yield Chunk(parts[0], parts[1:], None, _stream_locator(parts, names, done))
            done += len(parts[0])
    finally:  # files this module opened (from paths) close now, even when a chunk fails
        for stream in streams:
            if isinstance(stream, _OwnedLines):
                stream.close()


def _stream_locator(
    parts: list[list[Any]], names: list[str], start: int
) -> Callable[[], Optional[BleuprintError]]:
    def locate() -> Optional[BleuprintError]:
        found = first_refused(parts[0], parts[1:])
        if found is None:
            return None
        i, k, value = found
        if k == -1:
            return InvalidInputError(
                f"segment {start + i} has no references: every reference stream holds None there"
            )
        return InputTypeError(
            f"{names[0 if k is None else k + 1]}[{start + i}] must be str"
            f"{'' if k is None else ' or None'}, got {type(value).__name__}"
        )

    return locate


def first_refused(
    hypotheses: Sequence[Any], references: Sequence[Sequence[Any]]
) -> Optional[tuple[int, Optional[int], Any]]:
    """The first segment the core refuses for its item types or for having no reference:
    ``(index, stream, value)``, where stream is None for the hypothesis, ``k`` for reference
    stream ``k``, and -1 when every reference is None. None when none is refused."""
    for i, hypothesis in enumerate(hypotheses):
        if not isinstance(hypothesis, str):
            return i, None, hypothesis
        present = False
        for k, stream in enumerate(references):
            cell = stream[i]
            if cell is not None:
                if not isinstance(cell, str):
                    return i, k, cell
                present = True
        if not present:
            return i, -1, None
    return None


def _check_options(metric: CountingMetric, chunk_size: int, keep: str) -> int:
    """``chunk_size`` checked (and capped at islice's limit; larger means the whole input)."""
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise InvalidOptionError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    if keep not in KEEP:
        raise InvalidOptionError(f"keep must be 'rows' or 'sum', got {keep!r}")
    if keep == "sum" and not from_sums(metric):
        raise InvalidOptionError(
            f"keep='sum' needs a metric whose corpus score is the score of the summed rows; "
            f"{type(metric).__name__}'s adds per-segment values in order, so keep='rows'"
        )
    return min(chunk_size, sys.maxsize)


def from_sums(metric: CountingMetric) -> bool:
    """Whether the metric's corpus score depends on its rows' sums only."""
    return bool(getattr(metric.config, "corpus_from_sums", False))


def default_keep(metric: CountingMetric) -> str:
    """What a corpus score needs to keep: running sums where the metric allows, else rows."""
    return "sum" if from_sums(metric) else "rows"


def chunk_stats(metric: CountingMetric, chunk: Chunk) -> Stats:
    """``metric.stats`` of one chunk; a chunk the core refuses is searched (``Chunk.locate``)
    so that the error names the row in the whole input, not the position in the chunk."""
    try:
        return metric.stats(chunk.hypotheses, chunk.references)
    except (InputTypeError, InvalidInputError):
        located = chunk.locate() if chunk.locate is not None else None
        if located is None:
            raise
        raise located from None


def _counted(
    metric: CountingMetric, chunks: Iterable[Chunk], report: Optional[ProgressCallback],
    total: Optional[int],
) -> Iterator[tuple[Chunk, Stats]]:  # fmt: skip
    """The shared loop: each chunk with its statistics, counted in the core one at a time."""
    done = 0
    for chunk in chunks:
        yield chunk, chunk_stats(metric, chunk)
        done += len(chunk.hypotheses)
        if report is not None:
            report(done, total)


def count_chunks(
    metric: CountingMetric,
    chunks: Iterable[Chunk],
    *,
    keep: str = "rows",
    progress: Progress = None,
    total: Optional[int] = None,
    what: str = "stream",
    unit: str = "lines",
    streams: int = 1,
    rows_file: Union[str, os.PathLike[str], None] = None,
) -> Stats:
    """The statistics of every chunk: their rows in order (``keep="rows"``; written to the
    ``.npy`` file ``rows_file`` as they come, when given) or one row of their column sums
    (``keep="sum"``). ``total`` (segments, if known) sizes the progress bar; ``streams`` is
    the number of reference streams of an input with no segments."""
    _check_options(metric, 1, keep)
    report = reporter(progress, total=total, what=what, unit=unit)
    gathered = StatsAccumulator(keep, rows_file)
    with metric._warnings_summed():
        for _, stats in _counted(metric, chunks, report, total):
            gathered.add(stats)
    if gathered.segments == 0:  # the in-memory path's answer for no segments
        return metric.stats([], [[] for _ in range(streams)])
    result = gathered.result()
    metric.num_refs = result.nrefs
    return result


def count_groups(
    metric: CountingMetric,
    chunks: Iterable[Chunk],
    *,
    keep: str = "rows",
    progress: Progress = None,
    total: Optional[int] = None,
    what: str = "groups",
    unit: str = "rows",
) -> dict[Any, Stats]:
    """The statistics of each group key (``Chunk.keys``), in the order keys are first seen:
    each group's rows in input order (``keep="rows"``), or one row of its column sums
    (``keep="sum"``), in one pass. Each equals ``metric.stats`` of that group's segments
    alone, its reference count included."""
    _check_options(metric, 1, keep)
    report = reporter(progress, total=total, what=what, unit=unit)
    gathered = GroupAccumulator(keep)
    with metric._warnings_summed():
        for chunk, stats in _counted(metric, chunks, report, total):
            gathered.add(chunk, stats)
    if gathered.nrefs is not None:
        metric.num_refs = gathered.nrefs
    return gathered.result()


class GroupAccumulator:
    """Statistics gathered a chunk at a time for each group key (``Chunk.keys``), in the order
    keys are first seen: the loop of :func:`count_groups`, for callers that count several
    metrics or systems over the same chunks (the command line)."""

    def __init__(self, keep: str = "rows") -> None:
        if keep not in KEEP:
            raise InvalidOptionError(f"keep must be 'rows' or 'sum', got {keep!r}")
        self.keep = keep
        self.segments = 0
        self._index: dict[Any, int] = {}  # key -> group number, in first-seen order
        self._nrefs: list[set[int]] = []
        self._parts: list[list[Any]] = []  # keep="rows": each group's rows, chunk by chunk
        self._sums: Any = None  # keep="sum": (groups, width)
        self._config: Any = None

    def add(self, chunk: Chunk, stats: Stats) -> None:
        """Adds a chunk's statistics (``stats`` of ``chunk``), row by row to their groups."""
        import numpy as np

        ids = _group_ids(chunk, self._index)
        self._config = stats.config
        self.segments += len(ids)
        while len(self._nrefs) < len(self._index):
            self._nrefs.append(set())
            self._parts.append([])
        _reference_counts(chunk, stats.nrefs, ids, self._nrefs)
        if self.keep == "sum":
            sums = self._sums
            if sums is None or sums.shape[0] < len(self._index):
                grown = np.zeros((len(self._index), stats.rows.shape[1]), dtype=np.int64)
                if sums is not None:
                    grown[: sums.shape[0]] = sums
                self._sums = sums = grown
            np.add.at(sums, ids, stats.rows)
        else:
            order = np.argsort(ids, kind="stable")  # keeps each group's rows in order
            cuts = np.flatnonzero(np.diff(ids[order])) + 1
            for run in np.split(order, cuts):
                if len(run):
                    self._parts[int(ids[run[0]])].append(stats.rows[run])

    @property
    def nrefs(self) -> Optional[int]:
        """References per segment over every group, -1 where it varies (None: no segments)."""
        every = {n for counts in self._nrefs for n in counts}
        if not every:
            return None
        return every.pop() if len(every) == 1 else -1

    def result(self) -> dict[Any, Stats]:
        """``{key: Stats}``: each group's rows, or one row of their sums."""
        import numpy as np

        groups: dict[Any, Stats] = {}
        for key, g in self._index.items():
            n = next(iter(self._nrefs[g])) if len(self._nrefs[g]) == 1 else -1
            if self._sums is not None:  # keep="sum" (a group exists only after a chunk)
                rows = self._sums[g : g + 1].copy()
            else:
                parts = self._parts[g]
                rows = parts[0] if len(parts) == 1 else np.concatenate(parts)
            groups[key] = Stats._trusted(rows, self._config, n)
        return groups


def _group_ids(chunk: Chunk, index: dict[Any, int]) -> Any:
    """Each segment's group number; new keys are numbered as they are first seen."""
    import numpy as np

    keys = chunk.keys
    if keys is None or len(keys) != len(chunk.hypotheses):
        raise InvalidInputError("grouped statistics need one group key per segment")
    try:
        # setdefault's default, len(index), is the next number exactly when the key is new.
        return np.fromiter(
            (index.setdefault(k, len(index)) for k in keys), dtype=np.intp, count=len(keys)
        )
    except TypeError:
        located = chunk.locate() if chunk.locate is not None else None
        if located is not None:
            raise located from None
        bad = next(k for k in keys if not isinstance(k, Hashable))
        raise InputTypeError(
            f"group keys must be hashable (str, int, tuple, None...), got {type(bad).__name__}"
        ) from None


def _reference_counts(chunk: Chunk, chunk_nrefs: int, ids: Any, nrefs: list[set[int]]) -> None:
    """Adds the references per segment of each group in the chunk to ``nrefs``."""
    import numpy as np

    if chunk_nrefs != -1:  # one count for every segment of the chunk: no need to look
        for g in np.unique(ids):
            nrefs[int(g)].add(chunk_nrefs)
        return
    counts = np.zeros(len(ids), dtype=np.intp)
    for stream in chunk.references:
        counts += np.fromiter((r is not None for r in stream), dtype=bool, count=len(ids))
    for g, n in set(zip(ids.tolist(), counts.tolist())):
        nrefs[g].add(n)


def grouped_chunks(
    hypotheses: Source,
    references: Sequence[Source],
    groups: Source,
    chunk_size: int,
    encoding: str,
) -> Iterator[Chunk]:
    """:func:`chunks` of the streams, each with its segments' keys from ``groups`` (any
    iterable of hashable values, or a file of one key per line)."""
    keys = lines_of(groups, "groups", encoding)
    for chunk in chunks(hypotheses, references, chunk_size, encoding):
        part = list(islice(keys, len(chunk.hypotheses)))
        if len(part) < len(chunk.hypotheses):
            raise InvalidInputError(
                "groups ends before the hypotheses: give one group key per segment"
            )
        yield chunk._replace(keys=part)
    if next(keys, _END) is not _END:
        raise InvalidInputError("groups has more keys than there are hypotheses")


_END = object()


def stream_stats(
    metric: CountingMetric,
    hypotheses: Source,
    references: Sequence[Source],
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    keep: str = "rows",
    progress: Progress = None,
    encoding: str = "utf-8",
    rows_file: Union[str, os.PathLike[str], None] = None,
) -> Stats:
    """``metric.stats`` of streams, counted ``chunk_size`` segments at a time. ``keep="rows"``
    keeps every segment's row (for bootstrap and paired tests), in memory or, with
    ``rows_file``, in an ``.npy`` file written as they come; ``keep="sum"`` keeps only the
    running column sums, returned as one row whose corpus score is the stream's."""
    size = _check_options(metric, chunk_size, keep)
    parts = file_chunks(hypotheses, references, size, encoding)
    if parts is None:
        parts = chunks(hypotheses, references, size, encoding)
    return count_chunks(
        metric, parts, keep=keep, progress=progress, streams=len(references), rows_file=rows_file
    )


def stream_score(
    metric: CountingMetric,
    hypotheses: Source,
    references: Sequence[Source],
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    progress: Progress = None,
    encoding: str = "utf-8",
) -> Any:
    """The corpus score of streams: running sums where the metric allows (BLEU, chrF, WER),
    rows otherwise (TER)."""
    stats = stream_stats(
        metric, hypotheses, references, chunk_size=chunk_size, keep=default_keep(metric),
        progress=progress, encoding=encoding,
    )  # fmt: skip
    return stats.score()


def stream_grouped_stats(
    metric: CountingMetric,
    hypotheses: Source,
    references: Sequence[Source],
    groups: Source,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    keep: str = "rows",
    progress: Progress = None,
    encoding: str = "utf-8",
) -> dict[Any, Stats]:
    """:func:`count_groups` of streams whose segments' group keys come from ``groups``."""
    size = _check_options(metric, chunk_size, keep)
    parts = grouped_chunks(hypotheses, references, groups, size, encoding)
    return count_groups(metric, parts, keep=keep, progress=progress, unit="lines")


__all__ = [
    "CHUNK_BYTES",
    "DEFAULT_CHUNK_SIZE",
    "KEEP",
    "Chunk",
    "GroupAccumulator",
    "Source",
    "chunk_stats",
    "chunks",
    "count_chunks",
    "count_groups",
    "default_keep",
    "first_refused",
    "from_sums",
    "grouped_chunks",
    "lines_of",
    "stream_grouped_stats",
    "stream_score",
    "stream_stats",
]
