"""GLEU (Wu et al. 2016) as nltk's ``corpus_gleu`` and HF evaluate's ``google_bleu`` compute
it, as a metric configuration whose statistics are :class:`~bleuprint.Stats`.

A row is ``[n_match, n_all]`` of one segment (the core counts every n-gram of orders
``min_len..max_len`` against the reference that gives the best sentence GLEU); the corpus
GLEU is ``sum(n_match) / sum(n_all)``, 0.0 when there is nothing to count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional

from bleuprint import _core
from bleuprint.errors import InvalidOptionError
from bleuprint.metrics.config import KernelConfig, register_config
from bleuprint.metrics.scores import Score, Signature
from bleuprint.metrics.stats import Stats

if TYPE_CHECKING:
    import numpy as np


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
class GLEUConfig(KernelConfig):
    """GLEU's settings: the tokenizer (a core tokenizer name, or ``None`` for the caller's
    token lists) and the n-gram orders ``min_len..max_len``."""

    tokenize: Optional[str] = "13a"
    min_len: int = 1
    max_len: int = 4

    metric = "GLEU"
    resample_float32 = False  # no upstream resamples GLEU: integer sums stay exact
    counts_sentences = False  # pairwise cells are scored as segments
    aggregates_references = False  # no upstream defines it

    def __post_init__(self) -> None:
        for name in ("min_len", "max_len"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidOptionError(f"{name} must be an int >= 1, got {value!r}")

    def _make_kernel(self) -> Any:
        return _core.GleuKernel(tokenizer=self.tokenize, min_len=self.min_len, max_len=self.max_len)

    def _broken_rows(self, rows: np.ndarray) -> tuple[Any, str]:
        return rows[:, 0] > rows[:, 1], "n_match <= n_all"

    def stats(
        self,
        hypotheses: Sequence[Any],
        references: Sequence[Sequence[Any]],
        *,
        workers: int = -1,
    ) -> Stats:
        """Statistics of ``hypotheses`` (text, or token lists with ``tokenize=None``);
        ``references[i]`` lists the references of ``hypotheses[i]``."""
        rows = _core.grouped_stats(self.kernel, hypotheses, references, workers=workers)
        counts = set(map(len, references))  # at C speed: it runs on every call
        return Stats._trusted(rows, self, counts.pop() if len(counts) == 1 else -1)

    def _results(self, rows: Any, details: dict[str, Any]) -> list[GLEUScore]:
        return [GLEUScore(gleu(m, n), m, n) for m, n in rows]

    def score_rows_detailed(self, rows: Any) -> list[GLEUScore]:
        """Every row's GLEU score."""
        return self._results(self._rows(rows).tolist(), {})

    def score_rows(self, rows: Any) -> np.ndarray:
        """Every row's GLEU as float64, shape ``(n,)``."""
        import numpy as np

        return np.array([gleu(m, n) for m, n in self._rows(rows).tolist()], dtype=float)

    def signature(self, nrefs: int) -> Signature:
        """``nrefs:1|tok:13a|ngram:1-4|version:...``."""
        signature = Signature(nrefs)
        signature.abbreviations.update({"tok": "tok", "ngram": "n"})
        signature.info.update(
            {"tok": self.tokenize or "tokens", "ngram": f"{self.min_len}-{self.max_len}"}
        )
        return signature
