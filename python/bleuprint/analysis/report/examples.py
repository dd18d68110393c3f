"""Example sentences: the largest score differences between two systems and the worst
sentences per system, capped so the page does not grow with the test set. Each hypothesis
carries which of its tokens sit in a matched n-gram, and BLEU's clipped counts (``explain``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from bleuprint.analysis.explanation import explain


def match_levels(
    hyp: Sequence[str], refs: Sequence[Sequence[str]], max_order: int = 4
) -> list[int]:
    """Per hypothesis token, the longest order of a matched n-gram covering it (0: none).
    An n-gram matches while its clipped count (highest count in any reference) lasts."""
    levels = [0] * len(hyp)
    for n in range(max_order, 0, -1):
        budget: dict[tuple[str, ...], int] = {}
        for ref in refs:
            for gram, count in Counter(zip(*(ref[i:] for i in range(n)))).items():
                budget[gram] = max(count, budget.get(gram, 0))
        for i in range(len(hyp) - n + 1):
            gram = tuple(hyp[i : i + n])
            if budget.get(gram, 0) > 0:
                budget[gram] -= 1
                for j in range(i, i + n):
                    levels[j] = max(levels[j], n)
    return levels


def example(
    index: int,
    systems: Sequence[str],
    hyps: dict[str, list[str]],
    hyp_tokens: dict[str, list[list[str]]],
    references: list[list[str]],
    ref_tokens: list[list[list[str]]],
    sources: Any,
    sentence_scores: dict[str, np.ndarray],
) -> dict[str, Any]:
    """One segment as data: source, references, and each listed system's hypothesis with
    its sentence score, token match levels and explanation."""
    refs = [r[index] for r in references]
    refs_tok = [r[index] for r in ref_tokens]
    outputs = []
    for name in systems:
        tokens = hyp_tokens[name][index]
        explained = explain(hyps[name][index], refs)
        outputs.append(
            {
                "system": name,
                "text": hyps[name][index],
                "score": float(sentence_scores[name][index]),
                "tokens": tokens,
                "levels": match_levels(tokens, refs_tok),
                "explain_html": explained._repr_html_(),
                "explain_text": str(explained),
            }
        )
    return {
        "segment": index + 1,
        "source": None if sources is None else sources[index],
        "references": refs,
        "outputs": outputs,
    }


def pick_examples(
    order: Sequence[str], sentence_scores: dict[str, np.ndarray], n_diff: int, n_worst: int
) -> dict[str, Any]:
    """Segment indices: largest differences between the two best systems (both directions)
    and the worst per system. Ties go to the earlier segment."""
    picks: dict[str, Any] = {"pair": None, "differences": [], "worst": {}}
    if len(order) >= 2:
        a, b = order[0], order[1]
        delta = sentence_scores[a] - sentence_scores[b]
        ranked = np.argsort(-np.abs(delta), kind="stable")[:n_diff]
        picks["pair"] = [a, b]
        picks["differences"] = [int(i) for i in ranked]
    for name in order:
        ranked = np.argsort(sentence_scores[name], kind="stable")[:n_worst]
        picks["worst"][name] = [int(i) for i in ranked]
    return picks
