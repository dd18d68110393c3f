"""Charts drawn by matplotlib as inline SVG: titles, axis labels and legends on every chart;
text kept as text (small, printable, selectable); the scatter's points rasterized so the
file does not grow with the number of segments."""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from bleuprint.errors import BleuprintError

#: Systems drawn per chart; tables list all of them.
MAX_SYSTEMS_PER_CHART = 8
#: Systems per grouped-bar chart (the best ones): more bars per bucket would not be legible.
MAX_SYSTEMS_PER_BAR_CHART = 4


#: Text kept as text (small, selectable, printable); fixed ids, so a page is reproducible.
STYLE: Any = {
    "svg.fonttype": "none",
    "font.size": 9,
    "axes.titlesize": 10,
    "svg.hashsalt": "bleuprint",
}

F = TypeVar("F", bound=Callable[..., str])


def load() -> Any:
    """matplotlib's Figure class. No pyplot: a notebook's backend and figures stay as they
    were, and figures need no closing."""
    try:
        from matplotlib.figure import Figure
    except ImportError as e:
        raise BleuprintError(
            "the HTML report draws its charts with matplotlib: pip install 'bleuprint[report]' "
            "(or use --json / Report.to_json, which need no matplotlib)"
        ) from e
    return Figure


def _styled(draw: F) -> F:
    """Runs a chart function under :data:`STYLE` (creation and saving both read it)."""

    @functools.wraps(draw)
    def run(*args: Any, **kwargs: Any) -> str:
        import matplotlib

        with matplotlib.rc_context(STYLE):
            return draw(*args, **kwargs)

    return run  # type: ignore[return-value]


def _subplots(ncols: int = 1, **kwargs: Any) -> tuple[Any, list[Any]]:
    fig = load()(figsize=kwargs.pop("figsize"))
    axes = fig.subplots(1, ncols, squeeze=False, **kwargs)[0]
    return fig, list(axes)


def _text_inches(labels: Sequence[str], font_points: float = 9.0) -> float:
    """About how wide the longest label is, in inches (matplotlib's default sans font)."""
    return 0.55 * font_points / 72 * max((len(x) for x in labels), default=0)


def _svg(fig: Any, left: float = 0.6, bottom: float = 0.55, right: float = 0.15) -> str:
    """The figure as SVG, with fixed margins in inches: measuring them ("tight" boxes)
    would draw every figure twice."""
    width, height = fig.get_size_inches()
    fig.subplots_adjust(
        left=left / width, right=1 - right / width, bottom=bottom / height, top=1 - 0.35 / height
    )
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    return text[text.index("<svg") :]


@_styled
def score_bars(data: dict[str, Any]) -> str:
    """Each metric's corpus score per system with its bootstrap interval."""
    systems = data["systems"][: MAX_SYSTEMS_PER_CHART * 3]
    metrics = data["metrics"]
    names_in = _text_inches(systems) + 0.2
    fig, axes = _subplots(
        len(metrics),
        figsize=(names_in + 2.6 * len(metrics), 0.3 * len(systems) + 1.5),
        sharey=True,
    )
    for ax, metric in zip(axes, metrics):
        rows = [data["scores"]["rows"][s][metric] for s in systems]
        scores = [r["score"] for r in rows]
        err = [
            [max(r["score"] - r["lower"], 0) for r in rows],
            [max(r["upper"] - r["score"], 0) for r in rows],
        ]
        bars = ax.barh(range(len(systems)), scores, xerr=err, color="#4c78a8", capsize=2)
        ax.set_yticks(range(len(systems)), systems)
        ax.invert_yaxis()
        ax.set_xlabel(metric)
        ax.set_title(f"{metric} per system")
    # One legend for every panel, at the foot of the figure where no bar can be.
    fig.legend(
        [bars.patches[0], bars.errorbar.lines[2][0]],
        ["corpus score", "95% bootstrap interval"],
        loc="lower center",
        ncol=2,
        fontsize=7,
        frameon=False,
    )
    fig.subplots_adjust(wspace=0.15)
    return _svg(fig, left=names_in, bottom=0.8)


@_styled
def bucket_bars(
    title: str,
    xlabel: str,
    ylabel: str,
    buckets: Sequence[str],
    series: dict[str, list[tuple[float, float, float]]],
) -> str:
    """Grouped bars, one group per bucket and one bar per system, with error bars from
    ``(value, lower, upper)``; missing values draw no bar."""
    import numpy as np

    names = list(series)[:MAX_SYSTEMS_PER_BAR_CHART]
    fig, (ax,) = _subplots(figsize=(max(5.0, 0.45 * len(buckets) * max(1, len(names)) / 2), 3.2))
    width = 0.8 / max(1, len(names))
    x = np.arange(len(buckets))
    for i, name in enumerate(names):
        values = series[name]
        v = np.array([np.nan if t[0] is None else t[0] for t in values], dtype=float)
        lo = np.array([np.nan if t[1] is None else t[1] for t in values], dtype=float)
        hi = np.array([np.nan if t[2] is None else t[2] for t in values], dtype=float)
        err = np.nan_to_num(np.vstack([np.maximum(v - lo, 0), np.maximum(hi - v, 0)]))
        ax.bar(
            x + (i - (len(names) - 1) / 2) * width,
            np.nan_to_num(v),
            width,
            yerr=err,
            capsize=1.5,
            label=name,
            error_kw={"elinewidth": 0.8},
        )
    ax.set_xticks(
        x,
        buckets,
        rotation=45 if len(buckets) > 8 else 0,
        ha="right" if len(buckets) > 8 else "center",
    )
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    # A fixed corner: matplotlib's "best" tests every data point against every spot.
    ax.legend(fontsize=7, ncol=min(4, len(names)), loc="upper right")
    rotated = len(buckets) > 8
    return _svg(fig, bottom=0.45 + (_text_inches(buckets) * 0.72 if rotated else 0.15))


@_styled
def histograms(edges: Sequence[float], metrics: dict[str, dict[str, list[int]]]) -> str:
    """Sentence-score distributions, one panel per metric, one step line per system."""
    fig, axes = _subplots(len(metrics), figsize=(3.4 * len(metrics) + 0.3, 3.0))
    for ax, (metric, counts) in zip(axes, metrics.items()):
        for name in list(counts)[:MAX_SYSTEMS_PER_CHART]:
            ax.stairs(counts[name], edges, label=name)
        ax.set_xlabel(f"sentence {metric}")
        ax.set_ylabel("segments")
        ax.set_title(f"Sentence {metric}")
        ax.legend(fontsize=6, loc="upper right")
    fig.subplots_adjust(wspace=0.35)
    return _svg(fig)


@_styled
def scatter(metric: str, x_name: str, y_name: str, x: Sequence[float], y: Sequence[float]) -> str:
    """Segment scores of two systems against each other, with the diagonal."""
    fig, (ax,) = _subplots(figsize=(4.2, 4.2))
    ax.scatter(x, y, s=5, alpha=0.35, color="#4c78a8", label="segments", rasterized=True)
    top = max([100.0, *x, *y])
    ax.plot([0, top], [0, top], color="#999", linewidth=0.8, label="equal scores")
    ax.set_xlabel(f"{x_name} (sentence {metric})")
    ax.set_ylabel(f"{y_name} (sentence {metric})")
    ax.set_title(f"Sentence {metric}: {x_name} vs {y_name}")
    ax.legend(fontsize=7, loc="upper left")
    fig.set_dpi(90)
    return _svg(fig, left=0.65, bottom=0.55)
