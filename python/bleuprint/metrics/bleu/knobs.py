"""The knobs that make one package's BLEU differ from another's.

Every upstream BLEU bleuprint emulates is a preset: a :class:`BleuKnobs` value (see
:mod:`bleuprint.metrics.bleu.presets`): which tokens are counted, which reference length feeds the
brevity penalty, how zero precisions are smoothed, how segments are aggregated, and which float
operations, in which order, turn the sums into a score. No preset carries code of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import Any, Optional

from bleuprint import _core
from bleuprint.errors import InvalidOptionError
from bleuprint.metrics.bleu import SMOOTH_DEFAULTS

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
    "tokens": "the caller's token lists, counted as given (nltk)",
}

#: When and how text is lowercased.
LOWERCASE: dict[str, str] = {
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
}

SCALES = (1, 100)
DTYPES = ("float64", "float32")

Weights = tuple[tuple[float, ...], ...]


def _check(name: str, value: Any, allowed: Any) -> None:
    if value not in allowed:
        raise InvalidOptionError(
            f"unknown {name} {value!r}; expected one of {', '.join(map(str, allowed))}"
        )


#: The highest n-gram order: the core's limit.
MAX_ORDER: int = _core.MAX_NGRAM_ORDER


@dataclass(frozen=True)
class BleuKnobs:
    """Every choice behind a BLEU score. The defaults are sacrebleu's ``corpus_bleu``.

    ``weights`` holds one or more weight tuples; ``None`` means uniform weights over
    ``max_order``. With several tuples the score is a list, one per tuple (nltk).
    """

    tokenizer: str = "13a"
    lowercase: str = "no"
    ref_length: str = "closest"
    smoothing: str = "exp"
    smooth_value: Optional[float] = None
    max_order: int = 4
    weights: Optional[Weights] = None
    effective_order: bool = False
    auto_reweigh: bool = False
    aggregation: str = "micro"
    drop_empty: bool = False
    arithmetic: str = "sacrebleu"
    scale: int = 100
    dtype: str = "float64"

    def __post_init__(self) -> None:
        _check("tokenizer", self.tokenizer, TOKENIZERS)
        _check("lowercase", self.lowercase, LOWERCASE)
        _check("ref_length", self.ref_length, REF_LENGTHS)
        _check("smoothing", self.smoothing, SMOOTHINGS)
        _check("aggregation", self.aggregation, AGGREGATIONS)
        _check("arithmetic", self.arithmetic, ARITHMETICS)
        _check("scale", self.scale, SCALES)
        _check("dtype", self.dtype, DTYPES)
        order = self.max_order
        if isinstance(order, bool) or not isinstance(order, int) or not 1 <= order <= MAX_ORDER:
            # Checked here too, not only in the core: presets allocate per-order state first.
            raise InvalidOptionError(
                f"max_order must be an integer from 1 to {MAX_ORDER}, got {order!r}"
            )
        if self.weights is not None:
            object.__setattr__(self, "weights", normalize_weights(self.weights))
            if self.orders > MAX_ORDER:
                raise InvalidOptionError(
                    f"weights may hold at most {MAX_ORDER} orders, got {self.orders}"
                )
        if self.dtype == "float32" and self.arithmetic != "torch":
            raise InvalidOptionError("dtype='float32' needs arithmetic='torch' (torchmetrics)")

    @property
    def weight_sets(self) -> Weights:
        """The weight tuples in use (uniform ``1/max_order`` when none were given)."""
        if self.weights is not None:
            return self.weights
        return ((1.0 / self.max_order,) * self.max_order,)

    @cached_property
    def orders(self) -> int:
        """How many n-gram orders the counts need: the longest weight tuple, or max_order."""
        return max(len(w) for w in self.weights) if self.weights is not None else self.max_order

    @property
    def effective_smooth_value(self) -> Optional[float]:
        """``smooth_value``, or the smoothing method's default."""
        if self.smooth_value is None:
            return SMOOTHINGS[self.smoothing]
        return self.smooth_value

    def replace(self, **changes: Any) -> BleuKnobs:
        """A copy with some knobs changed."""
        return replace(self, **changes)

    def differences(self, other: BleuKnobs) -> dict[str, tuple[Any, Any]]:
        """``{knob: (self's value, other's value)}`` for every knob that differs."""
        out = {}
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if f.name == "weights":
                mine, theirs = self.weight_sets, other.weight_sets
            if f.name == "smooth_value":
                mine, theirs = self.effective_smooth_value, other.effective_smooth_value
            if mine != theirs:
                out[f.name] = (getattr(self, f.name), getattr(other, f.name))
        return out


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


#: sacrebleu 2.6.0's ``corpus_bleu`` defaults, the yardstick every preset is compared with.
SACREBLEU = BleuKnobs()
