"""How the paired tests' results look: sacrebleu's table against the baseline with its
explanation, and ``--paired-all``'s tables of every pair and clusters."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Optional

from bleuprint.cli.output import colored, signature_lines, table_lines, tabulate_table

#: How the explanations name each correction.
_CORRECTION_NAMES = {
    "holm": "Holm's step-down (Holm-Bonferroni) method",
    "bonferroni": "the Bonferroni method",
}


def json_value(value: Any) -> Any:
    # sacrebleu's JSON crashes on the numpy.float32 means of chrF and TER: Python floats here.
    import numpy as np  # loaded already: the paired tests ran on numpy arrays

    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.integer):
        return int(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def p_value_text(p: float, adjusted: Optional[float], color: bool) -> str:
    """sacrebleu's ``(p = 0.0123)*``, or red when not significant; with a correction, the
    adjusted p-value follows and decides."""
    if adjusted is None:
        msg, decisive = f"(p = {p:.4f})", p
    else:
        msg, decisive = f"(p = {p:.4f}, adj. p = {adjusted:.4f})", adjusted
    return colored(color, msg, "31") if decisive > 0.05 else msg + "*"


def score_cells(rows: Sequence[Any], width: int, is_bootstrap: bool) -> tuple[list[str], bool]:
    """Each system's ``score (mean ± ci)``; sacrebleu's flag for the column title stays set
    once a metric had a bootstrap estimate."""
    cells = []
    for r in rows:
        text = f"{r.score:.{width}f}"
        if r.mean is not None:
            is_bootstrap = True
            text += f" ({r.mean:.{width}f} ± {r.ci:.{width}f})"
        cells.append(text)
    return cells, is_bootstrap


def system_columns(
    result: Any, fmt: str, width: int, note: Callable[[Any], Optional[str]]
) -> dict[str, list[str]]:
    """A paired test's table columns: the systems, then per metric each system's
    ``score (mean ± ci)`` followed by ``note(row)`` (when not None) on a second line (text) or
    after a space (LaTeX)."""
    separator = "\n" if fmt == "text" else " "
    columns: dict[str, list[str]] = {"System": list(result.systems)}
    is_bootstrap = False
    for metric in result.metrics:
        rows = result.results[metric]
        cells, is_bootstrap = score_cells(rows, width, is_bootstrap)
        notes = [note(r) for r in rows]
        cells = [c if n is None else f"{c}{separator}{n}" for c, n in zip(cells, notes)]
        columns[metric + " (μ ± 95% CI)" if is_bootstrap else metric] = cells
    return columns


def paired_baseline_lines(
    result: Any, fmt: str, width: int, short: bool = False, color: bool = False
) -> list[str]:
    """sacrebleu's ``print_results_table`` for a paired test against the baseline, with the
    adjusted p-value next to the raw one when a correction is used."""
    adjusted = result.correction != "none"
    signatures = {m: sig.format(short) for m, sig in result.signatures.items()}
    if fmt == "json":
        keys = ("score", "p_value", "mean", "ci") + (("adjusted_p_value",) if adjusted else ())
        rows = [
            {
                "system": name,
                **{m: {k: getattr(result.results[m][i], k) for k in keys} for m in result.metrics},
            }
            for i, name in enumerate(result.systems)
        ]
        return [json.dumps(rows, indent=4, default=json_value)]

    def p_value_line(r: Any) -> Optional[str]:
        if r.p_value is None:
            return None
        return p_value_text(r.p_value, r.adjusted_p_value if adjusted else None, color)

    columns = system_columns(result, fmt, width, p_value_line)
    baseline = result.systems[0] if result.systems[0].startswith("Baseline:") else ""
    notes = baseline_notes(result, baseline, color)
    return table_lines(columns, signatures, fmt, width, color, notes)


def paired_test_header(result: Any, suffix: str = "") -> list[str]:
    if result.test == "bs":
        msg = f"Paired bootstrap resampling test with {result.n_samples} resampling trials"
    else:
        msg = f"Paired approximate randomization test with {result.n_samples} trials"
    msg += suffix
    return ["-" * len(msg), msg, "-" * len(msg)]


def baseline_notes(result: Any, baseline_name: str, color: bool) -> list[str]:
    """sacrebleu's explanation of a paired test, word for word (and colour for colour)."""
    bline = colored(color, "baseline", "33")
    bline_name = colored(color, baseline_name, "33")
    null_hyp = colored(color, "Null hypothesis", "32")
    pval_color = colored(color, "highlighted in red", "31")
    lines = paired_test_header(result)
    lines.append(f" - Each system is pairwise compared to {bline_name}.")
    if result.test == "bs":
        lines.append(
            "   Actual system score / bootstrap estimated true mean / 95% CI are provided for "
            "each metric."
        )
    else:
        lines.append("   Actual system score is provided for each metric.")
    lines += [
        "",
        f" - {null_hyp}: the system and the {bline} translations are essentially",
        f"   generated by the same underlying process. For a given system and the {bline},",
        "   the p-value is roughly the probability of the absolute score difference (delta)",
        f"   or higher occurring due to chance, under the assumption that the "
        f"{null_hyp.lower()} is correct.",
        "",
        f" - Assuming a significance threshold of 0.05, the {null_hyp.lower()} can be rejected",
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be '
        "attributed",
        f'   to chance, hence the system is significantly "different" than the {bline}.',
        f"   Otherwise, the p-values are {pval_color}.",
        "",
    ]
    if result.correction != "none":
        k = len(result.systems) - 1
        lines += [
            f" - Correction: the p-values of each metric are adjusted for its {k} comparisons",
            f"   with {_CORRECTION_NAMES[result.correction]} (--correction {result.correction}),",
            '   shown as "adj. p"; the "*" and the red highlighting follow the adjusted p-value.',
            "",
        ]
    lines += [
        f' - NOTE: Significance does not tell whether a system is "better" than the {bline} '
        "but rather",
        '   emphasizes the "difference" of the systems in terms of the replicability of the delta.',
        "",
    ]
    return lines


