"""The knobs that make one package's BLEU differ from another's, and what each value means.

Every upstream BLEU bleuprint emulates is a preset (:mod:`bleuprint.presets`): values of these
knobs, which are fields of :class:`~bleuprint.BLEUConfig`: which tokens are counted, which
reference length feeds the brevity penalty, how zero precisions are smoothed, how segments are
aggregated, and which float operations, in which order, turn the sums into a score. No preset
carries code of its own.
"""

from __future__ import annotations

from typing import Any, Optional, Protocol, Union

from bleuprint import _core
from bleuprint.errors import InvalidOptionError

#: The highest accepted ``max_ngram_order`` (the core's bound, checked before it allocates).
MAX_ORDER: int = _core.MAX_NGRAM_ORDER

#: Default smoothing value per method (Chen & Cherry 2014), as in sacrebleu: the core's table.
SMOOTH_DEFAULTS: dict[str, Optional[float]] = dict(_core.SMOOTH_DEFAULTS)

#: How text becomes tokens. ``tokens``: the caller passes token lists (nltk).
TOKENIZERS: dict[str, str] = {
    "13a": "mteval-v13a rules (sacrebleu's default; HF's tokenizer_13a; torchmetrics)",
    "intl": "mteval-v14 international rules (Unicode punctuation and symbols)",
    "mteval-intl": "intl after mteval-v14's entity decoding and line joining",
    "zh": "sacrebleu's Chinese tokenizer",
    "char": "one token per character",
    "none": "Python str.split() (torchmetrics bleu_score)",
    "split-ascii": "Perl split on bytes: ASCII whitespace only (multi-bleu.perl)",
    "strip-punct": "ASCII punctuation to spaces, then str.split() (nlg-metricverse)",
    "ptb": "Stanford CoreNLP 3.4.1's PTB tokenizer as pycocoevalcap runs it (lowercased)",
    "tokens": "the caller's token lists, counted as given (nltk)",
}

#: When and how text is lowercased (False and True print, and may be given, as ``"no"`` and
#: ``"unicode"``).
LOWERCASE: dict[Union[bool, str], str] = {
    "no": "case-sensitive",
    "unicode": "Python str.lower() before tokenizing",
    "ascii": "A-Z only, before tokenizing (mteval, multi-bleu.perl -lc)",
    "after": "str.lower() of the tokenized text (torchmetrics SacreBLEUScore)",
}

#: Which reference length a segment contributes to the brevity penalty.
REF_LENGTHS: dict[str, str] = {
    "closest": "closest to the hypothesis, ties to the shorter",
    "closest-first": "closest to the hypothesis, ties to the first listed",
    "shortest": "the shortest reference",
    "average": "the mean reference length (a float)",
}

#: The parameter of each nltk smoothing method that takes one (``SmoothingFunction``'s
#: ``epsilon``, ``k``, ``alpha``), and the parameters' defaults.
NLTK_PARAMETERS: dict[int, str] = {1: "epsilon", 4: "k", 6: "alpha", 7: "k"}
# nltk's defaults are ints for alpha and k: method6 then stays in exact Fractions.
NLTK_DEFAULTS: dict[str, float] = {"epsilon": 0.1, "alpha": 5, "k": 5}

#: Smoothing of zero precisions; the value is ``smooth_value``'s default (``None``: unused):
#: sacrebleu's four methods with sacrebleu's defaults, Lin-Och, and nltk's methods 0-7 with
#: ``SmoothingFunction``'s defaults.
SMOOTHINGS: dict[str, Optional[float]] = {
    **SMOOTH_DEFAULTS,
    "lin-och": None,
    **{
        f"nltk{method}": NLTK_DEFAULTS[NLTK_PARAMETERS[method]]
        if method in NLTK_PARAMETERS
        else None
        for method in range(8)
    },
}

SMOOTHING_NOTES: dict[str, str] = {
    "none": "no smoothing: a zero precision zeroes the score",
    "floor": "a zero match count becomes smooth_value",
    "add-k": "smooth_value added to matches and totals of orders >= 2",
    "exp": "NIST geometric: the k-th zero precision becomes 1/(2^k total)",
    "lin-och": "Lin & Och add-one on every order, unigrams included",
    "nltk0": "nltk method0: zero precisions become sys.float_info.min, with a warning",
    "nltk1": "nltk method1: epsilon (smooth_value) added to zero match counts",
    "nltk2": "nltk method2: add-one on orders >= 2 (Fractions)",
    "nltk3": "nltk method3: NIST geometric",
    "nltk4": "nltk method4: ln(hyp_len)/(2^k K), K = smooth_value",
    "nltk5": "nltk method5: average of the n-1, n, n+1 precisions (5-grams of the last segment)",
    "nltk6": "nltk method6: Gao & He interpolation, alpha = smooth_value",
    "nltk7": "nltk method7: method4 then method5, K = smooth_value",
}

#: How segments add up to the corpus.
AGGREGATIONS: dict[str, str] = {
    "micro": "sum every segment's counts",
    "nltk": "sum counts, each order's total at least 1 per segment; "
    "smoothing sees the last segment",
    "multi-prediction": "flatten several predictions per item, then rescale the brevity penalty "
    "with per-item max prediction / min reference lengths (nlg-metricverse)",
}

DROP_EMPTY_NOTE = "leave out items whose prediction or reference is empty (nlg-metricverse)"

