"""jiwer 4.0's ``jiwer.alignment``: the alignment drawn as text, and the error counts."""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Optional, Union

from bleuprint.compat.jiwer.process import CharacterOutput, WordOutput
from bleuprint.tokenizers import wer_text as _wer_text

__all__ = [
    "collect_error_counts",
    "visualize_alignment",
    "visualize_error_counts",
]


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
