"""nltk's non-normalising fraction: a precision that keeps the counts it was built from."""

from __future__ import annotations

import fractions
from typing import Optional


class Fraction(fractions.Fraction):
    """A fraction whose ``numerator``/``denominator`` are the values it was built from
    (nltk's ``_normalize=False``); arithmetic on it is ordinary :class:`fractions.Fraction`
    arithmetic."""

    _original: tuple[int, int]
    _keep: bool

    def __new__(
        cls, numerator: int = 0, denominator: Optional[int] = None, _normalize: bool = False
    ) -> Fraction:
        self = super().__new__(cls, numerator, denominator)
        self._original = (numerator, denominator if denominator is not None else 1)
        self._keep = not _normalize
        return self

    @property
    def numerator(self) -> int:  # type: ignore[override]
        return self._original[0] if self._keep else super().numerator

    @property
    def denominator(self) -> int:  # type: ignore[override]
        return self._original[1] if self._keep else super().denominator
