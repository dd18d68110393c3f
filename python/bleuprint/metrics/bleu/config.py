"""BLEU's one configuration: sacrebleu's settings and every other upstream's knobs.

:class:`BLEUConfig` holds every choice behind a BLEU score. Its defaults are sacrebleu
2.6.0's; each other upstream (nltk, HF evaluate, torchmetrics, Moses, mteval, ...) is a preset
of its knobs (:mod:`bleuprint.presets`). The core counts text under the configuration's
kernel; the rows score in the core for sacrebleu's arithmetic (the fast path), and through
:mod:`~bleuprint.metrics.bleu.scoring` (the upstream's float operations, in its order) for the
others. Either way the statistics are :class:`~bleuprint.Stats` that merge, save and resample.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import cache, cached_property, lru_cache
from typing import TYPE_CHECKING, Any, Optional, Union, cast

from bleuprint import _core
from bleuprint.errors import InputTypeError, InvalidOptionError
from bleuprint.io.layout import as_text_sequence
from bleuprint.metrics.bleu import knobs as k
from bleuprint.metrics.bleu.aggregation import (
    CorpusCounts,
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
from bleuprint.metrics.bleu.counting import (
    MECAB_TOKENIZERS,
    core_tagger,
    core_tokenizer,
    runs_before_core,
    segment_rows,
)
from bleuprint.metrics.bleu.knobs import check_sacrebleu_arithmetic
from bleuprint.metrics.bleu.score import BLEUScore, BLEUSignature, PresetSignature
from bleuprint.metrics.config import (
    COMPENSATED_SUM,
    METRIC_CONFIGS,
    KernelConfig,
    register_config,
)
from bleuprint.presets import PRESETS, get_preset
from bleuprint.tokenizers import (
    TOKENIZERS,
    check_normalization,
    check_spm_model,
)

if TYPE_CHECKING:
    import numpy as np

    from bleuprint.metrics.scores import Signature

MAX_NGRAM_ORDER = 4

#: Every tokenizer name BLEU takes: sacrebleu's, then the other upstreams' splitters.
BLEU_TOKENIZERS: tuple[str, ...] = TOKENIZERS + tuple(
    t for t in k.TOKENIZERS if t not in TOKENIZERS
)

#: The knob names ``BLEUConfig`` had as ``BleuKnobs`` fields, for statistics saved then.
_OLD_KNOB_NAMES = {
    "tokenizer": "tokenize",
    "smoothing": "smooth_method",
    "max_order": "max_ngram_order",
}
_OLD_LOWERCASE = {"no": False, "unicode": True}

#: The largest ``smooth_value`` of floor and add-k smoothing, sacrebleu's two methods that take
#: one. Floor makes a zero match count's precision ``smooth_value / total`` (total >= 1) and
#: add-k ``(matches + smooth_value) / (total + smooth_value)``, in sacrebleu's arithmetic as
#: percentages: ``100 * smooth_value / total``, ``100 * (matches + smooth_value) / ...``. A
#: score is at most its largest precision on the 0..100 scale (a weighted geometric mean
#: times a brevity penalty <= 1), so it is finite while ``100 * smooth_value`` is. sacrebleu's
#: bootstrap (``n_bootstrap``, paired tests), which bleuprint reproduces, sums resampled
#: statistics as float32, where ``100 * smooth_value`` overflows above 3.4e36 (float32's
#: largest value, 3.4e38, over 100; in float64 the bound would be 1.8e306). The round bound
#: leaves room for rounding. Floor with weights summing to ``W > 1`` raises its precision to
#: the power ``W``: the bound is then ``MAX_SMOOTH_VALUE ** (1 / W)``.
MAX_SMOOTH_VALUE = 1e36


@register_config
@dataclass(frozen=True)
class BLEUConfig(KernelConfig):
    """Every setting that changes BLEU statistics or scores. The defaults are sacrebleu's.

    sacrebleu's settings: ``tokenize``, ``lowercase``, ``max_ngram_order``, ``smooth_method``,
    ``smooth_value``, ``effective_order``, plus ``normalize`` (NFC/NFKC) and ``spm_model``.
    The other upstreams' knobs (:mod:`bleuprint.metrics.bleu.knobs` says what each value
    means): ``ref_length``, ``weights``, ``auto_reweigh``, ``aggregation``, ``drop_empty``,
    ``arithmetic``, ``scale``, ``dtype``; and more values for ``tokenize`` (``tokens``,
    ``mteval-intl``, ``split-ascii``, ``strip-punct``), ``lowercase`` (``"ascii"``,
    ``"after"``) and ``smooth_method`` (``lin-och``, ``nltk0``-``nltk7``).

    Statistics made under one config can only be merged with statistics of an equal config.
    """

    tokenize: str = "13a"
    lowercase: Union[bool, str] = False
    max_ngram_order: int = MAX_NGRAM_ORDER
    smooth_method: str = "exp"
    smooth_value: Optional[float] = None
    effective_order: bool = False
    normalize: Optional[str] = None
    spm_model: Optional[str] = None
    ref_length: str = "closest"
    weights: Optional[k.Weights] = None
    auto_reweigh: bool = False
    aggregation: str = "micro"
    drop_empty: bool = False
    arithmetic: str = "sacrebleu"
    scale: int = 100
    dtype: str = "float64"

    metric = "BLEU"

    def __post_init__(self) -> None:
        if self.tokenize not in BLEU_TOKENIZERS:
            raise InvalidOptionError(
                f"unknown tokenizer {self.tokenize!r}; expected one of {', '.join(BLEU_TOKENIZERS)}"
            )
        check_normalization(self.normalize)
        check_spm_model(self.tokenize, self.spm_model)
        if self.spm_model is not None:
            # A path, stored as str so configs compare, hash and serialise simply.
            object.__setattr__(self, "spm_model", str(self.spm_model))
        lowercase = self.lowercase
        if isinstance(lowercase, str):
            lowercase = _OLD_LOWERCASE.get(lowercase, lowercase)
        if lowercase not in (False, True, "ascii", "after"):
            raise InvalidOptionError(
                f"lowercase must be True, False, 'ascii' or 'after', got {self.lowercase!r}"
            )
        object.__setattr__(self, "lowercase", lowercase)
        if self.smooth_method not in k.SMOOTHINGS:
            raise InvalidOptionError(
                f"unknown smooth_method {self.smooth_method!r}; "
                f"expected one of {', '.join(k.SMOOTHINGS)}"
            )
        value = self.smooth_value
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise InputTypeError(
                    f"smooth_value must be a number or None, got {type(value).__name__}"
                )
            try:
                number = float(value)
            except OverflowError:  # an int or Fraction beyond float range
                number = math.inf
            if not (math.isfinite(number) and number >= 0):
                raise InvalidOptionError(f"smooth_value must be a finite number >= 0, got {value}")
        order = self.max_ngram_order
        if isinstance(order, bool) or not isinstance(order, int) or not 1 <= order <= k.MAX_ORDER:
            raise InvalidOptionError(
                f"max_ngram_order must be an int >= 1 and <= {k.MAX_ORDER}, got {order!r}"
            )
        k.check("ref_length", self.ref_length, k.REF_LENGTHS)
        k.check("aggregation", self.aggregation, k.AGGREGATIONS)
        k.check("arithmetic", self.arithmetic, k.ARITHMETICS)
        k.check("scale", self.scale, k.SCALES)
        k.check("dtype", self.dtype, k.DTYPES)
        if self.weights is not None:
            object.__setattr__(self, "weights", k.normalize_weights(self.weights))
            if self.orders > k.MAX_ORDER:
                raise InvalidOptionError(
                    f"weights may hold at most {k.MAX_ORDER} orders, got {self.orders}"
                )
        if self.dtype == "float32" and self.arithmetic != "torch":
            raise InvalidOptionError("dtype='float32' needs arithmetic='torch' (torchmetrics)")
        if value is not None:
            self._check_smooth_value_bound(number)
        check_row_knobs(self)

    def _check_smooth_value_bound(self, value: float) -> None:
        """Refuses a floor or add-k ``smooth_value`` whose scores could overflow to inf, as
        sacrebleu's do (see :data:`MAX_SMOOTH_VALUE`)."""
        if self.smooth_method not in ("floor", "add-k"):
            return
        weight = 1.0
        if self.smooth_method == "floor":
            weight = max(weight, *(sum(w for w in ws if w > 0) for ws in self.weight_sets))
        limit = MAX_SMOOTH_VALUE ** (1 / weight)
        if value > limit:
            weighted = f" and weights summing to {weight:g}" if weight > 1 else ""
            raise InvalidOptionError(
                f"smooth_value must be <= {limit:g} with smooth_method={self.smooth_method!r}"
                f"{weighted}, got {value:g}: smoothed precisions are about 100 * smooth_value "
                "/ total, and larger values make scores (or sacrebleu's float32 bootstrap "
                "resamples) overflow to inf; use a smaller smooth_value"
            )

    @classmethod
    def from_preset(cls, preset: Union[str, BLEUConfig], **changes: Any) -> BLEUConfig:
        """The configuration of a preset name (:data:`bleuprint.presets.PRESETS`), or of a
        configuration, with ``changes`` to its fields."""
        if isinstance(preset, BLEUConfig):
            return replace(preset, **changes) if changes else preset
        if isinstance(preset, str):
            return preset_config(preset).replace(**changes) if changes else preset_config(preset)
        raise InvalidOptionError(
            f"preset must be a preset name ({', '.join(PRESETS)}) or a BLEUConfig, "
            f"got {type(preset).__name__}"
        )

    @classmethod
    def from_saved(cls, saved: dict[str, Any]) -> dict[str, Any]:
        """The fields of a configuration as saved statistics hold it; statistics saved as
        ``BLEU-preset`` hold ``{"knobs": {...}}`` under the older knob names."""
        if set(saved) != {"knobs"} or not isinstance(saved["knobs"], dict):
            return saved
        return {
            _OLD_KNOB_NAMES.get(str(name), str(name)): value
            for name, value in saved["knobs"].items()
        }

    # --- knobs ------------------------------------------------------------------------------

    def replace(self, **changes: Any) -> BLEUConfig:
        """A copy with some fields changed."""
        return replace(self, **changes)

    @cached_property
    def orders(self) -> int:
        """How many n-gram orders the counts need: the longest weight tuple, or
        ``max_ngram_order``."""
        if self.weights is not None:
            return max(len(w) for w in self.weights)
        return self.max_ngram_order

    @property
    def weight_sets(self) -> k.Weights:
        """The weight tuples in use (uniform ``1/max_ngram_order`` when none were given)."""
        if self.weights is not None:
            return self.weights
        return ((1.0 / self.max_ngram_order,) * self.max_ngram_order,)

    @property
    def effective_smooth_value(self) -> Optional[float]:
        """The smoothing value in use: the given one, else the method's default."""
        if self.smooth_value is None:
            return k.SMOOTHINGS[self.smooth_method]
        return self.smooth_value

    def differences(self, other: BLEUConfig) -> dict[str, tuple[Any, Any]]:
        """``{knob: (self's value, other's value)}`` for every preset knob that differs."""
        out = {}
        for name in KNOB_NAMES:
            mine, theirs = getattr(self, name), getattr(other, name)
            if name == "weights":
                mine, theirs = self.weight_sets, other.weight_sets
            if name == "smooth_value":
                mine, theirs = self.effective_smooth_value, other.effective_smooth_value
            if mine != theirs:
                out[name] = (getattr(self, name), getattr(other, name))
        return out

    @property
    def external_tokenizer(self) -> bool:
        """Whether the tokens come from a tokenizer run in Python before the core
        (SentencePiece, or MeCab where the core cannot load it)."""
        return runs_before_core(self)

    @cached_property
    def sacrebleu_shaped(self) -> bool:
        """Whether these are sacrebleu's own settings (the other upstreams' knobs at their
        defaults), signed as sacrebleu signs them."""
        return (
            isinstance(self.lowercase, bool)
            and self.tokenize in TOKENIZERS
            and self.smooth_method in k.SMOOTH_DEFAULTS
            and all(getattr(self, name) == default for name, default in _SACREBLEU_KNOBS)
        )

    @cached_property
    def fast(self) -> bool:
        """Whether the rows are plain BLEU rows that the core scores in sacrebleu's arithmetic
        (every preset of the sacrebleu arithmetic, scale 100, without extra columns)."""
        return self.arithmetic == "sacrebleu" and not extra_columns(self) and self.scale == 100

    # --- the kernel and the rows ------------------------------------------------------------

    def _make_kernel(self) -> Any:
        return self._kernel(core_tokenizer(self))

    def _kernel(self, tokenizer: Optional[str]) -> Any:
        value = self.effective_smooth_value
        # Normalization runs where the tokenizer runs: in the core, or before a Python step
        # that tokenizes (MeCab, SentencePiece, torchmetrics' tokenize-then-lowercase).
        in_core = tokenizer is not None and not self.external_tokenizer
        in_core = in_core and self.lowercase != "after"
        return _core.BleuKernel(
            tokenizer=tokenizer,
            tagger=core_tagger(self) if tokenizer in MECAB_TOKENIZERS else None,
            normalize=self.normalize if in_core else None,
            max_order=counting_order(self),
            ref_length=self.ref_length,
            smooth_method=self.smooth_method,
            smooth_value=None if value is None else float(value),
            effective_order=self.effective_order,
            compensated_sum=COMPENSATED_SUM,
            arithmetic=self.arithmetic,
            weights=self.weight_sets,
            uniform_weights=self.weights is None,
            auto_reweigh=self.auto_reweigh,
            scale=self.scale,
        )

    @cached_property
    def _text_kernel(self) -> Any:
        # nltk's token lists given as text: whitespace-split.
        return self._kernel("none")

    def counting_kernel(self, text: bool) -> Any:
        """The kernel that counts text (``text``) or token lists under these knobs."""
        if text and self.tokenize == "tokens":
            return self._text_kernel
        return self.kernel

    @cached_property
    def width(self) -> int:
        """Columns of a row: ``2 + 2 * orders``, then :meth:`extra_columns`."""
        return 2 + 2 * self.orders + len(extra_columns(self))

    @property
    def column_names(self) -> tuple[str, ...]:
        """``hyp_len, ref_len, correct_1..N, total_1..N``, then the extra columns."""
        return _column_names(self.orders) + extra_columns(self)

    @property
    def extra_columns(self) -> tuple[str, ...]:
        """The columns a row holds after the BLEU columns, for what the aggregation needs
        besides sums (see :mod:`~bleuprint.metrics.bleu.aggregation`)."""
        return extra_columns(self)

    def item_rows(
        self,
        hypotheses: Sequence[Any],
        references: Sequence[Sequence[Any]],
        *,
        items: Optional[Sequence[Hashable]] = None,
        workers: int = -1,
    ) -> np.ndarray:
        """The rows of ``hypotheses`` when ``references[i]`` lists the references of
        ``hypotheses[i]`` (nltk's, HF's and torchmetrics' layout; text, or token lists for the
        ``tokens`` tokenizer), ``items`` the item of each hypothesis (multi-prediction). An
        external tokenizer's tokens come already space-separated."""
        hypotheses = as_text_sequence(hypotheses, "hypotheses")
        references = as_text_sequence(references, "references")
        if self.drop_empty:
            hypotheses, references, items = drop_empty(hypotheses, references, items)
        counted = segment_rows(hypotheses, references, self, workers=workers)
        nrefs = [len(r) for r in references] if self.ref_length == "average" else None
        return self.rows_from_counts(counted, nrefs=nrefs, items=items)

    def item_score(
        self, hypotheses: Sequence[Any], references: Sequence[Sequence[Any]], **options: Any
    ) -> BLEUScore:
        """The corpus score of :meth:`item_rows` (same arguments; the compat modules' one call)."""
        return self.score_corpus(self.item_rows(hypotheses, references, **options))

    def token_id_rows(
        self, tokens: Any, ends: Any, reference_counts: Sequence[int], *, workers: int = -1
    ) -> np.ndarray:
        """These knobs' rows of token-ID sequences (RL rewards, ``token_bleu``): the int64
        array ``tokens`` holds every sequence back to back, ``ends`` their ends; the ``B``
        candidates come first, then each candidate's ``reference_counts[b]`` references."""
        import numpy as np

        counts = np.asarray(reference_counts, dtype=np.int64)
        counted = _core.token_id_stats(self.kernel, tokens, ends, counts, workers=workers)
        return self.rows_from_counts(counted, nrefs=reference_counts)

    def rows_from_counts(
        self,
        counted: np.ndarray,
        *,
        nrefs: Optional[Sequence[int]] = None,
        items: Optional[Sequence[Hashable]] = None,
    ) -> np.ndarray:
        """These knobs' rows from the core's counts (counted to ``counting_order``, under the
        ``ref_length`` rule), for counts made elsewhere (e.g. of token IDs); ``nrefs``:
        references per segment, for the average reference length."""
        if self.fast:
            return counted
        five_grams = None
        if reads_last_segment(self):
            counted, five_grams = split_counted(counted, self)
        return preset_rows(counted, self, nrefs=nrefs, items=items, five_grams=five_grams)

    def pair_scores(self, counted: Any, block: Any, workers: int = -1) -> np.ndarray:
        """Sentence scores of a block of counted pairs; under another upstream's arithmetic,
        each cell's counts become that preset's row, scored as the preset scores."""
        if self.fast:
            return super().pair_scores(counted, block, workers)
        (hyps, refs), kernel = block, self.counting_kernel(True)
        counts = _core.pairwise(kernel, counted, hyps, refs, rows=True, workers=workers)
        rows = self.rows_from_counts(counts, nrefs=[1] * len(counts))
        return self.score_rows(rows).reshape(hyps[1] - hyps[0], refs[1] - refs[0])

    @property
    def aggregates_references(self) -> bool:  # type: ignore[override]
        """Reference aggregation averages n-gram statistics in sacrebleu's arithmetic only."""
        return self.fast

    def _broken_rows(self, rows: np.ndarray) -> tuple[Any, str]:
        n = self.orders
        matches, totals = rows[:, 2 : 2 + n], rows[:, 2 + n : 2 + 2 * n]
        bad = (matches > totals).any(axis=1)
        rule = "correct_n <= total_n (a clipped match count cannot exceed the n-grams)"
        if self.ref_length == "average":
            bad |= rows[:, self.column_names.index("nrefs")] < 1
            rule += " and nrefs >= 1"
        return bad, rule

    # --- scores -------------------------------------------------------------------------------

    def _fast_path(self) -> bool:
        """The fast path, after checking that sacrebleu's arithmetic can take these knobs."""
        if self.fast:
            check_sacrebleu_arithmetic(self)
        return self.fast

    def _results(self, rows: Any, details: dict[str, Any]) -> list[BLEUScore]:
        n, added = self.orders, self.effective_smooth_value
        results = []
        for row, score, bp, precisions, smoothed_orders in zip(
            rows,
            details["score"],
            details["bp"],
            details["precisions"],
            details["smoothed_orders"],
        ):
            counts, totals = row[2 : 2 + n], row[2 + n : 2 + 2 * n]
            # sacrebleu reports add-k counts and totals after adding k to the orders it
            # smoothed.
            for i in range(1, 1 + smoothed_orders):
                counts[i] += added
                totals[i] += added
            results.append(
                BLEUScore(score, counts, totals, precisions, bp, row[0], row[1], config=self)
            )
        return results

    def score_rows(self, rows: Any) -> np.ndarray:
        """Every row's score as float64, shape ``(n,)`` (:attr:`BLEUScore.number`: the first
        weight set's score when there are several, Bleu_N under the coco arithmetic)."""
        if self._fast_path():
            return super().score_rows(rows)
        import numpy as np

        return np.array([s.number for s in self.score_rows_detailed(rows)], dtype=float)

    def score_rows_detailed(self, rows: Any) -> list[BLEUScore]:
        """Every row's score, each as a corpus of one segment."""
        if self._fast_path():
            return super().score_rows_detailed(rows)  # type: ignore[no-any-return]
        rows = self._rows(rows)
        if self.arithmetic == "coco" and self.width == 2 + 2 * self.orders:
            from bleuprint.metrics.bleu.scoring import OWN_SMOOTHINGS, coco_row_scores

            if self.smooth_method in OWN_SMOOTHINGS["coco"]:
                return coco_row_scores(rows, self)
        return [self.score_corpus(row) for row in rows]

    def score_corpus(self, rows: Any) -> BLEUScore:
        """The corpus score of the rows, as the configuration's upstream computes it."""
        if self._fast_path():
            return super().score_corpus(rows)  # type: ignore[no-any-return]
        return self._score_counts(corpus_counts(self._rows(rows), self))

    def _score_counts(self, counts: CorpusCounts) -> BLEUScore:
        """Summed counts to a score in the upstream's float operations."""
        # Start-up time: the other upstreams' arithmetic (nltk's Fractions and smoothings, the
        # decimal module under them) loads with the first score that needs it.
        from bleuprint.metrics.bleu.scoring import score_counts

        return score_counts(counts, self)

    # --- resampling --------------------------------------------------------------------------

    @property
    def resample_float32(self) -> bool:  # type: ignore[override]
        """float32 resample sums for torchmetrics (its state) and the sacrebleu arithmetic
        (sacrebleu's bootstrap); exact integer sums for the others."""
        return self.dtype == "float32" or self.fast

    @property
    def corpus_from_sums(self) -> bool:  # type: ignore[override]
        """Whether the corpus score is a function of the integer column sums: all but the
        average reference length, the last-segment smoothings and torchmetrics' float32
        running sums."""
        return resamplable(self) is None and self.dtype != "float32"

    def float_rows(self, rows: Any) -> np.ndarray:
        """The rows as float64, for float32 resampling and float randomization sums."""
        self._check_resamplable()
        return super().float_rows(rows)

    def randomization_rows(self, rows: Any) -> tuple[np.ndarray, int]:
        """Integer rows (divisor 1): randomization sums are exact."""
        self._check_resamplable()
        return super().randomization_rows(rows)  # type: ignore[return-value]

    def score_sums(self, sums: Any) -> np.ndarray:
        """Scores of column sums (one resample or trial per row): float64, ``(n,)``."""
        if self._fast_path():
            return super().score_sums(sums)
        import numpy as np

        sums = np.asarray(sums).reshape(-1, self.width)
        scores = [self._score_counts(sums_counts(row, self)).number for row in sums]
        return np.array(scores, dtype=float)

    def score_float32_sums(
        self, sums: Any, promotion: str
    ) -> tuple[np.ndarray, np.ndarray, type[np.floating]]:
        """Scores of float32 resample sums under numpy's scalar ``promotion``:
        ``(scores, is_numpy, numpy scalar type)``. Off the core's path the scores are the
        arithmetic's own objects (torchmetrics' are ``numpy.float32`` under either numpy)."""
        if self._fast_path():
            return super().score_float32_sums(sums, promotion)
        import numpy as np

        sums = np.ascontiguousarray(sums, dtype=np.float32).reshape(-1, self.width)
        scores = [self._score_counts(sums_counts(list(row), self)).score for row in sums]
        values = np.array([float(s) for s in scores], dtype=float)
        is_numpy = np.array([isinstance(s, np.floating) for s in scores], dtype=bool)
        types = {type(s) for s in scores if isinstance(s, np.floating)}
        scalar = cast("type[np.floating]", types.pop()) if len(types) == 1 else np.float64
        return values, is_numpy, scalar

    def _check_resamplable(self) -> None:
        reason = resamplable(self)
        if reason is not None:
            raise InvalidOptionError(
                f"bootstrap and paired tests are not defined for these statistics: {reason}"
            )

    # --- naming -------------------------------------------------------------------------------

    def signature(self, nrefs: int) -> Signature:
        """sacrebleu's signature for sacrebleu's settings; else the preset these knobs are,
        or the nearest one with the knobs that differ (``preset:nltk,smoothing=nltk3``)."""
        if self.sacrebleu_shaped:
            return BLEUSignature(self, nrefs)
        return PresetSignature(preset_label(self), nrefs)


