"""Self-BLEU (Zhu et al. 2018, Texygen): the diversity of a set of generated sentences, each
scored with BLEU against all the others as its references. Lower is more diverse.

There is no standard, so :func:`self_bleu` names the one it computes (``variant``), each exact
to its upstream on the same tokens:

- ``"texygen"``: geek-ai/Texygen's ``SelfBleu.get_bleu_parallel``: nltk's ``sentence_bleu``
  with ``SmoothingFunction().method1`` and uniform weights up to ``gram`` (default 3), the
  others as references; the figure is the running sum of the scores over their number. With
  ``include_self=True``, its ``get_bleu``: each sentence is among its own references (so
  scores near 1), and the figure is Python's ``sum`` over the number.
- ``"fast-bleu"``: fast-bleu 0.0.90's ``SelfBLEU`` (default 4-grams), whose C++ takes the
  weights as 32-bit floats and the logarithms in x87 long double; the figure is the running
  sum of its scores over their number (fast-bleu returns the scores only).
- ``"sacrebleu"``: sacrebleu's ``sentence_bleu`` (``13a``, ``exp`` smoothing, effective
  order, 0-100) of each sentence against the others.

All three count the same statistics: each sentence's BLEU row against the others, which the
core makes in time linear in the number of n-grams (``docs/captioning.md`` has the
algorithm), not with one BLEU call per sentence against ``N - 1`` references.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional, Union

from bleuprint.errors import InputTypeError, InvalidOptionError
from bleuprint.metrics.bleu.config import BLEUConfig
from bleuprint.metrics.bleu.knobs import MAX_ORDER
from bleuprint.tokenizers import tokenize

if TYPE_CHECKING:
    import numpy as np

#: The variants and their default highest n-gram order (Texygen's ``gram=3``; fast-bleu's and
#: sacrebleu's 4).
VARIANTS = {"texygen": 3, "fast-bleu": 4, "sacrebleu": 4}

#: A tokenizer: a bleuprint tokenizer name, or a callable from a sentence to its tokens.
Tokenizer = Union[str, Callable[[str], Sequence[str]], None]


@dataclass(frozen=True)
class SelfBLEUScore:
    """Self-BLEU of a set of sentences: the figure (:attr:`score`) and every scored sentence's
    BLEU against the others (:attr:`sentence_scores`, in input order; only the sample's
    sentences when ``sample`` was given, at :attr:`indices`)."""

    score: float
    sentence_scores: np.ndarray = field(repr=False)
    variant: str
    max_order: int
    include_self: bool = False
    #: The positions of the scored sentences in the input (all of them without ``sample``).
    indices: Optional[np.ndarray] = field(default=None, repr=False)

    def __float__(self) -> float:
        return float(self.score)

    def __str__(self) -> str:
        n = len(self.sentence_scores)
        own = ", itself included" if self.include_self else ""
        return (
            f"Self-BLEU-{self.max_order} ({self.variant}{own}) = {self.score:.4f} over "
            f"{n:,} sentences"
        )


def _config(variant: str, max_order: int) -> BLEUConfig:
    """The BLEU whose arithmetic scores the rows (fast-bleu's is :func:`_fast_bleu_scores`)."""
    if variant == "sacrebleu":
        return BLEUConfig(max_ngram_order=max_order, effective_order=True)
    # Texygen: weight = tuple((1. / ngram for _ in range(ngram))), method1's epsilon 0.1.
    weights = (tuple(1.0 / max_order for _ in range(max_order)),)
    return BLEUConfig.from_preset("nltk", weights=weights, smooth_method="nltk1", smooth_value=0.1)


def _tokens(
    texts: Sequence[Any], tokenizer: Tokenizer, variant: str, workers: int
) -> list[Sequence[str]]:
    """Each sentence's tokens: token lists as given; text through ``tokenizer`` (default:
    ``str.split()``, or ``13a`` for the sacrebleu variant)."""
    if isinstance(texts, str) or not isinstance(texts, Sequence):
        raise InputTypeError(
            f"texts must be a sequence of str (or of token lists), got {type(texts).__name__}"
        )
    if all(isinstance(t, str) for t in texts):
        if tokenizer is None:
            tokenizer = "13a" if variant == "sacrebleu" else None
        if tokenizer is None:
            return [t.split() for t in texts]
        if isinstance(tokenizer, str):
            return [t.split() for t in tokenize(list(texts), tokenizer, workers=workers)]
        if not callable(tokenizer):
            raise InputTypeError(
                f"tokenizer must be a tokenizer name or a callable, got {type(tokenizer).__name__}"
            )
        out: list[Sequence[str]] = []
        for i, text in enumerate(texts):
            tokens = list(tokenizer(text))
            if not all(isinstance(token, str) for token in tokens):
                raise InputTypeError(f"tokenizer(texts[{i}]) must return str tokens")
            out.append(tokens)
        return out
    if tokenizer is not None:
        raise InvalidOptionError("tokenizer= applies to text; these texts are token lists already")
    for i, tokens in enumerate(texts):
        if isinstance(tokens, str) or not isinstance(tokens, Sequence):
            raise InputTypeError(
                f"texts[{i}] must be a str or a list of str tokens (all of one kind), got "
                f"{type(tokens).__name__}"
            )
    return list(texts)


def _fast_bleu_scores(rows: np.ndarray, max_order: int) -> np.ndarray:
    """fast-bleu 0.0.90's ``corpus_bleu`` (``nltk.cpp``) of each row, smoothing 1, uniform
    weights: the weights as C floats, each ``weight * log(p)`` and the running sum in x87
    ``long double`` (numpy's ``longdouble``, which is that type on x86-64 Linux), the
    brevity penalty and ``exp`` in double."""
    import numpy as np

    weight = np.longdouble(float(np.float32(1.0 / max_order)))
    hyp_len, ref_len = rows[:, 0], rows[:, 1]
    correct, total = rows[:, 2 : 2 + max_order], rows[:, 2 + max_order : 2 + 2 * max_order]
    denominators = np.maximum(total, 1).astype(np.longdouble)
    # smooth_1: a zero numerator becomes 1 over ten times the denominator.
    numerators = np.where(correct == 0, 1, correct).astype(np.longdouble)
    denominators = np.where(correct == 0, denominators * 10, denominators)
    logs = np.log(numerators / denominators)
    s = np.zeros(len(rows), dtype=np.float64)
    for n in range(max_order):
        s = (s.astype(np.longdouble) + weight * logs[:, n]).astype(np.float64)
    scores = np.empty(len(rows), dtype=np.float64)
    columns = zip(hyp_len.tolist(), ref_len.tolist(), correct[:, 0].tolist(), s.tolist())
    for i, (h, r, unigrams, log_sum) in enumerate(columns):
        if unigrams == 0:  # no unigram match: 0, before any smoothing
            scores[i] = 0.0
            continue
        bp = 1.0 if h > r else (0.0 if h == 0 else math.exp(1 - float(r) / h))
        scores[i] = bp * math.exp(log_sum)
    return scores


def _running_mean(scores: np.ndarray) -> float:
    """``score = 0.0; for s in scores: score += s`` over the count, as Texygen's
    ``get_bleu_parallel`` sums (``numpy.cumsum`` adds in order)."""
    import numpy as np

    return float(np.cumsum(scores)[-1]) / len(scores)


def self_bleu(
    texts: Sequence[Any],
    *,
    variant: str = "texygen",
    max_order: Optional[int] = None,
    sample: Optional[int] = None,
    seed: Optional[int] = None,
    tokenizer: Tokenizer = None,
    include_self: bool = False,
    workers: int = -1,
) -> SelfBLEUScore:
    """Self-BLEU of ``texts``: each sentence's BLEU against all the other sentences.

    Parameters
    ----------
    texts
        The sentences: ``str`` (tokenized by ``tokenizer``) or token lists (counted as given).
    variant
        ``"texygen"`` (default), ``"fast-bleu"`` or ``"sacrebleu"`` (see the module).
    max_order
        The highest n-gram order (default: 3 for texygen, as its ``gram``; 4 otherwise).
    sample
        Score a random sample of this many sentences among themselves (drawn with
        ``numpy.random.default_rng(seed)``, kept in input order) instead of all of them.
        Texygen's ``get_bleu_fast`` is the first 500: ``self_bleu(texts[:500])``.
    seed
        The sample's seed.
    tokenizer
        For text: a bleuprint tokenizer name (``"13a"``, ``"intl"``, ``"zh"``, ...) or a
        callable from a sentence to its tokens (Texygen tokenizes with
        ``nltk.word_tokenize``: pass it to match Texygen exactly). Default: ``str.split()``;
        ``13a`` for the sacrebleu variant.
    include_self
        Texygen's ``get_bleu``: each sentence is among its own references (texygen only).
    workers
        Threads for the counting (``-1``: every core).

    >>> result = self_bleu(["the cat sat on the mat", "the cat sat on a hat", "a dog ran"])
    >>> round(result.score, 6), [round(s, 6) for s in result.sentence_scores.tolist()]
    (0.41946, [0.584804, 0.629961, 0.043617])
    """
    import numpy as np

    if variant not in VARIANTS:
        raise InvalidOptionError(
            f"unknown Self-BLEU variant {variant!r}; expected one of {', '.join(VARIANTS)}"
        )
    if max_order is None:
        max_order = VARIANTS[variant]
    least = 2 if variant == "fast-bleu" else 1
    valid = isinstance(max_order, int) and not isinstance(max_order, bool)
    if not valid or not least <= max_order <= MAX_ORDER:
        raise InvalidOptionError(
            f"max_order must be an int from {least} to {MAX_ORDER} for the {variant} variant, got "
            f"{max_order!r}" + (" (fast-bleu refuses order 1)" if variant == "fast-bleu" else "")
        )
    if include_self and variant != "texygen":
        raise InvalidOptionError(
            "include_self is Texygen's get_bleu; fast-bleu and sacrebleu leave each sentence out"
        )
    tokens = _tokens(texts, tokenizer, variant, workers)
    indices = None
    if sample is not None:
        if isinstance(sample, bool) or not isinstance(sample, int) or sample < 1:
            raise InvalidOptionError(f"sample must be a positive int or None, got {sample!r}")
        if sample < len(tokens):
            rng = np.random.default_rng(seed)
            indices = np.sort(rng.choice(len(tokens), size=sample, replace=False))
            tokens = [tokens[i] for i in indices.tolist()]
    config = _config(variant, max_order)
    counted = config.kernel.self_stats(tokens, include_self=include_self, workers=workers)
    if variant == "fast-bleu":
        scores = _fast_bleu_scores(counted, max_order)
    else:
        rows = config.rows_from_counts(counted)  # nltk's totals at least 1 per sentence
        scores = np.asarray(config.score_rows(rows), dtype=np.float64)
    if include_self:
        figure = sum(scores.tolist()) / len(scores)  # get_bleu: sum(bleu) / len(bleu)
    else:
        figure = _running_mean(scores)
    return SelfBLEUScore(figure, scores, variant, max_order, include_self, indices)


__all__ = ["VARIANTS", "SelfBLEUScore", "self_bleu"]
