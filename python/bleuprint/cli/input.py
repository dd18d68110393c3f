"""The command's input, read in step a chunk of segments at a time: reference files (or one
file of ``-nr`` tab-separated references) and system outputs (files, or standard input with
one system per tab-separated field), with sacrebleu's checks that they line up; or a table's
columns (:mod:`bleuprint.cli.table_input`), and for grouped scores one key per segment.

Files follow sacrebleu's line rules (see :mod:`bleuprint.io.files`; :mod:`bleuprint.io.line_reader`
reads them a block at a time). Only a chunk of text is held at once, so input of any size is
scored in bounded memory. A failure is one line naming the file, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from itertools import chain, islice
from typing import Any, NamedTuple, Optional

from bleuprint.cli.checks import paired, table_input
from bleuprint.cli.errors import EXIT_FIELDS, EXIT_USAGE, CliError, Reporter
from bleuprint.cli.table_input import TableSystems, table_columns
from bleuprint.errors import BleuprintError, InputDecodeError
from bleuprint.io.files import is_utf8
from bleuprint.io.line_reader import (
    BlockReader,
    LineBlock,
    count_lines,
    file_blocks,
    stream_blocks,
    take_together,
)
from bleuprint.io.streaming import CHUNK_BYTES, Chunk

#: Segments per chunk, shared by all the streams read together. UTF-8 files are also cut at
#: ``CHUNK_BYTES`` of text (about 10,000 WMT-like lines a stream with one reference), so a
#: run's peak memory stays under 100 MB whatever the input's size and line lengths. Larger
#: chunks pay per-chunk costs (a core call, preparing each distinct reference once) less
#: often: 8,192 took 1.4 s a million segments, 65,536 about 1.0 s.
CHUNK_SEGMENTS = 65536


def _open(path: str, encoding: str, skip: int = 0) -> Iterator[str]:
    try:
        return chain.from_iterable(_reading(path, file_blocks(path, encoding, skip=skip)))
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror or e}") from None


def _count(path: str, encoding: str) -> int:
    try:
        return count_lines(path, encoding)
    except InputDecodeError as e:
        raise CliError(f"cannot decode {e}") from None
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror or e}") from None


def _reading(path: str, blocks: Iterator[list[str]]) -> Iterator[list[str]]:
    """Blocks of lines, with read and decode failures turned into the command's messages."""
    try:
        yield from blocks
    except InputDecodeError as e:
        raise CliError(f"cannot decode {e}") from None
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror or e}") from None


class _Streams:
    """Parallel streams from one or more sources; ``take(n)`` gives each one's next lines."""

    def __init__(self, sources: list[Iterator[str]]) -> None:
        self._sources = sources

    def take(self, n: int) -> list[list[str]]:
        return [list(islice(s, n)) for s in self._sources]

    def count_rest(self) -> list[int]:
        """How many lines each stream has left (read to the end, for error messages)."""
        return [sum(1 for _ in s) for s in self._sources]

    def check(self, parts: list[Any]) -> None:
        """Raises the decode error of text taken but not yet decoded (none here)."""

    def close(self) -> None:
        """Closes files left open (a shard read before their end, an error)."""


class _FileBlocks(_Streams):
    """UTF-8 files read as blocks of whole lines (:class:`LineBlock`), which the core splits
    and counts itself: the text never becomes Python strings."""

    def __init__(self, paths: list[str], skip: int = 0) -> None:
        super().__init__([])
        self._readers = []
        for path in paths:
            with _read_errors(path):
                self._readers.append(BlockReader(path, skip))

    @classmethod
    def together(cls, first: _FileBlocks, second: _FileBlocks) -> _FileBlocks:
        """The files of both, read in step (system outputs and references)."""
        joined = cls([])
        joined._readers = [*first._readers, *second._readers]
        return joined

    def take(self, n: int) -> list[Any]:
        # The budget shared by the files keeps a chunk's text bounded whatever the lines'
        # lengths.
        budget = CHUNK_BYTES // max(1, len(self._readers))
        return take_together(self._readers, n, budget, _read_errors)

    def count_rest(self) -> list[int]:
        # Decoded as counted: a whole run reports a file's decode error before its length.
        counts = []
        for reader in self._readers:
            count = 0
            with _read_errors(reader.name):
                while part := reader.take(CHUNK_SEGMENTS, CHUNK_BYTES):
                    self.check([part])
                    count += len(part)
            counts.append(count)
        return counts

    def check(self, parts: list[Any]) -> None:
        for block in parts:
            try:
                block.lines()
            except InputDecodeError as e:
                raise CliError(f"cannot decode {e}") from None

    def close(self) -> None:
        for reader in self._readers:
            reader.close()


@contextmanager
def _read_errors(path: str) -> Iterator[None]:
    """A file that cannot be opened or read (a corrupt archive) as the command's message."""
    try:
        yield
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror or e}") from None


