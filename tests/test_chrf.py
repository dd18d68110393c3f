"""chrF and chrF++: sacrebleu.md §3.1 and §7.2 vectors, signatures, statistics and errors."""

from __future__ import annotations

import numpy as np
import pytest

import bleuprint
from bleuprint import CHRF, InvalidOptionError, ReferenceLayoutError, Stats

# sacrebleu's README data (sacrebleu.md §7.2 "Verified on the README data").
HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
]


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, 59.72751782684763),
        ({"word_order": 2}, 59.15310444399262),
        ({"word_order": 1}, 60.838258037247364),
        ({"eps_smoothing": True}, 59.72734693786311),
        ({"whitespace": True}, 65.8764867358276),
        ({"lowercase": True}, 60.02302725455764),
        ({"beta": 3}, 59.97018342124192),
        ({"char_order": 4, "word_order": 2, "beta": 1}, 63.228338714793374),
    ],
)
def test_readme_vectors(options, expected):
    assert CHRF(**options).corpus_score(HYPS, REFS).score == expected


def test_readme_vectors_first_reference_only():
    assert CHRF().corpus_score(HYPS, REFS[:1]).score == 50.043063606582294
    assert CHRF(word_order=2).corpus_score(HYPS, REFS[:1]).score == 51.7309698503746


def test_sentence_vectors():
    hyp, ref = "The cat sat on the mat.", ["The cat is on the mat."]
    assert bleuprint.sentence_chrf(hyp, ref).score == 67.17273492330233
    assert bleuprint.sentence_chrf(hyp, ref, word_order=2).score == 69.43695278069349


def test_chrf_plus_plus_statistics():
    # sacrebleu.md §3.1 (verified).
    stats = CHRF(word_order=2).stats(["(hi) there."], [["hi there!"]])
    assert stats.rows.tolist() == [
        [10, 8, 7, 9, 7, 5, 8, 6, 3, 7, 5, 2, 6, 4, 1, 5, 3, 0, 4, 3, 1, 3, 2, 0]
    ]
    assert stats.column_names[:3] == ("char1_hyp", "char1_ref", "char1_match")
    assert stats.column_names[-1] == "word2_match"


# test_chrf.py of sacrebleu: corpus_chrf(h, [r], beta=3); 4 decimals there.
EPS_SMOOTHING_VECTORS = [
    ("abcdefg", "hijklmnop", 0.0),
    ("a", "b", 0.0),
    ("", "b", 0.0),
    ("", "ref", 0.0),
    ("", "reference", 0.0),
    ("aa", "ab", 8.3333),
    ("a", "a", 16.6667),
    ("a b c", "a b c", 50.0),
    ("a b c", "abc", 50.0),
    (
        " risk assessment must be made of those who are qualified and expertise in the sector - "
        "these are the scientists .",
        "risk assessment has to be undertaken by those who are qualified and expert in that area"
        " - that is the scientists .",
        63.361730,
    ),
    (
        " Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. ",
        "Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich.",
        64.1302698,
    ),
]


@pytest.mark.parametrize(("hyp", "ref", "expected"), EPS_SMOOTHING_VECTORS)
def test_eps_smoothing_vectors(hyp, ref, expected):
    score = bleuprint.corpus_chrf([hyp], [[ref]], beta=3, eps_smoothing=True).score
    assert score == pytest.approx(expected, abs=1e-4)


def test_eps_smoothing_corpus_vector():
    score = bleuprint.corpus_chrf(["a", "b"], [["a", "c"]], beta=3, eps_smoothing=True)
    assert score.score == pytest.approx(8.3333, abs=1e-4)


@pytest.mark.parametrize(
    ("hyp", "ref", "expected"),
    [
        ("a", "a", 100.0),
        ("", "reference", 0.0),
        ("a b c", "a b c", 100.0),
        ("a b c", "abc", 100.0),
        ("", "c", 0.0),
        ("aa", "ab", 25.0),
    ],
)
def test_effective_order_vectors(hyp, ref, expected):
    assert bleuprint.corpus_chrf([hyp], [[ref]], beta=3).score == pytest.approx(expected, abs=1e-4)
    assert bleuprint.corpus_chrf(["a", "b"], [["a", "c"]], beta=3).score == pytest.approx(50.0)


