#!/usr/bin/env python
"""mbrs plugin benchmarks: bleuprint's mbrs metrics (``bleuprint.integrations.mbrs``) against
mbrs' own ``MetricBLEU`` and ``MetricChrF`` (mbrs 0.1.8, default configurations).

mbrs needs unbabel-comet, which pins numpy<2: run this in the numpy-1 environment
(``tools/numpy1_env.sh``). One run prints every figure and writes a CSV to
``bench/results/<label>/<date>-mbrs.csv`` (the columns of bench_bleu.py's CSV, with the
ratio columns ``vs_mbrs`` and ``vs_mbrs_fastchrf``; the helpers every script shares are in
common.py).

Workloads, on the first ``--size`` (1,024) segments of WMT22 en-de reference A, every sentence
against every other (MBR's hypotheses x hypotheses), as bench_mbr.py:

(A) sentence BLEU, ``pairwise_scores(s, s)``: bleuprint's ``MetricBLEU()`` against mbrs'
    ``MetricBLEU(MetricBLEU.Config())`` (sacrebleu's ``sentence_score`` per cell in a pool of
    ``num_workers=8`` processes);
(B) chrF, the same with ``MetricChrF``, and mbrs' ``MetricChrF`` with ``fastchrf=True`` (its
    Rust pairwise chrF, float32 values of its own: the largest difference is printed);
(C) chrF++ (``word_order=2``), the same;
(D) reference aggregation, ``expected_scores_reference_aggregation(s, s)`` for BLEU and chrF:
    mbrs' own (Python ``Counter`` arithmetic, in-process) against bleuprint's.

mbrs' process-pool ``pairwise_scores`` is slow (about a minute for BLEU, minutes for chrF on 2
cores): it is timed on ``--sample-rows`` evenly spaced rows (every reference) and scaled to the
whole matrix as ``fixed + (sample - fixed) x rows_total / rows_sampled``, where ``fixed`` is
the time of a 1 x 1 call (starting the pool), so the start-up is counted once, not scaled. Such
times are marked ``*``; ``--sample-rows`` >= ``--size`` times the whole matrix. Timing: median
of ``--repeats`` runs after one warm-up for bleuprint, ``--slow-repeats`` (default 1, no
warm-up) for mbrs; fresh strings every run.

Exactness: every cell of the sampled rows of (A)-(C), and every value of (D), must be equal
(``torch.equal``, float32) to mbrs'; the script exits with status 1 if a check fails and 2 if
the data is missing.

Usage::

    /path/to/numpy1-venv/bin/python bench/bench_mbrs.py          # about 3 minutes on 2 cores
    /path/to/numpy1-venv/bin/python bench/bench_mbrs.py --quick  # smoke run, no CSV
"""

from __future__ import annotations

import importlib.metadata
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any, Optional

import common

ANCHOR, FAST = "mbrs", "mbrs (fastchrf=True)"
RATIO_COLUMNS = ("mbrs", "mbrs_fastchrf")

#: Speed-up targets (issue 32): label, bleuprint's row, the other tool's row, at least this.
TARGETS = {
    "(A)": ("(A) 1024x1024 BLEU pairwise_scores vs mbrs", "bleuprint", ANCHOR, 100.0),
    "(B)": ("(B) 1024x1024 chrF pairwise_scores vs mbrs", "bleuprint", ANCHOR, 100.0),
    "(C)": ("(C) 1024x1024 chrF++ pairwise_scores vs mbrs", "bleuprint", ANCHOR, 100.0),
}

#: Whole-number options: default, default under --quick, help.
COUNTS: dict[str, common.Count] = {
    "repeats": (5, 2, "timed runs of bleuprint (default 5)"),
    "slow_repeats": (1, 1, "timed runs of mbrs (default 1, no warm-up)"),
    "size": (1024, 128, "sentences (default 1,024)"),
    "sample_rows": (64, 8, "rows of mbrs' pairwise_scores timed and scaled (default 64)"),
}
QUICK = "smoke run: 128 sentences, 8 sampled rows"


