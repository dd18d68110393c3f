"""The core knobs behind the compat BLEU modes: reference-length rules, grouped and token
input, the split-ascii and strip-punct splitters, GLEU statistics and per-n-gram details."""

from __future__ import annotations

import random

import numpy as np
import pytest

import bleuprint
from bleuprint import _core
from bleuprint.errors import InvalidInputError, InvalidOptionError

HYP = "a b c d e f g h i j k l"  # 12 tokens
R13 = HYP + " m"
R11 = " ".join(HYP.split()[:11])


def bleu_stats(hyps, streams, **kwargs):
    """`_core.stats` of a BLEU kernel made of the keyword arguments."""
    return _core.stats(_core.BleuKernel(**kwargs), hyps, streams)


def grouped(hyps, refs, workers=-1, **kwargs):
    kwargs.setdefault("max_order", 4)
    return _core.grouped_stats(_core.BleuKernel(**kwargs), hyps, refs, workers=workers)


def gleu_stats(hyps, refs, **kwargs):
    """`_core.grouped_stats` of a GLEU kernel made of the keyword arguments."""
    return _core.grouped_stats(_core.GleuKernel(**kwargs), hyps, refs)


def streams_of(refs):
    """Grouped references to streams, None where a segment has fewer references."""
    width = max(len(r) for r in refs)
    return [[r[k] if k < len(r) else None for r in refs] for k in range(width)]


# Reference-length rules


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("closest", [11, 11]),
        ("closest-first", [13, 11]),
        ("shortest", [11, 11]),
        ("average", [24, 24]),
    ],
)
def test_ref_length_rules_with_ties_in_both_orders(rule, expected):
    refs = [[R13, R11], [R11, R13]]
    rows, _, _ = bleu_stats(
        [HYP, HYP], streams_of(refs), tokenizer="none", max_order=4, ref_length=rule
    )
    assert rows[:, 1].tolist() == expected
    assert (grouped([HYP, HYP], refs, tokenizer="none", ref_length=rule) == rows).all()
    tokens = [[r.split() for r in group] for group in refs]
    token_rows = grouped([HYP.split()] * 2, tokens, tokenizer=None, ref_length=rule)
    assert (token_rows == rows).all()


def test_default_rule_keeps_existing_rows():
    streams = [[R13, R11], [R11, None]]
    default, nrefs, _ = bleu_stats([HYP, HYP], streams, tokenizer="13a", max_order=4)
    closest, _, _ = bleu_stats(
        [HYP, HYP], streams, tokenizer="13a", max_order=4, ref_length="closest"
    )
    assert (default == closest).all()
    assert nrefs == -1
    assert _core.REF_LENGTHS == ["closest", "closest-first", "shortest", "average"]


def test_closest_first_follows_stream_order_among_present_references():
    rows, _, _ = bleu_stats(
        [HYP], [[None], [R13], [R11]], tokenizer="none", max_order=4, ref_length="closest-first"
    )
    assert rows[0, 1] == 13


def test_unknown_rule_lists_the_names():
    with pytest.raises(InvalidOptionError, match="closest, closest-first, shortest, average"):
        bleu_stats([HYP], [[R11]], tokenizer="none", max_order=4, ref_length="longest")


# Grouped references


def test_grouped_rows_equal_stream_rows():
    rng = random.Random(7)
    vocab = ["the", "cat", "sat", "on", "a", "mat", ",", ".", "dog", "!"]
    texts = [" ".join(rng.choices(vocab, k=rng.randint(0, 15))) for _ in range(400)]
    hyps = texts[:200]
    refs = [rng.sample(texts[200:], rng.randint(1, 3)) for _ in hyps]
    for tokenizer in ["13a", "none", "char", "split-ascii", "strip-punct"]:
        for rule in _core.REF_LENGTHS:
            expected, _, _ = bleu_stats(
                hyps, streams_of(refs), tokenizer=tokenizer, max_order=4, ref_length=rule
            )
            got = grouped(hyps, refs, tokenizer=tokenizer, ref_length=rule, workers=2)
            assert got.dtype == np.int64
            assert got.shape == (200, 10)
            assert (got == expected).all(), (tokenizer, rule)
    # Tokens as given equal the `none` split of the same text.
    tokens = grouped(
        [h.split() for h in hyps], [[r.split() for r in g] for g in refs], tokenizer=None
    )
    assert (tokens == grouped(hyps, refs, tokenizer="none")).all()


