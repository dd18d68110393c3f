"""Reference aggregation (``aggregate_utility``) equals mbrs'
``expected_scores_reference_aggregation`` before mbrs rounds it to float32.

mbrs needs torch, so the oracle here is a direct restatement of its algorithm (mbrs 0.1.8,
``mbrs/metrics/{bleu,chrf}.py``) on sacrebleu 2.6.0's own n-gram extraction and scoring: Python
``Counter``s of expected counts ``exp(log(count) + log(weight))`` added reference by
reference, the float sums in ``Counter`` order, and sacrebleu's ``compute_bleu`` /
``_compute_f_score`` arithmetic on floats.
"""

from __future__ import annotations

import math
import warnings
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Optional

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.helpers import (
    extract_all_char_ngrams,
    extract_all_word_ngrams,
    extract_word_ngrams,
)

import bleuprint
from bleuprint.errors import InvalidInputError, InvalidOptionError
from tests.support.data import SAMPLE, read_lines


def _log_weights(n: int, weights: Optional[list[float]]) -> list[float]:
    if weights is None:
        return [-math.log(n)] * n
    log_total = math.log(math.fsum(weights))
    return [math.log(w) - log_total if w > 0 else -math.inf for w in weights]


def _float_bleu(correct, total, sys_len, ref_len, method, value, effective, order) -> float:
    """sacrebleu's compute_bleu on Python floats (mbrs' _compute_bleu)."""
    value = sacrebleu.BLEU.SMOOTH_DEFAULTS[method] if value is None else value
    bp = 1.0 if sys_len >= ref_len else (math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0)
    precisions = [0.0] * order
    if not any(correct):
        return 0.0
    smooth_mteval, eff_order = 1.0, order
    for n in range(1, order + 1):
        if method == "add-k" and n > 1:
            correct[n - 1] += value
            total[n - 1] += value
        if total[n - 1] == 0:
            break
        if effective:
            eff_order = n
        if correct[n - 1] == 0:
            if method == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
            elif method == "floor":
                precisions[n - 1] = 100.0 * value / total[n - 1]
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]
    logs = [math.log(p) if p > 0.0 else -9999999999.0 for p in precisions[:eff_order]]
    return bp * math.exp(sum(logs) / eff_order)


def bleu_oracle(hyps: list[str], refs: list[str], weights=None, **options: Any) -> list[float]:
    scorer = sacrebleu.BLEU(**options)
    order = scorer.max_ngram_order
    lprobs = _log_weights(len(refs), weights)
    acc: Counter = Counter()
    length = []
    for ref, lprob in zip(refs, lprobs):
        ngrams, n = extract_all_word_ngrams(scorer._preprocess_segment(ref), 1, order)
        length.append(math.exp(math.log(n) + lprob) if n > 0 else 0.0)
        for g in ngrams:
            ngrams[g] = math.exp(math.log(ngrams[g]) + lprob)
        acc += ngrams
    ref_len = sum(length)
    out = []
    for hyp in hyps:
        ngrams, hyp_len = extract_all_word_ngrams(scorer._preprocess_segment(hyp), 1, order)
        correct, total = [0.0] * order, [0.0] * order
        for g, count in ngrams.items():
            total[len(g) - 1] += float(count)
            if g in acc:
                correct[len(g) - 1] += float(min(count, acc[g]))
        out.append(_float_bleu(
            correct, total, float(hyp_len), float(ref_len), scorer.smooth_method,
            scorer.smooth_value, scorer.effective_order, order,
        ))  # fmt: skip
    return out


def _chrf_ngrams(scorer: sacrebleu.CHRF, line: str) -> list[Counter]:
    line = scorer._preprocess_segment(line)
    ngrams = extract_all_char_ngrams(line, scorer.char_order, scorer.whitespace)
    if scorer.word_order > 0:
        words = scorer._remove_punctuation(line)
        ngrams.extend(extract_word_ngrams(words, n) for n in range(1, scorer.word_order + 1))
    return ngrams


def chrf_oracle(hyps: list[str], refs: list[str], weights=None, **options: Any) -> list[float]:
    scorer = sacrebleu.CHRF(**options)
    lprobs = _log_weights(len(refs), weights)
    acc: defaultdict[int, Counter] = defaultdict(Counter)
    for ref, lprob in zip(refs, lprobs):
        for order, counts in enumerate(_chrf_ngrams(scorer, ref)):
            for g in counts:
                counts[g] = math.exp(math.log(counts[g]) + lprob)
            acc[order] += counts
    expected = [acc[order] for order in range(len(acc))]
    out = []
    for hyp in hyps:
        stats = []
        for h, r in zip(_chrf_ngrams(scorer, hyp), expected):
            stats.extend(scorer._get_match_statistics(h, r))
        out.append(scorer._compute_f_score(stats))
    return out


