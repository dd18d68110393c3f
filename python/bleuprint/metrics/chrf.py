"""chrF and chrF++ (Popović 2015, 2017), bit-identical to sacrebleu 2.6.0's ``CHRF``.

The core turns text into one integer row per segment, ``[hyp, ref, match]`` for every
character order and then every word order, taken from the reference with the best F-score;
rows become scores there too, with sacrebleu's float operations in sacrebleu's order.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Optional, Union

from bleuprint import _core
from bleuprint.errors import InvalidOptionError
from bleuprint.metrics.base import (
    COMPENSATED_SUM,
    Score,
    Signature,
    SummedRowsScoring,
    register_config,
)
from bleuprint.metrics.metric import Metric, References

if TYPE_CHECKING:
    import numpy as np

CHAR_ORDER = 6
WORD_ORDER = 0
BETA = 2


def _check_order(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ORDER:
        raise InvalidOptionError(f"{name} must be an int >= 0 and <= {MAX_ORDER}, got {value!r}")


#: The highest accepted ``char_order`` and ``word_order`` (the core's bound).
MAX_ORDER: int = _core.MAX_CHRF_ORDER


@register_config
@dataclass(frozen=True)
class CHRFConfig(SummedRowsScoring):
    """Every setting that changes chrF statistics or scores.

    ``beta`` is part of the statistics too, because the best of several references is the one
    with the highest F-beta score.
    """

    char_order: int = CHAR_ORDER
    word_order: int = WORD_ORDER
    beta: Union[int, float] = BETA
    lowercase: bool = False
    whitespace: bool = False
    eps_smoothing: bool = False

    metric = "chrF"
    #: Higher scores are better (read by the paired tests' clusters, which rank best first).
    higher_is_better = True

    def __post_init__(self) -> None:
        _check_order("char_order", self.char_order)
        _check_order("word_order", self.word_order)
        if self.char_order + self.word_order == 0:
            raise InvalidOptionError("chrF needs char_order + word_order >= 1")
        beta = self.beta
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not beta >= 0:
            raise InvalidOptionError(f"beta must be a number >= 0, got {beta!r}")
        if isinstance(beta, float) and beta == float("inf"):
            raise InvalidOptionError("beta must be finite")
        if beta * beta > sys.float_info.max:  # the scores use beta ** 2 as a float
            raise InvalidOptionError(
                f"beta must have a finite square (beta <= 1e154), got {beta!r}"
            )

    @property
    def order(self) -> int:
        """Character orders plus word orders."""
        return self.char_order + self.word_order

    @property
    def width(self) -> int:
        """Columns of a statistics row: ``3 * (char_order + word_order)``."""
        return 3 * self.order

    @property
    def column_names(self) -> tuple[str, ...]:
        """Names of the statistics columns, e.g. ``char1_hyp, char1_ref, char1_match, ...``."""
        return tuple(_core.chrf_column_names(self.char_order, self.word_order))

    @property
    def name(self) -> str:
        """sacrebleu's display name: ``chrF2``, ``chrF2++`` (one ``+`` per word order)."""
        return f"chrF{self.beta}" + "+" * self.word_order

    def _beta_kwargs(self) -> dict[str, float]:
        # sacrebleu computes beta ** 2 with Python numbers (exact for ints); so do we.
        factor = self.beta**2
        return {"factor": float(factor), "one_plus_factor": float(1 + factor)}

    def core_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``_core.chrf_stats`` for this configuration."""
        return {
            "char_order": self.char_order,
            "word_order": self.word_order,
            "whitespace": self.whitespace,
            "eps_smoothing": self.eps_smoothing,
            **self._beta_kwargs(),
        }

    def score_row(self, row: Any) -> CHRFScore:
        """Scores one (summed) statistics row."""
        import numpy as np

        return self.score_rows_detailed(np.asarray(row, dtype=np.int64).reshape(1, -1))[0]

    def score_rows(self, rows: Any) -> np.ndarray:
        """Scores every row of a statistics matrix; a float64 array of shape ``(n,)``."""
        import numpy as np

        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, self.width)
        return _core.chrf_scores(
            rows,
            char_order=self.char_order,
            word_order=self.word_order,
            eps_smoothing=self.eps_smoothing,
            **self._beta_kwargs(),
        )

    def score_float32_sums(self, sums: Any) -> tuple[np.ndarray, np.ndarray]:
        """Scores float32 resample sums with sacrebleu's arithmetic on numpy.float32 counts:
        ``(scores, is_float32)``, the values as float64 and which are numpy.float32."""
        import numpy as np

        sums = np.ascontiguousarray(sums, dtype=np.float32).reshape(-1, self.width)
        return _core.chrf_scores_float32(
            sums,
            char_order=self.char_order,
            word_order=self.word_order,
            eps_smoothing=self.eps_smoothing,
            **self._beta_kwargs(),
        )

    def score_rows_detailed(self, rows: Any) -> list[CHRFScore]:
        """Scores every row, as :class:`CHRFScore` objects."""
        return [
            CHRFScore(s, self.char_order, self.word_order, self.beta)
            for s in self.score_rows(rows).tolist()
        ]

    def signature(self, nrefs: int) -> CHRFSignature:
        """The signature for statistics made with ``nrefs`` references per segment."""
        return CHRFSignature(self, nrefs)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable description (used when saving statistics)."""
        return {"metric": self.metric, **asdict(self)}


