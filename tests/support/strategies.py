"""Hypothesis strategies shared by the property tests: random text (any, of a small vocabulary,
aimed at the Tercom tokenizer) and random corpora (a hypothesis stream and 1 to 4 reference
streams with gaps, every segment keeping a reference)."""

from __future__ import annotations

from hypothesis import strategies as st

# Arbitrary text; lone surrogates cannot cross into Rust (and never come out of a file).
arbitrary = st.text(st.characters(exclude_categories=["Cs"]), max_size=60)
digits = st.text(alphabet="0123456789", min_size=1, max_size=3)

#: A small vocabulary: n-gram matches are likely, and the tokenizers treat its punctuation
#: differently. Property tests add words of their own.
VOCABULARY = [
    "the", "cat", "sat", "on", "mat", "The", "a", "dog", ",", ".", "it's", "3.5", "e-mail",
    "Straße",
]  # fmt: skip
# Free text adds Unicode, punctuation and whitespace variety.
WORDS = [*VOCABULARY, "日本", "é"]
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


#: Text aimed at the Tercom tokenizer's corner cases, or any text.
# fmt: off
_tercom_pieces = st.sampled_from(
    [
        "&quot;", "&amp;", "&lt;", "&gt;", "&apos;", "&amp;quot;", "&amp;amp;", "&", ";",
        "quot;", "\n-", "-\n", "\n", "\r\n", "\r", " ", "  ", "\t", "\u00a0", "\u3000",
        "\u2028", "\x85", "\x1c", "\u200b", "-", "--", ".", ",", "...", ".,", "'", "'s",
        "'s ", "'S", "s", "$", "?", ":", ";", "!", '"', "(", ")", "[", "`", "{", "~", "/",
        "@", "a", "Z", "é", "İ", "ß", "中", "美", "り", "の", "テ", "ス", "ㇰ", "㈠", "㌀", "豈",
        "︰", "⺀", "㇀", "。", "、", "「", "」", "〈", "・", "｡", "･", "！", "？", "．",
        "，", "：", "；", "（", "）", "＂", "０", "²", "٣",
    ]
)
# fmt: on
_tercom_structured = st.lists(
    st.one_of(_tercom_pieces, digits, st.characters(exclude_categories=["Cs"])), max_size=30
).map("".join)
tercom_text = st.one_of(_tercom_structured, arbitrary)