def test_keep_whitespace_vectors():
    hyp = "Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich."
    ref = "Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."
    score = bleuprint.corpus_chrf([hyp], [[ref]], beta=3, remove_whitespace=False).score
    assert score == pytest.approx(67.3481606, abs=1e-4)


def test_empty_hypothesis_and_reference():
    assert bleuprint.sentence_chrf("", [""], eps_smoothing=True).score == 1.0000000000000002e-14
    assert bleuprint.sentence_chrf("", [""]).score == 0.0


def test_names_and_signatures():
    chrf = CHRF()
    assert chrf.corpus_score(HYPS, REFS).name == "chrF2"
    assert chrf.get_signature().format() == (
        f"nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:bleuprint-{bleuprint.__version__}"
    )
    assert chrf.get_signature().format(short=True).startswith("#:2|c:mixed|e:yes|nc:6|nw:0|s:no|v:")
    plus = CHRF(word_order=2, beta=3, lowercase=True, whitespace=True, eps_smoothing=True)
    assert plus.corpus_score(HYPS, REFS).name == "chrF3++"
    assert plus.get_signature().format().startswith("nrefs:2|case:lc|eff:no|nc:6|nw:2|space:yes|")
    text = str(chrf.corpus_score(HYPS, REFS))
    assert text == "chrF2 = 59.73"


def test_cached_references_and_variable_counts():
    cached = CHRF(references=REFS)
    assert cached.corpus_score(HYPS).score == CHRF().corpus_score(HYPS, REFS).score
    refs = [REFS[0], [REFS[1][0], None, REFS[1][2]]]
    chrf = CHRF()
    chrf.corpus_score(HYPS, refs)
    assert chrf.get_signature().format().startswith("nrefs:var|")


def test_sentence_scores_equal_sentence_score_and_stats_merge():
    chrf = CHRF(word_order=2)
    batch = chrf.sentence_scores(HYPS, REFS)
    single = [chrf.sentence_score(h, [r[i] for r in REFS]).score for i, h in enumerate(HYPS)]
    assert batch.tolist() == single
    stats = chrf.stats(HYPS, REFS)
    merged = stats[:1] + stats[1:]
    assert merged == stats
    assert merged.score().score == chrf.corpus_score(HYPS, REFS).score
    with pytest.raises(bleuprint.StatsMismatchError):
        stats + CHRF().stats(HYPS, REFS)


def test_saved_statistics_restore_the_config(tmp_path):
    stats = CHRF(word_order=2, beta=1).stats(HYPS, REFS)
    stats.save(tmp_path / "chrf.npz")
    loaded = Stats.load(tmp_path / "chrf.npz")
    assert loaded == stats
    assert loaded.score().score == stats.score().score


def test_workers_do_not_change_results():
    hyps = [f"{h} {i}" for i in range(300) for h in HYPS]
    refs = [[f"{r} {i % 7}" for i in range(300) for r in REFS[0]]]
    rows = [CHRF(word_order=2, workers=w).stats(hyps, refs).rows for w in (1, 2, -1)]
    assert np.array_equal(rows[0], rows[1])
    assert np.array_equal(rows[0], rows[2])


@pytest.mark.parametrize(
    "options",
    [{"char_order": -1}, {"char_order": 0, "word_order": 0}, {"beta": -1}, {"beta": "2"}],
)
def test_bad_options(options):
    with pytest.raises(InvalidOptionError):
        CHRF(**options)


def test_bad_input_is_named():
    with pytest.raises(ReferenceLayoutError, match="references=\\[refs\\]"):
        CHRF().corpus_score(HYPS, REFS[0])
    with pytest.raises(bleuprint.InvalidInputError, match="stream 0 has 2 segments"):
        CHRF().corpus_score(HYPS, [REFS[0][:2]])
    with pytest.raises(TypeError, match=r"hypotheses\[1\]"):
        CHRF().corpus_score(["a", 3, "b"], REFS)
    with pytest.raises(bleuprint.InvalidInputError, match="segment 0 has no references"):
        CHRF().corpus_score(["a"], [[None]])
    with pytest.raises(InvalidOptionError, match="no references"):
        CHRF().corpus_score(HYPS)
