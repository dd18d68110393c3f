#!/usr/bin/env python
"""Tokenizer benchmarks: bleuprint against sacrebleu 2.6.0 with zh, char, ja-mecab and flores200.

One run prints every figure and writes a CSV to ``bench/results/<label>/<date>-tokenizers.csv``
(the columns of bench_bleu.py's CSV; the helpers every script shares are in common.py).

Workloads (see bench/README.md):

(e) every WMT22 en-zh system output against reference A, one ``corpus_bleu(h, [ref],
    tokenize="zh")`` call per system, timed as the whole loop over the systems;
(f) the same with ``tokenize="char"``;
(g) every en-ja system output with ``tokenize="ja-mecab"`` (skipped if MeCab is missing);
(h) a loop of ``sentence_bleu(h, [r], tokenize="flores200")`` calls, one per segment, and
    bleuprint's batched ``BLEU(...).sentence_scores``, with a SentencePiece model trained once
    on the WMT22 text (no network: the published flores200 model cannot be downloaded);
(i) bleuprint's RSS over 10,000 ``sentence_bleu(..., tokenize="flores200")`` calls.

bleuprint's scores are checked for exact (``==``) equality with sacrebleu's and the result of
each check is printed; the script exits with status 1 if a check fails and 2 if the data is
missing.

Usage::

    python bench/bench_tokenizers.py                # full run, about 2 minutes on 2 cores
    python bench/bench_tokenizers.py --quick        # smoke run, about 10 s, writes no CSV
    python bench/bench_tokenizers.py --wait-quiet 300 --retries 2 --label my-laptop

The first run (and the first --quick run, which uses a smaller model) trains a SentencePiece
model for (h), about 30 s more; it is kept in bench/.cache/ (git-ignored).
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Optional

import common

#: Trained SentencePiece models (never committed: the directory is git-ignored).
CACHE = common.REPO / "bench" / ".cache"
#: The file name sacrebleu gives the flores200 model (the last part of its URL).
FLORES200_FILE = "flores200sacrebleuspm"

#: The speed-up targets: label, bleuprint's row, sacrebleu's row, at least this much faster.
TARGETS = {
    "(e)": ("(e) zh corpus BLEU vs sacrebleu", "bleuprint", "sacrebleu", 50.0),
    "(f)": ("(f) char corpus BLEU vs sacrebleu", "bleuprint", "sacrebleu", 50.0),
    "(g)": ("(g) ja-mecab corpus BLEU vs sacrebleu", "bleuprint", "sacrebleu", 5.0),
    "(h)": (
        "(h) flores200 sentence loop vs sacrebleu",
        "bleuprint (loop)",
        "sacrebleu (loop)",
        100.0,
    ),
}

#: Whole-number options: default, default under --quick (None: all systems), help.
COUNTS: dict[str, common.Count] = {
    "repeats": (5, 3, "timed runs of bleuprint (default 5)"),
    "slow_repeats": (3, 1, "timed runs of sacrebleu (default 3)"),
    "systems": (None, 3, "systems per pair in (e)-(g) (default all)"),
    "sentences": (10_000, 2_000, "sentence_bleu calls of bleuprint in (h) (default 10,000)"),
    "sentence_sample": (
        200,
        20,
        "sentence_bleu calls of sacrebleu in (h), evenly spaced among those of bleuprint "
        "and scaled linearly (default 200: about 70 ms and 10 MB of memory each)",
    ),
    "rss_calls": (10_000, 2_000, "sentence_bleu calls in (i) (default 10,000; 0: skip)"),
    "spm_vocab": (
        64_000,
        16_000,
        "pieces of the SentencePiece model trained for (h) (default 64,000; the real "
        "flores200 model has 256,000)",
    ),
}
#: --quick's help.
QUICK = "smoke run: 3 systems per pair, 2,000 sentences, a smaller model, few repeats"


#: Tokenizer classes whose ``__call__`` sacrebleu wraps in ``lru_cache``. The cache is shared
#: by all instances but keyed on the instance, and every ``corpus_bleu``/``sentence_bleu`` call
#: makes new instances, so it never hits across calls; it only keeps each call's tokenizers (a
#: MeCab tagger, a SentencePiece model) alive. Cleared before each timed run so that every run
#: starts in the same state. (``TokenizerZh._is_chinese_char``, keyed on the character, does
#: hit across calls and is left alone.)
SACREBLEU_CACHED = {
    "zh": ("tokenizer_zh.TokenizerZh", "tokenizer_re.TokenizerRegexp"),
    "char": ("tokenizer_char.TokenizerChar",),
    "ja-mecab": ("tokenizer_ja_mecab.TokenizerJaMecab",),
    "flores200": ("tokenizer_spm.TokenizerSPM",),
}


# --------------------------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------------------------


class PairData:
    """Reference A of a language pair and its system outputs (name order)."""

    def __init__(self, pair: str, limit: Optional[int] = None) -> None:
        tgt = pair.split("-")[1]
        ref_path = common.DATA / "references" / f"generaltest2022.{pair}.ref.A.{tgt}"
        if not ref_path.is_file():
            common.die(f"{ref_path} not found")
        self.pair = pair
        self.ref = common.read_lines(ref_path)
        self.names: list[str] = []
        self.systems: list[list[str]] = []
        self.notes: list[str] = []
        for path in sorted(
            (common.DATA / "system-outputs").glob(f"generaltest2022.{pair}.hyp.*.{tgt}")
        ):
            hyp = common.read_lines(path)
            if len(hyp) != len(self.ref):
                self.notes.append(f"{path.name}: skipped ({len(hyp)} lines, ref {len(self.ref)})")
                continue
            self.names.append(path.name.split(".hyp.", 1)[1].rsplit(".", 1)[0])
            self.systems.append(hyp)
        if limit is not None:
            del self.names[limit:], self.systems[limit:]
        if not self.systems:
            common.die(f"no {pair} system outputs under {common.DATA / 'system-outputs'}")

    @property
    def hyps(self) -> list[str]:
        """Every system's output, concatenated (the runners split it again, untimed)."""
        return [line for system in self.systems for line in system]


