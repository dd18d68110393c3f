#!/usr/bin/env python
"""Significance benchmarks: bleuprint's paired tests and bootstrap intervals against
sacrebleu 2.6.0.

One run prints every figure and writes a CSV to ``bench/results/<label>/<date>-significance.csv``
(the columns of bench_bleu.py's CSV; the helpers every script shares are in common.py).

Workloads (see bench/README.md):

(q) the 9 WMT22 en-de systems (file names in sorted order, the first is the baseline) against
    reference A, BLEU + chrF + TER, paired approximate randomization with 10,000 trials, end to
    end (text in, p-values out): sacrebleu's ``PairedTest`` as its CLI runs it (``sacrebleu ref
    -i sys1 ... sys9 -m bleu chrf ter --paired-ar``) against ``bleuprint.paired_test``; also
    bleuprint with ``workers=1``;
(r) the same with paired bootstrap resampling, 1,000 resamples (``--paired-bs``);
(s) one system (en-de Online-B) with a bootstrap confidence interval (``--confidence``,
    ``n_bootstrap=1000``): ``corpus_score(h, [r], n_bootstrap=1000)`` of BLEU, chrF and TER;
(t) the resampling alone: ``bleuprint.paired_test_stats`` on the statistics of (q) and (r),
    computed beforehand (bleuprint only).

sacrebleu's ``PairedTest`` takes tens of seconds per call, so it runs once per workload (after
an untimed warm-up on a tiny input); bleuprint runs several times (median). Every score,
p-value, mean and confidence half-width of bleuprint must equal sacrebleu's (``==``, and the
same type: sacrebleu keeps numpy float32 means for chrF and TER); the result of each check is
printed, and the script exits with status 1 if one fails and 2 if the data is missing.

Usage::

    python bench/bench_significance.py           # full run, about 2.5 minutes on 2 cores
    python bench/bench_significance.py --quick   # smoke run, about 5 s, writes no CSV
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence
from typing import Any, Optional

import common

PAIR = "en-de"
#: The speed-up targets of (q) and (r): at least this much faster than sacrebleu, and identical.
TARGETS = {
    "(q)": ("(q) paired AR vs sacrebleu", 40.0),
    "(r)": ("(r) paired BS vs sacrebleu", 40.0),
}

#: Whole-number options: default, default under --quick, help.
COUNTS: dict[str, common.Count] = {
    "repeats": (5, 2, "timed runs of bleuprint (default 5)"),
    "paired_repeats": (1, 1, "timed runs of sacrebleu's PairedTest in (q) and (r) (default 1)"),
    "slow_repeats": (3, 1, "timed runs of sacrebleu in (s), after one warm-up (default 3)"),
    "systems": (9, 3, "en-de systems (default all 9)"),
    "segments": (0, 300, "first N segments (default all)"),  # 0: all
    "ar_trials": (10_000, 1_000, "trials of (q) (default 10,000)"),
    "bs_resamples": (1_000, 200, "resamples of (r) (default 1,000)"),
    "confidence_n": (1_000, 1_000, "n_bootstrap of (s) (default 1,000)"),
}
#: --quick's help.
QUICK = "smoke run: 3 systems, 300 segments"


def add_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-thread-scaling", action="store_true", help="skip the workers=1 row of (q)")


def check_systems(args: argparse.Namespace) -> Optional[str]:
    if args.systems < 2:
        return "--systems must be >= 2 (a paired test needs a baseline and a system)"
    return None


#: The metrics of every paired test, in sacrebleu's CLI order (``-m bleu chrf ter``), and the
#: names their results go by.
METRICS = ("BLEU", "CHRF", "TER")
METRIC_NAMES = ("BLEU", "chrF2", "TER")
#: What is compared in each system's result, for each metric.
FIELDS = ("score", "p_value", "mean", "ci")
SEED_VARIABLES = ("SACREBLEU_SEED", "BLEUPRINT_SEED")


# --------------------------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------------------------


def load_systems() -> tuple[list[tuple[str, list[str]]], list[str]]:
    """Every en-de system output (file names in sorted order) and reference A."""
    tgt = PAIR.split("-")[1]
    ref_path = common.DATA / "references" / f"generaltest2022.{PAIR}.ref.A.{tgt}"
    files = sorted((common.DATA / "system-outputs").glob(f"generaltest2022.{PAIR}.hyp.*.{tgt}"))
    if not ref_path.is_file() or not files:
        common.die(f"no {PAIR} system outputs with a reference A under {common.DATA}")
    refs = common.read_lines(ref_path)
    systems = []
    for path in files:
        hyps = common.read_lines(path)
        if len(hyps) != len(refs):
            common.die(f"{path.name}: {len(hyps)} lines, but reference A has {len(refs)}")
        systems.append((path.name.split(".")[3], hyps))
    return systems, refs


def joined(systems: list[tuple[str, list[str]]]) -> list[str]:
    """Every system's hypotheses in one list (``time_call`` copies one list of strings)."""
    return [h for _, hyps in systems for h in hyps]


