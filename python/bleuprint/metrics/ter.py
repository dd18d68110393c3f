"""TER (Snover et al. 2006), bit-identical to sacrebleu 2.6.0's ``TER``.

The core tokenizes with the Tercom rules, runs sacrebleu's beam edit distance with its shift
search, and returns one integer row per segment: ``[edits, ref_words, nrefs]``, the fewest
edits over the references, the summed reference lengths and their count. sacrebleu's own
statistics (edits and the *average* reference length) follow from these exactly, and unlike
a float average they can be summed, resampled and saved as integers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional

from bleuprint import _core
from bleuprint.errors import InvalidOptionError
from bleuprint.metrics.config import KernelConfig, register_config, shared_config
from bleuprint.metrics.metric import Metric, References
from bleuprint.metrics.scores import Score, Signature
from bleuprint.significance.promotion import numpy_scalar_type

if TYPE_CHECKING:
    import numpy as np


@register_config
@dataclass(frozen=True)
class TERConfig(KernelConfig):
    """Every setting that changes TER statistics or scores.

    A summed row has lost the per-segment average reference lengths, so ``score_row`` scores
    it as one segment; ``score_corpus`` gives corpus TER from per-segment rows.
    """

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False

    metric = "TER"
    higher_is_better = False  # an edit rate
    corpus_from_sums = False  # per-segment float averages, added in segment order
    aggregates_references = False  # no n-gram statistics to average
    _results_read_rows = False  # its results are the core's scores and edits

    def __post_init__(self) -> None:
        for name in ("normalized", "no_punct", "asian_support", "case_sensitive"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidOptionError(
                    f"{name} must be True or False, got {getattr(self, name)!r}"
                )

    @property
    def lowercase(self) -> bool:
        """TER is case-insensitive unless ``case_sensitive``."""
        return not self.case_sensitive

    def _make_kernel(self) -> Any:
        return _core.TerKernel(
            normalized=self.normalized, no_punct=self.no_punct, asian_support=self.asian_support
        )

    def _results(self, rows: Any, details: dict[str, Any]) -> list[TERScore]:
        return [
            TERScore(*score)
            for score in zip(details["score"], details["edits"], details["ref_length"])
        ]

    def _broken_rows(self, rows: np.ndarray) -> tuple[Any, str]:
        return rows[:, 2] < 1, "nrefs >= 1 (every segment has a reference)"

    def float_rows(self, rows: Any) -> np.ndarray:
        """sacrebleu's per-segment statistics ``[edits, average reference length]``."""
        import numpy as np

        details = _core.details(self.kernel, self._rows(rows))
        return np.array([details["edits"], details["ref_length"]], dtype=np.float64).T.copy()

    def randomization_rows(self, rows: Any) -> Optional[tuple[np.ndarray, int]]:
        """Integer rows and a divisor whose quotient is sacrebleu's float sums exactly, or
        ``None``. Exact when every segment's reference count is a power of two: the averages
        are then multiples of 1 / (largest count), which float64 adds without rounding in any
        order (sacrebleu adds them inside a matrix product)."""
        import numpy as np

        rows = np.asarray(rows, dtype=np.int64).reshape(-1, 3)
        nrefs = np.maximum(rows[:, 2], 1)
        if np.any(nrefs & (nrefs - 1)):
            return None
        scale = int(nrefs.max()) if len(nrefs) else 1
        scaled = np.stack([rows[:, 0] * scale, rows[:, 1] * (scale // nrefs)], axis=1)
        # Beyond 2**53 / scale the float sums would round.
        if scaled.sum(axis=0).max(initial=0) >= 2**53 // 2:
            return None
        return scaled, scale

    def score_sums(self, sums: Any) -> np.ndarray:
        """Scores of float64 sums ``[edits, reference length]``: float64, ``(n,)``."""
        import numpy as np

        # Float64 sums never meet a Python float in float32: either promotion gives the same.
        sums = np.ascontiguousarray(sums, np.float64)
        return _core.resampled_scores(self.kernel, sums, promotion="weak")[0]

    def score_float32_sums(
        self, sums: Any, promotion: str
    ) -> tuple[np.ndarray, np.ndarray, type[np.floating]]:
        """Scores float32 resample sums as sacrebleu does on numpy.float32 statistics, under
        numpy's scalar ``promotion``: ``(scores, is_numpy, numpy scalar type)``."""
        import numpy as np

        sums = np.ascontiguousarray(sums, np.float32)
        values, is_numpy = _core.resampled_scores(self.kernel, sums, promotion=promotion)
        return values, is_numpy, numpy_scalar_type(promotion)

    def tokenized(self, lines: Sequence[Any]) -> list[Any]:
        """Every line as the Tercom tokenizer (sacrebleu's ``TercomTokenizer``, without its
        lowercasing) splits it, words joined by single spaces."""
        return _core.tokenize(self.kernel, lines, workers=1)

    def signature(self, nrefs: int) -> TERSignature:
        """The signature for statistics made with ``nrefs`` references per segment."""
        return TERSignature(self, nrefs)


class TERScore(Score):
    """A TER score (sacrebleu's ``TERScore``): ``score`` in percent, which can exceed 100.

    Attributes
    ----------
    num_edits : int
        The edits summed over segments.
    ref_length : float
        The average reference lengths summed over segments.
    """

    def __init__(self, score: float, num_edits: float, ref_length: float) -> None:
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length


class TERSignature(Signature):
    """``nrefs:N|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:bleuprint-X``."""

    def __init__(self, config: TERConfig, nrefs: int) -> None:
        super().__init__(nrefs)
        self.abbreviations.update(
            {"case": "c", "tok": "t", "norm": "nr", "punct": "pn", "asian": "as"}
        )
        self.info.update(
            {
                "case": "mixed" if config.case_sensitive else "lc",
                "tok": "tercom",
                "norm": config.normalized,
                "punct": not config.no_punct,
                "asian": config.asian_support,
            }
        )


class TER(Metric[TERScore]):
    """Translation edit rate with sacrebleu's constructor, methods and results.
    ``references`` and ``workers`` are as for every :class:`~bleuprint.metrics.Metric`.

    Parameters
    ----------
    normalized
        Tercom normalization: split punctuation, unescape XML entities, join ``\\n-``.
    no_punct
        Remove punctuation.
    asian_support
        With ``normalized``, split CJK characters; with ``no_punct``, also remove CJK and
        full-width punctuation. Alone it does nothing.
    case_sensitive
        Keep case (TER lowercases by default).

    Examples
    --------
    >>> import bleuprint
    >>> bleuprint.TER().sentence_score("d e f g h a b c", ["a b c d e f g h"]).score
    12.5
    """

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        references: Optional[References] = None,
        *,
        workers: int = -1,
    ) -> None:
        config = shared_config(TERConfig, normalized, no_punct, asian_support, case_sensitive)
        super().__init__(config, references, workers)
