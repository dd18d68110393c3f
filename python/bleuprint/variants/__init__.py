"""BLEU as every popular package computes it: explicit knobs, and presets of them.

- :mod:`~bleuprint.variants.knobs`: :class:`BleuKnobs`, the choices behind a BLEU score.
- :mod:`~bleuprint.variants.presets`: sacrebleu, nltk, HF evaluate, nlg-metricverse,
  torchmetrics, Moses and mteval as knob values.
- :mod:`~bleuprint.variants.counting`: text or tokens to per-segment counts (Rust core).
- :mod:`~bleuprint.variants.smoothing`: smoothing, including nltk's ``SmoothingFunction``.
- :mod:`~bleuprint.variants.scoring`: summed counts to a score, in each upstream's arithmetic.

``bleuprint.compat.*`` wraps these in each upstream's own entry points.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional, Union

from bleuprint.variants.counting import segment_rows, text_knobs, tokens_of
from bleuprint.variants.knobs import SACREBLEU, BleuKnobs
from bleuprint.variants.presets import PRESETS, Preset, get_preset, knob_table
from bleuprint.variants.scoring import CorpusCounts, VariantScore, aggregate, score_counts


def _knobs(variant: Union[str, BleuKnobs]) -> BleuKnobs:
    return get_preset(variant).knobs if isinstance(variant, str) else variant


def corpus_score(
    hypotheses: Sequence[Any],
    references: Sequence[Sequence[Any]],
    variant: Union[str, BleuKnobs] = "sacrebleu",
    *,
    items: Optional[Sequence[int]] = None,
    workers: int = -1,
) -> VariantScore:
    """BLEU of ``hypotheses`` under a preset name or :class:`BleuKnobs`.

    ``references[i]`` lists the references of ``hypotheses[i]`` (any number, at least one).
    ``items`` gives each hypothesis' item for ``aggregation="multi-prediction"``.
    """
    knobs = _knobs(variant)
    if knobs.drop_empty:
        # nlg-metricverse's _remove_empty: a falsy prediction or reference (a single
        # reference given as "" counts as one) drops the item.
        kept = [
            i
            for i, (h, r) in enumerate(zip(hypotheses, references))
            if h and r and not (len(r) == 1 and not r[0])
        ]
        hypotheses = [hypotheses[i] for i in kept]
        references = [references[i] for i in kept]
        items = None if items is None else [items[i] for i in kept]
    counting = knobs
    if len(hypotheses) and isinstance(hypotheses[0], str):
        counting = text_knobs(knobs)
    rows = segment_rows(hypotheses, references, counting, workers=workers)
    last_hyp = last_refs = None
    if knobs.smoothing in ("nltk5", "nltk6", "nltk7") and len(hypotheses):
        # nltk's corpus_bleu hands its smoothing the last segment of the corpus.
        last_hyp = tokens_of(hypotheses[-1], counting)
        last_refs = [tokens_of(r, counting) for r in references[-1]]
    counts = aggregate(
        rows,
        knobs,
        ref_counts=[len(r) for r in references] if knobs.ref_length == "average" else None,
        items=items,
        last_hypothesis=last_hyp,
        last_references=last_refs,
    )
    return score_counts(counts, knobs)


__all__ = [
    "PRESETS",
    "SACREBLEU",
    "BleuKnobs",
    "CorpusCounts",
    "Preset",
    "VariantScore",
    "aggregate",
    "corpus_score",
    "get_preset",
    "knob_table",
    "score_counts",
    "segment_rows",
    "text_knobs",
    "tokens_of",
]