class CHRFScore(Score):
    """A chrF score (sacrebleu's ``CHRFScore``); the name is ``chrF{beta}`` plus one ``+``
    per word order."""

    def __init__(self, score: float, char_order: int, word_order: int, beta: Union[int, float]):
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        super().__init__(f"chrF{beta}" + "+" * word_order, score)


class CHRFSignature(Signature):
    """``nrefs:N|case:mixed|eff:yes|nc:6|nw:0|space:no|version:bleuprint-X``.

    ``eff:yes`` means effective-order averaging, i.e. *no* eps smoothing.
    """

    def __init__(self, config: CHRFConfig, nrefs: int) -> None:
        super().__init__(nrefs)
        self.abbreviations.update({"case": "c", "eff": "e", "nc": "nc", "nw": "nw", "space": "s"})
        self.info.update(
            {
                "case": "lc" if config.lowercase else "mixed",
                "eff": "yes" if not config.eps_smoothing else "no",
                "nc": config.char_order,
                "nw": config.word_order,
                "space": "yes" if config.whitespace else "no",
            }
        )


class CHRF(Metric[CHRFScore]):
    """chrF / chrF++ with sacrebleu's constructor, methods and results.

    Parameters
    ----------
    char_order
        Highest character n-gram order (default 6, at most 255).
    word_order
        Highest word n-gram order (default 0; 2 gives chrF++; at most 255).
    beta
        Weight of recall against precision (default 2).
    lowercase
        Lowercase hypotheses and references (Python ``str.lower``).
    whitespace
        Keep whitespace inside character n-grams (default: remove it).
    eps_smoothing
        Average per-order F-scores with a tiny eps for empty orders (chrF++.py, NLTK, Moses)
        instead of sacrebleu's default effective-order averaging.
    references
        Reference streams to prepare once and reuse for every ``corpus_score`` call.
    workers
        Threads for the core (``-1``: every core). Results are identical for every value.

    Examples
    --------
    >>> import bleuprint
    >>> chrf = bleuprint.CHRF(word_order=2)
    >>> chrf.sentence_score("The cat sat on the mat.", ["The cat is on the mat."]).score
    69.43695278069349
    """

    CHAR_ORDER = CHAR_ORDER
    WORD_ORDER = WORD_ORDER
    BETA = BETA

    def __init__(
        self,
        char_order: int = CHAR_ORDER,
        word_order: int = WORD_ORDER,
        beta: Union[int, float] = BETA,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
        references: Optional[References] = None,
        *,
        workers: int = -1,
    ) -> None:
        config = CHRFConfig(
            char_order=char_order,
            word_order=word_order,
            beta=beta,
            lowercase=lowercase,
            whitespace=whitespace,
            eps_smoothing=eps_smoothing,
        )
        super().__init__(config, references, workers)

    # sacrebleu exposes the settings as attributes.
    @property
    def char_order(self) -> int:
        return self.config.char_order

    @property
    def word_order(self) -> int:
        return self.config.word_order

    @property
    def order(self) -> int:
        return self.config.order

    @property
    def beta(self) -> Union[int, float]:
        return self.config.beta

    @property
    def lowercase(self) -> bool:
        return self.config.lowercase

    @property
    def whitespace(self) -> bool:
        return self.config.whitespace

    @property
    def eps_smoothing(self) -> bool:
        return self.config.eps_smoothing

    def _compute_stats(
        self, hyps: Sequence[Any], streams: list[Sequence[Any]]
    ) -> tuple[np.ndarray, int]:
        return _core.chrf_stats(hyps, streams, workers=self.workers, **self.config.core_kwargs())

    def _count_sentences(self, sentences: list[str]) -> Any:
        config = self.config
        return _core.chrf_bags(
            self._prepare_stream(sentences),
            char_order=config.char_order,
            word_order=config.word_order,
            whitespace=config.whitespace,
        )

    def _score_block(
        self, counted: Any, hypotheses: tuple[int, int], references: tuple[int, int]
    ) -> np.ndarray:
        return _core.chrf_pairwise(
            counted,
            hypotheses,
            references,
            eps_smoothing=self.config.eps_smoothing,
            workers=self.workers,
            **self.config._beta_kwargs(),
        )

    def _aggregate_block(
        self,
        counted: Any,
        hypotheses: tuple[int, int],
        references: tuple[int, int],
        log_weights: list[float],
    ) -> np.ndarray:
        return _core.chrf_aggregate(
            counted,
            hypotheses,
            references,
            log_weights,
            eps_smoothing=self.config.eps_smoothing,
            compensated_sum=COMPENSATED_SUM,
            workers=self.workers,
            **self.config._beta_kwargs(),
        )
