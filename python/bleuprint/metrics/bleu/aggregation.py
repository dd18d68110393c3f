"""A preset's per-segment rows, and how they add up to corpus counts.

A preset's row starts like every BLEU row, ``[hyp_len, ref_len, correct_1..N, total_1..N]``,
and then holds the extra columns its knobs need, so that the corpus counts are a function of
the rows alone and shards merge with ``+``:

- ``aggregation="nltk"``: each total is stored as at least 1, as nltk counts a segment;
- ``ref_length="average"``: ``nrefs``, the segment's reference count (``ref_len`` holds the
  summed reference lengths; the corpus length adds ``ref_len / nrefs`` in row order);
- smoothing ``nltk5``-``nltk7``: ``correct_5gram`` and ``total_5gram``; the last row's feed
  the smoothing, as nltk's ``corpus_bleu`` hands it the last segment;
- ``aggregation="multi-prediction"``: one row per item (its predictions' counts summed),
  then ``item_hyp_len`` (longest prediction) and ``item_ref_len`` (shortest reference).

Column sums are integer sums, except under ``dtype="float32"`` (torchmetrics), whose counts
are added segment by segment in float32: :func:`float32_running_sum` is that state's one home.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Union

from bleuprint.errors import InvalidInputError, InvalidOptionError
from bleuprint.metrics.bleu.knobs import Knobs

if TYPE_CHECKING:
    import numpy as np

#: Counts and lengths: Python ints, floats (average reference length) or numpy.float32.
Number = Union[int, float, "np.floating[Any]"]

#: nltk's smoothing methods that read the corpus' last segment (5, and 7 which ends with 5;
#: 6 reads its length).
LAST_SEGMENT_SMOOTHINGS = ("nltk5", "nltk6", "nltk7")
# Method 5 averages in the last segment's 5-gram precision, whatever the orders in use.
_LAST_SEGMENT_ORDER = 5


# Records are NamedTuples, not dataclasses: a dataclass costs ``import bleuprint`` 0.25 ms.
class LastSegment(NamedTuple):
    """What nltk's corpus-level smoothing reads of the corpus' last segment, as numbers: its
    length (methods 4 and 6 count its n-grams from it) and its clipped 5-gram matches and
    5-gram total (method 5's extra precision, as ``Fraction(correct_5, max(1, total_5))``)."""

    length: int
    correct_5: int
    total_5: int


class CorpusCounts(NamedTuple):
    """Counts summed over a corpus, plus what some aggregations need besides sums."""

    hyp_len: Number
    ref_len: Number
    correct: list[Any]
    total: list[Any]
    #: The last segment's tokens, for a caller's own nltk smoothing function.
    last_hypothesis: Any = None
    last_references: Any = None
    #: The last segment as numbers, for the nltk5-nltk7 smoothings.
    last: Optional[LastSegment] = None
    #: multi-prediction: summed per-item longest prediction and shortest reference.
    item_hyp_len: Optional[int] = None
    item_ref_len: Optional[int] = None


def reads_last_segment(config: Knobs) -> bool:
    """Whether the score reads the corpus' last segment besides the sums."""
    return config.smooth_method in LAST_SEGMENT_SMOOTHINGS


def extra_columns(config: Knobs) -> tuple[str, ...]:
    """The columns a preset's rows hold after the BLEU columns."""
    extra: tuple[str, ...] = ()
    if config.ref_length == "average":
        extra += ("nrefs",)
    if reads_last_segment(config):
        extra += ("correct_5gram", "total_5gram")
    if config.aggregation == "multi-prediction":
        extra += ("item_hyp_len", "item_ref_len")
    return extra


def check_row_knobs(config: Knobs) -> None:
    """Refuses the knob combinations whose per-item rows could not keep what they need."""
    if config.aggregation != "multi-prediction":
        return
    if config.ref_length == "average" or reads_last_segment(config) or config.dtype == "float32":
        raise InvalidOptionError(
            "aggregation='multi-prediction' sums each item's predictions into one row, so it "
            "takes neither ref_length='average', nor smoothing nltk5-nltk7, nor dtype='float32'"
        )


def counting_order(config: Knobs) -> int:
    """The n-gram order to count: the knobs' orders, and 5-grams for the last-segment
    smoothings."""
    if reads_last_segment(config):
        return max(config.orders, _LAST_SEGMENT_ORDER)
    return config.orders


def resamplable(config: Knobs) -> Optional[str]:
    """``None`` when the corpus counts are a function of the column sums (so bootstrap
    resampling and paired tests are defined), else why not."""
    if config.ref_length == "average":
        return "ref_length='average' adds per-segment float lengths in corpus order"
    if reads_last_segment(config):
        return f"smoothing {config.smooth_method!r} reads the corpus' last segment"
    return None


def split_counted(counted: np.ndarray, config: Knobs) -> tuple[np.ndarray, np.ndarray]:
    """Core rows counted to :func:`counting_order` as ``(rows of config.orders, 5-gram
    columns [correct_5, total_5])``."""
    n, counted_order = config.orders, (counted.shape[1] - 2) // 2
    fifth = 2 + _LAST_SEGMENT_ORDER - 1
    five = counted[:, [fifth, fifth + counted_order]]
    keep = [0, 1, *range(2, 2 + n), *range(2 + counted_order, 2 + counted_order + n)]
    return counted[:, keep], five


def preset_rows(
    rows: np.ndarray,
    config: Knobs,
    *,
    nrefs: Optional[Sequence[int]] = None,
    items: Optional[Sequence[Hashable]] = None,
    five_grams: Optional[np.ndarray] = None,
) -> np.ndarray:
    """A preset's rows from core rows (``[hyp_len, ref_len, correct_1..N, total_1..N]``).

    ``nrefs`` (references per segment) is needed for ``ref_length="average"``, ``items``
    (the item of each row) for ``aggregation="multi-prediction"`` and ``five_grams`` (each
    row's ``[correct_5, total_5]``) for the last-segment smoothings.
    """
    import numpy as np

    check_row_knobs(config)
    n = config.orders
    if config.aggregation == "nltk":
        rows = rows.copy()
        np.maximum(rows[:, 2 + n :], 1, out=rows[:, 2 + n :])
    columns = [rows]
    if config.ref_length == "average":
        if nrefs is None:
            raise InvalidOptionError("ref_length='average' needs the number of references per row")
        columns.append(np.asarray(nrefs, dtype=np.int64).reshape(-1, 1))
    if reads_last_segment(config):
        if five_grams is None:
            raise InvalidOptionError(
                f"smoothing {config.smooth_method!r} needs every row's 5-gram counts"
            )
        columns.append(np.asarray(five_grams, dtype=np.int64).reshape(-1, 2))
    rows = np.hstack(columns) if len(columns) > 1 else rows
    if config.aggregation == "multi-prediction":
        rows = _item_rows(rows, items)
    return np.ascontiguousarray(rows, dtype=np.int64)


def _item_rows(rows: np.ndarray, items: Optional[Sequence[Hashable]]) -> np.ndarray:
    """One row per item (in order of first appearance): the counts of its predictions summed,
    then its longest prediction and its shortest reference length."""
    import numpy as np

    if items is None:
        raise InvalidOptionError("aggregation='multi-prediction' needs the item of each row")
    if len(items) != len(rows):
        raise InvalidInputError(f"got {len(items)} items for {len(rows)} predictions")
    index: dict[Hashable, int] = {}
    of_row = np.array([index.setdefault(item, len(index)) for item in items], dtype=np.intp)
    summed = np.zeros((len(index), rows.shape[1]), dtype=np.int64)
    np.add.at(summed, of_row, rows)
    longest = np.zeros(len(index), dtype=np.int64)
    np.maximum.at(longest, of_row, rows[:, 0])
    shortest = np.full(len(index), np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(shortest, of_row, rows[:, 1])
    return np.hstack([summed, longest[:, None], shortest[:, None]])


def float32_running_sum(rows: Any, start: Optional[np.ndarray] = None) -> np.ndarray:
    """torchmetrics' float32 state: ``start`` (zeros by default) plus each row in turn, every
    addition rounded to float32. Continuing from a previous result equals one call over all
    rows, so batches may arrive in any split."""
    import numpy as np

    rows = np.asarray(rows, dtype=np.float32)
    if start is None:
        start = np.zeros(rows.shape[1], dtype=np.float32)
    if not len(rows):
        return np.asarray(start, dtype=np.float32).copy()
    stacked = np.vstack([np.asarray(start, dtype=np.float32)[None, :], rows])
    return np.cumsum(stacked, axis=0, dtype=np.float32)[-1]


def _column(config: Knobs, name: str) -> int:
    return 2 + 2 * config.orders + extra_columns(config).index(name)


def sums_counts(sums: Any, config: Knobs) -> CorpusCounts:
    """Corpus counts from one vector of column sums (ints, or float32 for torchmetrics)."""
    reason = resamplable(config)
    if reason is not None:
        raise InvalidOptionError(
            f"these statistics cannot be scored from column sums, so they cannot be "
            f"resampled: {reason}"
        )
    return _counts(list(sums), config)


def _counts(totals: list[Any], config: Knobs, **extra: Any) -> CorpusCounts:
    n = config.orders
    if config.aggregation == "multi-prediction":
        extra["item_hyp_len"] = int(totals[_column(config, "item_hyp_len")])
        extra["item_ref_len"] = int(totals[_column(config, "item_ref_len")])
    extra.setdefault("ref_len", totals[1])
    return CorpusCounts(
        totals[0], correct=totals[2 : 2 + n], total=totals[2 + n : 2 + 2 * n], **extra
    )


def corpus_counts(rows: np.ndarray, config: Knobs) -> CorpusCounts:
    """The corpus counts of a preset's rows, as ``config.aggregation`` adds them up."""
    if config.dtype == "float32":
        totals: list[Any] = list(float32_running_sum(rows))
    elif len(rows) == 1:  # one sentence_bleu call: no reduction to set up
        totals = rows[0].tolist()
    else:
        totals = rows.sum(axis=0).tolist()
    extra: dict[str, Any] = {}
    if config.ref_length == "average":
        ref_len = 0.0
        for length, k in zip(rows[:, 1].tolist(), rows[:, _column(config, "nrefs")].tolist()):
            ref_len += float(length) / k
        extra["ref_len"] = ref_len
    if reads_last_segment(config) and len(rows):
        last = rows[-1]
        extra["last"] = LastSegment(
            int(last[0]),
            int(last[_column(config, "correct_5gram")]),
            int(last[_column(config, "total_5gram")]),
        )
    return _counts(totals, config, **extra)
