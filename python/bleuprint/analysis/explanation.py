"""BLEU of one hypothesis, step by step, the way it is taught::

    >>> print(bleuprint.explain("the picture the picture by me",
    ...                         ["this picture is clicked by me", "the picture was clicked by me"]))

Every n-gram of the hypothesis with its count, its highest count in any reference and its
clipped count; each precision as a fraction and a decimal; the reference length and why it
was chosen; the brevity penalty, the weighted log sum and the score. With ``preset=`` the
computation is that preset's (an upstream package's BLEU), and the knobs that differ from
sacrebleu's are listed
with how much each one moves this score. ``str()`` gives text tables, and notebooks show
HTML.
"""

from __future__ import annotations

import html
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Union

from bleuprint.errors import InvalidInputError, renamed_keyword
from bleuprint.io.layout import as_text_sequence
from bleuprint.metrics.bleu import BLEU, BLEUConfig, BLEUScore
from bleuprint.metrics.bleu.counting import ngram_details, tokens_of
from bleuprint.metrics.bleu.knobs import REF_LENGTHS, label, shown
from bleuprint.presets import get_preset

#: sacrebleu's knobs, the yardstick every preset is compared with.
SACREBLEU = BLEUConfig()

_REF_LENGTH_WHY = {
    "closest": "the length closest to the hypothesis' {c}; ties go to the shorter",
    "closest-first": "the length closest to the hypothesis' {c}; ties go to the first listed",
    "shortest": "the shortest reference",
    "average": "the mean reference length",
}


@dataclass
class OrderDetail:
    """One n-gram order: its rows ``(ngram, count, max_ref_count, clipped)`` and precision."""

    n: int
    ngrams: list[tuple[tuple[str, ...], int, int, int]]
    matches: Any
    total: Any
    precision: float

    @property
    def fraction(self) -> str:
        """``matches/total`` as counted (e.g. ``4/6``)."""
        return f"{_number(self.matches)}/{_number(self.total)}"

    @property
    def heading(self) -> str:
        """``p_n = 4/6 = 0.6667``, plus the smoothed value when smoothing changed it."""
        text = f"p_{self.n} = {self.fraction}"
        raw = float(self.matches) / float(self.total) if self.total else None
        if raw is not None:
            text += f" = {raw:.4f}"
        if raw is None or self.precision != raw:
            text += f", smoothed to {self.precision:.6g}"
        return text


@dataclass
class KnobEffect:
    """A knob that differs from sacrebleu's, and how far it moves the score (0..100 scale),
    applied after the knobs listed before it."""

    knob: str
    sacrebleu_value: Any
    value: Any
    delta: float


