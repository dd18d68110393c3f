"""Text or tokens to per-segment BLEU counts under the text knobs (tokenizer, lowercase,
reference-length rule). The Rust core does the tokenizing and counting; this module only
prepares lines (lowercasing, mteval's entity decoding) and interns non-str tokens.

A row is ``[hyp_len, ref_len, correct_1..N, total_1..N]``; with ``ref_length="average"``
the ``ref_len`` column holds the segment's summed reference lengths (rows are integers).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, Optional

from bleuprint import _core
from bleuprint.errors import InputTypeError, InvalidInputError, ReferenceLayoutError
from bleuprint.io.layout import naming_lone_surrogates
from bleuprint.metrics.bleu.fraction import Fraction
from bleuprint.metrics.bleu.knobs import BleuKnobs
from bleuprint.metrics.metric import lower

if TYPE_CHECKING:
    import numpy as np


def _core_tokenizer(knobs: BleuKnobs) -> str:
    """The core tokenizer behind a tokenizer knob (mteval-intl is intl after a Python step)."""
    return "intl" if knobs.tokenizer == "mteval-intl" else knobs.tokenizer


def text_knobs(knobs: BleuKnobs) -> BleuKnobs:
    """The knobs for counting text: the "tokens" tokenizer (nltk's caller-made token lists)
    reads text as whitespace-split tokens."""
    return knobs.replace(tokenizer="none") if knobs.tokenizer == "tokens" else knobs


# mteval-v14's tokenization_international, before the regexes sacrebleu's intl shares.
_MTEVAL_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&apos;", "'"))
# Perl's \p{Hyphen} (a deprecated property: hyphens that may break a line).
_HYPHENS = "-\u00ad\u058a\u1806\u2010\u2011\u2e17\u30fb\ufe63\uff0d\uff65"
_LINE_BREAK_HYPHEN = re.compile(f"[{_HYPHENS}]\u2028")


def mteval_international(line: str) -> str:
    """mteval-v14's steps before its regexes: drop ``<skipped>`` and hyphen + line
    separator, join lines, decode the five SGML entities."""
    line = line.replace("<skipped>", "")
    if "\u2028" in line:
        line = _LINE_BREAK_HYPHEN.sub("", line).replace("\u2028", " ")
    if "&" in line:
        for entity, char in _MTEVAL_ENTITIES:
            line = line.replace(entity, char)
    return line


def ascii_lower(line: str) -> str:
    """A-Z to a-z, nothing else (Perl's ``tr/A-Z/a-z/``, and ``lc`` on bytes)."""
    return line.encode("utf-8", "surrogatepass").lower().decode("utf-8", "surrogatepass")


def _needs_preparing(knobs: BleuKnobs) -> bool:
    return knobs.tokenizer == "mteval-intl" or knobs.lowercase in ("unicode", "ascii")


def _prepare(lines: Sequence[Any], knobs: BleuKnobs) -> Sequence[Any]:
    """Lines as the tokenizer must see them: mteval-v14's entity decoding, then lowercasing
    (non-str items pass through for the core to report)."""
    if knobs.tokenizer == "mteval-intl":
        lines = [mteval_international(s) if isinstance(s, str) else s for s in lines]
    if knobs.lowercase == "unicode":
        return lower(lines)
    if knobs.lowercase == "ascii":
        return [ascii_lower(s) if isinstance(s, str) else s for s in lines]
    return lines


def _lower_after(lines: Sequence[Any], tokenizer: str) -> list[str]:
    """torchmetrics' order: tokenize, then ``str.lower()`` the tokenized line."""
    return [t.lower() for t in _core.tokenize(list(lines), tokenizer)]


class _Interner:
    """Maps hashable tokens of any type to distinct strings, as Python equality groups them
    (so ``1``, ``1.0`` and ``True`` are one token, as in nltk's ``Counter``)."""

    def __init__(self) -> None:
        self.ids: dict[Hashable, str] = {}

    def __call__(self, tokens: Sequence[Hashable], where: str) -> list[str]:
        try:
            return [self.ids.setdefault(t, str(len(self.ids))) for t in tokens]
        except TypeError:
            raise ReferenceLayoutError(
                f"{where} must be a sequence of hashable tokens (e.g. list[str]), "
                f"got {type(tokens).__name__}"
            ) from None


def _interned(
    hypotheses: Sequence[Any], references: Sequence[Sequence[Any]]
) -> tuple[list[list[str]], list[list[list[str]]]]:
    intern = _Interner()
    hyps = [intern(h, f"hypotheses[{i}]") for i, h in enumerate(hypotheses)]
    refs = [
        [intern(r, f"references[{i}][{k}]") for k, r in enumerate(rs)]
        for i, rs in enumerate(references)
    ]
    return hyps, refs


def text_for_core(lines: Sequence[Any], knobs: BleuKnobs) -> tuple[Sequence[Any], str]:
    """Text lines as the core must count them under ``knobs`` (a text tokenizer), and the core
    tokenizer that counts them: mteval-v14's steps and lowercasing done here, or torchmetrics'
    tokenize-then-lowercase, after which the core only splits on spaces."""
    tokenizer = _core_tokenizer(knobs)
    if knobs.lowercase == "after":
        return _lower_after(lines, tokenizer), "none"
    if _needs_preparing(knobs):
        return _prepare(lines, knobs), tokenizer
    return lines, tokenizer


def segment_rows(
    hypotheses: Sequence[Any],
    references: Sequence[Sequence[Any]],
    knobs: BleuKnobs,
    *,
    max_order: Optional[int] = None,
    workers: int = -1,
) -> np.ndarray:
    """Counts for every hypothesis against its own references (``references[i]`` is the
    list for ``hypotheses[i]``); shape ``(n, 2 + 2 * max_order)``."""
    order = max_order if max_order is not None else knobs.orders
    if len(references) != len(hypotheses):
        raise InvalidInputError(
            f"got {len(hypotheses)} hypotheses but {len(references)} reference lists; "
            "pass one list of references per hypothesis"
        )
    kwargs: dict[str, Any] = {
        "max_order": order,
        "ref_length": knobs.ref_length,
        "workers": workers,
    }
    if knobs.tokenizer == "tokens":
        try:  # str tokens, the common case, go to the core as they are
            return _core.bleu_grouped_stats(hypotheses, references, tokenizer=None, **kwargs)
        except InputTypeError:  # some token is not a str
            # Interning maps any hashable tokens to str ids (and reports a bad layout itself);
            # a scan for non-str tokens before every call would cost more than the counting.
            token_hyps, token_refs = _interned(hypotheses, references)
            return _core.bleu_grouped_stats(token_hyps, token_refs, tokenizer=None, **kwargs)
    if knobs.lowercase == "after" or _needs_preparing(knobs):
        references = [text_for_core(rs, knobs)[0] for rs in references]
    # (Otherwise no per-segment Python work at all.)
    hypotheses, tokenizer = text_for_core(hypotheses, knobs)
    # Lazily: the names are built only if the core refuses some text.
    named = itertools.chain(
        [("hypotheses", hypotheses)],
        ((f"references[{i}]", r) for i, r in enumerate(references)),
    )
    with naming_lone_surrogates(named):
        return _core.bleu_grouped_stats(hypotheses, references, tokenizer=tokenizer, **kwargs)


def tokens_of(line: Any, knobs: BleuKnobs) -> list[Any]:
    """The tokens BLEU counts for one line under ``knobs`` (for explain and nltk's methods
    5 and 6, which look at one segment's tokens)."""
    if knobs.tokenizer == "tokens":
        return list(line)
    tokenizer = _core_tokenizer(knobs)
    if knobs.lowercase == "after":
        return _lower_after([line], tokenizer)[0].split()
    (lowered,) = _prepare([line], knobs)
    tokenized = _core.tokenize([lowered], tokenizer)[0]
    # split-ascii words may hold non-ASCII spaces; the core joins words with " ".
    return (
        [w for w in tokenized.split(" ") if w] if tokenizer == "split-ascii" else tokenized.split()
    )


def modified_precision(references: Any, hypothesis: Any, n: int) -> Fraction:
    """nltk's ``modified_precision``: clipped n-gram matches over hypothesis n-grams, the
    denominator at least 1, as a :class:`Fraction` that keeps both counts."""
    refs = list(references)
    if not refs:
        # nltk looks the first hypothesis n-gram up in an empty dict.
        grams = [tuple(hypothesis[i : i + n]) for i in range(len(hypothesis) - n + 1)]
        if grams:
            raise KeyError(grams[0])
        return Fraction(0, 1)
    row = segment_rows([hypothesis], [refs], BleuKnobs(tokenizer="tokens"), max_order=n)[0]
    return Fraction(int(row[1 + n]), max(1, int(row[1 + 2 * n])))


def ngram_details(
    hypothesis: Sequence[str], references: Sequence[Sequence[str]], max_order: int
) -> list[list[tuple[tuple[str, ...], int, int, int]]]:
    """Per order, every distinct hypothesis n-gram with its count, its highest count in any
    reference and its clipped count, in order of first occurrence."""
    return _core.bleu_ngram_details(
        list(hypothesis), [list(r) for r in references], max_order=max_order
    )
