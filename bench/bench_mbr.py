#!/usr/bin/env python
"""MBR benchmarks: pairwise utility matrices and expected utilities, bleuprint against a loop
of sacrebleu's ``sentence_score`` and fastchrf.

One run prints every figure and writes a CSV to ``bench/results/<label>/<date>-mbr.csv`` (the
columns of bench_bleu.py's CSV; the helpers every script shares are in common.py).

Workloads (see bench/README.md), on the first ``--size`` (1,024) segments of WMT22 en-de
reference A, every sentence against every other (MBR's hypotheses x hypotheses):

(A) sentence BLEU with effective order and exp smoothing (mbrs' default BLEU):
    ``BLEU(effective_order=True).pairwise(s)`` against a loop of sacrebleu's
    ``sentence_score(h, [r])`` (timed on ``--sample-rows`` rows and scaled);
(B) chrF: ``CHRF().pairwise(s)`` against ``fastchrf.pairwise_chrf([s], [s])`` and the
    sacrebleu loop (sampled and scaled);
(C) chrF++ (``word_order=2``, which fastchrf lacks) against the sacrebleu loop;
(D) expected utilities (chrF): ``CHRF().expected_utility(s)`` against
    ``fastchrf.pairwise_chrf`` plus the row means;
(F) token-ID BLEU for RL rewards: 256 candidates x 1,024 random token IDs (a 32,000-ID
    vocabulary), one reference each (the candidate with 30% of its tokens replaced):
    ``token_bleu(c, r, smoothing=1)`` against a loop of nltk's ``sentence_bleu`` with
    ``SmoothingFunction().method1`` (equal results checked), and TensorBLEU (``rxlm``'s
    ``tensor_sentence_bleu``, torch on the CPU, ``smoothing_method="floor"``: method1's
    epsilon 0.1) where torch is installed: its module is taken from the rxlm wheel, fetched
    with ``pip download`` into ``bench/.cache/`` (rxlm itself needs transformer-engine and
    CUDA); where no order lacks matches (smoothing unused) the largest difference is printed;
(G) reference aggregation (chrF): ``CHRF().aggregate_utility(s)`` against
    ``fastchrf.aggregate_chrf([s], [s])`` (float32, its own definition: the largest difference
    is printed);
(E) peak memory of (A) above the process' size before the call, in a fresh subprocess
    (Linux: ``/proc/self/clear_refs`` restarts the peak, ``VmHWM`` reads it).

Every bleuprint cell of the sampled rows is checked for exact (``==``) equality with sacrebleu;
fastchrf computes a float32 chrF of its own, so its values are compared for the largest
difference only. Exit status 1 if a check fails, 2 if the data is missing.

Usage::

    python bench/bench_mbr.py            # full run, about 4 minutes on 2 cores (TensorBLEU:
                                         # about 2 of them on the CPU)
    python bench/bench_mbr.py --quick    # smoke run: 128 sentences, writes no CSV
    python bench/bench_mbr.py --only F   # only workload (F)
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import json
import subprocess
import sys
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, Optional

import common

# Speed-up targets of the issue, and the absolute time targets for --size 1024.
SPEEDUP_TARGETS = {
    "(A)": ("(A) 1024x1024 BLEU vs the sacrebleu loop", "bleuprint", "sacrebleu", 200.0),
    "(B)": ("(B) 1024x1024 chrF vs fastchrf", "bleuprint", "fastchrf", 30.0),
    "(F)": ("(F) token BLEU 256x1024 vs the nltk loop", "bleuprint", "nltk", 38.0),
    "(G)": ("(G) chrF aggregation vs fastchrf", "bleuprint", "fastchrf", 5.0),
}
SECONDS_TARGETS = {"(A)": 0.5, "(B)": 1.0, "(C)": 1.5, "(F)": 0.02, "(G)": 0.02}
MEMORY_TARGET = 50 * 2**20  # bytes above the matrix itself
RATIO_COLUMNS = ("sacrebleu", "fastchrf", "nltk", "tensorbleu")

#: Whole-number options: default, default under --quick, help.
COUNTS: dict[str, common.Count] = {
    "repeats": (5, 2, "timed runs of bleuprint (default 5)"),
    "slow_repeats": (3, 1, "timed runs of sacrebleu and fastchrf (default 3)"),
    "size": (1024, 128, "sentences (default 1,024)"),
    "sample_rows": (16, 4, "rows of the sacrebleu loop timed and scaled (default 16)"),
}
#: --quick's help.
QUICK = "smoke run: 128 sentences"


def add_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--only", default=None, metavar="LETTERS",
        help="run only these workloads, e.g. F or ABF (default: all)",
    )  # fmt: skip


# TensorBLEU's release, and its module inside the wheel (loaded alone: rxlm's __init__ needs
# transformer-engine and CUDA, tensorbleu.py only torch).
RXLM_VERSION = "0.3.80"
TENSORBLEU_MEMBER = "rxlm/metrics/tensorbleu.py"
CACHE = Path(__file__).resolve().parent / ".cache"


def sentences(size: int) -> list[str]:
    lines = common.read_lines(common.DATA / "references" / "generaltest2022.en-de.ref.A.de")
    if len(lines) < size:
        common.die(f"en-de reference A has {len(lines)} lines, fewer than --size {size}")
    return lines[:size]


# --------------------------------------------------------------------------------------------
# Runners: prepare(hyps, refs) -> a zero-argument call (inputs arranged untimed)
# --------------------------------------------------------------------------------------------


def sacrebleu_loop(name: str, **kwargs: Any) -> Callable[..., Any]:
    import sacrebleu

    metric = getattr(sacrebleu, name)(**kwargs)
    return lambda h, r: lambda: [[metric.sentence_score(a, [b]).score for b in r] for a in h]


def bleuprint_pairwise(name: str, **kwargs: Any) -> Callable[..., Any]:
    import bleuprint

    metric = getattr(bleuprint, name)(**kwargs)
    return lambda h, r: lambda: metric.pairwise(h, r)


def fastchrf_pairwise() -> Callable[..., Any]:
    import fastchrf

    return lambda h, r: lambda: fastchrf.pairwise_chrf([h], [r])


def fastchrf_expected() -> Callable[..., Any]:
    import fastchrf

    def prepare(h: list[str], r: list[str]) -> Callable[[], Any]:
        def run() -> list[float]:
            matrix = fastchrf.pairwise_chrf([h], [r])[0]
            return [sum(row) / len(row) for row in matrix]

        return run

    return prepare


def bleuprint_expected(name: str, **kwargs: Any) -> Callable[..., Any]:
    import bleuprint

    metric = getattr(bleuprint, name)(**kwargs)
    return lambda h, r: lambda: metric.expected_utility(h, r)


# --------------------------------------------------------------------------------------------
# Sections
# --------------------------------------------------------------------------------------------


def flat(values: Any) -> list[float]:
    import numpy as np

    return np.asarray(values, dtype=np.float64).reshape(-1).tolist()


def time_matrix(
    report: common.Report,
    workload: str,
    samples: list[str],
    runners: dict[str, Callable[..., Any]],
    repeats: dict[str, int],
    sample_rows: int,
) -> None:
    """Times each runner on the whole matrix, but sacrebleu on ``sample_rows`` evenly spaced
    rows, scaled; bleuprint's cells of those rows must equal sacrebleu's."""
    n = len(samples)
    step = max(1, n // sample_rows)
    rows = list(range(0, n, step))[:sample_rows]
    timings: dict[str, common.Timing] = {}
    for tool, runner in runners.items():
        print(f"  {workload}: {tool} ...", flush=True)
        hyps = [samples[i] for i in rows] if tool == "sacrebleu" else samples
        timings[tool] = common.time_call(
            runner, hyps, samples, repeats[tool], warmup=repeats[tool] > 1
        )
    cells = n * n
    sacrebleu_time = None
    if "sacrebleu" in timings:
        t = timings["sacrebleu"]
        scale = n / len(rows)
        sacrebleu_time = t.median * scale
        note = f"a loop of sentence_score; timed on {len(rows)} of {n} rows and scaled"
        report.add_time(workload, "sacrebleu", cells, t, note, base=sacrebleu_time, scale=scale)
    fast_time = timings["fastchrf"].median if "fastchrf" in timings else None
    for tool, t in timings.items():
        if tool == "sacrebleu":
            continue
        note, match = "", None
        if "sacrebleu" in timings and tool.startswith("bleuprint") and t.result is not None:
            ours = t.result
            expected = timings["sacrebleu"].result
            same = all(flat(ours[i]) == flat(expected[k]) for k, i in enumerate(rows))
            match = report.check(f"{workload}: {tool} == sacrebleu ({len(rows) * n} cells)", same)
            note = f"== sacrebleu on {len(rows) * n:,} cells: {match}"
        if tool == "fastchrf" and "bleuprint" in timings:
            diff = max(
                abs(a - b) for a, b in zip(flat(t.result), flat(timings["bleuprint"].result))
            )
            note = f"float32, its own chrF: largest difference from sacrebleu's {diff:.2e}"
        report.add_time(
            workload, tool, cells, t, note, base=sacrebleu_time, match=match,
            vs_fastchrf=common.ratio(fast_time, t.median),
        )  # fmt: skip


def time_expected(
    report: common.Report,
    workload: str,
    samples: list[str],
    repeats: dict[str, int],
    have_fast: bool,
) -> None:
    runners: dict[str, Callable[..., Any]] = {}
    if have_fast:
        runners["fastchrf"] = fastchrf_expected()
    runners["bleuprint"] = bleuprint_expected("CHRF")
    timings = {}
    for tool, runner in runners.items():
        print(f"  {workload}: {tool} ...", flush=True)
        timings[tool] = common.time_call(runner, samples, samples, repeats[tool], warmup=True)
    base = timings["fastchrf"].median if have_fast else None
    for tool, t in timings.items():
        note = "pairwise_chrf, then row means" if tool == "fastchrf" else "fsum row means"
        report.add_time(
            workload, tool, len(samples), t, note, vs_fastchrf=common.ratio(base, t.median)
        )


def time_aggregation(
    report: common.Report, workload: str, samples: list[str], repeats: dict[str, int]
) -> None:
    import fastchrf

    import bleuprint

    chrf = bleuprint.CHRF()
    runners = {
        "fastchrf": lambda h, r: lambda: fastchrf.aggregate_chrf([h], [r])[0],
        "bleuprint": lambda h, r: lambda: chrf.aggregate_utility(h, r),
    }
    timings = {}
    for tool, runner in runners.items():
        print(f"  {workload}: {tool} ...", flush=True)
        timings[tool] = common.time_call(runner, samples, samples, repeats[tool], warmup=True)
    diff = max(
        abs(a - b)
        for a, b in zip(flat(timings["fastchrf"].result), flat(timings["bleuprint"].result))
    )
    base = timings["fastchrf"].median
    report.add_time(
        workload,
        "fastchrf",
        len(samples),
        timings["fastchrf"],
        f"float32, its own aggregation: largest difference {diff:.2e}",
        vs_fastchrf=1.0,
    )
    report.add_time(
        workload,
        "bleuprint",
        len(samples),
        timings["bleuprint"],
        "mbrs' aggregation, exact",
        vs_fastchrf=common.ratio(base, timings["bleuprint"].median),
    )


def token_batch(seed: int = 0) -> tuple[Any, Any]:
    import numpy as np

    rng = np.random.default_rng(seed)
    candidates = rng.integers(0, 32_000, size=(256, 1024))
    references = candidates.copy()
    replaced = rng.random(references.shape) < 0.3
    references[replaced] = rng.integers(0, 32_000, size=int(replaced.sum()))
    return candidates, references[:, None, :]


def tensorbleu() -> Optional[ModuleType]:
    """rxlm's ``tensorbleu`` module, loaded from its file in the rxlm wheel, which ``pip
    download`` fetches from the package index once into ``bench/.cache/``; None (with the
    reason printed) where that fails."""
    folder = CACHE / f"rxlm-{RXLM_VERSION}"
    wheel = folder / f"rxlm-{RXLM_VERSION}-py3-none-any.whl"
    if not wheel.exists():
        fetched = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
             "--dest", str(folder), f"rxlm=={RXLM_VERSION}"],
            capture_output=True, text=True,
        )  # fmt: skip
        if fetched.returncode != 0 or not wheel.exists():
            print(f"rxlm {RXLM_VERSION} could not be downloaded: TensorBLEU is skipped")
            print(fetched.stderr.strip()[-500:])
            return None
    source = folder / "tensorbleu.py"
    with zipfile.ZipFile(wheel) as archive:
        source.write_bytes(archive.read(TENSORBLEU_MEMBER))
    spec = importlib.util.spec_from_file_location("rxlm_tensorbleu", source)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def time_token_bleu(report: common.Report, workload: str, repeats: dict[str, int]) -> None:
    import numpy as np
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    import bleuprint

    candidates, references = token_batch()
    lists = candidates.tolist(), [[r] for r in references[:, 0].tolist()]
    method1 = SmoothingFunction().method1
    runners = {
        "nltk": lambda: [sentence_bleu(r, c, smoothing_function=method1) for c, r in zip(*lists)],
        "bleuprint": lambda: bleuprint.token_bleu(candidates, references, smoothing=1),
    }
    module = tensorbleu() if common.installed("torch") else None
    if module is not None:
        import torch

        # Every ID is a token: no pad ID occurs (-1). "floor" is nltk's method1 (epsilon 0.1).
        c_t, r_t = torch.from_numpy(candidates), torch.from_numpy(references)
        runners["tensorbleu"] = lambda: module.tensor_sentence_bleu(
            c_t, r_t, pad_token_id=-1, smoothing_method="floor", smoothing_epsilon=0.1
        ).numpy()
    timings = {}
    for tool, run in runners.items():
        print(f"  {workload}: {tool} ...", flush=True)
        timings[tool] = common.time_call(
            lambda h, r, run=run: run, [], [], repeats[tool], warmup=True
        )
    same = np.array_equal(np.asarray(timings["nltk"].result), timings["bleuprint"].result)
    match = report.check(f"{workload}: bleuprint == nltk", same)
    base = timings["nltk"].median
    report.add_time(
        workload, "nltk", 256, timings["nltk"], "a loop of sentence_bleu, method1",
        vs_nltk=1.0,
    )  # fmt: skip
    theirs = timings["tensorbleu"].median if "tensorbleu" in timings else None
    report.add_time(
        workload, "bleuprint", 256, timings["bleuprint"], f"== nltk: {match}", match=match,
        vs_nltk=common.ratio(base, timings["bleuprint"].median),
        vs_tensorbleu=common.ratio(theirs, timings["bleuprint"].median),
    )  # fmt: skip
    if "tensorbleu" in timings:
        # Its smoothing is its own; it equals nltk's only where no order lacks matches.
        ours = timings["bleuprint"].result
        unsmoothed = bleuprint.token_bleu(candidates, references)
        coincide = bool(np.array_equal(unsmoothed, ours))
        diff = float(np.max(np.abs(timings["tensorbleu"].result - ours)))
        note = f"float32, torch {torch.__version__}, {torch.get_num_threads()} CPU threads; "
        if coincide:
            note += f"no smoothing used: largest difference from nltk's {diff:.2e}"
        else:
            note += "smoothing used (its own): values not compared"
        print(f"    TensorBLEU: {note}", flush=True)
        report.add_time(
            workload, "tensorbleu", 256, timings["tensorbleu"], note,
            vs_nltk=common.ratio(base, theirs), vs_tensorbleu=1.0,
        )  # fmt: skip


MEMORY_CHILD = """
import json, sys, warnings
warnings.simplefilter("ignore")
import numpy, bleuprint

