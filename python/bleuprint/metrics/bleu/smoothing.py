"""Smoothing of zero n-gram precisions, on nltk-style precisions.

A precision here is a :class:`Fraction` that remembers the numerator and denominator it was
built from (nltk's ``Fraction(m, l, _normalize=False)``), so that methods 1, 3 and 4 divide by
the original count, as nltk does. :class:`SmoothingFunction` is nltk's class of the same name
(methods 0-7, same parameters, same return types, same warnings); :func:`smooth` applies any
smoothing knob to such a list.
"""

from __future__ import annotations

import fractions
import math
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any, Optional, Union

from bleuprint.errors import InternalError
from bleuprint.metrics.bleu import counting
from bleuprint.metrics.bleu.aggregation import LastSegment
from bleuprint.metrics.bleu.fraction import Fraction
from bleuprint.metrics.bleu.knobs import NLTK_DEFAULTS, NLTK_PARAMETERS

Precision = Union[Fraction, float, fractions.Fraction]


#: Called by methods 5 and 6 for the last segment: ``(references, hypothesis, n) -> Fraction``.
ModifiedPrecision = Callable[[Any, Any, int], Fraction]


def modified_precision(references: Any, hypothesis: Any, n: int) -> Fraction:
    """nltk's ``modified_precision``: clipped n-gram matches over hypothesis n-grams, the
    denominator at least 1, as a :class:`Fraction` that keeps both counts."""
    return Fraction(*counting.clipped_counts(references, hypothesis, n))


# method5's keyword of the same name shadows the function there.
_modified_precision = modified_precision


def _ngram_count(hypothesis: Sequence[Any], n: int) -> int:
    return max(0, len(hypothesis) - n + 1)


