#!/usr/bin/env python
"""ROUGE benchmarks: bleuprint.ROUGE against Google's rouge-score 0.1.2 (the reference, one
process) and rouge-score-rs 0.2.1 (Rust, ``score_batch`` on all cores).

One run prints every figure and writes a CSV to ``bench/results/<label>/<date>-rouge.csv``
(the columns of bench_bleu.py's CSV plus ``vs_rouge-score`` and ``vs_rouge-score-rs``; the
helpers every script shares are in common.py).

Workloads, on the into-English corpus of bench_bleu.py (every ``*-en`` system output against
its reference A, in name order):

(a1) the first 100,000 segments, ``rouge1 rouge2 rougeL rougeLsum`` (HF evaluate's types):
     a loop of rouge-score's ``RougeScorer(types).score(ref, hyp)``; rouge-score-rs'
     ``RougeScorer(types).score_batch(refs, hyps)``; bleuprint's
     ``ROUGE(types).corpus_score(h, [r])`` (also with ``workers=1``), ``.stats(h, [r])`` with
     the per-segment ``ROUGEScore`` objects (``config.score_rows_detailed``), and ``.stats``
     with the core's per-segment floats (``_core.details``);
(a2) the same with ``use_stemmer=True``;
(b1) 10,000 documents of 10 consecutive segments of that corpus each (the hypotheses' lines and
     the references' lines joined with "\\n"), ``rougeLsum`` alone: the same calls;
(b2) the same with ``use_stemmer=True``;
(c)  every pair of 1,024 evenly spaced hypotheses and their references, ``rougeL``:
     ``ROUGE(["rougeL"]).pairwise(h, r)`` against rouge-score-rs' ``score_batch`` over the
     1,048,576 pairs laid out as two lists (made untimed) and a rouge-score loop.

rouge-score is slow (about 0.25 ms a segment in (a1), 20 ms a document in (b1)): ``--sample N``
times it on N evenly spaced segments of (a) and scales linearly (default: all of them),
``--doc-sample`` (default 500) does the same in (b) and ``--sample-rows`` (default 8) in (c).
Scaled times are marked ``*`` and the output says so. Timing as in every script: the median of
``--repeats`` runs after one warm-up run for bleuprint and rouge-score-rs, ``--slow-repeats``
(default 1, no warm-up) for rouge-score; fresh strings every run. bleuprint keeps a per-thread
cache of Porter stems, which its warm-up run fills.

Exactness: every per-segment (precision, recall, fmeasure) of every type that rouge-score
computed must equal bleuprint's (``==``, both per-segment forms), and every cell of (c)'s
sampled rows must equal 100 x rouge-score's F-measure; the corpus score must be
``math.fsum`` of rouge-score's per-segment values over n where rouge-score ran on every
segment (else of bleuprint's own, which the sample checked). Each check prints how many pairs it
compared. rouge-score-rs is compared with rouge-score too, for information (not a failing
check). The script exits with status 1 if a check fails and 2 if the data is missing.

Usage::

    python bench/bench_rouge.py               # full run, about 5 minutes on 2 cores
    python bench/bench_rouge.py --sample 10000
    python bench/bench_rouge.py --quick       # smoke run, about 20 s, writes no CSV
"""

from __future__ import annotations

import importlib.metadata
import math
from collections.abc import Callable, Sequence
from typing import Any, Optional

import common

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
ANCHOR, RS = "rouge-score", "rouge-score-rs"
RATIO_COLUMNS = (ANCHOR, RS)

#: Speed-up targets (issue "ROUGE, exact to rouge-score"): label, bleuprint's row, the other
#: tool's row, at least this much faster; one table per rival.
TARGETS = {
    "(a1)": ("(a1) corpus ROUGE vs rouge-score-rs", "bleuprint corpus_score", RS, 5.0),
    "(a2)": ("(a2) the same, stemmer", "bleuprint corpus_score", RS, 5.0),
    "(b1)": ("(b1) rougeLsum documents vs rouge-score-rs", "bleuprint corpus_score", RS, 5.0),
    "(b2)": ("(b2) the same, stemmer", "bleuprint corpus_score", RS, 5.0),
    "(c)": ("(c) rougeL pairwise vs rouge-score-rs", "bleuprint pairwise", RS, 1.0),
}
TARGETS_VS_ROUGE_SCORE = {
    "(a1)": ("(a1) corpus ROUGE vs rouge-score", "bleuprint corpus_score", ANCHOR, 300.0),
    "(a2)": ("(a2) the same, stemmer", "bleuprint corpus_score", ANCHOR, 300.0),
    "(b1)": ("(b1) rougeLsum documents vs rouge-score", "bleuprint corpus_score", ANCHOR, 300.0),
    "(b2)": ("(b2) the same, stemmer", "bleuprint corpus_score", ANCHOR, 300.0),
}
SECONDS_TARGETS = {"(c)": 0.5}

