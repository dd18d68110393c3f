"""Hypothesis strategies shared by the property tests: random text and random corpora (a
hypothesis stream and 1 to 4 reference streams with gaps, every segment keeping a reference)."""

from __future__ import annotations

from hypothesis import strategies as st

# A small vocabulary makes n-gram matches likely; free text adds Unicode, punctuation and
# whitespace variety.
WORDS = [
    "the",
    "cat",
    "sat",
    "on",
    "mat",
    "The",
    "a",
    "dog",
    ",",
    ".",
    "it's",
    "3.5",
    "e-mail",
    "日本",
    "Straße",
    "é",
]
word_text = st.lists(st.sampled_from(WORDS), max_size=25).map(" ".join)
free_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
text = st.one_of(word_text, word_text, free_text, st.just(""), st.just("  \t "))


@st.composite
def corpora(draw, min_segments=1, max_segments=12):
    n = draw(st.integers(min_segments, max_segments))
    hyps = draw(st.lists(text, min_size=n, max_size=n))
    k = draw(st.integers(1, 4))
    streams = [draw(st.lists(st.one_of(text, st.none()), min_size=n, max_size=n)) for _ in range(k)]
    # Every segment keeps at least one reference (sacrebleu crashes on none at all).
    for i in range(n):
        if all(s[i] is None for s in streams):
            streams[0][i] = draw(text)
    return hyps, streams
