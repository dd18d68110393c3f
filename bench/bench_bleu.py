#!/usr/bin/env python
"""BLEU benchmarks: bleuprint against sacrebleu 2.6.0 and (when installed) bleuscore.

One run prints every figure and writes a CSV to ``bench/results/<label>/<date>.csv``.

Workloads (see bench/README.md):

(a) one WMT22 system, en-de Online-B against reference A (2,037 segments), corpus BLEU;
(b) a 100,000-segment corpus: every into-English WMT22 system output with its reference A,
    concatenated (and cycled if needed) to 100,000 segments, corpus BLEU;
(c) 100,000 sentence-level BLEU scores on the same data;
(d) peak memory of (b), each tool in a fresh subprocess;
plus thread scaling of (b) and (c) and the start-up time of ``import bleuprint`` and
``bleuprint -V``.

Each tool gets the same in-memory lists; reading the files is never timed. bleuprint's scores
are checked for exact (``==``) equality with sacrebleu's, and the result of each check is
printed. The script exits with status 1 if a check fails and 2 if the data is missing.

Usage::

    python bench/bench_bleu.py                # full run (about 3 minutes on 2 cores)
    python bench/bench_bleu.py --quick        # smoke run, under a minute, writes no CSV
    python bench/bench_bleu.py --repeats 7 --label my-laptop
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Optional

import common

CORPUS_SIZE = 100_000
QUICK_SIZE = 10_000


TARGETS = {
    "b_vs_sacrebleu": 100.0,
    "b_vs_bleuscore": 10.0,
    "d_memory_fraction": 0.10,
    "c_vs_sacrebleu_loop": 100.0,
    "import_ms": 50.0,
    "cli_ms": 150.0,
}

#: Whole-number options: default, default under --quick (None: set in parse_args), help.
COUNTS: dict[str, common.Count] = {
    "repeats": (5, 3, "timed runs per fast measurement (default 5)"),
    "slow_repeats": (None, 1, "timed runs for sacrebleu on (b) and (c) (default 3)"),
    "size": (CORPUS_SIZE, QUICK_SIZE, "segments in (b)-(d) (default 100,000)"),
    "sentence_sample": (
        None,
        None,
        "time the Python sentence loops of (c) on this many evenly spaced segments and "
        "scale linearly (default: all segments, no scaling)",
    ),
}
#: --quick's help.
QUICK = "smoke run: 10,000 segments, few repeats"


def add_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-bleuscore", action="store_true", help="skip bleuscore even if installed")
    p.add_argument("--_memory-worker", dest="memory_worker", default=None, help=argparse.SUPPRESS)


def set_defaults(args: argparse.Namespace) -> None:
    """The defaults that depend on other options."""
    if args.slow_repeats is None:
        args.slow_repeats = min(3, args.repeats)
    if args.sentence_sample is None:
        args.sentence_sample = args.size


# --------------------------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------------------------


def load_system_a() -> tuple[list[str], list[str]]:
    pair, system = common.SYSTEM_A
    tgt = pair.split("-")[1]
    hyps = common.read_lines(
        common.DATA / "system-outputs" / f"generaltest2022.{pair}.hyp.{system}.{tgt}"
    )
    refs = common.read_lines(common.DATA / "references" / f"generaltest2022.{pair}.ref.A.{tgt}")
    if len(hyps) != len(refs):
        common.die(f"{pair} {system}: {len(hyps)} hypotheses but {len(refs)} references")
    return hyps, refs


# --------------------------------------------------------------------------------------------
# Tools: each returns a zero-argument callable over prepared inputs
# --------------------------------------------------------------------------------------------


def corpus_runner(tool: str, workers: int = -1) -> common.Runner:
    """``prepare(hyps, refs)`` -> a zero-argument corpus BLEU call on one reference stream.

    ``prepare`` (untimed) only arranges the inputs in the layout the tool takes.
    """
    if tool == "sacrebleu":
        import sacrebleu

        return lambda hyps, refs: lambda: sacrebleu.corpus_bleu(hyps, [refs])
    if tool == "bleuscore":
        import bleuscore

        def prepare_bleuscore(hyps: list[str], refs: list[str]) -> Callable[[], Any]:
            # bleuscore wants references per segment; that layout is built outside timing.
            per_segment = [[r] for r in refs]
            return lambda: bleuscore.compute(references=per_segment, predictions=hyps, max_order=4)

        return prepare_bleuscore
    if tool == "bleuprint":
        import bleuprint

        if workers == -1:
            return lambda hyps, refs: lambda: bleuprint.corpus_bleu(hyps, [refs])
        return lambda hyps, refs: lambda: bleuprint.BLEU(workers=workers).corpus_score(hyps, [refs])
    raise ValueError(tool)


def sentence_runner(tool: str, workers: int = -1) -> common.Runner:
    """``prepare(hyps, refs)`` -> a zero-argument call returning every segment's BLEU."""
    if tool == "sacrebleu":
        import sacrebleu

        # sacrebleu.sentence_bleu: exp smoothing, effective order on (its defaults).
        return lambda hyps, refs: (
            lambda: [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs)]
        )
    if tool == "bleuscore":
        import bleuscore

        # No batch sentence API: one compute() per segment. Its smoothing is add-one
        # (smooth=True), not sacrebleu's exp with effective order, so scores are not comparable.
        return lambda hyps, refs: (
            lambda: [
                bleuscore.compute(references=[[r]], predictions=[h], max_order=4, smooth=True)[
                    "bleu"
                ]
                for h, r in zip(hyps, refs)
            ]
        )
    if tool == "bleuprint":
        import bleuprint

        return lambda hyps, refs: (
            lambda: bleuprint.BLEU(effective_order=True, workers=workers).sentence_scores(
                hyps, [refs]
            )
        )
    raise ValueError(tool)