def split(names: list[str], hyps: list[str], refs: list[str]) -> list[tuple[str, list[str]]]:
    """The inverse of :func:`joined`."""
    n = len(refs)
    return [(name, hyps[k * n : (k + 1) * n]) for k, name in enumerate(names)]


# --------------------------------------------------------------------------------------------
# Runners: prepare(hyps, refs) -> a zero-argument call (inputs arranged untimed)
# --------------------------------------------------------------------------------------------


def paired_runner(
    tool: str, names: list[str], test: str, n_samples: int, workers: int = -1
) -> Callable[..., Any]:
    """The whole paired test from text, metric construction included: sacrebleu as its CLI
    runs it (metrics built with the references, ``PairedTest(..., references=None)``,
    ``n_jobs=1``, the CLI's default), bleuprint as one ``paired_test`` call."""
    if tool == "sacrebleu":
        import sacrebleu
        from sacrebleu.significance import PairedTest

        def prepare_sacrebleu(h: list[str], r: list[str]) -> Callable[[], Any]:
            systems = split(names, h, r)

            def call() -> Any:
                metrics = {m: getattr(sacrebleu, m)(references=[r]) for m in METRICS}
                return PairedTest(systems, metrics, None, test_type=test, n_samples=n_samples)()

            return call

        return prepare_sacrebleu
    import bleuprint

    def prepare_bleuprint(h: list[str], r: list[str]) -> Callable[[], Any]:
        systems = split(names, h, r)
        return lambda: bleuprint.paired_test(
            systems,
            [r],
            [getattr(bleuprint, m)(workers=workers) for m in METRICS],
            test=test,
            n_samples=n_samples,
            workers=workers,
        )

    return prepare_bleuprint


def confidence_runner(tool: str, metric: str, n_bootstrap: int) -> Callable[..., Any]:
    """One system's corpus score with a bootstrap interval (``--confidence``)."""
    module = __import__(tool)
    cls = getattr(module, metric)
    return lambda h, r: lambda: cls().corpus_score(h, [r], n_bootstrap=n_bootstrap)


def stats_runner(stats: list[tuple[str, list[Any]]], test: str, n_samples: int) -> Any:
    """``paired_test_stats`` on precomputed statistics (the inputs are not text)."""
    import bleuprint

    return lambda h, r: lambda: bleuprint.paired_test_stats(stats, test=test, n_samples=n_samples)


# --------------------------------------------------------------------------------------------
# Exactness
# --------------------------------------------------------------------------------------------


def same_value(ours: Any, theirs: Any) -> bool:
    """Equal with ``==`` and of the same type (float, numpy float32/float64 or None)."""
    return type(ours) is type(theirs) and bool(ours == theirs)