#: Whose float operations, in whose order, turn sums into a score.
ARITHMETICS: dict[str, str] = {
    "sacrebleu": "percent precisions, log(0) = -9999999999, bp * exp(sum(logs) / N)",
    "nltk": "Fractions, int 0 without unigram matches, bp * exp(fsum(w log p for p > 0))",
    "nmt": "tensorflow/nmt: 0 if any precision is 0, exp(sum(w log p)) * bp with bp from the ratio",
    "torch": "torchmetrics: float32, 0 if any match count is 0 (before smoothing)",
    "moses": "multi-bleu.perl: log(0) = -9999999999, bp * exp((log p1 + ... + log pN) / N)",
    "fairseq": "fairseq Scorer (token IDs): log(0) = -inf, "
    "min(1, exp(1 - r/c)) * exp(sum(logs) / N)",
    "mteval": "mteval-v13a: an order without hypothesis n-grams has precision 1; "
    "cumulative exp(sum / N) * exp(min(0, 1 - r/c))",
    "coco": "pycocoevalcap bleu_scorer: cumulative products of (m + 1e-15)/(t + 1e-9), "
    "each order's root times exp(1 - 1/ratio) when shorter; a score per order",
}

SCALES = (1, 100)
DTYPES = ("float64", "float32")

Weights = tuple[tuple[float, ...], ...]

#: The names preset signatures, ``docs/compat.md``'s table, ``explain`` and
#: ``compare-presets`` print for the knobs whose field names are sacrebleu's.
LABELS = {"tokenize": "tokenizer", "smooth_method": "smoothing", "max_ngram_order": "max_order"}
#: How ``lowercase`` prints there.
_LOWERCASE_SHOWN = {False: "no", True: "unicode"}


def label(knob: str) -> str:
    """The printed name of a knob (``smooth_method`` prints as ``smoothing``)."""
    return LABELS.get(knob, knob)


def shown(knob: str, value: Any) -> Any:
    """A knob's value as printed (``lowercase`` False and True print as ``no`` and
    ``unicode``)."""
    if knob == "lowercase" and isinstance(value, bool):
        return _LOWERCASE_SHOWN[value]
    return value


class Knobs(Protocol):
    """The knobs as the counting and scoring steps read them (a
    :class:`~bleuprint.BLEUConfig`)."""

    @property
    def tokenize(self) -> str: ...
    @property
    def lowercase(self) -> Union[bool, str]: ...
    @property
    def max_ngram_order(self) -> int: ...
    @property
    def smooth_method(self) -> str: ...
    @property
    def smooth_value(self) -> Optional[float]: ...
    @property
    def effective_order(self) -> bool: ...
    @property
    def normalize(self) -> Optional[str]: ...
    @property
    def ref_length(self) -> str: ...
    @property
    def weights(self) -> Optional[Weights]: ...
    @property
    def auto_reweigh(self) -> bool: ...
    @property
    def aggregation(self) -> str: ...
    @property
    def drop_empty(self) -> bool: ...
    @property
    def arithmetic(self) -> str: ...
    @property
    def scale(self) -> int: ...
    @property
    def dtype(self) -> str: ...

    @property
    def orders(self) -> int:
        """How many n-gram orders the counts need."""

    @property
    def weight_sets(self) -> Weights:
        """The weight tuples in use."""

    @property
    def effective_smooth_value(self) -> Optional[float]:
        """``smooth_value``, or the smoothing method's default."""

    @property
    def kernel(self) -> Any:
        """The core's kernel of these knobs."""

    def counting_kernel(self, text: bool) -> Any:
        """The core kernel that counts text (``text``) or token lists under these knobs."""


def check(name: str, value: Any, allowed: Any) -> None:
    """Raises :class:`InvalidOptionError` unless ``value`` is one of ``allowed``."""
    if value not in allowed:
        raise InvalidOptionError(
            f"unknown {name} {value!r}; expected one of {', '.join(map(str, allowed))}"
        )


def weight_sets_as_given(weights: Any) -> Any:
    """One weight tuple or several, as a sequence of weight sets in the caller's own types
    (nltk's test: ``weights[0][0]`` exists for several)."""
    try:
        weights[0][0]
    except (TypeError, IndexError):
        return [weights]
    return weights


def normalize_weights(weights: Any) -> Weights:
    """One weight tuple or several, as a tuple of float tuples."""
    weights = weight_sets_as_given(weights)
    try:
        out = tuple(tuple(float(w) for w in ws) for ws in weights)
    except (TypeError, ValueError):
        raise InvalidOptionError(
            f"weights must be a tuple of floats or a list of such tuples, got {weights!r}"
        ) from None
    if not out or any(len(ws) == 0 for ws in out):
        raise InvalidOptionError(f"weights must not be empty, got {weights!r}")
    return out


def check_sacrebleu_arithmetic(config: Knobs) -> None:
    """Raises :class:`InvalidOptionError` for knobs the sacrebleu arithmetic cannot score."""
    if (
        config.smooth_method not in SMOOTH_DEFAULTS
        or config.weights is not None
        or config.auto_reweigh
    ):
        raise InvalidOptionError(
            "the sacrebleu arithmetic takes smoothing none, floor, add-k or exp, uniform "
            "weights and no auto_reweigh"
        )
    if config.ref_length == "average":
        raise InvalidOptionError("the sacrebleu arithmetic needs integer reference lengths")
