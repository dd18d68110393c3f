"""jiwer 4.0.0's API, computed by bleuprint's core: ``import bleuprint.compat.jiwer as jiwer``.

The functions take the **reference first**, as jiwer's do, and return exactly what jiwer
returns: the same floats, the same ``int`` where jiwer returns one (``wer`` is the insertion
count when every reference is empty; ``mer``/``wip``/``wil`` are then 0 or 1), the same
``ValueError`` cases, and ``WordOutput``/``CharacterOutput`` objects with the same fields,
including ``alignments`` as lists of :class:`AlignmentChunk`. ``visualize_alignment`` returns
byte-identical text.

Transforms: jiwer's transform classes and the compositions ``wer_default``, ``cer_default``,
``wer_standardize``, ``wer_contiguous``, ``wer_standardize_contiguous`` and ``cer_contiguous``
are provided here, so jiwer need not be installed. Any callable with jiwer's transform
contract also works, jiwer's own transform objects included. With the default transforms (ours
or jiwer's) the text is split in the Rust core; otherwise the transforms run in Python and the
core aligns their output.

Differences: the output classes are bleuprint's (equal field by field to jiwer's, but not
instances of jiwer's classes), and there is no command-line tool.
"""

from __future__ import annotations

import re
import string
from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Optional, Union

from bleuprint import _core, _wer_text

__all__ = [
    "AbstractTransform",
    "AlignmentChunk",
    "CharacterOutput",
    "Compose",
    "ExpandCommonEnglishContractions",
    "ReduceToListOfListOfChars",
    "ReduceToListOfListOfWords",
    "ReduceToSingleSentence",
    "RemoveEmptyStrings",
    "RemoveKaldiNonWords",
    "RemoveMultipleSpaces",
    "RemovePunctuation",
    "RemoveSpecificWords",
    "RemoveWhiteSpace",
    "Strip",
    "SubstituteRegexes",
    "SubstituteWords",
    "ToLowerCase",
    "ToUpperCase",
    "WordOutput",
    "cer",
    "cer_contiguous",
    "cer_default",
    "collect_error_counts",
    "mer",
    "process_characters",
    "process_words",
    "visualize_alignment",
    "visualize_error_counts",
    "wer",
    "wer_contiguous",
    "wer_default",
    "wer_standardize",
    "wer_standardize_contiguous",
    "wil",
    "wip",
]

Sentences = Union[str, list[str]]

# ---------------------------------------------------------------------------------------------
# Transforms (jiwer.transforms)


class AbstractTransform(ABC):
    """Base class of a transform: a str goes to ``process_string``, a list to
    ``process_list``; anything else is a ``ValueError``."""

    def __call__(self, sentences: Sentences) -> Any:
        if isinstance(sentences, str):
            return self.process_string(sentences)
        if isinstance(sentences, list):
            return self.process_list(sentences)
        raise ValueError(f"input {sentences} was expected to be a string or list of strings")

    @abstractmethod
    def process_string(self, s: str) -> Any:
        """The transform of one sentence (every transform defines it)."""

    def process_list(self, inp: list[str]) -> Any:
        return [self.process_string(s) for s in inp]


class Compose:
    """Chains transforms; a WER pipeline ends with :class:`ReduceToListOfListOfWords`, a CER
    pipeline with :class:`ReduceToListOfListOfChars`."""

    def __init__(self, transforms: list[Any]) -> None:
        self.transforms = transforms

    def __call__(self, text: Any) -> Any:
        for transform in self.transforms:
            text = transform(text)
        return text


class BaseRemoveTransform(AbstractTransform):
    """Replaces each of ``tokens_to_remove`` by ``replace_token``, one after the other."""

    def __init__(self, tokens_to_remove: Iterable[str], replace_token: str = "") -> None:
        self.tokens_to_remove = tokens_to_remove
        self.replace_token = replace_token

    def process_string(self, s: str) -> str:
        for w in self.tokens_to_remove:
            s = s.replace(w, self.replace_token)
        return s


class ReduceToListOfListOfWords(AbstractTransform):
    """Splits each sentence on ``word_delimiter`` (a space), dropping empty strings; an empty
    list of sentences becomes ``[[]]``."""

    def __init__(self, word_delimiter: str = " ") -> None:
        self.word_delimiter = word_delimiter

    def process_string(self, s: str) -> list[list[str]]:
        return [[w for w in s.split(self.word_delimiter) if len(w) >= 1]]

    def process_list(self, inp: list[str]) -> list[list[str]]:
        out = [self.process_string(sentence)[0] for sentence in inp]
        return out if out else [[]]


