"""torchmetrics 1.9.0's ROUGE (``rouge_score``, ``ROUGEScore``).

torchmetrics reimplements rouge-score: the same tokenizer and Porter stemmer by default, the
same counts, but each sentence's precision, recall and F-measure become float32 tensors
(``tensor(python_float)``), several references are reduced with ``accumulate="best"`` (the
first highest float32 F-measure, ``torch.argmax``) or ``"avg"`` (a float32 mean per part),
and ``rougeLsum`` always splits sentences with nltk's ``sent_tokenize``. bleuprint's core
counts; the float32 steps are torch's, in torchmetrics' order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Optional

from bleuprint.metrics.rouge import ROUGE

#: torchmetrics' ``ALLOWED_ROUGE_KEYS``: key name to its ``rouge{value}`` suffix.
ALLOWED_ROUGE_KEYS: dict[str, Any] = {
    **{f"rouge{n}": n for n in range(1, 10)},
    "rougeL": "L",
    "rougeLsum": "Lsum",
}
ALLOWED_ACCUMULATE_VALUES = ("avg", "best")
_PARTS = ("fmeasure", "precision", "recall")


def _check_keys(rouge_keys: Any) -> tuple[str, ...]:
    if not isinstance(rouge_keys, tuple):
        rouge_keys = (rouge_keys,)
    for key in rouge_keys:
        if key not in ALLOWED_ROUGE_KEYS:
            raise ValueError(
                f"Got unknown rouge key {key}. Expected to be one of "
                f"{list(ALLOWED_ROUGE_KEYS.keys())}"
            )
    return rouge_keys


def _layout(preds: Any, target: Any) -> tuple[list[str], list[list[str]]]:
    """torchmetrics' input shapes: one prediction or a list; one target, a target per
    prediction, or a list of targets per prediction."""
    if isinstance(target, list) and all(isinstance(t, str) for t in target):
        target = [target] if isinstance(preds, str) else [[t] for t in target]
    if isinstance(preds, str):
        preds = [preds]
    if isinstance(target, str):
        target = [[target]]
    return list(preds), [list(t) for t in target]


def _custom_tokens(
    normalizer: Optional[Callable[[str], str]],
    tokenizer: Optional[Callable[[str], Sequence[str]]],
    use_stemmer: bool,
) -> Callable[[str], list[Hashable]]:
    """torchmetrics' ``_normalize_and_tokenize_text`` with a user's normalizer or tokenizer
    (and, unlike rouge-score, its stemmer on their tokens)."""
    stemmer = None
    if use_stemmer:
        from nltk.stem.porter import PorterStemmer  # type: ignore[import-untyped, unused-ignore]

        stemmer = PorterStemmer()

    def tokens(text: str) -> list[Hashable]:
        text = (
            normalizer(text) if callable(normalizer) else re.sub(r"[^a-z0-9]+", " ", text.lower())
        )
        words: Sequence[Any] = tokenizer(text) if callable(tokenizer) else re.split(r"\s+", text)
        if stemmer is not None:
            words = [stemmer.stem(x) if len(x) > 3 else x for x in words]
        return [x for x in words if isinstance(x, str) and len(x) > 0]

    return tokens


class _Scorer:
    """The per-sentence float32 scores torchmetrics' ``_rouge_score_update`` makes."""

    def __init__(
        self,
        rouge_keys: tuple[str, ...],
        accumulate: str,
        use_stemmer: bool,
        normalizer: Optional[Callable[[str], str]],
        tokenizer: Optional[Callable[[str], Sequence[str]]],
    ) -> None:
        if accumulate not in ALLOWED_ACCUMULATE_VALUES:
            raise ValueError(
                f"Got unknown accumulate value {accumulate}. Expected to be one of "
                f"{ALLOWED_ACCUMULATE_VALUES}"
            )
        # torchmetrics keeps one result per key however often it is given.
        self.rouge_keys = tuple(dict.fromkeys(rouge_keys))
        self.accumulate = accumulate
        custom = normalizer is not None or tokenizer is not None
        types = list(self.rouge_keys)
        self.metric = ROUGE(
            types,
            use_stemmer=use_stemmer and not custom,
            tokenizer=_custom_tokens(normalizer, tokenizer, use_stemmer) if custom else "rouge",
            # torchmetrics splits rougeLsum's sentences with nltk, always.
            split_summaries="rougeLsum" in types,
        )

    def update(self, preds: list[str], target: list[list[str]]) -> dict[str, list[Any]]:
        """``{f"rouge{key}_{part}": [float32 tensor per prediction]}``."""
        import torch  # type: ignore[import-not-found, unused-ignore]

        out: dict[str, list[Any]] = {
            f"rouge{ALLOWED_ROUGE_KEYS[k]}_{p}": [] for k in self.rouge_keys for p in _PARTS
        }
        n = min(len(preds), len(target))
        preds, target = preds[:n], target[:n]
        if n == 0:
            return out
        width = max(len(t) for t in target)
        # One stream per reference position, each scored alone, as torchmetrics scores each
        # target separately before reducing them.
        per_reference = []
        for k in range(width):
            keep = [i for i in range(n) if k < len(target[i])]
            stats = self.metric.stats([preds[i] for i in keep], [[target[i][k] for i in keep]])
            scores = self.metric.config.score_rows_detailed(stats.rows)
            per_reference.append(dict(zip(keep, scores)))
        for key in self.rouge_keys:
            for i in range(n):
                refs = [per_reference[k][i].scores[key] for k in range(len(target[i]))]
                if not refs:
                    continue
                values = {p: [torch.tensor(getattr(s, p)) for s in refs] for p in _PARTS}
                if self.accumulate == "best":
                    best = int(torch.argmax(torch.tensor(values["fmeasure"])))
                    chosen = {p: values[p][best] for p in _PARTS}
                else:
                    chosen = {p: torch.tensor(values[p]).mean() for p in _PARTS}
                for p in _PARTS:
                    out[f"rouge{ALLOWED_ROUGE_KEYS[key]}_{p}"].append(chosen[p])
        return out


def _compute(sentence_results: dict[str, list[Any]]) -> dict[str, Any]:
    """torchmetrics' ``_rouge_score_compute``: each key's float32 mean."""
    import torch  # type: ignore[import-not-found, unused-ignore]

    return {key: torch.tensor(scores).mean() for key, scores in sentence_results.items()}


def rouge_score(
    preds: Any,
    target: Any,
    accumulate: str = "best",
    use_stemmer: bool = False,
    normalizer: Optional[Callable[[str], str]] = None,
    tokenizer: Optional[Callable[[str], Sequence[str]]] = None,
    rouge_keys: Any = ("rouge1", "rouge2", "rougeL", "rougeLsum"),
) -> dict[str, Any]:
    """torchmetrics' functional ``rouge_score``: ``{"rouge1_fmeasure": tensor, ...}``."""
    keys = _check_keys(rouge_keys)
    scorer = _Scorer(keys, accumulate, use_stemmer, normalizer, tokenizer)
    return _compute(scorer.update(*_layout(preds, target)))
