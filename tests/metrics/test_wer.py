"""The native WER/CER API: values, options, signatures, statistics, alignments and errors. jiwer's
published values are golden vectors in tests/data/golden_jiwer.jsonl (test_golden.py)."""

from __future__ import annotations

import doctest
import math
import re

import numpy as np
import pytest

import bleuprint.metrics.functional_wer
from bleuprint.errors import InvalidInputError, InvalidOptionError, ReferenceLayoutError
from bleuprint.metrics.functional_wer import (
    corpus_cer,
    corpus_mer,
    corpus_wer,
    corpus_wil,
    corpus_wip,
    sentence_cer,
    sentence_wer,
)
from bleuprint.metrics.stats import Stats
from bleuprint.metrics.wer import CER, WER, WERConfig, WERScore
from tests.support.data import DOCS
from tests.support.golden import Vector, params

DOC_REFS = ["short one here", "quite a bit of longer sentence"]
DOC_HYPS = ["shoe order one", "quite bit of an even longest sentence here"]


def test_jiwer_documentation_example():
    score = corpus_wer(DOC_HYPS, [DOC_REFS])
    assert score.score == 100 * score.wer
    assert (score.ref_words, score.hyp_words, score.errors) == (9, 11, 8)
    assert str(score) == "WER = 88.89"


@pytest.mark.parametrize("vector", params("jiwer", unit="words"))
def test_measures(vector: Vector) -> None:
    hyps, refs = vector["hypotheses"], vector["references"]
    score = corpus_wer(hyps, [refs])
    assert corpus_mer(hyps, [refs]).score == 100 * score.mer
    assert corpus_wil(hyps, [refs]).score == 100 * score.wil
    assert corpus_wip(hyps, [refs]).score == 100 * score.wip
    assert corpus_mer(hyps, [refs]).name == "MER"


def test_cer_vectors():
    score = corpus_cer(["i kan cpell", "i hop"], [["i can spell", "i hope"]])
    assert score.cer == score.wer
    assert score.name == "CER"
    # Spaces are characters.
    assert sentence_cer("abcd", ["ab cd"]).cer == corpus_cer(["abcd"], [["ab cd"]]).cer


def test_empty_references_always_give_floats():
    cases = [
        ([""], [""], (0.0, 0.0, 0.0, 1.0)),
        (["a b"], [""], (1.0, 1.0, 1.0, 0.0)),
        (["a b", ""], ["", " "], (1.0, 1.0, 1.0, 0.0)),
        (["", ""], ["\t", "  "], (0.0, 0.0, 0.0, 1.0)),
    ]
    for hyps, refs, expected in cases:
        score = corpus_wer(hyps, [refs])
        values = (score.wer, score.mer, score.wil, score.wip)
        assert values == expected
        assert all(type(v) is float for v in values), values
        assert type(score.score) is float
    assert corpus_wer(["a b"], [[""]]).score == 100.0
    assert corpus_wer([""], [["a b"]]).wer == 1.0
    assert corpus_wer([], [[]]).score == 0.0


def test_sentence_scores_match_sentence_score():
    hyps = ["the cat sat", "", "a b c", "x"]
    refs = ["the cat sat down", "a", "", "x"]
    metric = WER()
    batch = metric.sentence_scores(hyps, [refs])
    assert batch.dtype == np.float64
    for i, (h, r) in enumerate(zip(hyps, refs)):
        assert batch[i] == metric.sentence_score(h, [r]).score == sentence_wer(h, [r]).score
    assert batch.tolist() == [25.0, 100.0, 100.0, 0.0]


