#!/usr/bin/env python
"""chrF, TER and WER/CER benchmarks: bleuprint against sacrebleu 2.6.0, fastchrf and jiwer.

One run prints every figure and writes a CSV to ``bench/results/<label>/<date>-metrics.csv``
(the columns of bench_bleu.py's CSV; the helpers every script shares are in common.py).

Workloads (see bench/README.md):

(j) corpus chrF on the 100,000-segment corpus of bench_bleu.py (b): ``corpus_chrf(h, [r])``;
(k) the same with chrF++ (``word_order=2``);
(l) 10,000 sentence-level chrF scores (evenly spaced segments of that corpus): a loop of
    ``sacrebleu.sentence_chrf`` (timed on a sample and scaled), one
    ``fastchrf.pairwise_chrf`` call with a 1 x 1 batch per segment, and one
    ``bleuprint.CHRF().sentence_scores`` call;
(m) all 64 x 64 hypothesis-reference pairs (MBR-style): ``fastchrf.pairwise_chrf([H], [R])``
    against ``sentence_scores`` over the 4,096 pairs;
(n) corpus TER on the first 5,000 segments of that corpus: ``corpus_ter(h, [r])``;
(o) WER and (p) CER on the 100,000-segment corpus: ``jiwer.wer(refs, hyps)`` /
    ``jiwer.cer(refs, hyps)`` against ``bleuprint.compat.jiwer`` (the same call, the same
    numbers) and the native ``corpus_wer`` / ``corpus_cer``.

Every bleuprint result is checked for exact (``==``) equality with the anchor tool and the
result of each check is printed; the script exits with status 1 if a check fails and 2 if the
data is missing. fastchrf and jiwer rows are skipped (and said so) when they are not installed.

Usage::

    python bench/bench_metrics.py               # full run, about 3 minutes on 2 cores
    python bench/bench_metrics.py --quick       # smoke run, about 15 s, writes no CSV
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
from collections.abc import Callable, Sequence
from typing import Any, Optional

import common

#: The speed-up targets: label, bleuprint's row, the anchor's row, at least this much faster.
TARGETS = {
    "(j)": ("(j) corpus chrF vs sacrebleu", "bleuprint", "sacrebleu", 100.0),
    "(l)": ("(l) sentence chrF vs fastchrf", "bleuprint", "fastchrf", 1.0),
    "(m)": ("(m) 64x64 pairwise chrF vs fastchrf", "bleuprint", "fastchrf", 1.0),
    "(n)": ("(n) corpus TER vs sacrebleu", "bleuprint", "sacrebleu", 50.0),
    "(o)": ("(o) WER vs jiwer", "bleuprint.compat.jiwer", "jiwer", 2.0),
    "(p)": ("(p) CER vs jiwer", "bleuprint.compat.jiwer", "jiwer", 2.0),
}
RATIO_COLUMNS = ("sacrebleu", "fastchrf", "jiwer")

#: Whole-number options: default, default under --quick, help.
COUNTS: dict[str, common.Count] = {
    "repeats": (5, 2, "timed runs of bleuprint (default 5)"),
    "slow_repeats": (3, 1, "timed runs of sacrebleu, fastchrf and jiwer (default 3)"),
    "segments": (100_000, 10_000, "corpus size of (j), (k), (o), (p)"),
    "sentences": (10_000, 2_000, "sentence scores in (l)"),
    "sentence_sample": (
        2_000,
        200,
        "sacrebleu sentence_chrf calls in (l), scaled linearly (default 2,000)",
    ),
    "ter_segments": (5_000, 500, "segments of (n)"),
}
#: --quick's help.
QUICK = "smoke run: small corpora, few repeats"


# --------------------------------------------------------------------------------------------
# Runners: prepare(hyps, refs) -> a zero-argument call (inputs arranged untimed)
# --------------------------------------------------------------------------------------------


def chrf_corpus_runner(tool: str, word_order: int, workers: int = -1) -> Callable[..., Any]:
    if tool == "sacrebleu":
        import sacrebleu

        return lambda h, r: lambda: sacrebleu.corpus_chrf(h, [r], word_order=word_order)
    import bleuprint

    return lambda h, r: (
        lambda: bleuprint.CHRF(word_order=word_order, workers=workers).corpus_score(h, [r])
    )


def chrf_sentence_runner(tool: str) -> Callable[..., Any]:
    if tool == "sacrebleu":
        import sacrebleu

        return lambda h, r: lambda: [sacrebleu.sentence_chrf(a, [b]).score for a, b in zip(h, r)]
    if tool == "fastchrf":
        import fastchrf

        def prepare(h: list[str], r: list[str]) -> Callable[[], Any]:
            batch_h, batch_r = [[a] for a in h], [[b] for b in r]
            return lambda: fastchrf.pairwise_chrf(batch_h, batch_r)

        return prepare
    import bleuprint

    return lambda h, r: lambda: bleuprint.CHRF().sentence_scores(h, [r])


def chrf_pairwise_runner(tool: str) -> Callable[..., Any]:
    if tool == "fastchrf":
        import fastchrf

        return lambda h, r: lambda: fastchrf.pairwise_chrf([h], [r])
    import bleuprint

    def prepare(h: list[str], r: list[str]) -> Callable[[], Any]:
        # Every hypothesis against every reference, as one batch of len(h) * len(r) pairs.
        hyps = [a for a in h for _ in r]
        refs = [b for _ in h for b in r]
        return lambda: bleuprint.CHRF().sentence_scores(hyps, [refs])

    return prepare


def ter_runner(tool: str, workers: int = -1) -> Callable[..., Any]:
    if tool == "sacrebleu":
        import sacrebleu

        return lambda h, r: lambda: sacrebleu.corpus_ter(h, [r])
    import bleuprint

    return lambda h, r: lambda: bleuprint.TER(workers=workers).corpus_score(h, [r])


def wer_runner(tool: str, unit: str) -> Callable[..., Any]:
    if tool == "jiwer":
        import jiwer

        fn = jiwer.wer if unit == "word" else jiwer.cer
        return lambda h, r: lambda: fn(r, h)
    if tool == "bleuprint.compat.jiwer":
        from bleuprint.compat import jiwer as compat

        fn = compat.wer if unit == "word" else compat.cer
        return lambda h, r: lambda: fn(r, h)
    import bleuprint

    fn = bleuprint.corpus_wer if unit == "word" else bleuprint.corpus_cer
    return lambda h, r: lambda: fn(h, [r])


# --------------------------------------------------------------------------------------------
# Sections
# --------------------------------------------------------------------------------------------


def bench_tools(
    report: common.Report,
    workload: str,
    hyps: list[str],
    refs: list[str],
    runners: dict[str, Callable[..., Any]],
    anchor: str,
    same: Callable[[Any, Any], bool],
    describe: Callable[[Any], str],
    repeats: dict[str, int],
    sample: Optional[int] = None,
    scored: Optional[int] = None,
) -> None:
    """Times every runner on the same input; the anchor (first) is timed on ``sample`` evenly
    spaced segments and scaled when ``sample`` is given. Checks each other result against the
    anchor's with ``same``. ``scored``: the number of scores a call makes, when it is not one
    per hypothesis (all pairs)."""
    timings: dict[str, common.Timing] = {}
    scale = 1.0
    for tool, runner in runners.items():
        print(f"  {workload}: {tool} ...", flush=True)
        h, r = hyps, refs
        if tool == anchor and sample is not None and sample < len(hyps):
            idx = common.spaced(len(hyps), sample)
            h, r = [hyps[i] for i in idx], [refs[i] for i in idx]
            scale = len(hyps) / sample
        timings[tool] = common.time_call(runner, h, r, repeats[tool], warmup=repeats[tool] > 1)
    base = timings[anchor].median * scale
    expected = timings[anchor].result
    segments = scored or len(hyps)
    for tool, t in timings.items():
        if tool == anchor:
            note = describe(expected)
            if scale != 1.0:
                note += f"; timed on {sample:,} evenly spaced segments and scaled"
            common.add_time(
                report, workload, tool, segments, t, base, note, scale=scale, anchor=anchor
            )
            continue
        ok = (
            same(t.result, expected)
            if scale == 1.0
            else same_sample(t.result, expected, hyps, sample)
        )
        match = report.check(f"{workload}: {tool} == {anchor}", ok)
        note = f"== {anchor}: {match}"
        common.add_time(report, workload, tool, segments, t, base, note, match, anchor=anchor)


def same_sample(result: Any, expected: Any, hyps: list[str], sample: Optional[int]) -> bool:
    idx = common.spaced(len(hyps), sample or len(hyps))
    values = flat(result)
    return [values[i] for i in idx] == flat(expected)


def same_chrf(a: Any, b: Any) -> bool:
    return a.score == b.score and a.name == b.name


def same_ter(a: Any, b: Any) -> bool:
    return (a.score, a.num_edits, a.ref_length) == (b.score, b.num_edits, b.ref_length)


def flat(scores: Any) -> list[float]:
    import numpy as np

    return np.asarray(scores, dtype=np.float64).reshape(-1).tolist()


def same_values(a: Any, b: Any) -> bool:
    return flat(a) == flat(b)


def same_wer(a: Any, b: Any) -> bool:
    # The native API returns a WERScore (.wer is the fraction, .score a percentage); compat and
    # jiwer return the fraction itself.
    value = a.wer if hasattr(a, "wer") else a
    return float(value) == float(b)


# --------------------------------------------------------------------------------------------
# Targets and main
# --------------------------------------------------------------------------------------------


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = common.parse_args(__doc__, QUICK, COUNTS, argv)
    versions: dict[str, str] = {}
    skipped: dict[str, str] = {}
    for module, keys in (("fastchrf", ("(l)", "(m)")), ("jiwer", ("(o)", "(p)"))):
        if common.installed(module):
            versions[module] = importlib.metadata.version(module)
        else:
            versions[module] = ""
            skipped.update(dict.fromkeys(keys, f"{module} is not installed"))
    info, now = common.begin(args, "bleuprint chrF / TER / WER benchmarks", **versions)
    print(
        f"  repeats: median of {args.repeats} timed runs of bleuprint and {args.slow_repeats} of "
        "the other tools (after one warm-up when more than one run)"
    )
    print()

    hyps, refs, notes = common.build_corpus(args.segments)
    idx = common.spaced(len(hyps), args.sentences)
    s_hyps, s_refs = [hyps[i] for i in idx], [refs[i] for i in idx]
    pair_h, pair_r = s_hyps[:64], s_refs[:64]
    t_hyps, t_refs = hyps[: args.ter_segments], refs[: args.ter_segments]
    print("data: " + "; ".join(notes))
    print()
    if len(t_hyps) < args.ter_segments:
        common.die(f"only {len(t_hyps)} segments for (n)")

    fast, slow = args.repeats, args.slow_repeats
    report = common.Report()
    n = f"{len(hyps):,}"
    wj = f"(j) corpus chrF, {n} segments"
    wk = f"(k) corpus chrF++, {n} segments"
    wl = f"(l) {len(s_hyps):,} sentence chrF scores"
    wm = f"(m) chrF of all {len(pair_h)} x {len(pair_r)} pairs"
    wn = f"(n) corpus TER, {len(t_hyps):,} segments"
    wo = f"(o) WER, {n} segments"
    wp = f"(p) CER, {n} segments"

    def chrf_corpus(workload: str, word_order: int) -> None:
        runners = {
            "sacrebleu": chrf_corpus_runner("sacrebleu", word_order),
            "bleuprint": chrf_corpus_runner("bleuprint", word_order),
            "bleuprint (workers=1)": chrf_corpus_runner("bleuprint", word_order, 1),
        }
        bench_tools(
            report, workload, hyps, refs, runners, "sacrebleu", same_chrf,
            lambda s: f"{s.name} {s.score!r}",
            {"sacrebleu": slow, "bleuprint": fast, "bleuprint (workers=1)": fast},
        )  # fmt: skip

    def chrf_sentences() -> None:
        runners = {"sacrebleu": chrf_sentence_runner("sacrebleu")}
        if "(l)" not in skipped:
            runners["fastchrf"] = chrf_sentence_runner("fastchrf")
        runners["bleuprint"] = chrf_sentence_runner("bleuprint")
        bench_tools(
            report, wl, s_hyps, s_refs, runners, "sacrebleu", same_values,
            lambda s: f"mean {sum(s) / len(s):.4f}",
            {"sacrebleu": 1, "fastchrf": slow, "bleuprint": fast}, args.sentence_sample,
        )  # fmt: skip

    def chrf_pairs() -> None:
        runners = {
            "fastchrf": chrf_pairwise_runner("fastchrf"),
            "bleuprint": chrf_pairwise_runner("bleuprint"),
        }
        bench_tools(
            report, wm, pair_h, pair_r, runners, "fastchrf", same_values,
            lambda s: f"{len(flat(s)):,} scores", {"fastchrf": fast, "bleuprint": fast},
            scored=len(pair_h) * len(pair_r),
        )  # fmt: skip

    def ter() -> None:
        runners = {
            "sacrebleu": ter_runner("sacrebleu"),
            "bleuprint": ter_runner("bleuprint"),
            "bleuprint (workers=1)": ter_runner("bleuprint", 1),
        }
        bench_tools(
            report, wn, t_hyps, t_refs, runners, "sacrebleu", same_ter,
            lambda s: f"TER {s.score!r}",
            {"sacrebleu": slow, "bleuprint": fast, "bleuprint (workers=1)": fast},
        )  # fmt: skip

    def wer(workload: str, unit: str) -> None:
        runners = {
            "jiwer": wer_runner("jiwer", unit),
            "bleuprint.compat.jiwer": wer_runner("bleuprint.compat.jiwer", unit),
            "bleuprint": wer_runner("bleuprint", unit),
        }
        bench_tools(
            report, workload, hyps, refs, runners, "jiwer", same_wer,
            lambda v: f"{'WER' if unit == 'word' else 'CER'} {v!r}",
            {"jiwer": slow, "bleuprint.compat.jiwer": fast, "bleuprint": fast},
        )  # fmt: skip

    sections: list[tuple[str, Callable[[], None]]] = [
        (wj, lambda: chrf_corpus(wj, 0)),
        (wk, lambda: chrf_corpus(wk, 2)),
        (wl, chrf_sentences),
    ]
    if "(m)" not in skipped:
        sections.append((wm, chrf_pairs))
    sections.append((wn, ter))
    if "(o)" not in skipped:
        sections += [(wo, lambda: wer(wo, "word")), (wp, lambda: wer(wp, "char"))]
    for key, reason in skipped.items():
        print(f"{key} skipped: {reason}")
    common.run_sections(report, sections, args)

    common.print_results(
        report,
        "Results (time: median wall clock; * = scaled from a sample; ratios = speed-up)",
        RATIO_COLUMNS,
    )
    common.speedup_targets(report, TARGETS, skipped)
    common.print_targets(report, args.quick)
    # The run's parameters, for the CSV.
    params = common.run_params(
        args,
        now,
        corpus_size=args.segments,
        sentences=args.sentences,
        sentence_sample=args.sentence_sample,
        ter_segments=args.ter_segments,
    )
    return common.finish(report, args, info, params, now, "-metrics")


if __name__ == "__main__":
    raise SystemExit(main())
