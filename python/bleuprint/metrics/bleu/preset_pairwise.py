"""Pairwise matrices under any BLEU preset (HF evaluate's ``bleu`` in ZurichNLP's ``mbr``,
nltk, torchmetrics, Moses, mteval, ...): cell ``(i, j)`` equals the preset's score of
hypothesis ``i`` against reference ``j`` alone, ``corpus_score([h], [[r]], preset).score``.

Sentences are counted once per call in the core (the preset's tokenizer and text steps), each
cell's counts become the preset's row (:meth:`PresetConfig.rows_from_counts`) and the preset's
own arithmetic scores it, so presets share the pairwise driver of the metrics.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Optional

from bleuprint import _core
from bleuprint.analysis.pairwise import expected_utility as _expected_utility
from bleuprint.analysis.pairwise import pairwise as _pairwise
from bleuprint.errors import InvalidInputError, InvalidOptionError
from bleuprint.metrics.bleu.aggregation import counting_order
from bleuprint.metrics.bleu.counting import text_for_core, text_knobs
from bleuprint.metrics.bleu.knobs import BleuKnobs
from bleuprint.metrics.bleu.preset_config import preset_config
from bleuprint.metrics.bleu.presets import get_preset

if TYPE_CHECKING:
    import numpy as np


class PresetScorer:
    """A preset as a :class:`bleuprint.analysis.pairwise.PairwiseScorer`."""

    def __init__(self, preset: Any, workers: int = -1) -> None:
        knobs = preset if isinstance(preset, BleuKnobs) else get_preset(preset).knobs
        if knobs.aggregation == "multi-prediction":
            raise InvalidOptionError(
                "aggregation='multi-prediction' sums predictions per item; a pairwise matrix "
                "scores single pairs"
            )
        self.knobs = knobs
        self.config = preset_config(knobs)
        self.workers = workers

    def _count_sentences(self, sentences: list[str]) -> Any:
        knobs = text_knobs(self.knobs)  # nltk's token lists are whitespace-split text here
        if knobs.drop_empty:
            empty = [k for k, s in enumerate(sentences) if not s]
            if empty:
                raise InvalidInputError(
                    f"sentence {empty[0]} is empty, and this preset drops empty pairs, so it has "
                    "no score for them; leave empty sentences out"
                )
        lines, tokenizer = text_for_core(sentences, knobs)
        return _core.bleu_bags(lines, tokenizer=tokenizer, max_order=counting_order(knobs))

    def _score_block(
        self, counted: Any, hypotheses: tuple[int, int], references: tuple[int, int]
    ) -> np.ndarray:
        counts = _core.pairwise_rows(
            counted, hypotheses, references, ref_length=self.knobs.ref_length,
            workers=self.workers,
        )  # fmt: skip
        rows = self.config.rows_from_counts(counts, nrefs=[1] * len(counts))
        h, r = hypotheses[1] - hypotheses[0], references[1] - references[0]
        return self.config.score_rows(rows).reshape(h, r)

    def _aggregate_block(
        self,
        counted: Any,
        hypotheses: tuple[int, int],
        references: tuple[int, int],
        log_weights: list[float],
    ) -> np.ndarray:
        raise InvalidOptionError(
            "reference aggregation is defined for BLEU() and CHRF(), not for presets"
        )


def pairwise(
    hypotheses: Sequence[Any],
    references: Optional[Sequence[Any]] = None,
    preset: Any = "sacrebleu",
    *,
    exclude_self: bool = False,
    workers: int = -1,
) -> np.ndarray:
    """The ``(H, R)`` float64 matrix of the preset's score of every hypothesis against every
    reference alone (the first weight set's score when there are several); arguments as
    :meth:`bleuprint.BLEU.pairwise`."""
    return _pairwise(
        PresetScorer(preset, workers), hypotheses, references, exclude_self=exclude_self
    )


def expected_utility(
    hypotheses: Sequence[str],
    references: Optional[Sequence[str]] = None,
    preset: Any = "sacrebleu",
    *,
    weights: Optional[Any] = None,
    exclude_self: bool = False,
    workers: int = -1,
) -> np.ndarray:
    """Row means of :func:`pairwise` (``math.fsum``), as
    :meth:`bleuprint.BLEU.expected_utility`."""
    scorer = PresetScorer(preset, workers)
    return _expected_utility(
        scorer, hypotheses, references, weights=weights, exclude_self=exclude_self
    )


__all__ = ["PresetScorer", "expected_utility", "pairwise"]
