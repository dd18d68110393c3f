"""Property tests: random corpora against sacrebleu, and the invariants of statistics."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleuprint
from bleuprint import BLEU, Stats
from tests.support.checks import assert_same_bleu
from tests.support.strategies import corpora

sacrebleu = pytest.importorskip("sacrebleu")

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


options = st.fixed_dictionaries(
    {
        "tokenize": st.sampled_from(["13a", "none", "intl", "char"]),
        "smooth_method": st.sampled_from(["exp", "none", "floor", "add-k"]),
        "lowercase": st.booleans(),
        "effective_order": st.booleans(),
        "max_ngram_order": st.integers(1, 6),
    }
)


@pytest.mark.differential
@SETTINGS
@given(corpus=corpora(), opts=options)
def test_corpus_score_equals_sacrebleu(corpus, opts):
    hyps, refs = corpus
    ours = BLEU(**opts, force=True)
    theirs = sacrebleu.BLEU(**opts, force=True)
    assert_same_bleu(ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs))
    assert ours.get_signature().info["nrefs"] == theirs.get_signature().info["nrefs"]


@pytest.mark.differential
@SETTINGS
@given(corpus=corpora(max_segments=6), opts=options)
def test_sentence_scores_equal_sacrebleu_sentence_score(corpus, opts):
    hyps, refs = corpus
    ours = BLEU(**opts, force=True)
    theirs = sacrebleu.BLEU(**opts, force=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", bleuprint.BleuprintWarning)
        batch = ours.sentence_scores(hyps, refs)
        for i, hyp in enumerate(hyps):
            seg_refs = [s[i] for s in refs]
            expected = theirs.sentence_score(hyp, seg_refs)
            assert_same_bleu(ours.sentence_score(hyp, seg_refs), expected)
            assert batch[i] == expected.score


@SETTINGS
@given(corpus=corpora(max_segments=20), cut=st.integers(0, 20), seed=st.integers(0, 2**32 - 1))
def test_shards_and_permutations(corpus, cut, seed):
    hyps, refs = corpus
    bleu = BLEU(force=True)
    whole = bleu.stats(hyps, refs)
    cut = min(cut, len(hyps))
    left = bleu.stats(hyps[:cut], [s[:cut] for s in refs])
    right = bleu.stats(hyps[cut:], [s[cut:] for s in refs])
    assert (left + right).rows.tolist() == whole.rows.tolist()
    assert (left + right).score().score == whole.score().score
    order = np.random.default_rng(seed).permutation(len(hyps))
    shuffled = bleu.stats([hyps[i] for i in order], [[s[i] for i in order] for s in refs])
    assert shuffled.score().score == whole.score().score
    assert isinstance(whole, Stats)


@settings(max_examples=15, deadline=None)
@given(
    corpus=corpora(min_segments=100, max_segments=300),
    tokenize=st.sampled_from(["13a", "intl", "char"]),
)
def test_workers_do_not_change_results(corpus, tokenize):
    hyps, refs = corpus
    serial = BLEU(tokenize=tokenize, force=True, workers=1).stats(hyps, refs)
    for workers in (-1, 2, 3):
        parallel = BLEU(tokenize=tokenize, force=True, workers=workers).stats(hyps, refs)
        assert parallel == serial


@pytest.mark.differential
@settings(max_examples=25, deadline=None)
@given(
    corpus=corpora(min_segments=1, max_segments=6),
    systems=st.integers(2, 40),
    opts=options,
)
def test_shared_references_equal_sacrebleu(corpus, systems, opts):
    # Many systems concatenated over one test set (and MBR candidate lists) repeat every
    # reference set; the core then prepares each set once. Scores must not change.
    hyps, refs = corpus
    rng = np.random.default_rng(len(hyps) * 1000 + systems)
    all_hyps = [hyps[int(rng.integers(len(hyps)))] + f" s{k}" for k in range(systems) for _ in hyps]
    all_refs = [stream * systems for stream in refs]
    ours = BLEU(**opts, force=True)
    theirs = sacrebleu.BLEU(**opts, force=True)
    assert_same_bleu(ours.corpus_score(all_hyps, all_refs), theirs.corpus_score(all_hyps, all_refs))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", bleuprint.BleuprintWarning)
        batch = ours.sentence_scores(all_hyps, all_refs)
        rows = ours.stats(all_hyps, all_refs).rows
    for i in range(0, len(all_hyps), max(1, len(all_hyps) // 7)):
        single = ours.stats([all_hyps[i]], [[s[i]] for s in all_refs]).rows[0]
        assert rows[i].tolist() == single.tolist()
        seg_refs = [s[i] for s in all_refs]
        assert batch[i] == theirs.sentence_score(all_hyps[i], seg_refs).score


#: Words around the length where a token stops being its own vocabulary key (7 bytes): equal
#: first or last bytes, one byte apart in length, ASCII and not ("Straße" is 7 bytes, "日本語"
#: 9). Two of them sharing an id would change the counts.
BOUNDARY_WORDS = [
    "abcdefg", "abcdefgh", "abcdefgi", "bcdefgh", "abcdefghi", "abcdef", "日本", "日本語",
    "Straße", "Straßen", "ab", "ba",
]  # fmt: skip


@pytest.mark.differential
@SETTINGS
@given(data=st.data(), tokenize=st.sampled_from(["none", "13a", "intl"]))
def test_tokens_around_the_short_key_length_equal_sacrebleu(data, tokenize):
    sentence = st.lists(st.sampled_from(BOUNDARY_WORDS), max_size=12).map(" ".join)
    n = data.draw(st.integers(1, 8))
    hyps = data.draw(st.lists(sentence, min_size=n, max_size=n))
    refs = [data.draw(st.lists(sentence, min_size=n, max_size=n)) for _ in range(2)]
    assert_same_bleu(
        BLEU(tokenize=tokenize).corpus_score(hyps, refs),
        sacrebleu.BLEU(tokenize=tokenize).corpus_score(hyps, refs),
    )


@pytest.mark.differential
def test_references_that_share_length_and_ends_equal_sacrebleu():
    # Past 32 bytes, one length and the same first and last 16 bytes: the core groups these
    # segments under one key and must still score each against its own references.
    middles = ["red", "big", "old", "new"]
    refs = [f"the cat that sat on the {m} mat is by the door" for m in middles]
    hyps = [f"the cat sat on the {m} mat by the door" for m in reversed(middles)]
    systems = 5
    all_hyps = [h + f" s{k}" for k in range(systems) for h in hyps]
    all_refs = [refs * systems]
    ours, theirs = BLEU(), sacrebleu.BLEU()
    assert_same_bleu(ours.corpus_score(all_hyps, all_refs), theirs.corpus_score(all_hyps, all_refs))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", bleuprint.BleuprintWarning)
        scores = ours.sentence_scores(all_hyps, all_refs)
    rows = ours.stats(all_hyps, all_refs).rows
    for i, (hyp, ref) in enumerate(zip(all_hyps, all_refs[0])):
        assert scores[i] == theirs.sentence_score(hyp, [ref]).score
        assert rows[i].tolist() == ours.stats([hyp], [[ref]]).rows[0].tolist()
