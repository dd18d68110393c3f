"""jiwer 4.0's ``jiwer.process``: the alignment of references with hypotheses, and its outputs.

With jiwer's default transforms (ours or jiwer's own objects) the text is split in the Rust
core; with any other transform, the transforms run in Python and the core aligns their
output. The counts become measures in the core (:func:`jiwer_measures`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from bleuprint.compat.jiwer import transforms
from bleuprint.compat.jiwer.transformations import cer_default, wer_default
from bleuprint.compat.jiwer.transforms import Sentences
from bleuprint.errors import InputTypeError, InvalidInputError
from bleuprint.metrics.scores import gc_paused
from bleuprint.metrics.wer import WERConfig, row_measures

#: The core's splits for jiwer's ``wer_default`` and ``cer_default``.
_CONFIGS = {unit: WERConfig(unit=unit) for unit in ("word", "char")}

__all__ = [
    "AlignmentChunk",
    "CharacterOutput",
    "WordOutput",
    "process_characters",
    "process_words",
]


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


# Classes recognised as jiwer's default steps: jiwer's own, and ours.
_TRANSFORM_MODULES = ("jiwer.transforms", transforms.__name__)
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
    takes the general path, which raises jiwer's own errors. Items that are not str, and text
    with a lone surrogate (which has no UTF-8 form for the core to read), are refused by the
    core; the callers then ask :func:`_needs_python_transforms` and take the general path too,
    where jiwer's Python transforms accept or reject such input as jiwer does.
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
        raise InvalidInputError(
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
        raise InvalidInputError(
            "After applying the transforms on the reference and hypothesis sentences, "
            f"their lengths must match. "
            f"Instead got {len(ref_transformed)} reference and "
            f"{len(hyp_transformed)} hypothesis sentences."
        )
    return ref_transformed, hyp_transformed


def summed_statistics(
    reference: Any, hypothesis: Any, reference_transform: Any, hypothesis_transform: Any
) -> list[int]:
    """Summed ``[S, D, I, H, ref_words, hyp_words]`` of every pair, as Python ints."""
    fast = _fast_inputs(reference, hypothesis, reference_transform, hypothesis_transform)
    if fast is not None:
        unit, refs, hyps = fast
        try:
            return summed_counts(_CONFIGS[unit].pair_rows(hyps, refs))
        except (InputTypeError, InvalidInputError):
            if not _needs_python_transforms(refs, hyps):
                raise
    refs_t, hyps_t = _transformed(reference, hypothesis, reference_transform, hypothesis_transform)
    return summed_counts(_CONFIGS["word"].token_rows(hyps_t, refs_t))


_LONE_SURROGATE = "[\ud800-\udfff]"


def _needs_python_transforms(refs: list[Any], hypotheses: list[Any]) -> bool:
    """Whether an item is not a str (None, a number) or holds a lone surrogate: input the
    core refuses and jiwer's Python transforms accept or reject as jiwer does. Asked only
    after the core refused, so the usual call pays nothing for the scan; for other input the
    core's error stands."""
    return any(
        not isinstance(text, str) or re.search(_LONE_SURROGATE, text)
        for text in (*refs, *hypotheses)
    )


def summed_counts(rows: np.ndarray) -> list[int]:
    """The column sums of ``(n, 6)`` statistics rows as Python ints."""
    return [int(v) for v in rows.sum(axis=0, dtype=np.int64)]


def jiwer_measures(counts: list[int]) -> tuple[Any, Any, Any, Any]:
    """jiwer's ``(wer, mer, wil, wip)`` of summed ``[S, D, I, H, ref_words, hyp_words]``.

    The values come from the core (``wer_measures`` with jiwer's empty-reference rule: WER is
    then the insertion count); only their types are jiwer's here: ints where jiwer's formulas
    give ints (no reference words; WIP and WIL without hypothesis words).
    """
    ((wer, mer, wil, wip),) = row_measures([counts], empty_reference="jiwer")
    _, _, _, _, ref_words, hyp_words = counts
    if ref_words == 0:
        return int(wer), int(mer), int(wil), int(wip)
    if hyp_words == 0:
        return wer, mer, int(wil), int(wip)
    return wer, mer, wil, wip


def _core_alignments(unit: str, refs: list[str], hyps: list[str]) -> Optional[tuple[Any, ...]]:
    """Statistics rows, alignment runs and their offsets, and the tokens, all from the core;
    ``None`` for input the core refuses and jiwer's transforms take (see
    :func:`_fast_inputs`)."""
    try:
        config = _CONFIGS[unit]
        rows, _, ops, offsets = config.pair_alignments(hyps, refs)
        return rows, ops, offsets, config.split(refs), config.split(hyps)
    except (InputTypeError, InvalidInputError):
        if not _needs_python_transforms(refs, hyps):
            raise
        return None


def process_words(
    reference: Sentences,
    hypothesis: Sentences,
    reference_transform: Any = wer_default,
    hypothesis_transform: Any = wer_default,
) -> WordOutput:
    """Word-level alignment and measures of one or more reference/hypothesis pairs.

    Raises
    ------
    InvalidInputError
        (a ``ValueError``, as jiwer raises, with jiwer's message) If the transforms do not
        produce a list of lists of str, or the numbers of transformed references and
        hypotheses differ.
    """
    fast = _fast_inputs(reference, hypothesis, reference_transform, hypothesis_transform)
    with gc_paused():
        aligned = _core_alignments(*fast) if fast is not None else None
        if aligned is not None:
            rows, ops, offsets, refs_t, hyps_t = aligned
        else:
            refs_t, hyps_t = _transformed(
                reference, hypothesis, reference_transform, hypothesis_transform
            )
            rows, _, ops, offsets = _CONFIGS["word"].pair_alignments(hyps_t, refs_t, tokens=True)
        op_rows = ops.tolist()
        bounds = offsets.tolist()
        alignments = [
            [
                AlignmentChunk(_CHUNK_TYPES[t], a, b, c, d)
                for t, a, b, c, d in op_rows[bounds[k] : bounds[k + 1]]
            ]
            for k in range(len(bounds) - 1)
        ]
    counts = summed_counts(rows)
    wer_, mer_, wil_, wip_ = jiwer_measures(counts)
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
