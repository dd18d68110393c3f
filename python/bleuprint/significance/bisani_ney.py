"""The bootstrap speech papers report with WER: Bisani and Ney's (2004) confidence interval and
the paired probability that a second system improves on the first, as Kaldi's
``compute-wer-bootci`` computes them and kaldialign 0.12.0's ``bootstrap_wer_ci`` returns them,
equal to kaldialign's for the same seed.

Each replication draws as many utterances as there are, with replacement, and takes the
corpus WER of the draw (errors over reference words, summed); the estimate is the mean of the
replications and the interval ``mean ± 1.96 × their standard deviation`` (the population
form, ``E[x²] − E[x]²``, and 0 where that is not positive). The probability of improvement is
the share of replications in which the second system makes fewer errors than the first on the
same draw. Utterances are drawn as kaldialign's C++ draws them: ``std::mt19937{seed}``
(numpy's ``RandomState(seed)`` gives the same 32-bit numbers) through libstdc++'s
``std::uniform_int_distribution`` (Lemire's multiply-and-reject for a 32-bit generator), with
a fresh generator for each system and for the paired count. Sums run in the same order in
double precision, so the figures are kaldialign's to the last bit.

The input is WER statistics (:meth:`bleuprint.WER.stats` rows: substitutions, deletions,
insertions, hits, reference words, hypothesis words), whose errors per utterance are the
Levenshtein distance kaldialign counts (without ``sclite_mode``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Optional

import numpy as np

from bleuprint.errors import InvalidInputError, InvalidOptionError

#: Draws made per block (memory: 8 bytes each, twice).
_BLOCK = 1 << 21
_TWO_32 = 1 << 32


def _uniform_indices(seed: int, n: int) -> Iterator[np.ndarray]:
    """Blocks of ``std::uniform_int_distribution<int>{0, n - 1}(std::mt19937{seed})`` draws,
    in order, as libstdc++ makes them: a 32-bit output ``x`` gives ``x · n >> 32`` unless the
    low 32 bits of ``x · n`` fall under ``2³² mod n``, when the next output is tried."""
    generator = np.random.RandomState(seed)
    threshold = (_TWO_32 - n) % n
    while True:
        raw = generator.randint(0, _TWO_32, size=_BLOCK, dtype=np.uint32).astype(np.uint64)
        product = raw * np.uint64(n)
        accepted = (product & np.uint64(_TWO_32 - 1)) >= np.uint64(threshold)
        yield (product[accepted] >> np.uint64(32)).astype(np.intp)


def _replications(seed: int, n: int, replications: int) -> Iterator[np.ndarray]:
    """Each replication's ``n`` drawn utterances, blocks of replications at a time (rows)."""
    blocks = _uniform_indices(seed, n)
    pending = np.empty(0, dtype=np.intp)
    per_block = max(1, _BLOCK // n)
    done = 0
    while done < replications:
        rows = min(per_block, replications - done)
        while len(pending) < rows * n:
            pending = np.concatenate([pending, next(blocks)])
        yield pending[: rows * n].reshape(rows, n)
        pending = pending[rows * n :]
        done += rows


def _sequential_sum(values: np.ndarray) -> float:
    """``values`` summed left to right in double precision, as a C++ loop adds them."""
    total = 0.0
    for value in values.tolist():
        total += value
    return total


def bootstrap_wer_interval(
    errors: np.ndarray, ref_words: np.ndarray, replications: int = 10_000, seed: int = 0
) -> tuple[float, float]:
    """The bootstrap WER estimate and the half-width of its 95% interval (kaldialign's
    ``mean`` and ``ci95``) for per-utterance errors and reference word counts."""
    rates = []
    for draw in _replications(seed, len(errors), replications):
        # Integer sums, exact in any order; then one division each, as in C++, where a draw
        # of utterances without reference words divides by zero (inf, or nan for 0 / 0).
        with np.errstate(divide="ignore", invalid="ignore"):
            rates.append(errors[draw].sum(axis=1) / ref_words[draw].sum(axis=1))
    rate = np.concatenate(rates)
    mean = _sequential_sum(rate) / replications
    spread = _sequential_sum(rate * rate) / replications - mean * mean
    return mean, (1.96 * float(np.sqrt(spread)) if spread > 0 else 0.0)


def probability_of_improvement(
    errors: np.ndarray, errors2: np.ndarray, replications: int = 10_000, seed: int = 0
) -> float:
    """The share of replications in which the second system makes fewer errors on the same
    drawn utterances (kaldialign's ``p_s2_improv_over_s1``)."""
    improved = 0
    difference = errors - errors2
    for draw in _replications(seed, len(errors), replications):
        improved += int((difference[draw].sum(axis=1) > 0).sum())
    return improved / replications


def _errors_and_words(rows: Any, what: str) -> tuple[np.ndarray, np.ndarray]:
    config = getattr(rows, "config", None)
    if config is not None and getattr(config, "metric", None) != "WER":
        raise InvalidInputError(
            f"{what} must be WER statistics (WER().stats or CER().stats), got "
            f"{config.metric} statistics"
        )
    table = np.asarray(getattr(rows, "rows", rows))
    if table.ndim != 2 or table.shape[1] != 6 or table.shape[0] == 0:
        raise InvalidInputError(
            f"{what} must be WER statistics: WER().stats(hypotheses, references), or its rows "
            f"(one row of 6 counts per utterance, at least one), got shape {table.shape}"
        )
    table = table.astype(np.int64)
    return table[:, 0] + table[:, 1] + table[:, 2], table[:, 4]


def _results(mean: float, interval: float) -> dict[str, float]:
    return {"wer": mean, "ci95": interval, "ci95min": mean - interval, "ci95max": mean + interval}


def bisani_ney_ci(
    stats: Any, stats2: Optional[Any] = None, *, replications: int = 10_000, seed: int = 0
) -> dict[str, Any]:
    """Bisani and Ney's bootstrap WER interval of one system, or of two systems on the same
    utterances with the probability that the second improves on the first: kaldialign's
    ``bootstrap_wer_ci`` dicts (``wer``, ``ci95``, ``ci95min``, ``ci95max``; with ``stats2``,
    ``system1``, ``system2`` and ``p_s2_improv_over_s1``), equal to kaldialign 0.12.0's for
    the same ``seed``.

    ``stats`` and ``stats2`` are WER statistics (:meth:`bleuprint.WER.stats`, or their rows).
    WER is a fraction here (0.1 for 10%), as in kaldialign.

    >>> import bleuprint
    >>> wer = bleuprint.WER()
    >>> refs = ["the cat sat", "on the mat", "a dog"]
    >>> ci = bisani_ney_ci(wer.stats(["the cat sat", "on a mat", "dog"], [refs]), replications=100)
    >>> sorted(ci)
    ['ci95', 'ci95max', 'ci95min', 'wer']
    """
    if isinstance(replications, bool) or not isinstance(replications, int) or replications < 1:
        raise InvalidOptionError(f"replications must be an int of 1 or more, got {replications!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < _TWO_32:
        raise InvalidOptionError(
            f"seed must be an int from 0 to 2**32 - 1 (kaldialign's unsigned seed), got {seed!r}"
        )
    errors, words = _errors_and_words(stats, "stats")
    first = _results(*bootstrap_wer_interval(errors, words, replications, seed))
    if stats2 is None:
        return first
    errors2, words2 = _errors_and_words(stats2, "stats2")
    if len(errors2) != len(errors) or not np.array_equal(words, words2):
        raise InvalidInputError(
            "stats and stats2 must score the same utterances against the same references "
            f"(got {len(errors)} and {len(errors2)} rows, or different reference lengths)"
        )
    return {
        "system1": first,
        "system2": _results(*bootstrap_wer_interval(errors2, words2, replications, seed)),
        "p_s2_improv_over_s1": probability_of_improvement(errors, errors2, replications, seed),
    }


__all__ = ["bisani_ney_ci", "bootstrap_wer_interval", "probability_of_improvement"]