def test_several_references_pick_the_fewest_edits_first_on_ties():
    hyps = ["a b c", "x y", "p q"]
    streams = [["a b d", "x z", "p q r"], ["a b c", None, "p s"], ["a b", "x w", "p q"]]
    metric = WER()
    aligned = metric.align(hyps, streams)
    assert [s.reference_index for s in aligned] == [1, 0, 2]
    stats = metric.stats(hyps, streams)
    assert stats.nrefs == -1
    assert stats.rows.tolist() == [
        [0, 0, 0, 3, 3, 3],
        [1, 0, 0, 1, 2, 2],
        [0, 0, 0, 2, 2, 2],
    ]
    assert metric.get_signature().format().startswith("nrefs:var|unit:word|")
    # Ties (one edit each against "p q r" and "p s"): the first stream wins.
    assert metric.align(["p q"], [["p q r"], ["p s"]])[0].reference_index == 0
    assert metric.get_signature().format().startswith("nrefs:2|")


def test_signatures():
    metric = WER()
    with pytest.raises(ValueError, match="evaluate the metric first"):
        metric.get_signature()
    metric.corpus_score(["a"], [["a"], ["b"]])
    version = metric.get_signature().info["version"]
    assert str(metric.get_signature()) == (
        f"nrefs:2|unit:word|transform:default|case:mixed|version:{version}"
    )
    assert metric.get_signature().format(short=True) == (
        f"#:2|u:word|tr:default|c:mixed|v:{version}"
    )
    cer = CER(remove_punctuation=True)
    cer.corpus_score(["a"], [["a"]])
    assert str(cer.get_signature()) == (
        f"nrefs:1|unit:char|transform:default|case:mixed|punct:removed|version:{version}"
    )
    std = WER(transform="standardize")
    std.corpus_score(["a"], [["a"]])
    assert str(std.get_signature()) == (
        "nrefs:1|unit:word|transform:standardize|case:lc|contractions:expanded|kaldi:removed|"
        f"version:{version}"
    )
    score = metric.corpus_score(["a b"], [["a c"]])
    assert score.format(signature=str(metric.get_signature())) == (
        f"WER|nrefs:1|unit:word|transform:default|case:mixed|version:{version} = 50.00"
    )


def test_options():
    hyps = ["i am FINE, thanks"]
    refs = [["I'm fine thanks [noise]"]]
    assert corpus_wer(hyps, refs).wer == 1.0
    assert corpus_wer(hyps, refs, transform="standardize").wer == 0.25
    assert corpus_wer(hyps, refs, transform="standardize", remove_punctuation=True).wer == 0.0
    assert corpus_wer(["Hello"], [["hello"]], lowercase=True).wer == 0.0
    assert corpus_wer(["a b"], [["a, b!"]], remove_punctuation=True).wer == 0.0
    assert corpus_wer(["let us go"], [["let's go"]], expand_contractions=True).wer == 0.0
    assert (
        corpus_wer(["you like"], [["you <unk> like [laugh]"]], remove_kaldi_non_words=True).wer == 0
    )
    # standardize turns tabs into spaces; the default keeps a lone tab inside a word.
    assert corpus_wer(["a b"], [["a\tb"]], transform="standardize").wer == 0.0
    assert corpus_wer(["a b"], [["a\tb"]]).wer == 2.0
    # "none": split on single spaces only, keep every character.
    assert corpus_wer(["a b"], [["a  b "]], transform="none").wer == 0.0
    assert corpus_wer(["a\nb"], [["a b"]], transform="none").wer == 1.0
    assert corpus_cer(["a"], [[" a "]], transform="none").deletions == 2
    assert corpus_cer(["a"], [[" a "]]).cer == 0.0
    config = WERConfig(transform="standardize")
    assert config == WERConfig(transform="standardize", lowercase=True)
    assert config.lowercase
    assert config.expand_contractions
    assert config.remove_kaldi_non_words


def test_cer_counts_are_symmetric_under_swap():
    a = ["the quick brown fox", "", "日本語のテキスト", "ab  cd"]
    b = ["teh quick brwn fox!", "xyz", "日本のテキストです", "abcd"]
    ab = CER().stats(a, [b]).rows
    ba = CER().stats(b, [a]).rows
    errors = lambda rows: rows[:, 0] + rows[:, 1] + rows[:, 2]  # noqa: E731
    assert errors(ab).tolist() == errors(ba).tolist()
    assert ab[:, 4].tolist() == ba[:, 5].tolist()
    assert ab[:, 5].tolist() == ba[:, 4].tolist()