def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024

lines = json.loads(sys.stdin.read())
metric = bleuprint.BLEU(effective_order=True)
metric.pairwise(lines[:8])
with open("/proc/self/clear_refs", "w") as f:  # the peak restarts from the current size
    f.write("5")
before = status("VmRSS")
matrix = metric.pairwise(lines)
print(json.dumps({"before": before, "after": status("VmHWM"), "matrix": matrix.nbytes}))
"""


def memory(report: common.Report, workload: str, samples: list[str]) -> None:
    print(f"  {workload}: bleuprint ...", flush=True)
    out = subprocess.run(
        [sys.executable, "-c", MEMORY_CHILD], input=json.dumps(samples),
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    m = json.loads(out.stdout)
    extra = m["after"] - m["before"] - m["matrix"]
    report.add_memory(
        workload, "bleuprint", len(samples) ** 2, m["after"] - m["before"],
        f"peak RSS growth; the matrix is {m['matrix'] / 2**20:.1f} MiB, the rest "
        f"{extra / 2**20:.1f} MiB",
    )  # fmt: skip
    met = extra <= MEMORY_TARGET
    report.add_target(
        f"{workload}: memory beyond the matrix", extra, "bytes",
        f"target <= {MEMORY_TARGET / 2**20:.0f} MiB: {'met' if met else 'NOT met'}",
    )  # fmt: skip


def evaluate_targets(report: common.Report, quick: bool, size: int) -> None:
    common.speedup_targets(report, SPEEDUP_TARGETS)
    for key, limit in SECONDS_TARGETS.items():
        row = common.find_row(report, key, "bleuprint")
        if row is None:
            continue
        ours = float(row["seconds"])
        full_size = key == "(F)" or size >= 1024
        label = {"(F)": "(F) 256x1024", "(G)": f"(G) {size}"}.get(key, f"{key} {size}x{size}")
        met = ours <= limit and full_size
        note = f"target <= {limit:g} s: {'met' if met else 'NOT met'}"
        report.add_target(f"{label} in seconds", ours, "s", note)
    common.print_targets(report, quick)


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = common.parse_args(__doc__, QUICK, COUNTS, argv, add_options)
    have_fast = common.installed("fastchrf")
    fastchrf = importlib.metadata.version("fastchrf") if have_fast else ""
    # "ignore": sacrebleu's per-call effective-order advice
    info, now = common.begin(args, "bleuprint MBR benchmarks", "ignore", fastchrf=fastchrf)
    params = common.run_params(args, now, size=args.size, sample_rows=args.sample_rows)
    samples = sentences(args.size)
    n = f"{args.size:,}x{args.size:,}"
    fast, slow = args.repeats, args.slow_repeats
    repeats = {"sacrebleu": slow, "fastchrf": slow, "bleuprint": fast, "nltk": slow}
    report = common.Report()
    wq, wr, ws = (f"(A) sentence BLEU, {n}", f"(B) chrF, {n}", f"(C) chrF++, {n}")
    wt, wu = f"(D) chrF expected utility, {args.size:,}", f"(E) memory of (A), {n}"
    wf = "(F) token BLEU, 256 x 1,024 token IDs"
    wg = f"(G) chrF reference aggregation, {args.size:,}"
    chrf_runners = {"sacrebleu": sacrebleu_loop("CHRF")}
    if have_fast:
        chrf_runners["fastchrf"] = fastchrf_pairwise()
    chrf_runners["bleuprint"] = bleuprint_pairwise("CHRF")
    rows = args.sample_rows
    # (F) and (G) take milliseconds: more runs keep their medians steady on a shared VM.
    short = {**repeats, "bleuprint": 4 * fast}
    bleu = {"effective_order": True}
    sections: list[tuple[str, Callable[[], None]]] = [
        (wq, lambda: time_matrix(report, wq, samples, {
            "sacrebleu": sacrebleu_loop("BLEU", **bleu),
            "bleuprint": bleuprint_pairwise("BLEU", **bleu),
            "bleuprint (workers=1)": bleuprint_pairwise("BLEU", **bleu, workers=1),
        }, {**repeats, "bleuprint (workers=1)": fast}, rows)),
        (wr, lambda: time_matrix(report, wr, samples, chrf_runners, repeats, rows)),
        (ws, lambda: time_matrix(report, ws, samples, {
            "sacrebleu": sacrebleu_loop("CHRF", word_order=2),
            "bleuprint": bleuprint_pairwise("CHRF", word_order=2),
        }, repeats, rows)),
        (wt, lambda: time_expected(report, wt, samples, repeats, have_fast)),
        (wu, lambda: memory(report, wu, samples)),
    ]  # fmt: skip
    if have_fast:
        sections.append((wg, lambda: time_aggregation(report, wg, samples, short)))
    if common.installed("nltk"):
        token_repeats = {**short, "nltk": slow, "tensorbleu": slow}
        sections.append((wf, lambda: time_token_bleu(report, wf, token_repeats)))
    else:
        print("nltk is not installed: (F) is skipped")
    if not have_fast:
        print("fastchrf is not installed: its rows are skipped")
    if args.only:
        sections = [s for s in sections if s[0][1] in args.only.upper()]
    common.run_sections(report, sections, args)
    common.print_results(
        report,
        "Results (time: median wall clock; * = scaled from a sample; ratios = speed-up)",
        RATIO_COLUMNS,
    )
    evaluate_targets(report, args.quick, args.size)
    return common.finish(report, args, info, params, now, "-mbr")


if __name__ == "__main__":
    raise SystemExit(main())
