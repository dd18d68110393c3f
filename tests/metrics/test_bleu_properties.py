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
