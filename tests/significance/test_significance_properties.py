"""Property tests for bootstrap intervals and paired tests.

- On random corpora, every mean, interval and p-value equals sacrebleu 2.6.0's (BLEU, chrF,
  TER; both tests; any seed), except where the real difference is exactly 0 (bleuprint's
  p-value is then 1, see ``estimates.p_value``).
- On random statistics large enough that float32 sums round (over 2^24), the bootstrap's
  float32 arithmetic equals sacrebleu's ``_bootstrap_resample``.
- p-values lie in (0, 1]; a system against itself gives p = 1 and delta 0; results do not
  depend on the number of workers.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleuprint
from bleuprint.significance.bootstrap import resample_single_system
from bleuprint.significance.seed import resolve_seed

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.significance import PairedTest, _bootstrap_resample  # noqa: E402

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", ".", ",", "barked", "Mat", "x"]
line = st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join)


@st.composite
def corpora(draw: Any, max_systems: int = 3) -> tuple[list[tuple[str, list[str]]], list]:
    n = draw(st.integers(1, 25))
    n_systems = draw(st.integers(2, max_systems))
    systems = [(f"s{k}", draw(st.lists(line, min_size=n, max_size=n))) for k in range(n_systems)]
    n_refs = draw(st.integers(1, 3))
    refs = [draw(st.lists(line, min_size=n, max_size=n)) for _ in range(n_refs)]
    return systems, refs


def make_metrics(module: Any) -> list[Any]:
    return [module.BLEU(), module.CHRF(), module.TER()]


@SETTINGS
@given(
    data=corpora(),
    test=st.sampled_from(["bs", "ar"]),
    n=st.integers(1, 120),
    seed=st.integers(1, 2**32),  # 0 leaves sacrebleu's comparisons unseeded
)
def test_paired_tests_equal_sacrebleu(data, test: str, n: int, seed: int) -> None:
    systems, refs = data
    ours = bleuprint.paired_test(
        systems, refs, make_metrics(bleuprint), test=test, n_samples=n, seed=seed,
        n_ar_confidence=37 if test == "ar" else -1,
    )  # fmt: skip
    with pytest.MonkeyPatch.context() as env:
        env.setenv("SACREBLEU_SEED", str(seed))
        theirs_metrics = dict(zip(("BLEU", "CHRF", "TER"), make_metrics(sacrebleu)))
        _, scores = PairedTest(
            systems, theirs_metrics, refs, test_type=test, n_samples=n,
            n_ar_confidence=37 if test == "ar" else -1,
        )()  # fmt: skip
    for metric in ours.metrics:
        baseline_score = ours.results[metric][0].score
        for row, result in zip(ours.results[metric], scores[metric]):
            assert row.score == result.score
            assert row.mean == result.mean
            assert type(row.mean) is type(result.mean)
            assert row.ci == result.ci
            if row.p_value is None:
                continue
            assert 0 < row.p_value <= 1
            if row.score == baseline_score:
                # A zero real difference: samples equal to it count too (>=), so the p-value
                # is at least sacrebleu's; randomization samples are all >= 0, so it is 1.
                assert row.p_value >= result.p_value
                if test == "ar":
                    assert row.p_value == 1.0
            else:
                assert row.p_value == result.p_value


@SETTINGS
@given(data=corpora(max_systems=2), seed=st.one_of(st.none(), st.integers(0, 2**32)))
def test_single_system_bootstrap_equals_sacrebleu(data, seed) -> None:
    (_, hyps), _ = data[0]
    refs = data[1]
    with pytest.MonkeyPatch.context() as env:
        env.setenv("SACREBLEU_SEED", str(seed))
        for ours_metric, theirs_metric in zip(make_metrics(bleuprint), make_metrics(sacrebleu)):
            ours = ours_metric.corpus_score(hyps, refs, n_bootstrap=150)
            if seed is None:  # unseeded: different draws, nothing to compare but sanity
                assert np.isfinite(ours.mean)
                continue
            try:
                theirs = theirs_metric.corpus_score(hyps, refs, n_bootstrap=150)
            except TypeError:
                # statistics.mean refuses a Python 0.0 among float32 scores; bleuprint
                # averages them as floats instead.
                assert isinstance(ours.mean, float)
                continue
            assert ours.mean == theirs._mean
            assert type(ours.mean) is type(theirs._mean)
            assert ours.ci == theirs._ci
            assert (
                str(ours_metric.get_signature()).split("|")[:3]
                == str(theirs_metric.get_signature()).split("|")[:3]
            )


@st.composite
def large_stats(draw: Any, width: int, ordered_pairs: bool) -> np.ndarray:
    """Rows whose column sums pass 2^24, where float32 addition starts rounding."""
    n = draw(st.integers(2, 40))
    big = st.integers(0, 3_000_000)
    rows = np.array(draw(st.lists(st.lists(big, min_size=width, max_size=width),
                                  min_size=n, max_size=n)), dtype=np.int64)  # fmt: skip
    if ordered_pairs:  # matches never exceed counts
        rows[:, 2::3] = np.minimum(rows[:, 2::3], np.minimum(rows[:, 0::3], rows[:, 1::3]))
    return rows


@SETTINGS
@given(rows=large_stats(width=3 * 6, ordered_pairs=True), seed=st.integers(0, 1000))
def test_float32_chrf_sums_round_like_sacrebleu(rows: np.ndarray, seed: int) -> None:
    config = bleuprint.CHRFConfig()
    stats = bleuprint.Stats(rows, config, nrefs=1)
    ours = resample_single_system(stats, 60, resolve_seed(seed)).as_objects()
    with pytest.MonkeyPatch.context() as env:
        env.setenv("SACREBLEU_SEED", str(seed))
        _, theirs = _bootstrap_resample(rows.tolist(), sacrebleu.CHRF(), 60)
    assert ours == [s.score for s in theirs]
    assert [type(v) for v in ours] == [type(s.score) for s in theirs]


@SETTINGS
@given(
    rows=large_stats(width=10, ordered_pairs=False),
    seed=st.integers(0, 1000),
    smooth=st.sampled_from(["exp", "floor", "add-k", "none"]),
)
def test_float32_bleu_sums_round_like_sacrebleu(rows: np.ndarray, seed: int, smooth) -> None:
    rows[:, 2:6] = np.minimum(rows[:, 2:6], rows[:, 6:10])  # correct <= total
    rows[::3, 3:6] = 0  # some zero matches, so smoothing applies
    config = bleuprint.BLEUConfig(smooth_method=smooth)
    stats = bleuprint.Stats(rows, config, nrefs=1)
    ours = resample_single_system(stats, 60, resolve_seed(seed)).as_objects()
    with pytest.MonkeyPatch.context() as env:
        env.setenv("SACREBLEU_SEED", str(seed))
        _, theirs = _bootstrap_resample(rows.tolist(), sacrebleu.BLEU(smooth_method=smooth), 60)
    assert ours == [s.score for s in theirs]


@SETTINGS
@given(data=corpora(max_systems=2), test=st.sampled_from(["bs", "ar"]))
def test_self_comparison_and_workers(data, test: str) -> None:
    (name, hyps), _ = data[0]
    refs = data[1]
    systems = [(name, hyps), ("copy", list(hyps))]
    results = [
        bleuprint.paired_test(
            systems, refs, make_metrics(bleuprint), test=test, n_samples=80, workers=w
        )
        for w in (1, -1)
    ]
    assert results[0].to_dict() == results[1].to_dict()
    for comparison in results[0].comparisons:
        assert comparison.p_value == 1.0
        assert comparison.delta == 0.0
