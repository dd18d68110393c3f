#!/usr/bin/env python
"""Speech benchmarks: the Whisper text normalizers, and WER after them, against openai-whisper
20250625's normalizers (Python regular expressions; its ``whisper/normalizers/`` loaded from
the PyPI sdist without torch) with jiwer 4.0.0, and against the whisper-normalizer 0.1.15
package.

One run prints every figure and writes a CSV to ``bench/results/<label>/<date>-speech.csv``
(the columns of bench_bleu.py's CSV plus ``vs_openai-whisper``; the helpers every script shares
are in common.py).

Workloads, on the into-English corpus of bench_bleu.py (every ``*-en`` system output against
its reference A, in name order; outputs play the transcripts, references the references):

(a)  the first 100,000 outputs normalized by ``EnglishTextNormalizer``: a loop of
     openai-whisper's ``EnglishTextNormalizer()(s)``; bleuprint's
     ``tokenizers.normalized(lines, "whisper-english")`` (also ``workers=1``); and, for
     information, the whisper-normalizer package's loop against
     ``normalized(lines, "whisper-normalizer-english")``;
(b)  WER of those 100,000 pairs after normalizing both sides: openai-whisper's normalizer on
     every line, then ``jiwer.wer(references, hypotheses)``; bleuprint's
     ``WER(normalizer="whisper-english").corpus_score(hyps, [refs])``;
(c)  the same on a LibriSpeech-length sample: the pairs whose reference has 10 to 30 words
     (up to 100,000 of them);
(d)  WER with kaldialign's compounds on (b)'s pairs (already normalized by bleuprint, untimed):
     ``kaldialign.batch_error_rate(refs, hyps, merge_compounds=True)`` on the split words (its
     C++, one pair at a time) against ``WER(merge_compounds=True).corpus_score(hyps, [refs])``.

The upstream loops are slow (about 40 us a line): ``--sample N`` (default 10,000) times them
on N evenly spaced lines and scales linearly; scaled times are marked ``*``. Timing as in
every script: the median of ``--repeats`` runs after one warm-up run for bleuprint,
``--slow-repeats`` (default 1, no warm-up) for the Python loops; fresh strings every run.

Exactness: bleuprint's normalized strings must equal upstream's on every sampled line (``==``),
and the WER counts (substitutions, deletions, insertions, hits) of bleuprint's rows must equal
jiwer's ``process_words`` on upstream's normalized sample; in (d), the summed substitutions,
deletions and insertions must equal kaldialign's on all pairs. The script exits with status 1 if a
check fails and 2 if the data is missing.

(e)  the Open ASR Leaderboard's number on (b)'s pairs: its ``EnglishTextNormalizer`` (from a
     checkout of huggingface/open_asr_leaderboard: ``--open-asr-source DIR`` or
     ``BLEUPRINT_OPEN_ASR_SOURCE``; skipped without one) on both sides, then
     ``kaldialign.batch_error_rate(refs, preds, merge_compounds=True)``, as its
     ``score_results`` does; bleuprint's ``asr.leaderboard_wer(refs, hyps)``. Checked: the
     normalized strings of the sample equal, and the sample's WER and counts equal.
(f)  memory while streaming: ``--stream-segments`` (1,000,000) pairs of (b)'s corpus, repeated,
     written to files; the command ``bleuprint REF -i HYP -m wer --normalize open-asr-en
     --merge-compounds`` and ``WER(**asr.leaderboard_config()).score_stream(HYP, [REF])``,
     each in a fresh process: wall time and peak RSS (the process's own ``VmHWM``; target:
     under 100 MB), the two scores
     equal. Also on a quarter of the lines, to show the peak does not grow with the input.

Usage::

    python bench/bench_speech.py --open-asr-source /tmp/oal   # full run, about 6 minutes
    python bench/bench_speech.py               # without (e)
    python bench/bench_speech.py --quick       # smoke run, writes no CSV
"""

from __future__ import annotations

import importlib.metadata
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Optional

import common

ANCHOR = "openai-whisper"
PACKAGE = "whisper-normalizer"
KALDIALIGN = "kaldialign"
LEADERBOARD = "open-asr-leaderboard"
RATIO_COLUMNS = (ANCHOR, KALDIALIGN, LEADERBOARD)