def paired_mismatches(result: Any, scores: dict[str, list[Any]], names: list[str]) -> list[str]:
    """Every value of bleuprint's ``PairedTestResult`` that differs from sacrebleu's table
    (``scores`` as ``PairedTest()`` returns it), as text; empty when all are identical."""
    out = []
    if list(result.systems) != names or list(scores.get("System", [])) != names:
        out.append(f"system order: bleuprint {result.systems}, sacrebleu {scores.get('System')}")
    for metric in METRIC_NAMES:
        ours, theirs = result.results.get(metric), scores.get(metric)
        if ours is None or theirs is None or len(ours) != len(theirs):
            out.append(f"{metric}: bleuprint has {ours!r}, sacrebleu {theirs!r}")
            continue
        for name, a, b in zip(names, ours, theirs):
            if a.system != name:
                out.append(f"{metric}: row of {a.system!r} where {name!r} was expected")
            for field in FIELDS:
                x, y = getattr(a, field), getattr(b, field)
                if not same_value(x, y):
                    out.append(f"{metric} {name} {field}: bleuprint {x!r} != sacrebleu {y!r}")
    return out


def confidence_mismatches(ours: Any, theirs: Any) -> list[str]:
    out = []
    for field, other in (("score", "score"), ("mean", "_mean"), ("ci", "_ci")):
        x, y = getattr(ours, field), getattr(theirs, other)
        if not same_value(x, y):
            out.append(f"{field}: bleuprint {x!r} != sacrebleu {y!r}")
    return out


def report_check(report: common.Report, name: str, mismatches: list[str], count: int) -> str:
    """Records and prints one exactness check over ``count`` values."""
    match = report.check(name + (f" ({mismatches[0]})" if mismatches else ""), not mismatches)
    print(f"    exactness: {count - len(mismatches)}/{count} values == sacrebleu: {match}")
    for line in mismatches[:20]:
        print(f"      MISMATCH {line}")
    if len(mismatches) > 20:
        print(f"      ... and {len(mismatches) - 20} more")
    return match


# --------------------------------------------------------------------------------------------
# Sections
# --------------------------------------------------------------------------------------------


def warm_up_sacrebleu(systems: list[tuple[str, list[str]]], refs: list[str], test: str) -> None:
    """A tiny ``PairedTest`` (2 systems x 20 segments, 20 samples), untimed: imports and lazy
    set-up, so the single timed run measures the test itself."""
    names = [name for name, _ in systems[:2]]
    small = [(name, hyps[:20]) for name, hyps in systems[:2]]
    paired_runner("sacrebleu", names, test, 20)(joined(small), refs[:20])()


def bench_paired(
    report: common.Report,
    workload: str,
    systems: list[tuple[str, list[str]]],
    refs: list[str],
    test: str,
    n_samples: int,
    repeats: int,
    slow_repeats: int,
    thread_scaling: bool,
    expected: dict[str, Any],
) -> None:
    """sacrebleu's ``PairedTest`` against ``bleuprint.paired_test`` on the same text.
    sacrebleu's table is kept in ``expected[test]`` for the checks of (t)."""
    names = [name for name, _ in systems]
    hyps = joined(systems)
    segments = len(hyps)
    count = len(names) * len(METRIC_NAMES) * len(FIELDS)
    print(f"  {workload}: sacrebleu PairedTest ({slow_repeats} run(s)) ...", flush=True)
    warm_up_sacrebleu(systems, refs, test)
    sacre = common.time_call(
        paired_runner("sacrebleu", names, test, n_samples), hyps, refs, slow_repeats, False
    )
    expected[test] = sacre.result[1]
    tools = [("bleuprint", -1)] + ([("bleuprint workers=1", 1)] if thread_scaling else [])
    timings: dict[str, common.Timing] = {}
    for tool, workers in tools:
        print(f"  {workload}: {tool} ...", flush=True)
        timings[tool] = common.time_call(
            paired_runner("bleuprint", names, test, n_samples, workers), hyps, refs, repeats
        )
    base = sacre.median
    common.add_time(
        report, workload, "sacrebleu", segments, sacre, base,
        f"PairedTest(..., test_type={test!r}, n_samples={n_samples}, n_jobs=1)(), "
        f"{slow_repeats} run(s)",
    )  # fmt: skip
    for tool, _ in tools:
        t = timings[tool]
        match = report_check(
            report,
            f"{workload}: {tool} == sacrebleu",
            paired_mismatches(t.result, expected[test], names),
            count,
        )
        note = (
            f"paired_test(..., test={test!r}, n_samples={n_samples}); {count} values "
            f"(score, p-value, mean, ci) == sacrebleu: {match}"
        )
        if tool != "bleuprint":
            note = f"workers=-1 is {t.median / timings['bleuprint'].median:.2f}x faster; " + note
        common.add_time(report, workload, tool, segments, t, base, note, match)


