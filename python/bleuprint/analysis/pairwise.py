"""Every hypothesis against every reference: the utility matrices of MBR decoding, their row
means (expected utilities), and reference aggregation (linear-time MBR).

Cell ``(i, j)`` equals ``metric.sentence_score(hypotheses[i], [references[j]]).score``
exactly, under the metric's own settings. Each sentence is tokenized and counted once per call
(``_count_sentences``), whatever the matrix size; the scorer then scores blocks of cells from
those counts (``_score_block``, in the Rust core for BLEU and chrF). A scorer is any
:class:`~bleuprint.metrics.protocol.PairwiseScorer`: every metric object, BLEU under any
preset included.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Optional

from bleuprint.errors import InputTypeError, InvalidInputError, InvalidOptionError
from bleuprint.io.layout import check_hypotheses

if TYPE_CHECKING:
    import numpy as np

    from bleuprint.metrics.protocol import PairwiseScorer


#: Cells per block when expected utilities are computed without the whole matrix.
BLOCK_CELLS = 1 << 20


def _sentences(values: Any, what: str) -> list[str]:
    """A non-empty list of str, or an error naming ``what``."""
    sentences = list(check_hypotheses(values))
    if not sentences:
        raise InvalidInputError(f"{what} is empty: a pairwise matrix needs at least one sentence")
    for k, s in enumerate(sentences):
        if not isinstance(s, str):
            raise InputTypeError(f"{what}[{k}] must be a str, got {type(s).__name__}")
    return sentences


def _is_batch(hypotheses: Any) -> bool:
    """True for lists of lists of sentences (the batched ``[B, H, R]`` form)."""
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence) or not hypotheses:
        return False
    first = hypotheses[0]
    return not isinstance(first, (str, bytes)) and isinstance(first, Sequence)


class _Counted:
    """One call's sentences counted once: hypotheses first, then any separate references."""

    def __init__(self, metric: PairwiseScorer, hypotheses: Any, references: Optional[Any]) -> None:
        hyps = _sentences(hypotheses, "hypotheses")
        refs = None if references is None else _sentences(references, "references")
        if refs == hyps:  # the same sentences: counted once, each pair matched once
            refs = None
        self.metric = metric
        self.h = len(hyps)
        self.r = self.h if refs is None else len(refs)
        # Without references the hypotheses are their own references (MBR's samples).
        self.ref_start = 0 if refs is None else self.h
        self.same = refs is None
        self.counts = metric._count_sentences(hyps if refs is None else hyps + refs)

    @property
    def references(self) -> tuple[int, int]:
        """The counted references' range."""
        return self.ref_start, self.ref_start + self.r

    def block(self, start: int, stop: int) -> np.ndarray:
        """Rows ``start:stop`` of the matrix, ``(stop - start, R)`` float64."""
        return self.metric._score_block(self.counts, ((start, stop), self.references))


