"""chrF and chrF++ (Popović 2015, 2017), bit-identical to sacrebleu 2.6.0's ``CHRF``.

The core turns text into one integer row per segment, ``[hyp, ref, match]`` for every
character order and then every word order, taken from the reference with the best F-score;
rows become scores there too, with sacrebleu's float operations in sacrebleu's order.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Union

from bleuprint import _core
from bleuprint.errors import InvalidOptionError
from bleuprint.metrics.config import (
    COMPENSATED_SUM,
    KernelConfig,
    register_config,
    shared_config,
)
from bleuprint.metrics.metric import Metric, References
from bleuprint.metrics.scores import Score, Signature

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
class CHRFConfig(KernelConfig):
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
    _results_read_rows = False  # its results are the core's scores

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
    def name(self) -> str:
        """sacrebleu's display name: ``chrF2``, ``chrF2++`` (one ``+`` per word order)."""
        return f"chrF{self.beta}" + "+" * self.word_order

    def _make_kernel(self) -> Any:
        # sacrebleu computes beta ** 2 with Python numbers (exact for ints); so do we.
        factor = self.beta**2
        return _core.ChrfKernel(
            char_order=self.char_order,
            word_order=self.word_order,
            factor=float(factor),
            one_plus_factor=float(1 + factor),
            whitespace=self.whitespace,
            eps_smoothing=self.eps_smoothing,
            compensated_sum=COMPENSATED_SUM,
        )

    def _results(self, rows: Any, details: dict[str, Any]) -> list[CHRFScore]:
        return [CHRFScore(s, self.char_order, self.word_order, self.beta) for s in details["score"]]

    def _broken_rows(self, rows: np.ndarray) -> tuple[Any, str]:
        triples = rows.reshape(len(rows), -1, 3)
        match = triples[:, :, 2]
        bad = ((match > triples[:, :, 0]) | (match > triples[:, :, 1])).any(axis=1)
        return bad, "match <= hyp and match <= ref for every order"

    def signature(self, nrefs: int) -> CHRFSignature:
        """The signature for statistics made with ``nrefs`` references per segment."""
        return CHRFSignature(self, nrefs)


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
    """chrF / chrF++ with sacrebleu's constructor, methods and results. ``references`` and
    ``workers`` are as for every :class:`~bleuprint.metrics.Metric`.

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
        config = shared_config(
            CHRFConfig, char_order, word_order, beta, lowercase, whitespace, eps_smoothing
        )
        super().__init__(config, references, workers)

    @property
    def order(self) -> int:
        return self.config.order
