"""Moses' ``multi-bleu.perl`` and ``multi-bleu-detok.perl``::

    from bleuprint.compat.moses import multi_bleu
    print(multi_bleu(hypotheses, [reference_lines]))   # BLEU = 38.37, 66.9/44.1/...

``references`` are streams, one list of lines per reference file, each with one line per
hypothesis; a file of another length raises :class:`~bleuprint.InvalidInputError`. The
script itself reads past the end of a short file, ignores the rest of a long one and counts
a hypothesis without any reference line as reference length 9999: ``mismatched="perl"``
reproduces that, with a warning. ``str()`` of the result is the script's stdout line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional

from bleuprint.errors import InvalidInputError, InvalidOptionError, ReferenceLayoutError, warn
from bleuprint.io.layout import as_text_sequence
from bleuprint.metrics.bleu.aggregation import corpus_counts
from bleuprint.metrics.bleu.config import BLEUConfig
from bleuprint.metrics.bleu.scoring import score_counts

# multi-bleu.perl's reference length for a hypothesis without any reference line.
_NO_REFERENCE_LENGTH = 9999


@dataclass
class MosesBLEU:
    """A multi-bleu.perl result; ``str()`` is its output line. ``score`` is 0..100 (the
    script's ``100 * $bleu``), the precisions 0..1."""

    score: float
    precisions: list[float]
    bp: float
    ratio: float
    hyp_len: int
    ref_len: int

    def __str__(self) -> str:
        if self.ref_len == 0:
            return "BLEU = 0, 0/0/0/0 (BP=0, ratio=0, hyp_len=0, ref_len=0)"
        precisions = "/".join(f"{100 * p:.1f}" for p in self.precisions)
        return (
            f"BLEU = {self.score:.2f}, {precisions} (BP={self.bp:.3f}, "
            f"ratio={self.ratio:.3f}, hyp_len={self.hyp_len:d}, ref_len={self.ref_len:d})"
        )


def _grouped(
    hypotheses: Sequence[str], references: Sequence[Sequence[Optional[str]]]
) -> list[list[str]]:
    if isinstance(references, str) or not references or isinstance(references[0], str):
        raise ReferenceLayoutError(
            "references must be a list of reference files' lines: references=[ref_lines] or "
            "[ref0_lines, ref1_lines] (each a list of str, one line per hypothesis)"
        )
    references = [as_text_sequence(s, f"references[{k}]") for k, s in enumerate(references)]
    grouped: list[list[str]] = []
    for i in range(len(hypotheses)):
        present = [s[i] for s in references if i < len(s)]
        grouped.append([r for r in present if r is not None])
    return grouped


def _check_lengths(hypotheses: Sequence[str], references: Any, mismatched: str) -> None:
    """Reference files of another length than the hypotheses: an error, or with
    ``mismatched="perl"`` the script's silent truncation and padding, with a warning."""
    if mismatched not in ("error", "perl"):
        raise InvalidOptionError(f"mismatched must be 'error' or 'perl', got {mismatched!r}")
    for k, stream in enumerate(references):
        if len(stream) == len(hypotheses):
            continue
        what = (
            f"reference file {k} has {len(stream)} lines but there are {len(hypotheses)} hypotheses"
        )
        if mismatched == "error":
            raise InvalidInputError(
                f"{what}; every reference file needs one line per hypothesis "
                "(mismatched='perl' reproduces multi-bleu.perl, which silently ignores extra "
                "lines and counts a missing reference as length 9999)"
            )
        warn(f"{what}; scoring as multi-bleu.perl does (extra lines ignored, missing 9999)")


def _score(
    config: BLEUConfig, hypotheses: Sequence[str], references: Any, mismatched: str
) -> MosesBLEU:
    if isinstance(hypotheses, str):
        raise ReferenceLayoutError("hypotheses must be a list of lines, not a str")
    hypotheses = as_text_sequence(hypotheses, "hypotheses")
    references = as_text_sequence(references, "references")
    grouped = _grouped(hypotheses, references)
    _check_lengths(hypotheses, references, mismatched)
    missing = [i for i, refs in enumerate(grouped) if not refs]
    rows = config.item_rows(hypotheses, [refs or [""] for refs in grouped])
    if missing:
        rows[missing, 1] = _NO_REFERENCE_LENGTH
    counts = corpus_counts(rows, config)
    if counts.ref_len == 0:
        return MosesBLEU(0.0, [0.0] * config.max_ngram_order, 0.0, 0.0, 0, 0)
    if counts.hyp_len == 0:
        raise InvalidInputError("multi-bleu.perl dies on this input: the hypotheses have no tokens")
    result = score_counts(counts, config)
    return MosesBLEU(
        result.score,
        result.precisions,
        result.bp,
        float(result.ratio),
        int(result.hyp_len),
        int(result.ref_len),
    )


def multi_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    lowercase: bool = False,
    mismatched: str = "error",
) -> MosesBLEU:
    """``multi-bleu.perl [-lc]``: whitespace-split tokens (ASCII whitespace, as Perl's split
    on bytes), ``-lc`` lowercasing A-Z only. ``mismatched="perl"`` scores reference files of
    another length as the script does (see the module docstring) instead of raising."""
    config = BLEUConfig.from_preset("moses", lowercase="ascii" if lowercase else False)
    return _score(config, hypotheses, references, mismatched)


def multi_bleu_detok(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    lowercase: bool = False,
    mismatched: str = "error",
) -> MosesBLEU:
    """``multi-bleu-detok.perl [-lc]``: mteval-v13a tokenization, Unicode lowercasing;
    ``mismatched`` as in :func:`multi_bleu`."""
    config = BLEUConfig.from_preset("moses-detok", lowercase=lowercase)
    return _score(config, hypotheses, references, mismatched)


__all__ = ["MosesBLEU", "multi_bleu", "multi_bleu_detok"]