def _row_blocks(counted: _Counted) -> list[tuple[int, int]]:
    """Row ranges of about :data:`BLOCK_CELLS` cells each."""
    rows = max(1, BLOCK_CELLS // counted.r)
    return [(start, min(counted.h, start + rows)) for start in range(0, counted.h, rows)]


def _check_exclude_self(counted: _Counted, exclude_self: bool) -> None:
    if not isinstance(exclude_self, bool):
        raise InputTypeError(f"exclude_self must be a bool, got {type(exclude_self).__name__}")
    if exclude_self and not counted.same:
        raise InvalidOptionError(
            "exclude_self=True needs references=None (hypotheses scored against each other)"
        )
    if exclude_self and counted.h < 2:
        raise InvalidInputError("exclude_self=True needs at least two hypotheses")


def pairwise(
    metric: PairwiseScorer,
    hypotheses: Any,
    references: Optional[Any] = None,
    *,
    exclude_self: bool = False,
) -> np.ndarray:
    """The ``(H, R)`` float64 matrix of ``metric``'s sentence scores of every hypothesis
    against every reference as its only reference; ``references=None`` scores the hypotheses
    against each other. ``exclude_self`` (with ``references=None``) sets the diagonal to NaN.

    Lists of lists (``hypotheses[b]`` with ``references[b]``) give a ``(B, H, R)`` array, one
    matrix per batch item; every item needs the same H and R.
    """
    metric._before_sentence_scores()
    return _matrices(metric, hypotheses, references, exclude_self)


def _matrices(
    metric: PairwiseScorer, hypotheses: Any, references: Optional[Any], exclude_self: bool
) -> np.ndarray:
    """:func:`pairwise` after its warnings: one matrix, or a stack of one per batch item."""
    import numpy as np

    if _is_batch(hypotheses):
        if references is not None and (
            isinstance(references, (str, bytes)) or not isinstance(references, Sequence)
        ):
            raise InputTypeError(
                "references of a batch must be a list of reference lists, one per hypothesis "
                f"list; got {type(references).__name__}"
            )
        if references is not None and len(references) != len(hypotheses):
            raise InvalidInputError(
                f"got {len(hypotheses)} hypothesis lists but {len(references)} reference lists"
            )
        matrices = [
            _matrices(metric, h, None if references is None else references[b], exclude_self)
            for b, h in enumerate(hypotheses)
        ]
        shapes = {m.shape for m in matrices}
        if len(shapes) > 1:
            raise InvalidInputError(
                f"batch items have different matrix shapes {sorted(shapes)}; a (B, H, R) array "
                "needs the same number of hypotheses and references in every item (call "
                "pairwise per item instead)"
            )
        return np.stack(matrices)
    counted = _Counted(metric, hypotheses, references)
    _check_exclude_self(counted, exclude_self)
    # One call: the core keeps no statistics beyond a block per thread, and a square matrix
    # (references=None) matches each pair once for both of its cells.
    matrix = counted.block(0, counted.h)
    if exclude_self:
        np.fill_diagonal(matrix, np.nan)
    return matrix


def _weights(weights: Optional[Any], r: int) -> Optional[list[float]]:
    if weights is None:
        return None
    import numpy as np

    try:
        values = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputTypeError("weights must be a sequence of numbers, one per reference") from None
    if values.shape != (r,):
        raise InvalidInputError(
            f"weights has shape {values.shape}, expected ({r},): one weight per reference"
        )
    if not np.all(np.isfinite(values)) or np.any(values < 0) or not values.sum() > 0:
        raise InvalidOptionError("weights must be finite, >= 0, and not all zero")
    return [float(w) for w in values]


def expected_utility(
    metric: PairwiseScorer,
    hypotheses: Sequence[str],
    references: Optional[Sequence[str]] = None,
    *,
    weights: Optional[Any] = None,
    exclude_self: bool = False,
) -> np.ndarray:
    """Each hypothesis' mean score against the references (float64 ``(H,)``): the row means
    of :func:`pairwise`'s matrix, each computed with ``math.fsum``, weighted by ``weights``
    (one per reference: ``fsum(w * s) / fsum(w)``) when given. ``exclude_self`` leaves each
    hypothesis' own cell out. The matrix is made in blocks of rows, never whole.
    """
    import numpy as np

    metric._before_sentence_scores()
    counted = _Counted(metric, hypotheses, references)
    _check_exclude_self(counted, exclude_self)
    w = _weights(weights, counted.r)
    out = np.empty(counted.h, dtype=np.float64)
    for start, stop in _row_blocks(counted):
        block = counted.block(start, stop)
        for i in range(start, stop):
            row = block[i - start].tolist()
            row_weights = w
            if exclude_self:
                del row[i]
                row_weights = None if w is None else w[:i] + w[i + 1 :]
            if row_weights is None:
                out[i] = math.fsum(row) / len(row)
                continue
            total = math.fsum(row_weights)
            if not total > 0:
                raise InvalidOptionError(f"hypothesis {i}'s weights (without its own) sum to 0")
            out[i] = math.fsum(map(float.__mul__, row_weights, row)) / total
    return out


def aggregate_utility(
    metric: PairwiseScorer,
    hypotheses: Sequence[str],
    references: Optional[Sequence[str]] = None,
    *,
    weights: Optional[Any] = None,
    log_weights: Optional[Sequence[float]] = None,
) -> np.ndarray:
    """Each hypothesis scored against the references' expected n-gram statistics (float64
    ``(H,)``): reference aggregation, DeNero et al. (2009) for BLEU and Vamvas & Sennrich
    (2024) for chrF, in linear time. Equal to mbrs' ``expected_scores_reference_aggregation``
    before mbrs rounds it to float32 (see docs/mbr.md). ``weights`` (one per reference, >= 0)
    weigh the references; by default each has ``1 / R``. ``log_weights`` instead gives the
    normalised log weights themselves, used as they are (the mbrs plugin passes mbrs' own
    ``log_softmax`` values, whose last bits a log of weights would not give back).
    """
    import numpy as np

    counted = _Counted(metric, hypotheses, references)
    w = _weights(weights, counted.r)
    if log_weights is not None:
        if w is not None:
            raise InvalidOptionError("give weights or log_weights, not both")
        if len(log_weights) != counted.r:
            raise InvalidInputError(
                f"log_weights has {len(log_weights)} values, expected {counted.r}: one per "
                "reference"
            )
        log_weights = [float(x) for x in log_weights]
        if any(math.isnan(x) or x == math.inf for x in log_weights):
            raise InvalidOptionError("log_weights must be finite numbers or -inf")
    elif w is None:
        # mbrs' uniform weights: lprob = -log(R) for every reference.
        log_weights = [-math.log(counted.r)] * counted.r
    else:
        log_total = math.log(math.fsum(w))
        log_weights = [math.log(x) - log_total if x > 0 else -math.inf for x in w]
    block = ((0, counted.h), counted.references)
    scores = metric._aggregate_block(counted.counts, block, log_weights)
    return np.asarray(scores, dtype=np.float64)
