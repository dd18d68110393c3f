#!/usr/bin/env python
"""Compat-mode benchmarks: ``bleuprint.compat`` against the packages it reproduces.

One run prints every figure and writes a CSV to ``bench/results/<label>/<date>-compat.csv``
(the columns of bench_bleu.py's CSV).

Workloads (see bench/README.md), on the into-English corpus of bench_bleu.py:

(u) nltk ``corpus_bleu`` on 10,000 segments (``str.split()`` tokens, default smoothing):
    nltk 3.10.4 against ``bleuprint.compat.nltk.corpus_bleu`` (the same call);
(v) 2,000 nltk ``sentence_bleu`` calls with ``SmoothingFunction().method1``, one per segment;
(w) HF evaluate ``bleu`` on 100,000 segments: bleuscore 0.2.0 (Rust, bit-identical to HF's
    ``compute``; HF's own code is not pip-installable offline) against
    ``bleuprint.compat.evaluate.load("bleu").compute``;
(x) HF ``google_bleu`` on 10,000 segments: nltk's ``corpus_gleu`` on HF's 13a tokens (what HF
    runs) against ``load("google_bleu").compute``.

Every bleuprint result is checked for exact (``==``) equality with the anchor and the check is
printed; the script exits with status 1 if a check fails and 2 if the data is missing.

Usage::

    python bench/bench_compat.py            # full run, about 3 minutes on 2 cores
    python bench/bench_compat.py --quick    # smoke run, writes no CSV
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.metadata
import warnings
from collections.abc import Callable, Sequence
from typing import Any, Optional

from bench_bleu import (
    Report,
    add_run_args,
    add_speedup_target,
    build_corpus,
    fill_defaults,
    find_row,
    finish,
    machine_info,
    print_header,
    print_loads,
    print_targets,
    ratio,
    require_data,
    run_params,
    run_sections,
)
from bench_metrics import bench_tools, same_values

TARGETS = {
    "(u)": ("(u) nltk corpus_bleu vs nltk", "nltk", 10.0),
    "(w)": ("(w) HF bleu vs bleuscore", "bleuscore", 1.0),
}
RATIO_COLUMNS = ("nltk", "bleuscore")


def nltk_corpus_runner(tool: str) -> Callable[..., Any]:
    if tool == "nltk":
        from nltk.translate.bleu_score import corpus_bleu
    else:
        from bleuprint.compat.nltk import corpus_bleu

    def prepare(h: list[str], r: list[str]) -> Callable[[], Any]:
        hyps, refs = [x.split() for x in h], [[x.split()] for x in r]
        return lambda: corpus_bleu(refs, hyps)

    return prepare


def nltk_sentence_runner(tool: str) -> Callable[..., Any]:
    if tool == "nltk":
        from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
    else:
        from bleuprint.compat.nltk import SmoothingFunction, sentence_bleu
    smoothing = SmoothingFunction().method1

    def prepare(h: list[str], r: list[str]) -> Callable[[], Any]:
        pairs = [(x.split(), [y.split()]) for x, y in zip(h, r)]
        return lambda: [
            sentence_bleu(refs, hyp, smoothing_function=smoothing) for hyp, refs in pairs
        ]

    return prepare


def hf_runner(tool: str) -> Callable[..., Any]:
    if tool == "bleuscore":
        import bleuscore

        return lambda h, r: (
            lambda: bleuscore.compute(
                references=[[x] for x in r], predictions=h, max_order=4, smooth=False
            )
        )
    from bleuprint.compat import evaluate

    bleu = evaluate.load("bleu")
    return lambda h, r: lambda: bleu.compute(predictions=h, references=[[x] for x in r])


def gleu_runner(tool: str) -> Callable[..., Any]:
    from bleuprint.compat import evaluate

    if tool == "nltk":
        from nltk.translate.gleu_score import corpus_gleu

        tokenize = evaluate.Tokenizer13a()

        def prepare(h: list[str], r: list[str]) -> Callable[[], Any]:
            # HF tokenizes inside compute(); so does this call.
            return lambda: {
                "google_bleu": corpus_gleu([[tokenize(x)] for x in r], [tokenize(x) for x in h])
            }

        return prepare
    gleu = evaluate.load("google_bleu")
    return lambda h, r: lambda: gleu.compute(predictions=h, references=[[x] for x in r])


def same_dict(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return {k: a[k] for k in b} == b


def same_scalar(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def evaluate_targets(report: Report, quick: bool) -> None:
    for key, (label, anchor, target) in TARGETS.items():
        a, b = find_row(report, key, "bleuprint"), find_row(report, key, anchor)
        if a is not None and b is not None:
            add_speedup_target(report, label, ratio(b["seconds"], a["seconds"]), target)
    print_targets(report, quick)


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="smoke run: small corpora, few repeats")
    p.add_argument("--repeats", type=int, default=None, help="timed runs of bleuprint (default 5)")
    p.add_argument("--slow-repeats", type=int, default=None, help="timed runs of the others (3)")
    add_run_args(p)
    args = p.parse_args(argv)
    fill_defaults(args, {"repeats": (5, 2), "slow_repeats": (3, 1)})
    args.sizes = (
        {"u": 1_000, "v": 200, "w": 10_000, "x": 1_000}
        if args.quick
        else {"u": 10_000, "v": 2_000, "w": 100_000, "x": 10_000}
    )
    return args


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    require_data()
    warnings.simplefilter("ignore")  # nltk's method0 warns on zero orders; so does ours
    info = machine_info(args.label)
    info["nltk"] = importlib.metadata.version("nltk")
    now = dt.datetime.now(dt.timezone.utc)
    params = run_params(
        args,
        now,
        **{f"segments_{k}": v for k, v in args.sizes.items()},
    )
    print_header("bleuprint compat benchmarks", info)
    hyps, refs, notes = build_corpus(max(args.sizes.values()))
    print("data: " + "; ".join(notes))
    print()
    fast, slow = args.repeats, args.slow_repeats
    report = Report()
    size = args.sizes
    wu = f"(u) nltk corpus_bleu, {size['u']:,} segments"
    wv = f"(v) {size['v']:,} nltk sentence_bleu calls (method1)"
    ww = f"(w) HF bleu, {size['w']:,} segments"
    wx = f"(x) HF google_bleu, {size['x']:,} segments"

    def section(
        workload: str, key: str, anchor: str, runner: Callable[[str], Any], same: Any
    ) -> Callable[[], None]:
        n = size[key]
        runners = {anchor: runner(anchor), "bleuprint": runner("bleuprint")}
        return lambda: bench_tools(
            report, workload, hyps[:n], refs[:n], runners, anchor, same,
            lambda s: repr(s)[:60], {anchor: slow, "bleuprint": fast},
        )  # fmt: skip

    sections = [
        (wu, section(wu, "u", "nltk", nltk_corpus_runner, same_scalar)),
        (wv, section(wv, "v", "nltk", nltk_sentence_runner, same_values)),
        (ww, section(ww, "w", "bleuscore", hf_runner, same_dict)),
        (wx, section(wx, "x", "nltk", gleu_runner, same_dict)),
    ]
    run_sections(report, sections, args)
    print()
    print("Results (time: median wall clock; ratios = speed-up)")
    print()
    report.print_table(RATIO_COLUMNS)
    print_loads(report)
    evaluate_targets(report, args.quick)
    return finish(report, args, info, params, now, "-compat")


if __name__ == "__main__":
    raise SystemExit(main())