# Statistics saved before there was one BLEU name their configuration "BLEU-preset".
METRIC_CONFIGS["BLEU-preset"] = BLEUConfig

#: The preset knobs, in the order of ``docs/compat.md``'s table.
KNOB_NAMES = (
    "tokenize", "lowercase", "ref_length", "smooth_method", "smooth_value", "max_ngram_order",
    "weights", "effective_order", "auto_reweigh", "aggregation", "drop_empty", "arithmetic",
    "scale", "dtype",
)  # fmt: skip

#: The knobs sacrebleu does not have, at sacrebleu's values.
_SACREBLEU_KNOBS = tuple(
    (f.name, f.default)
    for f in fields(BLEUConfig)
    if f.name
    in (
        "ref_length",
        "weights",
        "auto_reweigh",
        "aggregation",
        "drop_empty",
        "arithmetic",
        "scale",
        "dtype",
    )
)


@cache
def _column_names(orders: int) -> tuple[str, ...]:
    return tuple(_core.BleuKernel(tokenizer=None, max_order=orders).column_names)


@cache
def preset_config(name: str) -> BLEUConfig:
    """The configuration of the preset called ``name``."""
    return BLEUConfig(**get_preset(name).knobs)


@lru_cache(maxsize=64)
def preset_label(config: BLEUConfig) -> str:
    """The preset these knobs are, or the nearest one with the knobs that differ from it."""
    nearest = min(PRESETS, key=lambda name: len(config.differences(preset_config(name))))
    changes = "".join(f",{change}" for change in knob_changes(config, preset_config(nearest)))
    return (nearest + changes).replace("|", "/").replace(":", "=")


