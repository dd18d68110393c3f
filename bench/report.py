#!/usr/bin/env python
"""Markdown tables for docs/performance.md from a CSV written by bench_bleu.py,
bench_tokenizers.py, bench_metrics.py or bench_significance.py.

Prints the targets table, the figures table (median, range, speed-ups), then whichever of the
peak-memory table, the start-up table (bench_bleu.py), the SentencePiece model and the RSS
table (bench_tokenizers.py) the CSV has rows for. With ``--compare``, prints bleuprint's rows of
two runs of the same script side by side (two builds measured back to back). Usage::

    python bench/report.py bench/results/<label>/<date>.csv
    python bench/report.py --compare BEFORE.csv AFTER.csv
"""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path
from typing import Optional

Row = dict[str, str]

MB = 2**20  # bench_bleu.py prints memory in MB of 2**20 bytes; so does this report

#: Descriptions of the targets bench_bleu.py evaluates ("tool" column of its target rows).
TARGET_TEXT = {
    "(b) corpus BLEU vs sacrebleu": (
        "(b) corpus BLEU, {n} segments: >= {t}x faster than sacrebleu ({cores} cores)"
    ),
    "(b) corpus BLEU vs bleuscore": "(b) >= {t}x faster than bleuscore",
    "(c) sentence BLEU vs sacrebleu loop": (
        "(c) {n} sentence scores: >= {t}x faster than a loop over `sacrebleu.sentence_bleu`"
    ),
    "(d) peak memory vs sacrebleu": "(d) peak memory of (b) <= {t} of sacrebleu's",
    "start-up: python -c 'import bleuprint'": "`import bleuprint` <= {t} ms",
    "start-up: bleuprint -V": "`bleuprint -V` <= {t} ms",
    "(e) zh corpus BLEU vs sacrebleu": (
        '(e) en-zh corpus BLEU, `tokenize="zh"`, one call per system: >= {t}x faster than sacrebleu'
    ),
    "(f) char corpus BLEU vs sacrebleu": (
        '(f) en-zh corpus BLEU, `tokenize="char"`, one call per system: >= {t}x faster '
        "than sacrebleu"
    ),
    "(g) ja-mecab corpus BLEU vs sacrebleu": (
        '(g) en-ja corpus BLEU, `tokenize="ja-mecab"`, one call per system: >= {t}x '
        "faster than sacrebleu"
    ),
    "(h) flores200 sentence loop vs sacrebleu": (
        '(h) `sentence_bleu(h, [r], tokenize="flores200")` in a loop: >= {t}x faster per '
        "call than sacrebleu's"
    ),
    "(j) corpus chrF vs sacrebleu": "(j) corpus chrF, {n} segments: >= {t}x faster than sacrebleu",
    "(l) sentence chrF vs fastchrf": (
        "(l) sentence chrF scores, one batch: at least fastchrf's speed (>= {t}x), sacrebleu-exact"
    ),
    "(m) 64x64 pairwise chrF vs fastchrf": (
        "(m) chrF of all 64 x 64 pairs: at least fastchrf's `pairwise_chrf` speed (>= {t}x)"
    ),
    "(n) corpus TER vs sacrebleu": (
        "(n) corpus TER, 5,000 WMT22 segments: >= {t}x faster than sacrebleu, identical scores"
    ),
    "(o) WER vs jiwer": "(o) WER, {n} segments: >= {t}x faster than jiwer",
    "(p) CER vs jiwer": "(p) CER, {n} segments: >= {t}x faster than jiwer",
    "(u) nltk corpus_bleu vs nltk": (
        "(u) nltk `corpus_bleu`, 10,000 segments: >= {t}x faster than nltk, identical scores"
    ),
    "(w) HF bleu vs bleuscore": (
        "(w) HF evaluate `bleu`, 100,000 segments: at least bleuscore's speed (>= {t}x), "
        "identical dicts"
    ),
    "(A) 1024x1024 BLEU vs the sacrebleu loop": (
        "(A) 1,024 x 1,024 sentence BLEU (effective order), WMT22 en-de: >= {t}x faster than a "
        "loop of sacrebleu's `sentence_score`, identical cells"
    ),
    "(B) 1024x1024 chrF vs fastchrf": (
        "(B) 1,024 x 1,024 chrF: >= {t}x faster than fastchrf's `pairwise_chrf`"
    ),
    "(A) 1024x1024 in seconds": "(A) 1,024 x 1,024 sentence BLEU <= {t} s",
    "(F) token BLEU 256x1024 vs the nltk loop": (
        "(F) token-ID BLEU, 256 x 1,024 tokens, one reference each: >= {t}x faster than a "
        "loop of nltk's `sentence_bleu`, identical scores"
    ),
    "(F) 256x1024 in seconds": "(F) token-ID BLEU, 256 x 1,024 tokens <= {t} s",
    "(G) chrF aggregation vs fastchrf": (
        "(G) chrF reference aggregation over 1,024 hypotheses: >= {t}x faster than fastchrf's "
        "`aggregate_chrf`"
    ),
    "(G) 1024 in seconds": "(G) chrF reference aggregation over 1,024 hypotheses <= {t} s",
    "(B) 1024x1024 in seconds": "(B) 1,024 x 1,024 chrF <= {t} s",
    "(C) 1024x1024 in seconds": "(C) 1,024 x 1,024 chrF++ <= {t} s",
    "(E) memory of (A), 1,024x1,024: memory beyond the matrix": (
        "(E) peak memory of (A) beyond the 8 MiB matrix <= {t} MiB"
    ),
    "(q) paired AR vs sacrebleu": (
        "(q) 9 WMT22 en-de systems, BLEU + chrF + TER, paired approximate randomization "
        "(10,000 trials), text in, p-values out: >= {t}x faster than sacrebleu's `PairedTest`, "
        "identical p-values"
    ),
    "(r) paired BS vs sacrebleu": (
        "(r) the same with paired bootstrap resampling (1,000 resamples): >= {t}x faster than "
        "sacrebleu's `PairedTest`, identical means, intervals and p-values"
    ),
}