class ReduceToListOfListOfChars(AbstractTransform):
    """Splits each sentence into its characters; an empty list becomes ``[[]]``."""

    def process_string(self, s: str) -> list[list[str]]:
        return [list(s)]

    def process_list(self, inp: list[str]) -> list[list[str]]:
        out = [self.process_string(sentence)[0] for sentence in inp]
        return out if out else [[]]


class ReduceToSingleSentence(AbstractTransform):
    """Joins the non-empty sentences with ``word_delimiter`` into one."""

    def __init__(self, word_delimiter: str = " ") -> None:
        self.word_delimiter = word_delimiter

    def process_string(self, s: str) -> str:
        return s

    def process_list(self, inp: list[str]) -> list[str]:
        filtered = [i for i in inp if len(i) >= 1]
        if len(filtered) == 0:
            return []
        return [f"{self.word_delimiter}".join(filtered)]


class SubstituteRegexes(AbstractTransform):
    """``re.sub(pattern, replacement, s)`` for each item of ``substitutions``, in order."""

    def __init__(self, substitutions: Mapping[str, str]) -> None:
        self.substitutions = substitutions

    def process_string(self, s: str) -> str:
        for key, value in self.substitutions.items():
            s = re.sub(key, value, s)
        return s


class SubstituteWords(AbstractTransform):
    """Replaces whole words (``\\b`` boundaries) by other words."""

    def __init__(self, substitutions: Mapping[str, str]) -> None:
        self.substitutions = substitutions

    def process_string(self, s: str) -> str:
        for key, value in self.substitutions.items():
            s = re.sub(rf"\b{re.escape(key)}\b", value, s)
        return s


class RemoveSpecificWords(SubstituteWords):
    """Replaces each of ``words_to_remove`` (whole words) by a space."""

    def __init__(self, words_to_remove: list[str]) -> None:
        super().__init__({word: " " for word in words_to_remove})


class RemoveWhiteSpace(BaseRemoveTransform):
    """Removes ``string.whitespace`` characters, or replaces them by spaces."""

    def __init__(self, replace_by_space: bool = False) -> None:
        super().__init__(list(string.whitespace), replace_token=" " if replace_by_space else "")


class RemovePunctuation(BaseRemoveTransform):
    """Removes every character whose Unicode category starts with ``P``."""

    def __init__(self) -> None:
        super().__init__(_wer_text.punctuation_characters())

    def process_string(self, s: str) -> str:
        # Deleting each character in turn is deleting them all at once.
        return _wer_text.remove_punctuation(s)


class RemoveMultipleSpaces(AbstractTransform):
    """``re.sub(r"\\s\\s+", " ", s)``: runs of whitespace become one space."""

    def process_string(self, s: str) -> str:
        return _wer_text.remove_multiple_spaces(s)


class Strip(AbstractTransform):
    """``s.strip()``."""

    def process_string(self, s: str) -> str:
        return s.strip()


class RemoveEmptyStrings(AbstractTransform):
    """Drops sentences that are empty after stripping."""

    def process_string(self, s: str) -> str:
        return s.strip()

    def process_list(self, inp: list[str]) -> list[str]:
        return [s for s in inp if self.process_string(s) != ""]


class ExpandCommonEnglishContractions(AbstractTransform):
    """``won't`` → ``will not``, ``can't`` → ``can not``, ``let's`` → ``let us``, then
    ``n't``, ``'re``, ``'s``, ``'d``, ``'ll``, ``'t``, ``'ve``, ``'m`` → `` not``, `` are``..."""

    def process_string(self, s: str) -> str:
        return _wer_text.expand_contractions(s)


class ToLowerCase(AbstractTransform):
    """``s.lower()``."""

    def process_string(self, s: str) -> str:
        return s.lower()


class ToUpperCase(AbstractTransform):
    """``s.upper()``."""

    def process_string(self, s: str) -> str:
        return s.upper()


class RemoveKaldiNonWords(AbstractTransform):
    """Removes anything between ``[]`` or ``<>``, brackets included."""

    def process_string(self, s: str) -> str:
        return _wer_text.remove_kaldi_non_words(s)