#: Whole-number options: default, default under --quick (None: unset), help.
COUNTS: dict[str, common.Count] = {
    "repeats": (5, 2, "timed runs of bleuprint and rouge-score-rs (default 5)"),
    "slow_repeats": (1, 1, "timed runs of rouge-score (default 1, no warm-up)"),
    "segments": (100_000, 10_000, "segments of (a) (default 100,000)"),
    "sample": (None, 2_000, "time rouge-score on N evenly spaced segments of (a) and scale "
               "linearly (default: all)"),
    "documents": (10_000, 500, "documents of (b) (default 10,000)"),
    "doc_lines": (10, 10, "segments per document in (b) (default 10)"),
    "doc_sample": (500, 100, "rouge-score's documents in (b), scaled (default 500)"),
    "size": (1024, 128, "sentences of (c) (default 1,024)"),
    "sample_rows": (8, 2, "rows of (c) rouge-score runs, scaled (default 8)"),
}  # fmt: skip
QUICK = "smoke run: 10,000 segments, 500 documents, 128 x 128 pairs, few repeats"


class RougeReport(common.Report):
    """common.Report with the two ratio columns of this script in its CSV."""

    RATIO_TOOLS = RATIO_COLUMNS


# --------------------------------------------------------------------------------------------
# Runners: prepare(hyps, refs) -> a zero-argument call (inputs arranged untimed)
# --------------------------------------------------------------------------------------------


def rouge_score_runner(types: list[str], stem: bool) -> common.Runner:
    from rouge_score import rouge_scorer

    def prepare(h: list[str], r: list[str]) -> Callable[[], Any]:
        def run() -> list[dict[str, Any]]:
            scorer = rouge_scorer.RougeScorer(types, use_stemmer=stem)
            return [scorer.score(b, a) for a, b in zip(h, r)]  # score(target, prediction)

        return run

    return prepare


def rouge_score_rs_runner(types: list[str], stem: bool) -> common.Runner:
    from rouge_score_rs import rouge_scorer

    def prepare(h: list[str], r: list[str]) -> Callable[[], Any]:
        return lambda: rouge_scorer.RougeScorer(types, use_stemmer=stem).score_batch(r, h)

    return prepare


def bleuprint_runner(types: list[str], stem: bool, form: str, workers: int = -1) -> common.Runner:
    import bleuprint
    from bleuprint import _core

    def prepare(h: list[str], r: list[str]) -> Callable[[], Any]:
        def run() -> Any:
            metric = bleuprint.ROUGE(types, use_stemmer=stem, workers=workers)
            if form == "corpus":
                return metric.corpus_score(h, [r])
            rows = metric.stats(h, [r]).rows
            if form == "objects":
                return metric.config.score_rows_detailed(rows)
            return _core.details(metric.config.kernel, rows)

        return run

    return prepare


# --------------------------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------------------------


def per_segment(result: Any, form: str, types: list[str]) -> list[dict[str, tuple]]:
    """Per-segment ``{type: (precision, recall, fmeasure)}`` of any tool's result."""
    if form == "details":
        parts = zip(result["precision"], result["recall"], result["fmeasure"])
        return [{t: (p[k], r[k], f[k]) for k, t in enumerate(types)} for p, r, f in parts]
    if form == "objects":
        return [{t: tuple(s.scores[t]) for t in types} for s in result]
    return [{t: tuple(s[t]) for t in types} for s in result]  # rouge-score(-rs) dicts


def compare(
    report: common.Report,
    name: str,
    ours: list[dict[str, tuple]],
    expected: list[dict[str, tuple]],
    idx: list[int],
    fail: bool = True,
) -> str:
    """``ours`` at ``idx`` == ``expected``; prints the pairs compared and any mismatch."""
    bad = [(i, t, ours[i][t], e[t]) for i, e in zip(idx, expected) for t in e if ours[i][t] != e[t]]
    values = len(idx) * len(expected[0]) * 3 if expected else 0
    ok = not bad
    verdict = report.check(name, ok) if fail else ("yes" if ok else "NO")
    print(f"    check {name}: {len(idx):,} pairs ({values:,} values) compared with ==: {verdict}")
    for i, t, a, b in bad[:5]:
        print(f"      segment {i} {t}: {a} != {b}")
    if bad:
        print(f"      {len(bad):,} mismatching (segment, type) cells")
    return verdict