class _TabFields(_Streams):
    """One file whose every line holds ``n`` tab-separated references (``-nr``)."""

    def __init__(self, path: str, encoding: str, n: int, skip: int = 0) -> None:
        super().__init__([_open(path, encoding, skip)])
        self._path, self._n, self._lineno = path, n, skip

    def take(self, n: int) -> list[list[str]]:
        (lines,) = super().take(n)
        rows = [line.split("\t", self._n - 1) for line in lines]
        for lineno, fields in enumerate(rows, self._lineno + 1):
            if len(fields) != self._n:
                raise CliError(
                    f"FATAL: line {lineno}: expected {self._n} fields, but found "
                    f"{len(fields)}. ({self._path})",
                    EXIT_FIELDS,
                )
        self._lineno += len(lines)
        return [list(s) for s in zip(*rows)] if rows else [[] for _ in range(self._n)]

    def count_rest(self) -> list[int]:
        return super().count_rest() * self._n


class _StdinSystems(_Streams):
    """Standard input: one system, or one per tab-separated field (sacrebleu's layout: the
    first line's field count is the number of systems; its fields are not right-stripped one
    by one, later lines' are)."""

    def __init__(self, encoding: str) -> None:
        blocks = iter([]) if sys.stdin is None else stream_blocks(sys.stdin.buffer, encoding)
        super().__init__([chain.from_iterable(_reading("<stdin>", blocks))])
        # sacrebleu reads the first line with readline(), so empty input is one empty segment.
        first = next(self._sources[0], "")
        self._first: Optional[list[str]] = first.rstrip().split("\t")
        self.count = len(self._first)
        self._lineno = 1

    def take(self, n: int) -> list[list[str]]:
        head, self._first = self._first, None
        (lines,) = super().take(n - 1 if head is not None else n)
        if self.count == 1:
            stripped = [line.rstrip() for line in lines]
            if "\t" not in "".join(stripped):  # the common case: one system, checked in C
                self._lineno += len(lines)
                return [head + stripped if head is not None else stripped]
        systems: list[list[str]] = (
            [[f] for f in head] if head is not None else [[] for _ in range(self.count)]
        )
        for lineno, line in enumerate(lines, self._lineno + 1):
            fields = line.rstrip().split("\t")
            if len(fields) != self.count:
                raise CliError(
                    "FATAL: the number of tab-delimited fields in the input stream differ "
                    f"across lines (line 1 has {self.count}, line {lineno} has {len(fields)})",
                    EXIT_FIELDS,
                )
            for stream, sent in zip(systems, fields):
                stream.append(sent.rstrip())
        self._lineno += len(lines)
        return systems

    def count_rest(self) -> list[int]:
        (rest,) = super().count_rest()
        return [rest + (self._first is not None)] * self.count


class InputChunk(NamedTuple):
    """The next segments of every stream: reference streams, each system's hypotheses, the
    group keys (--group-by, --groups) and, for tables, each system's row locator (which names
    the row of a cell the core refuses)."""

    references: list[list[Any]]
    systems: list[list[Any]]
    keys: Optional[list[Any]] = None
    locators: Sequence[Optional[Callable[[], Optional[BleuprintError]]]] = ()

    def system(self, k: int) -> Chunk:
        """System ``k``'s segments as a library chunk (for ``streaming.chunk_stats``)."""
        locate = self.locators[k] if self.locators else None
        return Chunk(self.systems[k], self.references, self.keys, locate)


