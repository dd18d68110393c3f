"""``bleuprint.analysis.report`` and ``bleuprint report``: every number checked against an
independent computation (sacrebleu on the segment subsets, naive n-gram counting), the page's
size bounded, the command line's files and errors."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

import bleuprint.analysis.report
from bleuprint.analysis.report import Report, report
from bleuprint.analysis.report.buckets import LENGTH_CUTOFFS, bucket_labels
from bleuprint.analysis.report.inputs import read_meta_tsv, read_train_counts
from bleuprint.analysis.report.ngrams import NgramTable, _kth_largest
from bleuprint.cli.entry import main
from bleuprint.errors import BleuprintError, InvalidInputError, InvalidOptionError
from bleuprint.io.files import read_lines
from tests.support.data import EXAMPLES


def _ex(name: str) -> list[str]:
    return read_lines(EXAMPLES / name)


SYSTEMS = {"hyp": _ex("hyp.en"), "hyp2": _ex("hyp2.en")}
REFS = [_ex("ref.en"), _ex("ref2.en")]
DOCS = [f"d{i // 5}" for i in range(len(REFS[0]))]


@pytest.fixture(scope="module")
def example() -> Report:
    return report(SYSTEMS, REFS, meta={"docid": DOCS, "origlang": ["en"] * 10 + ["de"] * 10})


def _subset(lines: list[str], keep: list[int]) -> list[str]:
    return [lines[i] for i in keep]


def test_scores_are_sacrebleus(example: Report) -> None:
    rows = example.data["scores"]["rows"]
    for name, hyps in SYSTEMS.items():
        assert rows[name]["BLEU"]["score"] == sacrebleu.corpus_bleu(hyps, REFS).score
        assert rows[name]["chrF2"]["score"] == sacrebleu.corpus_chrf(hyps, REFS).score
        assert rows[name]["TER"]["score"] == sacrebleu.corpus_ter(hyps, REFS).score


def test_significance_is_paired_test_stats(example: Report) -> None:
    import bleuprint

    metrics = [bleuprint.BLEU(), bleuprint.CHRF(), bleuprint.TER()]
    expected = bleuprint.paired_test(
        SYSTEMS, REFS, metrics, test="bs", all_pairs=True, correction="holm", seed=12345
    )
    got = example.data["scores"]
    assert got["clusters"] == expected.clusters
    assert [c["adjusted_p_value"] for c in got["comparisons"]] == [
        c.adjusted_p_value for c in expected.comparisons
    ]
    assert got["signatures"]["BLEU"] == str(expected.signatures["BLEU"])


def test_length_buckets_score_their_segments(example: Report) -> None:
    tokenize = sacrebleu.BLEU().tokenizer
    lengths = [len(tokenize(r).split()) for r in REFS[0]]
    bucket = np.searchsorted(LENGTH_CUTOFFS, lengths, side="right")
    section = next(b for b in example.data["buckets"] if b["key"] == "length")
    assert section["buckets"] == bucket_labels(LENGTH_CUTOFFS)
    checked = 0
    for name, hyps in SYSTEMS.items():
        for b, cell in enumerate(section["systems"][name]["scores"]["BLEU"]):
            keep = [i for i in range(len(lengths)) if bucket[i] == b]
            assert cell["count"] == len(keep)
            if keep:
                subset_refs = [_subset(r, keep) for r in REFS]
                assert cell["score"] == pytest.approx(
                    sacrebleu.corpus_bleu(_subset(hyps, keep), subset_refs).score, abs=1e-9
                )
                assert cell["lower"] <= cell["upper"]
                checked += 1
    assert checked >= 2


def test_bucket_counts_cover_every_segment(example: Report) -> None:
    for section in example.data["buckets"]:
        for system in section["systems"].values():
            assert sum(c["count"] for c in system["counts"]) == len(REFS[0])
            for c in system["counts"]:
                assert c["lower"] <= c["upper"]


def test_metadata_scores_are_their_subsets(example: Report) -> None:
    meta = example.data["metadata"]
    assert set(meta) == {"docid", "origlang"}
    for row in meta["docid"]["rows"]:
        keep = [i for i, d in enumerate(DOCS) if d == row["group"]]
        assert row["segments"] == len(keep)
        for name, hyps in SYSTEMS.items():
            expected = sacrebleu.corpus_chrf(_subset(hyps, keep), [_subset(r, keep) for r in REFS])
            assert row["scores"][name]["chrF2"] == pytest.approx(expected.score, abs=1e-9)
    worst = [r["group"] for r in meta["docid"]["worst"]]
    means = {
        r["group"]: np.mean([r["scores"][n]["BLEU"] for n in SYSTEMS])
        for r in meta["docid"]["rows"]
    }
    assert worst == sorted(means, key=lambda g: (means[g], g))


def _naive(ref: list[list[str]], hyp: list[list[str]]) -> dict[str, Counter[tuple[str, ...]]]:
    out: dict[str, Counter[tuple[str, ...]]] = {k: Counter() for k in ("match", "over", "under")}
    for r, h in zip(ref, hyp):
        rc: Counter[tuple[str, ...]] = Counter()
        hc: Counter[tuple[str, ...]] = Counter()
        for n in range(1, 5):
            rc.update(tuple(r[i : i + n]) for i in range(len(r) - n + 1))
            hc.update(tuple(h[i : i + n]) for i in range(len(h) - n + 1))
        common = rc & hc
        out["match"].update(common)
        out["over"].update(hc - common)
        out["under"].update(rc - common)
    return out


def _table_counts(table: NgramTable, name: str, kind: str) -> Counter[tuple[str, ...]]:
    ids, counts = table.sparse[name][kind]
    return Counter({tuple(table.text(int(i)).split(" ")): int(c) for i, c in zip(ids, counts)})


words = st.lists(st.lists(st.sampled_from("a b c d e".split()), max_size=8), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(ref=words, hyp=words)
def test_ngram_table_counts_like_naive_counting(ref: list[list[str]], hyp: list[list[str]]) -> None:
    n = min(len(ref), len(hyp))
    ref, hyp = ref[:n], hyp[:n]
    table = NgramTable(ref, {"s": hyp})
    expected = _naive(ref, hyp)
    for kind in ("match", "over", "under"):
        assert _table_counts(table, "s", kind) == +expected[kind]


@settings(max_examples=200, deadline=None)
@given(
    counts=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=9000),
    k=st.integers(1, 12),
)
def test_kth_largest_share_is_numpys(counts: list[tuple[int, int]], k: int) -> None:
    # Shares as compare-mt smooths them: mostly ties, the case the sampled bound is for.
    mine, other = np.array(counts, dtype=np.float64).reshape(-1, 2).T
    share = (mine + 1) / (mine + other + 2)
    if len(share) > k:
        assert _kth_largest(share, k) == np.sort(share)[-k]


def test_the_garbage_collector_is_restored(example: Report) -> None:
    # Paused while a report is analysed and drawn, then as the caller had it.
    import gc

    assert gc.isenabled()
    report(SYSTEMS, REFS).to_html()
    assert gc.isenabled()
    gc.disable()
    try:
        example.to_html()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_html_does_not_grow_with_segments() -> None:
    small = report(SYSTEMS, REFS, metrics=["bleu"], n_bootstrap=50).to_html()
    k = 30
    big = report(
        {n: h * k for n, h in SYSTEMS.items()},
        [r * k for r in REFS],
        metrics=["bleu"],
        n_bootstrap=50,
        meta={"docid": [f"d{i}" for i in range(len(REFS[0]) * k)]},
    ).to_html()
    assert len(big) < 1.5 * len(small)


def test_page_is_self_contained(example: Report) -> None:
    page = example.to_html()
    assert "<script" not in page
    assert 'src="http' not in page
    assert 'href="http' not in page
    assert "@import" not in page
    for section in (
        "scores",
        "buckets",
        "word-accuracy",
        "metadata",
        "ngrams",
        "examples",
        "plots",
    ):
        assert f'<section id="{section}">' in page
    assert example._repr_html_() == page


def test_json_holds_the_analyses(example: Report) -> None:
    data = json.loads(example.to_json())
    assert data["systems"] == ["hyp", "hyp2"]
    assert data["metrics"] == ["BLEU", "chrF2", "TER"]
    assert data["scores"]["rows"] == json.loads(json.dumps(example.data["scores"]["rows"]))
    assert len(data["examples"]["differences"]) == 10
    assert data["examples"]["worst"]["hyp"][0]["outputs"][0]["system"] == "hyp"


def test_module_is_callable() -> None:
    r = bleuprint.analysis.report(
        {"a": ["the cat sat"], "b": ["a cat sat"]}, [["the cat sat"]], n_bootstrap=20
    )
    assert r.data["systems"] == ["a", "b"]


def test_example_highlights_match_explain(example: Report) -> None:
    import bleuprint

    checked = 0
    for ex in example.data["examples"]["differences"]:
        for out in ex["outputs"]:
            assert len(out["levels"]) == len(out["tokens"])
            explained = bleuprint.explain(out["text"], ex["references"])
            # Highlighted tokens: as many as BLEU's clipped unigram matches.
            assert sum(1 for lv in out["levels"] if lv > 0) == explained.orders[0].matches
            assert out["explain_html"] == explained._repr_html_()
            checked += 1
    assert checked == 20


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"systems": {}}, InvalidInputError),
        ({"systems": {"a": ["x"]}}, InvalidInputError),
        ({"metrics": ["bleu", "meteor"]}, InvalidOptionError),
        ({"metrics": ["bleu", "bleu"]}, InvalidOptionError),
        ({"meta": {"genre": ["x"] * 20}}, InvalidOptionError),
        ({"meta": {"docid": ["x"]}}, InvalidInputError),
        ({"sources": ["x"]}, InvalidInputError),
        ({"n_bootstrap": 0}, InvalidOptionError),
    ],
)
def test_bad_inputs_name_the_fix(kwargs: dict[str, object], error: type[BleuprintError]) -> None:
    args: dict[str, object] = {"systems": SYSTEMS, "references": REFS, **kwargs}
    with pytest.raises(error):
        report(**args)  # type: ignore[arg-type]


def test_meta_tsv_and_train_vocab_readers() -> None:
    assert read_meta_tsv("docid\tx\toriglang\nd1\t0\ten\nd2\t1\tde\n") == {
        "docid": ["d1", "d2"],
        "origlang": ["en", "de"],
    }
    with pytest.raises(InvalidInputError):
        read_meta_tsv("docid\nd1\tmore\n")
    with pytest.raises(InvalidInputError):
        read_meta_tsv("nothing\n")
    assert read_train_counts("the\t10\ncat\t2\n") == {"the": 10, "cat": 2}
    assert read_train_counts("the cat.\nthe dog\n") == {"the": 2, "cat": 1, ".": 1, "dog": 1}


def test_train_vocab_moves_words_between_buckets() -> None:
    base = report(SYSTEMS, REFS, metrics=["bleu"], n_bootstrap=20)
    counts = {w: 5000 for w in "the a of".split()}
    trained = report(SYSTEMS, REFS, metrics=["bleu"], n_bootstrap=20, train_counts=counts)
    assert trained.data["word_accuracy"]["frequency_from"] == "training vocabulary"
    last = trained.data["word_accuracy"]["systems"]["hyp"][-1]  # >=1000
    assert last["ref_words"] > 0
    assert base.data["word_accuracy"]["systems"]["hyp"][-1]["ref_words"] == 0


def test_cli_writes_html_and_json(tmp_path: Path) -> None:
    meta = tmp_path / "meta.tsv"
    meta.write_text("docid\n" + "".join(f"{d}\n" for d in DOCS), encoding="utf-8")
    out, js = tmp_path / "r.html", tmp_path / "r.json"
    status = main(
        [
            "report",
            str(EXAMPLES / "ref.en"),
            str(EXAMPLES / "ref2.en"),
            "-i",
            str(EXAMPLES / "hyp.en"),
            str(EXAMPLES / "hyp2.en"),
            "--names",
            "A",
            "B",
            "--meta",
            str(meta),
            "-m",
            "bleu",
            "chrf",
            "-o",
            str(out),
            "--json",
            str(js),
        ]
    )
    assert status == 0
    page = out.read_text(encoding="utf-8")
    assert '<section id="metadata">' in page
    data = json.loads(js.read_text(encoding="utf-8"))
    assert data["metrics"] == ["BLEU", "chrF2"]
    assert (
        data["scores"]["rows"]["A"]["BLEU"]["score"]
        == sacrebleu.corpus_bleu(SYSTEMS["hyp"], REFS).score
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--names", "A", "B"], "--names gives 2 names for 1 systems"),
        (["-t", "wmt22"], "not both"),
    ],
)
def test_cli_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(
            [
                "report",
                str(EXAMPLES / "ref.en"),
                "-i",
                str(EXAMPLES / "hyp.en"),
                "-o",
                str(tmp_path / "x.html"),
                *extra,
            ]
        )
    assert exit_info.value.code != 0
    assert message in capsys.readouterr().err


def test_cli_input_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    short = tmp_path / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        main(["report", str(EXAMPLES / "ref.en"), "-i", str(short), "-o", str(tmp_path / "x.html")])
    assert exit_info.value.code != 0
    assert "needs 20 hypotheses" in capsys.readouterr().err
    assert not (tmp_path / "x.html").exists()


odd_text = st.one_of(
    st.sampled_from(["", " ", "\x00", "\ud800", "\u2028", "日本語"]), st.text(max_size=8)
)
odd_lines = st.one_of(
    st.lists(odd_text, min_size=1, max_size=3),
    st.lists(st.one_of(odd_text, st.integers(), st.none()), max_size=3),
    st.sets(st.text(max_size=2), max_size=2),
    st.just(iter(["a"])),
    odd_text,
    st.integers(),
    st.none(),
)


@settings(max_examples=60, deadline=None)
@given(
    systems=st.one_of(st.dictionaries(st.text(max_size=3), odd_lines, max_size=3), odd_lines),
    references=st.one_of(st.lists(odd_lines, max_size=2), odd_lines),
    metrics=st.one_of(
        st.lists(st.sampled_from(["bleu", "chrf", "ter", "x", 3]), max_size=3), odd_text
    ),
)
def test_hostile_inputs_raise_only_bleuprint_errors(
    systems: object, references: object, metrics: object
) -> None:
    try:
        report(systems, references, metrics=metrics, n_bootstrap=5)  # type: ignore[arg-type]
    except BleuprintError:
        pass


def test_sentence_scores_are_sacrebleus(example: Report) -> None:
    scatter = example.data["scatter"]
    assert scatter["metric"] == "chrF2"
    for name, points in zip((scatter["x"], scatter["y"]), scatter["points"]):
        hyps = SYSTEMS[name]
        expected = [
            sacrebleu.sentence_chrf(h, [r[i] for r in REFS]).score for i, h in enumerate(hyps)
        ]
        assert points == pytest.approx(expected, abs=1e-9)
    histogram = example.data["sentence_scores"]["metrics"]["BLEU"]["hyp"]
    assert sum(histogram) == len(REFS[0])


def test_cli_test_set_brings_sources_and_metadata(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bleuprint import testsets
    from bleuprint.testsets.api import TestSet

    def fake_get(name: str, pair: str, **_: object) -> TestSet:
        assert (name, pair) == ("wmtX", "en-en")
        return TestSet(
            name,
            pair,
            [f"source {i}" for i in range(20)],
            REFS,
            ("ref", "ref2"),
            (),
            docids=DOCS,
            origlangs=["en"] * 20,
            domains=["news"] * 5 + ["chat"] * 15,
        )  # the cache and download are the test sets' own tests

    monkeypatch.setattr(testsets, "get", fake_get)
    js = tmp_path / "r.json"
    status = main(["report", "-t", "wmtX", "-l", "en-en", "-i", str(EXAMPLES / "hyp.en"),
                   str(EXAMPLES / "hyp2.en"), "-o", "-", "--json", str(js)])  # fmt: skip
    assert status == 0
    data = json.loads(js.read_text(encoding="utf-8"))
    assert set(data["metadata"]) == {"docid", "origlang", "domain"}
    assert [r["group"] for r in data["metadata"]["domain"]["rows"]] == ["chat", "news"]
    assert data["examples"]["differences"][0]["source"].startswith("source ")
    assert data["test_set"] == "wmtX en-en"


def test_missing_matplotlib_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    r = report({"a": ["the cat sat"]}, [["the cat sat"]], n_bootstrap=10)
    assert json.loads(r.to_json())["systems"] == ["a"]  # JSON needs no matplotlib
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # import now fails
    with pytest.raises(BleuprintError, match=r"bleuprint\[report\]"):
        r.to_html()


def test_cli_source_and_train_vocab(tmp_path: Path) -> None:
    src = tmp_path / "src.txt"
    src.write_text("".join(f"Quelle {i}\n" for i in range(20)), encoding="utf-8")
    vocab = tmp_path / "vocab.tsv"
    vocab.write_text("the\t5000\nof\t3000\n", encoding="utf-8")
    js = tmp_path / "r.json"
    status = main(["report", str(EXAMPLES / "ref.en"), "-i", str(EXAMPLES / "hyp.en"),
                   str(EXAMPLES / "hyp2.en"), "--src", str(src), "--train-vocab", str(vocab),
                   "-m", "chrf", "--n-bootstrap", "50", "-o", "-", "--json", str(js)])  # fmt: skip
    assert status == 0
    data = json.loads(js.read_text(encoding="utf-8"))
    assert data["word_accuracy"]["frequency_from"] == "training vocabulary"
    assert data["examples"]["worst"]["hyp.en"][0]["source"].startswith("Quelle ")
    assert data["n_bootstrap"] == 50


def test_docstring_example_runs() -> None:
    import doctest

    failures, tried = doctest.testmod(bleuprint.analysis.report)
    assert tried > 0
    assert failures == 0


def test_rouge_in_a_report_is_its_mean_of_sentence_scores() -> None:
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])
    made = report(SYSTEMS, REFS, metrics=["rouge", "bleu"], n_bootstrap=50)
    rows = made.data["scores"]["rows"]
    for name, hyps in SYSTEMS.items():
        best = [scorer.score_multi([r[i] for r in REFS], h) for i, h in enumerate(hyps)]
        mean = sum(s["rouge1"].fmeasure for s in best) / len(best)
        assert rows[name]["rouge1"]["score"] == pytest.approx(100 * mean, rel=1e-12)
    assert "rouge1" in made.to_html()
