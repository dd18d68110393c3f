"""``bleuprint.report``: one self-contained HTML page (or JSON) analysing MT systems.

>>> import bleuprint
>>> r = bleuprint.report({"a": ["the cat sat"], "b": ["a cat sat"]}, [["the cat sat"]])
>>> r.to_html().startswith("<!DOCTYPE html>")
True
"""

from __future__ import annotations

import json
import sys
import threading
import types
from collections.abc import Mapping, Sequence
from typing import Any, Optional

from bleuprint.analysis.report import charts
from bleuprint.analysis.report.analysis import analyse
from bleuprint.analysis.report.html import render
from bleuprint.analysis.report.inputs import DEFAULT_METRICS, check_inputs
from bleuprint.errors import BleuprintError, InvalidOptionError
from bleuprint.metrics.scores import gc_paused


class Report:
    """A computed report: ``data`` holds every section; ``to_html`` and ``to_json`` render
    it; notebooks show the HTML."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def to_html(self) -> str:
        """The self-contained page (no script, no network)."""
        with gc_paused():
            return render(self.data)

    def to_json(self, indent: Optional[int] = 2) -> str:
        """Every section as JSON (the HTML shows the same analyses)."""
        return json.dumps(self.data, indent=indent, ensure_ascii=False, allow_nan=False)

    def _repr_html_(self) -> str:
        return self.to_html()

    def __repr__(self) -> str:
        return f"Report(systems={len(self.data['systems'])}, segments={self.data['segments']})"


def report(
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str]],
    *,
    sources: Optional[Sequence[str]] = None,
    metrics: Sequence[str] = DEFAULT_METRICS,
    meta: Optional[Mapping[str, Sequence[str]]] = None,
    train_counts: Optional[Mapping[str, int]] = None,
    n_bootstrap: int = 1000,
    seed: Optional[int] = 12345,
    test_set: Optional[str] = None,
) -> Report:
    """Analyses ``systems`` ({name: hypotheses}) against reference streams.

    ``metrics`` among ``bleu``, ``chrf``, ``ter``, ``rouge`` (the first orders the systems);
    ``meta`` maps ``docid``/``origlang``/``domain`` to one value per segment; ``train_counts`` gives
    word frequencies for word accuracy (default: the first reference's).
    """
    if isinstance(n_bootstrap, bool) or not isinstance(n_bootstrap, int) or n_bootstrap < 1:
        raise InvalidOptionError(f"n_bootstrap must be a positive integer, got {n_bootstrap!r}")
    _prefetch_matplotlib()
    inputs = check_inputs(
        systems,
        references,
        sources=sources,
        meta=meta,
        metrics=metrics,
        train_counts=train_counts,
        test_set=test_set,
    )
    with gc_paused():
        return Report(analyse(inputs, n_bootstrap=n_bootstrap, seed=seed))


def _prefetch_matplotlib() -> None:
    """Imports matplotlib on a thread while the statistics are computed: the scoring and
    resampling run in Rust without the GIL, so the import's second or so mostly overlaps."""

    def load() -> None:
        try:
            charts.load()
        except BleuprintError:  # no matplotlib: reported when the charts are drawn
            pass

    threading.Thread(target=load, name="bleuprint-report-import", daemon=True).start()


class _CallableModule(types.ModuleType):
    """Lets ``bleuprint.report(...)`` call :func:`report` once the package is imported."""

    def __call__(self, *args: Any, **kwargs: Any) -> Report:
        return report(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule

__all__ = ["Report", "report"]
