"""Hugging Face ``evaluate``'s BLEU metrics, offline and bit for bit::

    from bleuprint.compat import evaluate
    bleu = evaluate.load("bleu")
    bleu.compute(predictions=[...], references=[[...], ...])

- ``load("bleu")``: tensorflow/nmt's ``compute_bleu`` on HF's ``tokenizer_13a`` (the ``hf``
  preset: shortest reference, no smoothing or Lin-Och add-one on every order, 0..1).
- ``load("google_bleu")``: nltk's ``corpus_gleu`` on the same tokens.
- ``load("sacrebleu")``: sacrebleu's ``corpus_bleu``, with HF's dict.

``add``/``add_batch`` collect examples for a later ``compute()``, as in ``evaluate``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Optional

from bleuprint.errors import (
    InputTypeError,
    InvalidInputError,
    InvalidOptionError,
    ReferenceLayoutError,
)
from bleuprint.io.layout import as_text_sequence
from bleuprint.metrics.bleu import BLEUConfig
from bleuprint.metrics.functional import corpus_bleu
from bleuprint.metrics.gleu import GLEUConfig
from bleuprint.tokenizers import tokenize


class Tokenizer13a:
    """HF's ``tokenizer_13a.Tokenizer13a``: sacrebleu's 13a, returning a token list."""

    def __call__(self, line: str) -> list[str]:
        return tokenize(line, "13a").split()


def _check(predictions: Any, references: Any) -> list[Sequence[str]]:
    """HF's layout: one prediction string each; one reference string or a list of them per
    prediction. Returns the references as lists."""
    if predictions is None or references is None:
        raise InvalidInputError("compute() needs predictions=... and references=...")
    if isinstance(predictions, str) or isinstance(references, str):
        raise ReferenceLayoutError(
            "predictions and references must be lists: predictions=['a b c', ...], "
            "references=[['ref 1', 'ref 2'], ...]"
        )
    predictions = as_text_sequence(predictions, "predictions")
    references = as_text_sequence(references, "references")
    if len(predictions) != len(references):
        raise ReferenceLayoutError(
            f"Mismatch in the number of predictions ({len(predictions)}) and references "
            f"({len(references)}): pass one entry per prediction, "
            "references=[['ref a1', 'ref a2'], ['ref b1'], ...]"
        )
    if references and isinstance(references[0], str):
        references = [[ref] for ref in references]
    # Item types are checked by the core, which names the position of a bad item; the
    # per-prediction reference lists are checked here (sacrebleu's layout needs their len).
    if set(map(type, references)) == {list}:  # the common case, checked at C speed
        return references  # type: ignore[no-any-return]
    return [
        refs if type(refs) is list else as_text_sequence(refs, f"references[{i}]")
        for i, refs in enumerate(references)
    ]


@contextmanager
def _named_like_hf() -> Iterator[None]:
    """The core's type errors, with HF's argument names and layout hint."""
    try:
        yield
    except InputTypeError as error:  # a non-str item, named by its position
        message = str(error).replace("hypotheses", "predictions", 1)
        raise ReferenceLayoutError(
            f"{message}; expected predictions=['text', ...], "
            "references=[['ref 1', 'ref 2'], ...] or ['ref', ...]"
        ) from None


class _Metric(ABC):
    """``evaluate.Metric``'s calling conventions: keyword ``compute``, ``add``, ``add_batch``."""

    name = ""

    def __init__(self) -> None:
        self._predictions: list[Any] = []
        self._references: list[Any] = []

    def add(self, *, prediction: Any = None, reference: Any = None) -> None:
        self._predictions.append(prediction)
        self._references.append(reference)

    def add_batch(self, *, predictions: Any = None, references: Any = None) -> None:
        self._predictions.extend(predictions)
        self._references.extend(references)

    def compute(
        self, *, predictions: Any = None, references: Any = None, **kwargs: Any
    ) -> dict[str, Any]:
        if predictions is None and references is None and self._predictions:
            predictions, references = self._predictions, self._references
            self._predictions, self._references = [], []
        return self._compute(predictions, references, **kwargs)

    @abstractmethod
    def _compute(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """The metric's dict for ``(predictions, references, **options)``."""

    def __repr__(self) -> str:
        return f'EvaluationModule(name: "{self.name}", module_type: "metric")'


def _tokens(texts: Sequence[str], tokenizer: Callable[[str], Any]) -> list[Any]:
    return [tokenizer(t) for t in texts]


class Bleu(_Metric):
    """``evaluate.load("bleu")``."""

    name = "bleu"

    def _compute(
        self,
        predictions: Any,
        references: Any,
        tokenizer: Optional[Callable[[str], Any]] = None,
        max_order: int = 4,
        smooth: bool = False,
    ) -> dict[str, Any]:
        refs = _check(predictions, references)
        config = BLEUConfig.from_preset(
            "hf", max_ngram_order=max_order, smooth_method="lin-och" if smooth else "none"
        )
        if tokenizer is None or isinstance(tokenizer, Tokenizer13a):
            with _named_like_hf():
                result = config.item_score(predictions, refs)
        else:
            hyps, ref_tokens = (
                _tokens(predictions, tokenizer),
                [_tokens(r, tokenizer) for r in refs],
            )
            result = config.replace(tokenize="tokens").item_score(hyps, ref_tokens)
        return {
            "bleu": result.score,
            "precisions": result.precisions,
            "brevity_penalty": result.bp,
            "length_ratio": result.ratio,
            "translation_length": result.hyp_len,
            "reference_length": result.ref_len,
        }


class GoogleBleu(_Metric):
    """``evaluate.load("google_bleu")``: nltk's ``corpus_gleu`` on 13a tokens."""

    name = "google_bleu"

    def _compute(
        self,
        predictions: Any,
        references: Any,
        tokenizer: Optional[Callable[[str], Any]] = None,
        min_len: int = 1,
        max_len: int = 4,
    ) -> dict[str, Any]:
        refs = _check(predictions, references)
        if tokenizer is None or isinstance(tokenizer, Tokenizer13a):
            with _named_like_hf():
                stats = GLEUConfig("13a", min_len, max_len).stats(predictions, refs)
        else:
            stats = GLEUConfig(None, min_len, max_len).stats(
                _tokens(predictions, tokenizer), [_tokens(r, tokenizer) for r in refs]
            )
        return {"google_bleu": stats.score().score}


class Sacrebleu(_Metric):
    """``evaluate.load("sacrebleu")``: sacrebleu's corpus BLEU (0..100) as HF's dict."""

    name = "sacrebleu"

    def _compute(
        self,
        predictions: Any,
        references: Any,
        smooth_method: str = "exp",
        smooth_value: Optional[float] = None,
        force: bool = False,
        lowercase: bool = False,
        tokenize: Optional[str] = None,
        use_effective_order: bool = False,
    ) -> dict[str, Any]:
        refs = _check(predictions, references)
        counts = {len(r) for r in refs}
        if len(counts) > 1:
            raise InvalidInputError(
                "Sacrebleu requires the same number of references for each prediction"
            )
        streams = [[r[k] for r in refs] for k in range(counts.pop() if counts else 0)]
        options: dict[str, Any] = {} if tokenize is None else {"tokenize": tokenize}
        output = corpus_bleu(
            predictions,
            streams,
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            force=force,
            lowercase=lowercase,
            use_effective_order=use_effective_order,
            **options,
        )
        return {
            "score": output.score,
            "counts": output.counts,
            "totals": output.totals,
            "precisions": output.precisions,
            "bp": output.bp,
            "sys_len": output.sys_len,
            "ref_len": output.ref_len,
        }


_METRICS: dict[str, type[_Metric]] = {
    "bleu": Bleu,
    "google_bleu": GoogleBleu,
    "sacrebleu": Sacrebleu,
}


def load(path: str, *args: Any, **kwargs: Any) -> _Metric:
    """``evaluate.load`` for ``"bleu"``, ``"google_bleu"`` and ``"sacrebleu"`` (also under
    their hub names ``evaluate-metric/...``); nothing is downloaded."""
    name = path.removeprefix("evaluate-metric/")
    try:
        return _METRICS[name]()
    except KeyError:
        raise InvalidOptionError(
            f"bleuprint.compat.evaluate has no metric {path!r}; "
            f"expected one of {', '.join(_METRICS)}"
        ) from None


__all__ = ["Bleu", "GoogleBleu", "Sacrebleu", "Tokenizer13a", "load"]