def test_unsegmented_chinese_is_one_word_and_many_characters():
    # jiwer's behaviour (issue #52): WER sees one word; CER is the measure for such text.
    assert corpus_wer(["我喜欢猫"], [["我喜欢狗"]]).wer == 1.0
    assert corpus_cer(["我喜欢猫"], [["我喜欢狗"]]).cer == 0.25


def test_stats_merge_save_load(tmp_path):
    metric = WER()
    whole = metric.stats(DOC_HYPS, [DOC_REFS])
    left = metric.stats(DOC_HYPS[:1], [DOC_REFS[:1]])
    right = metric.stats(DOC_HYPS[1:], [DOC_REFS[1:]])
    merged = left + right
    assert merged == whole
    assert merged.score().wer == corpus_wer(DOC_HYPS, [DOC_REFS]).wer
    columns = "substitutions deletions insertions hits ref_words hyp_words"
    assert whole.column_names == tuple(columns.split())
    path = tmp_path / "wer.npz"
    whole.save(path)
    loaded = Stats.load(path)
    assert loaded == whole
    assert loaded.config == WERConfig()
    assert [r.score for r in whole.sentence_results()] == whole.sentence_scores().tolist()
    with pytest.raises(ValueError, match="different configurations"):
        _ = whole + CER().stats(DOC_HYPS, [DOC_REFS])
    assert isinstance(whole.score(), WERScore)


def test_reference_cache_and_workers():
    hyps = [f"w{i % 7} x y{i % 3} z" for i in range(300)]
    refs = [f"x w{i % 5} z y{i % 2}" for i in range(300)]
    cached = CER(references=[refs])
    serial = CER(workers=1).stats(hyps, [refs])
    assert cached.stats(hyps).rows.tolist() == serial.rows.tolist()
    assert CER(workers=2).stats(hyps, [refs]).rows.tolist() == serial.rows.tolist()
    assert WER(lowercase=True, references=[["A B"]]).corpus_score(["a b"]).wer == 0.0


def test_alignment_view():
    aligned = WER().align(DOC_HYPS, [DOC_REFS])
    assert len(aligned) == 2
    first = aligned[0]
    assert first.reference == ["short", "one", "here"]
    assert first.hypothesis == ["shoe", "order", "one"]
    assert [(o.type, o.ref_start, o.ref_end, o.hyp_start, o.hyp_end) for o in first.ops] == [
        ("insert", 0, 0, 0, 1),
        ("substitute", 0, 1, 1, 2),
        ("equal", 1, 2, 2, 3),
        ("delete", 2, 3, 3, 3),
    ]
    assert first.visualize() == (
        "REF: **** short one here\nHYP: shoe order one ****\n        I     S        D\n"
    )
    assert aligned.score.wer == corpus_wer(DOC_HYPS, [DOC_REFS]).wer
    expected = """=== SENTENCE 1 ===

REF: **** short one here
HYP: shoe order one ****
        I     S        D

=== SENTENCE 2 ===

REF: quite a bit of ** ****  longer sentence ****
HYP: quite * bit of an even longest sentence here
           D         I    I       S             I

=== SUMMARY ===
number of sentences: 2
substitutions=2 deletions=2 insertions=4 hits=5

mer=61.54%
wil=74.75%
wip=25.25%
wer=88.89%
"""
    assert aligned.visualize() == expected
    assert aligned.visualize(show_measures=False) == expected.split("=== SUMMARY")[0][:-1]
    chars = CER().align(["i kan cpell", "i hop"], [["i can spell", "i hope"]])
    assert chars.visualize().endswith("hits=14\n\ncer=17.65%\n")
    assert "REF: i hope\nHYP: i hop*\n          D\n" in chars.visualize()
    correct = WER().align(["same"], [["same"]])
    assert correct.visualize(show_measures=False) == ""
    assert correct.visualize(skip_correct=False, show_measures=False) == (
        "=== SENTENCE 1 ===\n\nREF: same\nHYP: same\n         \n"
    )


