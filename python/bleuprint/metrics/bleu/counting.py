"""Text or tokens to per-segment BLEU counts under the text knobs (tokenizer, lowercase,
reference-length rule). The Rust core does the tokenizing and counting, under the
configuration's kernel; this module only prepares lines (lowercasing, mteval's entity
decoding, torchmetrics' tokenize-then-lowercase) and interns non-str tokens.

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
from bleuprint.metrics.bleu.knobs import Knobs
from bleuprint.tokenizers import get_tokenizer

if TYPE_CHECKING:
    import numpy as np

#: The tokenizers that are not rule-based: SentencePiece and ``ptb`` (the core's PTB scanner,
#: called on its own) tokenize before the kernel counts (their tokens reach it as
#: space-separated text); MeCab runs in the kernel when its bundled library loads
#: (:func:`core_tagger`), else in Python too.
EXTERNAL_TOKENIZERS = (
    "ja-mecab", "ko-mecab", "spm", "flores101", "flores200", "spBLEU-1K", "ptb"
)  # fmt: skip
MECAB_TOKENIZERS = ("ja-mecab", "ko-mecab")


def core_tagger(config: Knobs) -> Any:
    """The MeCab model the core runs for ``ja-mecab``/``ko-mecab`` (loaded on first use), so
    that text crosses into the core once; ``None`` for other tokenizers, or where MeCab runs
    through its Python module (the ``"python"`` backend)."""
    if config.tokenize not in MECAB_TOKENIZERS:
        return None
    tokenizer = get_tokenizer(config.tokenize)
    return None if tokenizer is None else tokenizer.core_tagger


def runs_before_core(config: Knobs) -> bool:
    """Whether the tokens come from a Python-side tokenizer (SentencePiece, MeCab's Python
    backend), run before the core counts them."""
    return config.tokenize in EXTERNAL_TOKENIZERS and core_tagger(config) is None


def core_tokenizer(config: Knobs) -> Optional[str]:
    """The core tokenizer that counts the lines :func:`text_for_core` prepares: ``None`` for
    the caller's token lists, ``none`` after a Python step that tokenizes (a tokenizer run
    before the core, torchmetrics' lowercase-after), ``intl`` for mteval-v14's rules, and
    MeCab's names when the core runs MeCab (:func:`core_tagger`)."""
    if config.tokenize == "tokens":
        return None
    if config.lowercase == "after" or runs_before_core(config):
        return "none"
    return text_tokenizer(config)


def text_tokenizer(config: Knobs) -> str:
    """The core tokenizer of the knobs' tokenizer on text: ``intl`` for mteval-v14's rules,
    ``none`` (whitespace) for the ``tokens`` tokenizer given text."""
    name = config.tokenize
    if name == "tokens":
        return "none"
    return "intl" if name == "mteval-intl" else name


# mteval-v14's tokenization_international, before the regexes sacrebleu's intl shares.
_MTEVAL_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&apos;", "'"))
# Perl's \p{Hyphen} (a deprecated property: hyphens that may break a line).
_HYPHENS = "-\u00ad\u058a\u1806\u2010\u2011\u2e17\u30fb\ufe63\uff0d\uff65"
# Patterns stay strings, compiled (and cached by re) on first use: start-up time.
_LINE_BREAK_HYPHEN = f"[{_HYPHENS}]\u2028"


def mteval_international(line: str) -> str:
    """mteval-v14's steps before its regexes: drop ``<skipped>`` and hyphen + line
    separator, join lines, decode the five SGML entities."""
    line = line.replace("<skipped>", "")
    if "\u2028" in line:
        line = re.sub(_LINE_BREAK_HYPHEN, "", line).replace("\u2028", " ")
    if "&" in line:
        for entity, char in _MTEVAL_ENTITIES:
            line = line.replace(entity, char)
    return line


def lower(stream: Sequence[Any]) -> list[Any]:
    """Python's ``str.lower()`` of every item.

    Python's (not Rust's) so the case mapping follows this interpreter's Unicode tables, as
    sacrebleu's does. Non-str items pass through for the core to report.
    """
    return [s.lower() if isinstance(s, str) else s for s in stream]


def ascii_lower(line: str) -> str:
    """A-Z to a-z, nothing else (Perl's ``tr/A-Z/a-z/``, and ``lc`` on bytes)."""
    return line.encode("utf-8", "surrogatepass").lower().decode("utf-8", "surrogatepass")


def prepares_text(config: Knobs) -> bool:
    """Whether lines change in Python before the core counts them (lowercasing, mteval's
    entity decoding, torchmetrics' lowercase-after); an external tokenizer is not counted
    here."""
    return config.tokenize == "mteval-intl" or config.lowercase is not False