class MbrsReport(common.Report):
    RATIO_TOOLS = RATIO_COLUMNS


def sentences(size: int) -> list[str]:
    lines = common.read_lines(common.DATA / "references" / "generaltest2022.en-de.ref.A.de")
    if len(lines) < size:
        common.die(f"en-de reference A has {len(lines)} lines, fewer than --size {size}")
    return lines[:size]


def call(method: str, metric: Any) -> common.Runner:
    return lambda h, r: lambda: getattr(metric, method)(h, r)


def time_pairwise(
    report: common.Report,
    workload: str,
    samples: list[str],
    pair: tuple[Any, Any],
    fast: Optional[Any],
    repeats: int,
    slow_repeats: int,
    sample_rows: int,
) -> None:
    """bleuprint's whole matrix against mbrs' on sampled rows (scaled, the pool's start-up
    counted once), and mbrs with fastchrf on the whole matrix; sampled cells must be equal."""
    import torch

    ours, theirs = pair
    n = len(samples)
    rows = common.spaced(n, sample_rows)
    print(f"  {workload}: bleuprint ...", flush=True)
    t_ours = common.time_call(call("pairwise_scores", ours), samples, samples, repeats)
    print(f"  {workload}: {ANCHOR} on {len(rows)} of {n} rows ...", flush=True)
    t_theirs = common.time_call(
        call("pairwise_scores", theirs), [samples[i] for i in rows], samples, slow_repeats, False
    )
    if len(rows) < n:
        one = samples[:1]
        fixed = statistics.median(_seconds(lambda: theirs.pairwise_scores(one, one)) for _ in "abc")
        estimate = fixed + max(0.0, t_theirs.median - fixed) * n / len(rows)
        how = (
            f"{len(rows)} of {n} rows timed ({common.fmt_time(t_theirs.median)}), scaled: "
            f"fixed {common.fmt_time(fixed)} (a 1x1 call: the pool's start-up) + the rest "
            f"x {n / len(rows):g}"
        )
    else:
        estimate, how = t_theirs.median, "the whole matrix"
    workers = theirs.cfg.num_workers
    same = bool(torch.equal(t_ours.result[rows], t_theirs.result))
    same = same and t_ours.result.dtype == t_theirs.result.dtype == torch.float32
    cells = len(rows) * n
    match = report.check(f"{workload}: bleuprint == {ANCHOR} ({cells:,} cells)", same)
    print(f"    check: {cells:,} float32 cells compared with torch.equal: {match}", flush=True)
    t_fast = None
    if fast is not None:
        print(f"  {workload}: {FAST} ...", flush=True)
        t_fast = common.time_call(call("pairwise_scores", fast), samples, samples, slow_repeats)
    fast_time = t_fast.median if t_fast is not None else None
    common.add_time(
        report, workload, ANCHOR, n * n, t_theirs, estimate,
        f"{type(theirs).__name__}, num_workers={workers} processes; {how}", None,
        scale=estimate / t_theirs.median, anchor=ANCHOR,
        vs_mbrs_fastchrf=common.ratio(fast_time, estimate),
    )  # fmt: skip
    if t_fast is not None:
        diff = float((t_fast.result.double() - t_ours.result.double()).abs().max())
        common.add_time(
            report, workload, FAST, n * n, t_fast, estimate,
            f"fastchrf's own float32 chrF: largest difference from sacrebleu's {diff:.2e}",
            None, anchor=ANCHOR, vs_mbrs_fastchrf=1.0,
        )  # fmt: skip
    common.add_time(
        report, workload, "bleuprint", n * n, t_ours, estimate,
        f"bleuprint.integrations.mbrs.{type(ours).__name__}; == {ANCHOR}: {match}", match,
        anchor=ANCHOR, vs_mbrs_fastchrf=common.ratio(fast_time, t_ours.median),
    )  # fmt: skip


