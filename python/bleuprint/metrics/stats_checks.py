"""Checks on statistics that come from outside the library: rows built by hand and ``.npz``
files read by :meth:`bleuprint.Stats.load`.

Rows the library counted itself are right by construction and skip these checks (so the hot
paths pay nothing); anything a caller hands in is checked once, so a hand-made row can never
turn into a silently wrong score (matches above totals gave BLEU 999.99).
"""

from __future__ import annotations

import dataclasses
import json
import os
import zipfile
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Optional, TypeVar, Union

from bleuprint.errors import InvalidOptionError, StatsFormatError, StatsMismatchError
from bleuprint.metrics.config import config_class as lookup_config

if TYPE_CHECKING:
    import numpy as np

T = TypeVar("T")


def check_rows(rows: Any, config: Any) -> np.ndarray:
    """``rows`` as an int64 matrix of ``config``'s width, with counts that the metric could
    have produced; raises :class:`StatsMismatchError` (wrong shape or dtype) or
    :class:`StatsFormatError` (impossible counts)."""
    import numpy as np

    try:
        rows = np.asarray(rows)
    except ValueError:  # numpy's answer to ragged rows
        raise StatsMismatchError(
            f"{config.metric} statistics must be a matrix of shape (n, {config.width}); the "
            "rows have different lengths"
        ) from None
    if rows.ndim != 2 or rows.shape[1] != config.width:
        raise StatsMismatchError(
            f"{config.metric} statistics need shape (n, {config.width}), got {rows.shape}"
        )
    if rows.dtype != np.int64:
        if not np.issubdtype(rows.dtype, np.integer):
            raise StatsMismatchError(f"statistics must be integers, got dtype {rows.dtype}")
        rows = rows.astype(np.int64)  # uint64 beyond int64 wraps negative, refused below
    if rows.size and rows.min() < 0:
        segment, column = np.argwhere(rows < 0)[0]
        raise StatsFormatError(
            f"{config.metric} statistics hold a negative count: row {segment}, column "
            f"{config.column_names[column]!r} is {rows[segment, column]}"
        )
    _check_metric_rules(rows, config)
    return rows


def _first_bad_row(bad: np.ndarray) -> int:
    import numpy as np

    return int(np.flatnonzero(bad)[0])


def _check_metric_rules(rows: Any, config: Any) -> None:
    """Each metric's own consistency rules between columns."""
    if not len(rows):
        return
    metric = config.metric
    if metric in ("BLEU", "BLEU-preset"):
        # A preset's rows hold extra columns after the BLEU ones (variants.aggregation).
        n = config.knobs.orders if metric == "BLEU-preset" else (config.width - 2) // 2
        matches, totals = rows[:, 2 : 2 + n], rows[:, 2 + n : 2 + 2 * n]
        bad = (matches > totals).any(axis=1)
        rule = "correct_n <= total_n (a clipped match count cannot exceed the n-grams)"
        if "nrefs" in config.column_names:
            bad |= rows[:, config.column_names.index("nrefs")] < 1
            rule += " and nrefs >= 1"
    elif metric == "GLEU":
        bad = rows[:, 0] > rows[:, 1]
        rule = "n_match <= n_all"
    elif metric == "chrF":
        triples = rows.reshape(len(rows), -1, 3)
        match = triples[:, :, 2]
        bad = ((match > triples[:, :, 0]) | (match > triples[:, :, 1])).any(axis=1)
        rule = "match <= hyp and match <= ref for every order"
    elif metric == "TER":
        bad = rows[:, 2] < 1
        rule = "nrefs >= 1 (every segment has a reference)"
    elif metric == "WER":
        s, d, i, h, ref_words, hyp_words = rows.T
        bad = (s + d + h != ref_words) | (s + i + h != hyp_words)
        rule = (
            "substitutions + deletions + hits == ref_words and "
            "substitutions + insertions + hits == hyp_words"
        )
    else:
        return
    if bad.any():
        segment = _first_bad_row(bad)
        raise StatsFormatError(
            f"{metric} statistics row {segment} {rows[segment].tolist()} breaks the rule {rule}"
        )