def knob_changes(config: BLEUConfig, base: BLEUConfig) -> list[str]:
    """``knob=value`` for every knob of ``config`` that differs from ``base``, as printed
    (``smoothing=nltk3``, ``lowercase=unicode``)."""
    return [
        f"{k.label(name)}={k.shown(name, mine)}"
        for name, (mine, _) in config.differences(base).items()
    ]


def drop_empty(
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


# --- docs/compat.md's tables --------------------------------------------------------------------


def knob_table() -> str:
    """A Markdown table: one row per preset, one column per knob; values that differ from
    sacrebleu's are in bold."""
    sacrebleu = BLEUConfig()
    lines = [
        "| preset | " + " | ".join(k.label(name) for name in KNOB_NAMES) + " |",
        "|---|" + "---|" * len(KNOB_NAMES),
    ]
    for name in PRESETS:
        config = preset_config(name)
        differs = config.differences(sacrebleu)
        cells = []
        for knob in KNOB_NAMES:
            value = k.shown(knob, getattr(config, knob))
            if knob == "smooth_value":
                value = config.effective_smooth_value
            text = "–" if value is None else str(value)
            cells.append(f"**{text}**" if knob in differs else text)
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def knob_values() -> str:
    """A Markdown list of every knob's values and what each means (from the knob tables)."""
    sections: list[tuple[str, Mapping[Any, str]]] = [
        ("tokenize", k.TOKENIZERS),
        ("lowercase", k.LOWERCASE),
        ("ref_length", k.REF_LENGTHS),
        ("smooth_method", k.SMOOTHING_NOTES),
        ("aggregation", k.AGGREGATIONS),
        ("arithmetic", k.ARITHMETICS),
    ]
    lines = []
    for name, values in sections:
        lines.append(f"- `{k.label(name)}`")
        lines += [f"  - `{value}`: {note}" for value, note in values.items()]
    lines += [
        "- `smooth_value`: the value of `floor`, `add-k`, `nltk1` (epsilon), `nltk4`/`nltk7` (K) "
        "and `nltk6` (alpha); `–` takes the method's default "
        + ", ".join(f"{m} {v:g}" for m, v in k.SMOOTHINGS.items() if v is not None),
        "- `max_order`, `weights`: n-gram orders; one weight tuple or several (`–`: uniform)",
        "- `effective_order`: average only over orders the hypothesis has n-grams for",
        "- `auto_reweigh`: nltk's uniform re-weighting of hypotheses shorter than 4 tokens",
        f"- `drop_empty`: {k.DROP_EMPTY_NOTE}",
        "- `scale`: 1 (0..1) or 100 (0..100); `dtype`: float64, or float32 (torchmetrics)",
    ]
    return "\n".join(lines) + "\n"
