"""nlg-metricverse's (and obss/jury's) ``bleu``, bit for bit::

    from bleuprint.compat.nlgmetricverse import NLGMetricverse, load_metric
    scorer = NLGMetricverse(metrics=load_metric("bleu"))
    scorer(predictions=[...], references=[...])

Tokens: ASCII punctuation to spaces, lowercased, split; scores: tensorflow/nmt's
``compute_bleu`` (the ``nlgmetricverse`` preset). Items may hold several predictions: they
are flattened and the brevity penalty is rescaled with per-item lengths, as upstream does.
Items with an empty prediction or reference are dropped (``empty_items``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Optional, Union

from bleuprint.errors import ReferenceLayoutError
from bleuprint.io.layout import as_text_sequence
from bleuprint.metrics.bleu import BLEUConfig

_SHAPE = (
    "predictions=['text', ...] or [['candidate 1', 'candidate 2'], ...]; "
    "references=['text', ...] or [['ref 1', 'ref 2'], ...]"
)


def _as_list(item: Any, where: str) -> list[str]:
    if isinstance(item, str):
        return [item]
    if isinstance(item, Sequence) and all(isinstance(x, str) for x in item):
        return list(item)
    raise ReferenceLayoutError(f"{where} must be a str or a list of str; expected {_SHAPE}")


def _length_mismatch(predictions: Any, references: Any) -> str:
    return (
        f"got {len(predictions)} predictions but {len(references)} references: they must be "
        f"lists of equal length; expected {_SHAPE}"
    )


class BleuMetric:
    """``load_metric("bleu")``: nlg-metricverse's ``BleuPlanet``."""

    def __init__(
        self, resulting_name: Optional[str] = None, compute_kwargs: Optional[dict[str, Any]] = None
    ) -> None:
        self.resulting_name = resulting_name or "bleu"
        self._rename = resulting_name is None
        self.compute_kwargs = dict(compute_kwargs or {})

    def compute(
        self, *, predictions: Any, references: Any, reduce_fn: Any = None, **kwargs: Any
    ) -> dict[str, Any]:
        """``{name: {"score", "precisions", ...}}`` for items that are all non-empty."""
        kwargs = {**self.compute_kwargs, **kwargs}
        max_order = kwargs.get("max_order")
        name = (
            f"{self.resulting_name}_{max_order}"
            if max_order is not None and self._rename
            else self.resulting_name
        )
        started = time.perf_counter()
        result = self._score(
            predictions, references, max_order or 4, bool(kwargs.get("smooth", False))
        )
        result["time_elapsed"] = time.perf_counter() - started
        return {name: result}

    def _score(
        self, predictions: Any, references: Any, max_order: int, smooth: bool
    ) -> dict[str, Any]:
        predictions = as_text_sequence(predictions, "predictions")
        references = as_text_sequence(references, "references")
        preds = [_as_list(p, f"predictions[{i}]") for i, p in enumerate(predictions)]
        refs = [_as_list(r, f"references[{i}]") for i, r in enumerate(references)]
        if len(preds) != len(refs):
            raise ReferenceLayoutError(_length_mismatch(preds, refs))
        # NLGMetricverse has dropped empty items already, by upstream's exact rule (a
        # reference list [""] stays, a reference "" goes), so the knob is off here.
        multi = any(len(p) > 1 for p in preds)
        config = BLEUConfig.from_preset(
            "nlgmetricverse",
            max_ngram_order=max_order,
            smooth_method="lin-och" if smooth else "none",
            drop_empty=False,
            aggregation="multi-prediction" if multi else "micro",
        )
        flat = [p for ps in preds for p in ps]
        flat_refs = [r for ps, r in zip(preds, refs) for _ in ps]
        items = [i for i, ps in enumerate(preds) for _ in ps]
        result = config.item_score(flat, flat_refs, items=items if multi else None)
        return {
            "score": result.score,
            "precisions": result.precisions,
            "brevity_penalty": result.bp,
            "length_ratio": result.ratio,
            "translation_length": result.hyp_len,
            "reference_length": result.ref_len,
        }


def load_metric(
    path: str,
    resulting_name: Optional[str] = None,
    compute_kwargs: Optional[dict[str, Any]] = None,
    **kwargs: Any,
) -> BleuMetric:
    """``nlgmetricverse.load_metric`` for ``"bleu"``."""
    if path != "bleu":
        raise ReferenceLayoutError(
            f"bleuprint.compat.nlgmetricverse provides 'bleu' only, not {path!r}"
        )
    return BleuMetric(resulting_name, compute_kwargs)


class NLGMetricverse:
    """``NLGMetricverse(metrics=...)``: scores items, dropping empty ones first."""

    def __init__(
        self, metrics: Union[BleuMetric, Sequence[Any], str, None] = None, **kwargs: Any
    ) -> None:
        if metrics is None:
            metrics = "bleu"
        if isinstance(metrics, (str, BleuMetric)):
            metrics = [metrics]
        self.metrics = [load_metric(m) if isinstance(m, str) else m for m in metrics]

    def __call__(
        self, *, predictions: Any, references: Any, reduce_fn: Any = None, **kwargs: Any
    ) -> dict[str, Any]:
        if isinstance(predictions, str) or isinstance(references, str):
            raise ReferenceLayoutError(
                f"predictions and references must be lists; expected {_SHAPE}"
            )
        predictions = as_text_sequence(predictions, "predictions")
        references = as_text_sequence(references, "references")
        if len(predictions) != len(references):
            raise ReferenceLayoutError(_length_mismatch(predictions, references))
        # A numpy array item has no truth value: read it as the list it holds.
        predictions = [_as_item(p) for p in predictions]
        references = [_as_item(r) for r in references]
        started = time.perf_counter()
        total = len(references)
        # Upstream's _remove_empty: an item goes when its prediction or reference is falsy.
        kept = [i for i in range(total) if predictions[i] and references[i]]
        scores: dict[str, Any] = {"total_items": total, "empty_items": total - len(kept)}
        if kept:
            preds = [predictions[i] for i in kept]
            refs = [references[i] for i in kept]
            for metric in self.metrics:
                scores.update(
                    metric.compute(
                        predictions=preds, references=refs, reduce_fn=reduce_fn, **kwargs
                    )
                )
        scores["total_time_elapsed"] = time.perf_counter() - started
        return scores


def _as_item(item: Any) -> Any:
    """An item as upstream's truth test can read it: numpy arrays become lists."""
    if not isinstance(item, (str, list, tuple)) and hasattr(item, "tolist"):
        return item.tolist()
    return item


__all__ = ["BleuMetric", "NLGMetricverse", "load_metric"]