def config_from_dict(d: Any) -> Any:
    """The metric configuration saved as ``d`` (``{"metric": ..., option: value, ...}``)."""
    if not isinstance(d, dict) or not isinstance(d.get("metric"), str):
        raise StatsFormatError(f"saved statistics hold no metric configuration: {d!r:.80}")
    d = dict(d)
    metric = d.pop("metric")
    config_class = lookup_config(metric)
    if config_class is None:
        raise StatsMismatchError(f"unknown metric {metric!r} in saved statistics")
    if dataclasses.is_dataclass(config_class):
        known = {f.name for f in dataclasses.fields(config_class) if f.init}
        unknown = sorted(set(d) - known)
        if unknown:
            raise StatsFormatError(
                f"saved {metric} configuration has unknown options {unknown}; known: "
                f"{sorted(known)}"
            )
    try:
        return config_class(**d)
    except InvalidOptionError as error:
        raise StatsFormatError(f"saved {metric} configuration is invalid: {error}") from None


def check_nrefs(nrefs: Any) -> int:
    """References per segment: an int >= 1, or -1 where it varies."""
    import numpy as np

    if isinstance(nrefs, bool) or not isinstance(nrefs, (int, np.integer)):
        raise StatsFormatError(f"nrefs must be an int, got {type(nrefs).__name__}")
    if nrefs < 1 and nrefs != -1:
        raise StatsFormatError(f"nrefs must be >= 1, or -1 where it varies; got {nrefs}")
    return int(nrefs)


def load_npz(
    path: Union[str, os.PathLike],
    expected: Optional[list[str]],
    not_ours: Callable[[str], Exception],
) -> dict[str, np.ndarray]:
    """The arrays of an ``.npz`` archive (``expected`` names them all, when given), read
    without ever unpickling; anything else raises ``not_ours(why)``. A missing file stays
    ``FileNotFoundError``."""

    def every(get: Callable[[str], np.ndarray], names: list[str]) -> dict[str, np.ndarray]:
        if expected is not None and sorted(names) != sorted(expected):
            raise not_ours(f"it holds {sorted(names)}, not {sorted(expected)}")
        return {name: get(name) for name in names}

    return read_npz(path, not_ours, every)


def read_npz(
    path: Union[str, os.PathLike],
    not_ours: Callable[[str], Exception],
    read: Callable[[Callable[[str], np.ndarray], list[str]], T],
) -> T:
    """``read(get, names)`` on an open ``.npz`` archive: ``get(name)`` reads one array
    (never unpickling), so ``read`` reads only the arrays it needs. A file that is not such
    an archive, or an array that cannot be read, raises ``not_ours(why)``."""
    import numpy as np

    with open(path, "rb") as f:  # a missing file stays FileNotFoundError
        try:
            data = np.load(f, allow_pickle=False)
        except ValueError:  # numpy's answer to a pickle (and to other unknown formats)
            raise not_ours("it is not an .npz archive (a pickle or another format)") from None
        except (EOFError, OSError, zipfile.BadZipFile) as error:
            raise not_ours(f"it cannot be read as .npz ({error})") from None
        if not isinstance(data, np.lib.npyio.NpzFile):
            raise not_ours("it is a single .npy array, not an .npz archive")

        def get(name: str) -> np.ndarray:
            try:
                return np.asarray(data[name])
            except ValueError:
                raise not_ours("its arrays hold Python objects (pickled data)") from None
            except (EOFError, OSError, zipfile.BadZipFile) as error:
                raise not_ours(f"an array cannot be read ({error})") from None

        with data:
            return read(get, list(data.files))


def _not_stats(path: Union[str, os.PathLike], why: str) -> StatsFormatError:
    return StatsFormatError(
        f"{os.fspath(path)!r} is not a bleuprint statistics file (written by Stats.save): {why}"
    )


def read_stats_file(path: Union[str, os.PathLike]) -> tuple[Any, Any, Any]:
    """``(rows, config, nrefs)`` read from an ``.npz`` written by ``Stats.save``; never
    unpickles. Anything else raises :class:`StatsFormatError` saying what is wrong."""
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