def test_tokens_with_spaces_never_collide():
    rows = grouped([["a", "b"]], [[["a b"]]], tokenizer=None, max_order=2)
    assert rows.tolist() == [[2, 1, 0, 0, 2, 1]]
    rows = grouped([["a b"]], [[["a", "b"]]], tokenizer=None, max_order=2)
    assert rows.tolist() == [[1, 2, 0, 0, 1, 0]]
    rows = grouped([["a b", "\ud800"]], [[["a b", "\ud800"]]], tokenizer=None, max_order=2)
    assert rows.tolist() == [[2, 2, 2, 1, 2, 1]]


def test_non_str_token_raises_type_error_naming_the_position():
    with pytest.raises(TypeError, match=r"^hypotheses\[1\]\[2\] must be str, got int"):
        grouped([["a"], ["b", "c", 3]], [[["a"]], [["b"]]], tokenizer=None)
    with pytest.raises(TypeError, match=r"^references\[0\]\[1\]\[0\] must be str, got NoneType"):
        grouped([["a"]], [[["a"], [None]]], tokenizer=None)
    with pytest.raises(TypeError, match=r"^hypotheses\[0\]\[0\] must be str, got tuple"):
        gleu_stats([[("a",)]], [[["a"]]], tokenizer=None)


def test_empty_reference_list_is_named():
    with pytest.raises(InvalidInputError, match=r"references\[1\] is empty"):
        grouped(["a", "b"], [["a"], []], tokenizer="13a")
    with pytest.raises(InvalidInputError, match=r"references\[0\] is empty"):
        grouped([["a"]], [[]], tokenizer=None)


def test_length_mismatch_names_both_lengths():
    with pytest.raises(InvalidInputError, match="hypotheses has 3 items but references has 2"):
        grouped(["a", "b", "c"], [["a"], ["b"]], tokenizer="13a")
    with pytest.raises(InvalidInputError, match="hypotheses has 1 items but references has 2"):
        gleu_stats([["a"]], [[], []], tokenizer=None)


def test_normalize_needs_text():
    with pytest.raises(InvalidOptionError, match="normalize"):
        grouped([["a"]], [[["a"]]], tokenizer=None, normalize="nfc")
    rows = grouped(["e\u0301"], [["\u00e9"]], tokenizer="none", normalize="nfc")
    assert rows[0, 2] == 1


# Splitters


def test_split_ascii_splits_on_ascii_whitespace_only():
    assert "split-ascii" in _core.TOKENIZERS
    lines = ["a\u00a0b c d", " x\x1cy\u0085z\u2003w\tv\x0bu\x0ct\rs\n", ""]
    out = _core.tokenize("split-ascii", lines)
    assert out[0].split(" ") == ["a\u00a0b", "c", "d"]
    assert out[1].split(" ") == ["x\x1cy\u0085z\u2003w", "v", "u", "t", "s"]
    assert out[2] == ""


def test_strip_punct_replaces_ascii_punctuation():
    assert "strip-punct" in _core.TOKENIZERS
    out = _core.tokenize(
        "strip-punct", ["Look! what a wonderful day, today.", "«bonjour» — dit il… ok"]
    )
    assert out[0].split() == ["Look", "what", "a", "wonderful", "day", "today"]
    assert out[1].split() == ["«bonjour»", "—", "dit", "il…", "ok"]


def test_split_ascii_keeps_a_trailing_nbsp_in_rows():
    rows = grouped(["a b\u00a0"], [["a b"]], tokenizer="split-ascii", max_order=1)
    assert rows.tolist() == [[2, 2, 1, 2]]


# GLEU


def test_gleu_sentence_example():
    rows = gleu_stats(
        [["the", "cat", "sat", "on", "the", "mat"]],
        [[["the", "cat", "is", "on", "the", "mat"]]],
        tokenizer=None,
    )
    assert rows.dtype == np.int64
    assert rows.tolist() == [[9, 18]]
    assert rows[0, 0] / rows[0, 1] == 0.5
    both = gleu_stats(
        [["a", "b", "c"], ["a", "b"]], [[["a", "b"]], [["a", "b", "c"]]], tokenizer=None
    )
    assert both.tolist() == [[3, 6], [3, 6]]


