"""What every metric configuration provides, the shared implementation most of them use, and
the registry of configurations by name.

A configuration is a frozen dataclass of a metric's settings. It turns statistics rows into
scores, and it is the one object that crosses into the Rust core, as its *kernel*
(``_core.BleuKernel(...)``, ``_core.ChrfKernel(...)``, ...). :class:`~bleuprint.Stats`, the
resampling code, streaming, shards and the significance tests work through the
:class:`MetricConfig` protocol only, so they never import a metric class. Each metric module
registers its configuration class here when it is imported (``import bleuprint`` imports every
metric), which is how saved statistics find their configuration by name.
"""

from __future__ import annotations

import dataclasses
import importlib
import sys
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Optional, Protocol, TypeVar

from bleuprint import _core
from bleuprint.errors import InvalidOptionError, StatsFormatError, StatsMismatchError
from bleuprint.metrics.scores import gc_paused
from bleuprint.significance.promotion import numpy_scalar_type

if TYPE_CHECKING:
    import numpy as np

    from bleuprint.metrics.scores import Score, Signature

#: Python >= 3.12's ``sum()`` compensates float rounding (Neumaier); the upstreams reproduced
#: here sum floats with ``sum()`` (sacrebleu's log precisions, mbrs' expected counts).
COMPENSATED_SUM = sys.version_info >= (3, 12)


class MetricConfig(Protocol):
    """A metric's frozen configuration: how its statistics rows look and how they score.

    ``Stats`` needs the names, the width, the row checks and the scoring methods; the
    significance tests also read ``higher_is_better``, ``resample_float32``, ``float_rows``,
    ``randomization_rows``, ``score_sums`` and (with ``resample_float32``)
    ``score_float32_sums``; streaming reads ``corpus_from_sums``.
    """

    @property
    def metric(self) -> str:
        """The metric's name (``BLEU``, ``chrF``, ``TER``, ``WER``, ``GLEU``)."""

    @property
    def width(self) -> int:
        """Columns per statistics row."""

    @property
    def column_names(self) -> tuple[str, ...]:
        """One name per column."""

    @property
    def higher_is_better(self) -> bool:
        """Whether a larger score is a better system."""

    @property
    def resample_float32(self) -> bool:
        """Whether sacrebleu's bootstrap sums these statistics as float32."""

    @property
    def corpus_from_sums(self) -> bool:
        """Whether the corpus score is a function of the column sums (a stream may then keep
        only them)."""

    def check_rows(self, rows: Any) -> np.ndarray: ...

    def score_row(self, row: Any) -> Score: ...

    def score_rows(self, rows: Any) -> Any: ...

    def score_rows_detailed(self, rows: Any) -> list[Any]: ...

    def score_corpus(self, rows: Any) -> Score: ...

    def float_rows(self, rows: Any) -> Any: ...

    def randomization_rows(self, rows: Any) -> Optional[tuple[Any, int]]: ...

    def score_sums(self, sums: Any) -> Any: ...

    def signature(self, nrefs: int) -> Signature: ...

    def to_dict(self) -> dict[str, Any]: ...


class Float32ResampledConfig(MetricConfig, Protocol):
    """A configuration with ``resample_float32`` true also scores float32 sums, as sacrebleu's
    bootstrap does, under numpy's scalar ``promotion``: the scores, per score whether it is a
    numpy scalar, and that scalar's type."""

    def score_float32_sums(self, sums: Any, promotion: str) -> tuple[Any, Any, type]: ...