#: Speed-up targets (issue "Speech evaluation the way leaderboards compute it").
TARGETS = {
    "(a)": ("(a) whisper-english normalizer vs openai-whisper", "bleuprint normalized",
            ANCHOR, 20.0),
    "(b)": ("(b) normalize + WER vs openai-whisper + jiwer", "bleuprint WER", ANCHOR, 30.0),
    "(c)": ("(c) the same, LibriSpeech-length", "bleuprint WER", ANCHOR, 30.0),
    "(d)": ("(d) WER with merge_compounds vs kaldialign", "bleuprint WER", KALDIALIGN, 3.0),
    "(e)": ("(e) the leaderboard's WER vs its normalizer + kaldialign", "bleuprint leaderboard_wer",
            LEADERBOARD, 30.0),
}  # fmt: skip
RSS_TARGET_MB = 100.0

COUNTS: dict[str, common.Count] = {
    "repeats": (5, 2, "timed runs of bleuprint (default 5)"),
    "slow_repeats": (1, 1, "timed runs of the Python loops (default 1, no warm-up)"),
    "segments": (100_000, 10_000, "pairs of (a) and (b) (default 100,000)"),
    "sample": (10_000, 1_000, "lines the Python loops run on, scaled (default 10,000)"),
    "stream_segments": (1_000_000, 40_000, "pairs streamed from files in (f) (default 1,000,000)"),
}  # fmt: skip
QUICK = "smoke run: 10,000 pairs, a 1,000-line sample, few repeats"


class SpeechReport(common.Report):
    """common.Report with this script's ratio column in its CSV."""

    RATIO_TOOLS = RATIO_COLUMNS


def upstream_normalizers() -> tuple[Callable[[str], str], Callable[[str], str]]:
    """openai-whisper's ``EnglishTextNormalizer()`` (from its sdist, without torch) and the
    whisper-normalizer package's."""
    tools = Path(__file__).resolve().parents[1] / "tools"
    sys.path.insert(0, str(tools))
    from gen_whisper_golden import load_upstream  # type: ignore[import-not-found]
    from gen_whisper_tables import sdist_path  # type: ignore[import-not-found]

    tmp = tempfile.mkdtemp(prefix="bench-speech-")
    openai = load_upstream(sdist_path(None, tmp), tmp)["english"].EnglishTextNormalizer()
    from whisper_normalizer.english import EnglishTextNormalizer

    return openai, EnglishTextNormalizer()


def sampled_pairs(
    hyps: list[str], refs: list[str], sample: int
) -> tuple[list[int], float, list[str], list[str]]:
    """The evenly spaced pairs the Python loops time, the factor that scales their time to
    all pairs, and the sampled hypotheses and references."""
    n = len(hyps)
    idx = common.spaced(n, min(sample, n))
    return idx, n / len(idx), [hyps[i] for i in idx], [refs[i] for i in idx]


def time_normalizer(
    report: common.Report,
    workload: str,
    lines: list[str],
    sample: int,
    upstream: tuple[Callable[[str], str], Callable[[str], str]],
    repeats: int,
    slow_repeats: int,
) -> None:
    from bleuprint.tokenizers import normalized

    n = len(lines)
    idx = common.spaced(n, min(sample, n))
    scale = n / len(idx)
    picked = [lines[i] for i in idx]
    pairs = [(ANCHOR, upstream[0], "whisper-english"), (PACKAGE, upstream[1],
                                                         "whisper-normalizer-english")]  # fmt: skip
    for tool, normalizer, name in pairs:
        print(f"  {workload}: {tool} ...", flush=True)
        theirs = common.time_call(lambda h, r, f=normalizer: lambda: [f(s) for s in h],
                                  picked, picked, slow_repeats, warmup=False)  # fmt: skip
        variants = [(f"bleuprint normalized{'' if tool == ANCHOR else f' ({name})'}", -1)]
        if tool == ANCHOR:
            variants.append(("bleuprint normalized (workers=1)", 1))
        base = theirs.median * scale
        note = f"a loop of EnglishTextNormalizer()(s), one process; timed on {len(idx):,} lines"
        common.add_time(report, workload, tool, n, theirs, base if tool == ANCHOR else None,
                        note + " and scaled linearly", None, scale=scale,
                        anchor=ANCHOR)  # fmt: skip
        for label, workers in variants:
            ours = common.time_call(lambda h, r, w=workers, m=name: lambda: normalized(
                h, m, workers=w), lines, lines, repeats)  # fmt: skip
            sampled = [ours.result[i] for i in idx]
            same = sampled == theirs.result
            match = report.check(f"{workload}: {label} == {tool} on {len(idx):,} lines", same)
            print(f"    check {label}: {len(idx):,} strings == {tool}'s: {match}")
            common.add_time(report, workload, label, n, ours, base if tool == ANCHOR else None,
                            f"normalized(lines, {name!r}, workers={workers}); == {tool}: {match}",
                            match, anchor=ANCHOR)  # fmt: skip


