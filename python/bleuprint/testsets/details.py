"""sacrebleu's ``--detail``: each metric's score on every original language of a test set,
overall and per domain (or WMT18/19 country), computed from per-segment statistics.

Used by the command line's ``-d`` and by ``compat.sacrebleu``'s ``print_subset_results``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Optional

import numpy as np

from bleuprint.testsets.api import get_available_origlangs, get_available_subsets, keep_flags

NO_SUBSETS = "No subset information found. Consider using --origlang argument."


def _label(origlang: str, subset: Optional[str]) -> str:
    if subset is None:
        return f"origlang={origlang} domain=ALL"
    if subset.startswith("country:"):
        return f"origlang={origlang} country={subset[8:]}"
    return f"origlang={origlang} domain={subset}"


def subset_scores(
    metrics: Sequence[Any],
    rows: Sequence[Any],
    test_sets: Optional[str],
    langpair: str,
    origlangs: Optional[Sequence[str]] = None,
    subset: Optional[str] = None,
) -> dict[str, list[tuple[int, Any]]]:
    """Per subset label (``origlang=de domain=ALL``), each metric's ``(segments, score)``;
    ``rows[k]`` are metric ``k``'s statistics of every segment of the test sets. The original
    languages are ``origlangs``, else all of the test sets'; no result when there are none."""
    if not origlangs:
        origlangs = get_available_origlangs(test_sets, langpair)
    if not origlangs or test_sets is None:
        return {}
    subsets: list[Optional[str]] = [None]
    subsets += [subset] if subset is not None else get_available_subsets(test_sets, langpair)
    results: dict[str, list[tuple[int, Any]]] = {}
    for language in origlangs:
        for part in subsets:
            mask = np.asarray(keep_flags(test_sets, langpair, language, part), dtype=bool)
            if mask.any():
                results[_label(language, part)] = [
                    (int(mask.sum()), metric.score_stats(stats[mask]))
                    for metric, stats in zip(metrics, rows)
                ]
    return results


def detail_lines(
    results: dict[str, list[tuple[int, Any]]],
    width: int,
    paint: Callable[[str], str] = lambda label: label,
) -> list[str]:
    """sacrebleu's lines for :func:`subset_scores`' results (``paint`` colours the label)."""
    if not results:
        return [NO_SUBSETS]
    left = max(len(label) for label in results) + 1
    name_width = max(len(score.name) for _, score in next(iter(results.values())))
    return [
        f"{paint(f'{label:<{left}}')}: sentences={n:<6} {score.name:<{name_width}} = "
        f"{score.score:.{width}f}"
        for label, scores in results.items()
        for n, score in scores
    ]


__all__ = ["NO_SUBSETS", "detail_lines", "subset_scores"]
