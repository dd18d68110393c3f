"""A preset as a metric configuration, so its statistics are :class:`~bleuprint.Stats`.

:class:`PresetConfig` wraps :class:`~bleuprint.presets.BleuKnobs`: its rows are the
preset's rows (:mod:`~bleuprint.metrics.bleu.aggregation`), its scores are
:class:`~bleuprint.metrics.bleu.scoring.PresetScore`, and it is registered under
``"BLEU-preset"``, so preset statistics merge with ``+``, refuse other knobs
(``StatsMismatchError``), save and load with their knobs in the file's JSON, and feed
``bootstrap_ci`` and ``paired_test_stats``.

Resampling (bootstrap, paired tests) scores column sums. It is defined wherever the corpus
counts are a function of the column sums: every preset, and every knob setting except
``ref_length="average"`` and smoothing ``nltk5``-``nltk7``, which raise
``InvalidOptionError``. Under ``aggregation="multi-prediction"`` a row is an item, so items
are resampled. torchmetrics' ``float32`` presets resample float32 sums added in index order
(its own running state); the ``sacrebleu`` arithmetic resamples exactly as sacrebleu does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from functools import lru_cache
from typing import Any, Optional

import numpy as np

from bleuprint.errors import InvalidOptionError
from bleuprint.io.layout import as_text_sequence
from bleuprint.metrics.bleu import BLEUConfig
from bleuprint.metrics.bleu.aggregation import (
    check_row_knobs,
    corpus_counts,
    counting_order,
    extra_columns,
    preset_rows,
    reads_last_segment,
    resamplable,
    split_counted,
    sums_counts,
)
from bleuprint.metrics.bleu.counting import segment_rows, text_knobs
from bleuprint.metrics.bleu.knobs import BleuKnobs
from bleuprint.metrics.bleu.presets import PRESETS, get_preset
from bleuprint.metrics.bleu.scoring import PresetScore, sacrebleu_config, score_counts
from bleuprint.metrics.config import register_config
from bleuprint.metrics.scores import Signature
from bleuprint.metrics.stats import Stats


@register_config
@dataclass(frozen=True)
class PresetConfig:
    """The configuration of a preset's statistics: its :class:`BleuKnobs`.

    ``knobs`` may be given as a preset name or, as saved statistics hold it, a dict.
    """

    knobs: BleuKnobs = BleuKnobs()

    metric = "BLEU-preset"
    higher_is_better = True

    def __post_init__(self) -> None:
        knobs: Any = self.knobs
        if isinstance(knobs, str):
            knobs = get_preset(knobs).knobs
        elif isinstance(knobs, dict):
            knobs = _knobs_from_dict(knobs)
        elif not isinstance(knobs, BleuKnobs):
            raise InvalidOptionError(
                f"knobs must be a BleuKnobs or a preset name, got {type(knobs).__name__}"
            )
        object.__setattr__(self, "knobs", knobs)
        check_row_knobs(knobs)

    # --- the rows ----------------------------------------------------------------------------

    @property
    def width(self) -> int:
        """Columns of a row: the BLEU columns, then :func:`extra_columns`."""
        return 2 + 2 * self.knobs.orders + len(extra_columns(self.knobs))

    @property
    def column_names(self) -> tuple[str, ...]:
        """Names of the columns (``hyp_len, ref_len, correct_1, ...``, then the extras)."""
        bleu = BLEUConfig(tokenize="none", max_ngram_order=self.knobs.orders)
        return bleu.column_names + extra_columns(self.knobs)

    def rows(
        self,
        hypotheses: Sequence[Any],
        references: Sequence[Sequence[Any]],
        *,
        items: Optional[Sequence[Any]] = None,
        workers: int = -1,
    ) -> np.ndarray:
        """This preset's rows for ``hypotheses``; ``references[i]`` lists the references of
        ``hypotheses[i]``, ``items`` gives each hypothesis' item (multi-prediction)."""
        hypotheses = as_text_sequence(hypotheses, "hypotheses")
        references = as_text_sequence(references, "references")
        knobs = self.knobs
        if knobs.drop_empty:
            hypotheses, references, items = _drop_empty(hypotheses, references, items)
        counting = knobs
        if len(hypotheses) and isinstance(hypotheses[0], str):
            counting = text_knobs(knobs)
        order = counting_order(knobs)
        counted = segment_rows(hypotheses, references, counting, max_order=order, workers=workers)
        nrefs = [len(r) for r in references] if knobs.ref_length == "average" else None
        return self.rows_from_counts(counted, nrefs=nrefs, items=items)

    def rows_from_counts(
        self,
        counted: np.ndarray,
        *,
        nrefs: Optional[Sequence[int]] = None,
        items: Optional[Sequence[Any]] = None,
    ) -> np.ndarray:
        """This preset's rows from the core's counts (``counting_order(knobs)`` orders, the
        preset's ``ref_length`` rule), for counts made elsewhere (e.g. of token IDs);
        ``nrefs``: references per segment, for the average reference length."""
        knobs = self.knobs
        five_grams = None
        if reads_last_segment(knobs):
            counted, five_grams = split_counted(counted, knobs)
        return preset_rows(counted, knobs, nrefs=nrefs, items=items, five_grams=five_grams)

    def stats(
        self,
        hypotheses: Sequence[Any],
        references: Sequence[Sequence[Any]],
        *,
        items: Optional[Sequence[Any]] = None,
        workers: int = -1,
    ) -> Stats:
        """The :class:`~bleuprint.Stats` of ``hypotheses`` under this preset."""
        if self.knobs.drop_empty:  # so that nrefs counts the kept items only
            hypotheses, references, items = _drop_empty(hypotheses, references, items)
        rows = self.rows(hypotheses, references, items=items, workers=workers)
        counts = set(map(len, references))  # at C speed: it runs on every call
        nrefs = counts.pop() if len(counts) == 1 else -1
        return Stats._trusted(rows, self, nrefs if nrefs >= 1 else -1)

    # --- scores ------------------------------------------------------------------------------

    def score_corpus(self, rows: Any) -> PresetScore:
        """The corpus score of the rows, as the preset's upstream computes it."""
        rows = np.asarray(rows, dtype=np.int64).reshape(-1, self.width)
        return score_counts(corpus_counts(rows, self.knobs), self.knobs)

    def score_row(self, row: Any) -> PresetScore:
        """The score of one row, as a corpus of one segment."""
        return self.score_corpus(np.asarray(row, dtype=np.int64).reshape(1, -1))

    def score_rows_detailed(self, rows: Any) -> list[PresetScore]:
        """Every row's score, each as a corpus of one segment."""
        rows = np.asarray(rows, dtype=np.int64).reshape(-1, self.width)
        return [self.score_row(row) for row in rows]

    def score_rows(self, rows: Any) -> np.ndarray:
        """Every row's score as float64, shape ``(n,)`` (the first weight tuple's score
        when there are several)."""
        return np.array([_number(s.score) for s in self.score_rows_detailed(rows)], dtype=float)

    # --- resampling --------------------------------------------------------------------------

    @property
    def resample_float32(self) -> bool:
        """float32 resample sums for torchmetrics (its state) and the sacrebleu arithmetic
        (sacrebleu's bootstrap); exact integer sums for the others."""
        return self.knobs.dtype == "float32" or self._sacrebleu_config() is not None

    def float_rows(self, rows: Any) -> np.ndarray:
        """The rows as float64, for float32 resampling and float randomization sums."""
        self._check_resamplable()
        return np.asarray(rows, dtype=np.float64)

    def randomization_rows(self, rows: Any) -> tuple[np.ndarray, int]:
        """Integer rows (divisor 1): randomization sums are exact."""
        self._check_resamplable()
        return np.asarray(rows, dtype=np.int64), 1

    def score_sums(self, sums: Any) -> np.ndarray:
        """Scores of column sums (one resample or trial per row): float64, ``(n,)``."""
        sums = np.asarray(sums).reshape(-1, self.width)
        scores = []
        for row in sums.tolist():
            counts = sums_counts(row, self.knobs)
            scores.append(_number(score_counts(counts, self.knobs).score))
        return np.array(scores, dtype=float)

    def score_float32_sums(self, sums: Any) -> tuple[np.ndarray, np.ndarray]:
        """Scores of float32 resample sums: ``(scores, is_float32)``."""
        sums = np.ascontiguousarray(sums, dtype=np.float32).reshape(-1, self.width)
        sacrebleu = self._sacrebleu_config()
        if sacrebleu is not None:
            return sacrebleu.score_float32_sums(sums)
        scores = []
        for row in sums:
            scores.append(score_counts(sums_counts(list(row), self.knobs), self.knobs).score)
        values = np.array([float(s) for s in scores], dtype=float)
        return values, np.array([isinstance(s, np.float32) for s in scores], dtype=bool)

    def _check_resamplable(self) -> None:
        reason = resamplable(self.knobs)
        if reason is not None:
            raise InvalidOptionError(
                f"bootstrap and paired tests are not defined for these statistics: {reason}"
            )

    def _sacrebleu_config(self) -> Optional[BLEUConfig]:
        """sacrebleu's own config for the sacrebleu arithmetic on plain summed rows."""
        k = self.knobs
        if k.arithmetic != "sacrebleu" or extra_columns(k) or k.scale != 100:
            return None
        return sacrebleu_config(k)

    # --- naming ------------------------------------------------------------------------------

    def signature(self, nrefs: int) -> PresetSignature:
        """The signature: ``nrefs``, the preset (and knobs that differ from it), version."""
        return PresetSignature(self, nrefs)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable description (saved with the statistics)."""
        return {"metric": self.metric, "knobs": asdict(self.knobs)}


class PresetSignature(Signature):
    """``nrefs:1|preset:nltk|version:...``; knobs that differ from the nearest preset follow
    its name (``preset:nltk,smoothing=nltk3``)."""

    def __init__(self, config: PresetConfig, nrefs: int) -> None:
        super().__init__(nrefs)
        self.abbreviations["preset"] = "p"
        self.info["preset"] = preset_label(config.knobs)


@lru_cache(maxsize=64)
def preset_label(knobs: BleuKnobs) -> str:
    """The preset these knobs are, or the nearest one with the knobs that differ from it."""
    nearest = min(PRESETS.values(), key=lambda p: len(knobs.differences(p.knobs)))
    differs = knobs.differences(nearest.knobs)
    changes = "".join(f",{name}={mine}" for name, (mine, _) in differs.items())
    return (nearest.name + changes).replace("|", "/").replace(":", "=")


def preset_config(knobs: BleuKnobs) -> PresetConfig:
    """The (cached) configuration of ``knobs``."""
    # Knobs with smooth_value 4 and 4.0 are equal, but nltk's arithmetic differs for them
    # (a Fraction times an int stays exact): the cache keeps them apart.
    return _preset_config(knobs, type(knobs.smooth_value).__name__)


@lru_cache(maxsize=256)
def _preset_config(knobs: BleuKnobs, value_type: str) -> PresetConfig:
    return PresetConfig(knobs)


def _knobs_from_dict(saved: dict[str, Any]) -> BleuKnobs:
    """Knobs as saved statistics hold them (JSON: lists for tuples)."""
    known = {f.name for f in fields(BleuKnobs)}
    unknown = sorted(set(saved) - known)
    if unknown:
        raise InvalidOptionError(f"unknown knobs {unknown}; known: {sorted(known)}")
    return BleuKnobs(**saved)


def _number(score: Any) -> float:
    return float(score[0] if isinstance(score, list) else score)


def _drop_empty(
    hypotheses: Sequence[Any],
    references: Sequence[Sequence[Any]],
    items: Optional[Sequence[Any]],
) -> tuple[list[Any], list[Any], Optional[list[Any]]]:
    """nlg-metricverse's ``_remove_empty``: a falsy prediction or reference (a single
    reference given as "" counts as one) drops the item."""
    kept = [
        i
        for i, (h, r) in enumerate(zip(hypotheses, references))
        if h and r and not (len(r) == 1 and not r[0])
    ]
    return (
        [hypotheses[i] for i in kept],
        [references[i] for i in kept],
        None if items is None else [items[i] for i in kept],
    )