def systems(data: PairData) -> str:
    k = len(data.systems)
    return f"{k} system" + ("" if k == 1 else "s")


def sentence_pool() -> tuple[list[str], list[str], list[str]]:
    """The first system (name order) of every pair with a reference A, with that reference:
    segments in many languages, and (almost) no repeated text."""
    hyps: list[str] = []
    refs: list[str] = []
    notes: list[str] = []
    for ref_path in sorted((common.DATA / "references").glob("generaltest2022.*.ref.A.*")):
        pair, tgt = ref_path.name.split(".")[1], ref_path.name.rsplit(".", 1)[1]
        ref = common.read_lines(ref_path)
        for path in sorted(
            (common.DATA / "system-outputs").glob(f"generaltest2022.{pair}.hyp.*.{tgt}")
        ):
            hyp = common.read_lines(path)
            if len(hyp) == len(ref):
                hyps.extend(hyp)
                refs.extend(ref)
                notes.append(f"{pair} {path.name.split('.hyp.', 1)[1]}")
                break
    if not hyps:
        common.die(f"no system outputs with a reference A under {common.DATA}")
    return hyps, refs, notes


def spm_training_lines() -> list[str]:
    """Every distinct non-blank line of the WMT22 references and system outputs."""
    seen: set[str] = set()
    lines = []
    for folder in ("references", "system-outputs"):
        for path in sorted((common.DATA / folder).glob("generaltest2022.*")):
            for line in common.read_lines(path):
                if line.strip() and line not in seen:
                    seen.add(line)
                    lines.append(line)
    return lines


