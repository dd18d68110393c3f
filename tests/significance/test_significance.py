"""Bootstrap intervals and paired tests: the seed rules, the WER family, corrections, clusters
and bad input. sacrebleu's published bootstrap vectors (sacrebleu.md §5.1) are golden vectors in
tests/data/golden_significance.jsonl, checked by tests/metrics/test_golden.py."""

from __future__ import annotations

import statistics

import numpy as np
import pytest

import bleuprint
from bleuprint.errors import InvalidInputError, InvalidOptionError, StatsMismatchError
from bleuprint.significance import adjust_p_values, resolve_seed
from bleuprint.significance.clusters import rank_clusters
from bleuprint.significance.promotion import numpy_promotion, numpy_scalar_type

# sacrebleu's README example, 2 references.
HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
]


@pytest.fixture(autouse=True)
def _default_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    monkeypatch.delenv("BLEUPRINT_SEED", raising=False)


def test_signature_names_the_bootstrap_and_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    bleu = bleuprint.BLEU()
    bleu.corpus_score(HYPS, REFS, n_bootstrap=1000)
    assert "|bs:1000|seed:12345|" in str(bleu.get_signature())
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    bleu.corpus_score(HYPS, REFS, n_bootstrap=1000)
    assert "|bs:1000|seed:7|" in str(bleu.get_signature())