def text_for_core(lines: Sequence[Any], config: Knobs) -> Sequence[Any]:
    """Text lines as the core must count them under ``config`` (with
    :func:`core_tokenizer`): mteval-v14's steps and lowercasing done here, or torchmetrics'
    tokenize-then-lowercase, after which the core only splits on spaces. Non-str items pass
    through for the core to report."""
    if config.lowercase == "after":
        tokenized = _core.tokenize(text_tokenizer(config), list(lines), normalize=config.normalize)
        return [None if t is None else t.lower() for t in tokenized]
    if config.tokenize == "mteval-intl":
        lines = [mteval_international(s) if isinstance(s, str) else s for s in lines]
    if config.lowercase is True:
        return lower(lines)
    if config.lowercase == "ascii":
        return [ascii_lower(s) if isinstance(s, str) else s for s in lines]
    return lines


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


def segment_rows(
    hypotheses: Sequence[Any],
    references: Sequence[Sequence[Any]],
    config: Knobs,
    *,
    workers: int = -1,
) -> np.ndarray:
    """Counts for every hypothesis against its own references (``references[i]`` is the
    list for ``hypotheses[i]``) under ``config``'s counting kernel (up to
    ``config.counting_order``); shape ``(n, 2 + 2 * config.counting_order)``. The ``tokens``
    tokenizer takes token lists, or text split on whitespace."""
    if len(references) != len(hypotheses):
        raise InvalidInputError(
            f"got {len(hypotheses)} hypotheses but {len(references)} reference lists; "
            "pass one list of references per hypothesis"
        )
    text = config.tokenize != "tokens" or (len(hypotheses) > 0 and isinstance(hypotheses[0], str))
    kernel = config.counting_kernel(text)
    if not text:
        try:  # str tokens, the common case, go to the core as they are
            return _core.grouped_stats(kernel, hypotheses, references, workers=workers)
        except InputTypeError:  # some token is not a str
            # Interning maps any hashable tokens to str ids (and reports a bad layout itself);
            # a scan for non-str tokens before every call would cost more than the counting.
            token_hyps, token_refs = _interned(hypotheses, references)
            return _core.grouped_stats(kernel, token_hyps, token_refs, workers=workers)
    if prepares_text(config):
        references = [text_for_core(rs, config) for rs in references]
        hypotheses = text_for_core(hypotheses, config)
    # (Otherwise no per-segment Python work at all.)
    # Lazily: the names are built only if the core refuses some text.
    named = itertools.chain(
        [("hypotheses", hypotheses)],
        ((f"references[{i}]", r) for i, r in enumerate(references)),
    )
    with naming_lone_surrogates(named):
        return _core.grouped_stats(kernel, hypotheses, references, workers=workers)


def tokens_of(line: Any, config: Knobs) -> list[Any]:
    """The tokens BLEU counts for one line under ``config`` (for explain and nltk's methods
    5 and 6, which look at one segment's tokens)."""
    if config.tokenize == "tokens" and not isinstance(line, str):
        return list(line)
    tokenizer = "none" if config.lowercase == "after" else text_tokenizer(config)
    (prepared,) = text_for_core([line], config)
    tokenized = _core.tokenize(tokenizer, [prepared])[0]
    # split-ascii words may hold non-ASCII spaces; the core joins words with " ".
    return (
        [w for w in tokenized.split(" ") if w] if tokenizer == "split-ascii" else tokenized.split()
    )


def token_kernel(max_order: int) -> Any:
    """A kernel that counts token lists up to ``max_order``."""
    return _TOKEN_KERNELS.setdefault(
        max_order, _core.BleuKernel(tokenizer=None, max_order=max_order)
    )


_TOKEN_KERNELS: dict[int, Any] = {}


def clipped_counts(references: Any, hypothesis: Any, n: int) -> tuple[int, int]:
    """nltk's ``modified_precision`` as its two counts: the clipped n-gram matches of
    ``hypothesis`` against ``references``, and its n-grams (at least 1)."""
    refs = list(references)
    if not refs:
        # nltk looks the first hypothesis n-gram up in an empty dict.
        grams = [tuple(hypothesis[i : i + n]) for i in range(len(hypothesis) - n + 1)]
        if grams:
            raise KeyError(grams[0])
        return 0, 1
    hyp, ref_lists = [list(hypothesis)], [[list(r) for r in refs]]
    try:
        row = _core.grouped_stats(token_kernel(n), hyp, ref_lists)[0]
    except InputTypeError:
        hyps, interned = _interned(hyp, ref_lists)
        row = _core.grouped_stats(token_kernel(n), hyps, interned)[0]
    return int(row[1 + n]), max(1, int(row[1 + 2 * n]))


def ngram_details(
    hypothesis: Sequence[str], references: Sequence[Sequence[str]], max_order: int
) -> list[list[tuple[tuple[str, ...], int, int, int]]]:
    """Per order, every distinct hypothesis n-gram with its count, its highest count in any
    reference and its clipped count, in order of first occurrence."""
    return _core.ngram_details(list(hypothesis), [list(r) for r in references], max_order=max_order)
