"""bench/report.py renders the markdown tables of docs/performance.md from a results CSV."""

from __future__ import annotations

import csv
import importlib.util

import pytest

from tests.support.data import REPO

SCRIPT = REPO / "bench" / "report.py"

FIELDS = [
    "workload", "tool", "kind", "segments", "repeats", "warmup", "seconds", "min_seconds",
    "max_seconds", "value", "unit", "vs_sacrebleu", "vs_bleuscore", "vs_fastchrf", "vs_jiwer",
    "exact_match", "extrapolated", "note", "date_utc", "label", "repo_commit", "usable_cpus",
    "corpus_size",
]  # fmt: skip

META = {
    "date_utc": "2026-01-01T00:00:00Z",
    "label": "test-box",
    "repo_commit": "abc1234",
    "usable_cpus": "2",
    "corpus_size": "1000",
}


def timed(
    workload: str,
    tool: str,
    segments: str,
    repeats: str,
    seconds: str,
    low: str,
    high: str,
    **columns: str,
) -> dict[str, str]:
    """A ``time`` row of a results CSV: the median ``seconds`` and the range ``low``-``high``
    of ``repeats`` runs, then any other columns (ratios, ``exact_match``)."""
    return {
        "workload": workload, "tool": tool, "kind": "time", "segments": segments,
        "repeats": repeats, "seconds": seconds, "min_seconds": low, "max_seconds": high,
        **columns,
    }  # fmt: skip


def target(tool: str, value: str, note: str) -> dict[str, str]:
    """A speed-up ``target`` row of a results CSV."""
    return {
        "workload": "target", "tool": tool, "kind": "target", "value": value, "unit": "speed-up",
        "note": note,
    }  # fmt: skip


ROWS = [
    # (b): bleuprint 0.1 s against sacrebleu 12 s and bleuscore 1.5 s
    timed("(b) into-English corpus", "sacrebleu", "1000", "3", "12.0", "11.5", "12.5",
          vs_sacrebleu="1.0", vs_bleuscore="0.125"),
    timed("(b) into-English corpus", "bleuscore", "1000", "5", "1.5", "1.2", "1.9",
          vs_sacrebleu="8.0", vs_bleuscore="1.0"),
    timed("(b) into-English corpus", "bleuprint", "1000", "5", "0.1", "0.095", "0.105",
          vs_sacrebleu="120.0", vs_bleuscore="15.0", exact_match="yes"),
    timed("(b) into-English corpus", "bleuprint workers=1", "1000", "5", "0.16", "0.15", "0.17",
          vs_sacrebleu="75.0", vs_bleuscore="9.375", exact_match="yes"),
    # (c): bleuprint 0.2 s against a 10 s loop: 50x, target missed
    timed("(c) sentence BLEU", "sacrebleu (loop)", "1000", "3", "10.0", "9.0", "11.0",
          vs_sacrebleu="1.0", extrapolated="False"),
    timed("(c) sentence BLEU", "bleuprint", "1000", "5", "0.2", "0.19", "0.21",
          vs_sacrebleu="50.0", exact_match="yes"),
    {"workload": "(d) peak memory of (b)", "tool": "sacrebleu", "kind": "memory",
     "segments": "1000", "repeats": "1", "value": str(800 * 2**20), "unit": "bytes",
     "vs_sacrebleu": "1.0"},
    {"workload": "(d) peak memory of (b)", "tool": "bleuprint", "kind": "memory",
     "segments": "1000", "repeats": "1", "value": str(20 * 2**20), "unit": "bytes",
     "vs_sacrebleu": "40.0"},
    {"workload": "start-up", "tool": "python -c 'import bleuprint'", "kind": "startup",
     "repeats": "10", "seconds": "0.037", "value": "0.009"},
    {"workload": "start-up", "tool": "bleuprint -V", "kind": "startup", "repeats": "10",
     "seconds": "0.041", "value": "0.013"},
    {"workload": "start-up", "tool": "python -c pass", "kind": "startup", "repeats": "10",
     "seconds": "0.028"},
    target("(b) corpus BLEU vs sacrebleu", "120.0", "target >= 100x: met"),
    target("(c) sentence BLEU vs sacrebleu loop", "50.0", "target >= 100x: NOT met"),
    {"workload": "target", "tool": "(d) peak memory vs sacrebleu", "kind": "target",
     "value": "0.025", "unit": "fraction of sacrebleu's peak increase",
     "note": "target <= 1/10: met"},
    {"workload": "target", "tool": "start-up: python -c 'import bleuprint'", "kind": "target",
     "value": "0.009", "unit": "seconds",
     "note": "target <= 50 ms (import time over bare python): met"},
]  # fmt: skip