def test_bleuprint_seed_alias(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    expected = bleuprint.BLEU().corpus_score(HYPS, REFS, n_bootstrap=500).mean
    monkeypatch.delenv("SACREBLEU_SEED")
    monkeypatch.setenv("BLEUPRINT_SEED", "7")
    assert bleuprint.BLEU().corpus_score(HYPS, REFS, n_bootstrap=500).mean == expected
    monkeypatch.setenv("SACREBLEU_SEED", "7")  # both set, to the same value: fine
    assert resolve_seed().value == 7
    monkeypatch.setenv("SACREBLEU_SEED", "8")
    with pytest.raises(InvalidOptionError, match="SACREBLEU_SEED and BLEUPRINT_SEED"):
        resolve_seed()


@pytest.mark.parametrize("text", ["abc", "-3", "1.5", ""])
def test_bad_seed_values(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", text)
    with pytest.raises(InvalidOptionError, match="SACREBLEU_SEED must be a non-negative"):
        bleuprint.BLEU().corpus_score(HYPS, REFS, n_bootstrap=10)


def test_seed_labels() -> None:
    assert resolve_seed("None").value is None
    assert resolve_seed("NONE").label == "none"
    seed = resolve_seed("007")
    assert (seed.value, seed.label, seed.paired_label) == (7, "007", "7")
    assert resolve_seed(0).paired_value is None  # sacrebleu: `seed if seed else None`
    assert resolve_seed(None).paired_label == "none"


def test_unseeded_runs_differ_but_stay_valid() -> None:
    stats = bleuprint.BLEU().stats(HYPS * 20, [r * 20 for r in REFS])
    a = bleuprint.bootstrap_ci(stats, 200, seed=None)
    b = bleuprint.bootstrap_ci(stats, 200, seed=None)
    assert a.seed is None
    assert a.lower <= a.upper
    assert b.lower <= b.upper


def test_bootstrap_ci_dataclass_matches_corpus_score() -> None:
    bleu = bleuprint.CHRF()
    stats = bleu.stats(HYPS, REFS)
    ci = bleuprint.bootstrap_ci(stats, 1000, seed=12345)
    score = bleu.corpus_score(HYPS, REFS, n_bootstrap=1000)
    assert (ci.metric, ci.score, ci.n_samples, ci.seed) == ("chrF2", score.score, 1000, 12345)
    assert ci.mean == score.mean
    assert ci.ci == score.ci
    # sacrebleu's half-width 0.5 * (upper - lower) on chrF's numpy scalars: float32 under
    # numpy 2, float64 under numpy 1.
    scalar = numpy_scalar_type(numpy_promotion())
    assert ci.ci == float(0.5 * (scalar(ci.upper) - scalar(ci.lower)))


def naive_wer_bootstrap(rows: np.ndarray, n: int, seed: int) -> list[float]:
    """An independent WER bootstrap: numpy row sums of the same draws."""
    rng = np.random.default_rng(seed)
    idx = rng.choice(len(rows), size=(n, len(rows)), replace=True)
    sums = rows[idx].sum(axis=1)
    s, d, i, h = sums[:, 0], sums[:, 1], sums[:, 2], sums[:, 3]
    return [float(x) for x in 100 * (s + d + i) / (h + s + d)]


@pytest.mark.parametrize("metric", [bleuprint.WER, bleuprint.CER])
def test_wer_family_bootstrap(metric) -> None:
    hyps = [h.lower() for h in HYPS] * 30
    refs = [REFS[0] * 30]
    wer = metric()
    stats = wer.stats(hyps, refs)
    ci = bleuprint.bootstrap_ci(stats, 400, seed=3)
    expected = sorted(naive_wer_bootstrap(stats.rows, 400, 3))
    assert ci.lower == expected[10]
    assert ci.upper == expected[389]
    assert ci.mean == statistics.mean(expected)  # sacrebleu's mean: statistics.mean
    score = wer.corpus_score(hyps, refs, n_bootstrap=400)
    assert "μ = " in score.format()


def test_wer_family_paired_test() -> None:
    refs = [REFS[0] * 10]
    systems = {"base": HYPS * 10, "same": HYPS * 10, "other": REFS[1] * 10}
    result = bleuprint.paired_test(systems, refs, [bleuprint.WER(), bleuprint.CER()], seed=1)
    assert result.metrics == ["WER", "CER"]
    same = result.result("same", "WER")
    assert same.p_value == 1.0
    assert same.score == result.result("base", "WER").score


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_self_comparison_has_p_one_and_zero_delta(test: str) -> None:
    refs = [REFS[0] * 15]
    systems = [("a", HYPS * 15), ("b", HYPS * 15)]
    metrics = [bleuprint.BLEU(), bleuprint.CHRF(), bleuprint.TER()]
    result = bleuprint.paired_test(systems, refs, metrics, test=test, n_samples=300, seed=5)
    for comparison in result.comparisons:
        assert comparison.p_value == 1.0
        assert comparison.delta == 0.0
        assert not comparison.significant


def test_workers_do_not_change_results() -> None:
    refs = [REFS[0] * 40]
    systems = [("a", HYPS * 40), ("b", REFS[1] * 40), ("c", list(reversed(HYPS)) * 40)]
    metrics = [bleuprint.BLEU(), bleuprint.CHRF(), bleuprint.TER()]
    for test in ("bs", "ar"):
        results = [
            bleuprint.paired_test(systems, refs, metrics, test=test, n_samples=500, workers=w)
            for w in (1, 2, -1)
        ]
        assert results[0].to_dict() == results[1].to_dict() == results[2].to_dict()


def test_paired_results_are_plain_data() -> None:
    refs = [REFS[0] * 10]
    systems = {"base": HYPS * 10, "new": REFS[1] * 10}
    result = bleuprint.paired_test(systems, refs, n_samples=100, seed=1)
    assert result.baseline == "base"
    baseline, new = result.results["BLEU"]
    assert baseline.p_value is None
    assert baseline.mean is not None
    assert new.p_value is not None
    (comparison,) = result.comparisons
    assert comparison.delta == new.score - baseline.score
    data = result.to_dict()
    assert data["systems"][1]["BLEU"]["p_value"] == new.p_value
    assert "bs:100" in data["signatures"]["BLEU"]
    assert '"comparisons"' in result.to_json()


def test_all_pairs_corrections_and_clusters() -> None:
    refs = [REFS[0] * 25]
    systems = {"a": REFS[0] * 25, "b": HYPS * 25, "c": HYPS * 25, "d": REFS[1] * 25}
    result = bleuprint.paired_test(systems, refs, all_pairs=True, n_samples=300, seed=2)
    assert result.correction == "holm"
    assert len(result.comparisons) == 6
    raw = [c.p_value for c in result.comparisons]
    assert [c.adjusted_p_value for c in result.comparisons] == adjust_p_values(raw, "holm")
    # b and c are identical: never significantly different, always in one cluster.
    clusters = result.clusters["BLEU"]
    assert any({"b", "c"} <= set(c) for c in clusters)
    assert clusters[0] == ["a"]  # a equals the reference: best and clearly different
    numbers = {r.system: r.cluster for r in result.results["BLEU"]}
    assert numbers["a"] == 1
    assert numbers["b"] == numbers["c"]


def test_baseline_mode_defaults_to_sacrebleu_p_values() -> None:
    refs = [REFS[0] * 10]
    systems = {"a": HYPS * 10, "b": REFS[1] * 10, "c": REFS[0] * 10}
    plain = bleuprint.paired_test(systems, refs, n_samples=200, seed=4)
    assert plain.correction == "none"
    assert all(c.adjusted_p_value == c.p_value for c in plain.comparisons)
    holm = bleuprint.paired_test(systems, refs, n_samples=200, seed=4, correction="bonferroni")
    assert [c.adjusted_p_value for c in holm.comparisons] == [
        min(1.0, 2 * c.p_value) for c in plain.comparisons
    ]


def test_holm_and_bonferroni_by_hand() -> None:
    p = [0.01, 0.04, 0.03, 0.005]
    assert adjust_p_values(p, "bonferroni") == [0.04, 0.16, 0.12, 0.02]
    # Sorted: 0.005*4, 0.01*3, 0.03*2, 0.04*1 -> 0.02, 0.03, 0.06, 0.06 (monotone).
    assert adjust_p_values(p, "holm") == [0.01 * 3, 0.03 * 2, 0.03 * 2, 0.005 * 4]
    assert adjust_p_values(p, "none") == p
    assert adjust_p_values([0.9, 0.8], "holm") == [1.0, 1.0]
    with pytest.raises(InvalidOptionError, match="unknown correction"):
        adjust_p_values(p, "fdr")


def test_rank_clusters() -> None:
    different = {frozenset(p) for p in [("a", "c"), ("a", "d"), ("b", "d"), ("c", "d")]}
    assert rank_clusters(["a", "b", "c", "d"], different) == [["a", "b"], ["c"], ["d"]]
    assert rank_clusters(["a", "b"], set()) == [["a", "b"]]


def test_statistics_api_matches_text_api() -> None:
    refs = [REFS[0] * 12]
    systems = {"a": HYPS * 12, "b": REFS[1] * 12}
    metrics = [bleuprint.BLEU(), bleuprint.TER()]
    from_text = bleuprint.paired_test(systems, refs, metrics, test="ar", n_samples=400, seed=9)
    stats = {name: [m.stats(h, refs) for m in metrics] for name, h in systems.items()}
    from_stats = bleuprint.paired_test_stats(stats, test="ar", n_samples=400, seed=9)
    assert from_text.to_dict() == from_stats.to_dict()


def test_progress_callback() -> None:
    refs = [REFS[0]]
    calls = []
    bleuprint.paired_test(
        {"a": HYPS, "b": REFS[1], "c": REFS[0]},
        refs,
        n_samples=20,
        all_pairs=True,
        progress=lambda done, total: calls.append((done, total)),
    )
    assert calls == [(1, 3), (2, 3), (3, 3)]


class TestBadInput:
    def test_single_system(self) -> None:
        with pytest.raises(InvalidInputError, match="at least 2 systems"):
            bleuprint.paired_test({"a": HYPS}, REFS)

    def test_systems_of_different_lengths(self) -> None:
        with pytest.raises(InvalidInputError, match="'a' has 3, 'b' has 2"):
            bleuprint.paired_test({"a": HYPS, "b": HYPS[:2]}, REFS)
        stats = {"a": [bleuprint.BLEU().stats(HYPS, REFS)]}
        stats["b"] = [bleuprint.BLEU().stats(HYPS[:2], [r[:2] for r in REFS])]
        with pytest.raises(InvalidInputError, match="same number of segments"):
            bleuprint.paired_test_stats(stats)

    @pytest.mark.parametrize("n", [0, -5, 1.5, True])
    def test_non_positive_sizes(self, n) -> None:
        with pytest.raises(InvalidOptionError, match="must be a positive integer"):
            bleuprint.paired_test({"a": HYPS, "b": HYPS}, REFS, n_samples=n)
        with pytest.raises(InvalidOptionError, match="must be a positive integer"):
            bleuprint.bootstrap_ci(bleuprint.BLEU().stats(HYPS, REFS), n)
        with pytest.raises(InvalidOptionError, match="n_bootstrap must be a positive"):
            bleuprint.BLEU().corpus_score(HYPS, REFS, n_bootstrap=n)

    def test_unknown_options(self) -> None:
        systems = {"a": HYPS, "b": HYPS}
        with pytest.raises(InvalidOptionError, match="unknown test 'x'"):
            bleuprint.paired_test(systems, REFS, test="x")
        with pytest.raises(InvalidOptionError, match="unknown correction"):
            bleuprint.paired_test(systems, REFS, correction="fdr")
        with pytest.raises(InvalidOptionError, match="metrics is empty"):
            bleuprint.paired_test(systems, REFS, [])
        with pytest.raises(InvalidOptionError, match=r"\['BLEU'\] repeat"):
            bleuprint.paired_test(
                systems, REFS, [bleuprint.BLEU(), bleuprint.BLEU(tokenize="intl")]
            )
        for alpha in (0, 1.5, "0.05"):
            with pytest.raises(InvalidOptionError, match="alpha must be"):
                bleuprint.paired_test(systems, REFS, alpha=alpha)

    def test_mismatched_statistics(self) -> None:
        a = bleuprint.BLEU().stats(HYPS, REFS)
        b = bleuprint.BLEU(lowercase=True).stats(HYPS, REFS)
        with pytest.raises(StatsMismatchError, match="baseline's"):
            bleuprint.paired_test_stats({"a": [a], "b": [b]})
        with pytest.raises(InvalidInputError, match="one Stats per metric"):
            bleuprint.paired_test_stats({"a": [a], "b": [a, a]})
        with pytest.raises(InvalidInputError, match="not Stats"):
            bleuprint.paired_test_stats({"a": [a], "b": ["text"]})
        with pytest.raises(InvalidInputError, match="no statistics for the baseline 'a'"):
            bleuprint.paired_test_stats({"a": [], "b": []})

    def test_duplicate_and_malformed_systems(self) -> None:
        with pytest.raises(InvalidInputError, match="unique"):
            bleuprint.paired_test([("a", HYPS), ("a", HYPS)], REFS)
        with pytest.raises(InvalidInputError, match=r"\{name: outputs\}"):
            bleuprint.paired_test([HYPS, HYPS], REFS)

    def test_core_rejects_bad_indices(self) -> None:
        from bleuprint import _core

        stats = np.ones((3, 2), dtype=np.int64)
        with pytest.raises(InvalidInputError, match="out of range"):
            _core.bootstrap_sums(stats, np.array([[0, 1, 3]]))
        with pytest.raises(InvalidInputError, match="need 3 columns"):
            _core.bootstrap_sums(stats, np.array([[0, 1]]))
        with pytest.raises(InvalidInputError, match="need 1 columns"):
            _core.randomization_sums(stats, stats, np.ones((2, 2), dtype=np.uint8))


def test_unseeded_comparisons_resample_both_systems_alike() -> None:
    """Unseeded, each comparison draws new indices; the baseline must be resampled with the
    same indices as the system it is compared with (copies of it then give p = 1)."""
    refs = [REFS[0] * 20]
    systems = {name: HYPS * 20 for name in "abcdef"}
    for _ in range(3):
        result = bleuprint.paired_test(systems, refs, test="bs", n_samples=200, seed=None)
        assert [c.p_value for c in result.comparisons] == [1.0] * 5
