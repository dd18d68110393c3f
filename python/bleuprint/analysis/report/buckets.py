"""Bucketed analyses with bootstrap error bars, all from per-segment arrays: sentence
buckets (reference length, length difference, sentence score) scored by summing statistics
rows, and word F-measure by reference-word frequency (compare-mt's definitions)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

import numpy as np

#: compare-mt's default cutoffs.
LENGTH_CUTOFFS = (10, 20, 30, 40, 50, 60)
LENGTH_DIFF_CUTOFFS = (-20, -10, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 11, 21)
SCORE_CUTOFFS = (10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0)
FREQ_CUTOFFS = (1, 2, 3, 4, 5, 10, 100, 1000)


def bucket_labels(cutoffs: Sequence[float], integer: bool = True) -> list[str]:
    """compare-mt's bucket names: ``<10``, ``[10,20)``, a single ``4``, ``>=60``."""
    labels = []
    for i, x in enumerate(cutoffs):
        if i == 0:
            labels.append(f"<{_num(x)}")
        elif integer and x - 1 == cutoffs[i - 1]:
            labels.append(f"{_num(x - 1)}")
        else:
            labels.append(f"[{_num(cutoffs[i - 1])},{_num(x)})")
    labels.append(f">={_num(cutoffs[-1])}")
    return labels


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def bucket_of(values: np.ndarray, cutoffs: Sequence[float]) -> np.ndarray:
    """Bucket index of each value: the first cutoff it is below, else the last bucket."""
    return np.searchsorted(np.asarray(cutoffs, dtype=np.float64), values, side="right")


class Resampler:
    """Bootstrap weights: row ``b`` counts how often each segment is drawn in resample ``b``.
    Sums over a resample are then one matrix product, so every system, metric and bucket
    reuses the same draws."""

    def __init__(self, n_samples: int, seed: Optional[int]) -> None:
        self.n_samples = n_samples
        self.rng = np.random.default_rng(seed)

    def weights(self, size: int) -> np.ndarray:
        """A ``(n_samples, size)`` matrix: how often each of ``size`` segments is drawn."""
        drawn = self.rng.integers(0, max(size, 1), size=(self.n_samples, size))
        flat = (np.arange(self.n_samples)[:, None] * size + drawn).reshape(-1)
        counts = np.bincount(flat, minlength=self.n_samples * size)
        return counts.reshape(self.n_samples, size).astype(np.float64)


def interval(values: np.ndarray) -> tuple[float, float]:
    """The 2.5% and 97.5% order statistics, as sacrebleu's intervals take them."""
    n = len(values)
    if n == 0:
        return (float("nan"), float("nan"))
    ordered = np.sort(values)
    return float(ordered[n // 40]), float(ordered[n - n // 40 - 1])


def bucket_scores(
    metrics: list[tuple[Any, np.ndarray]],
    buckets: np.ndarray,
    n_buckets: int,
    resampler: Resampler,
    cache: dict[bytes, list[np.ndarray]],
) -> list[list[dict[str, Any]]]:
    """Per metric ``(config, float rows)`` and bucket: segment count, corpus score of the
    bucket's segments and a bootstrap interval (segments resampled within the bucket). The
    draws depend only on the bucket membership, so ``cache`` shares them between systems
    and metrics."""
    key = buckets.tobytes()
    if key not in cache:
        cache[key] = [
            resampler.weights(int(np.count_nonzero(buckets == b))) for b in range(n_buckets)
        ]
    draws = cache[key]
    result: list[list[dict[str, Any]]] = []
    for config, float_rows in metrics:
        out: list[dict[str, Any]] = []
        for b in range(n_buckets):
            rows = float_rows[buckets == b]
            if len(rows) == 0:
                out.append({"count": 0, "score": None, "lower": None, "upper": None})
                continue
            score = float(config.score_sums(rows.sum(axis=0)[None, :])[0])
            lower, upper = interval(
                np.asarray(config.score_sums(draws[b] @ rows), dtype=np.float64)
            )
            out.append({"count": len(rows), "score": score, "lower": lower, "upper": upper})
        result.append(out)
    return result


def bucket_counts(buckets: np.ndarray, n_buckets: int, weights: np.ndarray) -> list[dict[str, Any]]:
    """Per bucket: segment count with a bootstrap interval over whole-test-set resamples."""
    onehot = np.zeros((len(buckets), n_buckets))
    onehot[np.arange(len(buckets)), buckets] = 1.0
    sampled = weights @ onehot
    result = []
    for b in range(n_buckets):
        lower, upper = interval(sampled[:, b])
        result.append({"count": int(onehot[:, b].sum()), "lower": lower, "upper": upper})
    return result


def word_counts_per_segment(
    unigrams: tuple[np.ndarray, ...], bucket_of_word: np.ndarray, n_segments: int, n_buckets: int
) -> np.ndarray:
    """``(segments, 3, buckets)`` counts of matched, reference and output words per
    frequency bucket, from one system's per-segment unigram counts (an output word is
    matched while the reference still has a copy of it; compare-mt pairs them left to right,
    with the same counts)."""
    seg_o, word_o, match, out, seg_r, word_r, ref = unigrams
    size = n_segments * n_buckets

    def per_bucket(seg: np.ndarray, word: np.ndarray, weight: np.ndarray) -> np.ndarray:
        at = seg * n_buckets + bucket_of_word[word]
        return np.bincount(at, weights=weight, minlength=size).reshape(n_segments, n_buckets)

    return np.stack(
        [
            per_bucket(seg_o, word_o, match),
            per_bucket(seg_r, word_r, ref),
            per_bucket(seg_o, word_o, out),
        ],
        axis=1,
    )


def f_measure(counts: np.ndarray) -> np.ndarray:
    """compare-mt's F-measure from ``(..., 3, buckets)`` [match, ref, out] counts; 0 without
    matches."""
    match, ref, out = counts[..., 0, :], counts[..., 1, :], counts[..., 2, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        recall = match / ref
        precision = match / out
        f = 2 * precision * recall / (precision + recall)
    return np.where(match > 0, f, 0.0)


def word_accuracy(
    counts: np.ndarray, weights: np.ndarray, labels: Sequence[str]
) -> list[dict[str, Any]]:
    """Per frequency bucket: reference word count, F-measure, precision, recall and a
    bootstrap interval of the F-measure (segments resampled)."""
    total = counts.sum(axis=0).astype(np.float64)
    f = f_measure(total)
    sampled = f_measure(np.einsum("bs,skn->bkn", weights, counts.astype(np.float64)))
    match, ref, out = total
    rows = []
    for b, label in enumerate(labels):
        lower, upper = interval(sampled[:, b])
        rows.append(
            {
                "bucket": label,
                "ref_words": int(ref[b]),
                "out_words": int(out[b]),
                "matches": int(match[b]),
                "recall": float(match[b] / ref[b]) if match[b] else 0.0,
                "precision": float(match[b] / out[b]) if match[b] else 0.0,
                "fmeasure": float(f[b]),
                "lower": lower,
                "upper": upper,
            }
        )
    return rows


def frequency_buckets(counts: np.ndarray) -> np.ndarray:
    """Bucket of every word id from its count (compare-mt's frequency cutoffs)."""
    return np.searchsorted(np.asarray(FREQ_CUTOFFS), counts, side="right")
