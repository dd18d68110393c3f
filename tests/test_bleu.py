"""BLEU statistics and scoring, tested separately (as sacrebleu's own suite does).

Expected values are the verified vectors of ../shared/reference/sacrebleu.md §7.1 (written
here as literals) and, where sacrebleu is installed, live comparisons with `==`.
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


@pytest.mark.parametrize(
    ("hyp", "refs", "counts", "totals"),
    [
        # The issue's clipping examples.
        (
            "the the the the the the the",
            ["the cat is on the mat", "there is a cat on the mat"],
            [2, 0, 0, 0],
            [7, 6, 5, 4],
        ),
        (
            "the cat the cat on the mat",
            ["the cat is on the mat", "there is a cat on the mat"],
            [5, 4, 2, 1],
            [7, 6, 5, 4],
        ),
        # sacrebleu test_bleu.py test_statistics.
        (
            "am I am a character sequence",
            ["I am a symbol string sequence a a"],
            [4, 2, 1, 0],
            [6, 5, 4, 3],
        ),
        ("the the the the", ["the cat", "the the dog"], [2, 1, 0, 0], [4, 3, 2, 1]),
    ],
)
def test_statistics(hyp, refs, counts, totals):
    stats = BLEU(tokenize="none").stats([hyp], [[r] for r in refs])
    row = stats.rows[0].tolist()
    assert row[2:6] == counts
    assert row[6:10] == totals


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


def test_compute_bleu_vectors():
    s = BLEU.compute_bleu([9, 7, 5, 3], [10, 8, 6, 4], 11, 11)
    assert s.score / 100 == pytest.approx(0.8375922397, abs=1e-10)
    for args in [
        ([0] * 4, [4, 4, 2, 1], 0, 1),
        ([0] * 4, [10, 11, 12, 0], 14, 10),
        ([0] * 4, [0] * 4, 0, 0),
    ]:
        assert BLEU.compute_bleu(*args, smooth_method="floor", smooth_value=0.1).score == 0.0
    assert (
        BLEU.compute_bleu(
            [6, 5, 4, 0], [6, 5, 4, 3], 6, 6, smooth_method="floor", smooth_value=0.0
        ).score
        == 0.0
    )


def test_perfect_match_is_100_point_00000000000004():
    assert bleuprint.corpus_bleu(["a b c d e"], [["a b c d e"]]).score == 100.00000000000004


def test_add_k_counts_include_k_as_sacrebleu_reports_them():
    s = BLEU(tokenize="none", smooth_method="add-k", smooth_value=0.5).corpus_score(
        ["a b c"], [["a b d"]]
    )
    assert s.counts == [2, 1.5, 0.5, 0.5]
    assert s.totals == [3, 2.5, 1.5, 0.5]
    s = BLEU(smooth_method="add-k").corpus_score(["a b c"], [["a b d"]])
    assert s.counts == [2, 2, 1, 1]
    assert all(isinstance(c, int) for c in s.counts)


# --- README data (sacrebleu.md §7.1) --------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({}, 48.530827),
        ({"tokenize": "13a"}, 48.530827),
        ({"smooth_method": "none"}, 48.530827),
        ({"lowercase": True}, 48.530827),
        ({"smooth_method": "floor"}, 48.530827),
        ({"use_effective_order": True}, 48.530827),
        ({"tokenize": "none"}, 49.1919566),
        ({"tokenize": "intl"}, 43.91623493),
        ({"tokenize": "char"}, 72.61),
        ({"smooth_method": "add-k"}, 52.70),
    ],
)
def test_readme_corpus_scores(kwargs, expected):
    s = bleuprint.corpus_bleu(HYPS, REFS, **kwargs)
    assert s.score == pytest.approx(expected, abs=5e-3 if expected in (72.61, 52.70) else 1e-6)


def test_readme_text_form():
    s = bleuprint.corpus_bleu(HYPS, REFS)
    assert (
        str(s)
        == "BLEU = 48.53 82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)"
    )


def test_readme_variants():
    assert bleuprint.corpus_bleu(["", "", ""], REFS).score == 0.0
    one = bleuprint.corpus_bleu(HYPS, REFS[:1])
    assert (
        one.format()
        == "BLEU = 45.07 70.6/42.9/36.4/37.5 (BP = 1.000 ratio = 1.000 hyp_len = 17 ref_len = 17)"
    )
    assert bleuprint.corpus_bleu(HYPS, REFS[1:]).format(width=2).startswith("BLEU = 28.33")
    for blank in ("", None):
        refs = [[blank, *REFS[0][1:]], REFS[1]]
        s = bleuprint.corpus_bleu(HYPS, refs)
        expected = "82.4/42.9/27.3/12.5 (BP = 0.889 ratio = 0.895 hyp_len = 17 ref_len = 19)"
        assert s.format() == f"BLEU = 29.44 {expected}"


@pytest.mark.parametrize(
    ("order", "expected"),
    list(enumerate(["77.65", "60.50", "53.93", "48.53", "46.14", "43.28"], 1)),
)
def test_max_ngram_order(order, expected):
    assert f"{BLEU(max_ngram_order=order).corpus_score(HYPS, REFS).score:.2f}" == expected


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

ISSUE_98_REF = "producţia de zahăr brut se exprimă în zahăr alb;"
ISSUE_98_SYS = "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"smooth_method": "exp"}, 8.493),
        ({"smooth_method": "none"}, 0.0),
        ({"smooth_method": "floor"}, 4.51688),
        ({"smooth_method": "floor", "smooth_value": 0.5}, 10.10),
        ({"smooth_method": "add-k"}, 14.882),
        ({"smooth_method": "add-k", "smooth_value": 2}, 21.389),
        ({"tokenize": "none"}, 7.347),
        ({"tokenize": "intl"}, 8.493),
        ({"tokenize": "char"}, 40.8759),
        ({"tokenize": "char", "lowercase": True}, 42.0267),
    ],
)
def test_sentence_bleu_issue_98(kwargs, expected):
    s = bleuprint.sentence_bleu(ISSUE_98_SYS, [ISSUE_98_REF], **kwargs)
    assert s.score == pytest.approx(expected, abs=1e-3)


def test_sentence_level_vectors():
    assert bleuprint.sentence_bleu(
        "The cat sat on the mat.", ["The cat is on the mat."]
    ).score == pytest.approx(48.89, abs=5e-3)
    two = bleuprint.sentence_bleu(
        "The cat sat on the mat.", ["The cat is on the mat.", "A cat sat on the mat."]
    )
    assert two.score == pytest.approx(88.01, abs=5e-3)
    for method in ("none", "floor", "add-k", "exp"):
        assert (
            bleuprint.sentence_bleu("this is a cat", ["okay thanks"], smooth_method=method).score
            == 0.0
        )


def test_sentence_score_warns_without_effective_order():
    with pytest.warns(bleuprint.BleuprintWarning, match="effective_order"):
        BLEU().sentence_score("a b", ["a b"])


@pytest.mark.parametrize(
    ("smooth", "eff", "expected"),
    [("exp", False, 0.0), ("exp", True, 36.79), ("add-k", False, 36.79)],
)
def test_short_hypothesis_effective_order(smooth, eff, expected):
    s = bleuprint.corpus_bleu(["test"], [["a test"]], smooth_method=smooth, use_effective_order=eff)
    assert s.score == pytest.approx(expected, abs=5e-3)


def test_raw_corpus_bleu():
    cases = [
        (["this is a test", "another test"], [["ref1", "ref2"]], 0.0),
        (["this is a test"], [["this is a test"]], 1.0),
        (["this is a fest"], [["this is a test"]], 0.223606797749979),
        (["test"], [["a test"]], 0.3678794411714425),
        (["a little test"], [["a test"]], 0.03218297948685433),
    ]
    for hyps, refs, expected in cases:
        assert bleuprint.raw_corpus_bleu(hyps, refs, 0.01).score / 100 == pytest.approx(
            expected, abs=1e-8
        )


def test_lowercase_and_case():
    assert bleuprint.corpus_bleu(["THE CAT"], [["the cat"]], lowercase=True).precisions == [
        100.0,
        100.0,
        0.0,
        0.0,
    ]
    assert bleuprint.corpus_bleu(["THE CAT"], [["the cat"]]).precisions == [0.0] * 4


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
