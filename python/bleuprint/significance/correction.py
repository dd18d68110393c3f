"""Corrections of p-values for multiple comparisons."""

from __future__ import annotations

from collections.abc import Sequence

from bleuprint.errors import InvalidOptionError

#: The accepted ``correction`` names.
CORRECTIONS = ("holm", "bonferroni", "none")


def check_correction(name: str) -> str:
    """``name`` if it is a known correction, else an error listing them."""
    if name not in CORRECTIONS:
        raise InvalidOptionError(
            f"unknown correction {name!r}; expected one of {', '.join(CORRECTIONS)}"
        )
    return name


def adjust_p_values(p_values: Sequence[float], correction: str) -> list[float]:
    """The p-values of one family of comparisons, adjusted.

    - ``bonferroni``: ``min(1, m * p)``.
    - ``holm`` (Holm–Bonferroni step-down): with the p-values sorted ascending,
      ``p_(i) * (m - i + 1)``, made non-decreasing and capped at 1. It controls the
      family-wise error rate like Bonferroni but rejects at least as often.
    - ``none``: unchanged.
    """
    check_correction(correction)
    m = len(p_values)
    if correction == "none" or m == 0:
        return list(p_values)
    if correction == "bonferroni":
        return [min(1.0, p * m) for p in p_values]
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, p_values[i] * (m - rank)))
        adjusted[i] = running
    return adjusted