def fsum_mean(segments: list[dict[str, tuple]], types: list[str]) -> dict[str, tuple]:
    n = len(segments)
    return {t: tuple(math.fsum(s[t][k] for s in segments) / n for k in range(3)) for t in types}


# --------------------------------------------------------------------------------------------
# Sections
# --------------------------------------------------------------------------------------------


def time_tools(
    report: common.Report,
    workload: str,
    hyps: list[str],
    refs: list[str],
    types: list[str],
    stem: bool,
    sample: Optional[int],
    repeats: int,
    slow_repeats: int,
) -> None:
    """Times rouge-score (on ``sample`` evenly spaced items, scaled), rouge-score-rs and
    bleuprint's forms on the same input, checks them and adds the rows."""
    n = len(hyps)
    idx = common.spaced(n, sample or n)
    scale = n / len(idx)
    runners: dict[str, tuple[common.Runner, int, str]] = {
        ANCHOR: (rouge_score_runner(types, stem), slow_repeats, "dicts"),
        RS: (rouge_score_rs_runner(types, stem), repeats, "dicts"),
        "bleuprint corpus_score": (bleuprint_runner(types, stem, "corpus"), repeats, "corpus"),
        "bleuprint corpus_score (workers=1)": (
            bleuprint_runner(types, stem, "corpus", 1), repeats, "corpus"),
        "bleuprint stats + ROUGEScore per segment": (
            bleuprint_runner(types, stem, "objects"), repeats, "objects"),
        "bleuprint stats + details (floats)": (
            bleuprint_runner(types, stem, "details"), repeats, "details"),
    }  # fmt: skip
    timings: dict[str, common.Timing] = {}
    for tool, (runner, runs, _) in runners.items():
        print(f"  {workload}: {tool} ...", flush=True)
        h, r = (hyps, refs) if tool != ANCHOR else ([hyps[i] for i in idx], [refs[i] for i in idx])
        timings[tool] = common.time_call(runner, h, r, runs, warmup=runs > 1)

    expected = per_segment(timings[ANCHOR].result, "dicts", types)
    forms = {tool: form for tool, (_, _, form) in runners.items()}
    segments = {
        tool: per_segment(t.result, forms[tool], types)
        for tool, t in timings.items()
        if forms[tool] in ("objects", "details", "dicts") and tool != ANCHOR
    }
    matches: dict[str, str] = {}
    for tool, ours in segments.items():
        is_ours = tool.startswith("bleuprint")
        label = f"{workload}: {tool} == {ANCHOR}" + ("" if is_ours else " (information)")
        matches[tool] = compare(report, label, ours, expected, idx, fail=is_ours)
    reference = segments["bleuprint stats + ROUGEScore per segment"]
    if len(idx) == n:
        mean, against = fsum_mean(expected, types), f"fsum of {ANCHOR}'s {n:,} segment scores / n"
    else:
        mean, against = fsum_mean(reference, types), f"fsum of bleuprint's {n:,} segment scores / n"
    for tool in ("bleuprint corpus_score", "bleuprint corpus_score (workers=1)"):
        got = {t: tuple(timings[tool].result.scores[t]) for t in types}
        ok = got == mean
        matches[tool] = report.check(f"{workload}: {tool} == {against}", ok)
        print(f"    check {tool}: corpus score == {against}: {matches[tool]}")

    base = timings[ANCHOR].median * scale
    rs_time = timings[RS].median
    anchor_note = f"a loop of RougeScorer.score, one process, {n:,} items"
    if scale != 1.0:
        anchor_note += f"; timed on {len(idx):,} evenly spaced items and scaled linearly"
    vs_rs = {f"vs_{RS}": common.ratio(rs_time, base)}
    common.add_time(
        report, workload, ANCHOR, n, timings[ANCHOR], base, anchor_note, None, scale=scale,
        anchor=ANCHOR, **vs_rs,
    )  # fmt: skip
    for tool, t in timings.items():
        if tool == ANCHOR:
            continue
        note = f"== {ANCHOR}: {matches[tool]}"
        if tool == RS:
            note = f"score_batch, all cores; {note} (information)"
        common.add_time(report, workload, tool, n, t, base, note, matches[tool], anchor=ANCHOR,
                        **{f"vs_{RS}": common.ratio(rs_time, t.median)})  # fmt: skip