#: bleuprint's and the other tool's rows behind a speed-up target, where the target's name
#: does not say (default: "bleuprint" against the tool after " vs ").
TARGET_ROWS = {
    "(c)": ("bleuprint", "sacrebleu (loop)"),
    "(h)": ("bleuprint (loop)", "sacrebleu (loop)"),
    "(o)": ("bleuprint.compat.jiwer", "jiwer"),
    "(A)": ("bleuprint", "sacrebleu"),
    "(F)": ("bleuprint", "nltk"),
    "(p)": ("bleuprint.compat.jiwer", "jiwer"),
}

#: Speed-up columns of the figures table, shown when the CSV has values for them.
RATIO_COLUMNS = ("sacrebleu", "bleuscore", "fastchrf", "jiwer", "nltk")

#: Display names of workloads and tools in the figures table.
WORKLOAD_TEXT = {
    "(a)": "(a) {system}, corpus BLEU",
    "(b)": "(b) {n} into-English segments, corpus BLEU",
    "(c)": "(c) {n} sentence scores",
}
TOOL_TEXT = {
    ("(b)", "bleuprint"): "**bleuprint** (`workers=-1`, {cores} threads)",
    ("(c)", "bleuprint"): "**bleuprint** `BLEU(effective_order=True).sentence_scores`",
    ("(c)", "sacrebleu (loop)"): "sacrebleu loop of `sentence_bleu(h, [r])`",
    ("(c)", "bleuscore (loop)"): "bleuscore loop of `compute` per segment",
    ("(g)", "bleuprint, cache cleared before each call"): (
        "bleuprint, line cache emptied before every call"
    ),
    ("(h)", "sacrebleu (loop)"): 'sacrebleu loop of `sentence_bleu(h, [r], tokenize="flores200")`',
    ("(h)", "bleuprint (loop)"): (
        '**bleuprint** loop of `sentence_bleu(h, [r], tokenize="flores200", spm_model=...)`'
    ),
    ("(h)", "bleuprint sentence_scores"): (
        'bleuprint `BLEU(tokenize="flores200", effective_order=True).sentence_scores`'
    ),
    ("(l)", "bleuprint"): "**bleuprint** `CHRF().sentence_scores`",
    ("(l)", "sacrebleu"): "sacrebleu loop of `sentence_chrf(h, [r])`",
    ("(l)", "fastchrf"): "fastchrf `pairwise_chrf`, a 1 x 1 batch per segment",
    ("(m)", "bleuprint"): "**bleuprint** `CHRF().sentence_scores` over the 4,096 pairs",
    ("(m)", "fastchrf"): "fastchrf `pairwise_chrf([H], [R])`",
    ("(o)", "bleuprint.compat.jiwer"): "**bleuprint** `compat.jiwer.wer(refs, hyps)`",
    ("(o)", "bleuprint"): "bleuprint `corpus_wer(hyps, [refs])`",
    ("(o)", "jiwer"): "jiwer `wer(refs, hyps)`",
    ("(p)", "bleuprint.compat.jiwer"): "**bleuprint** `compat.jiwer.cer(refs, hyps)`",
    ("(p)", "bleuprint"): "bleuprint `corpus_cer(hyps, [refs])`",
    ("(p)", "jiwer"): "jiwer `cer(refs, hyps)`",
    ("(u)", "nltk"): "nltk `corpus_bleu(refs, hyps)`",
    ("(u)", "bleuprint"): "**bleuprint** `compat.nltk.corpus_bleu(refs, hyps)`",
    ("(v)", "nltk"): "nltk loop of `sentence_bleu(refs, hyp, smoothing_function=method1)`",
    ("(v)", "bleuprint"): "**bleuprint** loop of `compat.nltk.sentence_bleu`",
    ("(w)", "bleuscore"): "bleuscore `compute(references=..., predictions=...)`",
    ("(w)", "bleuprint"): '**bleuprint** `compat.evaluate.load("bleu").compute(...)`',
    ("(x)", "nltk"): "nltk `corpus_gleu` on HF's 13a tokens",
    ("(x)", "bleuprint"): '**bleuprint** `compat.evaluate.load("google_bleu").compute(...)`',
    ("(A)", "sacrebleu"): "sacrebleu loop of `BLEU(effective_order=True).sentence_score`",
    ("(A)", "bleuprint"): "**bleuprint** `BLEU(effective_order=True).pairwise(s)`",
    ("(B)", "sacrebleu"): "sacrebleu loop of `CHRF().sentence_score`",
    ("(B)", "fastchrf"): "fastchrf `pairwise_chrf([s], [s])` (float32)",
    ("(B)", "bleuprint"): "**bleuprint** `CHRF().pairwise(s)`",
    ("(C)", "sacrebleu"): "sacrebleu loop of `CHRF(word_order=2).sentence_score`",
    ("(C)", "bleuprint"): "**bleuprint** `CHRF(word_order=2).pairwise(s)`",
    ("(D)", "fastchrf"): "fastchrf `pairwise_chrf`, then row means",
    ("(D)", "bleuprint"): "**bleuprint** `CHRF().expected_utility(s)`",
    ("(G)", "fastchrf"): "fastchrf `aggregate_chrf([s], [s])`",
    ("(G)", "bleuprint"): "**bleuprint** `CHRF().aggregate_utility(s)`",
    ("(F)", "nltk"): "nltk loop of `sentence_bleu(r, c, smoothing_function=method1)`",
    ("(F)", "bleuprint"): "**bleuprint** `token_bleu(c, r, smoothing=1)`",
    ("(q)", "sacrebleu"): 'sacrebleu `PairedTest(..., test_type="ar")()`',
    ("(q)", "bleuprint"): '**bleuprint** `paired_test(..., test="ar")`, {cores} threads',
    ("(r)", "sacrebleu"): 'sacrebleu `PairedTest(..., test_type="bs")()`',
    ("(r)", "bleuprint"): '**bleuprint** `paired_test(..., test="bs")`',
    ("(s)", "sacrebleu BLEU"): "sacrebleu `BLEU().corpus_score(h, [r], n_bootstrap=...)`",
    ("(s)", "bleuprint BLEU"): "**bleuprint** `BLEU().corpus_score(h, [r], n_bootstrap=...)`",
    ("(s)", "sacrebleu CHRF"): "sacrebleu `CHRF().corpus_score(h, [r], n_bootstrap=...)`",
    ("(s)", "bleuprint CHRF"): "**bleuprint** `CHRF().corpus_score(h, [r], n_bootstrap=...)`",
    ("(s)", "sacrebleu TER"): "sacrebleu `TER().corpus_score(h, [r], n_bootstrap=...)`",
    ("(s)", "bleuprint TER"): "**bleuprint** `TER().corpus_score(h, [r], n_bootstrap=...)`",
    ("", "bleuprint"): "**bleuprint**",
    ("", "bleuprint (workers=1)"): "bleuprint `workers=1`",
    ("", "bleuprint workers=1"): "bleuprint `workers=1`",
}