wer_default = Compose([RemoveMultipleSpaces(), Strip(), ReduceToListOfListOfWords()])
wer_contiguous = Compose(
    [RemoveMultipleSpaces(), Strip(), ReduceToSingleSentence(), ReduceToListOfListOfWords()]
)
wer_standardize = Compose(
    [
        ToLowerCase(),
        ExpandCommonEnglishContractions(),
        RemoveKaldiNonWords(),
        RemoveWhiteSpace(replace_by_space=True),
        RemoveMultipleSpaces(),
        Strip(),
        ReduceToListOfListOfWords(),
    ]
)
wer_standardize_contiguous = Compose(
    [
        ToLowerCase(),
        ExpandCommonEnglishContractions(),
        RemoveKaldiNonWords(),
        RemoveWhiteSpace(replace_by_space=True),
        RemoveMultipleSpaces(),
        Strip(),
        ReduceToSingleSentence(),
        ReduceToListOfListOfWords(),
    ]
)
cer_default = Compose([Strip(), ReduceToListOfListOfChars()])
cer_contiguous = Compose([Strip(), ReduceToSingleSentence(), ReduceToListOfListOfChars()])

# ---------------------------------------------------------------------------------------------
# Outputs (jiwer.process)


@dataclass
class AlignmentChunk:
    """``reference[ref_start_idx:ref_end_idx]`` against ``hypothesis[hyp_start_idx:hyp_end_idx]``:
    ``equal``, ``substitute``, ``insert`` or ``delete`` (``replace`` is renamed
    ``substitute``)."""

    type: str
    ref_start_idx: int
    ref_end_idx: int
    hyp_start_idx: int
    hyp_end_idx: int

    def __post_init__(self) -> None:
        if self.type not in ["replace", "insert", "delete", "equal", "substitute"]:
            raise ValueError("")
        if self.type == "replace":
            self.type = "substitute"
        if self.ref_start_idx > self.ref_end_idx:
            raise ValueError(
                f"ref_start_idx={self.ref_start_idx} is larger than ref_end_idx={self.ref_end_idx}"
            )
        if self.hyp_start_idx > self.hyp_end_idx:
            raise ValueError(
                f"hyp_start_idx={self.hyp_start_idx} is larger than hyp_end_idx={self.hyp_end_idx}"
            )


@dataclass
class WordOutput:
    """The result of :func:`process_words`: the transformed sentences, their alignments, the
    measures and the counts (summed over sentences)."""

    references: list[list[str]]
    hypotheses: list[list[str]]
    alignments: list[list[AlignmentChunk]]
    wer: float
    mer: float
    wil: float
    wip: float
    hits: int
    substitutions: int
    insertions: int
    deletions: int


@dataclass
class CharacterOutput:
    """The result of :func:`process_characters`."""

    references: list[list[str]]
    hypotheses: list[list[str]]
    alignments: list[list[AlignmentChunk]]
    cer: float
    hits: int
    substitutions: int
    insertions: int
    deletions: int


# ---------------------------------------------------------------------------------------------
# Computation (jiwer.process, jiwer.measures)

_TRANSFORM_MODULES = ("jiwer.transforms", __name__)
_CHUNK_TYPES = ("equal", "substitute", "delete", "insert")


def _is_step(step: Any, name: str) -> bool:
    cls = type(step)
    return cls.__name__ == name and cls.__module__ in _TRANSFORM_MODULES


def _default_unit(transform: Any) -> Optional[str]:
    """``"word"`` for a transform that is exactly ``wer_default`` (ours or jiwer's), ``"char"``
    for ``cer_default``, else ``None``."""
    if not _is_step(transform, "Compose"):
        return None
    steps = getattr(transform, "transforms", None)
    if not isinstance(steps, list):
        return None
    if (
        len(steps) == 3
        and _is_step(steps[0], "RemoveMultipleSpaces")
        and _is_step(steps[1], "Strip")
        and _is_step(steps[2], "ReduceToListOfListOfWords")
        and getattr(steps[2], "word_delimiter", None) == " "
    ):
        return "word"
    if (
        len(steps) == 2
        and _is_step(steps[0], "Strip")
        and _is_step(steps[1], "ReduceToListOfListOfChars")
    ):
        return "char"
    return None


