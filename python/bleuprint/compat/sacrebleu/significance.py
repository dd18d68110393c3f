"""``sacrebleu.significance``: ``PairedTest`` and ``Result`` on bleuprint's paired tests
(:func:`bleuprint.significance.paired_test`), which give sacrebleu's p-values, means and
intervals for the same seed."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union

from bleuprint.errors import InvalidOptionError
from bleuprint.metrics.metric import Metric
from bleuprint.metrics.scores import Signature
from bleuprint.significance import paired_test
from bleuprint.significance.estimates import estimate_ci
from bleuprint.significance.estimates import p_value as _compute_p_value  # noqa: F401 (sacrebleu's name)
from bleuprint.significance.seed import resolve_seed

IS_WINDOWS = os.name == "nt"
sacrelogger = logging.getLogger("sacrebleu")

__all__ = ["IS_WINDOWS", "PairedTest", "Result", "estimate_ci", "sacrelogger"]


class Result:
    """One system's result for one metric: ``score``, and against the baseline ``p_value``,
    the bootstrap ``mean`` and its 95% half-width ``ci`` (``None`` where not computed)."""

    def __init__(
        self,
        score: float,
        p_value: Optional[float] = None,
        mean: Optional[float] = None,
        ci: Optional[float] = None,
    ) -> None:
        self.score = score
        self.p_value = p_value
        self.mean = mean
        self.ci = ci

    def __repr__(self) -> str:
        return ",".join([f"{k}={v!s}" for k, v in self.__dict__.items()])


class PairedTest:
    """sacrebleu's paired test: ``PairedTest(named_systems, metrics, references,
    test_type="ar" | "bs", n_samples=0, n_ar_confidence=-1, n_jobs=1)()`` returns
    ``(signatures, scores)`` with ``scores = {"System": [names], metric: [Result, ...]}``.

    The seed is read from ``SACREBLEU_SEED`` (default 12345, ``None`` unseeded) when the test
    is built, as sacrebleu does. ``n_jobs`` is accepted; bleuprint's core uses threads.
    """

    _DEFAULT_SAMPLES = {"ar": 10000, "bs": 1000}

    def __init__(
        self,
        named_systems: Sequence[tuple[str, Sequence[str]]],
        metrics: Mapping[str, Metric[Any]],
        references: Optional[Sequence[Sequence[str]]],
        test_type: str = "ar",
        n_samples: int = 0,
        n_ar_confidence: int = -1,
        n_jobs: int = 1,
    ) -> None:
        if test_type not in self._DEFAULT_SAMPLES:
            raise InvalidOptionError(f"Unknown test type {test_type!r}; expected 'ar' or 'bs'")
        self.test_type = test_type
        self._seed = resolve_seed().value
        self.n_jobs = n_jobs
        self.references = references
        self.named_systems = list(named_systems)
        self.n_ar_confidence = n_ar_confidence if n_ar_confidence != 0 else 1000
        self.n_samples = n_samples if n_samples > 0 else self._DEFAULT_SAMPLES[test_type]
        self.n_systems = len(self.named_systems) - 1
        self.metrics = dict(metrics)

    def __call__(self) -> tuple[dict[str, Signature], dict[str, list[Union[str, Result]]]]:
        """Runs the test: the signatures and the table of results by metric."""
        result = paired_test(
            self.named_systems,
            self.references,
            metrics=list(self.metrics.values()),
            test=self.test_type,
            n_samples=self.n_samples,
            n_ar_confidence=self.n_ar_confidence,
            seed=self._seed,
        )
        scores: dict[str, list[Union[str, Result]]] = {"System": list(result.systems)}
        for metric in result.metrics:
            scores[metric] = [
                Result(row.score, row.p_value, row.mean, row.ci) for row in result.results[metric]
            ]
        signatures = dict(result.signatures)
        if self.n_ar_confidence > 0:
            for signature in signatures.values():
                # sacrebleu records it for both tests (for bs it replaces the sample count).
                signature.update("bs", self.n_ar_confidence)
        return signatures, scores
