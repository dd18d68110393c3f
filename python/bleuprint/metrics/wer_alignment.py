"""The WER family's alignment view: each segment's runs of equal, substituted, deleted and
inserted tokens against its best reference, drawn as jiwer draws them.

The statistics and scores live in :mod:`bleuprint.metrics.wer`; this module only turns the
core's alignment rows into objects and text.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple, Optional, Protocol, Union, overload

from bleuprint.tokenizers import wer_text as _wer_text


class Measured(Protocol):
    """What the alignment view reads of a corpus score (a ``WERScore``)."""

    substitutions: int
    deletions: int
    insertions: int
    hits: int
    wer: float
    mer: float
    wil: float
    wip: float


class AlignmentOp(NamedTuple):
    """One run of the alignment: ``reference[ref_start:ref_end]`` and
    ``hypothesis[hyp_start:hyp_end]`` are ``equal``, a ``substitute``, a ``delete`` (only
    reference tokens) or an ``insert`` (only hypothesis tokens)."""

    type: str
    ref_start: int
    ref_end: int
    hyp_start: int
    hyp_end: int


_OP_TYPES = ("equal", "substitute", "delete", "insert")


class SegmentAlignment:
    """The alignment of one hypothesis with its (best) reference.

    Attributes
    ----------
    reference, hypothesis : list of str
        The tokens that were aligned (words, or characters for CER).
    ops : list of AlignmentOp
        The runs, in order.
    reference_index : int
        The reference stream aligned with (the one with the fewest edits).
    substitutions, deletions, insertions, hits, ref_words, hyp_words : int
        The segment's statistics.
    """

    def __init__(
        self,
        reference: list[str],
        hypothesis: list[str],
        ops: list[AlignmentOp],
        reference_index: int,
        row: Sequence[int],
        unit: str,
    ) -> None:
        self.reference = reference
        self.hypothesis = hypothesis
        self.ops = ops
        self.reference_index = reference_index
        (
            self.substitutions,
            self.deletions,
            self.insertions,
            self.hits,
            self.ref_words,
            self.hyp_words,
        ) = (int(v) for v in row)
        self.unit = unit

    def visualize(self, line_width: Optional[int] = None) -> str:
        """The ``REF:``, ``HYP:`` and marks (``S``, ``D``, ``I``) lines, as jiwer draws them.

        ``line_width`` wraps long segments into several blocks (best effort, as in jiwer).
        """
        return _wer_text.comparison_string(
            self.reference, self.hypothesis, self.ops, self.unit == "word", line_width
        )

    def __repr__(self) -> str:
        return (
            f"SegmentAlignment(S={self.substitutions}, D={self.deletions}, "
            f"I={self.insertions}, H={self.hits}, reference_index={self.reference_index})"
        )


class Alignments(Sequence[SegmentAlignment]):
    """Every segment's alignment, with the corpus score (a sequence of
    :class:`SegmentAlignment`)."""

    def __init__(self, segments: list[SegmentAlignment], score: Measured, unit: str) -> None:
        self.segments = segments
        self.score = score
        self.unit = unit

    @overload
    def __getitem__(self, index: int) -> SegmentAlignment: ...

    @overload
    def __getitem__(self, index: slice) -> list[SegmentAlignment]: ...

    def __getitem__(
        self, index: Union[int, slice]
    ) -> Union[SegmentAlignment, list[SegmentAlignment]]:
        return self.segments[index]

    def __len__(self) -> int:
        return len(self.segments)

    def __iter__(self) -> Iterator[SegmentAlignment]:
        return iter(self.segments)

    def visualize(
        self,
        show_measures: bool = True,
        skip_correct: bool = True,
        line_width: Optional[int] = None,
    ) -> str:
        """jiwer's ``visualize_alignment`` text: a ``=== SENTENCE i ===`` block per segment
        with errors (every segment when ``skip_correct=False``), then a summary of the counts
        and measures (MER, WIL, WIP, WER; CER for characters) unless ``show_measures=False``.
        """
        sentences = [(s.reference, s.hypothesis, s.ops) for s in self.segments]
        sc = self.score
        if self.unit == "word":
            measures = [("mer", sc.mer), ("wil", sc.wil), ("wip", sc.wip), ("wer", sc.wer)]
        else:
            measures = [("cer", sc.wer)]
        counts = (sc.substitutions, sc.deletions, sc.insertions, sc.hits)
        return _wer_text.visualize(
            sentences,
            counts if show_measures else None,
            measures,
            is_char=self.unit == "char",
            skip_correct=skip_correct,
            line_width=line_width,
        )

    def __repr__(self) -> str:
        return f"Alignments(segments={len(self)}, {self.score!r})"


def segments_from_arrays(
    rows: Any,
    chosen: list[int],
    ops: Any,
    offsets: Any,
    ref_tokens: list[list[str]],
    hyp_tokens: list[list[str]],
    unit: str,
) -> list[SegmentAlignment]:
    """The core's alignment arrays (``_core.alignments``) and each segment's tokens as
    :class:`SegmentAlignment` objects."""
    op_rows = ops.tolist()
    bounds = offsets.tolist()
    return [
        SegmentAlignment(
            ref_tokens[i],
            hyp_tokens[i],
            [
                AlignmentOp(_OP_TYPES[t], a, b, c, d)
                for t, a, b, c, d in op_rows[bounds[i] : bounds[i + 1]]
            ],
            chosen[i],
            row,
            unit,
        )
        for i, row in enumerate(rows.tolist())
    ]
