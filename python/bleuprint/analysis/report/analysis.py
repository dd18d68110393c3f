"""Every section of a report as plain data, computed in one pass: each system's text is
tokenized once and scored once per metric; every later analysis reads those per-segment
statistics and tokens."""

from __future__ import annotations

import itertools
from typing import Any, Optional

import numpy as np

from bleuprint.analysis.report import buckets as bk
from bleuprint.analysis.report.examples import example, pick_examples
from bleuprint.analysis.report.inputs import META_FIELDS, ReportInputs
from bleuprint.analysis.report.ngrams import NgramTable, characteristic_ngrams
from bleuprint.metrics import BLEU, CHRF, ROUGE, TER
from bleuprint.significance import bootstrap_ci, paired_test_stats
from bleuprint.tokenizers import tokenize

#: Pages stay this size whatever the test set: examples, documents and pairs are capped.
N_DIFFERENCES = 10
N_WORST = 3
N_WORST_DOCUMENTS = 15
MAX_ALL_PAIRS = 10  # systems; beyond it, n-grams compare each system with the best one
TOP_NGRAMS = 10
#: Resamples behind bucket error bars (at most; fewer when n_bootstrap is smaller).
BUCKET_SAMPLES = 200


#: The classes of the ``metrics=`` names.
METRICS: dict[str, Any] = {"bleu": BLEU, "chrf": CHRF, "ter": TER, "rouge": ROUGE}


def _better(config: Any, scores: np.ndarray) -> np.ndarray:
    """Scores turned so that higher is better (TER is negated)."""
    return scores if config.higher_is_better else -scores


def analyse(
    inputs: ReportInputs, *, n_bootstrap: int = 1000, seed: Optional[int] = 12345
) -> dict[str, Any]:
    """All sections as JSON-ready data (see docs/report.md for the fields)."""
    names = list(inputs.systems)
    metrics = [METRICS[m]() for m in inputs.metrics]
    stats = {n: [m.stats(h, inputs.references) for m in metrics] for n, h in inputs.systems.items()}
    configs = [stats[names[0]][k].config for k in range(len(metrics))]
    sentence = {n: [s.sentence_scores() for s in stats[n]] for n in names}
    floats = {n: [s.config.float_rows(s.rows) for s in stats[n]] for n in names}

    # Tokens (13a), once: lengths, word accuracy, n-grams and examples read them.
    ref_tokens = [[line.split() for line in tokenize(r, "13a")] for r in inputs.references]
    hyp_tokens = {
        n: [line.split() for line in tokenize(h, "13a")] for n, h in inputs.systems.items()
    }

    # Order systems by the first metric, best first.
    primary = [float(stats[n][0].score().score) for n in names]
    order = sorted(
        names, key=lambda n: -float(_better(configs[0], np.array(primary[names.index(n)])))
    )

    data: dict[str, Any] = {
        "systems": order,
        "segments": inputs.n_segments,
        "references": len(inputs.references),
        "test_set": inputs.test_set,
        "n_bootstrap": n_bootstrap,
        "seed": seed,
    }
    data["scores"], labels = _scores(order, stats, n_bootstrap, seed, paired_test_stats)
    data["metrics"] = labels

    resampler = bk.Resampler(min(n_bootstrap, BUCKET_SAMPLES), seed)
    weights = resampler.weights(inputs.n_segments)
    ref_len = np.array([len(t) for t in ref_tokens[0]])
    data["buckets"] = _sentence_buckets(
        order, configs, labels, floats, sentence, ref_len, hyp_tokens, weights, resampler
    )
    table = NgramTable(ref_tokens[0], {n: hyp_tokens[n] for n in order})
    data["word_accuracy"] = _word_accuracy(inputs, order, table, weights)
    data["metadata"] = _metadata(inputs, order, configs, labels, floats)

    if len(order) <= MAX_ALL_PAIRS:
        pairs = list(itertools.combinations(order, 2))
    else:
        pairs = [(order[0], other) for other in order[1:]]
    data["ngrams"] = {
        "alpha": 1.0,
        "orders": [1, 4],
        "pairs": characteristic_ngrams(table, pairs, 1.0, TOP_NGRAMS),
    }

    # Examples rank by sentence chrF (better at sentence level), else BLEU, else TER.
    k = next((inputs.metrics.index(m) for m in ("chrf", "bleu") if m in inputs.metrics), 0)
    goodness = {n: _better(configs[k], sentence[n][k]) for n in order}
    shown = {n: sentence[n][k] for n in order}
    picks = pick_examples(order, goodness, N_DIFFERENCES, N_WORST)
    args = (inputs.systems, hyp_tokens, inputs.references, ref_tokens, inputs.sources, shown)
    data["examples"] = {
        "metric": labels[k],
        "pair": picks["pair"],
        "differences": [example(i, picks["pair"], *args) for i in picks["differences"]],
        "worst": {n: [example(i, [n], *args) for i in picks["worst"][n]] for n in order},
    }
    data["sentence_scores"] = _histograms(order, labels, sentence)
    data["scatter"] = (
        None
        if len(order) < 2
        else {
            "metric": labels[k],
            "x": order[0],
            "y": order[1],
            "points": [sentence[order[0]][k].tolist(), sentence[order[1]][k].tolist()],
        }
    )
    return data


