"""Property tests: chrF on random corpora equals sacrebleu, and the invariants of its stats."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuprint import CHRF
from tests.support.strategies import corpora, text

sacrebleu = pytest.importorskip("sacrebleu")

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

options = st.fixed_dictionaries(
    {
        "char_order": st.integers(1, 7),
        "word_order": st.integers(0, 3),
        "beta": st.sampled_from([0, 1, 2, 3, 0.5, 2.5]),
        "lowercase": st.booleans(),
        "whitespace": st.booleans(),
        "eps_smoothing": st.booleans(),
    }
)
# Long lines of a few repeated characters: many repeated n-grams to clip.
repetitive = st.lists(st.sampled_from(["ab", "a", "b.", "(b", "aa"]), max_size=60).map(" ".join)


@SETTINGS
@given(corpus=corpora(), opts=options)
def test_random_corpora_match_sacrebleu(corpus, opts):
    hyps, streams = corpus
    ours = CHRF(**opts)
    theirs = sacrebleu.CHRF(**opts)
    stats = ours.stats(hyps, streams)
    assert stats.rows.tolist() == theirs._extract_corpus_statistics(hyps, streams)
    assert ours.corpus_score(hyps, streams).score == theirs.corpus_score(hyps, streams).score
    expected = [
        theirs.sentence_score(h, [s[i] for s in streams if s[i] is not None]).score
        for i, h in enumerate(hyps)
    ]
    assert ours.sentence_scores(hyps, streams).tolist() == expected


@SETTINGS
@given(
    hyp=st.one_of(repetitive, text),
    refs=st.lists(st.one_of(repetitive, text), min_size=1, max_size=3),
    opts=options,
)
def test_repetitive_lines_match_sacrebleu(hyp, refs, opts):
    ours = CHRF(**opts).sentence_score(hyp, refs).score
    assert ours == sacrebleu.CHRF(**opts).sentence_score(hyp, refs).score


@SETTINGS
@given(corpus=corpora(min_segments=2), cut=st.integers(1, 11), workers=st.sampled_from([1, 2, -1]))
def test_shards_and_workers_give_the_same_statistics(corpus, cut, workers):
    hyps, streams = corpus
    cut = min(cut, len(hyps) - 1)
    whole = CHRF(word_order=2).stats(hyps, streams)
    left = CHRF(word_order=2, workers=workers).stats(hyps[:cut], [s[:cut] for s in streams])
    right = CHRF(word_order=2, workers=workers).stats(hyps[cut:], [s[cut:] for s in streams])
    assert np.array_equal((left + right).rows, whole.rows)
    assert (left + right).score().score == whole.score().score


@SETTINGS
@given(line=text, opts=options)
def test_identical_text_scores_100_unless_empty(line, opts):
    # Not with eps smoothing: there an order without n-grams (a short line) counts as eps.
    opts = {**opts, "eps_smoothing": False}
    score = CHRF(**opts).sentence_score(line, [line]).score
    counted = line if opts["whitespace"] else "".join(line.split())
    if counted:
        assert score == 100.0
