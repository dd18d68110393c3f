"""Tables as inputs: one job, turning a tabular source into :class:`~bleuprint.io.streaming.Chunk`
s of hypotheses, reference streams and group keys, a bounded number of rows at a time.

Sources: JSONL files (``.jsonl``/``.ndjson``, compressed too), Parquet and Arrow IPC/Feather
files (pyarrow, read by record batches), pyarrow Tables, RecordBatches and RecordBatchReaders,
pandas and polars DataFrames, Hugging Face ``datasets.Dataset`` (by Arrow batches), a mapping
of column names to columns, or any iterable of dicts (rows).

Columns: ``hyp_column`` holds the hypotheses; ``ref_columns`` names one column or several. A
string column is one reference stream (null: no reference for that row); a column of lists of
strings gives a row as many references as its list holds (counts may vary). ``by`` names the
group columns. Cells are used as they are (no stripping, unlike the lines of text files).
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Union

from bleuprint.errors import (
    BleuprintError,
    InputDecodeError,
    InputTypeError,
    InvalidInputError,
    InvalidOptionError,
)
from bleuprint.io.files import compression_of, open_binary
from bleuprint.io.progress import Progress
from bleuprint.io.streaming import (
    DEFAULT_CHUNK_SIZE,
    Chunk,
    count_chunks,
    count_groups,
    default_keep,
    first_refused,
    stream_grouped_stats,
)

if TYPE_CHECKING:
    from bleuprint.metrics.protocol import CountingMetric
    from bleuprint.metrics.stats import Stats

#: Reference columns: one name, or several (each a string column or a list-of-strings column).
RefColumns = Union[str, Sequence[str]]
#: Group columns: one name, several (keys are then tuples), or None.
GroupBy = Union[str, Sequence[str], None]

JSONL_ENDINGS = (".jsonl", ".ndjson")
PARQUET_ENDINGS = (".parquet", ".pq")
ARROW_ENDINGS = (".arrow", ".feather", ".ipc", ".arrows")

_PARQUET_HINT = "pip install 'bleuprint[parquet]'"


class Table(NamedTuple):
    """A table being read: its chunks (lazily), its row count where the source knows it, and
    its number of reference streams when it has no rows (for its empty statistics)."""

    chunks: Iterator[Chunk]
    rows: Optional[int]
    streams: int


class Columns(NamedTuple):
    """The columns a table is read by, checked."""

    hyp: str
    refs: tuple[str, ...]
    by: tuple[str, ...]

    @property
    def wanted(self) -> list[str]:
        """Every column to read, each once."""
        return list(dict.fromkeys([self.hyp, *self.refs, *self.by]))


class _Block(NamedTuple):
    """Rows of a source as Python lists, one per wanted column."""

    columns: dict[str, list[Any]]
    rows: int
    lines: Optional[list[int]]  # JSONL: each row's line number, for error messages
    plain: frozenset[str]  # columns known to hold only str or None (Arrow string types)


def columns(hyp_column: str, ref_columns: RefColumns, by: GroupBy = None) -> Columns:
    """The column names checked: strings, at least one reference column."""
    if not isinstance(hyp_column, str):
        raise InputTypeError(f"hyp_column must be a column name (str), got {hyp_column!r}")
    refs = _names(ref_columns, "ref_columns")
    if not refs:
        raise InvalidOptionError("ref_columns is empty: name at least one reference column")
    groups = () if by is None else _names(by, "by")
    if by is not None and not groups:
        raise InvalidOptionError("by is empty: name at least one group column, or pass None")
    return Columns(hyp_column, refs, groups)


def _names(value: Any, what: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, Sequence) or not all(isinstance(v, str) for v in value):
        raise InputTypeError(
            f"{what} must be a column name or a list of column names, got {value!r}"
        )
    return tuple(value)


def read_table(
    source: Any,
    *,
    hyp_column: str = "hyp",
    ref_columns: RefColumns = "ref",
    by: GroupBy = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
) -> Table:
    """``source`` read ``chunk_size`` rows at a time. Files are opened and the columns
    checked now; rows are read as the chunks are taken.

    Raises
    ------
    InvalidInputError
        For a column the source lacks (the message lists the columns it has), or a source
        whose format cannot be told.
    InputTypeError
        For a source of an unsupported type; later, as chunks are counted, for a cell that is
        not a string (naming its row and column).
    ImportError
        For Parquet or Arrow files without pyarrow, ``.zst`` without zstandard.
    """
    spec = columns(hyp_column, ref_columns, by)
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise InvalidOptionError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    name, available, rows, blocks = _open(source, spec.wanted, chunk_size)
    if available is not None:
        _require(spec, available, name)
    parts = _chunks(_rebatched(blocks, spec.wanted, chunk_size), spec, name)
    return Table(parts, rows, len(spec.refs))


def table_stats(
    metric: CountingMetric,
    source: Any,
    *,
    hyp_column: str = "hyp",
    ref_columns: RefColumns = "ref",
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    keep: str = "rows",
    progress: Progress = None,
    rows_file: Any = None,
) -> Stats:
    """``metric.stats`` of a table, read and counted ``chunk_size`` rows at a time (every row
    kept, or one row of their sums with ``keep="sum"``); equal to ``stats`` of the columns
    as lists (``Metric.stats_table``)."""
    table = read_table(
        source, hyp_column=hyp_column, ref_columns=ref_columns, chunk_size=chunk_size
    )
    return count_chunks(
        metric, table.chunks, keep=keep, progress=progress, total=table.rows, what="table",
        unit="rows", streams=table.streams, rows_file=rows_file,
    )  # fmt: skip


def table_score(
    metric: CountingMetric,
    source: Any,
    *,
    hyp_column: str = "hyp",
    ref_columns: RefColumns = "ref",
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    progress: Progress = None,
) -> Any:
    """The corpus score of a table (``Metric.score_table``), equal to the in-memory score;
    only running sums are kept where the metric allows (all but TER)."""
    return table_stats(
        metric, source, hyp_column=hyp_column, ref_columns=ref_columns, chunk_size=chunk_size,
        keep=default_keep(metric), progress=progress,
    ).score()  # fmt: skip


def grouped_stats(
    metric: CountingMetric,
    source: Any,
    references: Optional[Sequence[Any]] = None,
    *,
    by: GroupBy = None,
    groups: Any = None,
    hyp_column: str = "hyp",
    ref_columns: RefColumns = "ref",
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    keep: str = "rows",
    progress: Progress = None,
    encoding: str = "utf-8",
) -> dict[Any, Stats]:
    """The statistics of each group in one pass (``Metric.grouped_stats``): a table grouped
    by the column(s) ``by``, or hypotheses and reference streams with one key per hypothesis
    in ``groups``."""
    if groups is not None:
        if by is not None:
            raise InvalidOptionError(
                "pass by= (the group columns of a table) or groups= (one key per "
                "hypothesis), not both"
            )
        if references is None:
            raise InvalidOptionError(
                "groups= needs references=: grouped_stats(hypotheses, references, groups=keys)"
            )
        return stream_grouped_stats(
            metric, source, references, groups, chunk_size=chunk_size, keep=keep,
            progress=progress, encoding=encoding,
        )  # fmt: skip
    if references is not None:
        raise InvalidOptionError(
            "references= goes with groups= (hypotheses and references as lists or "
            "streams); a table names its reference columns with ref_columns="
        )
    if by is None:
        raise InvalidOptionError(
            "name the group column(s) with by=, e.g. by='lang_pair', or give one key per "
            "hypothesis with groups="
        )
    table = read_table(
        source, hyp_column=hyp_column, ref_columns=ref_columns, by=by, chunk_size=chunk_size
    )
    return count_groups(metric, table.chunks, keep=keep, progress=progress, total=table.rows)


def grouped_scores(
    metric: CountingMetric,
    source: Any,
    references: Optional[Sequence[Any]] = None,
    *,
    by: GroupBy = None,
    groups: Any = None,
    hyp_column: str = "hyp",
    ref_columns: RefColumns = "ref",
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    progress: Progress = None,
    encoding: str = "utf-8",
) -> dict[Any, Any]:
    """One exact corpus score per group, in one pass (``Metric.grouped_scores``; see
    :func:`grouped_stats`): ``{key: score}``, each equal to the corpus score of that group's
    segments alone. Only each group's running sums are kept where the metric allows (all but
    TER).

    >>> bleu.grouped_scores("test.parquet", by="lang_pair")  # doctest: +SKIP
    {'en-de': BLEU = 34.12 ..., 'de-en': BLEU = 40.05 ...}
    """
    per_group = grouped_stats(
        metric, source, references, by=by, groups=groups, hyp_column=hyp_column,
        ref_columns=ref_columns, chunk_size=chunk_size, keep=default_keep(metric),
        progress=progress, encoding=encoding,
    )  # fmt: skip
    return {key: stats.score() for key, stats in per_group.items()}


def _require(spec: Columns, available: Sequence[str], name: str) -> None:
    missing = [c for c in spec.wanted if c not in set(available)]
    if missing:
        has = ", ".join(repr(c) for c in available) or "none"
        raise InvalidInputError(
            f"{name} has no column {', '.join(repr(c) for c in missing)}; its columns are "
            f"{has}. Choose them with hyp_column=, ref_columns= (and by=)"
        )


# --- sources ---------------------------------------------------------------------------------

_Opened = tuple[str, Optional[Sequence[str]], Optional[int], Iterator[_Block]]


def _open(source: Any, names: list[str], size: int) -> _Opened:
    """``(name for messages, the source's columns, its rows if known, blocks of rows)``."""
    if isinstance(source, (str, os.PathLike)):
        return _open_file(os.fspath(source), names, size)
    module = type(source).__module__.partition(".")[0]
    if module == "pyarrow":
        return _open_arrow_object(source, names, size)
    if module == "pandas" and hasattr(source, "columns"):
        return _open_pandas(source, names, size)
    if module == "polars":
        return _open_polars(source, names, size)
    if module == "datasets":
        return _open_dataset(source, names, size)
    if isinstance(source, Mapping):
        return _open_mapping(source, names, size)
    if isinstance(source, (bytes, bytearray)) or not isinstance(source, Iterable):
        raise InputTypeError(
            f"a table must be a file path (.jsonl, .parquet, .arrow ...), a pyarrow Table, "
            f"a pandas or polars DataFrame, a datasets.Dataset, a dict of columns or an "
            f"iterable of dicts; got {type(source).__name__}"
        )
    return _open_records(source, names, size)


def _open_file(path: str, names: list[str], size: int) -> _Opened:
    kind = compression_of(path)
    bare = path[: path.rindex(".")] if kind is not None else path
    if bare.endswith(JSONL_ENDINGS):
        return _open_jsonl(path, names, size)
    if kind is None and bare.endswith(PARQUET_ENDINGS):
        return _open_parquet(path, names, size)
    if kind is None and bare.endswith(ARROW_ENDINGS):
        return _open_ipc(path, names, size)
    raise InvalidInputError(
        f"{path}: cannot tell a table format from this name: tables are read from "
        f".jsonl/.ndjson files (also compressed: .gz, .bz2, .xz, .zst), .parquet and "
        f".arrow/.feather/.ipc files; plain text files (one segment per line) go to "
        f"stats_stream/score_stream"
    )


def _module(name: str) -> Any:
    # Imported by name: optional packages without type information.
    return importlib.import_module(name)


def _pyarrow(what: str) -> Any:
    try:
        return _module("pyarrow")
    except ImportError:
        raise ImportError(f"reading {what} needs the 'pyarrow' package: {_PARQUET_HINT}") from None


def _open_parquet(path: str, names: list[str], size: int) -> _Opened:
    _pyarrow(f"{path} (Parquet)")
    pq = _module("pyarrow.parquet")

    parquet = pq.ParquetFile(path)  # reads only the footer
    schema = parquet.schema_arrow

    def batches() -> Iterator[Any]:
        with parquet:
            yield from parquet.iter_batches(batch_size=size, columns=names)

    blocks = _arrow_blocks(batches(), schema, names, size)
    return path, schema.names, parquet.metadata.num_rows, blocks


def _open_ipc(path: str, names: list[str], size: int) -> _Opened:
    pa = _pyarrow(f"{path} (Arrow)")
    source = pa.memory_map(path)  # pages are read as batches are touched, not the whole file
    try:
        reader = pa.ipc.open_file(source)
        schema, rows = (
            reader.schema,
            sum(reader.get_batch(i).num_rows for i in range(reader.num_record_batches)),
        )
        found: Iterable[Any] = (reader.get_batch(i) for i in range(reader.num_record_batches))
    except pa.ArrowInvalid:  # not the file format: the stream format (.arrows)
        source.seek(0)
        reader = pa.ipc.open_stream(source)
        schema, rows, found = reader.schema, None, reader

    def batches() -> Iterator[Any]:
        with source:
            for batch in found:
                yield batch.select(names)

    return path, schema.names, rows, _arrow_blocks(batches(), schema, names, size)


def _open_arrow_object(source: Any, names: list[str], size: int) -> _Opened:
    pa = _module("pyarrow")
    what = type(source).__name__
    if isinstance(source, (pa.Table, pa.RecordBatch)):
        schema, rows = source.schema, source.num_rows
        batches: Iterable[Any] = [source]
    elif isinstance(source, pa.RecordBatchReader):
        schema, rows, batches = source.schema, None, source
    else:
        raise InputTypeError(
            f"a pyarrow {what} is not a table; pass a pyarrow Table, RecordBatch or "
            f"RecordBatchReader (pa.table({{'hyp': ..., 'ref': ...}}))"
        )
    return f"the pyarrow {what}", schema.names, rows, _arrow_blocks(batches, schema, names, size)


def _open_dataset(source: Any, names: list[str], size: int) -> _Opened:
    datasets = _module("datasets")
    what = type(source).__name__
    if isinstance(source, datasets.Dataset):
        available = source.column_names
        _require_some(available, names, f"the {what}")
        # Arrow batches, in the dataset's order (after select/shuffle too), without Python rows.
        arrow = source.select_columns(names).with_format("arrow")
        tables = arrow.iter(batch_size=size)
        schema = arrow.data.schema
        return f"the {what}", available, source.num_rows, _arrow_blocks(tables, schema, names, size)
    if isinstance(source, datasets.DatasetDict):
        splits = ", ".join(repr(s) for s in source)
        raise InputTypeError(
            f"a DatasetDict holds several splits ({splits}); pass one, e.g. dataset['test']"
        )
    if isinstance(source, Iterable):  # IterableDataset: rows as dicts
        return _open_records(source, names, size)
    raise InputTypeError(f"cannot read a {what} as a table; pass a datasets.Dataset")


def _require_some(available: Sequence[str], names: list[str], what: str) -> None:
    """The missing-column error before a source's own (less helpful) one is raised."""
    _require(Columns(names[0], tuple(names[1:]) or (names[0],), ()), available, what)


def _arrow_blocks(
    batches: Iterable[Any], schema: Any, names: list[str], size: int
) -> Iterator[_Block]:
    """Blocks of at most ``size`` rows of Arrow batches or tables, column by column."""
    pa = _module("pyarrow")

    plain = set()
    for name in names:
        if name in schema.names:
            kind = schema.field(name).type
            if pa.types.is_dictionary(kind):
                kind = kind.value_type
            if (
                pa.types.is_string(kind) or pa.types.is_large_string(kind)
                or pa.types.is_string_view(kind) or pa.types.is_null(kind)
            ):  # fmt: skip
                plain.add(name)
    known = frozenset(plain)
    for batch in batches:
        for offset in range(0, batch.num_rows, size):
            part = batch.slice(offset, size)
            values = {n: part.column(n).to_pylist() for n in names}
            yield _Block(values, part.num_rows, None, known)


def _open_pandas(frame: Any, names: list[str], size: int) -> _Opened:
    available = [str(c) for c in frame.columns]

    def blocks() -> Iterator[_Block]:
        for start in range(0, len(frame), size):
            values = {n: _pandas_list(frame[n].iloc[start : start + size]) for n in names}
            yield _Block(values, len(values[names[0]]), None, frozenset())

    return "the DataFrame", available, len(frame), blocks()


def _pandas_list(series: Any) -> list[Any]:
    """The values of a pandas Series, its missing values (NaN, NA, NaT) as None."""
    missing = series.isna()
    if missing.any():
        series = series.astype(object).where(~missing, None)
    return list(series.tolist())


def _open_polars(frame: Any, names: list[str], size: int) -> _Opened:
    if not hasattr(frame, "get_column"):
        raise InputTypeError(
            f"a polars {type(frame).__name__} is not a DataFrame; pass a DataFrame (for a "
            f"LazyFrame, its .collect())"
        )

    def blocks() -> Iterator[_Block]:
        for start in range(0, frame.height, size):
            part = frame.slice(start, size)
            values = {n: part.get_column(n).to_list() for n in names}
            yield _Block(values, part.height, None, frozenset())

    return "the polars DataFrame", list(frame.columns), frame.height, blocks()


def _open_mapping(source: Mapping[Any, Any], names: list[str], size: int) -> _Opened:
    available = [str(c) for c in source]
    _require_some(available, names, "the dict of columns")
    full = {n: _column_list(source[n], n) for n in names}
    lengths = {n: len(v) for n, v in full.items()}
    if len(set(lengths.values())) > 1:
        counts = ", ".join(f"{n!r} {k}" for n, k in lengths.items())
        raise InvalidInputError(f"the columns have different lengths: {counts} rows")
    rows = lengths[names[0]]

    def blocks() -> Iterator[_Block]:
        for start in range(0, rows, size):
            values = {n: v[start : start + size] for n, v in full.items()}
            yield _Block(values, len(values[names[0]]), None, frozenset())

    return "the dict of columns", available, rows, blocks()


def _column_list(column: Any, name: str) -> list[Any]:
    """One column of a dict of columns as a list."""
    module = type(column).__module__.partition(".")[0]
    if module == "pandas" and hasattr(column, "isna"):
        return _pandas_list(column)
    if module == "pyarrow" and hasattr(column, "to_pylist"):
        return list(column.to_pylist())
    if hasattr(column, "tolist") and hasattr(column, "ndim"):
        return list(column.tolist())
    if isinstance(column, (str, bytes)) or not isinstance(column, Sequence):
        raise InputTypeError(
            f"column {name!r} must be a list, array or Series of values, got "
            f"{type(column).__name__}"
        )
    return list(column)


def _open_records(source: Iterable[Any], names: list[str], size: int) -> _Opened:
    rows = iter(source)
    first = next(rows, None)
    if first is None:
        return "the rows", None, 0, iter(())
    if not isinstance(first, Mapping):
        raise InputTypeError(
            f"row 0 is a {type(first).__name__}; an iterable table must give one dict per "
            f"row ({{'hyp': ..., 'ref': ...}})"
        )
    numbered = enumerate(chain([first], rows))
    return "the rows", [str(k) for k in first], None, _record_blocks(numbered, names, size, None)


def _open_jsonl(path: str, names: list[str], size: int) -> _Opened:
    records = _json_records(open_binary(path), path)  # opened now: a missing file fails here
    first = next(records, None)
    if first is None:
        return path, None, 0, iter(())
    blocks = _record_blocks(chain([first], records), names, size, path)
    return path, [str(k) for k in first[1]], None, blocks


def _json_records(lines: Any, path: str) -> Iterator[tuple[int, Any]]:
    """``(line number, object)`` of each non-blank line."""
    with lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as e:  # JSONDecodeError, or bytes that are not UTF-8/16/32
                raise InputDecodeError(f"{path} line {number}: not valid JSON ({e})") from None
            if not isinstance(record, dict):
                raise InvalidInputError(
                    f"{path} line {number}: a JSON {type(record).__name__}, but every line "
                    f'of a JSONL table must be an object ({{"hyp": ..., "ref": ...}})'
                )
            yield number, record


def _record_blocks(
    records: Iterator[tuple[int, Any]], names: list[str], size: int, path: Optional[str]
) -> Iterator[_Block]:
    """Blocks of rows given as ``(number, dict)``; a key missing from a row is a null cell.
    ``path`` set: the numbers are line numbers of that file, kept for messages."""
    while True:
        values: dict[str, list[Any]] = {n: [] for n in names}
        numbers: list[int] = []
        for number, record in records:
            if not isinstance(record, Mapping):
                raise InputTypeError(
                    f"row {number} is a {type(record).__name__}; an iterable table must give "
                    f"one dict per row"
                )
            numbers.append(number)
            for name in names:
                values[name].append(record.get(name))
            if len(numbers) == size:
                break
        if not numbers:
            return
        yield _Block(values, len(numbers), numbers if path is not None else None, frozenset())


# --- chunks ----------------------------------------------------------------------------------


def _rebatched(blocks: Iterable[_Block], names: list[str], size: int) -> Iterator[_Block]:
    """Blocks of exactly ``size`` rows (the last one fewer), whatever sizes came in."""
    held: list[_Block] = []
    count = 0
    for block in blocks:
        if block.rows == 0:
            continue
        if not held and block.rows == size:
            yield block
            continue
        held.append(block)
        count += block.rows
        while count >= size:
            merged = _merged(held, names)
            yield _sliced(merged, names, 0, size)
            rest = _sliced(merged, names, size, merged.rows)
            held, count = ([rest] if rest.rows else []), rest.rows
    if held:
        yield _merged(held, names)


def _merged(blocks: list[_Block], names: list[str]) -> _Block:
    if len(blocks) == 1:
        return blocks[0]
    values = {n: [v for b in blocks for v in b.columns[n]] for n in names}
    lines = None
    if all(b.lines is not None for b in blocks):
        lines = [number for b in blocks for number in b.lines or ()]
    plain = frozenset.intersection(*(b.plain for b in blocks))
    return _Block(values, sum(b.rows for b in blocks), lines, plain)


def _sliced(block: _Block, names: list[str], start: int, stop: int) -> _Block:
    values = {n: block.columns[n][start:stop] for n in names}
    lines = None if block.lines is None else block.lines[start:stop]
    return _Block(values, len(values[names[0]]), lines, block.plain)


def _chunks(blocks: Iterable[_Block], spec: Columns, name: str) -> Iterator[Chunk]:
    start = 0
    for block in blocks:
        yield _chunk(block, spec, start, name)
        start += block.rows


def _chunk(block: _Block, spec: Columns, start: int, name: str) -> Chunk:
    hypotheses = block.columns[spec.hyp]
    references: list[list[Any]] = []
    stream_names: list[str] = []
    for column in spec.refs:
        streams = _streams(block.columns[column], column in block.plain)
        references.extend(streams)
        stream_names.extend(
            [repr(column)]
            if len(streams) == 1
            else [f"{column!r} item {j}" for j in range(len(streams))]
        )
    keys: Optional[list[Any]] = None
    if spec.by:
        groups = [block.columns[c] for c in spec.by]
        keys = groups[0] if len(groups) == 1 else list(zip(*groups))

    def where(i: int) -> str:
        if block.lines is not None:
            return f"{name} line {block.lines[i]}"
        return f"{name}, row {start + i} (from 0)"

    def locate() -> Optional[BleuprintError]:
        found = first_refused(hypotheses, references)
        if found is None:
            return _bad_key(keys, spec.by, where)
        i, k, value = found
        if k is None:
            if value is None:
                return InputTypeError(
                    f"{where(i)}: column {spec.hyp!r} is null; every row needs a hypothesis "
                    f"string (use '' for an empty one)"
                )
            return InputTypeError(
                f"{where(i)}: column {spec.hyp!r} holds {value!r:.40} of type "
                f"{type(value).__name__}, not a string; convert the column to strings"
            )
        if k == -1:
            cols = ", ".join(repr(c) for c in spec.refs)
            return InvalidInputError(
                f"{where(i)} has no reference: {cols} {'is' if len(spec.refs) == 1 else 'are'} "
                f"null or empty there; drop the row or give it a reference"
            )
        return InputTypeError(
            f"{where(i)}: reference column {stream_names[k]} holds {value!r:.40} of type "
            f"{type(value).__name__}, not a string or null; convert the column to strings"
        )

    return Chunk(hypotheses, references, keys, locate)


def _bad_key(
    keys: Optional[list[Any]], by: tuple[str, ...], where: Callable[[int], str]
) -> Optional[BleuprintError]:
    """The first group key that cannot be a dict key (a list, a dict), named by row."""
    for i, key in enumerate(keys or ()):
        cells = key if len(by) > 1 else (key,)
        for column, cell in zip(by, cells):
            if not isinstance(cell, Hashable):
                return InputTypeError(
                    f"{where(i)}: group column {column!r} holds {cell!r:.40} of type "
                    f"{type(cell).__name__}; group keys must be hashable (str, int, ...)"
                )
    return None


def _is_list(kind: type) -> bool:
    # numpy arrays: list cells of a pandas column read from Parquet or Arrow.
    return issubclass(kind, (list, tuple)) or kind.__name__ == "ndarray"


def _streams(cells: list[Any], plain: bool) -> list[list[Any]]:
    """The reference streams of one column: itself, or for a column of lists one stream per
    list position (None where a row's list is shorter)."""
    if plain or not any(_is_list(t) for t in set(map(type, cells))):
        return [cells]
    lists = [c.tolist() if type(c).__name__ == "ndarray" else c for c in cells]
    width = max([len(c) for c in lists if isinstance(c, (list, tuple))] + [1])
    streams: list[list[Any]] = [[None] * len(lists) for _ in range(width)]
    for i, cell in enumerate(lists):
        if isinstance(cell, (list, tuple)):
            for j, reference in enumerate(cell):
                streams[j][i] = reference
        elif cell is not None:  # a lone string, or a wrong type for the core to refuse
            streams[0][i] = cell
    return streams


__all__ = [
    "ARROW_ENDINGS",
    "JSONL_ENDINGS",
    "PARQUET_ENDINGS",
    "Columns",
    "GroupBy",
    "RefColumns",
    "Table",
    "columns",
    "grouped_scores",
    "grouped_stats",
    "read_table",
    "table_score",
    "table_stats",
]
