"""TER through the public API: signatures, statistics, errors. sacrebleu's published vectors
(sacrebleu.md §3.2, §7.3) are golden vectors in tests/data/golden_ter.jsonl (test_golden.py)."""

from __future__ import annotations

import numpy as np
import pytest

import bleuprint
from bleuprint import TER, Stats

HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
]


def test_signatures():
    ter = TER()
    ter.corpus_score(HYPS, REFS)
    v = bleuprint.__version__
    assert ter.get_signature().format() == (
        f"nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:bleuprint-{v}"
    )
    assert ter.get_signature().format(short=True) == (
        f"#:2|c:lc|t:tercom|nr:no|pn:yes|as:no|v:bleuprint-{v}"
    )
    flags = TER(normalized=True, no_punct=True, asian_support=True, case_sensitive=True)
    flags.corpus_score(HYPS, REFS)
    assert "|case:mixed|tok:tercom|norm:yes|punct:no|asian:yes|" in flags.get_signature().format()


def test_statistics_are_integers_and_score_in_segment_order():
    ter = TER()
    stats = ter.stats(HYPS, REFS)
    assert stats.column_names == ("edits", "ref_words", "nrefs")
    assert stats.rows.dtype == np.int64
    assert stats.rows[:, 2].tolist() == [2, 2, 2]
    # The corpus score adds the per-segment average lengths left to right, as sacrebleu does.
    lengths = [total / k for _, total, k in stats.rows.tolist()]
    total = 0
    for x in lengths:
        total += x
    assert stats.score().ref_length == total
    merged = stats[:2] + stats[2:]
    assert merged.score().score == ter.corpus_score(HYPS, REFS).score
    assert ter.sentence_scores(HYPS, REFS).tolist() == [
        ter.sentence_score(h, [r[i] for r in REFS]).score for i, h in enumerate(HYPS)
    ]


def test_saved_statistics_restore_the_config(tmp_path):
    stats = TER(normalized=True).stats(HYPS, REFS)
    stats.save(tmp_path / "ter.npz")
    loaded = Stats.load(tmp_path / "ter.npz")
    assert loaded == stats
    assert loaded.score().score == stats.score().score
    with pytest.raises(bleuprint.StatsMismatchError):
        stats + TER().stats(HYPS, REFS)


def test_variable_reference_counts_and_cached_references():
    refs = [REFS[0], [REFS[1][0], None, ""]]
    ter = TER()
    score = ter.corpus_score(HYPS, refs)
    assert ter.get_signature().format().startswith("nrefs:var|")
    assert TER(references=refs).corpus_score(HYPS).score == score.score


def test_empty_corpus_and_empty_references():
    assert TER().corpus_score([], [[]]).score == 0.0
    assert TER().corpus_score(["a b", ""], [["", ""]]).score == 100.0
    assert TER().corpus_score(["", ""], [["", ""]]).score == 0.0


def test_workers_do_not_change_results():
    hyps = [f"{h} {i % 5} {h}" for i in range(200) for h in HYPS]
    refs = [[f"{r} {i % 3}" for i in range(200) for r in REFS[0]]]
    rows = [TER(workers=w).stats(hyps, refs).rows for w in (1, 2, -1)]
    assert np.array_equal(rows[0], rows[1])
    assert np.array_equal(rows[0], rows[2])


def test_bad_input_is_named():
    with pytest.raises(bleuprint.ReferenceLayoutError):
        TER().corpus_score(HYPS, REFS[0])
    with pytest.raises(bleuprint.InvalidInputError, match="stream 1 has 2 segments"):
        TER().corpus_score(HYPS, [REFS[0], REFS[1][:2]])
    with pytest.raises(TypeError, match=r"references\[0\]\[1\]"):
        TER().corpus_score(HYPS, [["a", 1, "b"]])
    with pytest.raises(bleuprint.InvalidInputError, match="segment 1 has no references"):
        TER().corpus_score(["a", "b"], [["a", None]])