def paired_all_lines(
    result: Any, fmt: str, width: int, short: bool = False, color: bool = False
) -> list[str]:
    """--paired-all: each system's score and cluster, every comparison (delta, p-value and
    adjusted p-value), an explanation and the signatures; ``-f json``: the result's
    ``to_dict()`` with the signatures formatted as the other outputs format them."""
    signatures = {m: sig.format(short) for m, sig in result.signatures.items()}
    if fmt == "json":
        data = result.to_dict()
        data["signatures"] = signatures
        return [json.dumps(data, indent=4, default=json_value)]

    columns = system_columns(result, fmt, width, lambda r: f"(cluster {r.cluster})")
    systems_table = {colored(color, k, "36"): v for k, v in columns.items()}

    adjusted = result.correction != "none"
    pairs: dict[str, list[str]] = {
        "Metric": [],
        "System A": [],
        "System B": [],
        "Δ (B − A)": [],
        "p-value": [],
    }
    if adjusted:
        pairs[f"adj. p ({result.correction})"] = []
    for c in result.comparisons:
        pairs["Metric"].append(c.metric)
        pairs["System A"].append(c.baseline)
        pairs["System B"].append(c.system)
        pairs["Δ (B − A)"].append(f"{c.delta:+.{width}f}")
        decisive = f"{c.adjusted_p_value:.4f}" if adjusted else f"{c.p_value:.4f}"
        decisive = decisive + "*" if c.significant else colored(color, decisive, "31")
        if adjusted:
            pairs["p-value"].append(f"{c.p_value:.4f}")
            pairs[f"adj. p ({result.correction})"].append(decisive)
        else:
            pairs["p-value"].append(decisive)
    pairs_table = {colored(color, k, "36"): v for k, v in pairs.items()}

    lines = [
        tabulate_table(systems_table, fmt, width, numparse=False),
        "",
        tabulate_table(pairs_table, fmt, width, numparse=False),
        "",
        *all_pairs_notes(result, color),
    ]
    return lines + signature_lines(signatures)


def all_pairs_notes(result: Any, color: bool) -> list[str]:
    n = len(result.systems)
    k = n * (n - 1) // 2
    null_hyp = colored(color, "Null hypothesis", "32")
    pval_color = colored(color, "highlighted in red", "31")
    lines = paired_test_header(result, f", all {k} pairs of {n} systems")
    lines.append(f" - Every pair of systems is compared ({k} comparisons per metric).")
    p_values = "its p-value" if result.correction == "none" else "its raw and adjusted p-values"
    if result.test == "bs":
        lines += [
            "   The first table gives each system's actual score / bootstrap estimated true "
            "mean / 95% CI",
            "   and cluster for each metric; the second gives every comparison: the score",
            f"   difference (delta, B - A) and {p_values}.",
        ]
    else:
        lines += [
            "   The first table gives each system's actual score and cluster for each metric;",
            "   the second gives every comparison: the score difference (delta, B - A) and",
            f"   {p_values}.",
        ]
    lines += [
        "",
        f" - {null_hyp}: the two systems' translations are essentially generated by the same",
        "   underlying process. The p-value is roughly the probability of the absolute score",
        "   difference (delta) or higher occurring due to chance, under the assumption that the",
        f"   {null_hyp.lower()} is correct.",
        "",
    ]
    if result.correction == "none":
        lines += [
            " - Correction: none (--correction none). The p-values are not adjusted for the",
            f"   {k} comparisons of each metric, so some differences will look significant by "
            "chance.",
        ]
    else:
        lines += [
            f" - Correction: the p-values of each metric are adjusted for its {k} comparisons",
            f"   with {_CORRECTION_NAMES[result.correction]} (--correction {result.correction}),",
            "   which keeps the chance of any false positive among them at most 0.05.",
        ]
    decisive = "adjusted p-value" if result.correction != "none" else "p-value"
    lines += [
        f'   A pair differs significantly when its {decisive} is at most 0.05 (marked with "*");',
        f"   otherwise the p-values are {pval_color}.",
        "",
        " - Clusters: systems are ranked by score (best first; lower is better for TER, WER,",
        "   CER) and grouped top-down: a system joins the current cluster unless it differs",
        "   significantly from one of its members. No two systems in a cluster differ",
        "   significantly; cluster 1 holds the best systems.",
        "",
        ' - NOTE: Significance does not tell whether a system is "better" but rather emphasizes',
        '   the "difference" of the systems in terms of the replicability of the delta.',
        "",
    ]
    return lines