def time_pairwise(
    report: common.Report,
    workload: str,
    hyps: list[str],
    refs: list[str],
    sample_rows: int,
    repeats: int,
    slow_repeats: int,
) -> None:
    """(c): the whole matrix for bleuprint and rouge-score-rs, ``sample_rows`` rows for
    rouge-score (scaled); bleuprint's cells of those rows must equal rouge-score's."""
    import numpy as np

    import bleuprint

    n = len(hyps)
    rows = common.spaced(n, sample_rows)
    scale = n / len(rows)

    def ours(h: list[str], r: list[str]) -> Callable[[], Any]:
        return lambda: bleuprint.ROUGE(["rougeL"]).pairwise(h, r)

    def rs(h: list[str], r: list[str]) -> Callable[[], Any]:
        from rouge_score_rs import rouge_scorer

        all_h = [a for a in h for _ in r]  # every hypothesis against every reference
        all_r = [b for _ in h for b in r]
        return lambda: rouge_scorer.RougeScorer(["rougeL"]).score_batch(all_r, all_h)

    def anchor(h: list[str], r: list[str]) -> Callable[[], Any]:
        from rouge_score import rouge_scorer

        def run() -> list[list[float]]:
            scorer = rouge_scorer.RougeScorer(["rougeL"])
            return [[100 * scorer.score(b, a)["rougeL"].fmeasure for b in r] for a in h]

        return run

    print(f"  {workload}: bleuprint pairwise ...", flush=True)
    t_ours = common.time_call(ours, hyps, refs, repeats)
    print(f"  {workload}: {RS} ...", flush=True)
    t_rs = common.time_call(rs, hyps, refs, max(1, repeats // 2))
    print(f"  {workload}: {ANCHOR} ...", flush=True)
    t_anchor = common.time_call(anchor, [hyps[i] for i in rows], refs, slow_repeats, False)

    matrix = np.asarray(t_ours.result)
    cells = [(i, j) for i in rows for j in range(n)]
    expected = t_anchor.result
    bad = [(i, j) for k, i in enumerate(rows) for j in range(n) if matrix[i, j] != expected[k][j]]
    match = report.check(f"{workload}: bleuprint == 100 x {ANCHOR} F ({len(cells)} cells)",
                         not bad)  # fmt: skip
    print(f"    check bleuprint pairwise: {len(cells):,} cells compared with == 100 x "
          f"{ANCHOR}'s F-measure: {match}")  # fmt: skip
    rs_flat = [100 * s["rougeL"].fmeasure for s in t_rs.result]
    rs_bad = sum(rs_flat[i * n + j] != matrix[i, j] for i in range(n) for j in range(n))
    rs_match = "yes" if rs_bad == 0 else "NO"
    print(f"    check {RS} == bleuprint on all {n * n:,} cells (information): {rs_match}"
          + (f" ({rs_bad:,} differ)" if rs_bad else ""))  # fmt: skip

    base = t_anchor.median * scale
    rs_time = t_rs.median
    note = f"a loop of RougeScorer.score; timed on {len(rows)} of {n} rows and scaled linearly"
    common.add_time(report, workload, ANCHOR, n * n, t_anchor, base, note, None, scale=scale,
                    anchor=ANCHOR, **{f"vs_{RS}": common.ratio(rs_time, base)})  # fmt: skip
    common.add_time(report, workload, RS, n * n, t_rs, base,
                    f"score_batch over the {n * n:,} pairs, all cores (information: {rs_match})",
                    None, anchor=ANCHOR, **{f"vs_{RS}": 1.0})  # fmt: skip
    vs_rs = {f"vs_{RS}": common.ratio(rs_time, t_ours.median)}
    note = f"ROUGE(['rougeL']).pairwise(h, r); == {ANCHOR}: {match}"
    common.add_time(
        report, workload, "bleuprint pairwise", n * n, t_ours, base, note, match, anchor=ANCHOR,
        **vs_rs,
    )  # fmt: skip


# --------------------------------------------------------------------------------------------
# Targets and main
# --------------------------------------------------------------------------------------------


def evaluate_targets(report: common.Report, quick: bool, size: int) -> None:
    common.speedup_targets(report, TARGETS_VS_ROUGE_SCORE)
    common.speedup_targets(report, TARGETS)
    for key, limit in SECONDS_TARGETS.items():
        row = common.find_row(report, key, "bleuprint pairwise")
        if row is None:
            continue
        ours = float(row["seconds"])
        met = ours <= limit and size >= 1024
        note = f"target <= {limit:g} s: {'met' if met else 'NOT met'}"
        report.add_target(f"{key} {size}x{size} rougeL pairwise in seconds", ours, "s", note)
    common.print_targets(report, quick)


def documents(hyps: list[str], refs: list[str], count: int, lines: int) -> tuple[list, list]:
    """``count`` documents of ``lines`` consecutive segments each, joined with "\\n"."""
    docs_h = ["\n".join(hyps[k * lines : (k + 1) * lines]) for k in range(count)]
    docs_r = ["\n".join(refs[k * lines : (k + 1) * lines]) for k in range(count)]
    return docs_h, docs_r


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = common.parse_args(__doc__, QUICK, COUNTS, argv)
    versions = {
        name: importlib.metadata.version(name) for name in ("rouge-score", "rouge-score-rs", "nltk")
    }
    info, now = common.begin(args, "bleuprint ROUGE benchmarks", **versions)
    print(
        f"  repeats: median of {args.repeats} timed runs of bleuprint and {RS} (after one "
        f"warm-up run), {args.slow_repeats} of {ANCHOR} (no warm-up)"
    )
    print()
    needed = max(args.segments, args.documents * args.doc_lines)
    pool_h, pool_r, notes = common.build_corpus(needed)
    hyps, refs = pool_h[: args.segments], pool_r[: args.segments]
    docs_h, docs_r = documents(pool_h, pool_r, args.documents, args.doc_lines)
    idx = common.spaced(len(hyps), args.size)
    pair_h, pair_r = [hyps[i] for i in idx], [refs[i] for i in idx]
    print("data: " + "; ".join(notes))
    print(f"documents: {len(docs_h):,} of {args.doc_lines} segments each (first "
          f"{len(docs_h) * args.doc_lines:,} segments of the corpus)")  # fmt: skip
    if args.sample:
        print(f"{ANCHOR} in (a) is timed on {min(args.sample, len(hyps)):,} evenly spaced "
              "segments and scaled linearly (marked *)")  # fmt: skip
    print(f"{ANCHOR} in (b) is timed on {min(args.doc_sample, len(docs_h)):,} documents and in (c) "
          f"on {args.sample_rows} rows, scaled linearly (marked *)")  # fmt: skip
    print()

    report = RougeReport()
    n, d, s = f"{len(hyps):,}", f"{len(docs_h):,}", f"{args.size:,}"
    fast, slow = args.repeats, args.slow_repeats
    sections: list[tuple[str, Callable[[], None]]] = []
    for key, stem in (("(a1)", False), ("(a2)", True)):
        w = f"{key} {n} segments, {'+'.join(TYPES)}" + (", stemmer" if stem else "")
        sections.append((w, lambda w=w, stem=stem: time_tools(
            report, w, hyps, refs, TYPES, stem, args.sample, fast, slow)))  # fmt: skip
    for key, stem in (("(b1)", False), ("(b2)", True)):
        w = f"{key} {d} documents, rougeLsum" + (", stemmer" if stem else "")
        sections.append((w, lambda w=w, stem=stem: time_tools(
            report, w, docs_h, docs_r, ["rougeLsum"], stem, args.doc_sample, fast, slow,
        )))  # fmt: skip
    wc = f"(c) rougeL of all {s} x {s} pairs"
    sections.append((wc, lambda: time_pairwise(
        report, wc, pair_h, pair_r, args.sample_rows, fast, slow)))  # fmt: skip
    common.run_sections(report, sections, args)

    common.print_results(
        report,
        "Results (time: median wall clock; * = scaled from a sample; ratios = speed-up: "
        "the other tool's time / this row's)",
        RATIO_COLUMNS,
    )
    evaluate_targets(report, args.quick, args.size)
    params = common.run_params(
        args, now, segments=args.segments, sample=args.sample, documents=args.documents,
        doc_lines=args.doc_lines, doc_sample=args.doc_sample, size=args.size,
        sample_rows=args.sample_rows,
    )  # fmt: skip
    return common.finish(report, args, info, params, now, "-rouge")


if __name__ == "__main__":
    raise SystemExit(main())