def spm_model(vocab: int) -> tuple[Path, dict[str, Any]]:
    """A unigram SentencePiece model with ``vocab`` pieces trained on the WMT22 text, trained
    once and kept in ``bench/.cache/spm-wmt22-unigram-<vocab>/models/flores200sacrebleuspm``.

    Returns the model file and what is known about its training. The file's folder, minus
    ``models/``, is what sacrebleu's ``SACREBLEU_DIR`` is set to.
    """
    import sentencepiece

    folder = CACHE / f"spm-wmt22-unigram-{vocab}" / "models"
    model = folder / FLORES200_FILE
    meta_path = folder / "training.json"
    if model.is_file() and meta_path.is_file():
        return model, json.loads(meta_path.read_text(encoding="utf-8"))
    folder.mkdir(parents=True, exist_ok=True)
    lines = spm_training_lines()
    print(
        f"  training a {vocab:,}-piece unigram SentencePiece model on {len(lines):,} WMT22 "
        f"lines (once; cached in {folder.relative_to(common.REPO)}) ...",
        flush=True,
    )
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        sentencepiece.SentencePieceTrainer.train(
            sentence_iterator=iter(lines),
            model_prefix=os.path.join(tmp, "m"),
            vocab_size=vocab,
            model_type="unigram",
            character_coverage=0.9995,
            input_sentence_size=0,
            num_threads=os.cpu_count() or 1,
            minloglevel=2,
        )
        os.replace(os.path.join(tmp, "m.model"), model)
    meta = {
        "vocab": vocab,
        "lines": len(lines),
        "training_seconds": round(time.perf_counter() - t0, 1),
        "sentencepiece": sentencepiece.__version__,
        "trained_on": "every distinct non-blank line of ../shared/data/wmt22 references and "
        "system outputs",
    }
    meta_path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"    trained in {meta['training_seconds']} s", flush=True)
    return model, meta


# --------------------------------------------------------------------------------------------
# Caches
# --------------------------------------------------------------------------------------------


def clear_bleuprint_cache(tokenize: str, spm_model: Optional[Path] = None) -> None:
    """Empties the process-wide line cache of bleuprint's tokenizer for ``tokenize``, so that
    a timed run tokenizes every line, as a first call does."""
    from bleuprint.tokenizers import get_tokenizer

    tok = get_tokenizer(tokenize, None if spm_model is None else str(spm_model))
    if tok is not None:  # None: run by the Rust core, which has no line cache
        tok.clear_cache()


def clear_sacrebleu_caches(tokenize: str) -> None:
    """Empties the per-instance ``lru_cache`` of sacrebleu's tokenizer (see SACREBLEU_CACHED)."""
    for spec in SACREBLEU_CACHED[tokenize]:
        module, name = spec.rsplit(".", 1)
        cls = getattr(importlib.import_module(f"sacrebleu.tokenizers.{module}"), name)
        cls.__call__.cache_clear()


# --------------------------------------------------------------------------------------------
# Runners: prepare(hyps, refs) -> a zero-argument call (see common.time_call)
# --------------------------------------------------------------------------------------------


def systems_runner(tool: str, tokenize: str, cold_calls: bool = False) -> common.Runner:
    """One ``corpus_bleu(system, [ref], tokenize=...)`` call per system; ``hyps`` is every
    system's output concatenated and ``refs`` the reference, split per system untimed.

    Each run starts with the tool's tokenizer caches empty. With ``cold_calls`` bleuprint's
    line cache is also emptied before every call (inside the timed loop), so no call re-uses
    the reference tokenized by the previous one.
    """

    def prepare(hyps: list[str], ref: list[str]) -> Callable[[], Any]:
        n = len(ref)
        systems = [hyps[i : i + n] for i in range(0, len(hyps), n)]
        if tool == "sacrebleu":
            import sacrebleu

            clear_sacrebleu_caches(tokenize)
            return lambda: [sacrebleu.corpus_bleu(h, [ref], tokenize=tokenize) for h in systems]
        import bleuprint

        clear_bleuprint_cache(tokenize)
        if not cold_calls:
            return lambda: [bleuprint.corpus_bleu(h, [ref], tokenize=tokenize) for h in systems]

        def run() -> list[Any]:
            scores = []
            for h in systems:
                clear_bleuprint_cache(tokenize)
                scores.append(bleuprint.corpus_bleu(h, [ref], tokenize=tokenize))
            return scores

        return run

    return prepare