def num(value: str) -> Optional[float]:
    return float(value) if value not in ("", None) else None


def fmt_time(seconds: Optional[float], unit_of: Optional[float] = None) -> str:
    """``9.46 s``, ``159.3 ms`` or ``812 us``; the unit is chosen for ``unit_of`` if given."""
    if seconds is None:
        return "–"
    ref = seconds if unit_of is None else unit_of
    if ref >= 1:
        return f"{seconds:.2f} s"
    if ref >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.0f} us"


def fmt_range(row: Row) -> str:
    lo, hi, median = num(row["min_seconds"]), num(row["max_seconds"]), num(row["seconds"])
    if lo is None or hi is None:
        return "–"
    low, high = fmt_time(lo, median), fmt_time(hi, median)
    return f"{low.rsplit(' ', 1)[0]}–{high}"


def fmt_ratio(r: Optional[float]) -> str:
    if r is None:
        return "–"
    return f"{r:,.1f}x" if r >= 10 else f"{r:.2f}x"


def table(header: list[str], align: str, rows: list[list[str]]) -> str:
    """A markdown table; ``align`` has one letter per column: ``l`` or ``r``."""
    rule = ["---:" if a == "r" else "---" for a in align]
    return "\n".join("| " + " | ".join(cells) + " |" for cells in [header, rule, *rows])