def _fast_inputs(
    reference: Any, hypothesis: Any, reference_transform: Any, hypothesis_transform: Any
) -> Optional[tuple[str, list[Any], list[Any]]]:
    """(unit, references, hypotheses) when the core can split the text itself, else None.

    Anything unusual (other transforms, containers other than str/list, unequal lengths)
    takes the general path, which raises jiwer's own errors.
    """
    unit = _default_unit(reference_transform)
    if unit is None or _default_unit(hypothesis_transform) != unit:
        return None
    refs = [reference] if isinstance(reference, str) else reference
    hyps = [hypothesis] if isinstance(hypothesis, str) else hypothesis
    if not isinstance(refs, list) or not isinstance(hyps, list):
        return None
    # The Reduce step turns an empty list of sentences into one empty sentence.
    refs = refs or [""]
    hyps = hyps or [""]
    if len(refs) != len(hyps):
        return None
    return unit, refs, hyps


def _apply_transform(sentence: Any, transform: Any, is_reference: bool) -> list[list[str]]:
    transformed = transform(sentence)
    if not _is_list_of_list_of_strings(transformed):
        raise ValueError(
            "After applying the transformation, each "
            f"{'reference' if is_reference else 'hypothesis'} should be a "
            "list of strings, with each string being a single word or character."
            "Please ensure the given transformation reduces the input "
            "to a list of list strings."
        )
    return transformed


def _is_list_of_list_of_strings(x: Any) -> bool:
    if not isinstance(x, list):
        return False
    for e in x:
        if not isinstance(e, list):
            return False
        if not all(isinstance(s, str) for s in e):
            return False
    return True


def _transformed(
    reference: Any, hypothesis: Any, reference_transform: Any, hypothesis_transform: Any
) -> tuple[list[list[str]], list[list[str]]]:
    if isinstance(reference, str):
        reference = [reference]
    if isinstance(hypothesis, str):
        hypothesis = [hypothesis]
    ref_transformed = _apply_transform(reference, reference_transform, is_reference=True)
    hyp_transformed = _apply_transform(hypothesis, hypothesis_transform, is_reference=False)
    if len(ref_transformed) != len(hyp_transformed):
        raise ValueError(
            "After applying the transforms on the reference and hypothesis sentences, "
            f"their lengths must match. "
            f"Instead got {len(ref_transformed)} reference and "
            f"{len(hyp_transformed)} hypothesis sentences."
        )
    return ref_transformed, hyp_transformed


def _counts(
    reference: Any, hypothesis: Any, reference_transform: Any, hypothesis_transform: Any
) -> list[int]:
    """Summed ``[S, D, I, H, ref_words, hyp_words]`` as Python ints."""
    fast = _fast_inputs(reference, hypothesis, reference_transform, hypothesis_transform)
    if fast is not None:
        unit, refs, hyps = fast
        try:
            rows = _core.wer_stats(hyps, [refs], unit=unit)
        except (TypeError, ValueError):
            pass  # non-str items, None or lone surrogates: the general path decides
        else:
            return [int(v) for v in rows.sum(axis=0)]
    refs_t, hyps_t = _transformed(reference, hypothesis, reference_transform, hypothesis_transform)
    rows = _core.wer_token_stats(hyps_t, refs_t)
    return [int(v) for v in rows.sum(axis=0)]


def _measures(counts: list[int]) -> tuple[Any, Any, Any, Any]:
    """jiwer's (wer, mer, wil, wip), including its ints for empty references."""
    s, d, i, h, num_rf_words, num_hp_words = counts
    if num_rf_words == 0:
        wer: Any = i
        mer: Any
        wip: Any
        if num_hp_words == 0:
            mer, wip = 0, 1
        else:
            mer, wip = 1, 0
    else:
        wer = float(s + d + i) / float(h + s + d)
        mer = float(s + d + i) / float(h + s + d + i)
        wip = (float(h) / num_rf_words) * (float(h) / num_hp_words) if num_hp_words >= 1 else 0
    return wer, mer, 1 - wip, wip