def flores_runner(tool: str, model: Path) -> common.Runner:
    """A loop of ``sentence_bleu(h, [r], tokenize="flores200")`` (``tool`` sacrebleu or
    bleuprint), or bleuprint's batched ``sentence_scores`` (``tool`` "batched"); every run
    starts with the tokenizer caches empty. Returns the scores."""

    def prepare(hyps: list[str], refs: list[str]) -> Callable[[], Any]:
        if tool == "sacrebleu":
            import sacrebleu

            clear_sacrebleu_caches("flores200")
            return lambda: [
                sacrebleu.sentence_bleu(h, [r], tokenize="flores200").score
                for h, r in zip(hyps, refs)
            ]
        import bleuprint

        clear_bleuprint_cache("flores200", model)
        path = str(model)
        if tool == "batched":
            return lambda: bleuprint.BLEU(
                tokenize="flores200", spm_model=path, effective_order=True
            ).sentence_scores(hyps, [refs])
        return lambda: [
            bleuprint.sentence_bleu(h, [r], tokenize="flores200", spm_model=path).score
            for h, r in zip(hyps, refs)
        ]

    return prepare


def rss() -> Optional[int]:
    """This process's resident set size in bytes; None where /proc is missing (not Linux)."""
    try:
        return common.proc_status()["VmRSS"]
    except (OSError, KeyError):
        return None


def use_model_in_sacrebleu(model: Path) -> None:
    """Points sacrebleu's SentencePiece tokenizer at ``model``: it reads
    ``<SACREBLEU_DIR>/models/flores200sacrebleuspm`` (SACREBLEU_DIR is bound at import)."""
    import sacrebleu.tokenizers.tokenizer_spm as tokenizer_spm

    if model.name != FLORES200_FILE or model.parent.name != "models":
        raise ValueError(f"{model}: sacrebleu reads <dir>/models/{FLORES200_FILE}")
    tokenizer_spm.SACREBLEU_DIR = str(model.parent.parent)


# --------------------------------------------------------------------------------------------
# Benchmarks
# --------------------------------------------------------------------------------------------


def bench_systems(
    report: common.Report,
    workload: str,
    data: PairData,
    tokenize: str,
    repeats: int,
    slow_repeats: int,
) -> None:
    hyps = data.hyps
    k = len(data.systems)
    tools = ["sacrebleu", "bleuprint"]
    timings: dict[str, common.Timing] = {}
    for tool in tools:
        print(f"  {workload}: {tool} ...", flush=True)
        n_runs = slow_repeats if tool == "sacrebleu" else repeats
        timings[tool] = common.time_call(systems_runner(tool, tokenize), hyps, data.ref, n_runs)
    cold = "bleuprint, cache cleared before each call"
    if tokenize == "ja-mecab":
        print(f"  {workload}: {cold} ...", flush=True)
        tools.append(cold)
        timings[cold] = common.time_call(
            systems_runner("bleuprint", tokenize, True), hyps, data.ref, repeats
        )
    sacre = timings["sacrebleu"].result
    base = timings["sacrebleu"].median
    calls = f"{k} corpus_bleu calls ({k} systems x {len(data.ref):,} segments)"
    for tool in tools:
        t = timings[tool]
        if tool == "sacrebleu":
            common.add_time(
                report,
                workload,
                tool,
                len(hyps),
                t,
                base,
                f"{calls}; BLEU {sacre[0].score!r} ({data.names[0]})",
            )
            continue
        equal = sum(common.same_bleu(a, b) for a, b in zip(t.result, sacre))
        match = report.check(f"{workload}: {tool} == sacrebleu", equal == k)
        note = f"{equal}/{k} systems == sacrebleu (score and statistics): {match}"
        if tool == "bleuprint" and tokenize == "ja-mecab":
            note += "; line cache emptied before each run, kept across the calls of a run"
        common.add_time(report, workload, tool, len(hyps), t, base, note, match)
    clear_sacrebleu_caches(tokenize)  # frees the last run's tokenizers (MeCab taggers)
    clear_bleuprint_cache(tokenize)


