"""TER (Snover et al. 2006), bit-identical to sacrebleu 2.6.0's ``TER``.

The core tokenizes with the Tercom rules, runs sacrebleu's beam edit distance with its shift
search, and returns one integer row per segment: ``[edits, ref_words, nrefs]``, the fewest
edits over the references, the summed reference lengths and their count. sacrebleu's own
statistics (edits and the *average* reference length) follow from these exactly, and unlike
a float average they can be summed, resampled and saved as integers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Optional

from bleuprint import _core
from bleuprint.errors import InvalidOptionError
from bleuprint.metrics.base import Score, Signature, register_config
from bleuprint.metrics.metric import Metric, References

if TYPE_CHECKING:
    import numpy as np


@register_config
@dataclass(frozen=True)
class TERConfig:
    """Every setting that changes TER statistics or scores."""

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False

    metric = "TER"
    width = 3
    #: Lower scores are better (read by the paired tests' clusters, which rank best first).
    higher_is_better = False
    column_names = tuple(_core.TER_COLUMNS)

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

    @staticmethod
    def _rows(rows: Any) -> np.ndarray:
        import numpy as np

        return np.ascontiguousarray(np.asarray(rows, dtype=np.int64).reshape(-1, 3))

    def score_row(self, row: Any) -> TERScore:
        """Scores one (summed) statistics row.

        A summed row has lost the per-segment average lengths, so it is scored as one segment;
        use :meth:`score_corpus` for corpus TER from per-segment rows.
        """
        return self.score_rows_detailed(row)[0]

    def score_corpus(self, rows: Any) -> TERScore:
        """Corpus TER of per-segment rows: total edits over the sum of average reference
        lengths, summed in segment order as sacrebleu's ``sum_of_lists`` does (by the core)."""
        return TERScore(*_core.ter_corpus_score(self._rows(rows)))

    def score_rows(self, rows: Any) -> np.ndarray:
        """Scores every row of a statistics matrix; a float64 array of shape ``(n,)``."""
        return _core.ter_row_scores(self._rows(rows))[0]

    #: sacrebleu's bootstrap casts these statistics to float32 before summing resamples.
    resample_float32 = True

    def float_rows(self, rows: Any) -> np.ndarray:
        """sacrebleu's per-segment statistics ``[edits, average reference length]``."""
        import numpy as np

        _, edits, lengths = _core.ter_row_scores(self._rows(rows))
        return np.stack([edits.astype(np.float64), lengths], axis=1)

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

        return _core.ter_scores_from_sums(np.ascontiguousarray(sums, dtype=np.float64))[0]

    def score_float32_sums(self, sums: Any) -> tuple[np.ndarray, np.ndarray]:
        """Scores float32 resample sums as sacrebleu does on numpy.float32 statistics:
        ``(scores, is_float32)``."""
        import numpy as np

        return _core.ter_scores_from_sums(np.ascontiguousarray(sums, dtype=np.float32))

    def score_rows_detailed(self, rows: Any) -> list[TERScore]:
        """Scores every row, as :class:`TERScore` objects."""
        scores, edits, lengths = _core.ter_row_scores(self._rows(rows))
        return [
            TERScore(*score) for score in zip(scores.tolist(), edits.tolist(), lengths.tolist())
        ]

    def signature(self, nrefs: int) -> TERSignature:
        """The signature for statistics made with ``nrefs`` references per segment."""
        return TERSignature(self, nrefs)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable description (used when saving statistics)."""
        return {"metric": self.metric, **asdict(self)}


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
    references
        Reference streams to prepare once and reuse for every ``corpus_score`` call.
    workers
        Threads for the core (``-1``: every core). Results are identical for every value.

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
        config = TERConfig(
            normalized=normalized,
            no_punct=no_punct,
            asian_support=asian_support,
            case_sensitive=case_sensitive,
        )
        super().__init__(config, references, workers)

    @property
    def normalized(self) -> bool:
        return self.config.normalized

    @property
    def no_punct(self) -> bool:
        return self.config.no_punct

    @property
    def asian_support(self) -> bool:
        return self.config.asian_support

    @property
    def case_sensitive(self) -> bool:
        return self.config.case_sensitive

    def _count_sentences(self, sentences: list[str]) -> Any:
        config = self.config
        return _core.ter_sentences(
            self._prepare_stream(sentences),
            normalized=config.normalized,
            no_punct=config.no_punct,
            asian_support=config.asian_support,
            workers=self.workers,
        )

    def _score_block(
        self, counted: Any, hypotheses: tuple[int, int], references: tuple[int, int]
    ) -> np.ndarray:
        return _core.ter_pairwise(counted, hypotheses, references, workers=self.workers)

    def _compute_stats(
        self, hyps: Sequence[Any], streams: list[Sequence[Any]]
    ) -> tuple[np.ndarray, int]:
        return _core.ter_stats(
            hyps,
            streams,
            normalized=self.config.normalized,
            no_punct=self.config.no_punct,
            asian_support=self.config.asian_support,
            workers=self.workers,
        )
