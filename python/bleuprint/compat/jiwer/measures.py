"""jiwer 4.0's ``jiwer.measures``: WER, MER, WIL, WIP and CER of one or more sentences."""

from __future__ import annotations

from typing import Any

from bleuprint.compat.jiwer.process import jiwer_measures, summed_statistics
from bleuprint.compat.jiwer.transformations import cer_default, wer_default
from bleuprint.compat.jiwer.transforms import Sentences

__all__ = [
    "cer",
    "mer",
    "wer",
    "wil",
    "wip",
]

# Where each measure is in jiwer_measures' (wer, mer, wil, wip).
_WER, _MER, _WIL, _WIP = range(4)


def _measure(index: int, reference: Any, hypothesis: Any, ref_t: Any, hyp_t: Any) -> Any:
    return jiwer_measures(summed_statistics(reference, hypothesis, ref_t, hyp_t))[index]


def wer(
    reference: Sentences = None,  # type: ignore[assignment]
    hypothesis: Sentences = None,  # type: ignore[assignment]
    reference_transform: Any = wer_default,
    hypothesis_transform: Any = wer_default,
) -> float:
    """Word error rate ``(S + D + I) / (H + S + D)`` of one or more sentences."""
    return _measure(_WER, reference, hypothesis, reference_transform, hypothesis_transform)


def mer(
    reference: Sentences = None,  # type: ignore[assignment]
    hypothesis: Sentences = None,  # type: ignore[assignment]
    reference_transform: Any = wer_default,
    hypothesis_transform: Any = wer_default,
) -> float:
    """Match error rate ``(S + D + I) / (H + S + D + I)``."""
    return _measure(_MER, reference, hypothesis, reference_transform, hypothesis_transform)


def wil(
    reference: Sentences = None,  # type: ignore[assignment]
    hypothesis: Sentences = None,  # type: ignore[assignment]
    reference_transform: Any = wer_default,
    hypothesis_transform: Any = wer_default,
) -> float:
    """Word information lost, ``1 - wip``."""
    return _measure(_WIL, reference, hypothesis, reference_transform, hypothesis_transform)


def wip(
    reference: Sentences = None,  # type: ignore[assignment]
    hypothesis: Sentences = None,  # type: ignore[assignment]
    reference_transform: Any = wer_default,
    hypothesis_transform: Any = wer_default,
) -> float:
    """Word information preserved, ``(H / N_ref) * (H / N_hyp)``."""
    return _measure(_WIP, reference, hypothesis, reference_transform, hypothesis_transform)


def cer(
    reference: Sentences = None,  # type: ignore[assignment]
    hypothesis: Sentences = None,  # type: ignore[assignment]
    reference_transform: Any = cer_default,
    hypothesis_transform: Any = cer_default,
) -> float:
    """Character error rate: the WER formula over characters (spaces included)."""
    return _measure(_WER, reference, hypothesis, reference_transform, hypothesis_transform)