def bench_flores(
    report: common.Report,
    workload: str,
    hyps: list[str],
    refs: list[str],
    model: Path,
    model_meta: dict[str, Any],
    repeats: int,
    slow_repeats: int,
    sample: int,
) -> None:
    import sentencepiece

    n = len(hyps)
    idx = common.spaced(n, sample)
    s_hyps, s_refs = [hyps[i] for i in idx], [refs[i] for i in idx]
    scale = n / len(idx)

    # What sacrebleu pays on every call and bleuprint once per process.
    loads = []
    for _ in range(5):
        t0 = time.perf_counter()
        sentencepiece.SentencePieceProcessor().Load(str(model))
        loads.append(time.perf_counter() - t0)
    load = statistics.median(loads)
    size = model.stat().st_size
    report.add(
        kind="model",
        workload=workload,
        tool="SentencePiece model",
        repeats=len(loads),
        seconds=load,
        value=size,
        unit="bytes",
        note=(
            f"{model_meta['vocab']:,}-piece unigram model trained on {model_meta['lines']:,} "
            f"WMT22 lines in {model_meta['training_seconds']} s; loading it takes "
            f"{common.fmt_time(load)} (median of {len(loads)})"
        ),
    )
    print(
        f"  {workload}: model {model.relative_to(common.REPO)}: {size / 2**20:.2f} MB, "
        f"{model_meta['vocab']:,} pieces; load {common.fmt_time(load)}",
        flush=True,
    )

    print(f"  {workload}: bleuprint loop over {n:,} segments, batched ...", flush=True)
    loop = common.time_call(flores_runner("bleuprint", model), hyps, refs, repeats)
    batched = common.time_call(flores_runner("batched", model), hyps, refs, repeats)

    print(f"  {workload}: sacrebleu loop over {len(idx):,} segments ...", flush=True)
    use_model_in_sacrebleu(model)
    flores_runner("sacrebleu", model)(
        common.fresh(s_hyps[:3]), common.fresh(s_refs[:3])
    )()  # imports
    gc.collect()
    common.malloc_trim()
    rss0 = rss()
    sacre = common.time_call(flores_runner("sacrebleu", model), s_hyps, s_refs, slow_repeats, False)
    gc.collect()
    rss1 = rss()
    clear_sacrebleu_caches("flores200")
    gc.collect()
    common.malloc_trim()

    ours = [loop.result[i] for i in idx]
    ours_batched = [float(batched.result[i]) for i in idx]
    equal = sum(a == b for a, b in zip(ours, sacre.result))
    equal_b = sum(a == b for a, b in zip(ours_batched, sacre.result))
    same_all = [float(x) for x in batched.result] == loop.result
    match = report.check(f"{workload}: sentence_bleu == sacrebleu", equal == len(idx))
    match_b = report.check(
        f"{workload}: sentence_scores == sacrebleu and == sentence_bleu",
        equal_b == len(idx) and same_all,
    )
    base = sacre.median * scale
    how = f"timed on {len(idx):,} evenly spaced segments and scaled x{scale:.2f} to {n:,}"
    grown = ""
    if rss0 is not None and rss1 is not None:
        grown = f"; RSS grew {(rss1 - rss0) / 2**20:,.0f} MB over one loop"
    common.add_time(
        report,
        workload,
        "sacrebleu (loop)",
        n,
        sacre,
        base,
        f"loop of sacrebleu.sentence_bleu(h, [r], tokenize='flores200'), {how}; "
        f"{common.fmt_time(sacre.median / len(idx))} per call{grown}",
        scale=scale,
    )
    common.add_time(
        report,
        workload,
        "bleuprint (loop)",
        n,
        loop,
        base,
        f"loop of bleuprint.sentence_bleu, {common.fmt_time(loop.median / n)} per call; "
        f"{equal:,}/{len(idx):,} sampled scores == sacrebleu: {match}",
        match,
    )
    common.add_time(
        report,
        workload,
        "bleuprint sentence_scores",
        n,
        batched,
        base,
        "BLEU(tokenize='flores200', effective_order=True).sentence_scores, one call; "
        f"{equal_b:,}/{len(idx):,} sampled scores == sacrebleu, all {n:,} == the loop's: "
        f"{match_b}",
        match_b,
    )
    if rss0 is not None and rss1 is not None:
        note = (
            f"RSS {rss0 / 2**20:,.1f} -> {rss1 / 2**20:,.1f} MB over one timed loop of "
            f"{len(idx):,} calls: sacrebleu's lru_cache on TokenizerSPM.__call__ keeps every "
            "call's tokenizer, and so its loaded model, alive"
        )
        report.add_memory(workload, "sacrebleu (loop)", len(idx), rss1 - rss0, note)
        print(f"    sacrebleu (loop): {(rss1 - rss0) / 2**20:+,.1f} MB  {note}", flush=True)