@dataclass
class Explanation:
    """The worked computation of one sentence's BLEU; ``str()`` prints it."""

    preset: str
    knobs: BLEUConfig
    hypothesis: list[str]
    references: list[list[str]]
    orders: list[OrderDetail]
    ref_length: Any
    ref_length_rule: str
    brevity_penalty: float
    weights: tuple[float, ...]
    log_sum: float
    score: Any
    result: BLEUScore = field(repr=False)
    effects: list[KnobEffect] = field(default_factory=list)

    @property
    def implementation(self) -> str:
        """Deprecated old name of :attr:`preset`."""
        warnings.warn(
            "Explanation.implementation is deprecated; use .preset",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.preset

    def _lines(self) -> list[str]:
        c = len(self.hypothesis)
        out = [f"BLEU explained ({self.preset})", ""]
        out.append(f"hypothesis ({c} tokens): {' '.join(self.hypothesis)}")
        for k, ref in enumerate(self.references, start=1):
            out.append(f"reference {k} ({len(ref)} tokens): {' '.join(ref)}")
        for order in self.orders:
            out += ["", f"{order.n}-grams: {order.heading}"]
            width = max([len(" ".join(g)) for g, *_ in order.ngrams] + [6])
            out.append(f"  {'n-gram':<{width}}  count  max ref  clipped")
            for gram, count, max_ref, clipped in order.ngrams:
                out.append(f"  {' '.join(gram):<{width}}  {count:>5}  {max_ref:>7}  {clipped:>7}")
        lengths = ", ".join(str(len(r)) for r in self.references)
        why = _REF_LENGTH_WHY[self.ref_length_rule].format(c=c)
        out += ["", f"reference length r = {_number(self.ref_length)}: {why} (lengths {lengths})"]
        r = self.ref_length
        bp = self.brevity_penalty
        if c > r:
            bp_text = f"c = {c} > r = {_number(r)}, so BP = 1"
        elif c == 0 and bp == 0:
            bp_text = f"the hypothesis is empty (c = 0, r = {_number(r)}), so BP = 0"
        elif c == 0:  # sacrebleu: an empty hypothesis of an empty reference is not short
            bp_text = f"c = 0 is not shorter than r = {_number(r)}, so BP = {bp:g}"
        else:
            bp_text = f"BP = exp(1 - r/c) = exp(1 - {_number(r)}/{c}) = {self.brevity_penalty:.4f}"
        out.append(f"brevity penalty: {bp_text}")
        terms = " + ".join(
            f"{w:g}*log({o.precision:.6g})" for w, o in zip(self.weights, self.orders)
        )
        out.append(f"weighted log sum: {terms} = {self.log_sum:.4f}")
        value = self.brevity_penalty * _safe_exp(self.log_sum)
        line = f"BLEU = BP * exp(sum) = {self.brevity_penalty:.4f} * {_safe_exp(self.log_sum):.6g}"
        line += f" = {value:.6g}"
        if self.knobs.scale == 100:
            line += f"; on the 0-100 scale {_format_score(self.score)}"
        elif not isinstance(self.score, float) or f"{value:.6g}" != f"{self.score:.6g}":
            line += f"; reported as {_format_score(self.score)}"
        out.append(line)
        if self.effects:
            out += ["", "knobs that differ from sacrebleu's (each applied after those above it):"]
            out.append(f"  {'knob':<16} {'sacrebleu':<12} {'here':<14} score change")
            for e in self.effects:
                out.append(
                    f"  {e.knob:<16} {_short(e.sacrebleu_value):<12} {_short(e.value):<14} "
                    f"{e.delta:+.4f}"
                )
        return out

    def __str__(self) -> str:
        return "\n".join(self._lines()) + "\n"

    def _repr_html_(self) -> str:
        parts = [f"<h4>BLEU explained ({html.escape(self.preset)})</h4>"]
        parts.append(f"<p>hypothesis: <code>{html.escape(' '.join(self.hypothesis))}</code></p>")
        for k, ref in enumerate(self.references, start=1):
            parts.append(f"<p>reference {k}: <code>{html.escape(' '.join(ref))}</code></p>")
        for order in self.orders:
            rows = "".join(
                f"<tr><td><code>{html.escape(' '.join(g))}</code></td><td>{c}</td><td>{m}</td>"
                f"<td>{k}</td></tr>"
                for g, c, m, k in order.ngrams
            )
            parts.append(
                f"<p><b>{order.n}-grams</b>: {html.escape(order.heading)}</p>"
                "<table><tr><th>n-gram</th><th>count</th>"
                f"<th>max ref</th><th>clipped</th></tr>{rows}</table>"
            )
        tail = self._lines()
        start = next(i for i, line in enumerate(tail) if line.startswith("reference length"))
        parts.append("<pre>" + html.escape("\n".join(tail[start:])) + "</pre>")
        return "\n".join(parts)


def _number(x: Any) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 12 else text[:11] + "…"


def _safe_exp(x: float) -> float:
    return math.exp(x) if x < 700 else math.inf


def _format_score(score: Any) -> str:
    return repr(score) if isinstance(score, float) else str(score)


def _percent(score: BLEUScore, knobs: BLEUConfig) -> float:
    """The score on the 0..100 scale (for comparing knob settings)."""
    return score.number if knobs.scale == 100 else 100 * score.number


# Knobs in the order explain applies them when walking from sacrebleu to a preset:
# the arithmetic first, because the other knobs' values are only defined under it.
_WALK = (
    "arithmetic", "dtype", "tokenize", "lowercase", "ref_length", "aggregation",
    "smooth_method", "smooth_value", "max_ngram_order", "weights", "effective_order",
    "auto_reweigh", "drop_empty", "scale",
)  # fmt: skip


def _score(
    hypotheses: Sequence[Any], references: Sequence[Sequence[Any]], knobs: BLEUConfig
) -> BLEUScore:
    score: BLEUScore = BLEU(preset=knobs).item_stats(hypotheses, references).score()  # type: ignore[assignment]
    return score


def knob_effects(
    hypotheses: Sequence[Any], references: Sequence[Sequence[Any]], knobs: BLEUConfig
) -> list[KnobEffect]:
    """Walks from sacrebleu's knobs to ``knobs`` one knob at a time; each step's score change
    (0..100 scale), so the changes add up to the difference between the two scores."""
    differs = knobs.differences(SACREBLEU)
    effects: list[KnobEffect] = []
    current = SACREBLEU
    before = _percent(_score(hypotheses, references, current), current)
    for name in _WALK:
        if name not in differs:
            continue
        current = current.replace(**{name: getattr(knobs, name)})
        after = _percent(_score(hypotheses, references, current), current)
        was, now = getattr(SACREBLEU, name), getattr(knobs, name)
        effects.append(KnobEffect(label(name), shown(name, was), shown(name, now), after - before))
        before = after
    return effects


def explain(
    hypothesis: Union[str, Sequence[str]],
    references: Union[str, Sequence[Any]],
    *,
    preset: Union[str, BLEUConfig, None] = None,
    compat: Union[str, BLEUConfig, None] = None,
) -> Explanation:
    """Works out the BLEU of one hypothesis against its references under ``preset`` (a
    preset name such as ``"nltk"`` or ``"hf"``, or a :class:`~bleuprint.BLEUConfig`; default
    ``"sacrebleu"``). ``compat=`` is the deprecated old name of ``preset=``."""
    chosen = renamed_keyword(preset, compat, "compat", "sacrebleu")
    if isinstance(references, str):
        references = [references]
    references = as_text_sequence(references, "references")
    if not isinstance(hypothesis, str):
        hypothesis = as_text_sequence(hypothesis, "hypothesis")  # tokens (the "tokens" preset)
    if not references:
        raise InvalidInputError("explain needs at least one reference")
    knobs = BLEUConfig.from_preset(chosen)
    if isinstance(chosen, str):
        found = get_preset(chosen)
        name = f"{found.name}: {found.upstream}"
    else:
        name = "custom knobs"
    hyp = list(hypothesis) if not isinstance(hypothesis, str) else hypothesis
    refs = list(references)
    result = _score([hyp], [refs], knobs)
    hyp_tokens = tokens_of(hyp, knobs)
    ref_tokens = [tokens_of(r, knobs) for r in refs]
    details = ngram_details(hyp_tokens, ref_tokens, knobs.orders)
    precisions = [
        float(p) / (100 if knobs.arithmetic == "sacrebleu" else 1) for p in result.precisions
    ]
    orders = [
        OrderDetail(
            n,
            rows,
            result.counts[n - 1],
            result.totals[n - 1],
            precisions[n - 1] if n <= len(precisions) else 0.0,
        )
        for n, rows in enumerate(details, start=1)
    ]
    weights = knobs.weight_sets[0]
    log_sum = sum(
        w * (math.log(p) if p > 0 else -math.inf)
        for w, p in zip(weights, (o.precision for o in orders))
    )
    with warnings.catch_warnings():
        # nltk's method0 warns at every step of the walk; the score above already did.
        warnings.simplefilter("ignore")
        effects = [] if knobs == SACREBLEU else knob_effects([hyp], [refs], knobs)
    return Explanation(
        preset=name,
        knobs=knobs,
        hypothesis=hyp_tokens,
        references=ref_tokens,
        orders=orders,
        ref_length=result.ref_len,
        ref_length_rule=knobs.ref_length,
        brevity_penalty=float(result.bp),
        weights=weights,
        log_sum=log_sum,
        score=result.score,
        result=result,
        effects=effects,
    )


__all__ = ["Explanation", "KnobEffect", "OrderDetail", "REF_LENGTHS", "explain", "knob_effects"]