def time_wer(
    report: common.Report,
    workload: str,
    hyps: list[str],
    refs: list[str],
    sample: int,
    openai: Callable[[str], str],
    repeats: int,
    slow_repeats: int,
) -> None:
    import jiwer

    import bleuprint

    n = len(hyps)
    idx, scale, h, r = sampled_pairs(hyps, refs, sample)

    def anchor(hh: list[str], rr: list[str]) -> Callable[[], Any]:
        def run() -> Any:
            nh, nr = [openai(s) for s in hh], [openai(s) for s in rr]
            return jiwer.wer(nr, nh), (nh, nr)

        return run

    print(f"  {workload}: {ANCHOR} + jiwer ...", flush=True)
    theirs = common.time_call(anchor, h, r, slow_repeats, warmup=False)
    base = theirs.median * scale
    common.add_time(report, workload, ANCHOR, n, theirs, base,
                    f"EnglishTextNormalizer on both sides, then jiwer.wer; timed on {len(idx):,} "
                    "pairs and scaled linearly", None, scale=scale, anchor=ANCHOR)  # fmt: skip
    _, (nh, nr) = theirs.result
    out = jiwer.process_words(nr, nh)
    expected = [out.substitutions, out.deletions, out.insertions, out.hits]
    for label, workers in (("bleuprint WER", -1), ("bleuprint WER (workers=1)", 1)):
        metric = bleuprint.WER(normalizer="whisper-english", workers=workers)
        ours = common.time_call(lambda hh, rr, m=metric: lambda: m.corpus_score(hh, [rr]),
                                hyps, refs, repeats)  # fmt: skip
        rows = metric.stats(h, [r]).rows
        counts = [int(rows[:, k].sum()) for k in range(4)]
        match = report.check(f"{workload}: {label} counts == jiwer on {ANCHOR}'s strings",
                             counts == expected)  # fmt: skip
        print(f"    check {label}: S, D, I, H of {len(idx):,} pairs == jiwer's on {ANCHOR}'s "
              f"normalized text: {match}")  # fmt: skip
        common.add_time(report, workload, label, n, ours, base,
                        f"WER(normalizer='whisper-english', workers={workers}).corpus_score; "
                        f"counts == jiwer: {match}", match, anchor=ANCHOR)  # fmt: skip


def time_compounds(
    report: common.Report, workload: str, hyps: list[str], refs: list[str], repeats: int
) -> None:
    import kaldialign

    import bleuprint
    from bleuprint.tokenizers import normalized

    hyps, refs = normalized(hyps, "whisper-english"), normalized(refs, "whisper-english")

    def theirs(h: list[str], r: list[str]) -> Callable[[], Any]:
        words_h, words_r = [s.split() for s in h], [s.split() for s in r]
        return lambda: kaldialign.batch_error_rate(words_r, words_h, merge_compounds=True)

    print(f"  {workload}: {KALDIALIGN} ...", flush=True)
    base_timing = common.time_call(theirs, hyps, refs, repeats)
    expected = base_timing.result
    base = base_timing.median
    common.add_time(report, workload, KALDIALIGN, len(hyps), base_timing, base,
                    "batch_error_rate(merge_compounds=True) on split words (untimed split)",
                    None, anchor=KALDIALIGN)  # fmt: skip
    metric = bleuprint.WER(merge_compounds=True)
    ours = common.time_call(lambda h, r: lambda: metric.corpus_score(h, [r]), hyps, refs, repeats)
    sums = metric.stats(hyps, [refs]).rows.sum(axis=0)
    same = [int(v) for v in sums[:3]] == [expected["sub"], expected["del"], expected["ins"]]
    match = report.check(f"{workload}: S, D, I == {KALDIALIGN}'s", same)
    print(f"    check bleuprint WER: S, D, I of {len(hyps):,} pairs == {KALDIALIGN}'s: {match}")
    common.add_time(report, workload, "bleuprint WER", len(hyps), ours, base,
                    f"WER(merge_compounds=True).corpus_score; == {KALDIALIGN}: {match}", match,
                    anchor=KALDIALIGN)  # fmt: skip


