"""pycocoevalcap 1.2's ``bleu/bleu.py``: :class:`Bleu`, scored by ``BLEU(preset="coco")``.

``compute_score(gts, res)`` takes the image ids' references and one caption each (already
PTB-tokenized: words split on whitespace) and returns Bleu_1 .. Bleu_n for the corpus and, per
order, the list of every image's score, in the order of ``gts``' keys, as upstream does; with
``verbose`` > 0 it prints upstream's two lines (the summed counts and the length ratio).
Upstream counts n-grams up to 4 whatever ``n`` is: ``Bleu(n)`` with ``n`` above 4 raises its
``IndexError``, as there (``BLEU(preset="coco", max_ngram_order=5)`` scores 5-grams).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, cast

from bleuprint.compat.pycocoevalcap.captions import check_captions
from bleuprint.metrics.bleu import BLEU, BLEUConfig, BLEUScore
from bleuprint.metrics.bleu.scoring import coco_row_orders
from bleuprint.metrics.scores import gc_paused


@functools.cache
def _metric(n: int) -> BLEU:
    # One configuration (and core kernel) per order, not one per call.
    return BLEU(preset=BLEUConfig.from_preset("coco", max_ngram_order=n))


class Bleu:
    """BLEU-1 .. BLEU-n of COCO captions (``Bleu(4)`` by default)."""

    def __init__(self, n: int = 4) -> None:
        self._n = n
        self._hypo_for_image: dict[Any, Any] = {}
        self.ref_for_image: dict[Any, Any] = {}

    # The per-image lists are many small objects: built with the collector paused.
    @gc_paused()
    def compute_score(
        self, gts: Mapping[Any, Sequence[str]], res: Mapping[Any, Sequence[str]], verbose: int = 1
    ) -> tuple[list[float], list[list[float]]]:
        """``(scores, per_image)``: Bleu_1 .. Bleu_n of the corpus, and for each order the
        scores of the images in ``gts``' order."""
        check_captions(gts, res)
        if self._n > 4 and gts:
            # Upstream counts 4-grams whatever n is (cook_refs' and cook_test's default), then
            # reads order 5 of the counts.
            raise IndexError("list index out of range")
        images = list(gts.keys())
        hypotheses = [res[image][0] for image in images]
        references = [list(gts[image]) for image in images]
        stats = _metric(self._n).item_stats(hypotheses, references)
        if verbose > 1:
            for result, refs in zip(stats.sentence_results(), references):
                # Upstream prints each image's cooked statistics and its closest length.
                comps = {
                    "reflen": [len(r.split()) for r in refs],
                    "testlen": result.sys_len,
                    "guess": list(result.totals),
                    "correct": list(result.counts),
                }
                print(comps, result.ref_len)
        corpus = cast(BLEUScore, stats.score())
        if verbose > 0:
            totals = {
                "testlen": corpus.sys_len,
                "reflen": corpus.ref_len,
                "guess": list(corpus.totals),
                "correct": list(corpus.counts),
            }
            print(totals)
            print("ratio:", corpus.ratio)
        # Each image's Bleu_1..n from one core call, as lists per order.
        per_image = coco_row_orders(stats.rows, _metric(self._n).config)
        lists = [[scores[k] for scores in per_image] for k in range(self._n)]
        return list(cast("list[float]", corpus.score)), lists

    def method(self) -> str:
        return "Bleu"
