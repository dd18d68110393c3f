"""Paired significance tests between systems: bootstrap resampling (Koehn 2004, as Moses'
``bootstrap-hypothesis-difference-significance.pl``) and approximate randomization (Riezler
and Maxwell 2005, as Multeval).

Each comparison draws its resamples from a fresh ``default_rng(seed)``, exactly as
sacrebleu's ``PairedTest`` does, so every mean, interval and p-value equals sacrebleu's for
the same seed. Everything runs on statistics: text is scored once per system and metric.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from itertools import combinations
from typing import Any, Optional, Union

import numpy as np

from bleuprint.errors import InvalidInputError, InvalidOptionError, StatsMismatchError
from bleuprint.io.layout import as_text_sequence
from bleuprint.io.progress import Progress, reporter
from bleuprint.metrics import BLEU
from bleuprint.metrics.metric import Metric
from bleuprint.metrics.stats import Stats
from bleuprint.significance.bootstrap import check_samples, resample_single_system
from bleuprint.significance.clusters import cluster_numbers, rank_clusters
from bleuprint.significance.correction import adjust_p_values, check_correction
from bleuprint.significance.draws import (
    SwapFlags,
    bootstrap_indices,
    bootstrap_scores,
    randomization_scores,
)
from bleuprint.significance.estimates import ResampledScores, estimate_ci, p_value
from bleuprint.significance.seed import FROM_ENVIRONMENT, Seed, SeedArg, resolve_seed

#: Test names and what they stand for.
TESTS = {"bs": "bootstrap resampling", "ar": "approximate randomization"}
#: Resamples (bs) or trials (ar) when none are given, as in sacrebleu.
DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}
#: sacrebleu's threshold for marking a p-value with ``*``.
DEFAULT_ALPHA = 0.05

#: Systems as ``{name: value}`` or ``[(name, value), ...]``; the first is the baseline.
NamedSystems = Union[Mapping[str, Any], Sequence[tuple[str, Any]]]


@dataclass(frozen=True)
class SystemResult:
    """One system's result for one metric (a row of sacrebleu's table).

    Attributes
    ----------
    system, metric
        Names (the metric's display name, e.g. ``chrF2``).
    score
        The corpus score.
    p_value
        Against the baseline, the first system (``None`` for the baseline itself). With
        every pair compared, the other pairs are in :attr:`PairedTestResult.comparisons`.
    mean, ci
        Bootstrap mean and 95% half-width (bootstrap tests, or randomization with
        ``n_ar_confidence``), else ``None``.
    adjusted_p_value
        ``p_value`` after the multiple-comparison correction.
    cluster
        With every pair compared: the number of the system's cluster, 1 for the best group
        of systems that do not differ significantly.
    """

    system: str
    metric: str
    score: float
    p_value: Optional[float] = None
    mean: Optional[float] = None
    ci: Optional[float] = None
    adjusted_p_value: Optional[float] = None
    cluster: Optional[int] = None


@dataclass(frozen=True)
class Comparison:
    """One paired comparison for one metric.

    Attributes
    ----------
    metric, baseline, system
        What was compared: ``system`` against ``baseline``.
    baseline_score, system_score
        Their corpus scores.
    p_value
        The test's p-value: how often resampling produced a difference at least as large.
    adjusted_p_value
        After the correction for the number of comparisons made for this metric.
    alpha
        The significance threshold.
    """

    metric: str
    baseline: str
    system: str
    baseline_score: float
    system_score: float
    p_value: float
    adjusted_p_value: float
    alpha: float = DEFAULT_ALPHA

    @property
    def delta(self) -> float:
        """``system_score - baseline_score``."""
        return self.system_score - self.baseline_score

    @property
    def significant(self) -> bool:
        """Whether the adjusted p-value is at most ``alpha`` (sacrebleu's ``*``)."""
        return self.adjusted_p_value <= self.alpha


@dataclass
class PairedTestResult:
    """Everything a paired test found, as plain data.

    ``results[metric]`` lists one :class:`SystemResult` per system in input order (the
    baseline first); ``comparisons`` lists every comparison made; ``clusters[metric]`` (with
    every pair compared) groups systems, best first, that do not differ significantly.
    """

    test: str
    n_samples: int
    n_ar_confidence: int
    seed: Seed
    correction: str
    alpha: float
    all_pairs: bool
    systems: list[str]
    metrics: list[str]
    results: dict[str, list[SystemResult]]
    comparisons: list[Comparison]
    signatures: dict[str, Any]
    clusters: dict[str, list[list[str]]] = field(default_factory=dict)

    @property
    def baseline(self) -> str:
        """The first system."""
        return self.systems[0]

    def result(self, system: str, metric: str) -> SystemResult:
        """The :class:`SystemResult` of ``system`` for ``metric``."""
        for r in self.results[metric]:
            if r.system == system:
                return r
        raise KeyError(f"no system named {system!r}")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: settings, per-system results, comparisons, clusters and
        signatures."""
        return {
            "test": self.test,
            "n_samples": self.n_samples,
            "seed": self.seed.value,
            "correction": self.correction,
            "alpha": self.alpha,
            "all_pairs": self.all_pairs,
            "systems": [
                {"system": s, **{m: _plain(asdict(self.result(s, m))) for m in self.metrics}}
                for s in self.systems
            ],
            "comparisons": [
                {**_plain(asdict(c)), "delta": float(c.delta), "significant": c.significant}
                for c in self.comparisons
            ],
            "clusters": self.clusters,
            "signatures": {m: str(sig) for m, sig in self.signatures.items()},
        }

    def to_json(self, indent: int = 2) -> str:
        """:meth:`to_dict` as JSON."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)


def _plain(d: dict[str, Any]) -> dict[str, Any]:
    # numpy scalars (sacrebleu keeps float32 means for chrF and TER) to Python floats.
    return {k: float(v) if isinstance(v, np.floating) else v for k, v in d.items()}


def _named(systems: NamedSystems) -> list[tuple[str, Any]]:
    items = list(systems.items()) if isinstance(systems, Mapping) else list(systems)
    named = []
    for item in items:
        if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)):
            raise InvalidInputError(
                "systems must be {name: outputs} or [(name, outputs), ...]; got an item of "
                f"type {type(item).__name__}"
            )
        named.append(item)
    names = [n for n, _ in named]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise InvalidInputError(f"system names must be unique; repeated: {duplicates}")
    if len(named) < 2:
        raise InvalidInputError(
            f"a paired test needs at least 2 systems (a baseline and one to compare), got "
            f"{len(named)}; for a single system use a bootstrap confidence interval "
            "(bootstrap_ci, corpus_score(..., n_bootstrap=1000) or --confidence)"
        )
    return named


