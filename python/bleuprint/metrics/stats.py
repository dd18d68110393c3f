"""Per-segment sufficient statistics: the currency every score is computed from.

A :class:`Stats` is an int64 matrix with one row per segment, plus the metric configuration
that produced it and the number of references per segment. Corpus scores sum the rows;
sentence scores score each row; shards merge with ``+``; subsets index rows.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Union

from bleuprint.errors import (
    InputTypeError,
    InvalidInputError,
    StatsFormatError,
    StatsMismatchError,
)
from bleuprint.io.npz import load_npz
from bleuprint.metrics.config import MetricConfig, config_from_dict
from bleuprint.metrics.scores import Score

if TYPE_CHECKING:
    import numpy as np


class Stats:
    """Per-segment statistics of one metric configuration.

    Parameters
    ----------
    rows
        Integer matrix of shape ``(n_segments, config.width)``.
    config
        The configuration that produced the rows (:class:`~bleuprint.BLEUConfig`,
        :class:`~bleuprint.CHRFConfig`, ...).
    nrefs
        References per segment, or -1 where that count varies.

    Examples
    --------
    >>> import bleuprint
    >>> bleu = bleuprint.BLEU()
    >>> a = bleu.stats(["the cat sat on the mat"], [["the cat is on the mat"]])
    >>> b = bleu.stats(["a dog barked"], [["the dog barked"]])
    >>> round((a + b).score().score, 2)
    34.89
    """

    __slots__ = ("config", "nrefs", "rows")

    def __init__(self, rows: Any, config: MetricConfig, nrefs: int) -> None:
        # Rows from a caller are checked (shape, dtype, counts a metric could produce).
        self.rows = config.check_rows(rows)
        self.config = config
        self.nrefs = check_nrefs(nrefs)

    @classmethod
    def _trusted(cls, rows: np.ndarray, config: MetricConfig, nrefs: int) -> Stats:
        """Stats from rows the library made itself (int64, right width): no checks, so
        counting, indexing and merging pay nothing for them."""
        stats = cls.__new__(cls)
        stats.rows, stats.config, stats.nrefs = rows, config, nrefs
        return stats

    @property
    def column_names(self) -> tuple[str, ...]:
        """Names of the columns, e.g. ``hyp_len, ref_len, correct_1, ...``."""
        return self.config.column_names

    def __len__(self) -> int:
        return self.rows.shape[0]

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self.rows if dtype is None else self.rows.astype(dtype)

    def __getitem__(self, index: Any) -> Stats:
        """Selects rows (an int, slice, index array or boolean mask) and keeps the config."""
        rows = self.rows[index]
        if rows.ndim == 1:
            rows = rows[None, :]
        return Stats._trusted(rows, self.config, self.nrefs)

    def _check_compatible(self, other: Stats) -> None:
        check_mergeable(self, other)

    def __add__(self, other: Stats) -> Stats:
        """Concatenates the rows of two shards of the same configuration."""
        import numpy as np

        self._check_compatible(other)
        nrefs = self.nrefs if self.nrefs == other.nrefs else -1
        return Stats._trusted(np.concatenate([self.rows, other.rows]), self.config, nrefs)

    @classmethod
    def concatenate(cls, shards: list[Stats]) -> Stats:
        """Merges any number of shards in order."""
        import numpy as np

        if not shards:
            raise InvalidInputError("concatenate needs at least one Stats")
        for other in shards[1:]:
            shards[0]._check_compatible(other)
        nrefs = {s.nrefs for s in shards}
        rows = np.concatenate([s.rows for s in shards])
        return cls._trusted(rows, shards[0].config, nrefs.pop() if len(nrefs) == 1 else -1)

    def sum(self) -> np.ndarray:
        """The column sums: the corpus statistics vector (int64, shape ``(width,)``)."""
        import numpy as np

        return self.rows.sum(axis=0, dtype=np.int64)

    def score(self) -> Score:
        """The corpus score of all rows."""
        return self.config.score_corpus(self.rows)

    def sentence_scores(self) -> np.ndarray:
        """The score of every row on its own; float64, shape ``(n,)``."""
        return self.config.score_rows(self.rows)

    def sentence_results(self) -> list[Any]:
        """Every row's full result (score, precisions, bp, lengths), from one batch call."""
        return self.config.score_rows_detailed(self.rows)

    def signature(self) -> Any:
        """The reproducibility signature of these statistics."""
        return self.config.signature(self.nrefs)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Stats):
            return NotImplemented
        import numpy as np

        return (
            self.config == other.config
            and self.nrefs == other.nrefs
            and np.array_equal(self.rows, other.rows)
        )

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> dict[str, Any]:
        return {"rows": self.rows, "config": self.config.to_dict(), "nrefs": self.nrefs}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.rows = state["rows"]
        self.config = config_from_dict(state["config"])
        self.nrefs = state["nrefs"]

    def save(self, path: Union[str, os.PathLike]) -> None:
        """Writes the statistics to an ``.npz`` file, config included."""
        import json  # start-up time, as numpy: only saving and loading load them

        import numpy as np

        meta = json.dumps({"config": self.config.to_dict(), "nrefs": self.nrefs})
        with open(path, "wb") as f:
            np.savez_compressed(f, rows=self.rows, meta=np.array(meta))

    @classmethod
    def load(cls, path: Union[str, os.PathLike]) -> Stats:
        """Reads statistics written by :meth:`save` (never unpickling); the rows are checked.

        Raises
        ------
        StatsFormatError
            For a file that is not a bleuprint statistics file, or rows no metric produces.
        """
        rows, config, nrefs = read_stats_file(path)
        return cls(rows, config, nrefs)

    def __repr__(self) -> str:
        return f"Stats({self.config.metric}, segments={len(self)}, nrefs={self.nrefs})"