def leaderboard(source: Optional[str]) -> Optional[tuple[Any, Any]]:
    """The leaderboard's English normalizer and ``normalize_compound_pairs`` from a checkout
    (its ``datasets``/``huggingface_hub`` imports, for other jobs, stubbed); None without."""
    import os
    import types

    source = source or os.environ.get("BLEUPRINT_OPEN_ASR_SOURCE")
    if not source:
        return None
    for name in ("datasets", "huggingface_hub"):
        sys.modules.setdefault(name, types.ModuleType(name))
    datasets: Any = sys.modules["datasets"]
    datasets.Audio = datasets.IterableDataset = object
    datasets.load_dataset = None
    hub: Any = sys.modules["huggingface_hub"]
    hub.snapshot_download = None
    sys.path.insert(0, source)
    from normalizer import data_utils  # type: ignore[import-not-found]

    return data_utils.normalizer, data_utils


def time_leaderboard(
    report: common.Report,
    workload: str,
    hyps: list[str],
    refs: list[str],
    sample: int,
    normalizer: Callable[[str], str],
    repeats: int,
    slow_repeats: int,
) -> None:
    import kaldialign

    from bleuprint.asr import leaderboard_wer
    from bleuprint.tokenizers import normalized

    n = len(hyps)
    idx, scale, h, r = sampled_pairs(hyps, refs, sample)

    def anchor(hh: list[str], rr: list[str]) -> Callable[[], Any]:
        def run() -> Any:
            nr, nh = [normalizer(s) for s in rr], [normalizer(s) for s in hh]
            words_r, words_h = [tuple(s.split()) for s in nr], [tuple(s.split()) for s in nh]
            result = kaldialign.batch_error_rate(words_r, words_h, merge_compounds=True)
            return result, (nh, nr)

        return run

    print(f"  {workload}: {LEADERBOARD} ...", flush=True)
    theirs = common.time_call(anchor, h, r, slow_repeats, warmup=False)
    base = theirs.median * scale
    common.add_time(report, workload, LEADERBOARD, n, theirs, base,
                    "its EnglishTextNormalizer on both sides, then kaldialign.batch_error_rate("
                    f"merge_compounds=True); timed on {len(idx):,} pairs and scaled linearly",
                    None, scale=scale, anchor=LEADERBOARD)  # fmt: skip
    expected, (nh, nr) = theirs.result
    same_text = normalized(h, "open-asr-en") == nh and normalized(r, "open-asr-en") == nr
    got = leaderboard_wer(r, h)
    same = same_text and (got.err_rate, got.ins, got.deletions, got.sub, got.ref_len) == (
        expected["err_rate"], expected["ins"], expected["del"], expected["sub"],
        expected["ref_len"])  # fmt: skip
    match = report.check(f"{workload}: normalized text and WER == {LEADERBOARD}'s", same)
    print(f"    check: {2 * len(idx):,} strings and the WER of {len(idx):,} pairs == "
          f"{LEADERBOARD}'s: {match}")  # fmt: skip
    ours = common.time_call(lambda hh, rr: lambda: leaderboard_wer(rr, hh), hyps, refs, repeats)
    common.add_time(report, workload, "bleuprint leaderboard_wer", n, ours, base,
                    f"asr.leaderboard_wer(refs, hyps); == {LEADERBOARD}: {match}", match,
                    anchor=LEADERBOARD)  # fmt: skip


_STREAM_WORKER = """
import json, sys, time, warnings
warnings.simplefilter("ignore")
job, hyp, ref = sys.argv[1:4]
start = time.perf_counter()
if job == "cli":
    import contextlib, io
    from bleuprint.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main([ref, "-i", hyp, "-m", "wer", "--normalize", "open-asr-en", "--merge-compounds",
              "-w", "10"])
    result = json.loads(out.getvalue())["score"]
else:
    import bleuprint
    from bleuprint.asr import leaderboard_config
    result = round(bleuprint.WER(**leaderboard_config()).score_stream(hyp, [ref]).score, 10)
wall = time.perf_counter() - start
# VmHWM: this process's own peak (ru_maxrss keeps the parent's peak across fork and exec).
with open("/proc/self/status") as status:
    rss = int(status.read().split("VmHWM:")[1].split()[0]) / 1024
print(json.dumps({"result": result, "wall": wall, "rss": rss}))
"""