def find(rows: list[Row], kind: str, workload: str, tool: str) -> Optional[Row]:
    for r in rows:
        if r["kind"] == kind and r["workload"].startswith(workload) and r["tool"] == tool:
            return r
    return None


def threshold(note: str) -> Optional[float]:
    """The number in ``target >= 100x`` / ``target <= 1/10`` / ``target <= 50 ms``."""
    m = re.search(r"target [<>]= ([\d.]+)(?:/([\d.]+))?", note)
    if m is None:
        return None
    return float(m[1]) / float(m[2]) if m[2] else float(m[1])


def speedup_cells(rows: list[Row], r: Row, met: bool, limit: Optional[float]) -> list[str]:
    """Measured and status cells of a speed-up target, with the ratio over the run ranges."""
    workload = r["tool"][:3]
    mine, other = TARGET_ROWS.get(workload, ("bleuprint", r["tool"].split(" vs ")[-1]))
    ours, theirs = find(rows, "time", workload, mine), find(rows, "time", workload, other)
    if ours is None or theirs is None:
        return [fmt_ratio(num(r["value"])), "met" if met else "**not met**"]
    t_ours, t_theirs = num(ours["seconds"]), num(theirs["seconds"])
    measured = f"**{fmt_ratio(num(r['value']))}** ({fmt_time(t_ours)} vs {fmt_time(t_theirs)})"
    low = num(theirs["min_seconds"]) / num(ours["max_seconds"])
    high = num(theirs["max_seconds"]) / num(ours["min_seconds"])
    spread = f"{fmt_ratio(low)[:-1]}–{fmt_ratio(high)} over the runs' ranges"
    if met:
        return [measured, f"met; {spread}"]
    need = t_theirs / limit if limit else None
    status = f"**not met**; {spread}"
    if need:
        status += f"; bleuprint would need {fmt_time(need)} ({t_ours / need:.2f}x faster)"
    return [measured, status]


