"""BLEU statistics and scoring, tested separately (as sacrebleu's own suite does).

sacrebleu's published vectors (sacrebleu.md §7.1) are golden vectors in
tests/data/golden_bleu.jsonl, checked by tests/metrics/test_golden.py; here, behaviour around
them and, where sacrebleu is installed, live comparisons with `==`.
"""

from __future__ import annotations

import warnings

import pytest

import bleuprint
from bleuprint import BLEU, BLEUConfig

HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
]


# --- statistics -------------------------------------------------------------------------


def test_the_the_unigram_and_cat_bigram_from_the_issue():
    refs = [["the cat is on the mat"], ["there is a cat on the mat"]]
    s = bleuprint.corpus_bleu(["the the the the the the the"], refs)
    assert (s.counts[0], s.totals[0]) == (2, 7)
    s = bleuprint.corpus_bleu(["the cat the cat on the mat"], refs)
    assert (s.counts[1], s.totals[1]) == (4, 6)


def test_closest_reference_length_ties_go_to_the_shorter():
    # hyp_len 5, refs of 4 and 6 tokens -> 4, in either order.
    for refs in (["a b c d", "a b c d e f"], ["a b c d e f", "a b c d"]):
        stats = BLEU(tokenize="none").stats(["a b c d e"], [[r] for r in refs])
        assert stats.rows[0, 1] == 4


def test_column_names_and_width():
    config = BLEUConfig(max_ngram_order=2)
    assert config.column_names == (
        "hyp_len",
        "ref_len",
        "correct_1",
        "correct_2",
        "total_1",
        "total_2",
    )
    assert BLEU(max_ngram_order=2).stats(["a b"], [["a b"]]).rows.shape == (1, 6)


# --- scoring from statistics ----------------------------------------------------------------


def test_add_k_counts_include_k_as_sacrebleu_reports_them():
    s = BLEU(tokenize="none", smooth_method="add-k", smooth_value=0.5).corpus_score(
        ["a b c"], [["a b d"]]
    )
    assert s.counts == [2, 1.5, 0.5, 0.5]
    assert s.totals == [3, 2.5, 1.5, 0.5]
    s = BLEU(smooth_method="add-k").corpus_score(["a b c"], [["a b d"]])
    assert s.counts == [2, 2, 1, 1]
    assert all(isinstance(c, int) for c in s.counts)


def test_signatures():
    bleu = BLEU()
    with pytest.raises(ValueError, match="evaluate the metric first"):
        bleu.get_signature()
    bleu.corpus_score(HYPS, REFS)
    version = f"bleuprint-{bleuprint.__version__}"
    assert (
        bleu.get_signature().format()
        == f"nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:{version}"
    )
    assert bleu.get_signature().format(short=True) == f"#:2|c:mixed|e:no|tok:13a|s:exp|v:{version}"
    bleu = BLEU(
        lowercase=True,
        tokenize="intl",
        smooth_method="floor",
        smooth_value=0.2,
        effective_order=True,
    )
    bleu.corpus_score(HYPS[:1], [REFS[0][:1]])
    assert str(bleu.get_signature()).startswith(
        "nrefs:1|case:lc|eff:yes|tok:intl|smooth:floor[0.20]|"
    )
    bleu = BLEU(smooth_method="add-k")
    bleu.corpus_score(HYPS, [[None, "a", "b"], REFS[1]])
    assert str(bleu.get_signature()).startswith(
        "nrefs:var|case:mixed|eff:no|tok:13a|smooth:add-k[1.00]|"
    )
    bleu = BLEU(smooth_method="floor")
    bleu.corpus_score(HYPS, [["", "a", "b"], REFS[1]])
    assert str(bleu.get_signature()).startswith(
        "nrefs:2|case:mixed|eff:no|tok:13a|smooth:floor[0.10]|"
    )


def test_json_form_carries_signature_items():
    import json

    bleu = BLEU()
    s = bleu.corpus_score(HYPS, REFS)
    doc = json.loads(s.format(width=1, signature=bleu.get_signature().format(), is_json=True))
    assert doc["name"] == "BLEU"
    assert doc["score"] == 48.5
    assert doc["nrefs"] == "2"
    assert doc["version"] == f"bleuprint-{bleuprint.__version__}"
    assert doc["verbose_score"].startswith("82.4/50.0/45.5/37.5")


# --- sentence level -------------------------------------------------------------------------


def test_sentence_score_warns_without_effective_order():
    with pytest.warns(bleuprint.BleuprintWarning, match="effective_order"):
        BLEU().sentence_score("a b", ["a b"])


def test_reference_cache_matches_explicit_references():
    cached = BLEU(references=REFS)
    assert cached.get_signature().info["nrefs"] == 2
    assert cached.corpus_score(HYPS).score == BLEU().corpus_score(HYPS, REFS).score
    lc = BLEU(references=[["THE DOG BIT THE MAN."] * 3], lowercase=True)
    assert lc.corpus_score(["the dog bit the man."] * 3).score == 100.00000000000004


# --- live comparisons with sacrebleu -----------------------------------------------------------


def _same(ours, theirs):
    assert ours.score == theirs.score
    assert ours.counts == theirs.counts
    assert ours.totals == theirs.totals
    assert ours.precisions == theirs.precisions
    assert ours.bp == theirs.bp
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert ours.format(width=4) == theirs.format(width=4)


@pytest.mark.differential
@pytest.mark.parametrize("tokenize", ["13a", "none", "intl", "char"])
@pytest.mark.parametrize(
    "smooth",
    [
        ("exp", None),
        ("none", None),
        ("floor", None),
        ("floor", 0.3),
        ("add-k", None),
        ("add-k", 0.5),
    ],
)
@pytest.mark.parametrize("effective_order", [False, True])
def test_against_sacrebleu_readme_data(tokenize, smooth, effective_order):
    sacrebleu = pytest.importorskip("sacrebleu")
    kwargs = {
        "tokenize": tokenize,
        "smooth_method": smooth[0],
        "smooth_value": smooth[1],
        "use_effective_order": effective_order,
    }
    _same(bleuprint.corpus_bleu(HYPS, REFS, **kwargs), sacrebleu.corpus_bleu(HYPS, REFS, **kwargs))
    for hyp, *refs in zip(HYPS, *REFS):
        with warnings.catch_warnings():
            # Sentence BLEU without effective order warns (sacrebleu logs the same advice).
            warnings.simplefilter("ignore", bleuprint.BleuprintWarning)
            ours = bleuprint.sentence_bleu(hyp, refs, **kwargs)
        _same(ours, sacrebleu.sentence_bleu(hyp, refs, **kwargs))