@pytest.fixture(scope="module")
def report_module():
    spec = importlib.util.spec_from_file_location("bench_report", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def render(module, path, rows, meta):
    fields = [*FIELDS[: FIELDS.index("note") + 1], *meta]
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        for row in rows:
            writer.writerow({**{k: "" for k in fields}, **row, **meta})
    return module.report(path).splitlines()


def committed_rows(suffix: str, what: str) -> list[dict[str, str]]:
    """The rows of the newest committed ``bench/results/*/<date><suffix>.csv``."""
    results = sorted((SCRIPT.parent / "results").glob(f"*/????-??-??{suffix}.csv"))
    assert results, f"no committed {what} results"
    with results[-1].open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def readme_performance() -> str:
    """The README's "Performance" section."""
    readme = (SCRIPT.parents[1] / "README.md").read_text(encoding="utf-8")
    return readme.split("## Performance", 1)[1].split("\n## ", 1)[0]


@pytest.fixture
def rendered(report_module, tmp_path):
    return render(report_module, tmp_path / "run.csv", ROWS, META)


@pytest.fixture
def rendered_tokenizers(report_module, tmp_path):
    return render(report_module, tmp_path / "tok.csv", TOKENIZER_ROWS, TOKENIZER_META)


def test_targets(rendered):
    assert (
        "| (b) corpus BLEU, 1,000 segments: >= 100x faster than sacrebleu (2 cores) "
        "| **120.0x** (100.0 ms vs 12.00 s) | met; 109.5–131.6x over the runs' ranges |"
    ) in rendered
    assert (
        "| (c) 1,000 sentence scores: >= 100x faster than a loop over `sacrebleu.sentence_bleu` "
        "| **50.0x** (200.0 ms vs 10.00 s) "
        "| **not met**; 42.9–57.9x over the runs' ranges; "
        "bleuprint would need 100.0 ms (2.00x faster) |"
    ) in rendered
    assert (
        "| (d) peak memory of (b) <= 1/10 of sacrebleu's "
        "| **1/40.0** (20.0 MB vs 800 MB, 2.50%) | met |"
    ) in rendered
    assert (
        "| `import bleuprint` <= 50 ms | **9.0 ms** over bare `python -c pass` "
        "(37.0 ms in total, interpreter start-up 28.0 ms) | met |"
    ) in rendered


def test_figures(rendered):
    assert (
        "| (b) 1,000 into-English segments, corpus BLEU | sacrebleu | 1,000 | 3 | 12.00 s "
        "| 11.50–12.50 s | 1.00x | 0.12x |"
    ) in rendered
    assert (
        "|  | **bleuprint** (`workers=-1`, 2 threads) | 1,000 | 5 | **100.0 ms** "
        "| 95.0–105.0 ms | **120.0x** | **15.0x** |"
    ) in rendered
    assert (
        "|  | bleuprint `workers=1` | 1,000 | 5 | 160.0 ms | 150.0–170.0 ms | 75.0x | 9.38x |"
    ) in rendered
    assert (
        "|  | **bleuprint** `BLEU(effective_order=True).sentence_scores` | 1,000 | 5 "
        "| **200.0 ms** | 190.0–210.0 ms | **50.0x** | – |"
    ) in rendered


def test_memory_startup_and_summary(rendered):
    assert "| sacrebleu | 800.0 MB | 1x |" in rendered
    assert "| **bleuprint** | **20.0 MB** | **40.0x less** (2.50% of sacrebleu's) |" in rendered
    assert "| `python -c pass` | 28.0 ms | – |" in rendered
    assert '| `python -c "import bleuprint"` | 37.0 ms | 9.0 ms |' in rendered
    assert "| `bleuprint -V` | 41.0 ms | 13.0 ms |" in rendered
    assert "Thread scaling, `workers=-1` (2 threads) over `workers=1`: (b) 1.60x" in rendered
    assert "Exactness checks: all passed" in rendered


def test_readme_figures_come_from_the_committed_results(report_module):
    # The README's performance table is a summary of the committed benchmark CSV; this keeps
    # the two from drifting apart when either is updated.
    # bench_bleu.py's CSVs only (bench_tokenizers.py writes <date>-tokenizers.csv)
    rows = committed_rows("", "benchmark")
    section = readme_performance()
    r = report_module
    for workload in ("(a)", "(b)", "(c)"):
        sacre = "sacrebleu (loop)" if workload == "(c)" else "sacrebleu"
        ours = r.find(rows, "time", workload, "bleuprint")
        theirs = r.find(rows, "time", workload, sacre)
        speedup = r.fmt_ratio(r.num(ours["vs_sacrebleu"]))
        expected = [r.fmt_time(r.num(theirs["seconds"])), r.fmt_time(r.num(ours["seconds"]))]
        for text in [*expected, speedup]:
            assert text in section, f"{workload}: {text} not in the README"
    b = r.find(rows, "time", "(b)", "bleuprint")
    assert r.fmt_ratio(r.num(b["vs_bleuscore"])) in section
    memory = {
        t: r.num(r.find(rows, "memory", "(d)", t)["value"]) for t in ("sacrebleu", "bleuprint")
    }
    assert f"{memory['sacrebleu'] / r.MB:.0f} MB" in section
    assert f"{memory['bleuprint'] / r.MB:.1f} MB" in section
    assert f"{memory['bleuprint'] / memory['sacrebleu']:.2%}" in section


def test_readme_tokenizer_ratios_come_from_the_committed_results(report_module):
    rows = committed_rows("-tokenizers", "tokenizer benchmark")
    section = " ".join(readme_performance().split())
    r = report_module
    for workload, name in (("(e)", "`zh`"), ("(f)", "`char`"), ("(g)", "`ja-mecab`")):
        ratio = r.fmt_ratio(r.num(r.find(rows, "time", workload, "bleuprint")["vs_sacrebleu"]))
        assert f"{name} {ratio}" in section, f"{workload}: {name} {ratio} not in the README"
    loop = r.find(rows, "time", "(h)", "bleuprint (loop)")
    assert f"`flores200` {r.fmt_ratio(r.num(loop['vs_sacrebleu']))} faster" in section


# A CSV of bench_tokenizers.py: no corpus size, no bleuscore, memory rows only for (h) and (i).
TOKENIZER_META = {k: v for k, v in META.items() if k != "corpus_size"}

TOKENIZER_ROWS = [
    timed("(e) en-zh, 13 systems, corpus BLEU, tokenize=zh", "sacrebleu", "26481", "3", "6.0",
          "5.8", "6.3", vs_sacrebleu="1.0"),
    timed("(e) en-zh, 13 systems, corpus BLEU, tokenize=zh", "bleuprint", "26481", "5", "0.08",
          "0.075", "0.09", vs_sacrebleu="75.0", exact_match="yes"),
    timed("(g) en-ja, 13 systems, corpus BLEU, tokenize=ja-mecab", "sacrebleu", "26481", "3",
          "4.0", "3.9", "4.2", vs_sacrebleu="1.0"),
    timed("(g) en-ja, 13 systems, corpus BLEU, tokenize=ja-mecab", "bleuprint", "26481", "5",
          "0.5", "0.48", "0.52", vs_sacrebleu="8.0", exact_match="yes"),
    timed("(g) en-ja, 13 systems, corpus BLEU, tokenize=ja-mecab",
          "bleuprint, cache cleared before each call", "26481", "5", "0.8", "0.78", "0.82",
          vs_sacrebleu="5.0", exact_match="yes"),
    {"workload": "(h) sentence BLEU, tokenize=flores200", "tool": "SentencePiece model",
     "kind": "model", "repeats": "5", "seconds": "0.068", "value": str(1.5 * 2**20),
     "unit": "bytes", "note": "64,000-piece unigram model; loading it takes 68.0 ms"},
    timed("(h) sentence BLEU, tokenize=flores200", "sacrebleu (loop)", "10000", "3", "700.0",
          "690.0", "710.0", vs_sacrebleu="1.0", extrapolated="True"),
    timed("(h) sentence BLEU, tokenize=flores200", "bleuprint (loop)", "10000", "5", "0.7", "0.69",
          "0.71", vs_sacrebleu="1000.0", exact_match="yes", extrapolated="False"),
    timed("(h) sentence BLEU, tokenize=flores200", "bleuprint sentence_scores", "10000", "5",
          "0.2", "0.19", "0.21", vs_sacrebleu="3500.0", exact_match="yes", extrapolated="False"),
    {"workload": "(h) sentence BLEU, tokenize=flores200", "tool": "sacrebleu (loop)",
     "kind": "memory", "segments": "200", "repeats": "1", "value": str(2000 * 2**20),
     "unit": "bytes", "note": "kept alive"},
    {"workload": "(i) RSS over 10,000 flores200 sentence_bleu calls",
     "tool": "bleuprint, second pass", "kind": "memory", "segments": "10000", "repeats": "1",
     "value": str(2**17), "unit": "bytes", "note": "same segments"},
    target("(e) zh corpus BLEU vs sacrebleu", "75.0", "target >= 50x: met"),
    {"workload": "target", "tool": "(g) ja-mecab corpus BLEU vs sacrebleu", "kind": "target",
     "unit": "speed-up", "note": "target >= 5x: unavailable (MeCab missing)"},
    target("(h) flores200 sentence loop vs sacrebleu", "1000.0", "target >= 100x: met"),
]  # fmt: skip


def test_tokenizer_targets(rendered_tokenizers):
    assert (
        '| (e) en-zh corpus BLEU, `tokenize="zh"`, one call per system: >= 50x faster than '
        "sacrebleu | **75.0x** (80.0 ms vs 6.00 s) | met; 64.4–84.0x over the runs' ranges |"
    ) in rendered_tokenizers
    assert (
        '| (g) en-ja corpus BLEU, `tokenize="ja-mecab"`, one call per system: >= 5x faster '
        "than sacrebleu | unavailable | **not met** |"
    ) in rendered_tokenizers
    # (h) compares bleuprint's loop, not its batched call, with sacrebleu's loop
    assert (
        '| (h) `sentence_bleu(h, [r], tokenize="flores200")` in a loop: >= 100x faster per '
        "call than sacrebleu's | **1,000.0x** (700.0 ms vs 700.00 s) "
        "| met; 971.8–1,029.0x over the runs' ranges |"
    ) in rendered_tokenizers


def test_tokenizer_figures(rendered_tokenizers):
    # no bleuscore column when no row has a bleuscore ratio
    assert (
        "| Workload | Tool | Segments | Runs | Time (median) | Range | vs sacrebleu |"
    ) in rendered_tokenizers
    assert (
        '| (e) en-zh, 13 systems, corpus BLEU, `tokenize="zh"` | sacrebleu | 26,481 | 3 '
        "| 6.00 s | 5.80–6.30 s | 1.00x |"
    ) in rendered_tokenizers
    assert (
        "|  | bleuprint, line cache emptied before every call | 26,481 | 5 | 800.0 ms "
        "| 780.0–820.0 ms | 5.00x |"
    ) in rendered_tokenizers
    assert (
        '| (h) sentence BLEU, `tokenize="flores200"` | sacrebleu loop of '
        '`sentence_bleu(h, [r], tokenize="flores200")` | 10,000 | 3 | 700.00 s * '
        "| 690.00–710.00 s | 1.00x |"
    ) in rendered_tokenizers
    assert (
        '|  | **bleuprint** loop of `sentence_bleu(h, [r], tokenize="flores200", '
        "spm_model=...)` | 10,000 | 5 | **700.0 ms** | 690.0–710.0 ms | **1,000.0x** |"
    ) in rendered_tokenizers


def test_tokenizer_model_and_rss(rendered_tokenizers):
    assert (
        "(h) SentencePiece model: 1.50 MB, 64,000-piece unigram model; loading it takes 68.0 ms."
    ) in rendered_tokenizers
    assert "| sacrebleu (loop), in (h) | 200 | +2,000.0 MB | kept alive |" in rendered_tokenizers
    assert (
        "| **bleuprint, second pass** | 10,000 | **+0.1 MB** | same segments |"
    ) in rendered_tokenizers
    text = "\n".join(rendered_tokenizers)
    # the tables of bench_bleu.py's workloads are left out, not rendered empty
    assert "Peak memory" not in text
    assert "Start-up" not in text
    assert "Thread scaling" not in text
    assert "Exactness checks: all passed" in text
    assert "scaled linearly from a sample" in text


# A CSV of bench_metrics.py: speed-ups against fastchrf and jiwer in their own columns.
METRIC_ROWS = [
    timed("(m) chrF of all 64 x 64 pairs", "fastchrf", "4096", "5", "0.016", "0.015", "0.02",
          vs_fastchrf="1.0"),
    timed("(m) chrF of all 64 x 64 pairs", "bleuprint", "4096", "5", "0.008", "0.005", "0.01",
          vs_fastchrf="2.0", exact_match="yes"),
    timed("(o) WER, 1,000 segments", "jiwer", "1000", "3", "4.0", "3.9", "4.1", vs_jiwer="1.0"),
    timed("(o) WER, 1,000 segments", "bleuprint.compat.jiwer", "1000", "5", "0.08", "0.079",
          "0.081", vs_jiwer="50.0", exact_match="yes"),
    target("(o) WER vs jiwer", "50.0", "target >= 2x: met"),
]  # fmt: skip


def test_metric_report_has_fastchrf_and_jiwer_columns(report_module, tmp_path):
    rendered = render(report_module, tmp_path / "metrics.csv", METRIC_ROWS, META)
    assert (
        "| Workload | Tool | Segments | Runs | Time (median) | Range | vs sacrebleu "
        "| vs fastchrf | vs jiwer |"
    ) in rendered
    assert (
        "|  | **bleuprint** `compat.jiwer.wer(refs, hyps)` | 1,000 | 5 | **80.0 ms** "
        "| 79.0–81.0 ms | – | – | **50.0x** |"
    ) in rendered
    assert (
        "| (o) WER, 1,000 segments: >= 2x faster than jiwer | **50.0x** (80.0 ms vs 4.00 s) "
        "| met; 48.1–51.9x over the runs' ranges |"
    ) in rendered


# A CSV of bench_significance.py: a single sacrebleu run, a target that needs exact results too.
SIGNIFICANCE_META = {k: v for k, v in META.items() if k != "corpus_size"}

SIGNIFICANCE_ROWS = [
    timed("(q) 9 en-de systems x 2,037 segments, BLEU + chrF + TER, paired AR", "sacrebleu",
          "18333", "1", "40.0", "40.0", "40.0", vs_sacrebleu="1.0"),
    timed("(q) 9 en-de systems x 2,037 segments, BLEU + chrF + TER, paired AR", "bleuprint",
          "18333", "5", "0.8", "0.78", "0.82", vs_sacrebleu="50.0", exact_match="yes"),
    timed("(q) 9 en-de systems x 2,037 segments, BLEU + chrF + TER, paired AR",
          "bleuprint workers=1", "18333", "5", "1.2", "1.1", "1.3", vs_sacrebleu="33.3",
          exact_match="yes"),
    timed("(r) 9 en-de systems x 2,037 segments, BLEU + chrF + TER, paired BS", "sacrebleu",
          "18333", "1", "27.0", "27.0", "27.0", vs_sacrebleu="1.0"),
    timed("(r) 9 en-de systems x 2,037 segments, BLEU + chrF + TER, paired BS", "bleuprint",
          "18333", "5", "0.9", "0.85", "0.95", vs_sacrebleu="30.0", exact_match="NO"),
    timed("(t) paired_test_stats on precomputed statistics of (q) and (r)",
          "bleuprint paired_test_stats, ar, 10,000 trials", "18333", "5", "0.5", "0.49", "0.51",
          exact_match="yes"),
    target("(q) paired AR vs sacrebleu", "50.0", "target >= 40x: met (identical results: yes)"),
    target("(r) paired BS vs sacrebleu", "30.0", "target >= 40x: NOT met (identical results: NO)"),
]  # fmt: skip


def test_significance_report(report_module, tmp_path):
    rendered = render(report_module, tmp_path / "sig.csv", SIGNIFICANCE_ROWS, SIGNIFICANCE_META)
    assert (
        "| (q) 9 WMT22 en-de systems, BLEU + chrF + TER, paired approximate randomization "
        "(10,000 trials), text in, p-values out: >= 40x faster than sacrebleu's `PairedTest`, "
        "identical p-values | **50.0x** (800.0 ms vs 40.00 s) "
        "| met; 48.8–51.3x over the runs' ranges |"
    ) in rendered
    assert any(
        line.startswith("| (r) the same with paired bootstrap resampling (1,000 resamples)")
        and "| **30.0x** (900.0 ms vs 27.00 s) | **not met**;" in line
        for line in rendered
    )
    assert (
        '|  | **bleuprint** `paired_test(..., test="ar")`, 2 threads | 18,333 | 5 '
        "| **800.0 ms** | 780.0–820.0 ms | **50.0x** |"
    ) in rendered
    assert (
        "| (t) paired_test_stats on precomputed statistics of (q) and (r) "
        "| bleuprint paired_test_stats, ar, 10,000 trials | 18,333 | 5 | 500.0 ms "
        "| 490.0–510.0 ms | – |"
    ) in rendered
    assert "Thread scaling, `workers=-1` (2 threads) over `workers=1`: (q) 1.50x" in rendered
    assert any(line.startswith("Exactness checks: FAILED: (r)") for line in rendered)


# The README's speed-ups of the other scripts: (CSV suffix, what the results are, and per
# workload: bleuprint's row, the column of its speed-up, the README's words before it).
README_RATIOS = {
    "metrics": ("-metrics", "metric benchmark", [
        ("(j)", "bleuprint", "vs_sacrebleu", "corpus chrF"),
        ("(k)", "bleuprint", "vs_sacrebleu", "chrF++"),
        ("(n)", "bleuprint", "vs_sacrebleu", "TER (5,000 segments)"),
        ("(l)", "bleuprint", "vs_fastchrf", "sentence chrF scores"),
        ("(o)", "bleuprint.compat.jiwer", "vs_jiwer", "WER"),
        ("(p)", "bleuprint.compat.jiwer", "vs_jiwer", "CER"),
    ]),
    "significance": ("-significance", "significance benchmark", [
        ("(q)", "bleuprint", "vs_sacrebleu", "paired approximate randomization (10,000 trials)"),
        ("(r)", "bleuprint", "vs_sacrebleu", "paired bootstrap (1,000 resamples)"),
    ]),
    "compat": ("-compat", "compat benchmark", [
        ("(u)", "bleuprint", "vs_nltk", "nltk `corpus_bleu`"),
        ("(w)", "bleuprint", "vs_bleuscore", "HF evaluate `bleu`"),
    ]),
}  # fmt: skip


@pytest.mark.parametrize("script", list(README_RATIOS))
def test_readme_ratios_come_from_the_committed_results(report_module, script):
    suffix, what, workloads = README_RATIOS[script]
    rows = committed_rows(suffix, what)
    section = " ".join(readme_performance().split())
    r = report_module
    for workload, tool, column, text in workloads:
        row = r.find(rows, "time", workload, tool)
        value = row[column]
        if not value:  # (l): the ratio to fastchrf is a target row, not a column
            fast = r.find(rows, "time", workload, "fastchrf")
            value = str(r.num(fast["seconds"]) / r.num(row["seconds"]))
        ratio = r.fmt_ratio(r.num(value))
        assert f"{text} {ratio}" in section, f"{workload}: {text} {ratio} not in the README"


def test_compare_two_builds(report_module, tmp_path):
    render(report_module, tmp_path / "before.csv", ROWS, META)
    after_rows = [dict(r) for r in ROWS]
    for r in after_rows:
        if r["tool"] == "bleuprint" and r["workload"].startswith("(b)"):
            r.update(seconds="0.08", min_seconds="0.079", max_seconds="0.081")
        if r["tool"] == "bleuprint" and r["workload"].startswith("(c)"):
            r.update(seconds=str(float(r["seconds"]) * 1.01))
    render(report_module, tmp_path / "after.csv", after_rows, {**META, "repo_commit": "def5678"})
    lines = report_module.compare(tmp_path / "before.csv", tmp_path / "after.csv").splitlines()
    assert "commit abc1234" in lines[0]
    assert "commit def5678" in lines[0]
    body = "\n".join(lines)
    # Only bleuprint's rows; (b) got 20% faster with disjoint ranges, (c) moved within noise.
    assert "sacrebleu" not in body.split("-->", 1)[1]
    b_row = next(line for line in lines if line.startswith("| (b)") and "| bleuprint |" in line)
    for cell in ("100.0 ms", "80.0 ms", "-20.0%", "faster"):
        assert cell in b_row
    c_row = next(line for line in lines if line.startswith("| (c)") and "| bleuprint |" in line)
    assert "+1.0%" in c_row
    assert report_module.main(["--compare"]) == 2