def test_gleu_options_are_checked():
    for min_len, max_len in [(0, 4), (3, 2)]:
        with pytest.raises(InvalidOptionError, match="min_len"):
            gleu_stats([["a"]], [[["a"]]], tokenizer=None, min_len=min_len, max_len=max_len)


def corpus_gleu_from_rows(rows):
    n_match, n_all = rows.sum(axis=0).tolist() if len(rows) else (0, 0)
    return 0.0 if n_all == 0 else n_match / n_all


@pytest.mark.parametrize("seed", range(4))
def test_gleu_equals_nltk_on_random_corpora(seed):
    gleu_score = pytest.importorskip("nltk.translate.gleu_score")
    rng = random.Random(seed)
    vocab = ["a", "b", "c", "d", "e"][: rng.randint(2, 5)]

    def sentence():
        return rng.choices(vocab, k=rng.choice([0, 1, 2, rng.randint(0, 12)]))

    for _ in range(75):
        n = rng.randint(0, 6)
        hyps = [sentence() for _ in range(n)]
        refs = [[sentence() for _ in range(rng.randint(1, 3))] for _ in range(n)]
        min_len = rng.randint(1, 3)
        max_len = rng.randint(min_len, 4)
        rows = gleu_stats(hyps, refs, tokenizer=None, min_len=min_len, max_len=max_len)
        assert rows.shape == (n, 2)
        expected = gleu_score.corpus_gleu(refs, hyps, min_len=min_len, max_len=max_len)
        assert corpus_gleu_from_rows(rows) == expected
        for i in range(n):
            sentence_expected = gleu_score.corpus_gleu(
                [refs[i]], [hyps[i]], min_len=min_len, max_len=max_len
            )
            assert corpus_gleu_from_rows(rows[i : i + 1]) == sentence_expected


def test_gleu_text_input_and_empty_reference_lists():
    text = gleu_stats(
        ["the cat sat on the mat.", "x y"], [["the cat is on the mat."], []], tokenizer="13a"
    )
    tokens = gleu_stats(
        [["the", "cat", "sat", "on", "the", "mat", "."], ["x", "y"]],
        [[["the", "cat", "is", "on", "the", "mat", "."]], []],
        tokenizer=None,
    )
    assert text.tolist() == tokens.tolist()
    assert text[1].tolist() == [0, 0]


# Per-n-gram details


def test_ngram_details_example():
    hyp = "the picture the picture by me".split()
    refs = ["this picture is clicked by me".split(), "the picture was clicked by me".split()]
    details = _core.ngram_details(hyp, refs, max_order=4)
    assert len(details) == 4
    assert details[0] == [
        (("the",), 2, 1, 1),
        (("picture",), 2, 1, 1),
        (("by",), 1, 1, 1),
        (("me",), 1, 1, 1),
    ]
    assert details[1] == [
        (("the", "picture"), 2, 1, 1),
        (("picture", "the"), 1, 0, 0),
        (("picture", "by"), 1, 0, 0),
        (("by", "me"), 1, 1, 1),
    ]
    # The clipped counts and totals are the BLEU row's columns.
    row = grouped([hyp], [refs], tokenizer=None, max_order=4)[0]
    for n, order in enumerate(details):
        assert sum(e[3] for e in order) == row[2 + n]
        assert sum(e[1] for e in order) == row[6 + n]


def test_ngram_details_without_references():
    details = _core.ngram_details(["a", "b", "a"], [], max_order=2)
    assert details == [
        [(("a",), 2, 0, 0), (("b",), 1, 0, 0)],
        [(("a", "b"), 1, 0, 0), (("b", "a"), 1, 0, 0)],
    ]
    with pytest.raises(TypeError, match=r"^hypothesis\[1\] must be str, got int"):
        _core.ngram_details(["a", 1], [], max_order=2)
    with pytest.raises(InvalidOptionError):
        _core.ngram_details(["a"], [], max_order=0)


def test_tokenized_periods_are_counted_for_bleu_only():
    # sacrebleu's `force` heuristic is BLEU's; the other kernels skip the pass.
    hyps = ["a b .", "c", "d .", "e."]
    assert bleu_stats(hyps, [hyps])[2] == 2
    rouge = bleuprint.ROUGE(["rouge1"]).config.kernel
    assert _core.stats(rouge, hyps, [hyps])[2] == 0