class SmoothingFunction:
    """nltk's smoothing methods (Chen & Cherry 2014), with nltk's parameters and quirks.

    ``epsilon`` is method1's added count, ``alpha`` method6's prior weight and ``k`` the
    constant of methods 4 and 7.
    """

    def __init__(
        self,
        epsilon: float = NLTK_DEFAULTS["epsilon"],
        alpha: float = NLTK_DEFAULTS["alpha"],
        k: float = NLTK_DEFAULTS["k"],
    ) -> None:
        self.epsilon = epsilon
        self.alpha = alpha
        self.k = k

    def method0(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """No smoothing: a zero precision becomes ``sys.float_info.min``, with a warning."""
        out: list[Any] = []
        for i, p_i in enumerate(p_n):
            if p_i.numerator != 0:
                out.append(p_i)
                continue
            warnings.warn(
                f"\nThe hypothesis contains 0 counts of {i + 1}-gram overlaps.\n"
                "Therefore the BLEU score evaluates to 0, independently of\n"
                "how many N-gram overlaps of lower order it contains.\n"
                "Consider using lower n-gram order or use SmoothingFunction()",
                UserWarning,
                stacklevel=2,
            )
            out.append(sys.float_info.min)
        return out

    def method1(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Adds ``epsilon`` to zero match counts."""
        return [
            (p_i.numerator + self.epsilon) / p_i.denominator if p_i.numerator == 0 else p_i
            for p_i in p_n
        ]

    def method2(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Lin & Och: adds one to matches and totals of every order but the unigram."""
        return [
            Fraction(p_i.numerator + 1, p_i.denominator + 1) if i != 0 else p_i
            for i, p_i in enumerate(p_n)
        ]

    def method3(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """NIST geometric: the k-th zero precision becomes ``1 / (2^k * total)``."""
        k = 1
        for i, p_i in enumerate(p_n):
            if p_i.numerator == 0:
                p_n[i] = 1 / (2**k * p_i.denominator)
                k += 1
        return p_n

    def method4(
        self,
        p_n: list[Any],
        references: Any = None,
        hypothesis: Any = None,
        hyp_len: Optional[int] = None,
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Zero precisions become ``ln(hyp_len) / (2^k * K * total)`` (nltk's variant)."""
        incvnt = 1
        hyp_len = hyp_len if hyp_len else len(hypothesis)
        for i, p_i in enumerate(p_n):
            if p_i.numerator == 0 and hyp_len > 1:
                numerator = 1 / (2**incvnt * self.k / math.log(hyp_len))
                p_n[i] = numerator / p_i.denominator
                incvnt += 1
        return p_n

    def method5(
        self,
        p_n: list[Any],
        references: Any = None,
        hypothesis: Any = None,
        hyp_len: Optional[int] = None,
        *args: Any,
        modified_precision: Optional[ModifiedPrecision] = None,
        **kwargs: Any,
    ) -> list[Any]:
        """Averages the n-1, n and n+1 precisions; the extra one is always the 5-gram
        precision of ``hypothesis`` (in a corpus, nltk passes the last segment)."""
        if modified_precision is None:
            modified_precision = _modified_precision
        m: dict[int, Any] = {}
        p_n_plus1 = [*p_n, modified_precision(references, hypothesis, 5)]
        m[-1] = p_n[0] + 1
        for i, p_i in enumerate(p_n):
            p_n[i] = (m[i - 1] + p_i + p_n_plus1[i + 1]) / 3
            m[i] = p_n[i]
        return p_n

    def method6(
        self,
        p_n: list[Any],
        references: Any = None,
        hypothesis: Any = None,
        hyp_len: Optional[int] = None,
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Gao & He: interpolates with the prior ``p_{n-1}^2 / p_{n-2}``; the n-gram count is
        that of ``hypothesis`` (in a corpus, nltk passes the last segment)."""
        if not p_n[2]:  # nltk's own assert, as an explicit check that stays under -O
            raise AssertionError("This smoothing method requires non-zero precision for bigrams.")
        for i, p_i in enumerate(p_n):
            if i in (0, 1):
                continue
            pi0 = 0 if p_n[i - 2] == 0 else p_n[i - 1] ** 2 / p_n[i - 2]
            p_n[i] = (p_i.numerator + self.alpha * pi0) / (
                _ngram_count(hypothesis, i + 1) + self.alpha
            )
        return p_n

    def method7(
        self,
        p_n: list[Any],
        references: Any = None,
        hypothesis: Any = None,
        hyp_len: Optional[int] = None,
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Method 4, then method 5."""
        hyp_len = hyp_len if hyp_len else len(hypothesis)
        p_n = self.method4(p_n, references, hypothesis, hyp_len)
        return self.method5(p_n, references, hypothesis, hyp_len, **kwargs)


def smooth(
    name: str,
    value: Optional[float],
    p_n: list[Fraction],
    references: Any,
    hypothesis: Any,
    hyp_len: int,
    last: Optional[LastSegment] = None,
) -> list[Any]:
    """Applies the smoothing knob ``name`` to nltk-style precisions; orders whose total is 0
    must already be left out. The segment nltk's methods 4-7 look at is either given as
    tokens (``references``/``hypothesis``) or, from statistics, as ``last``."""
    if name.startswith("nltk"):
        method = int(name[4:])
        parameter = NLTK_PARAMETERS.get(method)
        kwargs: dict[str, float] = {parameter: value} if parameter and value is not None else {}
        fn = getattr(SmoothingFunction(**kwargs), f"method{method}")
        extra: dict[str, Any] = {}
        if hypothesis is None and last is not None:
            # Methods 4 and 6 read only the hypothesis' length; 5 and 7 its 5-gram precision.
            hypothesis = range(last.length)
            correct_5, total_5 = last.correct_5, max(1, last.total_5)
            extra["modified_precision"] = lambda *_: Fraction(correct_5, total_5)
        return fn(p_n, references=references, hypothesis=hypothesis, hyp_len=hyp_len, **extra)
    if name in ("floor", "add-k"):
        if value is None:  # the knobs give both their default value
            raise InternalError(f"smoothing {name!r} reached without its smooth_value")
        k = value
        if name == "floor":
            return [p if p.numerator != 0 else k / p.denominator for p in p_n]
        return [p if i == 0 else _added(p.numerator, p.denominator, k) for i, p in enumerate(p_n)]
    if name == "lin-och":
        return [Fraction(p.numerator + 1, p.denominator + 1) for p in p_n]
    if name == "exp":
        return SmoothingFunction().method3(p_n)
    return p_n  # "none"


def _added(numerator: int, denominator: int, k: float) -> Any:
    """``(m + k) / (l + k)``: a Fraction for an integer k, else a float."""
    if float(k).is_integer():
        return Fraction(numerator + int(k), denominator + int(k))
    return (numerator + k) / (denominator + k)
