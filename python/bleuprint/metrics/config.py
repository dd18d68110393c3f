"""What every metric configuration provides, and the registry of configurations by name.

:class:`~bleuprint.Stats`, the resampling code and the significance tests work through this
protocol only, so they sit below the metric classes and never import them. Each metric
module registers its configuration class here when it is imported (``import bleuprint``
imports every metric), which is how saved statistics find their configuration by name.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Optional, Protocol, TypeVar

if TYPE_CHECKING:
    from bleuprint.metrics.scores import Score, Signature


class MetricConfig(Protocol):
    """A metric's frozen configuration: how its statistics rows look and how they score.

    ``Stats`` needs the names, the width and the scoring methods; the significance tests also
    read ``higher_is_better``, ``resample_float32``, ``float_rows``, ``randomization_rows``,
    ``score_sums`` and (with ``resample_float32``) ``score_float32_sums``.
    """

    @property
    def metric(self) -> str:
        """The metric's name (``BLEU``, ``chrF``, ``TER``, ``WER``, ``CER``)."""

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
    bootstrap does: the scores and, per score, whether it is a ``numpy.float32``."""

    def score_float32_sums(self, sums: Any) -> tuple[Any, Any]: ...


#: Every metric's configuration class by metric name, so saved statistics can be restored.
METRIC_CONFIGS: dict[str, type] = {}

_ConfigClass = TypeVar("_ConfigClass", bound=type)


#: Configurations registered by modules that ``import bleuprint`` does not load (they need
#: numpy): looked up by name, :func:`config_class` imports them first.
LAZY_CONFIG_MODULES = {
    "BLEU-preset": "bleuprint.metrics.bleu.preset_config",
    "GLEU": "bleuprint.metrics.gleu",
}


def config_class(metric: str) -> Optional[type]:
    """The configuration class registered as ``metric``, or ``None``."""
    if metric not in METRIC_CONFIGS and metric in LAZY_CONFIG_MODULES:
        importlib.import_module(LAZY_CONFIG_MODULES[metric])  # registers it
    return METRIC_CONFIGS.get(metric)


def register_config(cls: _ConfigClass) -> _ConfigClass:
    """Class decorator: records a metric configuration class (a frozen dataclass that
    provides :class:`MetricConfig`) under its ``metric`` name."""
    METRIC_CONFIGS[cls.metric] = cls  # type: ignore[attr-defined]  # every config class has one
    return cls
