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

import importlib.metadata
from collections.abc import Callable, Sequence
from typing import Any, Optional

import common
from bench_metrics import bench_tools, same_values

#: The speed-up targets: label, bleuprint's row, the anchor's row, at least this much faster.
TARGETS = {
    "(u)": ("(u) nltk corpus_bleu vs nltk", "bleuprint", "nltk", 10.0),
    "(w)": ("(w) HF bleu vs bleuscore", "bleuprint", "bleuscore", 1.0),
}
RATIO_COLUMNS = ("nltk", "bleuscore")

#: Whole-number options: default, default under --quick, help.
COUNTS: dict[str, common.Count] = {
    "repeats": (5, 2, "timed runs of bleuprint (default 5)"),
    "slow_repeats": (3, 1, "timed runs of the others (3)"),
}
#: --quick's help.
QUICK = "smoke run: small corpora, few repeats"
#: Segments of (u), (v), (w) and (x), and under --quick.
SIZES = {"u": 10_000, "v": 2_000, "w": 100_000, "x": 10_000}
SIZES_QUICK = {"u": 1_000, "v": 200, "w": 10_000, "x": 1_000}


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


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = common.parse_args(__doc__, QUICK, COUNTS, argv)
    size = SIZES_QUICK if args.quick else SIZES
    # nltk's method0 warns on zero orders; so does ours
    nltk = importlib.metadata.version("nltk")
    info, now = common.begin(args, "bleuprint compat benchmarks", "ignore", True, nltk=nltk)
    params = common.run_params(
        args,
        now,
        **{f"segments_{k}": v for k, v in size.items()},
    )
    hyps, refs, notes = common.build_corpus(max(size.values()))
    print("data: " + "; ".join(notes))
    print()
    report = common.Report()
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
            lambda s: repr(s)[:60], {anchor: args.slow_repeats, "bleuprint": args.repeats},
        )  # fmt: skip

    sections = [
        (wu, section(wu, "u", "nltk", nltk_corpus_runner, same_scalar)),
        (wv, section(wv, "v", "nltk", nltk_sentence_runner, same_values)),
        (ww, section(ww, "w", "bleuscore", hf_runner, same_dict)),
        (wx, section(wx, "x", "nltk", gleu_runner, same_dict)),
    ]
    common.run_sections(report, sections, args)
    common.print_results(
        report, "Results (time: median wall clock; ratios = speed-up)", RATIO_COLUMNS
    )
    common.speedup_targets(report, TARGETS)
    common.print_targets(report, args.quick)
    return common.finish(report, args, info, params, now, "-compat")


if __name__ == "__main__":
    raise SystemExit(main())
