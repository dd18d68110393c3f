"""BLEU as every popular package computes it: explicit knobs, and presets of them.

- :mod:`~bleuprint.metrics.bleu.knobs`: :class:`BleuKnobs`, the choices behind a BLEU score.
- :mod:`~bleuprint.metrics.bleu.presets`: sacrebleu, nltk, HF evaluate, nlg-metricverse,
  torchmetrics, Moses and mteval as knob values.
- :mod:`~bleuprint.metrics.bleu.counting`: text or tokens to per-segment counts (Rust core).
- :mod:`~bleuprint.metrics.bleu.smoothing`: smoothing, including nltk's ``SmoothingFunction``.
- :mod:`~bleuprint.metrics.bleu.fraction`: nltk's ``Fraction`` that keeps its counts.
- :mod:`~bleuprint.metrics.bleu.aggregation`: a preset's rows, and how they add up.
- :mod:`~bleuprint.metrics.bleu.scoring`: summed counts to a score, in each upstream's arithmetic.
- :mod:`~bleuprint.metrics.bleu.preset_config`: :class:`PresetConfig`, which makes a preset's
  statistics :class:`~bleuprint.Stats` (merge, save, resample).
- :mod:`~bleuprint.metrics.gleu`: GLEU (nltk's ``corpus_gleu``, HF's ``google_bleu``).

``bleuprint.compat.*`` wraps these in each upstream's own entry points.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, Optional, Union

from bleuprint.errors import InvalidOptionError
from bleuprint.metrics.bleu.aggregation import CorpusCounts, aggregate, float32_running_sum
from bleuprint.metrics.bleu.counting import segment_rows, text_knobs, tokens_of
from bleuprint.metrics.bleu.knobs import SACREBLEU, BleuKnobs
from bleuprint.metrics.bleu.preset_config import PresetConfig, preset_config
from bleuprint.metrics.bleu.presets import PRESETS, Preset, get_preset, knob_table
from bleuprint.metrics.bleu.scoring import PresetScore, VariantScore, brevity_penalty, score_counts
from bleuprint.metrics.gleu import GLEUConfig, GLEUScore
from bleuprint.metrics.stats import Stats

#: A preset's name or its knobs.
PresetArg = Union[str, BleuKnobs]


def preset_knobs(preset: PresetArg) -> BleuKnobs:
    """The knobs of a preset name, or the knobs themselves."""
    if isinstance(preset, BleuKnobs):
        return preset
    if isinstance(preset, str):
        return get_preset(preset).knobs
    raise InvalidOptionError(
        f"preset must be a preset name ({', '.join(PRESETS)}) or BleuKnobs, "
        f"got {type(preset).__name__}"
    )


def renamed_keyword(new: Any, old: Any, old_name: str, default: Any) -> Any:
    """The value of a keyword that replaced ``old_name``: the old one still works, with a
    ``DeprecationWarning``; giving both is an error."""
    if old is None:
        return default if new is None else new
    if new is not None:
        raise InvalidOptionError(f"give preset= only; {old_name}= is its deprecated old name")
    warnings.warn(
        f"{old_name}= is deprecated; use preset= (the same values)",
        DeprecationWarning,
        stacklevel=3,
    )
    return old


def corpus_stats(
    hypotheses: Sequence[Any],
    references: Sequence[Sequence[Any]],
    preset: PresetArg = "sacrebleu",
    *,
    items: Optional[Sequence[Any]] = None,
    workers: int = -1,
) -> Stats:
    """The :class:`~bleuprint.Stats` of ``hypotheses`` under a preset name or
    :class:`BleuKnobs`: merge them with ``+``, ``save``/``load`` them, resample them.

    ``references[i]`` lists the references of ``hypotheses[i]`` (any number, at least one).
    ``items`` gives each hypothesis' item for ``aggregation="multi-prediction"``.
    """
    config = preset_config(preset_knobs(preset))
    return config.stats(hypotheses, references, items=items, workers=workers)


def corpus_score(
    hypotheses: Sequence[Any],
    references: Sequence[Sequence[Any]],
    preset: Optional[PresetArg] = None,
    *,
    items: Optional[Sequence[Any]] = None,
    workers: int = -1,
    variant: Optional[PresetArg] = None,
) -> PresetScore:
    """BLEU of ``hypotheses`` under a preset name or :class:`BleuKnobs` (default
    ``"sacrebleu"``): ``corpus_stats(...).score()``. ``variant=`` is the deprecated old name
    of ``preset=``."""
    chosen = renamed_keyword(preset, variant, "variant", "sacrebleu")
    config = preset_config(preset_knobs(chosen))
    return config.score_corpus(config.rows(hypotheses, references, items=items, workers=workers))


__all__ = [
    "PRESETS",
    "SACREBLEU",
    "BleuKnobs",
    "CorpusCounts",
    "GLEUConfig",
    "GLEUScore",
    "Preset",
    "PresetArg",
    "PresetConfig",
    "PresetScore",
    "VariantScore",
    "aggregate",
    "brevity_penalty",
    "corpus_score",
    "corpus_stats",
    "float32_running_sum",
    "get_preset",
    "knob_table",
    "preset_knobs",
    "renamed_keyword",
    "score_counts",
    "segment_rows",
    "text_knobs",
    "tokens_of",
]