class InputStreams:
    """The references and systems of one command, read in step: :meth:`chunks` gives
    :class:`InputChunk` s of up to ``chunk`` segments, and raises the command's length errors
    (naming every file's full line count) when a stream ends early."""

    def __init__(
        self,
        args: argparse.Namespace,
        reporter: Reporter,
        window: Optional[Callable[[int], tuple[int, int]]] = None,
    ) -> None:
        encoding = args.encoding
        self._table: Optional[TableSystems] = None
        #: The header of grouped scores: the --group-by column, or "group" for --groups.
        self.group_name: Optional[str] = None
        self.from_stdin = args.input is None
        if table_input(args):
            if window is not None:
                raise CliError(
                    "--shard windows text files; a table's rows cannot be skipped without "
                    "decoding them: count the whole table (no --shard), or split it into "
                    "text files",
                    EXIT_USAGE,
                )
            columns = table_columns(args)
            self.names = columns.hyps
            self.group_name = columns.group
            self._paths = [*args.refs, args.input[0]]
        else:
            self.names = (
                [] if self.from_stdin else system_names(args, reporter)
            )  # stdin's come with its first line
            self._paths = [*args.refs, *self.names]
        if self._table_refs(args):
            self.ref_names = list(table_columns(args).refs)
        elif _concatenated(args):
            self.ref_names = [" + ".join(parts) for parts in args.ref_parts]
        elif args.num_refs == 1:
            self.ref_names = list(args.refs)
        else:
            self.ref_names = [f"{args.refs[0]} (field {k + 1})" for k in range(args.num_refs)]
        #: Segments of the whole input and this shard's first and how many (``--shard``).
        self.start: int = 0
        self.limit: Optional[int] = None
        self.total: Optional[int] = None
        if window is not None:
            self._window(args, window)
        # References first, as sacrebleu reads them, so their errors come first.
        refs: _Streams
        if self._table_refs(args):
            refs = _Streams([])  # read with the table's systems
        elif _concatenated(args):  # -t with several test sets: each stream's files in turn
            refs = _Streams(
                [chain.from_iterable(_open(p, encoding) for p in parts) for parts in args.ref_parts]
            )
        elif self._blocks(args):
            refs = _FileBlocks(list(args.refs), self.start)
        elif args.num_refs == 1:
            refs = _Streams([_open(path, encoding, self.start) for path in args.refs])
        else:
            refs = _TabFields(args.refs[0], encoding, args.num_refs, self.start)
        self._keys: Optional[_Streams] = None
        self._groups_path: Optional[str] = getattr(args, "groups", None)
        if self._groups_path is not None:
            self.group_name = "group"
            self._keys = _Streams([_open(self._groups_path, encoding, self.start)])
        systems: _Streams
        if table_input(args):
            systems = _Streams([])
            # Rows per chunk as for text: the budget shared by every stream.
            rows = max(1, CHUNK_SEGMENTS // (len(self.names) + max(1, len(self.ref_names))))
            self._table = TableSystems(args.input[0], table_columns(args), rows)
        elif self.from_stdin:
            stdin = _StdinSystems(encoding)
            systems = stdin
            self.names = [f"System {i + 1}" for i in range(stdin.count)]
        elif self._blocks(args):
            systems = _FileBlocks(self.names, self.start)
        else:
            systems = _Streams([_open(path, encoding, self.start) for path in self.names])
        self._refs, self._systems = refs, systems

    def _blocks(self, args: argparse.Namespace) -> bool:
        """Whether the files are read as blocks of bytes for the core: UTF-8 text files with
        one reference per file, and no group keys (which need each segment)."""
        plain = args.num_refs == 1 and not table_input(args) and not getattr(args, "groups", None)
        plain = plain and not _concatenated(args)
        return plain and not self.from_stdin and is_utf8(args.encoding)

    @staticmethod
    def _table_refs(args: argparse.Namespace) -> bool:
        """Whether the references are the table's columns (not REF files)."""
        return table_input(args) and bool(table_columns(args).refs)

    def _window(self, args: argparse.Namespace, window: Callable[[int], tuple[int, int]]) -> None:
        """Counts every file's lines (the length checks of a whole run) and sets the segments
        ``[start, stop)`` that ``window`` picks of them (``--shard``)."""
        if self.from_stdin:
            raise CliError(
                "--shard needs the system outputs as files (-i): each shard counts the lines "
                "of every input first, which standard input cannot be read twice for",
                EXIT_USAGE,
            )
        ref_files = args.refs if args.num_refs == 1 else args.refs[:1] * args.num_refs
        ref_totals = [_count(path, args.encoding) for path in ref_files]
        totals = [_count(path, args.encoding) for path in self.names]
        check_lengths(totals, self.names, ref_totals, self.ref_names, False)
        self.total = totals[0]
        self.start, stop = window(self.total)
        self.limit = stop - self.start  # 0 when there are more shards than segments

    def size_bytes(self) -> int:
        """The files' total size (standard input counts nothing): whether to show progress."""
        return sum(os.path.getsize(path) for path in self._paths)

    def chunks(self, chunk: Optional[int] = None) -> Iterator[InputChunk]:
        """The next segments of every stream; every stream has the same number of lines, else
        the command's length error. ``chunk`` is the budget of lines held at once (a table's
        is set when it is opened)."""
        if self._table is not None:
            yield from self._table_chunks(self._table)
            return
        # Many systems share the budget, so the text held stays about `chunk` lines (and, for
        # UTF-8 files, CHUNK_BYTES).
        chunk = CHUNK_SEGMENTS if chunk is None else chunk
        size = max(1, chunk // (len(self.names) + len(self.ref_names)))
        streams = [self._systems, self._refs, *([self._keys] if self._keys else [])]
        if isinstance(self._systems, _FileBlocks) and isinstance(self._refs, _FileBlocks):
            streams = [_FileBlocks.together(self._systems, self._refs)]  # cut in step
        k, r = len(self.names), len(self.ref_names)
        totals = [0] * (k + r + (self._keys is not None))
        try:
            while True:
                if self.limit is not None:  # a shard: its lengths were checked when counted
                    size = min(size, self.limit - totals[0])
                    if not size:
                        return
                taken = [s.take(size) for s in streams]
                parts = [part for stream_parts in taken for part in stream_parts]
                systems, refs = parts[:k], parts[k : k + r]
                lengths = [len(part) for part in parts]
                totals = [t + n for t, n in zip(totals, lengths)]
                if len(set(lengths)) > 1 or lengths[0] == 0:
                    if len(set(lengths)) > 1:
                        for stream, stream_parts in zip(streams, taken):
                            stream.check(stream_parts)
                        rest = [n for s in streams for n in s.count_rest()]
                        totals = [t + n for t, n in zip(totals, rest)]
                    self._check(totals)
                    return
                yield InputChunk(refs, systems, parts[k + r] if self._keys else None)
        finally:
            for stream in streams:
                stream.close()

    def _table_chunks(self, table: TableSystems) -> Iterator[InputChunk]:
        """The table's chunks, with the REF files' lines when the references are files."""
        from_files = not table.columns.refs
        done = 0
        parts_left = table.chunks()
        for parts in parts_left:
            rows = len(parts[0].hypotheses)
            refs = self._refs.take(rows) if from_files else parts[0].references
            if from_files and any(len(r) != rows for r in refs):
                table_rows = done + rows + sum(len(p[0].hypotheses) for p in parts_left)
                ref_lines = [done + len(r) + n for r, n in zip(refs, self._refs.count_rest())]
                self._check_table(table.path, table_rows, ref_lines)
            yield InputChunk(
                refs, [p.hypotheses for p in parts], parts[0].keys, [p.locate for p in parts]
            )
            done += rows
        if from_files:  # the REF files must end with the table
            self._check_table(table.path, done, [done + n for n in self._refs.count_rest()])
        else:
            self._check_table(table.path, done, [done] * len(self.ref_names))

    def _check_table(self, path: str, rows: int, ref_lines: list[int]) -> None:
        """The length checks of a table's systems (each ``rows`` long) and reference files."""
        names = [f"{path} (column {column!r})" for column in self.names]
        check_lengths([rows] * len(names), names, ref_lines, self.ref_names, False)

    def read_all(self) -> tuple[list[list[str]], list[list[str]]]:
        """Every segment at once, for the scorers that take whole lists (``--preset``)."""
        refs: list[list[str]] = [[] for _ in self.ref_names]
        systems: list[list[str]] = [[] for _ in self.names]
        for part in self.chunks():
            for whole, lines in zip([*refs, *systems], [*part.references, *part.systems]):
                whole.extend(lines.lines() if isinstance(lines, LineBlock) else lines)
        return refs, systems

    def _check(self, totals: list[int]) -> None:
        k, r = len(self.names), len(self.ref_names)
        check_lengths(totals[:k], self.names, totals[k : k + r], self.ref_names, self.from_stdin)
        if self._keys is not None and totals[k + r] != totals[0]:
            raise CliError(
                f"--groups needs one key per segment: {self.names[0]} has "
                f"{_lines(totals[0])}, {self._groups_path} has {_lines(totals[k + r])}"
            )


def _concatenated(args: argparse.Namespace) -> bool:
    """Whether a reference stream is several files read in turn (``-t`` with a list)."""
    return any(len(parts) > 1 for parts in getattr(args, "ref_parts", None) or ())


def system_names(args: argparse.Namespace, reporter: Reporter) -> list[str]:
    """The ``-i`` files to score: a file given again as the baseline of a paired test is
    skipped, as in sacrebleu; any other repeat is refused."""
    names: list[str] = []
    for path in args.input:
        if names and path == names[0] and paired(args):
            reporter.info(f"Ignoring {path!r} as it was also given as the baseline.")
            continue
        if path in names:
            raise CliError(
                f"{path!r} is given twice to -i/--input; every system needs a different file name",
                EXIT_USAGE,
            )
        names.append(path)
    return names


def check_lengths(
    system_lengths: list[int],
    names: list[str],
    ref_lengths: list[int],
    ref_names: list[str],
    from_stdin: bool,
) -> None:
    """sacrebleu's checks of the streams' line counts: no empty system, and every system as
    long as every reference stream."""
    for length, name in zip(system_lengths, names):
        label = f"standard input ({name})" if from_stdin and len(names) > 1 else name
        if from_stdin and len(names) == 1:
            label = "standard input"
        if not length:
            raise CliError(f"the system output {label} is empty: nothing to score")
        for ref_length, ref_name in zip(ref_lengths, ref_names):
            if ref_length != length:
                raise CliError(
                    "System and reference streams have different lengths: "
                    f"{label} has {_lines(length)}, {ref_name} has {_lines(ref_length)}"
                )


def _lines(n: int) -> str:
    return f"{n} line" if n == 1 else f"{n} lines"
