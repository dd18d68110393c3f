#!/usr/bin/env python
"""Self-BLEU benchmarks: ``bleuprint.self_bleu`` against Texygen's ``SelfBleu`` and fast-bleu
0.0.90's ``SelfBLEU``.

One run prints every figure and writes a CSV to ``bench/results/<label>/<date>-self-bleu.csv``
(the columns of bench_bleu.py's CSV plus ``vs_texygen``; the helpers every script shares are
in common.py).

Workload (issue "Captioning without Java"): (a) the first 10,000 lines of the into-English
WMT22 corpus of bench_bleu.py, split on whitespace, 4-grams:

- Texygen: ``SelfBleu(file, gram=4).get_bleu_parallel()`` (nltk's ``sentence_bleu`` of every
  sentence against the other ``N - 1``, on a ``multiprocessing.Pool`` of every core), with
  ``nltk.word_tokenize`` replaced by ``str.split`` so both sides count the same tokens. It
  takes time quadratic in N, so it runs on a sample of ``--texygen-sample`` sentences (default
  500, Texygen's own ``get_bleu_fast`` size: the first 500) and its time is scaled by
  ``(N / sample)²`` (marked ``*``). ``--texygen-source DIR`` runs the real code from a checkout
  of geek-ai/Texygen (``utils/metrics/SelfBleu.py``); without it, the script runs the same
  loop, copied below (:func:`texygen_parallel`).
- fast-bleu: ``SelfBLEU(tokens, {4: (0.25,) * 4}).get_score()`` on all N (C++, OpenMP).
- bleuprint: ``self_bleu(lines, variant=...)`` for ``texygen``, ``fast-bleu`` and ``sacrebleu``,
  tokenization included.

Timing as in every script: the median of ``--repeats`` runs after one warm-up run for
bleuprint and fast-bleu, one run of Texygen (``--slow-repeats``). Exactness: Texygen's figure
on the sample must equal (``==``) bleuprint's on the same sentences, and fast-bleu's
per-sentence scores bleuprint's fast-bleu variant's, on every sentence whose length another
shares (fast-bleu reads one length past its array, so what lies in memory there may decide
the others); the count compared is printed. Exits with status 1 if a check fails and 2 if
the data is missing.

Usage::

    python bench/bench_self_bleu.py                          # about 1 minute on 2 cores
    python bench/bench_self_bleu.py --texygen-source ~/Texygen
    python bench/bench_self_bleu.py --quick                  # smoke run, writes no CSV
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any, Optional

import common

ANCHOR = "texygen"
ORDER = 4
#: Targets: Self-BLEU of (a) in at most this many seconds, and this many times Texygen's.
SECONDS_TARGET = 1.0
SPEEDUP_TARGET = 1000.0
COUNTS: dict[str, common.Count] = {
    "repeats": (5, 2, "timed runs of bleuprint and fast-bleu (default 5)"),
    "slow_repeats": (1, 1, "timed runs of Texygen (default 1, no warm-up)"),
    "sentences": (10_000, 2_000, "sentences of (a) (default 10,000)"),
    "texygen_sample": (500, 200, "Texygen's sentences, its time scaled by (N / sample)² "
                       "(default 500)"),
}  # fmt: skip
QUICK = "smoke run: 2,000 sentences, Texygen on 200, two repeats"


def _calc_bleu(reference: list[list[str]], hypothesis: list[str], weight: tuple) -> float:
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    return sentence_bleu(
        reference, hypothesis, weight, smoothing_function=SmoothingFunction().method1
    )


def texygen_parallel(reference: list[list[str]], ngram: int) -> float:
    """Texygen's ``SelfBleu.get_bleu_parallel`` (geek-ai/Texygen 3104e22), as written there."""
    weight = tuple(1.0 / ngram for _ in range(ngram))
    pool = Pool(os.cpu_count())
    result = []
    sentence_num = len(reference)
    for index in range(sentence_num):
        hypothesis = reference[index]
        other = reference[:index] + reference[index + 1 :]
        result.append(pool.apply_async(_calc_bleu, args=(other, hypothesis, weight)))
    score, cnt = 0.0, 0
    for i in result:
        score += i.get()
        cnt += 1
    pool.close()
    pool.join()
    return score / cnt


def texygen_runner(source: Optional[Path]) -> Callable[[list[str]], float]:
    """Texygen on lines: its own class from ``source``, or :func:`texygen_parallel`."""
    if source is None:
        return lambda lines: texygen_parallel([line.split() for line in lines], ORDER)
    import nltk

    sys.path.insert(0, str(source))
    from utils.metrics.SelfBleu import SelfBleu  # type: ignore[import-not-found]

    nltk.word_tokenize = str.split  # the same tokens on both sides

    def run(lines: list[str]) -> float:
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("\n".join(lines) + "\n")
        try:
            metric = SelfBleu(f.name, gram=ORDER)
            metric.get_reference()
            return float(metric.get_bleu_parallel())
        finally:
            os.unlink(f.name)

    return run