# --------------------------------------------------------------------------------------------
# Peak memory, in a fresh process
# --------------------------------------------------------------------------------------------


def memory_worker(tool: str, size: int) -> None:
    """Child process of the memory measurement: prints one JSON line."""
    import resource

    pool_h, pool_r, _ = common.build_corpus(size)
    hyps, refs = (
        common.fresh(pool_h),
        common.fresh(pool_r),
    )  # distinct objects, as if read from one file
    del pool_h, pool_r
    prepare = corpus_runner(tool)
    prepare(
        common.fresh(hyps[:20]), common.fresh(refs[:20])
    )()  # lazy imports, thread pools: not measured
    fn = prepare(hyps, refs)
    gc.collect()
    common.malloc_trim()
    linux = os.path.exists("/proc/self/status")
    reset = linux and common.reset_peak_rss()
    scale = 1 if sys.platform == "darwin" else 1024
    if reset:
        base = common.proc_status()["VmRSS"]
        method = "VmHWM after - VmRSS before (peak reset via /proc/self/clear_refs)"
    else:
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale
        method = "ru_maxrss after - ru_maxrss before (lower bound: peak could not be reset)"
    fn()
    if reset:
        peak = common.proc_status()["VmHWM"]
    else:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale
    print(json.dumps({"tool": tool, "base": base, "peak": peak, "method": method}))