def process_words(
    reference: Sentences,
    hypothesis: Sentences,
    reference_transform: Any = wer_default,
    hypothesis_transform: Any = wer_default,
) -> WordOutput:
    """Word-level alignment and measures of one or more reference/hypothesis pairs.

    Raises
    ------
    ValueError
        If the transforms do not produce a list of lists of str, or the numbers of
        transformed references and hypotheses differ.
    """
    fast = _fast_inputs(reference, hypothesis, reference_transform, hypothesis_transform)
    aligned = None
    with _wer_text.gc_paused():
        if fast is not None:
            unit, refs, hyps = fast
            try:
                aligned = _core.wer_alignments(hyps, [refs], unit=unit)
                refs_t = _core.wer_tokens(refs, unit=unit)
                hyps_t = _core.wer_tokens(hyps, unit=unit)
            except (TypeError, ValueError):
                aligned = None  # as in _counts
        if aligned is not None:
            rows, _, ops, offsets = aligned
        else:
            refs_t, hyps_t = _transformed(
                reference, hypothesis, reference_transform, hypothesis_transform
            )
            rows, _, ops, offsets = _core.wer_token_alignments(hyps_t, refs_t)
        op_rows = ops.tolist()
        bounds = offsets.tolist()
        alignments = [
            [
                AlignmentChunk(_CHUNK_TYPES[t], a, b, c, d)
                for t, a, b, c, d in op_rows[bounds[k] : bounds[k + 1]]
            ]
            for k in range(len(bounds) - 1)
        ]
    counts = [int(v) for v in rows.sum(axis=0)]
    wer_, mer_, wil_, wip_ = _measures(counts)
    s, d, i, h = counts[:4]
    return WordOutput(
        references=refs_t,
        hypotheses=hyps_t,
        alignments=alignments,
        wer=wer_,
        mer=mer_,
        wil=wil_,
        wip=wip_,
        hits=h,
        substitutions=s,
        insertions=i,
        deletions=d,
    )


def process_characters(
    reference: Sentences,
    hypothesis: Sentences,
    reference_transform: Any = cer_default,
    hypothesis_transform: Any = cer_default,
) -> CharacterOutput:
    """Character-level alignment and CER of one or more reference/hypothesis pairs. Spaces
    count as characters."""
    result = process_words(reference, hypothesis, reference_transform, hypothesis_transform)
    return CharacterOutput(
        references=result.references,
        hypotheses=result.hypotheses,
        alignments=result.alignments,
        cer=result.wer,
        hits=result.hits,
        substitutions=result.substitutions,
        insertions=result.insertions,
        deletions=result.deletions,
    )


def wer(
    reference: Sentences = None,  # type: ignore[assignment]
    hypothesis: Sentences = None,  # type: ignore[assignment]
    reference_transform: Any = wer_default,
    hypothesis_transform: Any = wer_default,
) -> float:
    """Word error rate ``(S + D + I) / (H + S + D)`` of one or more sentences."""
    return _measures(_counts(reference, hypothesis, reference_transform, hypothesis_transform))[0]


def mer(
    reference: Sentences = None,  # type: ignore[assignment]
    hypothesis: Sentences = None,  # type: ignore[assignment]
    reference_transform: Any = wer_default,
    hypothesis_transform: Any = wer_default,
) -> float:
    """Match error rate ``(S + D + I) / (H + S + D + I)``."""
    return _measures(_counts(reference, hypothesis, reference_transform, hypothesis_transform))[1]


def wil(
    reference: Sentences = None,  # type: ignore[assignment]
    hypothesis: Sentences = None,  # type: ignore[assignment]
    reference_transform: Any = wer_default,
    hypothesis_transform: Any = wer_default,
) -> float:
    """Word information lost, ``1 - wip``."""
    return _measures(_counts(reference, hypothesis, reference_transform, hypothesis_transform))[2]


def wip(
    reference: Sentences = None,  # type: ignore[assignment]
    hypothesis: Sentences = None,  # type: ignore[assignment]
    reference_transform: Any = wer_default,
    hypothesis_transform: Any = wer_default,
) -> float:
    """Word information preserved, ``(H / N_ref) * (H / N_hyp)``."""
    return _measures(_counts(reference, hypothesis, reference_transform, hypothesis_transform))[3]


def cer(
    reference: Sentences = None,  # type: ignore[assignment]
    hypothesis: Sentences = None,  # type: ignore[assignment]
    reference_transform: Any = cer_default,
    hypothesis_transform: Any = cer_default,
) -> float:
    """Character error rate: the WER formula over characters (spaces included)."""
    return _measures(_counts(reference, hypothesis, reference_transform, hypothesis_transform))[0]


# ---------------------------------------------------------------------------------------------
# Visualisation (jiwer.alignment)


def _is_char_output(output: Any) -> bool:
    return isinstance(output, CharacterOutput) or type(output).__name__ == "CharacterOutput"