def bench_rss(
    report: common.Report, workload: str, hyps: list[str], refs: list[str], model: Path
) -> None:
    """bleuprint's RSS over ``len(hyps)`` sentence_bleu calls, twice over the same segments:
    the first pass fills the (bounded) line cache, the second should not grow at all."""
    import bleuprint
    from bleuprint.tokenizers import get_tokenizer

    path = str(model)
    passes = [
        (common.fresh(hyps), common.fresh(refs)) for _ in range(2)
    ]  # allocated before measuring
    clear_bleuprint_cache("flores200", model)
    bleuprint.sentence_bleu(hyps[0], [refs[0]], tokenize="flores200", spm_model=path)
    clear_bleuprint_cache("flores200", model)
    tok = get_tokenizer("flores200", path)
    if rss() is None:
        print(f"  {workload}: skipped (no /proc/self/status to read the RSS from)")
        return
    print(f"  {workload}: {len(hyps):,} calls, twice ...", flush=True)
    readings = []
    cached: dict[str, int] = {}
    for h_pass, r_pass in passes:
        gc.collect()
        common.malloc_trim()
        before = rss()
        for h, r in zip(h_pass, r_pass):
            bleuprint.sentence_bleu(h, [r], tokenize="flores200", spm_model=path)
        gc.collect()
        common.malloc_trim()
        readings.append((before, rss()))
        if not cached and hasattr(tok, "cache_info"):
            cached = tok.cache_info()  # after the first pass
    for k, ((before, after), what) in enumerate(
        zip(readings, ("line cache empty at the start", "the same segments again (fresh strings)"))
    ):
        note = f"RSS {before / 2**20:.1f} -> {after / 2**20:.1f} MB; {what}"
        if k == 0 and cached:
            note += (
                f"; the line cache then held {cached['size']:,} lines "
                f"(bound {cached['max_size']:,})"
            )
        tool = "bleuprint, first pass" if k == 0 else "bleuprint, second pass"
        report.add_memory(workload, tool, len(hyps), after - before, note)
        print(f"    {tool}: {(after - before) / 2**20:+.1f} MB  {note}", flush=True)
    clear_bleuprint_cache("flores200", model)


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = common.parse_args(__doc__, QUICK, COUNTS, argv, minimum={"rss_calls": 0})
    import sentencepiece

    skipped: dict[str, str] = {}
    try:
        from bleuprint.tokenizers import get_tokenizer

        mecab = get_tokenizer("ja-mecab").signature()  # ja-mecab-<version>-IPA
    except Exception as e:  # ImportError, or MeCab failing to start
        mecab = ""
        skipped["(g)"] = f"MeCab with ipadic unavailable: {type(e).__name__}: {e}"
    info, now = common.begin(
        args,
        "bleuprint tokenizer benchmarks",
        sentencepiece=sentencepiece.__version__,
        mecab=mecab,
    )
    params = common.run_params(
        args,
        now,
        systems_per_pair=args.systems or "all",
        sentences=args.sentences,
        sentence_sample=args.sentence_sample,
        rss_calls=args.rss_calls,
        spm_vocab=args.spm_vocab,
    )
    print(
        f"  repeats: median of {args.repeats} timed runs of bleuprint and {args.slow_repeats} of "
        "sacrebleu, after one warm-up (sacrebleu in (h): a 3-call warm-up)"
    )
    print()

    report = common.Report()
    zh = PairData("en-zh", args.systems)
    ja = PairData("en-ja", args.systems)
    pool_h, pool_r, pool_notes = sentence_pool()
    idx = common.spaced(len(pool_h), args.sentences)
    s_hyps, s_refs = [pool_h[i] for i in idx], [pool_r[i] for i in idx]
    rss_idx = common.spaced(len(pool_h), args.rss_calls) if args.rss_calls else []
    print(f"data: {common.DATA}")
    for data in (zh, ja):
        print(f"  {data.pair}: {len(data.systems)} systems x {len(data.ref):,} segments")
        for note in data.notes:
            print(f"      {note}")
    print(
        f"  (h): {len(s_hyps):,} of {len(pool_h):,} segments, evenly spaced; the first system "
        "of each pair with a reference A: " + ", ".join(pool_notes)
    )
    print()
    model, model_meta = spm_model(args.spm_vocab)

    we = f"(e) en-zh, {systems(zh)}, corpus BLEU, tokenize=zh"
    wf = f"(f) en-zh, {systems(zh)}, corpus BLEU, tokenize=char"
    wg = f"(g) en-ja, {systems(ja)}, corpus BLEU, tokenize=ja-mecab"
    wh = "(h) sentence BLEU, tokenize=flores200"
    wi = f"(i) RSS over {len(rss_idx):,} flores200 sentence_bleu calls"
    reps = (args.repeats, args.slow_repeats)
    sections: list[tuple[str, Callable[[], None]]] = [
        (we, lambda: bench_systems(report, we, zh, "zh", *reps)),
        (wf, lambda: bench_systems(report, wf, zh, "char", *reps)),
    ]
    if "(g)" in skipped:
        print(f"(g) skipped: {skipped['(g)']}")
    else:
        sections.append((wg, lambda: bench_systems(report, wg, ja, "ja-mecab", *reps)))
    sections.append(
        (
            wh,
            lambda: bench_flores(
                report, wh, s_hyps, s_refs, model, model_meta, *reps, args.sentence_sample
            ),
        )
    )
    if rss_idx:
        rss_h, rss_r = [pool_h[i] for i in rss_idx], [pool_r[i] for i in rss_idx]
        sections.append((wi, lambda: bench_rss(report, wi, rss_h, rss_r, model)))
    load_insensitive = {wi}
    common.run_sections(report, sections, args, load_insensitive)

    common.print_results(
        report,
        "Results (time: median wall clock; * = scaled from a sample; ratios = speed-up;\n"
        "(i): RSS growth)",
        load_insensitive=load_insensitive,
    )
    common.speedup_targets(report, TARGETS, skipped)
    common.print_targets(report, args.quick)
    return common.finish(report, args, info, params, now, suffix="-tokenizers")


if __name__ == "__main__":
    sys.exit(main())