def _check_stats(named: list[tuple[str, Sequence[Stats]]]) -> int:
    """The number of metrics, after checking every system has comparable statistics."""
    (bl_name, bl_stats), *_ = named
    if not bl_stats:
        raise InvalidInputError(
            f"no statistics for the baseline {bl_name!r}: give one Stats per metric"
        )
    for name, stats in named:
        if len(stats) != len(bl_stats):
            raise InvalidInputError(
                f"every system needs one Stats per metric: {bl_name!r} has {len(bl_stats)}, "
                f"{name!r} has {len(stats)}"
            )
        for k, (s, b) in enumerate(zip(stats, bl_stats)):
            if not isinstance(s, Stats):
                raise InvalidInputError(
                    f"system {name!r}: metric {k} is a {type(s).__name__}, not Stats"
                )
            if s.config != b.config:
                raise StatsMismatchError(
                    f"system {name!r}: metric {k} was computed with {s.config}, but the "
                    f"baseline's with {b.config}"
                )
            if len(s) != len(b):
                raise InvalidInputError(
                    f"systems must have the same number of segments: {bl_name!r} has "
                    f"{len(b)}, {name!r} has {len(s)}"
                )
    if len(bl_stats[0]) == 0:
        raise InvalidInputError("cannot test systems with zero segments")
    return len(bl_stats)