def test_errors_are_clear():
    metric = WER()
    with pytest.raises(
        InvalidInputError, match="reference stream 0 has 1 segments but there are 2"
    ):
        metric.corpus_score(["a", "b"], [["a"]])
    with pytest.raises(ReferenceLayoutError, match="flat list of strings"):
        metric.corpus_score(["a", "b"], ["a", "b"])
    with pytest.raises(TypeError, match=r"hypotheses\[1\] must be str, got int"):
        metric.corpus_score(["a", 3], [["a", "b"]])
    with pytest.raises(TypeError, match=r"references\[0\]\[0\] must be str or None, got bytes"):
        metric.corpus_score(["a"], [[b"a"]])
    with pytest.raises(TypeError, match=r"hypotheses\[0\] must be str, got int"):
        WER(lowercase=True).corpus_score([1], [["a"]])
    with pytest.raises(TypeError, match="single str"):
        metric.corpus_score("a b", [["a b"]])
    with pytest.raises(InvalidInputError, match="segment 0 has no references"):
        metric.corpus_score(["a"], [[None]])
    # A normalizer counts 8,192 segments at a time; the error names the segment in the input.
    references: list[str | None] = ["a b"] * 9000
    references[8500] = None
    with pytest.raises(InvalidInputError, match="segment 8500 has no references"):
        WER(normalizer="whisper-basic").corpus_score(["a b c"] * 9000, [references])
    with pytest.raises(InvalidInputError, match="at least one reference stream"):
        metric.corpus_score(["a"], [])
    with pytest.raises(InvalidOptionError, match="no references"):
        metric.corpus_score(["a"])
    with pytest.raises(InvalidOptionError, match="unknown unit"):
        WER(unit="words")
    with pytest.raises(InvalidOptionError, match="unknown transform"):
        WER(transform="lower")
    with pytest.raises(InvalidOptionError, match="lowercase must be True or False"):
        WER(lowercase="yes")
    with pytest.raises(InvalidOptionError, match="workers"):
        WER(workers=0).corpus_score(["a"], [["a"]])
    with pytest.raises(ReferenceLayoutError, match="list of reference strings"):
        metric.sentence_score("a", "a")
    with pytest.raises(TypeError, match="hypothesis must be a str"):
        metric.sentence_score(["a"], ["a"])


def test_score_rows_equal_scored_rows():
    rows = np.array(
        [[1, 0, 2, 3, 4, 6], [0, 0, 3, 0, 0, 3], [0, 0, 0, 0, 0, 0], [2, 1, 0, 0, 3, 2]],
        dtype=np.int64,
    )
    config = WERConfig()
    assert (
        config.score_rows(rows).tolist()
        == [config.score_row(r).score for r in rows]
        == [75.0, 100.0, 0.0, 100.0]
    )
    assert all(math.isfinite(v) for v in config.score_rows(rows))


def test_docstring_examples():
    failures, tried = doctest.testmod(bleuprint.metrics.functional_wer)
    assert tried > 0
    assert failures == 0


def test_docs_examples_run_and_print_what_they_claim(capsys):
    doc = DOCS / "wer.md"
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), flags=re.S)
    assert blocks
    namespace: dict = {}
    for block in blocks:  # later blocks reuse earlier names, as a reader would
        exec(compile(block, str(doc), "exec"), namespace)  # the examples assert their claims
        printed = capsys.readouterr().out.splitlines()
        comments = block.split("print(", 1)[1].splitlines()[1:] if "print(" in block else []
        expected = []
        for line in comments:
            if not line.startswith("# "):
                break
            expected.append(line[2:])
        assert printed == expected


def test_compat_exports_what_jiwer_exports():
    jiwer = pytest.importorskip("jiwer")
    import bleuprint.compat.jiwer as bj

    names = set()
    for module in ("measures", "process", "transforms", "transformations", "alignment"):
        names |= set(__import__(f"jiwer.{module}", fromlist=["__all__"]).__all__)
    assert names == set(bj.__all__)
    assert all(hasattr(bj, name) for name in jiwer.__dict__ if name in names)
