"""Scores and signatures, rendered exactly as sacrebleu 2.6.0 renders them.

The base classes every metric's score and signature extend; below the metrics, so that
:class:`~bleuprint.Stats` can name what it returns without importing any metric.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from typing import Any, Optional

from bleuprint._core import __version__

#: The value of the signature's ``version`` field.
SIGNATURE_VERSION = f"bleuprint-{__version__}"


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pauses Python's cyclic garbage collector while hundreds of thousands of small objects
    are built (score objects per segment, tokens, alignment chunks, a report's analyses): its
    passes over them otherwise cost more than building them (per-segment ROUGE results of
    100,000 segments: 0.76 s with it running, 0.29 s paused). The few cycles made meanwhile
    are freed once it resumes."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class Score:
    """A metric value with sacrebleu's text and JSON forms.

    Parameters
    ----------
    name
        The metric's display name (``BLEU``).
    score
        The value.
    """

    #: The details sacrebleu prints after the score (BLEU's precisions and lengths).
    _verbose: str = ""

    def __init__(self, name: str, score: float) -> None:
        self.name = name
        self.score = score
        # Bootstrap mean and confidence half-width; set by resampling, None when absent.
        self.mean: Optional[float] = None
        self.ci: Optional[float] = None

    def format(
        self,
        width: int = 2,
        score_only: bool = False,
        signature: str = "",
        is_json: bool = False,
    ) -> str:
        """Returns the score as text or JSON, as sacrebleu's ``Score.format`` does.

        Parameters
        ----------
        width
            Decimal places.
        score_only
            Return only the number (with the confidence part when there is one).
        signature
            A formatted signature to include.
        is_json
            Return a JSON document instead of a text line.
        """
        d: dict[str, Any] = {
            "name": self.name,
            "score": float(f"{self.score:.{width}f}"),
            "signature": signature,
        }
        sc = f"{self.score:.{width}f}"
        if self.mean is not None and self.ci is not None and self.mean > 0:
            confidence_mean = f"{self.mean:.{width}f}"
            confidence_var = f"{self.ci:.{width}f}"
            confidence_str = f"μ = {confidence_mean} ± {confidence_var}"
            sc += f" ({confidence_str})"
            if is_json:
                d["confidence_mean"] = float(confidence_mean)
                d["confidence_var"] = float(confidence_var)
                d["confidence"] = confidence_str

        full_score = f"{self.name}|{signature}" if signature else self.name
        full_score = f"{full_score} = {sc}"
        if self._verbose:
            full_score += f" {self._verbose}"
            d["verbose_score"] = self._verbose

        if score_only:
            return sc
        if is_json:
            if signature:
                for param in signature.split("|"):
                    key, _, value = param.partition(":")
                    d[key] = value
            import json  # start-up time: only JSON output loads the json package

            return json.dumps(d, indent=1, ensure_ascii=False)
        return full_score

    def __repr__(self) -> str:
        return self.format()


class Signature:
    """A reproducibility signature such as ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|...``.

    Subclasses fill :attr:`info` with the metric's keys and :attr:`abbreviations` with their
    short forms. Keys are printed in insertion order, ``version`` last; ``None`` values are
    skipped and booleans print as ``yes``/``no``.
    """

    def __init__(self, nrefs: int, extra: Optional[dict[str, Any]] = None) -> None:
        self.abbreviations = {
            "version": "v",
            "nrefs": "#",
            "test": "t",
            "lang": "l",
            "subset": "S",
            "origlang": "o",
            "bs": "bs",
            "ar": "ar",
            "seed": "rs",
        }
        self.info: dict[str, Any] = {
            "version": SIGNATURE_VERSION,
            "nrefs": "var" if nrefs == -1 else nrefs,
            "bs": None,
            "ar": None,
            "seed": None,
        }
        if extra:
            self.info.update(extra)

    def format(self, short: bool = False) -> str:
        """The signature string; ``short=True`` uses the abbreviated keys (``#:1|c:mixed|...``)."""
        keys = [k for k in self.info if k != "version"] + ["version"]
        pairs = []
        for name in keys:
            value = self.info[name]
            if value is None:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            pairs.append(f"{self.abbreviations[name] if short else name}:{value}")
        return "|".join(pairs)

    def update(self, key: str, value: Any) -> None:
        """Adds or replaces one item."""
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()
