"""Property tests for TER: random word sequences against sacrebleu 2.6.0 (the Tercom tokenizer
on random text is in tests/tokenizers/test_ter_tokenize.py).

- per-segment statistics (`_core.stats` of a `TerKernel`) on sequences from a small
  vocabulary, so that shifts are everywhere: empty and whitespace-only lines, long lines of
  repeated words that reach the 1000-candidate cap, lengths far apart (the beam widens),
  several references of different lengths and missing (`None`) references.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuprint import _core
from tests.support.strategies import tercom_text

sacrebleu = pytest.importorskip("sacrebleu")
lib_ter = pytest.importorskip("sacrebleu.metrics.lib_ter")

FLAGS = [
    {"normalized": n, "no_punct": p, "asian_support": a}
    for n, p, a in itertools.product((False, True), repeat=3)
]


# --- statistics ----------------------------------------------------------------------------


def sacrebleu_rows(hyps, streams, flags, case_sensitive=False):
    metric = sacrebleu.metrics.TER(**flags, case_sensitive=case_sensitive)
    return metric._extract_corpus_statistics(hyps, streams)


def our_rows(hyps, streams, flags, case_sensitive=False, workers=-1):
    """sacrebleu's `[best_edits, ref_lengths / len(refs)]` from the core's integers."""

    def prepare(s):
        return s if case_sensitive or s is None else s.lower()

    stats, nrefs, _ = _core.stats(
        _core.TerKernel(**flags),
        [prepare(h) for h in hyps],
        [[prepare(r) for r in stream] for stream in streams],
        workers=workers,
    )
    assert stats.shape == (len(hyps), 3)
    counts = {len([s[i] for s in streams if s[i] is not None]) for i in range(len(hyps))}
    assert nrefs == (counts.pop() if len(counts) == 1 else -1)
    return [[edits, total / k] for edits, total, k in stats.tolist()]


def assert_same_rows(hyps, streams, flags=FLAGS[0], case_sensitive=False):
    expected = sacrebleu_rows(hyps, streams, flags, case_sensitive)
    got = our_rows(hyps, streams, flags, case_sensitive)
    assert got == expected, [
        (i, hyps[i], [s[i] for s in streams], g, e)
        for i, (g, e) in enumerate(zip(got, expected))
        if g != e
    ][:3]


# Few distinct words: many matches, so many shift candidates.
VOCAB = ["a", "b", "c", "d", "e", "the", "of", ",", ".", "A", "x-y", "it's"]
small_vocab_line = st.lists(st.sampled_from(VOCAB[:5]), max_size=30).map(" ".join)
vocab_line = st.lists(st.sampled_from(VOCAB), max_size=40).map(" ".join)
whitespace = st.sampled_from(["", " ", "  \t ", "\u3000", "\n"])
line = st.one_of(small_vocab_line, small_vocab_line, vocab_line, whitespace, tercom_text)

STATS_SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def corpora(draw, lines=line, max_segments=6, max_streams=3):
    n = draw(st.integers(1, max_segments))
    hyps = draw(st.lists(lines, min_size=n, max_size=n))
    k = draw(st.integers(1, max_streams))
    streams = [
        draw(st.lists(st.one_of(lines, st.none()), min_size=n, max_size=n)) for _ in range(k)
    ]
    # Every segment keeps at least one reference (sacrebleu crashes on none at all).
    for i in range(n):
        if all(s[i] is None for s in streams):
            streams[0][i] = draw(lines)
    return hyps, streams


@STATS_SETTINGS
@given(corpus=corpora(), flags=st.sampled_from(FLAGS), case_sensitive=st.booleans())
def test_statistics_match_sacrebleu(corpus, flags, case_sensitive) -> None:
    hyps, streams = corpus
    assert_same_rows(hyps, streams, flags, case_sensitive)


def long_line(min_words, max_words, vocab_size):
    return st.lists(
        st.sampled_from(VOCAB[:vocab_size]), min_size=min_words, max_size=max_words
    ).map(" ".join)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    corpus=corpora(
        lines=st.one_of(long_line(60, 200, 3), long_line(60, 200, 6), long_line(0, 8, 4)),
        max_segments=2,
        max_streams=2,
    )
)
def test_long_lines_match_sacrebleu(corpus) -> None:
    """Long lines of a few repeated words hit the candidate cap; long against short lines
    widen the beam."""
    hyps, streams = corpus
    assert_same_rows(hyps, streams)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    junk=st.tuples(long_line(0, 60, 6), long_line(0, 60, 6)),
    reference=long_line(20, 80, 6),
)
def test_reference_inside_junk_matches_sacrebleu(junk, reference) -> None:
    """The hypothesis is the reference with junk around it: the best alignment runs along the
    beam's edges."""
    hyp = " ".join(part for part in (junk[0], reference, junk[1]) if part)
    assert_same_rows([hyp, reference], [[reference, hyp]])


def shift_rounds(hyp: str, ref: str) -> list[int]:
    """The cumulative `checked_candidates` after each of sacrebleu's shift rounds for a pair."""
    seen = []
    original = lib_ter._shift

    def spy(*args):
        result = original(*args)
        seen.append(result[2])
        return result

    lib_ter._shift = spy
    try:
        lib_ter.translation_edit_rate(hyp.split(), ref.split())
    finally:
        lib_ter._shift = original
    return seen


def test_candidate_cap_matches() -> None:
    """Random 3-word lines of 20 to 80 words: the cap stops some pairs in the first round and
    some after shifts were applied (the capped round's best shift is dropped)."""
    rng = random.Random(1)
    hyps, refs = [], []
    for n in (24, 30, 36, 40, 48, 64):
        hyps.append(" ".join(rng.choice("abc") for _ in range(n)))
        refs.append(" ".join(rng.choice("abc") for _ in range(n + rng.randint(-5, 5))))
    rounds = [shift_rounds(h, r) for h, r in zip(hyps, refs)]
    assert any(r[-1] >= 1000 and len(r) == 1 for r in rounds)
    assert any(r[-1] >= 1000 and len(r) > 1 for r in rounds)
    assert any(r[-1] < 1000 for r in rounds)
    assert_same_rows(hyps, [refs])
    assert_same_rows(hyps, [refs, hyps[::-1]])


def test_extreme_length_ratios() -> None:
    """Lengths 1:3000 and 40:2000 widen the beam (ratio / 2 + 25); 3000:2 keeps it at 25."""
    rng = random.Random(2)
    words = [f"w{i}" for i in range(50)]

    def text(n):
        return " ".join(rng.choice(words) for _ in range(n))

    hyps = ["w1", text(3000), text(40), text(2)]
    refs = [text(3000), "w1 w2", text(2000), text(700)]
    assert_same_rows(hyps, [refs])


def test_worker_counts_agree() -> None:
    hyps = [" ".join(VOCAB[(i * j) % 7] for j in range(i % 23)) for i in range(300)]
    refs = [" ".join(VOCAB[(i + j) % 5] for j in range(i % 17)) for i in range(300)]
    rows = [our_rows(hyps, [refs], FLAGS[0], workers=w) for w in (1, 2, -1)]
    assert rows[0] == rows[1] == rows[2] == sacrebleu_rows(hyps, [refs], FLAGS[0])