def measure_memory(tool: str, size: int) -> dict[str, Any]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--_memory-worker", tool, "--size"]
    proc = subprocess.run(
        [*cmd, str(size)], capture_output=True, text=True, check=False, cwd=str(common.REPO)
    )
    if proc.returncode != 0:
        raise RuntimeError(f"memory worker for {tool} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# --------------------------------------------------------------------------------------------
# Benchmarks
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass
class Runs:
    """What every BLEU section shares: the report, the tools compared and their timed runs
    (``slow_repeats`` for sacrebleu's slow calls)."""

    report: common.Report
    tools: Sequence[str]
    repeats: int
    slow_repeats: int


def bench_corpus(
    runs: Runs,
    workload: str,
    hyps: list[str],
    refs: list[str],
    slow_sacrebleu: bool,
    thread_scaling: bool,
) -> None:
    report, tools, repeats, slow_repeats = runs.report, runs.tools, runs.repeats, runs.slow_repeats
    n = len(hyps)
    timings: dict[str, common.Timing] = {}
    for tool in tools:
        slow = tool == "sacrebleu" and slow_sacrebleu
        print(f"  {workload}: {tool} ...", flush=True)
        timings[tool] = common.time_call(
            corpus_runner(tool), hyps, refs, slow_repeats if slow else repeats, warmup=not slow
        )
    sacre = timings["sacrebleu"].result
    bs_time = timings["bleuscore"].median if "bleuscore" in timings else None
    for tool in tools:
        t = timings[tool]
        note = ""
        match = ""
        if tool == "sacrebleu":
            note = f"BLEU {sacre.score!r}"
        elif tool == "bleuprint":
            ok = common.same_bleu(t.result, sacre)
            match = report.check(f"{workload}: bleuprint == sacrebleu", ok)
            note = f"BLEU {t.result.score!r}; == sacrebleu (score and statistics): {match}"
        elif tool == "bleuscore":
            value = t.result["bleu"] * 100
            ok = value == sacre.score
            match = "yes" if ok else "no"
            note = (
                f"BLEU {value!r} (bleu*100); == sacrebleu: {match} "
                f"(|diff| = {abs(value - sacre.score):.2e}; shortest-reference BP, "
                "the same as sacrebleu's closest with one reference)"
            )
        sacre_time = timings["sacrebleu"].median
        report.add_time(workload, tool, n, t, note, sacre_time, bs_time, match)
        print(f"    {common.fmt_time(t.median)}  {note}", flush=True)
    if thread_scaling:
        print(f"  {workload}: bleuprint workers=1 ...", flush=True)
        t1 = common.time_call(corpus_runner("bleuprint", workers=1), hyps, refs, repeats)
        ok = common.same_bleu(t1.result, sacre)
        match = report.check(f"{workload}: bleuprint workers=1 == sacrebleu", ok)
        tn = timings["bleuprint"].median
        note = f"workers=-1 is {t1.median / tn:.2f}x faster than workers=1; == sacrebleu: {match}"
        sacre_time = timings["sacrebleu"].median
        report.add_time(workload, "bleuprint workers=1", n, t1, note, sacre_time, bs_time, match)
        print(f"    {common.fmt_time(t1.median)}  {note}", flush=True)


def bench_sentences(
    runs: Runs, workload: str, hyps: list[str], refs: list[str], sample: int
) -> None:
    report, tools, repeats, slow_repeats = runs.report, runs.tools, runs.repeats, runs.slow_repeats
    import numpy as np

    n = len(hyps)
    sample = min(sample, n)
    step = max(1, n // sample)
    idx = list(range(0, n, step))[:sample]
    s_hyps = [hyps[i] for i in idx]
    s_refs = [refs[i] for i in idx]
    scale = n / len(idx)
    extrapolated = len(idx) < n
    how = (
        f"timed on every {step}th segment ({len(idx):,}) and scaled x{scale:.2f} to {n:,}"
        if extrapolated
        else f"all {n:,} segments"
    )

    print(f"  {workload}: bleuprint sentence_scores (workers=-1, workers=1) ...", flush=True)
    tp = common.time_call(sentence_runner("bleuprint"), hyps, refs, repeats)
    tp1 = common.time_call(sentence_runner("bleuprint", workers=1), hyps, refs, repeats)
    loops: dict[str, common.Timing] = {}
    for tool in tools:
        if tool == "bleuprint":
            continue
        slow = tool == "sacrebleu"
        print(f"  {workload}: {tool} loop over {len(idx):,} segments ...", flush=True)
        loops[tool] = common.time_call(
            sentence_runner(tool), s_hyps, s_refs, slow_repeats if slow else repeats, not slow
        )
    sacre_scores = np.asarray(loops["sacrebleu"].result, dtype=np.float64)
    ours = np.asarray(tp.result)[idx]
    ours1 = np.asarray(tp1.result)[idx]
    equal = int(np.sum(ours == sacre_scores))
    ok = equal == len(idx) and bool(np.all(ours1 == ours))
    match = report.check(f"{workload}: sentence scores == sacrebleu", ok)
    sacre_t = loops["sacrebleu"].median * scale
    bs_t = loops["bleuscore"].median * scale if "bleuscore" in loops else None
    for tool, timing in loops.items():
        if tool == "sacrebleu":
            note = f"loop of sacrebleu.sentence_bleu(h, [r]), {how}"
        else:
            note = (
                "loop of bleuscore.compute per segment (add-one smoothing, scores not "
                f"comparable), {how}"
            )
        report.add_time(
            workload, f"{tool} (loop)", n, timing, note, sacre_t, bs_t, None, scale, extrapolated
        )
        print(f"    {common.fmt_time(timing.median * scale)}  {note}", flush=True)
    for label, t in (("bleuprint", tp), ("bleuprint workers=1", tp1)):
        note = (
            f"BLEU(effective_order=True).sentence_scores, one call; "
            f"{equal:,}/{len(idx):,} sampled scores == sacrebleu: {match}"
        )
        if label != "bleuprint":
            note = f"workers=-1 is {tp1.median / tp.median:.2f}x faster than workers=1"
        report.add_time(workload, label, n, t, note, sacre_t, bs_t, match)
        print(f"    {label}: {common.fmt_time(t.median)}  {note}", flush=True)


def bench_memory(report: common.Report, workload: str, size: int, tools: Sequence[str]) -> None:
    results = {}
    for tool in tools:
        print(f"  {workload}: {tool} in a fresh process ...", flush=True)
        results[tool] = measure_memory(tool, size)
    incr = {t: r["peak"] - r["base"] for t, r in results.items()}
    for tool, r in results.items():
        frac = common.ratio(incr[tool], incr["sacrebleu"])
        note = (
            f"peak RSS increase over {r['base'] / 2**20:.0f} MB baseline (data loaded); "
            f"{r['method']}"
        )
        if frac is not None and tool != "sacrebleu":
            note = f"{frac:.4f} of sacrebleu's; " + note
        report.add_memory(
            workload,
            tool,
            size,
            incr[tool],
            note,
            vs_sacrebleu=common.ratio(incr["sacrebleu"], incr[tool]),
            vs_bleuscore=common.ratio(incr.get("bleuscore"), incr[tool]),
        )
        print(f"    {incr[tool] / 2**20:,.1f} MB  {note}", flush=True)


def bench_startup(report: common.Report, tries: int) -> None:
    py = sys.executable
    print(f"  start-up (best of {tries}) ...", flush=True)
    bare, _ = common.best_wall([py, "-c", "pass"], tries)

    def add(tool: str, seconds: Optional[float], note: str, over_bare: bool = True) -> None:
        """A ``startup`` row; ``over_bare``: with the time over ``python -c pass``."""
        more: dict[str, Any] = {}
        if over_bare:
            more["value"] = None if seconds is None or bare is None else seconds - bare
            more["unit"] = "seconds over `python -c pass`"
        report.add(
            kind="startup", workload="start-up", tool=tool, repeats=tries, seconds=seconds,
            **more, note=note,
        )  # fmt: skip

    for label, cmd in (
        ("python -c 'import bleuprint'", [py, "-c", "import bleuprint"]),
        ("python -c 'import sacrebleu'", [py, "-c", "import sacrebleu"]),
    ):
        t, _ = common.best_wall(cmd, tries)
        add(label, t, f"python -c pass: {common.fmt_time(bare)}")
    script = common.console_script("bleuprint")
    if script is None:
        t, out = None, "console script `bleuprint` not installed"
    else:
        t, out = common.best_wall([script, "-V"], tries)
    add("bleuprint -V", t, out if t is not None else f"unavailable: {out}")
    add("python -c pass", bare, "bare interpreter", over_bare=False)


def print_startup(report: common.Report) -> None:
    for r in report.rows:
        if r["kind"] != "startup":
            continue
        if r["seconds"] is None:
            print(f"  {r['tool']:<30} {r['note']}")
            continue
        extra = f"  ({common.fmt_time(r['value'])} over bare python)" if r.get("value") else ""
        print(f"  {r['tool']:<30} {common.fmt_time(r['seconds']):>9}{extra}")


def evaluate_targets(report: common.Report, quick: bool) -> None:
    def find(workload_prefix: str, tool: str, kind: str = "time") -> Optional[dict[str, Any]]:
        return common.find_row(report, workload_prefix, tool, kind)

    checks = []
    b = find("(b)", "bleuprint")
    if b:
        checks.append(
            ("(b) corpus BLEU vs sacrebleu", b["vs_sacrebleu"], TARGETS["b_vs_sacrebleu"])
        )
        if b.get("vs_bleuscore") is not None:
            checks.append(
                ("(b) corpus BLEU vs bleuscore", b["vs_bleuscore"], TARGETS["b_vs_bleuscore"])
            )
    c = find("(c)", "bleuprint")
    if c:
        checks.append(
            (
                "(c) sentence BLEU vs sacrebleu loop",
                c["vs_sacrebleu"],
                TARGETS["c_vs_sacrebleu_loop"],
            )
        )
    for label, value, target in checks:
        common.add_speedup_target(report, label, value, target)
    d = find("(d)", "bleuprint", kind="memory")
    ds = find("(d)", "sacrebleu", kind="memory")
    if d and ds:
        frac = common.ratio(d["value"], ds["value"])
        met = frac is not None and frac <= TARGETS["d_memory_fraction"]
        report.add_target(
            "(d) peak memory vs sacrebleu",
            frac,
            "fraction of sacrebleu's peak increase",
            f"target <= 1/10: {'met' if met else 'NOT met'}",
        )
    for tool, key, over_bare in (
        ("python -c 'import bleuprint'", "import_ms", True),
        ("bleuprint -V", "cli_ms", False),
    ):
        r = find("start-up", tool, kind="startup")
        if r is None:
            continue
        value = r["value"] if over_bare else r["seconds"]
        what = "import time over bare python" if over_bare else "total wall time"
        if value is None:
            note = f"target <= {TARGETS[key]:g} ms: unavailable ({r['note']})"
        else:
            met = value * 1e3 <= TARGETS[key]
            note = f"target <= {TARGETS[key]:g} ms ({what}): {'met' if met else 'NOT met'}"
        report.add_target(f"start-up: {tool}", value, "seconds", note)
    common.print_targets(report, quick)


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = common.parse_args(
        __doc__, QUICK, COUNTS, argv, defaults=set_defaults, more_after=add_options
    )
    if args.memory_worker:
        common.require_data()
        memory_worker(args.memory_worker, args.size)
        return 0
    info, now = common.begin(args, "bleuprint benchmarks", bleuscore=True)

    tools = ["sacrebleu"]
    if not args.no_bleuscore and common.have_bleuscore():
        tools.append("bleuscore")
    tools.append("bleuprint")
    params = common.run_params(
        args,
        now,
        corpus_size=args.size,
        sentence_sample=args.sentence_sample,
    )
    if "bleuscore" not in tools:
        print("  (bleuscore not installed or disabled: its columns are left empty)")
    print(
        f"  repeats: median of {args.repeats} timed runs after one warm-up; sacrebleu on (b) and "
        f"(c): median of {args.slow_repeats}, no warm-up"
    )
    print()

    report = common.Report()
    hyps_a, refs_a = load_system_a()
    hyps_b, refs_b, notes = common.build_corpus(args.size)
    print(f"data: {common.DATA}")
    print(
        f"  (a) {common.SYSTEM_A[0]} {common.SYSTEM_A[1]} vs reference A: {len(hyps_a):,} segments"
    )
    print(f"  (b)-(d) into-English outputs vs reference A: {len(hyps_b):,} segments")
    for note in notes:
        print(f"      {note}")
    print()

    wa = f"(a) {common.SYSTEM_A[0]} {common.SYSTEM_A[1]} corpus"
    wb = "(b) into-English corpus"
    wc = "(c) sentence BLEU"
    wd = "(d) peak memory of (b)"
    runs = Runs(report, tools, args.repeats, args.slow_repeats)
    sections: list[tuple[str, Callable[[], None]]] = [
        (wa, lambda: bench_corpus(runs, wa, hyps_a, refs_a, False, False)),
        (wb, lambda: bench_corpus(runs, wb, hyps_b, refs_b, True, True)),
        (
            wc,
            lambda: bench_sentences(runs, wc, hyps_b, refs_b, args.sentence_sample),
        ),
        (wd, lambda: bench_memory(report, wd, args.size, tools)),
        ("start-up", lambda: bench_startup(report, 3 if args.quick else 10)),
    ]
    # Peak memory does not depend on how busy the CPUs are: never repeated for load.
    load_insensitive = {wd}
    common.run_sections(report, sections, args, load_insensitive)

    print()
    print("Results (time: median wall clock; * = scaled from a sample; ratios = speed-up,")
    print("memory ratios = how many times less peak RSS increase)")
    print()
    report.print_table()
    print()
    print("Start-up (best wall time of a fresh process)")
    print_startup(report)
    common.print_loads(report, load_insensitive)
    evaluate_targets(report, args.quick)
    return common.finish(report, args, info, params, now)


if __name__ == "__main__":
    sys.exit(main())