def timed(call: Callable[[], Any], repeats: int, warmup: bool = True) -> common.Timing:
    """The median of ``repeats`` runs of ``call``."""
    return common.time_call(lambda h, r: call, [], [], repeats, warmup=warmup)


def main(argv: Optional[Sequence[str]] = None) -> int:
    def more(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--texygen-source", type=Path, default=None, metavar="DIR",
            help="a checkout of geek-ai/Texygen, to run its SelfBleu (default: the same loop, "
            "copied into this script)",
        )  # fmt: skip

    args = common.parse_args(__doc__, QUICK, COUNTS, argv, more=more)
    import bleuprint

    versions = {n: importlib.metadata.version(n) for n in ("nltk", "fast-bleu")}
    info, now = common.begin(args, "bleuprint Self-BLEU benchmarks", **versions)
    pool_h, _, notes = common.build_corpus(args.sentences)
    lines = pool_h[: args.sentences]
    n, m = len(lines), min(args.texygen_sample, len(pool_h))
    print("data: " + "; ".join(notes))
    source = args.texygen_source
    print(f"Texygen: {'SelfBleu from ' + str(source) if source else 'its loop, copied'}, on "
          f"the first {m:,} sentences, scaled by (N / {m:,})² (marked *)")  # fmt: skip
    print()
    report = common.Report()
    report.RATIO_TOOLS = (ANCHOR,)
    workload = f"(a) Self-BLEU of {n:,} WMT22 sentences, {ORDER}-grams"

    def section() -> None:
        sample = lines[:m]
        texygen = texygen_runner(source)
        anchor = timed(lambda: texygen(sample), args.slow_repeats, warmup=False)
        figure, seconds, scale = anchor.result, anchor.median, (n / m) ** 2
        common.add_time(report, workload, ANCHOR, n, anchor, None,
                        f"get_bleu_parallel on {m:,}, scaled", scale=scale,
                        anchor=ANCHOR)  # fmt: skip
        base = seconds * scale
        ours_sample = bleuprint.self_bleu(sample, max_order=ORDER).score
        same = report.check("(a) texygen figure", ours_sample == figure)
        print(f"    exactness: Texygen {figure!r}, bleuprint {ours_sample!r} on the {m:,}: "
              f"equal {same}")  # fmt: skip
        from fast_bleu import SelfBLEU

        tokens = [line.split() for line in lines]
        weights = {ORDER: tuple(1.0 / ORDER for _ in range(ORDER))}
        fast = timed(lambda: SelfBLEU(tokens, weights).get_score()[ORDER], args.repeats)
        common.add_time(report, workload, "fast-bleu", n, fast, base,
                        "SelfBLEU(tokens).get_score(), tokens split untimed",
                        anchor=ANCHOR)  # fmt: skip
        for variant in ("texygen", "fast-bleu", "sacrebleu"):
            timing = timed(
                lambda v=variant: bleuprint.self_bleu(lines, variant=v, max_order=ORDER),
                args.repeats,
            )
            common.add_time(report, workload, f"bleuprint {variant}", n, timing, base,
                            f"self_bleu(lines, variant={variant!r})", anchor=ANCHOR)  # fmt: skip
            if variant == "fast-bleu":
                lengths: dict[int, int] = {}
                for t in tokens:
                    lengths[len(t)] = lengths.get(len(t), 0) + 1
                shared = [k for k, t in enumerate(tokens) if lengths[len(t)] > 1]
                theirs, ours = fast.result, timing.result.sentence_scores.tolist()
                equal = sum(theirs[k] == ours[k] for k in shared)
                ok = report.check("(a) fast-bleu scores", equal == len(shared))
                everywhere = sum(a == b for a, b in zip(theirs, ours))
                print(f"    exactness: fast-bleu's scores equal bleuprint's on {equal:,} of "
                      f"the {len(shared):,} sentences whose length another shares "
                      f"({everywhere:,} of all {n:,}): {ok}")  # fmt: skip

    common.run_sections(report, [(workload, section)], args)
    common.print_results(
        report,
        "Results (time: median wall clock; * = scaled from a sample; ratios = speed-up: "
        "Texygen's time / this row's)",
        (ANCHOR,),
    )
    row = common.find_row(report, "(a)", "bleuprint texygen")
    if row is not None:
        seconds = float(row["seconds"])
        met = seconds <= SECONDS_TARGET and n >= 10_000
        report.add_target(
            f"(a) Self-BLEU of {n:,} sentences in seconds", seconds, "s",
            f"target <= {SECONDS_TARGET:g} s: {'met' if met else 'NOT met'}",
        )  # fmt: skip
    common.speedup_targets(
        report, {"(a)": ("(a) Self-BLEU vs Texygen", "bleuprint texygen", ANCHOR, SPEEDUP_TARGET)}
    )
    common.print_targets(report, args.quick)
    params = common.run_params(
        args, now, sentences=args.sentences, texygen_sample=args.texygen_sample
    )
    return common.finish(report, args, info, params, now, "-self-bleu")


if __name__ == "__main__":
    raise SystemExit(main())
