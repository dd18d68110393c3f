"""pycocoevalcap 1.2's ``rouge/rouge.py``: :class:`Rouge`, scored by ``ROUGE(preset="coco")``.

ROUGE-L of each caption against its image's references: tokens are ``str.split(" ")``'s, the
precision and the recall are the highest over the references (each from whichever gives it),
their F-measure has beta 1.2, and the corpus figure is ``numpy.mean`` of the images' scores.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bleuprint.compat.pycocoevalcap.captions import (
    caption_streams,
    check_captions,
    upstream_assert,
)
from bleuprint.metrics.rouge import ROUGE
from bleuprint.metrics.scores import gc_paused

if TYPE_CHECKING:
    import numpy as np


@functools.cache
def _metric() -> ROUGE:
    return ROUGE(preset="coco")


def _fmeasures(hypotheses: list[str], streams: list[list[Any]]) -> list[float]:
    metric = _metric()
    rows = metric.stats(hypotheses, streams).rows
    return metric.config.fmeasures(rows)[:, 0].tolist()  # type: ignore[no-any-return]


class Rouge:
    """ROUGE-L of COCO captions (``beta = 1.2``)."""

    def __init__(self) -> None:
        self.beta = 1.2

    def calc_score(self, candidate: Sequence[str], refs: Sequence[str]) -> float:
        """One caption (a list of one string) against its references: the F-measure."""
        upstream_assert(len(candidate) == 1)
        upstream_assert(len(refs) > 0)
        return _fmeasures([candidate[0]], [[r] for r in refs])[0]

    # The per-image lists are many small objects: built with the collector paused.
    @gc_paused()
    def compute_score(
        self, gts: Mapping[Any, Sequence[str]], res: Mapping[Any, Sequence[str]]
    ) -> tuple[Any, np.ndarray]:
        """``(average_score, scores)``: ``numpy.mean`` of the images' scores (a numpy float)
        and the scores, in the order of ``gts``' keys."""
        import numpy as np

        check_captions(gts, res)
        score = _fmeasures(*caption_streams(gts, res)) if gts else []
        average_score = np.mean(np.array(score))
        return average_score, np.array(score)

    def method(self) -> str:
        return "Rouge"