def targets_table(rows: list[Row]) -> str:
    meta = rows[0]
    out = []
    for r in rows:
        if r["kind"] != "target":
            continue
        value, limit = num(r["value"]), threshold(r["note"])
        met = value is not None and "NOT met" not in r["note"] and "unavailable" not in r["note"]
        shown_limit = r["note"].split("target ", 1)[1].split()[1].rstrip(":x")
        size = meta.get("corpus_size") or ""
        text = TARGET_TEXT.get(r["tool"], r["tool"]).format(
            t=shown_limit,
            n=f"{int(size):,}" if size.isdigit() else size,
            cores=meta.get("usable_cpus", "?"),
        )
        status = "met" if met else "**not met**"
        if value is None:
            cells = ["unavailable", status]
        elif r["unit"] == "speed-up":
            cells = speedup_cells(rows, r, met, limit)
        elif r["unit"] == "seconds" and r["tool"].endswith("import bleuprint'"):
            total = find(rows, "startup", "start-up", "python -c 'import bleuprint'")
            bare = find(rows, "startup", "start-up", "python -c pass")
            measured = f"**{fmt_time(value)}** over bare `python -c pass`"
            if total and bare:
                measured += (
                    f" ({fmt_time(num(total['seconds']))} in total, interpreter start-up "
                    f"{fmt_time(num(bare['seconds']))})"
                )
            cells = [measured, status]
        elif r["unit"] == "seconds":
            cells = [f"**{fmt_time(value)}** in total, interpreter start-up included", status]
        elif r["unit"] == "s":  # a time limit of its own
            cells = [f"**{fmt_time(value)}**", status]
        elif r["unit"] == "bytes":  # a memory limit
            cells = [f"**{value / MB:.1f} MB**", status]
        else:  # fraction of sacrebleu's peak memory
            ours = find(rows, "memory", "(d)", "bleuprint")
            sacre = find(rows, "memory", "(d)", "sacrebleu")
            sizes = f"{num(ours['value']) / MB:.1f} MB vs {num(sacre['value']) / MB:.0f} MB, "
            cells = [f"**1/{1 / value:.1f}** ({sizes}{value:.2%})", status]
        out.append([text, *cells])
    return table(["Target", "Measured", "Status"], "lll", out)