class KernelConfig:
    """The shared implementation of :class:`MetricConfig` for a configuration whose rows the
    core counts and scores through one kernel (BLEU, chrF, TER, WER).

    A subclass is a frozen dataclass that names its ``metric``, makes its kernel
    (:meth:`_make_kernel`), turns the core's result arrays into its score objects
    (:meth:`_results`) and signs its statistics (:meth:`signature`). Everything else here
    reads the kernel: the width and column names, sentence and corpus scores, resampled sums,
    and the checks of rows that come from outside the library (:meth:`check_rows`, with each
    metric's own rule between columns in :meth:`_broken_rows`).
    """

    metric: ClassVar[str]
    #: Higher scores are better (read by the paired tests' clusters, which rank best first).
    higher_is_better: ClassVar[bool] = True
    #: sacrebleu's bootstrap casts these statistics to float32 before summing resamples.
    resample_float32: ClassVar[bool] = True
    #: The corpus score is the score of the column sums (so a stream may keep only them).
    corpus_from_sums: ClassVar[bool] = True
    #: The core counts sentences once for pairwise matrices (``_core.bags``).
    counts_sentences: ClassVar[bool] = True
    #: The core scores hypotheses against references' averaged n-gram statistics
    #: (``_core.aggregate``: reference aggregation, BLEU and chrF).
    aggregates_references: ClassVar[bool] = True

    # --- the kernel ---------------------------------------------------------------------------

    def _make_kernel(self) -> Any:
        """The core's object for these settings (built once, on first use)."""
        raise NotImplementedError(f"{type(self).__name__} must make its kernel")

    @cached_property
    def kernel(self) -> Any:
        """The settings as the core's kernel object, the one thing that crosses into Rust."""
        return self._make_kernel()

    def __getstate__(self) -> dict[str, Any]:
        # The kernel is a compiled object: pickles (shards, Ray) carry the settings only.
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}  # type: ignore[arg-type]

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    # --- rows ---------------------------------------------------------------------------------

    @property
    def width(self) -> int:
        """Columns of a statistics row."""
        return int(self.kernel.width)

    @property
    def column_names(self) -> tuple[str, ...]:
        """One name per statistics column."""
        return tuple(self.kernel.column_names)

    def check_rows(self, rows: Any) -> np.ndarray:
        """``rows`` as an int64 matrix of this width, with counts the metric could have
        produced; raises :class:`StatsMismatchError` (wrong shape or dtype) or
        :class:`StatsFormatError` (impossible counts). Rows the library counted skip this."""
        import numpy as np

        rows = integer_rows(rows, self)
        bad_rule = self._broken_rows(rows) if len(rows) else None
        if bad_rule is not None:
            bad, rule = bad_rule
            if bad.any():
                segment = int(np.flatnonzero(bad)[0])
                raise StatsFormatError(
                    f"{self.metric} statistics row {segment} {rows[segment].tolist()} breaks "
                    f"the rule {rule}"
                )
        return rows

    def _broken_rows(self, rows: np.ndarray) -> Optional[tuple[Any, str]]:
        """Which rows break the metric's rule between columns, and the rule; ``None`` when
        the metric has none."""
        return None

    # --- scores -------------------------------------------------------------------------------

    #: Whether :meth:`_results` reads the rows, which are then listed as Python ints for it
    #: (a metric whose scores come from ``details`` alone gets ``None`` and skips the lists).
    _results_read_rows: ClassVar[bool] = True

    def _results(self, rows: Optional[list[list[int]]], details: dict[str, Any]) -> list[Any]:
        """The score objects of the core's ``details`` lists for ``rows`` (Python ints;
        ``None`` for a corpus result that is not the score of summed rows, and where
        :attr:`_results_read_rows` is false), one per row."""
        raise NotImplementedError(f"{type(self).__name__} must build its scores")

    def _rows(self, rows: Any) -> np.ndarray:
        import numpy as np

        return np.ascontiguousarray(np.asarray(rows, dtype=np.int64).reshape(-1, self.width))

    def score_rows(self, rows: Any) -> np.ndarray:
        """Scores every row of a statistics matrix; a float64 array of shape ``(n,)``."""
        return _core.scores(self.kernel, self._rows(rows))

    def score_rows_detailed(self, rows: Any) -> list[Any]:
        """Every row's full result (score, and the parts behind it), from one batch call."""
        rows = self._rows(rows)
        # A row's result is several objects: built by the hundred thousand, they would set off
        # collections that cost more than building them.
        with gc_paused():
            listed = rows.tolist() if self._results_read_rows else None
            return self._results(listed, _core.details(self.kernel, rows))

    def score_row(self, row: Any) -> Any:
        """Scores one (summed) statistics row."""
        return self.score_rows_detailed(row)[0]

    def score_corpus(self, rows: Any) -> Any:
        """The corpus score of per-segment rows: the score of their column sums, or (TER) the
        core's own corpus rule; one core call, which sums the columns too."""
        details = _core.details(self.kernel, self._rows(rows), corpus=True)
        return self._results(details.get("sums"), details)[0]

    def pair_scores(self, counted: Any, block: Any, workers: int = -1) -> np.ndarray:
        """Sentence scores of a block of pairs of sentences counted under the kernel
        (``_core.bags``): ``block`` is the ``(start, stop)`` ranges of the hypotheses and the
        references; ``(H, R)`` float64."""
        hyps, refs = block
        return _core.pairwise(self.kernel, counted, hyps, refs, workers=workers)

    # --- resampling ---------------------------------------------------------------------------

    def float_rows(self, rows: Any) -> np.ndarray:
        """The per-segment statistics as sacrebleu's tests hold them, as float64."""
        import numpy as np

        return np.asarray(rows, dtype=np.float64)

    def randomization_rows(self, rows: Any) -> Optional[tuple[np.ndarray, int]]:
        """Integer rows and a power-of-two divisor: the sums of the rows divided by it are the
        sums sacrebleu's randomization test gets, exactly."""
        import numpy as np

        return np.asarray(rows, dtype=np.int64), 1

    def score_sums(self, sums: Any) -> np.ndarray:
        """Scores of summed statistics (one resample or trial per row): float64, ``(n,)``."""
        return self.score_rows(sums)

    def score_float32_sums(
        self, sums: Any, promotion: str
    ) -> tuple[np.ndarray, np.ndarray, type[np.floating]]:
        """Scores of float32 resample sums with sacrebleu's arithmetic on numpy.float32
        counts under numpy's scalar ``promotion`` (``"weak"`` or ``"legacy"``, see
        :mod:`bleuprint.significance.promotion`): ``(scores, is_numpy, numpy scalar type)``."""
        import numpy as np

        sums = np.ascontiguousarray(sums, dtype=np.float32).reshape(-1, self.width)
        values, is_numpy = _core.resampled_scores(self.kernel, sums, promotion=promotion)
        return values, is_numpy, numpy_scalar_type(promotion)

    # --- naming -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable description (saved with the statistics)."""
        return {"metric": self.metric, **self.__getstate__()}


