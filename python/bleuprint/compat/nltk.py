"""nltk's ``nltk.translate.bleu_score``, bit for bit (nltk 3.10.4)::

    from bleuprint.compat.nltk import sentence_bleu, corpus_bleu, SmoothingFunction

Same arguments, return types (the int ``0``, lists for several weight tuples, Fractions that
keep their counts) and warnings; the counting runs in bleuprint's Rust core. This is the
``nltk`` preset of :mod:`bleuprint.presets`, scored by :class:`bleuprint.BLEUConfig`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from operator import itemgetter
from typing import Any, Optional, Union

from bleuprint.errors import InvalidInputError, ReferenceLayoutError
from bleuprint.metrics.bleu.aggregation import corpus_counts
from bleuprint.metrics.bleu.config import BLEUConfig
from bleuprint.metrics.bleu.knobs import Weights, normalize_weights, weight_sets_as_given
from bleuprint.metrics.bleu.scoring import brevity_penalty as _brevity_penalty
from bleuprint.metrics.bleu.scoring import score_counts
from bleuprint.metrics.bleu.smoothing import (
    NLTK_PARAMETERS,
    Fraction,
    SmoothingFunction,
    modified_precision,
)

_PRESET = BLEUConfig.from_preset("nltk")
_SHAPE = "list_of_references=[[ref_tokens, ...], ...] (one list of token lists per hypothesis)"


class LengthMismatchError(InvalidInputError, AssertionError):
    """Different numbers of hypotheses and reference lists (nltk raises AssertionError)."""


def _check_layout(list_of_references: Any, hypotheses: Any) -> None:
    for name, value in (("list_of_references", list_of_references), ("hypotheses", hypotheses)):
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise ReferenceLayoutError(f"{name} must be a list, got {type(value).__name__}")
    if len(list_of_references) != len(hypotheses):
        raise LengthMismatchError(
            f"The number of hypotheses and their reference(s) should be the same: got "
            f"{len(hypotheses)} hypotheses and {len(list_of_references)} reference lists"
        )
    if _plain_lists(list_of_references, hypotheses):
        return
    for i, hypothesis in enumerate(hypotheses):
        if isinstance(hypothesis, str):
            raise ReferenceLayoutError(
                f"hypotheses[{i}] is a str; nltk counts tokens, so pass token lists: "
                f"hypotheses=[{hypothesis.split()!r}, ...] (e.g. text.split())"
            )
        if not _is_sequence(hypothesis):
            raise ReferenceLayoutError(
                f"hypotheses[{i}] must be a list of tokens, got {type(hypothesis).__name__}"
            )
    for i, references in enumerate(list_of_references):
        if (
            isinstance(references, str)
            or not _is_sequence(references)
            or (len(references) and not _is_sequence(references[0]))
        ):
            raise ReferenceLayoutError(
                f"list_of_references[{i}] must be a list of token lists, got "
                f"{references!r:.60}; expected {_SHAPE}"
            )


def _plain_lists(list_of_references: Sequence[Any], hypotheses: Sequence[Any]) -> bool:
    """Whether every hypothesis, reference list and first reference is a list or tuple, the
    usual layout, which then needs no per-item check (this one runs at C speed)."""
    plain = {list, tuple}
    return (
        set(map(type, hypotheses)) <= plain
        and set(map(type, list_of_references)) <= plain
        and set(map(type, map(itemgetter(0), filter(None, list_of_references)))) <= plain
    )


def _is_sequence(value: Any) -> bool:
    """A list of tokens, not a str (the common types answered without the ABC check)."""
    return type(value) in (list, tuple) or (
        isinstance(value, Sequence) and not isinstance(value, str)
    )


def _reweighs(weights: Any, auto_reweigh: bool) -> bool:
    """nltk re-weighs only a weight set that equals the *tuple* ``(0.25, 0.25, 0.25, 0.25)``
    (a list never compares equal to it)."""
    if not auto_reweigh:
        return False
    return any(w == (0.25, 0.25, 0.25, 0.25) for w in weight_sets_as_given(weights))


# typed: nltk's arithmetic differs for alpha=4 and alpha=4.0 (a Fraction times an int stays
# exact), so equal values of different types must not share an entry.
@lru_cache(maxsize=256, typed=True)
def _config(
    weights: Weights, auto_reweigh: bool, smoothing: str, value: Optional[float]
) -> BLEUConfig:
    """The nltk preset with these arguments (cached: sentence_bleu runs in loops)."""
    return _PRESET.replace(
        weights=weights, auto_reweigh=auto_reweigh, smooth_method=smoothing, smooth_value=value
    )


def _knobs_for(smoothing_function: Optional[Callable[..., Any]]) -> tuple[tuple[str, Any], Any]:
    """Our own SmoothingFunction methods become smoothing knobs; any other callable is
    called as nltk calls it."""
    if smoothing_function is None:
        return ("nltk0", None), None
    owner = getattr(smoothing_function, "__self__", None)
    name = getattr(smoothing_function, "__name__", "")
    builtin = getattr(SmoothingFunction, name, None)
    if (
        isinstance(owner, SmoothingFunction)
        and name[6:].isdigit()
        and getattr(type(owner), name, None) is builtin  # a subclass may override it
    ):
        method = int(name[6:])
        parameter = NLTK_PARAMETERS.get(method)
        value = getattr(owner, parameter) if parameter else None
        if value is not None or method in (0, 2, 3, 5):
            return (f"nltk{method}", value), None
    return ("nltk0", None), smoothing_function


def corpus_bleu(
    list_of_references: Sequence[Sequence[Sequence[Any]]],
    hypotheses: Sequence[Sequence[Any]],
    weights: Any = (0.25, 0.25, 0.25, 0.25),
    smoothing_function: Optional[Callable[..., Any]] = None,
    auto_reweigh: bool = False,
) -> Union[float, int, list[Any]]:
    """Corpus BLEU from summed counts, as nltk computes it (0..1; the int ``0`` without any
    unigram match; a list when ``weights`` holds several tuples)."""
    _check_layout(list_of_references, hypotheses)
    if not hypotheses:
        raise InvalidInputError("corpus_bleu needs at least one hypothesis (nltk divides 0 by 0)")
    (smoothing, value), custom = _knobs_for(smoothing_function)
    config = _config(normalize_weights(weights), _reweighs(weights, auto_reweigh), smoothing, value)
    rows = config.item_rows(hypotheses, list_of_references)
    if custom is None:
        return config.score_corpus(rows).score
    # A caller's own smoothing function is handed the last segment's tokens, as nltk does.
    counts = corpus_counts(rows, config)._replace(
        last_hypothesis=hypotheses[-1], last_references=list_of_references[-1]
    )
    return score_counts(counts, config, smoothing_function=custom).score


def sentence_bleu(
    references: Sequence[Sequence[Any]],
    hypothesis: Sequence[Any],
    weights: Any = (0.25, 0.25, 0.25, 0.25),
    smoothing_function: Optional[Callable[..., Any]] = None,
    auto_reweigh: bool = False,
) -> Union[float, int, list[Any]]:
    """BLEU of one hypothesis: ``corpus_bleu([references], [hypothesis], ...)``."""
    return corpus_bleu([references], [hypothesis], weights, smoothing_function, auto_reweigh)


def closest_ref_length(references: Sequence[Sequence[Any]], hyp_len: int) -> int:
    """The reference length closest to ``hyp_len``, the shorter one on ties."""
    return min((len(r) for r in references), key=lambda n: (abs(n - hyp_len), n))


def brevity_penalty(closest_ref_len: Union[int, float], hyp_len: int) -> Union[int, float]:
    """``1`` if the hypothesis is longer, ``0`` if empty, else ``exp(1 - r/c)``."""
    return _brevity_penalty(hyp_len, closest_ref_len, "nltk")  # type: ignore[no-any-return]


__all__ = [
    "Fraction",
    "LengthMismatchError",
    "SmoothingFunction",
    "brevity_penalty",
    "closest_ref_length",
    "corpus_bleu",
    "modified_precision",
    "sentence_bleu",
]
