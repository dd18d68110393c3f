"""jiwer 4.0's ``jiwer.measures``: WER, MER, WIL, WIP and CER of one or more sentences."""

from __future__ import annotations

from collections.abc import Callable
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


def _measure(name: str, index: int, transform: Any, doc: str) -> Callable[..., Any]:
    """jiwer's measure ``name``: the ``index``-th of :func:`jiwer_measures` of the summed
    statistics, with jiwer's signature (``transform`` is both transforms' default)."""

    def measure(
        reference: Sentences = None,  # type: ignore[assignment]
        hypothesis: Sentences = None,  # type: ignore[assignment]
        reference_transform: Any = transform,
        hypothesis_transform: Any = transform,
    ) -> Any:
        statistics = summed_statistics(
            reference, hypothesis, reference_transform, hypothesis_transform
        )
        return jiwer_measures(statistics)[index]

    measure.__name__ = measure.__qualname__ = name
    measure.__doc__ = doc
    return measure


wer = _measure("wer", _WER, wer_default, "Word error rate ``(S + D + I) / (H + S + D)``.")
mer = _measure("mer", _MER, wer_default, "Match error rate ``(S + D + I) / (H + S + D + I)``.")
wil = _measure("wil", _WIL, wer_default, "Word information lost, ``1 - wip``.")
wip = _measure(
    "wip", _WIP, wer_default, "Word information preserved, ``(H / N_ref) * (H / N_hyp)``."
)
cer = _measure(
    "cer", _WER, cer_default,
    "Character error rate: the WER formula over characters (spaces included).",
)  # fmt: skip