def figures_table(rows: list[Row]) -> str:
    meta = rows[0]
    out = []
    seen = set()
    columns = [
        t
        for t in RATIO_COLUMNS
        if t == "sacrebleu" or any(r["kind"] == "time" and r.get(f"vs_{t}") for r in rows)
    ]
    for r in rows:
        if r["kind"] != "time":
            continue
        key = r["workload"][:3]
        workload = ""
        if key not in seen:
            seen.add(key)
            system = " ".join(r["workload"][4:].split()[:2])
            workload = WORKLOAD_TEXT.get(key, r["workload"]).format(
                system=system, n=f"{int(r['segments']):,}"
            )
            workload = re.sub(r"tokenize=([\w-]+)", r'`tokenize="\1"`', workload)
        name = TOOL_TEXT.get((key, r["tool"])) or TOOL_TEXT.get(("", r["tool"]), r["tool"])
        bold = name.startswith("**")
        time = fmt_time(num(r["seconds"])) + (" *" if r["extrapolated"] == "True" else "")
        cells = [time, *(fmt_ratio(num(r.get(f"vs_{t}", ""))) for t in columns)]
        if bold:
            cells = [f"**{c}**" if c != "–" else c for c in cells]
        out.append(
            [
                workload,
                name.format(cores=meta["usable_cpus"]),
                f"{int(r['segments']):,}",
                r["repeats"],
                cells[0],
                fmt_range(r),
                *cells[1:],
            ]
        )
    header = ["Workload", "Tool", "Segments", "Runs", "Time (median)", "Range"]
    header += [f"vs {t}" for t in columns]
    return table(header, "llrrrl" + "r" * len(columns), out)


def memory_table(rows: list[Row]) -> str:
    out = []
    for r in rows:
        if r["kind"] != "memory" or not r["workload"].startswith("(d)"):
            continue
        value, ratio = num(r["value"]), num(r["vs_sacrebleu"])
        size = f"{value / MB:.1f} MB"
        less = "1x" if r["tool"] == "sacrebleu" or ratio is None else f"{ratio:.1f}x less"
        if r["tool"] == "bleuprint" and ratio:
            less = f"**{less}** ({1 / ratio:.2%} of sacrebleu's)"
            size = f"**{size}**"
        name = "**bleuprint**" if r["tool"] == "bleuprint" else r["tool"]
        out.append([name, size, less])
    if not out:
        return ""
    return table(["(d) Peak memory of (b)", "Peak RSS increase", "sacrebleu / tool"], "lrr", out)


def startup_table(rows: list[Row]) -> str:
    start = [r for r in rows if r["kind"] == "startup"]
    if not start:
        return ""
    start.sort(key=lambda r: r["tool"] != "python -c pass")  # the baseline first
    out = []
    for r in start:
        seconds, over = num(r["seconds"]), num(r["value"])
        tool = r["tool"].replace("'", '"')
        over_text = "–" if over is None or r["tool"] == "python -c pass" else fmt_time(over)
        out.append([f"`{tool}`", fmt_time(seconds), over_text])
    tries = start[0]["repeats"] if start else "?"
    header = [f"Start-up (best of {tries} fresh processes)", "Wall time", "Over `python -c pass`"]
    return table(header, "lrr", out)


def scaling_line(rows: list[Row]) -> str:
    parts = []
    for key in ("(b)", "(c)", "(q)"):
        many = find(rows, "time", key, "bleuprint")
        one = find(rows, "time", key, "bleuprint workers=1")
        if many and one:
            parts.append(f"{key} {num(one['seconds']) / num(many['seconds']):.2f}x")
    if not parts:
        return ""
    cores = rows[0]["usable_cpus"]
    return f"Thread scaling, `workers=-1` ({cores} threads) over `workers=1`: " + ", ".join(parts)


def model_line(rows: list[Row]) -> str:
    """The SentencePiece model of (h): size, pieces, training, load time."""
    for r in rows:
        if r["kind"] == "model":
            return f"(h) SentencePiece model: {num(r['value']) / MB:.2f} MB, {r['note']}."
    return ""


def rss_table(rows: list[Row]) -> str:
    """RSS growth of the sentence loops of (h) and (i)."""
    out = []
    for r in rows:
        if r["kind"] != "memory" or r["workload"][:3] not in ("(h)", "(i)"):
            continue
        value = num(r["value"])
        growth = f"{value / MB:+,.1f} MB"
        calls = f"{int(r['segments']):,}"
        if r["tool"].startswith("bleuprint"):
            name = f"**{r['tool']}**"
            growth = f"**{growth}**"
        else:
            name = f"{r['tool']}, in (h)"
        out.append([name, calls, growth, r["note"]])
    if not out:
        return ""
    header = ['RSS over `sentence_bleu(..., tokenize="flores200")` calls', "Calls", "Growth"]
    return table([*header, "Detail"], "lrrl", out)