def _seconds(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def time_aggregation(
    report: common.Report,
    workload: str,
    samples: list[str],
    pairs: dict[str, tuple[Any, Any]],
    repeats: int,
    slow_repeats: int,
) -> None:
    import torch

    method = "expected_scores_reference_aggregation"
    for name, (ours, theirs) in pairs.items():
        label = f"{workload}: {name}"
        print(f"  {label}: {ANCHOR} ...", flush=True)
        t_theirs = common.time_call(call(method, theirs), samples, samples, slow_repeats, False)
        print(f"  {label}: bleuprint ...", flush=True)
        t_ours = common.time_call(call(method, ours), samples, samples, repeats)
        same = bool(torch.equal(t_ours.result, t_theirs.result))
        match = report.check(f"{label}: bleuprint == {ANCHOR} ({len(samples):,} values)", same)
        print(f"    check: {len(samples):,} float32 values compared: {match}", flush=True)
        base = t_theirs.median
        common.add_time(
            report, label, ANCHOR, len(samples), t_theirs, base,
            f"{type(theirs).__name__}, Python Counters", None, anchor=ANCHOR,
        )  # fmt: skip
        common.add_time(
            report, label, "bleuprint", len(samples), t_ours, base, f"== {ANCHOR}: {match}",
            match, anchor=ANCHOR,
        )  # fmt: skip


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = common.parse_args(__doc__, QUICK, COUNTS, argv)
    versions = {name: importlib.metadata.version(name) for name in ("mbrs", "torch", "fastchrf")}
    info, now = common.begin(args, "bleuprint mbrs plugin benchmarks", "ignore", **versions)
    import mbrs.metrics as mbrs_metrics
    import torch

    import bleuprint.integrations.mbrs as plugin

    info["torch_threads"] = str(torch.get_num_threads())
    params = common.run_params(args, now, size=args.size, sample_rows=args.sample_rows)
    samples = sentences(args.size)
    n = f"{args.size:,}x{args.size:,}"
    print(f"  {ANCHOR}'s pairwise_scores is timed on {min(args.sample_rows, args.size)} of "
          f"{args.size} rows and scaled (marked *)")  # fmt: skip
    print()

    def pair(kind: str, **options: Any) -> tuple[Any, Any]:
        ours = getattr(plugin, kind)
        theirs = getattr(mbrs_metrics, kind)
        return ours(ours.Config(**options)), theirs(theirs.Config(**options))

    chrf_fast = mbrs_metrics.MetricChrF(mbrs_metrics.MetricChrF.Config(fastchrf=True))
    report = MbrsReport()
    fast, slow, rows = args.repeats, args.slow_repeats, args.sample_rows
    wa, wb, wc = f"(A) BLEU, {n}", f"(B) chrF, {n}", f"(C) chrF++, {n}"
    wd = f"(D) reference aggregation, {args.size:,}"
    aggregation = {"BLEU": pair("MetricBLEU"), "chrF": pair("MetricChrF")}
    timing = (fast, slow, rows)
    sections: list[tuple[str, Callable[[], None]]] = [
        (wa, lambda: time_pairwise(report, wa, samples, pair("MetricBLEU"), None, *timing)),
        (wb, lambda: time_pairwise(report, wb, samples, pair("MetricChrF"), chrf_fast, *timing)),
        (wc, lambda: time_pairwise(report, wc, samples, pair("MetricChrF", word_order=2), None,
                                   *timing)),
        (wd, lambda: time_aggregation(report, wd, samples, aggregation, fast, slow)),
    ]  # fmt: skip
    common.run_sections(report, sections, args)
    common.print_results(
        report,
        "Results (time: median wall clock; * = scaled from a sample; ratios = speed-up)",
        RATIO_COLUMNS,
    )
    common.speedup_targets(report, TARGETS)
    common.print_targets(report, args.quick)
    return common.finish(report, args, info, params, now, "-mbrs")


if __name__ == "__main__":
    raise SystemExit(main())