def _is_word_output(output: Any) -> bool:
    return isinstance(output, WordOutput) or type(output).__name__ == "WordOutput"


def visualize_alignment(
    output: Union[WordOutput, CharacterOutput],
    show_measures: bool = True,
    skip_correct: bool = True,
    line_width: Optional[int] = None,
) -> str:
    """The alignment of every sentence as ``REF:``/``HYP:``/marks lines, then (with
    ``show_measures``) the counts and measures; sentences without errors are skipped unless
    ``skip_correct=False``. ``line_width`` wraps long sentences (best effort)."""
    is_cer = _is_char_output(output)
    sentences = [
        (
            reference,
            hypothesis,
            [
                (c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx)
                for c in chunks
            ],
        )
        for reference, hypothesis, chunks in zip(
            output.references, output.hypotheses, output.alignments
        )
    ]
    if is_cer:
        measures = [("cer", output.cer)]  # type: ignore[union-attr]
    else:
        measures = [
            ("mer", output.mer),  # type: ignore[union-attr]
            ("wil", output.wil),  # type: ignore[union-attr]
            ("wip", output.wip),  # type: ignore[union-attr]
            ("wer", output.wer),  # type: ignore[union-attr]
        ]
    counts = (output.substitutions, output.deletions, output.insertions, output.hits)
    return _wer_text.visualize(
        sentences,
        counts if show_measures else None,
        measures,
        is_char=is_cer,
        skip_correct=skip_correct,
        line_width=line_width,
        sentence_count=len(output.alignments),
    )


def collect_error_counts(
    output: Union[WordOutput, CharacterOutput],
) -> tuple[dict[Any, int], dict[str, int], dict[str, int]]:
    """How often each word (or character) was substituted, inserted and deleted: three
    ``defaultdict``\\ s; substitutions are keyed by ``(reference, hypothesis)``."""
    substitutions: dict[Any, int] = defaultdict(lambda: 0)
    insertions: dict[str, int] = defaultdict(lambda: 0)
    deletions: dict[str, int] = defaultdict(lambda: 0)
    sep = " " if _is_word_output(output) else ""
    for idx, sentence_chunks in enumerate(output.alignments):
        ref = output.references[idx]
        hyp = output.hypotheses[idx]
        for chunk in sentence_chunks:
            if chunk.type == "insert":
                insertions[sep.join(hyp[chunk.hyp_start_idx : chunk.hyp_end_idx])] += 1
            if chunk.type == "delete":
                deletions[sep.join(ref[chunk.ref_start_idx : chunk.ref_end_idx])] += 1
            if chunk.type == "substitute":
                replaced = sep.join(ref[chunk.ref_start_idx : chunk.ref_end_idx])
                by = sep.join(hyp[chunk.hyp_start_idx : chunk.hyp_end_idx])
                substitutions[(replaced, by)] += 1
    return substitutions, insertions, deletions


def visualize_error_counts(
    output: Union[WordOutput, CharacterOutput],
    show_substitutions: bool = True,
    show_insertions: bool = True,
    show_deletions: bool = True,
    top_k: Optional[int] = None,
) -> str:
    """The substituted, inserted and deleted words (or characters) with their frequencies."""
    s, i, d = collect_error_counts(output)

    def build_list(errors: dict[Any, int]) -> str:
        if len(errors) == 0:
            return "none"
        keys = sorted(errors.keys(), reverse=True, key=lambda k: errors[k])
        if top_k is not None:
            keys = keys[:top_k]
        ln = max(len(k) if isinstance(k, str) else max(len(e) for e in k) for k in keys)
        build = ""
        for count, (k, v) in enumerate(
            sorted(errors.items(), key=lambda tpl: tpl[1], reverse=True)
        ):
            if top_k is not None and count >= top_k:
                break
            if isinstance(k, tuple):
                build += f"{k[0]: <{ln}} --> {k[1]:<{ln}} = {v}x\n"
            else:
                build += f"{k:<{ln}} = {v}x\n"
        return build

    out = ""
    for show, title, errors in (
        (show_substitutions, "SUBSTITUTIONS", s),
        (show_insertions, "INSERTIONS", i),
        (show_deletions, "DELETIONS", d),
    ):
        if show:
            if out != "":
                out += "\n"
            out += f"=== {title} ===\n"
            out += build_list(errors)
    if out[-1:] == "\n":
        out = out[:-1]
    return out
