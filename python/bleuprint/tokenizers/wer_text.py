"""Text operations shared by the native WER API and ``bleuprint.compat.jiwer``.

Each function does what the jiwer 4.0.0 transform of the same name does to one string, with
the same regular expressions (Python's ``re``) and character sets, so both APIs agree with
jiwer. Also here: jiwer's text rendering of an alignment (``visualize_alignment``).
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Sequence
from typing import Any, Optional

# ExpandCommonEnglishContractions, in jiwer's order: specific words first, then suffixes.
_CONTRACTIONS = [
    (re.compile(r"won't"), "will not"),
    (re.compile(r"can\'t"), "can not"),
    (re.compile(r"let\'s"), "let us"),
    (re.compile(r"n\'t"), " not"),
    (re.compile(r"\'re"), " are"),
    (re.compile(r"\'s"), " is"),
    (re.compile(r"\'d"), " would"),
    (re.compile(r"\'ll"), " will"),
    (re.compile(r"\'t"), " not"),
    (re.compile(r"\'ve"), " have"),
    (re.compile(r"\'m"), " am"),
]
# Patterns stay strings, compiled (and cached by re) on first use: start-up time.
_KALDI_NON_WORD = r"[<\[][^>\]]*[>\]]"
_MULTIPLE_SPACES = r"\s\s+"
#: Python's ``string.whitespace``, written out: importing ``string`` costs start-up 0.5 ms.
_WHITESPACE = " \t\n\r\x0b\x0c"
_WHITESPACE_TO_SPACE = {ord(c): " " for c in _WHITESPACE}
_WHITESPACE_REMOVED: dict[int, Optional[str]] = {ord(c): None for c in _WHITESPACE}

#: ``(type, ref_start, ref_end, hyp_start, hyp_end)``.
Op = tuple[str, int, int, int, int]


def expand_contractions(s: str) -> str:
    """jiwer's ``ExpandCommonEnglishContractions``: ``can't`` → ``can not``, ``'re`` → ``are``..."""
    for pattern, replacement in _CONTRACTIONS:
        s = pattern.sub(replacement, s)
    return s


def remove_kaldi_non_words(s: str) -> str:
    """jiwer's ``RemoveKaldiNonWords``: drops ``[noise]``, ``<unk>`` and the like."""
    return re.sub(_KALDI_NON_WORD, "", s)


def remove_multiple_spaces(s: str) -> str:
    """jiwer's ``RemoveMultipleSpaces``: every run of 2+ whitespace characters becomes one space."""
    return re.sub(_MULTIPLE_SPACES, " ", s)


@functools.lru_cache(maxsize=1)
def punctuation_characters() -> frozenset[str]:
    """Every character whose Unicode category starts with ``P`` (this interpreter's tables).

    The scan of all of Unicode takes about 0.3 s, so it runs once per process, as jiwer's
    ``_get_punctuation_characters`` does; frozen because every caller shares it.
    """
    import unicodedata  # start-up time: only removing punctuation reads the tables

    return frozenset(
        c for c in map(chr, range(sys.maxunicode + 1)) if unicodedata.category(c)[0] == "P"
    )


@functools.lru_cache(maxsize=1)
def _punctuation_table() -> dict[int, None]:
    return {ord(c): None for c in punctuation_characters()}


def remove_punctuation(s: str) -> str:
    """jiwer's ``RemovePunctuation``: deletes every character of a ``P*`` Unicode category."""
    return s.translate(_punctuation_table())


def whitespace_to_space(s: str) -> str:
    """jiwer's ``RemoveWhiteSpace(replace_by_space=True)``: each of ``string.whitespace``
    (space, tab, newline, CR, VT, FF) becomes a space."""
    return s.translate(_WHITESPACE_TO_SPACE)


def remove_whitespace(s: str) -> str:
    """jiwer's ``RemoveWhiteSpace()``: deletes each of ``string.whitespace``."""
    return s.translate(_WHITESPACE_REMOVED)


