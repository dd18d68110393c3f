"""chrF and chrF++: signatures, statistics and errors. sacrebleu's published vectors (sacrebleu.md
§3.1 and §7.2) are golden vectors in tests/data/golden_chrf.jsonl, checked by test_golden.py."""

from __future__ import annotations

import numpy as np
import pytest

import bleuprint
from bleuprint import CHRF, InvalidOptionError, ReferenceLayoutError, Stats

# sacrebleu's README data.
HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
]


def test_chrf_plus_plus_column_names():
    stats = CHRF(word_order=2).stats(["(hi) there."], [["hi there!"]])
    assert stats.rows.shape == (1, 24)
    assert stats.column_names[:3] == ("char1_hyp", "char1_ref", "char1_match")
    assert stats.column_names[-1] == "word2_match"


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