def _scores(
    order: list[str], stats: dict[str, list[Any]], n: int, seed: Any, test: Any
) -> tuple[dict[str, Any], list[str]]:
    """Scores, intervals, all-pairs tests and signatures; also the metrics' display names
    (``BLEU``, ``chrF2``, ``TER``) in the order given."""
    rows = {name: {} for name in order}  # type: dict[str, dict[str, Any]]
    section: dict[str, Any] = {"rows": rows, "comparisons": [], "clusters": {}, "signatures": {}}
    if len(order) < 2:
        labels = []
        for k, one in enumerate(stats[order[0]]):
            ci = bootstrap_ci(one, n, seed=seed)
            label = ci.metric
            labels.append(label)
            rows[order[0]][label] = {
                "score": float(ci.score),
                "mean": float(ci.mean),
                "ci": float(ci.ci),
                "lower": float(ci.lower),
                "upper": float(ci.upper),
                "cluster": 1,
            }
            section["signatures"][label] = str(stats[order[0]][k].signature())
        return section, labels
    result = test(
        {name: stats[name] for name in order},
        test="bs",
        n_samples=n,
        all_pairs=True,
        correction="holm",
        seed=seed,
    )
    labels = list(result.results)
    for label in labels:
        for r in result.results[label]:
            rows[r.system][label] = {
                "score": float(r.score),
                "mean": float(r.mean),
                "ci": float(r.ci),
                "lower": float(r.mean - r.ci),
                "upper": float(r.mean + r.ci),
                "cluster": r.cluster,
            }
        section["clusters"][label] = result.clusters[label]
        section["signatures"][label] = str(result.signatures[label])
    section["comparisons"] = [
        {
            "metric": c.metric,
            "a": c.baseline,
            "b": c.system,
            "a_score": float(c.baseline_score),
            "b_score": float(c.system_score),
            "delta": float(c.delta),
            "p_value": float(c.p_value),
            "adjusted_p_value": float(c.adjusted_p_value),
            "significant": bool(c.significant),
        }
        for c in result.comparisons
    ]
    return section, labels