def comparison_string(
    reference: Sequence[str],
    hypothesis: Sequence[str],
    ops: Sequence[Op],
    include_space_separator: bool,
    line_width: Optional[int] = None,
) -> str:
    """The ``REF:``/``HYP:``/marks block of one sentence, byte for byte as jiwer renders it.

    ``ops`` are ``(type, ref_start, ref_end, hyp_start, hyp_end)`` with jiwer's types
    (``equal``, ``substitute``, ``delete``, ``insert``); an ``equal`` run of unequal lengths is
    a merged compound, drawn as one column.
    """
    ref_str = "REF: "
    hyp_str = "HYP: "
    op_str = "     "
    done = ""  # finished line groups when wrapping at line_width
    for kind, ref_start, ref_end, hyp_start, hyp_end in ops:
        if kind == "equal" and ref_end - ref_start != hyp_end - hyp_start:
            # A merged compound (kaldialign's merge_compounds; jiwer has none): its words
            # joined with spaces on each side, as kaldialign's align() gives them.
            refs = [" ".join(reference[ref_start:ref_end])]
            hyps = [" ".join(hypothesis[hyp_start:hyp_end])]
            mark = " "
        elif kind in ("equal", "substitute"):
            refs = list(reference[ref_start:ref_end])
            hyps = list(hypothesis[hyp_start:hyp_end])
            mark = " " if kind == "equal" else "S"
        elif kind == "delete":
            refs = list(reference[ref_start:ref_end])
            hyps = ["*"] * len(refs)
            mark = "D"
        elif kind == "insert":
            hyps = list(hypothesis[hyp_start:hyp_end])
            refs = ["*"] * len(hyps)
            mark = "I"
        else:
            raise ValueError(f"unparseable op name={kind}")
        for rf, hp in zip(refs, hyps):
            width = max(len(rf), len(hp), 1)
            if line_width is not None and len(ref_str) + width > line_width:
                if include_space_separator:
                    done += f"{ref_str[:-1]}\n{hyp_str[:-1]}\n{op_str[:-1]}\n\n"
                else:
                    done += f"{ref_str}\n{hyp_str}\n{op_str}\n\n"
                ref_str = "REF: "
                hyp_str = "HYP: "
                op_str = "     "
            # jiwer pads the placeholder of a gap (and stretches any token that is "*").
            if rf == "*":
                rf = "*" * width
            elif hp == "*":
                hp = "*" * width
            ref_str += f"{rf:>{width}}"
            hyp_str += f"{hp:>{width}}"
            op_str += f"{mark:>{width}}"
            if include_space_separator:
                ref_str += " "
                hyp_str += " "
                op_str += " "
    if include_space_separator:
        return done + f"{ref_str[:-1]}\n{hyp_str[:-1]}\n{op_str[:-1]}\n"
    return done + f"{ref_str}\n{hyp_str}\n{op_str}\n"


def visualize(
    sentences: Sequence[tuple[Sequence[str], Sequence[str], Sequence[Op]]],
    counts: Optional[tuple[Any, Any, Any, Any]],
    measures: Sequence[tuple[str, float]],
    is_char: bool,
    skip_correct: bool = True,
    line_width: Optional[int] = None,
    sentence_count: Optional[int] = None,
) -> str:
    """jiwer's ``visualize_alignment`` text.

    ``sentences`` are ``(reference tokens, hypothesis tokens, ops)``; ``counts`` are
    ``(substitutions, deletions, insertions, hits)`` for the summary, or ``None`` for no
    summary; ``measures`` are ``(name, value)`` pairs printed as percentages;
    ``sentence_count`` (default ``len(sentences)``) is the count the summary reports.
    """
    out = ""
    for index, (reference, hypothesis, ops) in enumerate(sentences):
        if skip_correct and (len(ops) == 0 or (len(ops) == 1 and ops[0][0] == "equal")):
            continue
        out += f"=== SENTENCE {index + 1} ===\n\n"
        out += comparison_string(reference, hypothesis, ops, not is_char, line_width)
        out += "\n"
    if counts is None:
        return out[:-1]
    substitutions, deletions, insertions, hits = counts
    out += "=== SUMMARY ===\n"
    count = len(sentences) if sentence_count is None else sentence_count
    out += f"number of sentences: {count}\n"
    out += f"substitutions={substitutions} deletions={deletions} insertions={insertions} "
    out += f"hits={hits}\n"
    out += "\n"
    out += "\n".join(f"{name}={value * 100:.2f}%" for name, value in measures)
    return out + "\n"