def stream_memory(hyps: list[str], refs: list[str], segments: int) -> None:
    import json
    import subprocess

    print(f"(f) streaming memory: {segments:,} pairs, the leaderboard's WER")
    with tempfile.TemporaryDirectory(prefix="bench-speech-stream-") as tmp:
        results = []
        for size in (segments // 4, segments):
            hyp, ref = Path(tmp) / f"hyp{size}", Path(tmp) / f"ref{size}"
            with hyp.open("w", encoding="utf-8") as fh, ref.open("w", encoding="utf-8") as fr:
                for i in range(size):
                    fh.write(hyps[i % len(hyps)] + "\n")
                    fr.write(refs[i % len(refs)] + "\n")
            for job in ("cli", "stream"):
                done = subprocess.run(
                    [sys.executable, "-c", _STREAM_WORKER, job, str(hyp), str(ref)],
                    capture_output=True, text=True, check=True,
                )  # fmt: skip
                out = json.loads(done.stdout.strip().splitlines()[-1])
                results.append((size, job, out))
                label = "bleuprint REF -i HYP (command)" if job == "cli" else "score_stream"
                met = "met" if out["rss"] < RSS_TARGET_MB else "NOT met"
                print(f"  {size:>10,} pairs  {label:<32} {out['wall']:7.2f} s  "
                      f"{out['rss']:6.1f} MB peak RSS  (target < {RSS_TARGET_MB:.0f} MB: {met})"
                      f"  WER {out['result']}")  # fmt: skip
        same = len({(size, round(o["result"], 6)) for size, _, o in results}) == 2
        print(f"  check: the command and score_stream give the same WER at each size: {same}")
    print()


def main(argv: Optional[Sequence[str]] = None) -> int:
    def more(p: Any) -> None:
        p.add_argument("--open-asr-source", metavar="DIR", default=None,
                       help="a checkout of huggingface/open_asr_leaderboard, for (e)")  # fmt: skip

    args = common.parse_args(__doc__, QUICK, COUNTS, argv, more=more)
    versions = {name: importlib.metadata.version(name) for name in ("jiwer", PACKAGE, KALDIALIGN)}
    info, now = common.begin(args, "bleuprint speech benchmarks", **versions,
                             **{ANCHOR: "20250625 (sdist, normalizers only)"})  # fmt: skip
    print(f"  repeats: median of {args.repeats} timed runs of bleuprint (after one warm-up "
          f"run), {args.slow_repeats} of the Python loops (no warm-up)")  # fmt: skip
    print()
    pool_h, pool_r, notes = common.build_corpus(args.segments)
    hyps, refs = pool_h[: args.segments], pool_r[: args.segments]
    libri = [(h, r) for h, r in zip(pool_h, pool_r) if 10 <= len(r.split()) <= 30]
    libri = libri[: args.segments]
    print("data: " + "; ".join(notes))
    print(f"LibriSpeech-length pairs (10 to 30 reference words): {len(libri):,}")
    print()
    upstream = upstream_normalizers()
    report = SpeechReport()
    fast, slow, sample = args.repeats, args.slow_repeats, args.sample
    n = f"{len(hyps):,}"
    sections: list[tuple[str, Callable[[], None]]] = [
        (f"(a) {n} lines, whisper-english normalizer", lambda: time_normalizer(
            report, f"(a) {n} lines, whisper-english normalizer", hyps, sample, upstream,
            fast, slow)),
        (f"(b) {n} pairs, normalize + WER", lambda: time_wer(
            report, f"(b) {n} pairs, normalize + WER", hyps, refs, sample, upstream[0], fast,
            slow)),
        (f"(c) {len(libri):,} LibriSpeech-length pairs", lambda: time_wer(
            report, f"(c) {len(libri):,} LibriSpeech-length pairs, normalize + WER",
            [p[0] for p in libri], [p[1] for p in libri], sample, upstream[0], fast, slow)),
        (f"(d) {n} pairs, merge_compounds", lambda: time_compounds(
            report, f"(d) {n} pairs, WER with merge_compounds", hyps, refs, fast)),
    ]  # fmt: skip
    board = leaderboard(args.open_asr_source)
    if board is not None:
        sections.append((f"(e) {n} pairs, the leaderboard's WER", lambda: time_leaderboard(
            report, f"(e) {n} pairs, the Open ASR Leaderboard's WER", hyps, refs, sample,
            board[0], fast, slow)))  # fmt: skip
    else:
        print("(e) skipped: no leaderboard checkout (--open-asr-source=DIR or "
              "BLEUPRINT_OPEN_ASR_SOURCE)")  # fmt: skip
    sections.append(("(f) streaming memory", lambda: stream_memory(
        hyps, refs, args.stream_segments)))  # fmt: skip
    common.run_sections(report, sections, args)
    common.print_results(
        report,
        "Results (time: median wall clock; * = scaled from a sample; ratios = speed-up: "
        f"{ANCHOR}'s time / this row's)",
        RATIO_COLUMNS,
    )
    common.speedup_targets(report, TARGETS)
    common.print_targets(report, args.quick)
    params = common.run_params(args, now, segments=args.segments, sample=args.sample)
    return common.finish(report, args, info, params, now, "-speech")


if __name__ == "__main__":
    raise SystemExit(main())