BLEU_SETTINGS = [
    {"effective_order": True},  # mbrs' default
    {},
    {"smooth_method": "floor", "effective_order": True},
    {"smooth_method": "add-k", "smooth_value": 2},
    {"tokenize": "char", "lowercase": True, "effective_order": True},
]
CHRF_SETTINGS = [{}, {"word_order": 2}, {"whitespace": True, "beta": 1}, {"eps_smoothing": True}]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _data() -> tuple[list[str], list[str]]:
    hyps = read_lines(SAMPLE / "sys.fair.en")[:25] + ["", "a", "Der Der Der ."]
    refs = read_lines(SAMPLE / "ref.A.en")[:15] + read_lines(SAMPLE / "sys.poor.en")[:10]
    return hyps, refs


@pytest.mark.parametrize("options", BLEU_SETTINGS)
@pytest.mark.parametrize("weights", [None, "ramp"])
def test_bleu_aggregation_equals_mbrs_algorithm(options: dict, weights: Optional[str]) -> None:
    hyps, refs = _data()
    w = None if weights is None else [float(k % 4) for k in range(len(refs))]  # zeros too
    ours = bleuprint.BLEU(**options).aggregate_utility(hyps, refs, weights=w)
    assert ours.tolist() == bleu_oracle(hyps, refs, w, **options)
    # Without references, the hypotheses are their own pseudo-references.
    assert bleuprint.BLEU(**options).aggregate_utility(hyps).tolist() == bleu_oracle(
        hyps, hyps, None, **options
    )


@pytest.mark.parametrize("options", CHRF_SETTINGS)
@pytest.mark.parametrize("weights", [None, "ramp"])
def test_chrf_aggregation_equals_mbrs_algorithm(options: dict, weights: Optional[str]) -> None:
    hyps, refs = _data()
    w = None if weights is None else [1.0 + k for k in range(len(refs))]
    ours = bleuprint.CHRF(**options).aggregate_utility(hyps, refs, weights=w)
    assert ours.tolist() == chrf_oracle(hyps, refs, w, **options)


@pytest.mark.differential
def test_wmt22_aggregation(wmt22: Path) -> None:
    lines = read_lines(wmt22 / "references" / "generaltest2022.en-de.ref.A.de")[:256]
    assert bleuprint.BLEU(effective_order=True).aggregate_utility(lines).tolist() == bleu_oracle(
        lines, lines, effective_order=True
    )
    assert bleuprint.CHRF().aggregate_utility(lines).tolist() == chrf_oracle(lines, lines)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="ab c.", max_size=10), min_size=1, max_size=6))
def test_property_one_reference(samples: list[str]) -> None:
    """With one reference, aggregation is the sentence score against it, up to mbrs' rounding
    (its expected counts are ``exp(log(count) + log(1))``, not always ``count`` exactly)."""
    for metric in (bleuprint.BLEU(effective_order=True), bleuprint.CHRF(word_order=1)):
        aggregated = metric.aggregate_utility(samples, samples[:1])
        single = metric.pairwise(samples, samples[:1])[:, 0]
        np.testing.assert_allclose(aggregated, single, rtol=1e-12, atol=1e-9)


def test_aggregation_errors() -> None:
    with pytest.raises(InvalidOptionError, match="BLEU and chrF"):
        bleuprint.TER().aggregate_utility(["a"], ["b"])
    with pytest.raises(InvalidOptionError, match=">= 0"):
        bleuprint.CHRF().aggregate_utility(["a"], ["b"], weights=[-1])
    assert np.isfinite(
        bleuprint.CHRF().aggregate_utility(["a b"], ["a", "b"], weights=[0, 1])
    ).all()


def test_log_weights_are_used_as_given() -> None:
    samples = ["Das ist gut.", "Das ist sehr gut.", "Es ist gut.", "Gut ist das."]
    for metric in (bleuprint.BLEU(effective_order=True), bleuprint.CHRF(word_order=2)):
        uniform = [-math.log(len(samples))] * len(samples)
        assert np.array_equal(
            metric.aggregate_utility(samples, log_weights=uniform),
            metric.aggregate_utility(samples),
        )
        weights = [1.0, 2.0, 0.0, 1.0]
        logs = [math.log(w / 4.0) if w else -math.inf for w in weights]
        assert np.array_equal(
            metric.aggregate_utility(samples, log_weights=logs),
            metric.aggregate_utility(samples, weights=weights),
        )
        with pytest.raises(InvalidOptionError, match="not both"):
            metric.aggregate_utility(samples, weights=weights, log_weights=logs)
        with pytest.raises(InvalidInputError, match="one per reference"):
            metric.aggregate_utility(samples, log_weights=logs[:2])
        with pytest.raises(InvalidOptionError, match="-inf"):
            metric.aggregate_utility(samples, log_weights=[math.nan, 0.0, 0.0, 0.0])