class StatsAccumulator:
    """Statistics gathered a chunk at a time (streams, shards): every row kept in order
    (``keep="rows"``), or only their running column sums (``keep="sum"``, O(1) memory, for
    metrics whose corpus score is that of the summed rows).

    Examples
    --------
    >>> import bleuprint
    >>> bleu = bleuprint.BLEU()
    >>> total = StatsAccumulator("sum")
    >>> total.add(bleu.stats(["the cat sat on the mat"], [["the cat is on the mat"]]))
    >>> total.add(bleu.stats(["a dog barked"], [["the dog barked"]]))
    >>> round(total.result().score().score, 2)
    34.89
    """

    KEEP = ("rows", "sum")

    def __init__(self, keep: str = "rows", rows_file: Union[str, os.PathLike, None] = None) -> None:
        if keep not in self.KEEP:
            raise InvalidInputError(f"keep must be 'rows' or 'sum', got {keep!r}")
        if rows_file is not None and keep != "rows":
            raise InvalidInputError("rows_file= writes rows: it needs keep='rows'")
        self.keep = keep
        self.segments = 0
        self._parts: list[np.ndarray] = []
        self._file = None if rows_file is None else _RowsFile(rows_file)
        self._total: Any = None
        self._first: Union[Stats, None] = None
        self._nrefs: set[int] = set()

    def add(self, stats: Stats) -> None:
        """Adds the next chunk's statistics (of the same configuration)."""
        if self._first is None:
            self._first = stats
        else:
            self._first._check_compatible(stats)
        self._nrefs.add(stats.nrefs)
        self.segments += len(stats)
        if self._file is not None:
            self._file.append(stats.rows)
        elif self.keep == "rows":
            self._parts.append(stats.rows)
        else:
            part = stats.sum()
            self._total = part if self._total is None else self._total + part

    @property
    def nrefs(self) -> int:
        """References per segment over every chunk, or -1 where it varies."""
        return next(iter(self._nrefs)) if len(self._nrefs) == 1 else -1

    def result(self) -> Stats:
        """The rows (``keep="rows"``) or one row of their sums (``keep="sum"``)."""
        import numpy as np

        if self._first is None:
            raise InvalidInputError("no statistics were added")
        config = self._first.config
        if self.keep == "sum":
            return Stats._trusted(self._total[None, :], config, self.nrefs)
        if self._file is not None:
            return Stats._trusted(self._file.finish(), config, self.nrefs)
        rows = self._parts[0] if len(self._parts) == 1 else np.concatenate(self._parts)
        return Stats._trusted(rows, config, self.nrefs)


