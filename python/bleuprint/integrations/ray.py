"""Ray Data integration: per-row statistics on the workers, exact corpus scores on the driver.

Three pieces (see ``docs/ray.md``)::

    import ray, bleuprint, bleuprint.integrations.ray

    bleu = bleuprint.BLEU()
    ds = ray.data.read_parquet("outputs/")                       # columns hyp, ref, lang_pair
    ds = ds.map_batches(bleuprint.ray.Statistics, fn_constructor_args=(bleu,),
                        batch_format="pyarrow", concurrency=4)   # adds the column "bleu"
    ds.aggregate(bleuprint.ray.CorpusScore(bleu))                 # {"corpus_score(bleu)": ...}
    ds.groupby("lang_pair").aggregate(bleuprint.ray.CorpusScore(bleu))
    stats = bleuprint.ray.to_stats(ds, bleu)                      # a Stats, for bootstrap_ci

:class:`Statistics` adds one struct column per metric: one int64 field per statistics column
(``hyp_len, ref_len, correct_1, ...``), ``nrefs`` (references of the row) and, when asked,
``order`` (a copy of the caller's integer row key). A struct is a single column, so Ray's
column pruning, which keeps only the column an aggregation names, keeps all of it.

:class:`CorpusScore` equals ``metric.corpus_score`` on the same rows with ``==``, whatever the
blocks and their order. BLEU, chrF and the WER family add integer column sums. TER adds
per-segment float averages (``ref_words / nrefs``) in segment order, as sacrebleu does: when
every average is a dyadic rational (1, 2 or 4 references, or a length the count divides) every
partial sum is exact, so the order cannot matter and integer sums reproduce it; otherwise the
rows are kept with their ``order`` key and scored in that order, or the aggregation refuses.
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional, Union

from bleuprint.errors import (
    InputTypeError,
    InvalidInputError,
    InvalidOptionError,
    StatsMismatchError,
)
from bleuprint.io.arrow_text import is_text
from bleuprint.metrics.metric import Metric
from bleuprint.metrics.stats import Stats

if TYPE_CHECKING:
    import numpy as np

    from bleuprint.metrics.config import MetricConfig

try:
    # Loaded by name: type checking needs no Ray, and `import bleuprint` never loads it.
    _AggregateFnV2: Any = importlib.import_module("ray.data.aggregate").AggregateFnV2
    _BlockAccessor: Any = importlib.import_module("ray.data.block").BlockAccessor
except ImportError as error:
    raise ModuleNotFoundError(
        f"bleuprint.ray needs Ray Data ({error}); install it with: pip install 'bleuprint[ray]'",
        name="ray",
    ) from error

#: The struct field holding each row's reference count (TER's statistics already have one).
NREFS_FIELD = "nrefs"
#: The struct field holding the caller's row key, when ``order_column`` is given.
ORDER_FIELD = "order"

# Accumulator kinds of CorpusScore, the first int64 of its packed state.
_SUMS, _DYADIC, _ROWS = 0, 1, 2
# Rows kept without keys: for a corpus score that is not a function of sums but does not
# depend on the rows' order either (ROUGE's mean of sentence scores, fsum / n).
_UNKEYED = 3
# Below 2**53 every integer, and every multiple of 2**-m below 2**(53 - m), is a float64.
_EXACT_LIMIT = 2**53
_INT64_MAX = 2**63 - 1

#: A Ray batch: a pyarrow Table, a pandas DataFrame or a dict of numpy arrays.
Batch = Any


def _module(name: str) -> Any:
    """pyarrow or pandas (Ray Data's own dependencies), untyped: they ship no type hints."""
    return importlib.import_module(name)


def default_column(metric: Metric[Any]) -> str:
    """The statistics column's name for ``metric``: ``bleu``, ``chrf``, ``chrf++`` (word
    order 2), ``ter``, ``wer``, ``cer``."""
    config = metric.config
    return str(config.metric).lower() + "+" * int(getattr(config, "word_order", 0))


def _check_metric(metric: Any) -> Metric[Any]:
    if not isinstance(metric, Metric):
        raise InputTypeError(
            "metric must be a bleuprint metric object such as bleuprint.BLEU(), got "
            f"{type(metric).__name__}"
        )
    return metric


def _check_name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise InputTypeError(f"{what} must be a non-empty column name (str), got {value!r}")
    return value


def _batch_columns(batch: Batch) -> list[str]:
    if hasattr(batch, "column_names"):  # pyarrow Table / RecordBatch
        return list(batch.column_names)
    if hasattr(batch, "columns"):  # pandas DataFrame
        return [str(c) for c in batch.columns]
    if isinstance(batch, Mapping):
        return [str(c) for c in batch]
    raise InputTypeError(
        "a batch must be a pyarrow Table, a pandas DataFrame or a dict of numpy arrays "
        f"(map_batches' batch_format 'pyarrow', 'pandas' or 'numpy'), got {type(batch).__name__}"
    )


def _column(batch: Batch, name: str, what: str) -> Any:
    columns = _batch_columns(batch)
    if name not in columns:
        raise InvalidInputError(
            f"the batch has no {what} column {name!r}; its columns are {columns}. Name the "
            f"right one (Statistics(metric, hyp_column=..., ref_columns=[...]))"
        )
    return batch[name]


def _is_arrow(value: Any) -> bool:
    return type(value).__module__.partition(".")[0] == "pyarrow"


def _to_list(values: Any) -> list[Any]:
    """A column's values as a Python list (``None`` for nulls)."""
    if _is_arrow(values):
        return list(values.to_pylist())
    if hasattr(values, "isna"):  # pandas: NaN and NA become None
        return [None if missing else v for v, missing in zip(values.tolist(), values.isna())]
    if hasattr(values, "tolist"):
        return list(values.tolist())
    return list(values)


def _is_list_column(values: Any, items: Any) -> bool:
    """Whether a column (``items``: its values) holds lists of references, one per row."""
    if _is_arrow(values):
        pa = _module("pyarrow")

        kind = values.type
        return bool(pa.types.is_list(kind) or pa.types.is_large_list(kind))
    return any(v is not None and not isinstance(v, str) and hasattr(v, "__len__") for v in items)


def _reference_streams(lists: list[Any], column: str) -> tuple[list[list[Any]], Any]:
    """Streams (``streams[k][i]``, ``None`` padding) and per-row counts of a list column."""
    import numpy as np

    rows = [[] if refs is None else [r for r in refs if r is not None] for refs in lists]
    counts = np.fromiter((len(r) for r in rows), dtype=np.int64, count=len(rows))
    if len(rows) and counts.min() == 0:
        i = int(np.argmin(counts))
        raise InvalidInputError(
            f"row {i} of this batch has no references in the list column {column!r} (null, "
            f"empty or all null); drop such rows before scoring, e.g. with ds.filter(...)"
        )
    width = int(counts.max()) if len(rows) else 1
    streams = [[r[k] if k < len(r) else None for r in rows] for k in range(width)]
    return streams, counts


def _present(values: Any, items: Any) -> Any:
    """Which rows of a reference column hold a reference: bool array."""
    import numpy as np

    if _is_arrow(values):
        return np.asarray(values.is_valid().to_numpy(zero_copy_only=False), dtype=bool)
    return np.fromiter((v is not None for v in items), dtype=bool, count=len(items))


def _struct(config: MetricConfig, rows: Any, nrefs: Any, order: Any) -> Any:
    import numpy as np

    pa = _module("pyarrow")

    names = list(config.column_names)
    columns = np.ascontiguousarray(rows.T)  # one pass; each field is then a contiguous row
    arrays = [pa.array(column) for column in columns]
    if NREFS_FIELD not in names:
        names.append(NREFS_FIELD)
        arrays.append(pa.array(nrefs))
    if order is not None:
        names.append(ORDER_FIELD)
        arrays.append(pa.array(order))
    return pa.StructArray.from_arrays(arrays, names=names)


def _order_keys(values: Any, column: str) -> Any:
    import numpy as np

    items = values.to_numpy(zero_copy_only=False) if _is_arrow(values) else np.asarray(values)
    if items.dtype.kind not in "iu" or (_is_arrow(values) and values.null_count):
        raise InputTypeError(
            f"the order column {column!r} must hold integers without nulls (one unique key "
            f"per segment, e.g. the prompt's row number), got {items.dtype}"
        )
    return items.astype(np.int64)


class Statistics:
    """A callable class for ``Dataset.map_batches``: adds each row's integer statistics.

    ::

        ds.map_batches(bleuprint.ray.Statistics, fn_constructor_args=(bleuprint.BLEU(),),
                       batch_format="pyarrow", concurrency=4)

    Ray builds one object per actor, so the metric and its tokenizers (a SentencePiece model,
    MeCab) are set up once per actor, not once per batch.

    Parameters
    ----------
    metric
        A bleuprint metric object (``BLEU()``, ``CHRF(word_order=2)``, ``TER()``, ``WER()``, ...).
    hyp_column
        The column of hypotheses (strings).
    ref_columns
        Reference columns: several string columns (one stream each; null drops that reference
        for the row), or one column of lists of strings (any number per row; null items are
        dropped). A row needs at least one reference.
    column
        The output column, a struct of int64 fields (``default_column(metric)``: ``bleu``...).
    sentence_scores
        Also add ``<column>_score``: each row's score alone, as ``metric.sentence_score``
        gives it (for BLEU build the metric with ``effective_order=True``, as
        ``sentence_bleu`` does).
    order_column
        An integer column with one unique key per segment (e.g. the prompt id): copied into
        the struct's ``order`` field, so :func:`to_stats` returns rows in that order and
        :class:`CorpusScore` can score TER with any reference counts exactly.
    workers
        Core threads per actor; ``None`` uses the CPUs Ray assigned to the actor.
    keep_columns
        The input columns the output keeps, in this order (``None``, the default: all of
        them). ``[]`` returns only the added columns: when only scores are wanted, the text
        is then not written to Ray's object store a second time. Keep the columns a later
        ``groupby`` names (``keep_columns=["lang_pair"]``).
    """

    def __init__(
        self,
        metric: Metric[Any],
        hyp_column: str = "hyp",
        ref_columns: Union[str, Sequence[str]] = ("ref",),
        *,
        column: Optional[str] = None,
        sentence_scores: bool = False,
        order_column: Optional[str] = None,
        workers: Optional[int] = None,
        keep_columns: Optional[Union[str, Sequence[str]]] = None,
    ) -> None:
        # A copy: the caller's metric keeps its own workers setting and evaluation state.
        self.metric = copy.copy(_check_metric(metric))
        self.hyp_column = _check_name(hyp_column, "hyp_column")
        self.ref_columns = _names(ref_columns, "ref_columns")
        if not self.ref_columns:
            raise InputTypeError("ref_columns must name at least one column, e.g. ['ref']")
        self.column = _check_name(column or default_column(metric), "column")
        self.score_column = f"{self.column}_score" if sentence_scores else None
        self.order_column = None if order_column is None else _check_name(order_column, "order")
        self.keep_columns = None if keep_columns is None else _names(keep_columns, "keep_columns")
        self.metric.workers = _actor_cpus() if workers is None else workers
        # Loads the tokenizers (and checks the workers value) now, once per actor.
        self.metric.stats([""], [[""]])

    def __call__(self, batch: Batch) -> Batch:
        """The batch with the statistics column (and the score column) added."""
        import numpy as np

        kept = _batch_columns(batch) if self.keep_columns is None else self.keep_columns
        for name in filter(None, (self.column, self.score_column)):
            if name in kept:
                raise InvalidOptionError(
                    f"the batch already has a column {name!r}; name the statistics column "
                    f"otherwise with Statistics(..., column='...'), or leave {name!r} out of "
                    f"keep_columns"
                )
        hyp_values = _column(batch, self.hyp_column, "hypothesis")
        ref_values = [_column(batch, c, "reference") for c in self.ref_columns]
        # Arrow string columns go to the metric as they are (their buffers reach the core
        # without a Python string per cell); anything else becomes lists.
        hyps = hyp_values if is_text(hyp_values) else _to_list(hyp_values)
        streams = [v if is_text(v) else _to_list(v) for v in ref_values]
        if len(ref_values) == 1 and _is_list_column(ref_values[0], streams[0]):
            streams, nrefs = _reference_streams(streams[0], self.ref_columns[0])
        else:
            nrefs = sum(
                (_present(v, s).astype(np.int64) for v, s in zip(ref_values, streams)),
                np.zeros(len(hyps), dtype=np.int64),
            )
        order = None
        if self.order_column is not None:
            order = _order_keys(_column(batch, self.order_column, "order"), self.order_column)
        stats = self.metric.stats(hyps, streams)
        added: dict[str, Any] = {self.column: _struct(stats.config, stats.rows, nrefs, order)}
        if self.score_column is not None:
            added[self.score_column] = stats.sentence_scores()
        if self.keep_columns is not None:
            batch = _select(batch, self.keep_columns)
        return _with_columns(batch, added)


def _names(value: Any, what: str) -> tuple[str, ...]:
    """Column names given as one name or a list of names."""
    if isinstance(value, str):
        value = (value,)
    if not isinstance(value, Sequence):
        raise InputTypeError(f"{what} must be a list of column names, e.g. ['ref'], got {value!r}")
    return tuple(_check_name(c, f"each of {what}") for c in value)


def _select(batch: Batch, names: tuple[str, ...]) -> Batch:
    """The batch with only the columns ``names``, in its own format."""
    missing = [name for name in names if name not in _batch_columns(batch)]
    if missing:
        raise InvalidInputError(
            f"keep_columns names {missing}, which the batch does not have; its columns are "
            f"{_batch_columns(batch)}"
        )
    if hasattr(batch, "select") and hasattr(batch, "column_names"):  # pyarrow
        return batch.select(list(names))
    if hasattr(batch, "columns") and hasattr(batch, "assign"):  # pandas
        return batch[list(names)]
    return {name: batch[name] for name in names}


def _actor_cpus() -> int:
    """The CPUs Ray assigned to this actor or task (1 outside Ray, or without a CPU grant)."""
    try:
        ray = importlib.import_module("ray")
        if ray.is_initialized():
            cpus = ray.get_runtime_context().get_assigned_resources().get("CPU", 1)
            return max(1, int(cpus))
    except Exception:  # noqa: BLE001 (no context outside a worker: the serial default)
        pass
    return 1


def _with_columns(batch: Batch, added: dict[str, Any]) -> Batch:
    """``batch`` with ``added`` (pyarrow arrays or numpy arrays), in the batch's own format."""
    pa = _module("pyarrow")

    if isinstance(batch, (pa.Table, pa.RecordBatch)):
        for name, values in added.items():
            batch = batch.append_column(name, pa.array(values) if not _is_arrow(values) else values)
        return batch
    if hasattr(batch, "columns") and hasattr(batch, "assign"):  # pandas
        pd = _module("pandas")

        batch = batch.copy(deep=False)
        for name, values in added.items():
            if _is_arrow(values):  # a struct: kept as Arrow data, rows matched by position
                values = values.to_pandas(types_mapper=pd.ArrowDtype).set_axis(batch.index)
            batch[name] = values
        return batch
    out = dict(batch)  # numpy: Ray turns a pyarrow array value into the same Arrow column
    out.update(added)
    return out


# --- reading statistics back ----------------------------------------------------------------


def _struct_array(values: Any, column: str) -> Any:
    pa = _module("pyarrow")

    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks() if values.num_chunks != 1 else values.chunk(0)
    elif not _is_arrow(values):
        if hasattr(values, "array") and hasattr(values.array, "__arrow_array__"):  # pd.ArrowDtype
            values = pa.array(values.array)
        else:
            values = pa.array(_to_list(values))
    if not pa.types.is_struct(values.type):
        raise InputTypeError(
            f"column {column!r} is not bleuprint statistics (a struct column made by "
            f"bleuprint.ray.Statistics), it holds {values.type}"
        )
    if values.null_count:
        raise InvalidInputError(
            f"column {column!r} has {values.null_count} rows without statistics (null); run "
            f"bleuprint.ray.Statistics over every row"
        )
    return values


def _checked_struct(config: MetricConfig, values: Any, column: str) -> tuple[Any, list[str]]:
    """The struct array of a statistics column and its field names, checked against
    ``config``."""
    struct = _struct_array(values, column)
    fields = [struct.type.field(i).name for i in range(struct.type.num_fields)]
    names = list(config.column_names)
    extra = fields[len(names) :]
    if fields[: len(names)] != names or not set(extra) <= {NREFS_FIELD, ORDER_FIELD}:
        raise StatsMismatchError(
            f"column {column!r} holds statistics with the fields {fields}, but the metric makes "
            f"{names}: score with the metric configuration that made them"
        )
    return struct, fields


def _field(struct: Any, name: str) -> Any:
    import numpy as np

    return np.asarray(struct.field(name).to_numpy(zero_copy_only=False), dtype=np.int64)


def _read_struct(config: MetricConfig, values: Any, column: str) -> tuple[Any, Any, Any]:
    """``(rows, nrefs, order)`` of a statistics struct column; ``order`` is None without it."""
    import numpy as np

    struct, fields = _checked_struct(config, values, column)
    names = list(config.column_names)
    rows = np.empty((len(struct), len(names)), dtype=np.int64)
    for j, name in enumerate(names):
        rows[:, j] = _field(struct, name)
    nrefs = _field(struct, NREFS_FIELD) if NREFS_FIELD in fields else None
    order = _field(struct, ORDER_FIELD) if ORDER_FIELD in fields else None
    return rows, nrefs, order


def _column_sums(config: MetricConfig, values: Any, column: str) -> tuple[int, Any]:
    """``(rows, sums)`` of a statistics struct column: each statistic summed field by field,
    without gathering the rows into one matrix."""
    import numpy as np

    struct, _ = _checked_struct(config, values, column)
    sums = [_field(struct, name).sum(dtype=np.int64) for name in config.column_names]
    return len(struct), np.array(sums, dtype=np.int64)


def _tables(data: Any, column: str) -> list[Any]:
    """The statistics column of ``data`` (a Ray Dataset, a table or a batch), in pieces."""
    if hasattr(data, "iter_batches") and hasattr(data, "select_columns"):  # a Ray Dataset
        columns = data.columns() or []
        if column not in columns:
            raise InvalidInputError(
                f"the dataset has no statistics column {column!r}; its columns are {columns}. "
                f"Add it with ds.map_batches(bleuprint.ray.Statistics, ...) or name it (column=)"
            )
        return [
            b[column]
            for b in data.select_columns([column]).iter_batches(
                batch_size=None, batch_format="pyarrow"
            )
        ]
    return [_column(data, column, "statistics")]


def _check_unique(order: Any) -> None:
    import numpy as np

    repeated = order[1:][np.diff(order) == 0]
    if len(repeated):
        raise InvalidInputError(
            f"the order key {int(repeated[0])} belongs to more than one row; the order column "
            f"must hold one unique key per segment"
        )


def to_stats(data: Any, metric: Metric[Any], column: Optional[str] = None) -> Stats:
    """The :class:`~bleuprint.Stats` of a statistics column, for bootstrap and paired tests.

    Parameters
    ----------
    data
        A Ray Dataset (read block by block on the driver: 8 bytes per field per row), or a
        materialized batch: a pyarrow Table, a pandas DataFrame or a dict of arrays.
    metric
        The metric (configuration) that made the statistics.
    column
        The statistics column (default: ``default_column(metric)``).

    Rows come in the order of their ``order`` field when :class:`Statistics` was given an
    ``order_column`` (do so for paired tests: Ray does not keep row order by default), else
    in the order Ray yields them.
    """
    import numpy as np

    metric = _check_metric(metric)
    column = _check_name(column or default_column(metric), "column")
    config = metric.config
    parts = [_read_struct(config, values, column) for values in _tables(data, column)]
    parts = [p for p in parts if len(p[0])] or [(np.zeros((0, config.width), np.int64), None, None)]
    rows = np.concatenate([p[0] for p in parts])
    if any(p[2] is not None for p in parts):
        if any(p[2] is None for p in parts):
            raise InvalidInputError(
                f"some rows of {column!r} have an order key and some do not; give every "
                f"Statistics the same order_column"
            )
        order = np.concatenate([p[2] for p in parts])
        by_order = np.argsort(order, kind="stable")
        _check_unique(order[by_order])
        rows = rows[by_order]
    if config.metric == "TER":  # its rows count their references themselves
        counts = set(np.unique(rows[:, 2]).tolist())
    elif all(p[1] is not None for p in parts):
        counts = set(np.unique(np.concatenate([p[1] for p in parts])).tolist())
    else:
        counts = set()
    nrefs = counts.pop() if len(counts) == 1 else -1
    return Stats(rows, config, int(nrefs))


# --- the corpus score as a Ray aggregation ---------------------------------------------------


def _pack(header: list[int], body: Any = None) -> bytes:
    import numpy as np

    head = np.asarray(header, dtype=np.int64).tobytes()
    return head if body is None else head + np.ascontiguousarray(body, dtype=np.int64).tobytes()


def _unpack(state: bytes) -> Any:
    import numpy as np

    return np.frombuffer(state, dtype=np.int64)


def _no_state() -> bytes:
    """The empty accumulator (no blocks seen)."""
    return b""


def _checked_sum(a: int, b: int) -> int:
    total = a + b
    if total > _INT64_MAX:
        raise InvalidInputError(
            "the summed statistics overflow int64; score the data in parts (groupby) instead"
        )
    return total


def _dyadic_sums(rows: Any) -> tuple[int, int, int]:
    """TER's summed average reference lengths as ``numerator / 2**exponent`` (exact), and the
    number of rows whose average ``ref_words / nrefs`` is not a dyadic rational."""
    import numpy as np

    ref_words, nrefs = rows[:, 1], np.maximum(rows[:, 2], 1)
    divisor = nrefs // np.gcd(ref_words, nrefs)  # the average's reduced denominator
    dyadic = (divisor & (divisor - 1)) == 0
    if not dyadic.all():
        return 0, 0, int((~dyadic).sum())
    exponent = int(divisor.max()).bit_length() - 1 if len(divisor) else 0
    scaled = ref_words * (1 << exponent) // nrefs  # exact: divisor divides 2**exponent
    return int(scaled.sum(dtype=np.int64)), exponent, 0


class CorpusScore(_AggregateFnV2):
    """An ``AggregateFnV2`` whose result is the exact corpus score of a statistics column.

    ::

        ds.aggregate(CorpusScore(bleu))["corpus_score(bleu)"]     # a BLEUScore
        ds.groupby("lang_pair").aggregate(CorpusScore(bleu))       # one row per pair

    The score equals ``metric.corpus_score`` of the same segments with ``==`` (every field)
    for any blocks in any order. BLEU, chrF and WER sum integer columns (O(1) state). TER:

    - without an ``order`` field, the average reference lengths are summed as exact
      multiples of a power of two: exact when every segment's ``ref_words / nrefs`` is a
      dyadic rational (1, 2 or 4 references always are) and the sum stays below 2**53 of
      those units. Any other segment makes the aggregation fail with an error naming the fix;
    - with an ``order`` field (``Statistics(..., order_column=...)``), the rows are kept (32
      bytes per segment, on the aggregating worker) and added in key order, as one process
      adds them in that order.

    ROUGE keeps its rows too (its corpus score is the mean of sentence scores), with or
    without an ``order`` field: that mean (``fsum / n``) does not depend on their order.

    Parameters
    ----------
    metric
        The metric (configuration) that made the statistics.
    column
        The statistics column (default: ``default_column(metric)``).
    alias_name
        The result's name (default ``corpus_score(<column>)``).
    """

    def __init__(
        self,
        metric: Metric[Any],
        column: Optional[str] = None,
        *,
        alias_name: Optional[str] = None,
    ) -> None:
        metric = _check_metric(metric)
        self.column = _check_name(column or default_column(metric), "column")
        self.config = metric.config
        self.from_sums = bool(getattr(self.config, "corpus_from_sums", False))
        name = _check_name(alias_name or f"corpus_score({self.column})", "alias_name")
        super().__init__(name, zero_factory=_no_state, on=self.column, ignore_nulls=False)

    def _validate(self, schema: Any) -> None:
        names = getattr(schema, "names", None)
        if not names:  # an empty dataset's blocks carry no columns at all
            return
        if self.column not in names:
            raise InvalidInputError(
                f"the dataset has no statistics column {self.column!r}; its columns are "
                f"{list(names)}. Add it first with ds.map_batches(bleuprint.ray.Statistics, "
                f"fn_constructor_args=(metric,), ...) or name it: CorpusScore(metric, column=...)"
            )
        super()._validate(schema)

    def aggregate_block(self, block: Any) -> bytes:
        table = _BlockAccessor.for_block(block).to_arrow()
        values = _column(table, self.column, "statistics")
        if self.from_sums:
            n, sums = _column_sums(self.config, values, self.column)
            return _pack([_SUMS, n], sums)
        rows, _, order = _read_struct(self.config, values, self.column)
        n = len(rows)
        if order is not None:
            return _pack([_ROWS, n], _keyed_rows(order, rows))
        if getattr(self.config, "corpus_order_free", False):
            return _pack([_UNKEYED, n], rows)
        if self.config.metric != "TER":
            raise InvalidOptionError(
                f"the corpus {self.config.metric} is not a function of summed statistics; give "
                f"Statistics(..., order_column='<row key>') so rows are scored in key order"
            )
        numerator, exponent, inexact = _dyadic_sums(rows)
        if inexact:
            raise InvalidInputError(_ORDER_NEEDED.format(count=inexact))
        if numerator >= _EXACT_LIMIT:
            raise InvalidInputError(_TOO_LARGE)
        return _pack([_DYADIC, n, int(rows[:, 0].sum()), numerator, exponent])

    def combine(self, current_accumulator: bytes, new: bytes) -> bytes:
        if not current_accumulator:
            return new
        if not new:
            return current_accumulator
        a, b = _unpack(current_accumulator), _unpack(new)
        if a[0] != b[0]:
            raise InvalidInputError(
                f"some rows of {self.column!r} have an order key and some do not; give every "
                f"Statistics the same order_column"
            )
        n = int(a[1]) + int(b[1])
        if a[0] == _SUMS:
            return _pack([_SUMS, n, *map(_checked_sum, a[2:].tolist(), b[2:].tolist())])
        if a[0] in (_ROWS, _UNKEYED):
            return _pack([int(a[0]), n]) + current_accumulator[16:] + new[16:]
        (_, _, edits_a, num_a, exp_a), (_, _, edits_b, num_b, exp_b) = a.tolist(), b.tolist()
        exponent = max(exp_a, exp_b)
        numerator = (num_a << (exponent - exp_a)) + (num_b << (exponent - exp_b))
        if numerator >= _EXACT_LIMIT:
            raise InvalidInputError(_TOO_LARGE)
        return _pack([_DYADIC, n, _checked_sum(edits_a, edits_b), numerator, exponent])

    def finalize(self, accumulator: bytes) -> Any:
        import numpy as np

        width = self.config.width
        if not accumulator:
            return self.config.score_corpus(np.zeros((0, width), dtype=np.int64))
        state = _unpack(accumulator)
        kind = int(state[0])
        if kind == _SUMS:
            return self.config.score_corpus(state[2:].reshape(1, width))
        if kind == _UNKEYED:
            return self.config.score_corpus(np.ascontiguousarray(state[2:].reshape(-1, width)))
        if kind == _ROWS:
            keyed = state[2:].reshape(-1, width + 1)
            keyed = keyed[np.argsort(keyed[:, 0], kind="stable")]
            _check_unique(keyed[:, 0])
            return self.config.score_corpus(np.ascontiguousarray(keyed[:, 1:]))
        _, n, edits, numerator, exponent = state.tolist()
        if n == 0:
            return self.config.score_corpus(np.zeros((0, width), dtype=np.int64))
        # One row whose average numerator / 2**exponent is the exact (so order-free) sum.
        return self.config.score_corpus(np.array([[edits, numerator, 1 << exponent]]))


def _keyed_rows(order: np.ndarray, rows: np.ndarray) -> np.ndarray:
    import numpy as np

    return np.concatenate([order[:, None], rows], axis=1)


_ORDER_NEEDED = (
    "{count} segments' average reference length (ref_words / nrefs, e.g. with 3 references) "
    "is not exact in binary, so the corpus TER depends on the order its float averages are "
    "added in, which Ray's blocks do not keep. Give Statistics(..., order_column='<row key>') "
    "(an integer column, unique per segment, in the order a single process would score) and "
    "CorpusScore adds them in that order"
)
_TOO_LARGE = (
    "the summed TER reference lengths exceed 2**53 units, where float sums round; give "
    "Statistics(..., order_column='<row key>') so the rows are added in key order"
)


__all__ = [
    "NREFS_FIELD",
    "ORDER_FIELD",
    "CorpusScore",
    "Statistics",
    "default_column",
    "to_stats",
]
