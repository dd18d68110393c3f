"""ROUGE (Lin 2004), bit-identical to Google's rouge-score 0.1.2.

The core tokenizes (rouge-score's tokenizer, optionally with nltk's Porter stemmer, or any
bleuprint tokenizer), matches by token id and returns one integer row per segment:
``[match, hyp, ref]`` per ROUGE type, from the reference with the best F-measure
(rouge-score's ``score_multi``). Precision ``match / max(hyp, 1)``, recall
``match / max(ref, 1)`` and the F-measure of a row are rouge-score's floats exactly.

rouge-score has no corpus score. bleuprint's corpus score is the mean of the sentence scores
(what HF evaluate's ``use_aggregator=False`` lists average to; ``math.fsum(values) / n``, so
shards and order give the same float); ``ROUGEScore.micro`` holds the micro-average, the
scores of the summed rows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Union

from bleuprint import _core
from bleuprint.errors import InputTypeError, InvalidOptionError
from bleuprint.metrics.config import KernelConfig, register_config, shared_config
from bleuprint.metrics.metric import Metric, References
from bleuprint.metrics.scores import Score, Signature
from bleuprint.tokenizers import ALL_TOKENIZERS, MECAB_TOKENIZERS, NATIVE_TOKENIZERS, get_tokenizer

if TYPE_CHECKING:
    import numpy as np

#: HF evaluate's default types.
ROUGE_TYPES: tuple[str, ...] = ("rouge1", "rouge2", "rougeL", "rougeLsum")
#: rouge-score's own tokenizer (lowercase, runs of ``[a-z0-9]``).
DEFAULT_TOKENIZER = "rouge"
#: Python's ``str.split(" ")`` (pycocoevalcap's ROUGE-L): every space separates, empty tokens
#: count, and nothing is lowercased unless asked.
SPLIT_SPACE = "split-space"

#: How several references make one row: rouge-score's ``score_multi`` (the reference with the
#: best F-measure) or pycocoevalcap's ``Rouge`` (the highest precision and the highest recall,
#: each from its own reference).
MULTI_REFERENCE = ("best-f", "max-precision-recall")
#: The corpus score's mean of sentence scores: ``math.fsum(values) / n`` (order-free), or
#: ``numpy.mean`` of the values in segment order (pycocoevalcap's).
MEANS = ("fsum", "numpy")

#: pycocoevalcap 1.2's ROUGE-L (``rouge/rouge.py``), as :class:`ROUGE`'s settings.
COCO_SETTINGS: dict[str, Any] = {
    "rouge_types": ("rougeL",),
    "tokenizer": SPLIT_SPACE,
    "lowercase": False,
    "multi_reference": "max-precision-recall",
    "beta": 1.2,
    "mean": "numpy",
}
#: ``ROUGE(preset=...)``: rouge-score's settings (the default) or pycocoevalcap's ROUGE-L.
PRESETS: dict[str, dict[str, Any]] = {"rouge-score": {}, "coco": COCO_SETTINGS}

_TYPE = re.compile(r"rouge([1-9]|L|Lsum)")

#: A tokenizer: a name, or a callable from text to tokens (rouge-score's custom tokenizers).
TokenizerArg = Union[str, Callable[[str], Sequence[Hashable]]]


def _check_types(types: Any) -> tuple[str, ...]:
    if isinstance(types, str) or not isinstance(types, Sequence):
        raise InvalidOptionError(
            f"rouge_types must be a list of ROUGE types such as ['rouge1', 'rougeL'], got {types!r}"
        )
    types = tuple(types)
    if not types:
        raise InvalidOptionError("rouge_types is empty: name at least one, e.g. ['rouge1']")
    for t in types:
        if not isinstance(t, str) or not _TYPE.fullmatch(t):
            raise InvalidOptionError(
                f"unknown ROUGE type {t!r}; expected rouge1 ... rouge9 (n-grams), rougeL "
                "(longest common subsequence) or rougeLsum (the same over newline-separated "
                "sentences)"
            )
    if len(set(types)) != len(types):
        raise InvalidOptionError(f"rouge_types names a type twice: {list(types)}")
    return types


class RougeTypeScore(NamedTuple):
    """One ROUGE type's scores, as rouge-score's ``Score`` (fractions in [0, 1])."""

    precision: float
    recall: float
    fmeasure: float


@register_config
@dataclass(frozen=True)
class ROUGEConfig(KernelConfig):
    """Every setting that changes ROUGE statistics or scores.

    ``tokenizer`` is ``"rouge"`` (rouge-score's), a bleuprint tokenizer name or a callable
    returning a text's tokens. ``lowercase`` (``None``: as rouge-score, which lowercases with
    its own tokenizer only) lowercases the text before any other tokenizer.
    """

    rouge_types: tuple[str, ...] = ROUGE_TYPES
    use_stemmer: bool = False
    tokenizer: TokenizerArg = DEFAULT_TOKENIZER
    lowercase: Optional[bool] = None
    split_summaries: bool = False
    multi_reference: str = "best-f"
    beta: float = 1.0
    mean: str = "fsum"

    metric = "ROUGE"
    resample_float32 = False  # no upstream resamples ROUGE statistics as float32
    #: The bootstrap resamples each segment's F-measure (float64 rows), as the corpus score
    #: averages them.
    resample_float64 = True
    corpus_from_sums = False  # the mean of sentence scores needs every row
    _results_read_rows = False  # its results are the core's floats

    @property
    def corpus_order_free(self) -> bool:
        """Whether the corpus score takes the rows in any order (``fsum / n``: Ray keeps them
        without keys); ``numpy.mean`` needs segment order."""
        return self.mean == "fsum"

    aggregates_references = False  # no n-gram statistics to average

    def __post_init__(self) -> None:
        object.__setattr__(self, "rouge_types", _check_types(self.rouge_types))
        for name in ("use_stemmer", "split_summaries"):
            if not isinstance(getattr(self, name), bool):
                value = getattr(self, name)
                raise InvalidOptionError(f"{name} must be True or False, got {value!r}")
        if self.lowercase is not None and not isinstance(self.lowercase, bool):
            raise InvalidOptionError(
                f"lowercase must be True, False or None, got {self.lowercase!r}"
            )
        if self.multi_reference not in MULTI_REFERENCE:
            raise InvalidOptionError(
                f"unknown multi_reference {self.multi_reference!r}; expected 'best-f' "
                "(rouge-score's score_multi) or 'max-precision-recall' (pycocoevalcap's ROUGE-L)"
            )
        if self.mean not in MEANS:
            raise InvalidOptionError(
                f"unknown mean {self.mean!r}; expected 'fsum' (math.fsum(values) / n) or "
                "'numpy' (numpy.mean, pycocoevalcap's)"
            )
        beta = self.beta
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not 0 < beta < 1e300:
            raise InvalidOptionError(f"beta must be a positive number, got {beta!r}")
        object.__setattr__(self, "beta", float(beta))
        tokenizer = self.tokenizer
        if isinstance(tokenizer, str):
            known = (DEFAULT_TOKENIZER, SPLIT_SPACE, *ALL_TOKENIZERS)
            if tokenizer not in known:
                raise InvalidOptionError(
                    f"unknown tokenizer {tokenizer!r}; expected 'rouge' (rouge-score's), "
                    f"'split-space' (str.split(' '), pycocoevalcap's), one of "
                    f"{', '.join(ALL_TOKENIZERS)}, or a callable returning a list of tokens"
                )
        elif not callable(tokenizer):
            raise InvalidOptionError(
                "tokenizer must be a tokenizer name or a callable returning a text's tokens, got "
                f"{type(tokenizer).__name__}"
            )
        if self.use_stemmer and tokenizer != DEFAULT_TOKENIZER:
            raise InvalidOptionError(
                "use_stemmer=True stems rouge-score's own tokens; with tokenizer "
                f"{self._tokenizer_label()!r} leave it False (rouge-score ignores it there)"
            )
        if tokenizer == DEFAULT_TOKENIZER and self.lowercase is False:
            raise InvalidOptionError(
                "rouge-score's tokenizer always lowercases; lowercase=False needs another tokenizer"
            )

    def _tokenizer_label(self) -> str:
        tokenizer = self.tokenizer
        if isinstance(tokenizer, str):
            return tokenizer
        if isinstance(tokenizer, SavedTokenizer):
            return tokenizer.name
        return getattr(tokenizer, "__qualname__", type(tokenizer).__name__)

    @property
    def lowercases(self) -> bool:
        """Whether text is lowercased (the default tokenizer always; names by default)."""
        if self.lowercase is not None:
            return self.lowercase
        # ``ptb`` lowercases its own output; lowercasing its input would change what it reads.
        return isinstance(self.tokenizer, str) and self.tokenizer not in (SPLIT_SPACE, "ptb")

    @property
    def presplit(self) -> bool:
        """Whether the tokens are made in Python and reach the core as encoded ids: callable
        and SentencePiece tokenizers, MeCab through its Python module, nltk's sentences."""
        tokenizer = self.tokenizer
        if not isinstance(tokenizer, str):
            return True
        if self.split_summaries:
            return True
        if tokenizer in (DEFAULT_TOKENIZER, SPLIT_SPACE, *NATIVE_TOKENIZERS):
            return False
        return self._core_tagger() is None

    def _core_tagger(self) -> Any:
        if self.tokenizer not in MECAB_TOKENIZERS:
            return None
        external = get_tokenizer(str(self.tokenizer))
        return None if external is None else external.core_tagger

    def _make_kernel(self) -> Any:
        types = list(self.rouge_types)
        combine: dict[str, Any] = {"multi_reference": self.multi_reference, "beta": self.beta}
        if self.presplit:
            return _core.RougeKernel(types=types, tokenizer=None, **combine)
        if self.tokenizer == DEFAULT_TOKENIZER:
            return _core.RougeKernel(types=types, stem=self.use_stemmer, **combine)
        return _core.RougeKernel(
            types=types, tokenizer=str(self.tokenizer), tagger=self._core_tagger(), **combine
        )

    def token_kernel(self) -> Any:
        """A kernel of this tokenizer that :func:`bleuprint._core.tokenize` runs (a native
        one), for splitting text in Python first (``split_summaries``)."""
        if self.tokenizer == DEFAULT_TOKENIZER:
            return _core.RougeKernel(types=["rouge1"], stem=self.use_stemmer)
        return _core.RougeKernel(
            types=["rouge1"], tokenizer=str(self.tokenizer), tagger=self._core_tagger()
        )

    def _results(self, rows: Any, details: dict[str, Any]) -> list[ROUGEScore]:
        types, make = self.rouge_types, RougeTypeScore._make
        parts = zip(details["precision"], details["recall"], details["fmeasure"])
        # One ROUGEScore per segment, holding a Score per type.
        out = [ROUGEScore(dict(zip(types, map(make, zip(p, r, f))))) for p, r, f in parts]
        micro = details.get("micro_precision")
        if micro is not None:
            micro_parts = zip(micro, details["micro_recall"], details["micro_fmeasure"])
            for score, (p, r, f) in zip(out, micro_parts):
                score.micro = dict(zip(types, map(make, zip(p, r, f))))
        return out

    def score_corpus(self, rows: Any) -> ROUGEScore:
        """The mean of the sentence scores (``math.fsum(values) / n``, with the micro-average),
        or under ``mean="numpy"`` ``numpy.mean`` of each type's values in segment order."""
        rows = self._rows(rows)
        if self.mean == "fsum" or len(rows) == 0:
            return super().score_corpus(rows)  # type: ignore[no-any-return]
        import numpy as np

        details = _core.details(self.kernel, rows)
        mean = {
            part: np.mean(np.array(details[part], dtype=np.float64).reshape(len(rows), -1), axis=0)
            for part in ("precision", "recall", "fmeasure")
        }
        parts = zip(mean["precision"], mean["recall"], mean["fmeasure"])
        return ROUGEScore(
            {t: RougeTypeScore(*map(float, s)) for t, s in zip(self.rouge_types, parts)}
        )

    def _broken_rows(self, rows: np.ndarray) -> tuple[Any, str]:
        if self.multi_reference == "max-precision-recall":
            cells = rows.reshape(len(rows), -1, 4)
            bad = ((cells[:, :, 0] > cells[:, :, 1]) | (cells[:, :, 2] > cells[:, :, 3])).any(
                axis=1
            )
            return bad, "pmatch <= hyp and rmatch <= ref for every type"
        triples = rows.reshape(len(rows), -1, 3)
        match = triples[:, :, 0]
        bad = ((match > triples[:, :, 1]) | (match > triples[:, :, 2])).any(axis=1)
        return bad, "match <= hyp and match <= ref for every type"

    def fmeasures(self, rows: Any) -> np.ndarray:
        """Every segment's F-measure of each type, float64 of shape ``(segments, types)``,
        from one core call and no per-segment objects."""
        import numpy as np

        f = _core.details(self.kernel, self._rows(rows))["fmeasure"]
        return np.array(f, dtype=np.float64).reshape(len(f), len(self.rouge_types))

    def float_rows(self, rows: Any) -> np.ndarray:
        """Per segment, the first type's F-measure and a 1 (the count): their resampled sums
        give the mean of sentence scores."""
        import numpy as np

        f = self.fmeasures(rows)[:, 0]
        return np.stack([f, np.ones(len(f))], axis=1)

    def randomization_rows(self, rows: Any) -> None:
        """Float statistics: the paired test sums them as sacrebleu sums floats."""
        return None

    def score_sums(self, sums: Any) -> np.ndarray:
        """Scores of summed :meth:`float_rows`: 100 × the mean F-measure."""
        import numpy as np

        sums = np.asarray(sums, dtype=np.float64).reshape(-1, 2)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(sums[:, 1] > 0, 100.0 * sums[:, 0] / sums[:, 1], 0.0)

    def signature(self, nrefs: int) -> ROUGESignature:
        """The signature for statistics made with ``nrefs`` references per segment."""
        return ROUGESignature(self, nrefs)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable description; a callable tokenizer is saved by its name and
        cannot be restored (pass ``tokenizer=`` again)."""
        d = super().to_dict()
        d["rouge_types"] = list(self.rouge_types)
        if not isinstance(self.tokenizer, str):
            d["tokenizer"] = f"callable:{self._tokenizer_label()}"
        return d

    @classmethod
    def from_saved(cls, saved: dict[str, Any]) -> dict[str, Any]:
        """Saved settings as constructor arguments: a callable tokenizer comes back as a
        :class:`SavedTokenizer` of its name, which scores rows but tokenizes nothing."""
        tokenizer = saved.get("tokenizer")
        if isinstance(tokenizer, str) and tokenizer.startswith("callable:"):
            return {**saved, "tokenizer": SavedTokenizer(tokenizer.removeprefix("callable:"))}
        return saved


@dataclass(frozen=True)
class SavedTokenizer:
    """The name of a callable tokenizer that saved statistics were made with: their rows
    score as before, but text needs the callable itself."""

    name: str

    def __call__(self, text: str) -> Sequence[Hashable]:
        raise InvalidOptionError(
            f"these ROUGE statistics were made with the callable tokenizer {self.name!r}, "
            "which a statistics file cannot hold: make a ROUGE metric with tokenizer= that "
            "callable to count more text"
        )


class ROUGEScore(Score):
    """ROUGE scores of every type asked for.

    ``score`` is 100 × the first type's F-measure (so that ROUGE prints, ranks and resamples as
    the other metrics); ``scores[type]`` holds rouge-score's fractions: for one segment its
    ``Score`` exactly, for a corpus the mean over segments. ``micro`` (corpus scores only)
    holds the scores of the summed counts.
    """

    def __init__(self, scores: dict[str, RougeTypeScore]) -> None:
        self.scores = scores
        self.micro: Optional[dict[str, RougeTypeScore]] = None
        first = next(iter(scores))
        super().__init__(first, 100 * scores[first].fmeasure)

    # A class attribute in Score; ROUGE's is made only when the score is printed.
    @property
    def _verbose(self) -> str:  # type: ignore[override]
        others = [f"{t} {100 * s.fmeasure:.2f}" for t, s in list(self.scores.items())[1:]]
        return " ".join(others) + (" " if others else "") + "(F-measure x 100)"


class ROUGESignature(Signature):
    """``nrefs:1|case:lc|tok:rouge|stem:no|types:rouge1+rouge2+rougeL+rougeLsum|...``."""

    def __init__(self, config: ROUGEConfig, nrefs: int) -> None:
        super().__init__(nrefs)
        self.abbreviations.update(
            {"case": "c", "tok": "t", "stem": "st", "types": "ty", "sents": "se", "agg": "ag"}
        )
        self.info.update(
            {
                "case": "lc" if config.lowercases or config.tokenizer == "ptb" else "mixed",
                "tok": config._tokenizer_label(),
                "stem": config.use_stemmer,
                "types": "+".join(config.rouge_types),
                "sents": "nltk" if config.split_summaries else "newline",
                "agg": "mean" if config.mean == "fsum" else "numpy-mean",
            }
        )
        # Only where they differ from rouge-score's, so its signatures stay as they were.
        if config.multi_reference != "best-f":
            self.abbreviations["refs"] = "r"
            self.info["refs"] = config.multi_reference
        if config.beta != 1.0:
            self.abbreviations["beta"] = "b"
            self.info["beta"] = config.beta


class _Interner:
    """Equal tokens to equal ids (``"0"``, ``"1"``, ...), for tokens made in Python."""

    def __init__(self) -> None:
        self.ids: dict[Hashable, str] = {}

    def encode(self, tokens: Sequence[Hashable], label: str) -> str:
        ids = self.ids
        try:
            return " ".join([ids.setdefault(t, str(len(ids))) for t in tokens])
        except TypeError:
            raise InputTypeError(
                f"tokenizer {label!r} must return a list of hashable tokens (str, ...) for each "
                f"text; it returned {type(tokens).__name__} {_shown(tokens)}"
            ) from None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class ROUGE(Metric[ROUGEScore]):
    """ROUGE-N, ROUGE-L and ROUGE-Lsum, bit-identical to rouge-score 0.1.2's ``RougeScorer``.
    ``references`` and ``workers`` are as for every :class:`~bleuprint.metrics.Metric`; with
    several references per segment, each type takes the best one by F-measure
    (``score_multi``).

    Parameters
    ----------
    rouge_types
        ``rouge1`` ... ``rouge9`` (n-gram overlap), ``rougeL`` (longest common subsequence)
        and ``rougeLsum`` (the union LCS over ``\\n``-separated sentences). Default: HF
        evaluate's four.
    use_stemmer
        nltk's Porter stemmer on tokens longer than 3 characters (rouge-score's tokenizer).
    tokenizer
        ``"rouge"`` (rouge-score's: lowercase, runs of ``[a-z0-9]``, so other scripts score
        0), any bleuprint tokenizer (``13a``, ``intl``, ``zh``, ``char``, ``ja-mecab``,
        ``ko-mecab``, ``flores200``, ...), or a callable returning a text's tokens.
    lowercase
        Lowercase before another tokenizer (default: yes for names, no for callables, as
        rouge-score).
    split_summaries
        Split ``rougeLsum`` sentences with nltk's ``sent_tokenize`` (needs nltk's ``punkt_tab``
        model) instead of on newlines.
    preset
        ``"coco"``: pycocoevalcap 1.2's ROUGE-L (:data:`COCO_SETTINGS`: ``rougeL`` on
        ``str.split(" ")`` tokens, the highest precision and recall over the references,
        beta 1.2, ``numpy.mean`` over images); ``"rouge-score"`` or ``None``: the arguments.
        With a preset, leave the other settings at their defaults.
    multi_reference
        ``"best-f"`` (rouge-score's ``score_multi``) or ``"max-precision-recall"``
        (pycocoevalcap's: each from whichever reference gives it).
    beta
        The F-measure's beta (1: rouge-score's F1).
    mean
        The corpus score's mean of sentence scores: ``"fsum"`` (``math.fsum(values) / n``,
        the same in any order and over any shards) or ``"numpy"`` (``numpy.mean`` in segment
        order, pycocoevalcap's).

    Examples
    --------
    >>> import bleuprint
    >>> rouge = bleuprint.ROUGE(["rouge1", "rougeL"])
    >>> s = rouge.sentence_score("The cat sat on the mat.", ["The cat is on the mat."])
    >>> s.scores["rouge1"].fmeasure
    0.8333333333333334
    """

    ROUGE_TYPES = ROUGE_TYPES

    def __init__(
        self,
        rouge_types: Sequence[str] = ROUGE_TYPES,
        use_stemmer: bool = False,
        tokenizer: TokenizerArg = DEFAULT_TOKENIZER,
        lowercase: Optional[bool] = None,
        split_summaries: bool = False,
        references: Optional[References] = None,
        *,
        workers: int = -1,
        preset: Optional[str] = None,
        multi_reference: str = "best-f",
        beta: float = 1.0,
        mean: str = "fsum",
    ) -> None:
        types = tuple(rouge_types) if isinstance(rouge_types, list) else rouge_types
        given = {
            "rouge_types": types, "use_stemmer": use_stemmer, "tokenizer": tokenizer,
            "lowercase": lowercase, "split_summaries": split_summaries,
            "multi_reference": multi_reference, "beta": beta, "mean": mean,
        }  # fmt: skip
        settings = _with_preset(preset, given)
        config = shared_config(ROUGEConfig, *(settings[name] for name in _DEFAULTS))
        self._interner = _Interner()
        super().__init__(config, references, workers)

    # --- the text steps before the core ----------------------------------------------------

    def _prepare_stream(self, stream: Sequence[Any]) -> Sequence[Any]:
        config = self.config
        if config.lowercases and config.tokenizer != DEFAULT_TOKENIZER:
            stream = [s.lower() if isinstance(s, str) else s for s in stream]
        if not config.presplit:
            return stream
        return self._presplit(stream)

    def _takes_blocks(self) -> bool:
        config = self.config
        return not config.presplit and (
            config.tokenizer == DEFAULT_TOKENIZER or not config.lowercases
        )

    def _sentences(self, text: str) -> list[str]:
        if self.config.split_summaries:
            return [s for s in _sent_tokenize(text) if s]
        return [s for s in text.split("\n") if s]

    def tokenize(self, texts: Sequence[str]) -> list[Sequence[Hashable]]:
        """Each text's tokens as this metric counts them for ROUGE-N and ROUGE-L (lowercased
        and stemmed where it does), in one batch."""
        texts = list(texts)
        if self.config.lowercases and self.config.tokenizer != DEFAULT_TOKENIZER:
            texts = [t.lower() for t in texts]
        return self._token_lists(texts)

    def _token_lists(self, texts: list[str]) -> list[Sequence[Hashable]]:
        config = self.config
        tokenizer = config.tokenizer
        if not isinstance(tokenizer, str):
            return [tokenizer(t) for t in texts]
        if (
            tokenizer in (DEFAULT_TOKENIZER, SPLIT_SPACE)
            or tokenizer in NATIVE_TOKENIZERS
            or (config._core_tagger() is not None)
        ):
            return list(_core.tokenize(config.token_kernel(), texts, workers=self.workers))
        external = get_tokenizer(tokenizer)
        if external is None:  # pragma: no cover - every other name wraps a Python tokenizer
            raise InvalidOptionError(f"tokenizer {tokenizer!r} runs in the core")
        return [line.split() for line in external.tokenize_stream(texts, self.workers)]

    def _presplit(self, stream: Sequence[Any]) -> list[Any]:
        """Each text as the core's pre-split form: the whole text's token ids, then (with
        ``rougeLsum``) one line of ids per sentence."""
        whole = self.config.rouge_types != ("rougeLsum",)
        lsum = "rougeLsum" in self.config.rouge_types
        texts = [s for s in stream if isinstance(s, str)]
        sentences = [self._sentences(t) if lsum else [] for t in texts]
        flat = ([t for t in texts] if whole else []) + [s for ss in sentences for s in ss]
        tokens = iter(self._token_lists(flat))
        wholes = [next(tokens) if whole else () for _ in texts]
        label = self.config._tokenizer_label()

        def encode(tokens: Any) -> str:
            return self._interner.encode(tokens, label)

        encoded = iter(
            "\n".join([encode(w), *(encode(next(tokens)) for _ in ss)])
            for w, ss in zip(wholes, sentences)
        )
        return [next(encoded) if isinstance(s, str) else s for s in stream]


#: The settings (ROUGEConfig's fields, in order) and their defaults, which a preset replaces.
_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(ROUGEConfig)}


def _with_preset(preset: Optional[str], given: dict[str, Any]) -> dict[str, Any]:
    """The settings: ``given``, or a preset's, which needs the others at their defaults."""
    if preset is None:
        return given
    if preset not in PRESETS:
        raise InvalidOptionError(
            f"unknown ROUGE preset {preset!r}; expected one of {', '.join(PRESETS)}"
        )
    changed = [name for name, value in given.items() if value != _DEFAULTS[name]]
    if changed:
        raise InvalidOptionError(
            f"preset={preset!r} sets ROUGE's settings itself; leave {', '.join(changed)} at "
            "the default, or give the settings without a preset"
        )
    return {**given, **PRESETS[preset]}


def _sent_tokenize(text: str) -> list[str]:
    """nltk's ``sent_tokenize`` (its punkt model), or an error naming what to install."""
    try:
        import nltk  # type: ignore[import-untyped, unused-ignore]
    except ImportError:  # pragma: no cover - nltk is a test dependency
        raise InvalidOptionError(
            "split_summaries=True splits sentences with nltk: pip install nltk, then "
            "python -m nltk.downloader punkt_tab"
        ) from None
    try:
        return list(nltk.sent_tokenize(text))
    except LookupError:
        raise InvalidOptionError(
            "rougeLsum's sentences are split with nltk's sent_tokenize here (split_summaries="
            "True, and always in torchmetrics), which needs nltk's punkt_tab model: python -m "
            "nltk.downloader punkt_tab (or put each sentence on its own line and leave "
            "split_summaries False)"
        ) from None
