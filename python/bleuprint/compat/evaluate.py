"""Hugging Face ``evaluate``'s BLEU, chrF, TER, ROUGE, WER and CER metrics, offline and bit
for bit::

    from bleuprint.compat import evaluate
    bleu = evaluate.load("bleu")
    bleu.compute(predictions=[...], references=[[...], ...])

- ``load("bleu")``: tensorflow/nmt's ``compute_bleu`` on HF's ``tokenizer_13a`` (the ``hf``
  preset: shortest reference, no smoothing or Lin-Och add-one on every order, 0..1).
- ``load("google_bleu")``: nltk's ``corpus_gleu`` on the same tokens.
- ``load("sacrebleu")``, ``load("chrf")``, ``load("ter")``: sacrebleu's corpus BLEU, chrF
  and TER, with HF's arguments, reference layout check and dicts (the scripts
  ``metrics/sacrebleu/sacrebleu.py``, ``metrics/chrf/chrf.py`` and ``metrics/ter/ter.py``
  of huggingface/evaluate; chrf and ter as of evaluate 0.4.6, commit 0851219, unchanged
  since c447fc8 of 2022 through a7dd338).
- ``load("rouge")``: HF's rouge script on rouge-score's ``RougeScorer`` and
  ``BootstrapAggregator`` (:mod:`bleuprint.compat.rouge_score`): the same dict, with
  ``numpy.float64`` bootstrap medians drawn as HF draws them (numpy's global state seeded
  with the metric's seed, then restored) or lists of F-measures (``use_aggregator=False``).
- ``load("wer")``, ``load("cer")``: HF's scripts on jiwer 4 (:mod:`bleuprint.compat.jiwer`):
  a float, not a dict.

``add``/``add_batch`` collect examples for a later ``compute()``, as in ``evaluate``.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from typing import Any, Optional

from bleuprint.compat import jiwer
from bleuprint.compat.rouge_score import rouge_scorer, scoring
from bleuprint.errors import (
    InputTypeError,
    InvalidInputError,
    InvalidOptionError,
    ReferenceLayoutError,
)
from bleuprint.io.layout import as_text_sequence
from bleuprint.metrics.bleu import BLEU, BLEUConfig
from bleuprint.metrics.chrf import CHRF
from bleuprint.metrics.gleu import GLEUConfig
from bleuprint.metrics.ter import TER
from bleuprint.significance.percentile_bootstrap import global_state_seeded, seed_of_global_state
from bleuprint.tokenizers import tokenize


class Tokenizer13a:
    """HF's ``tokenizer_13a.Tokenizer13a``: sacrebleu's 13a, returning a token list."""

    def __call__(self, line: str) -> list[str]:
        return tokenize(line, "13a").split()


def _check(predictions: Any, references: Any) -> list[Sequence[str]]:
    """HF's layout: one prediction string each; one reference string or a list of them per
    prediction. Returns the references as lists."""
    predictions, references = _check_lengths(predictions, references)
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


def _check_lengths(predictions: Any, references: Any) -> tuple[Sequence[Any], Sequence[Any]]:
    """Predictions and references as sequences of the same length (HF's error otherwise)."""
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
    return predictions, references


def _streams(predictions: Any, references: Any, message: str) -> list[list[Any]]:
    """The references of HF's scripts on sacrebleu (``sacrebleu``, ``chrf``, ``ter``) as
    sacrebleu's streams ``references[k][i]``: one string or a list per prediction
    (:func:`_check`), the same number for every prediction (else the script's ``ValueError``,
    its ``message``, as an :class:`InvalidInputError`), transposed."""
    refs = _check(predictions, references)
    counts = {len(r) for r in refs}
    if len(counts) > 1:
        raise InvalidInputError(message)
    return [[r[k] for r in refs] for k in range(counts.pop() if counts else 0)]


#: A reference's position in sacrebleu's streams, ``references[k][i]``.
_STREAM_POSITION = re.compile(r"references\[(\d+)\]\[(\d+)\]")


@contextmanager
def _named_like_hf(streams: bool = False) -> Iterator[None]:
    """The core's type errors, with HF's argument names and layout hint; with ``streams``
    (references transposed by :func:`_streams`), a reference's position in HF's layout,
    ``references[i][k]``."""
    try:
        yield
    except InputTypeError as error:  # a non-str item, named by its position
        message = str(error).replace("hypotheses", "predictions", 1)
        if streams:
            message = _STREAM_POSITION.sub(r"references[\2][\1]", message, count=1)
        raise ReferenceLayoutError(
            f"{message}; expected predictions=['text', ...], "
            "references=[['ref 1', 'ref 2'], ...] or ['ref', ...]"
        ) from None


def _corpus_fields(
    make_metric: Callable[[], Any],
    predictions: Any,
    references: Any,
    same_count: str,
    keys: tuple[str, ...],
) -> dict[str, Any]:
    """What HF's scripts on sacrebleu (``sacrebleu``, ``chrf``, ``ter``) do: check and
    transpose the references (:func:`_streams`, ``same_count`` their message), then make the
    metric, score the corpus and return the score object's fields named ``keys`` as the dict."""
    streams = _streams(predictions, references, same_count)
    metric = make_metric()
    with _named_like_hf(streams=True):
        output = metric.corpus_score(predictions, streams)
    return {key: getattr(output, key) for key in keys}


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

    def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> Any:
        if predictions is None and references is None and self._predictions:
            predictions, references = self._predictions, self._references
            self._predictions, self._references = [], []
        return self._compute(predictions, references, **kwargs)

    @abstractmethod
    def _compute(self, *args: Any, **kwargs: Any) -> Any:
        """The metric's result (a dict, or a float for wer and cer) for ``(predictions,
        references, **options)``."""

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


#: The ``ValueError`` of HF's sacrebleu and ter scripts for references of different numbers.
_SAME_COUNT = "Sacrebleu requires the same number of references for each prediction"


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
        # sacrebleu's corpus_bleu: tokenize=None is 13a (with its warning on CJK-looking text).
        bleu = partial(
            BLEU, lowercase, force, tokenize, smooth_method, smooth_value,
            effective_order=use_effective_order,
        )  # fmt: skip
        keys = ("score", "counts", "totals", "precisions", "bp", "sys_len", "ref_len")
        return _corpus_fields(bleu, predictions, references, _SAME_COUNT, keys)


class ChrF(_Metric):
    """``evaluate.load("chrf")``: sacrebleu's corpus chrF (chrF++ with ``word_order=2``),
    0..100, as HF's script computes it (huggingface/evaluate ``metrics/chrf/chrf.py``, evaluate
    0.4.6): ``CHRF(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)`` on the
    references transposed, and the dict ``{"score", "char_order", "word_order", "beta"}``."""

    name = "chrf"

    def _compute(
        self,
        predictions: Any,
        references: Any,
        char_order: int = CHRF.CHAR_ORDER,
        word_order: int = CHRF.WORD_ORDER,
        beta: int = CHRF.BETA,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
    ) -> dict[str, Any]:
        chrf = partial(CHRF, char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
        same_count = (
            "ChrF, as implemented by sacrebleu, requires the same number of references for "
            "each prediction"
        )
        keys = ("score", "char_order", "word_order", "beta")
        return _corpus_fields(chrf, predictions, references, same_count, keys)


class Ter(_Metric):
    """``evaluate.load("ter")``: sacrebleu's corpus TER (0..100 and above), as HF's script
    computes it (huggingface/evaluate ``metrics/ter/ter.py``, evaluate 0.4.6): HF's argument
    names for ``TER(normalized, no_punct, asian_support, case_sensitive)`` on the references
    transposed, and the dict ``{"score", "num_edits", "ref_length"}``."""

    name = "ter"

    def _compute(
        self,
        predictions: Any,
        references: Any,
        normalized: bool = False,
        ignore_punct: bool = False,
        support_zh_ja_chars: bool = False,
        case_sensitive: bool = False,
    ) -> dict[str, Any]:
        ter = partial(
            TER,
            normalized=normalized,
            no_punct=ignore_punct,
            asian_support=support_zh_ja_chars,
            case_sensitive=case_sensitive,
        )
        keys = ("score", "num_edits", "ref_length")
        return _corpus_fields(ter, predictions, references, _SAME_COUNT, keys)


class _FunctionTokenizer:
    """HF rouge's ``Tokenizer``: a callable as an object with rouge-score's ``tokenize``."""

    def __init__(self, tokenizer_func: Callable[[str], Any]) -> None:
        self.tokenizer_func = tokenizer_func

    def tokenize(self, text: str) -> Any:
        return self.tokenizer_func(text)


def _check_rouge_texts(predictions: Sequence[Any], references: Sequence[Any]) -> None:
    """Every prediction a str; every reference a str or a list of them (HF's features)."""
    expected = "expected predictions=['text', ...], references=['ref', ...] or [['ref 1', ...]]"
    for i, prediction in enumerate(predictions):
        if not isinstance(prediction, str):
            raise ReferenceLayoutError(
                f"predictions[{i}] must be str, got {type(prediction).__name__}; {expected}"
            )
    for i, refs in enumerate(references):
        items = [(f"references[{i}]", refs)] if isinstance(refs, str) else None
        if items is None:
            if not isinstance(refs, Sequence):
                raise ReferenceLayoutError(
                    f"references[{i}] must be str or a list of str, got "
                    f"{type(refs).__name__}; {expected}"
                )
            items = [(f"references[{i}][{k}]", ref) for k, ref in enumerate(refs)]
        for where, ref in items:
            if not isinstance(ref, str):
                raise ReferenceLayoutError(
                    f"{where} must be str, got {type(ref).__name__}; {expected}"
                )


class Rouge(_Metric):
    """``evaluate.load("rouge")``: HF's rouge script, its ``RougeScorer`` and
    ``BootstrapAggregator`` those of :mod:`bleuprint.compat.rouge_score` (all segments in one
    core call).

    ``references`` are one string per prediction (``score``) or, when the first is a list
    (or tuple, which HF's datasets make a list), a list per prediction (``score_multi``).
    ``use_aggregator=True`` (HF's default) gives each type's ``mid.fmeasure`` of a
    1000-sample bootstrap, a ``numpy.float64``. ``use_aggregator=False`` gives each type's
    list of F-measures (floats, or the int ``0`` where rouge-score's LCS scores return it).

    The bootstrap draws as HF's does: ``compute()`` seeds numpy's global random state with the
    metric's ``seed`` and restores the state afterwards; ``load("rouge", seed=...)`` sets it,
    and without one it is taken from the global state when the metric is loaded (so
    ``np.random.seed(s)`` before ``load`` gives HF's very numbers).
    """

    name = "rouge"

    def __init__(self, seed: Optional[int] = None) -> None:
        super().__init__()
        self.seed = seed_of_global_state() if seed is None else seed

    def _compute(
        self,
        predictions: Any,
        references: Any,
        rouge_types: Optional[Sequence[str]] = None,
        use_aggregator: bool = True,
        use_stemmer: bool = False,
        tokenizer: Optional[Callable[[str], Any]] = None,
    ) -> dict[str, Any]:
        with global_state_seeded(self.seed):
            return self._rouge(
                predictions, references, rouge_types, use_aggregator, use_stemmer, tokenizer
            )

    def _rouge(
        self,
        predictions: Any,
        references: Any,
        rouge_types: Optional[Sequence[str]],
        use_aggregator: bool,
        use_stemmer: bool,
        tokenizer: Optional[Callable[[str], Any]],
    ) -> dict[str, Any]:
        predictions, references = _check_lengths(predictions, references)
        _check_rouge_texts(predictions, references)
        if rouge_types is None:
            rouge_types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
        # HF's test (IndexError with no prediction, as HF's); its datasets make tuples lists.
        multi_ref = not isinstance(references[0], str)
        if multi_ref:
            references = [[refs] if isinstance(refs, str) else list(refs) for refs in references]
        scorer = rouge_scorer.RougeScorer(
            rouge_types=rouge_types,
            use_stemmer=use_stemmer,
            tokenizer=None if tokenizer is None else _FunctionTokenizer(tokenizer),
        )
        scores = scorer.score_batch(references, predictions, multi=multi_ref)
        result: dict[str, Any] = {}
        if use_aggregator:
            aggregator = scoring.BootstrapAggregator()
            for score in scores:
                aggregator.add_scores(score)
            for key, aggregate in aggregator.aggregate().items():
                result[key] = aggregate.mid.fmeasure
        else:
            for key in scores[0]:
                result[key] = [score[key].fmeasure for score in scores]
        return result


class Wer(_Metric):
    """``evaluate.load("wer")``: HF's script on jiwer 4 (huggingface/evaluate
    ``metrics/wer/wer.py`` since b39b266, "support jiwer 4.0", through a7dd338). One reference
    string per prediction; jiwer's word measures of each pair, summed: ``(S + D + I) / (S + D
    + H)`` as a float (a ``ZeroDivisionError`` when no reference has a word, as there).
    ``concatenate_texts=True`` returns jiwer's rate of the lists instead (0.0 where no
    reference has a word)."""

    name = "wer"

    def _measures(self, references: list[Any], predictions: list[Any]) -> Any:
        return jiwer.process_words(references, predictions)

    def _compute(self, predictions: Any, references: Any, concatenate_texts: bool = False) -> float:
        predictions, references = _check_lengths(predictions, references)
        # jiwer 4 aligns a list pair by pair and sums the counts: the script's loop, at once.
        output = self._measures(list(references), list(predictions))
        if concatenate_texts:
            return float(getattr(output, self.name))
        incorrect = output.substitutions + output.deletions + output.insertions
        total = output.substitutions + output.deletions + output.hits
        return incorrect / total  # type: ignore[no-any-return]


class Cer(Wer):
    """``evaluate.load("cer")``: HF's script on jiwer 4 (``metrics/cer/cer.py``, the same
    commits): :class:`Wer` on jiwer's character measures (``process_characters``, whose
    transform strips each line and reduces runs of spaces to one)."""

    name = "cer"

    def _measures(self, references: list[Any], predictions: list[Any]) -> Any:
        return jiwer.process_characters(references, predictions)


_METRICS: dict[str, type[_Metric]] = {
    "bleu": Bleu,
    "google_bleu": GoogleBleu,
    "sacrebleu": Sacrebleu,
    "chrf": ChrF,
    "ter": Ter,
    "rouge": Rouge,
    "wer": Wer,
    "cer": Cer,
}


def load(path: str, *args: Any, **kwargs: Any) -> _Metric:
    """``evaluate.load`` for ``"bleu"``, ``"google_bleu"``, ``"sacrebleu"``, ``"chrf"``,
    ``"ter"``, ``"rouge"``, ``"wer"`` and ``"cer"`` (also under their hub names
    ``evaluate-metric/...``); nothing is downloaded. ``seed=`` is HF's (for ``"rouge"``);
    other keyword arguments are accepted and ignored."""
    name = path.removeprefix("evaluate-metric/")
    try:
        metric = _METRICS[name]
    except KeyError:
        raise InvalidOptionError(
            f"bleuprint.compat.evaluate has no metric {path!r}; "
            f"expected one of {', '.join(_METRICS)}"
        ) from None
    if metric is Rouge:  # the one that draws random numbers: HF's seed= applies
        return Rouge(seed=kwargs.get("seed"))
    return metric()


__all__ = [
    "Bleu",
    "Cer",
    "ChrF",
    "GoogleBleu",
    "Rouge",
    "Sacrebleu",
    "Ter",
    "Tokenizer13a",
    "Wer",
    "load",
]