class _RowsFile:
    """Rows appended to an ``.npy`` file as they come, read back memory-mapped: the header is
    written first with room for any row count, and rewritten with the real one at the end
    (padded to the same length, as the format allows)."""

    _ROOM = 2**62  # a row count with as many digits as any real one

    def __init__(self, path: Union[str, os.PathLike]) -> None:
        # Checked: open() takes an int as a file descriptor, and would write over it.
        if not isinstance(path, (str, os.PathLike)):
            raise InputTypeError(f"rows_file must be a file path, got {type(path).__name__}")
        self._path = os.fspath(path)
        self._f = open(self._path, "wb")
        self._width: Union[int, None] = None
        self._rows = 0
        self._header_size = 0

    def append(self, rows: np.ndarray) -> None:
        if self._width is None:
            self._width = int(rows.shape[1])
            self._header_size = self._write_header(self._ROOM, 0)
        self._f.write(rows.astype("<i8", copy=False).tobytes())
        self._rows += len(rows)

    def finish(self) -> np.ndarray:
        import numpy as np

        self._f.seek(0)
        self._write_header(self._rows, self._header_size)
        self._f.close()
        return np.load(self._path, mmap_mode="r")

    def _write_header(self, rows: int, size: int) -> int:
        header = repr({"descr": "<i8", "fortran_order": False, "shape": (rows, self._width)})
        prefix = b"\x93NUMPY\x01\x00"
        # The header (with its 2-byte length and newline) pads the whole to a multiple of 64.
        length = size or -(-(len(prefix) + 2 + len(header) + 1) // 64) * 64
        text = header.ljust(length - len(prefix) - 2 - 1) + "\n"
        self._f.write(prefix + len(text).to_bytes(2, "little") + text.encode("latin1"))
        return length


def check_mergeable(first: Any, other: Any) -> None:
    """Statistics merge only with statistics of their own class and configuration."""
    kind = type(first).__name__
    if not isinstance(other, type(first)):
        raise InputTypeError(f"can only merge {kind} with {kind}, got {type(other).__name__}")
    if other.config != first.config:
        raise StatsMismatchError(
            f"cannot merge statistics of different configurations: {first.config} and "
            f"{other.config}"
        )


def check_nrefs(nrefs: Any) -> int:
    """References per segment: an int >= 1, or -1 where it varies."""
    import numpy as np

    if isinstance(nrefs, bool) or not isinstance(nrefs, (int, np.integer)):
        raise StatsFormatError(f"nrefs must be an int, got {type(nrefs).__name__}")
    if nrefs < 1 and nrefs != -1:
        raise StatsFormatError(f"nrefs must be >= 1, or -1 where it varies; got {nrefs}")
    return int(nrefs)


def _not_stats(path: Union[str, os.PathLike], why: str) -> StatsFormatError:
    return StatsFormatError(
        f"{os.fspath(path)!r} is not a bleuprint statistics file (written by Stats.save): {why}"
    )


def read_stats_file(path: Union[str, os.PathLike]) -> tuple[Any, Any, Any]:
    """``(rows, config, nrefs)`` read from an ``.npz`` written by ``Stats.save``; never
    unpickles. Anything else raises :class:`StatsFormatError` saying what is wrong."""
    import json  # start-up time: only loading statistics loads the json package

    arrays = load_npz(path, ["meta", "rows"], lambda why: _not_stats(path, why))
    rows, meta = arrays["rows"], arrays["meta"]
    if meta.shape != () or meta.dtype.kind != "U":
        raise _not_stats(path, f"'meta' must be one JSON string, got {meta.dtype} {meta.shape}")
    try:
        info = json.loads(str(meta))
    except json.JSONDecodeError as error:
        raise _not_stats(path, f"'meta' is not JSON ({error})") from None
    if not isinstance(info, dict) or set(info) != {"config", "nrefs"}:
        raise _not_stats(path, "'meta' must be a JSON object with 'config' and 'nrefs'")
    if rows.dtype.kind not in "iu":
        raise _not_stats(path, f"'rows' must be integers, got dtype {rows.dtype}")
    return rows, config_from_dict(info["config"]), check_nrefs(info["nrefs"])