def integer_rows(rows: Any, config: Any) -> np.ndarray:
    """``rows`` as an int64 matrix of ``config``'s width without negative counts; raises
    :class:`StatsMismatchError` (shape, dtype) or :class:`StatsFormatError` (a negative
    count)."""
    import numpy as np

    try:
        rows = np.asarray(rows)
    except ValueError:  # numpy's answer to ragged rows
        raise StatsMismatchError(
            f"{config.metric} statistics must be a matrix of shape (n, {config.width}); the "
            "rows have different lengths"
        ) from None
    if rows.ndim != 2 or rows.shape[1] != config.width:
        raise StatsMismatchError(
            f"{config.metric} statistics need shape (n, {config.width}), got {rows.shape}"
        )
    if rows.dtype != np.int64:
        if not np.issubdtype(rows.dtype, np.integer):
            raise StatsMismatchError(f"statistics must be integers, got dtype {rows.dtype}")
        rows = rows.astype(np.int64)  # uint64 beyond int64 wraps negative, refused below
    if rows.size and rows.min() < 0:
        segment, column = np.argwhere(rows < 0)[0]
        raise StatsFormatError(
            f"{config.metric} statistics hold a negative count: row {segment}, column "
            f"{config.column_names[column]!r} is {rows[segment, column]}"
        )
    return rows


# --- the registry -------------------------------------------------------------------------------

#: Every metric's configuration class by metric name, so saved statistics can be restored.
METRIC_CONFIGS: dict[str, type] = {}
#: The modules of the metrics ``import bleuprint`` leaves unloaded (start-up time), by metric
#: name: restoring their statistics imports the module, which registers its configuration.
LAZY_CONFIG_MODULES = {"GLEU": "bleuprint.metrics.gleu"}

_ConfigClass = TypeVar("_ConfigClass", bound=type)
_Config = TypeVar("_Config")


def register_config(cls: _ConfigClass) -> _ConfigClass:
    """Class decorator: records a metric configuration class (a frozen dataclass that
    provides :class:`MetricConfig`) under its ``metric`` name."""
    METRIC_CONFIGS[cls.metric] = cls  # type: ignore[attr-defined]  # every config class has one
    return cls


#: Configurations by their constructor arguments and the arguments' types (so ``0`` and ``0.0``
#: stay apart). Metric objects made with the same arguments share one, with its kernel and
#: derived values: ``sentence_bleu`` in a loop builds them once, not per call.
_SHARED_CONFIGS: dict[Any, Any] = {}
_SHARED_CONFIGS_SIZE = 256


def shared_config(cls: Callable[..., _Config], *args: Any) -> _Config:
    """``cls(*args)``, or the equal configuration made before with the same arguments."""
    key = (cls, args, tuple(map(type, args)))
    try:
        return _SHARED_CONFIGS[key]  # type: ignore[no-any-return]
    except KeyError:
        pass
    except TypeError:  # an unhashable argument: the constructor says what is wrong with it
        return cls(*args)
    config = cls(*args)
    if len(_SHARED_CONFIGS) >= _SHARED_CONFIGS_SIZE:
        _SHARED_CONFIGS.clear()
    _SHARED_CONFIGS[key] = config
    return config


def config_from_dict(d: Any) -> Any:
    """The metric configuration saved as ``d`` (``{"metric": ..., option: value, ...}``)."""
    if not isinstance(d, dict) or not isinstance(d.get("metric"), str):
        raise StatsFormatError(f"saved statistics hold no metric configuration: {d!r:.80}")
    d = dict(d)
    metric = d.pop("metric")
    if metric not in METRIC_CONFIGS and metric in LAZY_CONFIG_MODULES:
        importlib.import_module(LAZY_CONFIG_MODULES[metric])
    config_class = METRIC_CONFIGS.get(metric)
    if config_class is None:
        raise StatsMismatchError(f"unknown metric {metric!r} in saved statistics")
    restore = getattr(config_class, "from_saved", None)
    if restore is not None:  # a configuration saved in an older layout
        d = restore(d)
    if dataclasses.is_dataclass(config_class):
        known = {f.name for f in dataclasses.fields(config_class) if f.init}
        unknown = sorted(set(d) - known)
        if unknown:
            raise StatsFormatError(
                f"saved {metric} configuration has unknown options {unknown}; known: "
                f"{sorted(known)}"
            )
    try:
        return config_class(**d)
    except InvalidOptionError as error:
        raise StatsFormatError(f"saved {metric} configuration is invalid: {error}") from None