def bench_confidence(
    report: common.Report,
    workload: str,
    hyps: list[str],
    refs: list[str],
    n_bootstrap: int,
    repeats: int,
    slow_repeats: int,
) -> None:
    for metric in METRICS:
        print(f"  {workload}: {metric} ...", flush=True)
        sacre = common.time_call(
            confidence_runner("sacrebleu", metric, n_bootstrap), hyps, refs, slow_repeats
        )
        ours = common.time_call(
            confidence_runner("bleuprint", metric, n_bootstrap), hyps, refs, repeats
        )
        expected = sacre.result
        common.add_time(
            report, workload, f"sacrebleu {metric}", len(hyps), sacre, sacre.median,
            f"{expected.name} {expected.score!r}, mean {expected._mean!r}, ci {expected._ci!r}",
        )  # fmt: skip
        match = report_check(
            report,
            f"{workload}: bleuprint {metric} == sacrebleu",
            confidence_mismatches(ours.result, expected),
            len(FIELDS) - 1,
        )
        note = f"score, mean, ci == sacrebleu: {match}"
        common.add_time(
            report, workload, f"bleuprint {metric}", len(hyps), ours, sacre.median, note, match
        )


def bench_stats(
    report: common.Report,
    workload: str,
    systems: list[tuple[str, list[str]]],
    refs: list[str],
    runs: Sequence[tuple[str, int]],
    repeats: int,
    expected: dict[str, Any],
) -> None:
    """``paired_test_stats`` on statistics computed beforehand (untimed)."""
    import bleuprint

    names = [name for name, _ in systems]
    stats = [
        (name, [getattr(bleuprint, m)().stats(h, [refs]) for m in METRICS]) for name, h in systems
    ]
    segments = len(names) * len(refs)
    count = len(names) * len(METRIC_NAMES) * len(FIELDS)
    for test, n_samples in runs:
        what = f"{n_samples:,} trials" if test == "ar" else f"{n_samples:,} resamples"
        tool = f"bleuprint paired_test_stats, {test}, {what}"
        print(f"  {workload}: {tool} ...", flush=True)
        t = common.time_call(stats_runner(stats, test, n_samples), [], [], repeats)
        note = f"precomputed Stats of {len(names)} systems x {len(METRICS)} metrics"
        match = None
        if test in expected:
            match = report_check(
                report,
                f"{workload}: {tool} == sacrebleu",
                paired_mismatches(t.result, expected[test], names),
                count,
            )
            note += f"; {count} values == sacrebleu's PairedTest: {match}"
        common.add_time(report, workload, tool, segments, t, None, note, match)


# --------------------------------------------------------------------------------------------
# Targets and main
# --------------------------------------------------------------------------------------------


