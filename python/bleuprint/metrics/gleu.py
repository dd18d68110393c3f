"""GLEU (Wu et al. 2016) as nltk's ``corpus_gleu`` and HF evaluate's ``google_bleu`` compute
it, as a metric configuration whose statistics are :class:`~bleuprint.Stats`.

A row is ``[n_match, n_all]`` of one segment (the core counts every n-gram of orders
``min_len..max_len`` against the reference that gives the best sentence GLEU); the corpus
GLEU is ``sum(n_match) / sum(n_all)``, 0.0 when there is nothing to count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Optional

import numpy as np

from bleuprint import _core
from bleuprint.errors import InvalidOptionError
from bleuprint.metrics.config import register_config
from bleuprint.metrics.scores import Score, Signature
from bleuprint.metrics.stats import Stats


class GLEUScore(Score):
    """A GLEU score (0..1) with its summed counts."""

    def __init__(self, score: float, n_match: int, n_all: int) -> None:
        super().__init__("GLEU", score)
        self.n_match = n_match
        self.n_all = n_all


def gleu(n_match: int, n_all: int) -> float:
    """nltk's ``corpus_gleu`` of summed counts: ``n_match / n_all``, 0.0 without n-grams."""
    return 0.0 if n_all == 0 else n_match / n_all


@register_config
@dataclass(frozen=True)
class GLEUConfig:
    """GLEU's settings: the tokenizer (a core tokenizer name, or ``None`` for the caller's
    token lists) and the n-gram orders ``min_len..max_len``."""

    tokenize: Optional[str] = "13a"
    min_len: int = 1
    max_len: int = 4

    metric = "GLEU"
    higher_is_better = True
    #: No upstream resamples GLEU; integer sums are exact.
    resample_float32 = False
    width = 2
    column_names = tuple(_core.GLEU_COLUMNS)

    def __post_init__(self) -> None:
        for name in ("min_len", "max_len"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidOptionError(f"{name} must be an int >= 1, got {value!r}")

    def stats(
        self,
        hypotheses: Sequence[Any],
        references: Sequence[Sequence[Any]],
        *,
        workers: int = -1,
    ) -> Stats:
        """Statistics of ``hypotheses`` (text, or token lists with ``tokenize=None``);
        ``references[i]`` lists the references of ``hypotheses[i]``."""
        rows = _core.gleu_stats(
            hypotheses,
            references,
            tokenizer=self.tokenize,
            min_len=self.min_len,
            max_len=self.max_len,
            workers=workers,
        )
        counts = set(map(len, references))  # at C speed: it runs on every call
        return Stats._trusted(rows, self, counts.pop() if len(counts) == 1 else -1)

    def score_row(self, row: Any) -> GLEUScore:
        """The GLEU of one (summed) row."""
        n_match, n_all = (int(x) for x in np.asarray(row, dtype=np.int64).reshape(2))
        return GLEUScore(gleu(n_match, n_all), n_match, n_all)

    def score_corpus(self, rows: Any) -> GLEUScore:
        """The corpus GLEU of per-segment rows."""
        return self.score_row(np.asarray(rows, dtype=np.int64).reshape(-1, 2).sum(axis=0))

    def score_rows_detailed(self, rows: Any) -> list[GLEUScore]:
        """Every row's GLEU score."""
        return [self.score_row(row) for row in np.asarray(rows, dtype=np.int64).reshape(-1, 2)]

    def score_rows(self, rows: Any) -> np.ndarray:
        """Every row's GLEU as float64, shape ``(n,)``."""
        return np.array([gleu(m, t) for m, t in np.asarray(rows).reshape(-1, 2).tolist()])

    def score_sums(self, sums: Any) -> np.ndarray:
        """GLEU of summed rows (one resample or trial per row)."""
        return self.score_rows(sums)

    def float_rows(self, rows: Any) -> np.ndarray:
        return np.asarray(rows, dtype=np.float64)

    def randomization_rows(self, rows: Any) -> tuple[np.ndarray, int]:
        return np.asarray(rows, dtype=np.int64), 1

    def signature(self, nrefs: int) -> Signature:
        """``nrefs:1|tok:13a|ngram:1-4|version:...``."""
        signature = Signature(nrefs)
        signature.abbreviations.update({"tok": "tok", "ngram": "n"})
        signature.info.update(
            {"tok": self.tokenize or "tokens", "ngram": f"{self.min_len}-{self.max_len}"}
        )
        return signature

    def to_dict(self) -> dict[str, Any]:
        return {"metric": self.metric, **asdict(self)}