def report(path: Path) -> str:
    rows = read_rows(path)
    meta = rows[0]
    failed = [r for r in rows if r["exact_match"] == "NO"]
    parts = [
        f"<!-- generated by `python bench/report.py {path.as_posix()}`: run of "
        f"{meta['date_utc']}, commit {meta['repo_commit']}, {meta['label']} -->",
        targets_table(rows),
        figures_table(rows),
        memory_table(rows),
        startup_table(rows),
        scaling_line(rows),
        model_line(rows),
        rss_table(rows),
    ]
    lines = []
    for part in parts:
        if part:
            lines += [part, ""]
    lines += [
        "Exactness checks: "
        + (
            "FAILED: " + ", ".join(f"{r['workload']}: {r['tool']}" for r in failed)
            if failed
            else "all passed"
        ),
    ]
    if any(r["extrapolated"] == "True" for r in rows):
        lines += ["", "\\* scaled linearly from a sample of the segments (`--sentence-sample`)"]
    return "\n".join(lines)


def read_rows(path: Path) -> list[Row]:
    with path.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise SystemExit(f"{path}: no rows")
    return rows


def compare_table(before: list[Row], after: list[Row]) -> str:
    """bleuprint's timed rows of two runs: median before and after, the change, and whether the
    change is outside both runs' ranges (``noise`` when the ranges overlap)."""
    out = []
    for b in before:
        if not b["tool"].startswith("bleuprint") or b["kind"] not in ("time", "startup"):
            continue
        a = find(after, b["kind"], b["workload"], b["tool"])
        old, new = num(b["seconds"]), None if a is None else num(a["seconds"])
        if a is None or old is None or new is None:
            continue
        change = (new - old) / old
        lo_b, hi_b = num(b["min_seconds"]), num(b["max_seconds"])
        lo_a, hi_a = num(a["min_seconds"]), num(a["max_seconds"])
        if None in (lo_b, hi_b, lo_a, hi_a):
            verdict = "best of runs" if b["kind"] == "startup" else "–"
        elif hi_a < lo_b:  # type: ignore[operator]
            verdict = "faster"
        elif lo_a > hi_b:  # type: ignore[operator]
            verdict = "slower"
        else:
            verdict = "noise (ranges overlap)"
        workload = b["workload"] if b["kind"] == "time" else "start-up"
        out.append(
            [workload, b["tool"], fmt_time(old), fmt_time(new, old), f"{change:+.1%}", verdict]
        )
    header = ["Workload", "Tool", "Before (median)", "After (median)", "Change", "Ranges"]
    return table(header, "llrrrl", out)


def compare(before_path: Path, after_path: Path) -> str:
    before, after = read_rows(before_path), read_rows(after_path)
    meta_b, meta_a = before[0], after[0]
    return "\n".join(
        [
            f"<!-- generated by `python bench/report.py --compare {before_path.as_posix()} "
            f"{after_path.as_posix()}`: runs of {meta_b['date_utc']} (commit "
            f"{meta_b['repo_commit']}) and {meta_a['date_utc']} (commit "
            f"{meta_a['repo_commit']}), {meta_a['label']} -->",
            compare_table(before, after),
        ]
    )


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] == "--compare":
        print(compare(Path(argv[1]), Path(argv[2])))
        return 0
    if len(argv) != 1 or argv[0].startswith("-"):
        usage = [line.strip() for line in __doc__.strip().splitlines()[-2:]]
        print("usage: " + "\n       ".join(usage), file=sys.stderr)
        return 2
    print(report(Path(argv[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