def evaluate_targets(report: common.Report, quick: bool) -> None:
    """(q) and (r): the speed-up, and met only when bleuprint's results were identical too."""
    for key, (label, target) in TARGETS.items():
        ours, theirs = (
            common.find_row(report, key, "bleuprint"),
            common.find_row(report, key, "sacrebleu"),
        )
        if ours is None or theirs is None:
            continue
        value = common.ratio(theirs["seconds"], ours["seconds"])
        exact = ours.get("exact_match") == "yes"
        met = value is not None and value >= target and exact
        note = (
            f"target >= {target:g}x: {'met' if met else 'NOT met'} "
            f"(identical results: {ours.get('exact_match')})"
        )
        report.add_target(label, value, "speed-up", note)
    common.print_targets(report, quick)


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = common.parse_args(
        __doc__, QUICK, COUNTS, argv, add_options, None, {"segments": 0}, check_systems
    )
    # Both tools read the seed from the environment; the benchmark uses the default (12345),
    # so that the results can be compared (an unseeded run would differ between the tools).
    unset = {v: os.environ.pop(v) for v in SEED_VARIABLES if v in os.environ}
    info, now = common.begin(args, "bleuprint significance benchmarks")

    all_systems, all_refs = load_systems()
    if len(all_systems) < args.systems:
        common.die(
            f"only {len(all_systems)} {PAIR} systems under {common.DATA}, --systems {args.systems}"
        )
    size = args.segments or len(all_refs)
    systems = [(name, hyps[:size]) for name, hyps in all_systems[: args.systems]]
    refs = all_refs[:size]
    single = dict(all_systems).get(common.SYSTEM_A[1])
    if single is None:
        common.die(f"{PAIR} {common.SYSTEM_A[1]} missing under {common.DATA}")
    single = single[:size]

    params = common.run_params(
        args,
        now,
        repeats_paired=args.paired_repeats,
        systems=len(systems),
        segments_per_system=len(refs),
        ar_trials=args.ar_trials,
        bs_resamples=args.bs_resamples,
        confidence_n=args.confidence_n,
    )
    print(
        f"  repeats: median of {args.repeats} timed runs of bleuprint after one warm-up; "
        f"sacrebleu's PairedTest: {args.paired_repeats} run(s) after a warm-up on a tiny "
        f"input; sacrebleu in (s): median of {args.slow_repeats} after one warm-up"
    )
    if unset:
        print(f"  ignoring {', '.join(f'{k}={v}' for k, v in unset.items())}: seed 12345 used")
    print()
    print(f"data: {common.DATA}")
    print(
        f"  (q), (r), (t): {len(systems)} {PAIR} systems x {len(refs):,} segments against "
        f"reference A; baseline {systems[0][0]}"
    )
    print(f"      {', '.join(name for name, _ in systems)}")
    print(f"  (s): {PAIR} {common.SYSTEM_A[1]}, {len(single):,} segments")
    print()

    report = common.Report()
    expected: dict[str, Any] = {}
    k, n = len(systems), f"{len(refs):,}"
    what = f"{k} {PAIR} systems x {n} segments, BLEU + chrF + TER"
    wq = f"(q) {what}, paired AR, {args.ar_trials:,} trials"
    wr = f"(r) {what}, paired BS, {args.bs_resamples:,} resamples"
    ws = (
        f"(s) {PAIR} {common.SYSTEM_A[1]}, {n} segments, "
        f"--confidence n_bootstrap={args.confidence_n:,}"
    )
    wt = "(t) paired_test_stats on precomputed statistics of (q) and (r)"
    fast, slow, paired = args.repeats, args.slow_repeats, args.paired_repeats
    sections: list[tuple[str, Callable[[], None]]] = [
        (wq, lambda: bench_paired(
            report, wq, systems, refs, "ar", args.ar_trials, fast, paired,
            not args.no_thread_scaling, expected,
        )),
        (wr, lambda: bench_paired(
            report, wr, systems, refs, "bs", args.bs_resamples, fast, paired, False, expected
        )),
        (ws, lambda: bench_confidence(report, ws, single, refs, args.confidence_n, fast, slow)),
        (wt, lambda: bench_stats(
            report, wt, systems, refs, [("ar", args.ar_trials), ("bs", args.bs_resamples)],
            fast, expected,
        )),
    ]  # fmt: skip
    common.run_sections(report, sections, args)

    common.print_results(
        report,
        "Results (time: median wall clock; ratios = speed-up over sacrebleu)",
        ("sacrebleu",),
    )
    evaluate_targets(report, args.quick)
    return common.finish(report, args, info, params, now, "-significance")


if __name__ == "__main__":
    raise SystemExit(main())