class _Draws:
    """The resamples of each comparison: sacrebleu seeds a fresh generator per comparison,
    so with a seed every comparison gets the same draws (made once here); unseeded, each gets
    new ones."""

    def __init__(self, test: str, n_segments: int, n_samples: int, n_conf: int, seed: Seed):
        self.test, self.n_segments = test, n_segments
        self.n_samples, self.n_conf = n_samples, n_conf
        self.seed = seed.paired_value
        self._cached: Optional[tuple[Any, Optional[np.ndarray]]] = None

    def next(self) -> tuple[Any, Optional[np.ndarray]]:
        """``(indices or SwapFlags, confidence indices or None)`` for one comparison."""
        if self._cached is not None:
            return self._cached
        rng = np.random.default_rng(self.seed)
        draws: tuple[Any, Optional[np.ndarray]]
        if self.test == "bs":
            draws = (bootstrap_indices(rng, self.n_segments, self.n_samples), None)
        else:
            swaps = SwapFlags.draw(rng, self.n_segments, self.n_samples)
            conf = bootstrap_indices(rng, self.n_segments, self.n_conf) if self.n_conf > 0 else None
            draws = (swaps, conf)
        if self.seed is not None:
            self._cached = draws
        return draws


class _BootstrapCache:
    """Resampled scores of the current draw, by statistics: with a seed, every comparison
    resamples the baseline with the same indices, so it is scored once."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._indices: Optional[np.ndarray] = None
        self._scores: dict[int, np.ndarray] = {}

    def scores(self, stats: Stats, indices: np.ndarray) -> np.ndarray:
        if indices is not self._indices:
            # A new draw (unseeded comparisons): forget the old one. Holding the indices keeps
            # their id from being reused while cached scores refer to them.
            self._indices, self._scores = indices, {}
        key = id(stats)  # the statistics live for the whole test
        if key not in self._scores:
            self._scores[key] = bootstrap_scores(stats, indices, self.workers).as_array()
        return self._scores[key]


def _compare(
    baseline: Stats,
    system: Stats,
    diff: float,
    draws: tuple[Any, Optional[np.ndarray]],
    test: str,
    cache: _BootstrapCache,
    workers: int,
) -> tuple[float, Any, Any]:
    """``(p_value, system mean, system ci)`` of one comparison for one metric whose corpus
    scores differ by ``diff`` (absolute), computed as sacrebleu's ``_paired_bs_test`` /
    ``_paired_ar_test``."""
    resamples, confidence = draws
    if test == "bs":
        scores_bl = cache.scores(baseline, resamples)
        scores_sys = cache.scores(system, resamples)
        mean, ci = estimate_ci(scores_sys)
        sample_diffs = np.abs(scores_sys - scores_bl)
        return p_value(sample_diffs - sample_diffs.mean(), diff), mean, ci
    scores_a, scores_b = randomization_scores(baseline, system, resamples, workers)
    p = p_value(np.abs(scores_a - scores_b), diff)
    if confidence is None:
        return p, None, None
    mean, ci = estimate_ci(cache.scores(system, confidence))
    return p, mean, ci


def _baseline_estimate(
    stats: Stats, n: int, seed: Seed, workers: int
) -> tuple[Optional[Any], Optional[Any]]:
    # sacrebleu's PairedTest bootstraps the baseline with _bootstrap_resample: a generator
    # seeded with the seed itself (0 stays 0 there).
    if n <= 0:
        return None, None
    resampled: ResampledScores = resample_single_system(stats, n, seed, workers)
    return estimate_ci(resampled.as_array())


def _resolve_options(
    test: str,
    n_samples: Optional[int],
    n_ar_confidence: int,
    all_pairs: bool,
    correction: Optional[str],
) -> tuple[int, int, str]:
    if test not in TESTS:
        raise InvalidOptionError(f"unknown test {test!r}; expected 'bs' or 'ar'")
    n = DEFAULT_SAMPLES[test] if n_samples is None else check_samples(n_samples)
    if isinstance(n_ar_confidence, bool) or not isinstance(n_ar_confidence, int):
        raise InvalidOptionError(f"n_ar_confidence must be an int, got {n_ar_confidence!r}")
    # sacrebleu: 0 means the default of 1000, negative disables it.
    n_conf = DEFAULT_SAMPLES["bs"] if n_ar_confidence == 0 else n_ar_confidence
    if correction is None:
        correction = "holm" if all_pairs else "none"
    return n, n_conf, check_correction(correction)


def _check_alpha(alpha: Any) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise InvalidOptionError(f"alpha must be a number between 0 and 1, got {alpha!r}")
    return float(alpha)


def paired_test_stats(
    systems: NamedSystems,
    *,
    test: str = "bs",
    n_samples: Optional[int] = None,
    n_ar_confidence: int = -1,
    all_pairs: bool = False,
    correction: Optional[str] = None,
    alpha: float = DEFAULT_ALPHA,
    seed: SeedArg = FROM_ENVIRONMENT,
    workers: int = -1,
    progress: Progress = None,
) -> PairedTestResult:
    """A paired test on precomputed statistics.

    Parameters
    ----------
    systems
        ``{name: [stats per metric]}`` (or a list of pairs); the first system is the
        baseline. Every system needs statistics of the same metrics, in the same order, over
        the same segments.
    test
        ``"bs"`` (paired bootstrap resampling) or ``"ar"`` (approximate randomization).
    n_samples
        Resamples (bs, default 1000) or trials (ar, default 10000).
    n_ar_confidence
        With ``"ar"``: bootstrap resamples for each system's mean and interval; ``-1`` (the
        default, as in sacrebleu's CLI) computes none, ``0`` means 1000.
    all_pairs
        Compare every pair of systems instead of every system with the baseline, and group
        systems into clusters.
    correction
        ``"holm"``, ``"bonferroni"`` or ``"none"`` across the comparisons of each metric.
        Default: ``"holm"`` with ``all_pairs``, else ``"none"`` (sacrebleu's p-values).
    alpha
        Significance threshold for :attr:`Comparison.significant` and the clusters.
    seed, workers
        As for :func:`~bleuprint.bootstrap_ci`: the seed (or ``SACREBLEU_SEED``), and threads
        that never change the results.
    progress
        ``True`` for a bar on stderr, or a callable ``progress(done, total)`` called after
        each comparison.
    """
    n, n_conf, correction = _resolve_options(
        test, n_samples, n_ar_confidence, all_pairs, correction
    )
    alpha = _check_alpha(alpha)
    resolved = resolve_seed(seed)
    named = _named(systems)
    named = [(name, list(stats)) for name, stats in named]
    n_metrics = _check_stats(named)
    names = [name for name, _ in named]
    by_name = dict(named)
    baseline_stats = named[0][1]
    scores = {name: [s.score() for s in stats] for name, stats in named}
    metric_names = [s.name for s in scores[names[0]]]
    repeated = sorted({m for m in metric_names if metric_names.count(m) > 1})
    if repeated:
        raise InvalidOptionError(
            f"each metric of a paired test needs its own name, but {repeated} repeat; test "
            "differently configured metrics of one name in separate calls"
        )

    pairs = list(combinations(names, 2)) if all_pairs else [(names[0], s) for s in names[1:]]
    report = reporter(progress, total=len(pairs), what="paired test", unit="comparisons")
    draws = _Draws(test, len(baseline_stats[0]), n, n_conf, resolved)
    cache = _BootstrapCache(workers)
    found: dict[tuple[str, str, int], tuple[float, Any, Any]] = {}
    for done, (a, b) in enumerate(pairs, start=1):
        drawn = draws.next()
        for k in range(n_metrics):
            diff = abs(scores[a][k].score - scores[b][k].score)
            found[a, b, k] = _compare(
                by_name[a][k], by_name[b][k], diff, drawn, test, cache, workers
            )
        if report is not None:
            report(done, len(pairs))

    comparisons: list[Comparison] = []
    results: dict[str, list[SystemResult]] = {}
    clusters: dict[str, list[list[str]]] = {}
    confidence_n = n if test == "bs" else n_conf
    for k, metric in enumerate(metric_names):
        raw = [found[a, b, k][0] for a, b in pairs]
        adjusted = adjust_p_values(raw, correction)
        family = [
            Comparison(metric, a, b, scores[a][k].score, scores[b][k].score, p, adj, alpha)
            for (a, b), p, adj in zip(pairs, raw, adjusted)
        ]
        comparisons.extend(family)
        if all_pairs:
            higher_is_better = baseline_stats[k].config.higher_is_better
            ranked = sorted(names, key=lambda s: scores[s][k].score, reverse=higher_is_better)
            different = {frozenset((c.baseline, c.system)) for c in family if c.significant}
            clusters[metric] = rank_clusters(ranked, different)
        results[metric] = _system_rows(
            k,
            metric,
            by_name,
            scores,
            found,
            family,
            clusters.get(metric),
            (confidence_n, resolved, workers),
        )
    signatures = {}
    for k, metric in enumerate(metric_names):
        sig = baseline_stats[k].signature()
        sig.update("seed", resolved.paired_label)
        sig.update(test, n)
        if n_conf > 0 and test == "ar":
            sig.update("bs", n_conf)
        signatures[metric] = sig
    return PairedTestResult(
        test=test,
        n_samples=n,
        n_ar_confidence=n_conf,
        seed=resolved,
        correction=correction,
        alpha=alpha,
        all_pairs=all_pairs,
        systems=names,
        metrics=metric_names,
        results=results,
        comparisons=comparisons,
        signatures=signatures,
        clusters=clusters,
    )


def _system_rows(
    k: int,
    metric: str,
    by_name: dict[str, list[Stats]],
    scores: dict[str, list[Any]],
    found: dict[tuple[str, str, int], tuple[float, Any, Any]],
    family: list[Comparison],
    clusters: Optional[list[list[str]]],
    confidence: tuple[int, Seed, int],
) -> list[SystemResult]:
    """The table rows of one metric, sacrebleu's ``Result`` per system: the baseline's own
    bootstrap estimate, then each system's comparison with the baseline (made in both modes),
    and the cluster numbers when every pair was compared."""
    numbers = cluster_numbers(clusters) if clusters else {}
    names = list(by_name)
    baseline = names[0]
    adjusted = {c.system: c.adjusted_p_value for c in family if c.baseline == baseline}
    n_conf, seed, workers = confidence
    mean, ci = _baseline_estimate(by_name[baseline][k], n_conf, seed, workers)
    rows = [
        SystemResult(
            baseline, metric, scores[baseline][k].score, None, mean, ci, None, numbers.get(baseline)
        )
    ]
    for name in names[1:]:
        p, mean, ci = found[baseline, name, k]
        rows.append(
            SystemResult(
                name, metric, scores[name][k].score, p, mean, ci, adjusted[name], numbers.get(name)
            )
        )
    return rows


def paired_test(
    systems: NamedSystems,
    references: Optional[Sequence[Sequence[Optional[str]]]] = None,
    metrics: Optional[Sequence[Any]] = None,
    **options: Any,
) -> PairedTestResult:
    """A paired test on system outputs: ``PairedTest`` of sacrebleu as one call.

    Parameters
    ----------
    systems
        ``{name: hypotheses}`` (or a list of ``(name, hypotheses)``); the first is the
        baseline.
    references
        Reference streams (``references[k][i]``); ``None`` uses the references given to each
        metric's constructor.
    metrics
        Metric objects (``BLEU()``, ``CHRF()``, ``TER()``, ``WER()``, ...); default BLEU.
    **options
        As :func:`paired_test_stats` (``test``, ``n_samples``, ``all_pairs``,
        ``correction``, ``seed``, ``workers``, ...).

    Examples
    --------
    >>> import bleuprint
    >>> refs = [["the cat sat on the mat", "a dog barked", "it rains"]]
    >>> result = bleuprint.paired_test(
    ...     {"base": ["the cat sat on a mat", "a dog", "it rains"],
    ...      "new": ["the cat sat on the mat", "a dog barked", "it rains"]},
    ...     refs, test="ar", n_samples=200, seed=1)
    >>> comparison = result.comparisons[0]
    >>> comparison.system, comparison.delta > 0, 0 < comparison.p_value <= 1
    ('new', True, True)
    """
    if isinstance(metrics, (str, Metric)):
        metrics = [metrics]  # one metric given alone
    metric_objects = [BLEU()] if metrics is None else list(metrics)
    if not metric_objects:
        raise InvalidOptionError("metrics is empty: give at least one metric object")
    for metric in metric_objects:
        if not isinstance(metric, Metric):
            raise InvalidOptionError(
                f"metrics must be metric objects such as bleuprint.BLEU() or CHRF(), got "
                f"{metric!r:.40}; e.g. metrics=[bleuprint.BLEU(), bleuprint.CHRF()]"
            )
    named = [(name, as_text_sequence(hyps, f"system {name!r}")) for name, hyps in _named(systems)]
    lengths = {name: len(hyps) for name, hyps in named}
    (first, n), *_ = lengths.items()
    for name, length in lengths.items():
        if length != n:
            raise InvalidInputError(
                f"systems must have the same number of segments: {first!r} has {n}, "
                f"{name!r} has {length}"
            )
    stats = [(name, [m.stats(hyps, references) for m in metric_objects]) for name, hyps in named]
    return paired_test_stats(stats, **options)
