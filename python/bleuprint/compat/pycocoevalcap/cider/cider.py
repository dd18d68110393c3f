"""pycocoevalcap 1.2's ``cider/cider.py``: :class:`Cider`, scored by :class:`bleuprint.CIDEr`.

CIDEr-D of each caption against its image's references (``cider_scorer.py``): TF-IDF n-gram
vectors over the references' document frequencies, clipped cosines, the Gaussian length
penalty, ``numpy`` means. Upstream's quirks are kept: it always counts n-grams up to 4, so
``Cider(n=5)`` averages four orders and a zero over five, and ``Cider(n=3)`` raises
``IndexError`` once a caption has four words; a set whose references hold no word at all
raises ``ValueError`` (``max()`` of no document frequency).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bleuprint.compat.pycocoevalcap.captions import caption_streams, check_captions
from bleuprint.metrics.cider import CIDEr
from bleuprint.metrics.scores import gc_paused

if TYPE_CHECKING:
    import numpy as np

#: The n-gram orders upstream's ``precook`` counts, whatever ``n`` is.
COUNTED_ORDERS = 4


class Cider:
    """CIDEr-D of COCO captions (pycocoevalcap's ``Cider``)."""

    def __init__(self, test: Any = None, refs: Any = None, n: int = 4, sigma: float = 6.0) -> None:
        self._n = n
        self._sigma = sigma

    # The per-image lists are many small objects: built with the collector paused.
    @gc_paused()
    def compute_score(
        self, gts: Mapping[Any, Sequence[str]], res: Mapping[Any, Sequence[str]]
    ) -> tuple[Any, np.ndarray]:
        """``(score, scores)``: ``numpy.mean`` of the images' CIDEr-D (a numpy float) and the
        images' scores, in the order of ``gts``' keys."""
        check_captions(gts, res)
        hypotheses, streams = caption_streams(gts, res)
        if not any(r.split() for refs in gts.values() for r in refs):
            raise ValueError("max() arg is an empty sequence")  # upstream's max(df.values())
        # Its vectors have n slots; an n-gram of a higher order (up to 4) indexes past them.
        if self._n < COUNTED_ORDERS:
            captions = [*hypotheses, *(r for s in streams for r in s if r)]
            if max(len(c.split()) for c in captions) > self._n:
                raise IndexError("list index out of range")
        if 2 * self._sigma**2 == 0:
            raise ZeroDivisionError("float division by zero")
        orders = min(self._n, COUNTED_ORDERS)
        metric = CIDEr(
            max_ngram_order=orders,
            sigma=self._sigma,
            mean_orders=self._n if self._n > orders else None,
        )
        score = metric.corpus_score(hypotheses, streams)
        return score.numpy_score, score.sentence_scores

    def method(self) -> str:
        return "CIDEr"