def _sentence_buckets(
    order: list[str],
    configs: list[Any],
    labels: list[str],
    floats: dict[str, list[np.ndarray]],
    sentence: dict[str, list[np.ndarray]],
    ref_len: np.ndarray,
    hyp_tokens: dict[str, list[list[str]]],
    weights: np.ndarray,
    resampler: bk.Resampler,
) -> list[dict[str, Any]]:
    kinds: list[tuple[str, str, list[str], Any]] = [
        (
            "length",
            "reference length (words)",
            bk.bucket_labels(bk.LENGTH_CUTOFFS),
            lambda n: bk.bucket_of(ref_len, bk.LENGTH_CUTOFFS),
        ),
        (
            "lengthdiff",
            "output length - reference length (words)",
            bk.bucket_labels(bk.LENGTH_DIFF_CUTOFFS),
            lambda n: bk.bucket_of(
                np.array([len(t) for t in hyp_tokens[n]]) - ref_len, bk.LENGTH_DIFF_CUTOFFS
            ),
        ),
    ]
    for k, label in enumerate(labels):
        # TER's sentence scores are not bucketed; ROUGE's are F-measures x 100.
        if label == "BLEU" or label.startswith(("chrF", "rouge")):
            kinds.append(
                (
                    f"sentence-{label}",
                    f"sentence {label}",
                    bk.bucket_labels(bk.SCORE_CUTOFFS, integer=False),
                    lambda n, k=k: bk.bucket_of(sentence[n][k], bk.SCORE_CUTOFFS),
                )
            )
    sections = []
    cache: dict[bytes, list[np.ndarray]] = {}
    for key, title, bucket_names, assign in kinds:
        systems: dict[str, dict[str, Any]] = {}
        for name in order:
            assigned = assign(name)
            systems[name] = {"counts": bk.bucket_counts(assigned, len(bucket_names), weights)}
            if not key.startswith("sentence-"):
                # Buckets by score hold the segments that scored so: only their counts mean much.
                per_metric = bk.bucket_scores(
                    [(configs[k], floats[name][k]) for k in range(len(labels))],
                    assigned,
                    len(bucket_names),
                    resampler,
                    cache,
                )
                systems[name]["scores"] = dict(zip(labels, per_metric))
        sections.append({"key": key, "title": title, "buckets": bucket_names, "systems": systems})
    return sections


def _word_accuracy(
    inputs: ReportInputs, order: list[str], table: NgramTable, weights: np.ndarray
) -> dict[str, Any]:
    if inputs.train_counts is not None:
        train = inputs.train_counts
        counts = np.array([train.get(w, 0) for w in table.words])
        source = "training vocabulary"
    else:
        _, word_o, _, _, _, word_r, ref = table.unigram_segments[order[0]]
        counts = np.bincount(word_r, weights=ref, minlength=len(table.words))
        source = "reference (test set)"
    mapping = bk.frequency_buckets(counts)
    labels = bk.bucket_labels(bk.FREQ_CUTOFFS)
    return {
        "frequency_from": source,
        "buckets": labels,
        "systems": {
            name: bk.word_accuracy(
                bk.word_counts_per_segment(
                    table.unigram_segments[name], mapping, inputs.n_segments, len(labels)
                ),
                weights,
                labels,
            )
            for name in order
        },
    }


def _metadata(
    inputs: ReportInputs,
    order: list[str],
    configs: list[Any],
    labels: list[str],
    floats: dict[str, list[np.ndarray]],
) -> dict[str, Any]:
    section: dict[str, Any] = {}
    for field in META_FIELDS:
        values = inputs.meta.get(field)
        if values is None:
            continue
        groups = sorted(set(values))
        index = {g: i for i, g in enumerate(groups)}
        member = np.zeros((len(groups), len(values)))
        member[[index[v] for v in values], np.arange(len(values))] = 1.0
        table = {
            name: {
                label: configs[k].score_sums(member @ floats[name][k]).tolist()
                for k, label in enumerate(labels)
            }
            for name in order
        }
        rows = [
            {
                "group": g,
                "segments": int(member[i].sum()),
                "scores": {n: {lab: table[n][lab][i] for lab in labels} for n in order},
            }
            for i, g in enumerate(groups)
        ]
        entry: dict[str, Any] = {"rows": rows}
        if field == "docid":
            # Worst documents by the first metric averaged over systems.
            sign = 1.0 if configs[0].higher_is_better else -1.0
            mean = np.mean([table[n][labels[0]] for n in order], axis=0) * sign
            worst = np.argsort(mean, kind="stable")[:N_WORST_DOCUMENTS]
            entry["worst"] = [rows[i] for i in worst]
        section[field] = entry
    return section


def _histograms(
    order: list[str], labels: list[str], sentence: dict[str, list[np.ndarray]]
) -> dict[str, Any]:
    """Sentence-score histograms as counts per 5-point bin: their size does not depend on
    the number of segments."""
    edges = np.linspace(0.0, 100.0, 21)
    out: dict[str, Any] = {"edges": edges.tolist(), "metrics": {}}
    for k, label in enumerate(labels):
        out["metrics"][label] = {
            n: np.histogram(np.clip(sentence[n][k], 0.0, 100.0), bins=edges)[0].tolist()
            for n in order
        }
    return out
