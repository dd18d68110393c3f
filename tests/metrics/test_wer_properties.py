"""Property tests: compat equals jiwer on random text, the native API equals jiwer where both
define a value, CER edit counts are symmetric, and the core's opcodes equal RapidFuzz's on
random integer sequences, short and long (long ones take the Hirschberg path)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleuprint.compat.jiwer as bj
from bleuprint import _core
from bleuprint.metrics.wer import CER, WER

jiwer = pytest.importorskip("jiwer")
Levenshtein = pytest.importorskip("rapidfuzz.distance.Levenshtein")

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Few words make matches likely; the pieces add every kind of whitespace jiwer treats
# specially (runs, lone tabs, no-break and ideographic spaces, line separators).
WORDS = ["a", "b", "the", "cat", "Cat", "日本", "é", "it's", "[noise]", "<unk>", ",", "x.y"]
SPACES = [" ", "  ", "\t", " \t", "\n", "\u00a0", "\u3000", "\u2028", "\u0085", "\u001c"]
piece = st.one_of(st.sampled_from(WORDS), st.sampled_from(WORDS), st.sampled_from(SPACES))
word_text = st.lists(piece, max_size=14).map("".join)
free_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)
text = st.one_of(word_text, word_text, free_text, st.just(""), st.just(" \t "))


@st.composite
def pairs(draw, max_segments=6):
    n = draw(st.integers(1, max_segments))
    refs = draw(st.lists(text, min_size=n, max_size=n))
    hyps = draw(st.lists(text, min_size=n, max_size=n))
    return refs, hyps


def _outcome(function, *args):
    try:
        value = function(*args)
    except (TypeError, ValueError, AttributeError) as e:
        return ("raised", type(e), str(e))
    return ("returned", type(value), value)


@pytest.mark.differential
@SETTINGS
@given(data=pairs())
def test_compat_measures_equal_jiwer(data):
    refs, hyps = data
    for name in ("wer", "mer", "wil", "wip", "cer"):
        expected = _outcome(getattr(jiwer, name), refs, hyps)
        assert _outcome(getattr(bj, name), refs, hyps) == expected
    # One sentence as plain strings.
    assert _outcome(bj.wer, refs[0], hyps[0]) == _outcome(jiwer.wer, refs[0], hyps[0])


def _chunks(output):
    return [
        [(c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in s]
        for s in output.alignments
    ]


@pytest.mark.differential
@SETTINGS
@given(data=pairs(max_segments=4), standardize=st.booleans())
def test_compat_outputs_equal_jiwer(data, standardize):
    refs, hyps = data
    transforms = (
        ((bj.wer_standardize,) * 2, (jiwer.wer_standardize,) * 2) if standardize else ((), ())
    )
    for process in ("process_words", "process_characters"):
        if standardize and process == "process_characters":
            continue
        ours = getattr(bj, process)(refs, hyps, *transforms[0])
        theirs = getattr(jiwer, process)(refs, hyps, *transforms[1])
        assert ours.references == theirs.references
        assert ours.hypotheses == theirs.hypotheses
        assert _chunks(ours) == _chunks(theirs)
        assert (ours.hits, ours.substitutions, ours.deletions, ours.insertions) == (
            theirs.hits,
            theirs.substitutions,
            theirs.deletions,
            theirs.insertions,
        )
        assert bj.visualize_alignment(ours) == jiwer.visualize_alignment(theirs)
        assert bj.visualize_alignment(ours, line_width=12, skip_correct=False) == (
            jiwer.visualize_alignment(theirs, line_width=12, skip_correct=False)
        )


custom = st.sampled_from(
    [
        ["ToLowerCase", "RemovePunctuation", "RemoveMultipleSpaces", "Strip", "Words"],
        ["RemoveWhiteSpace", "Chars"],
        ["ToUpperCase", "RemoveEmptyStrings", "ReduceToSingleSentence", "Words"],
        ["ExpandCommonEnglishContractions", "RemoveKaldiNonWords", "Strip", "Chars"],
    ]
)


def _compose(module, names):
    steps = []
    for name in names:
        if name == "Words":
            steps.append(module.ReduceToListOfListOfWords())
        elif name == "Chars":
            steps.append(module.ReduceToListOfListOfChars())
        else:
            steps.append(getattr(module, name)())
    return module.Compose(steps)


@pytest.mark.differential
@SETTINGS
@given(data=pairs(max_segments=4), names=custom)
def test_custom_compositions_equal_jiwer(data, names):
    refs, hyps = data
    ours, theirs = _compose(bj, names), _compose(jiwer, names)
    for name in ("wer", "wil"):
        expected = _outcome(getattr(jiwer, name), refs, hyps, theirs, theirs)
        assert _outcome(getattr(bj, name), refs, hyps, ours, ours) == expected
        # jiwer's transform objects work with compat too.
        assert _outcome(getattr(bj, name), refs, hyps, theirs, theirs) == expected


@pytest.mark.differential
@SETTINGS
@given(data=pairs())
def test_native_equals_jiwer(data):
    refs, hyps = data
    words = jiwer.process_words(refs, hyps)
    score = WER().corpus_score(hyps, [refs])
    counts = (score.hits, score.substitutions, score.deletions, score.insertions)
    assert counts == (words.hits, words.substitutions, words.deletions, words.insertions)
    if sum(len(r) for r in words.references) > 0:  # jiwer's ints on empty references aside
        assert (score.wer, score.mer, score.wil, score.wip) == (
            words.wer,
            words.mer,
            words.wil,
            words.wip,
        )
    chars = jiwer.process_characters(refs, hyps)
    cer = CER().corpus_score(hyps, [refs])
    assert (cer.hits, cer.substitutions, cer.deletions, cer.insertions) == (
        chars.hits,
        chars.substitutions,
        chars.deletions,
        chars.insertions,
    )
    std = WER(transform="standardize").corpus_score(hyps, [refs])
    expected = jiwer.process_words(refs, hyps, jiwer.wer_standardize, jiwer.wer_standardize)
    assert (std.hits, std.errors) == (
        expected.hits,
        expected.substitutions + expected.deletions + expected.insertions,
    )


@SETTINGS
@given(data=pairs(max_segments=8), unit=st.sampled_from(["word", "char"]))
def test_edit_counts_are_symmetric_under_swap(data, unit):
    a, b = data
    metric = WER(unit=unit)
    ab = metric.stats(a, [b]).rows
    ba = metric.stats(b, [a]).rows
    assert (ab[:, :3].sum(axis=1) == ba[:, :3].sum(axis=1)).all()
    assert (ab[:, 4] == ba[:, 5]).all()
    assert (ab[:, 5] == ba[:, 4]).all()


@SETTINGS
@given(data=pairs(max_segments=10), cut=st.integers(0, 10), seed=st.integers(0, 2**32 - 1))
def test_shards_permutations_and_sentence_scores(data, cut, seed):
    refs, hyps = data
    metric = CER()
    whole = metric.stats(hyps, [refs])
    cut = min(cut, len(hyps))
    merged = metric.stats(hyps[:cut], [refs[:cut]]) + metric.stats(hyps[cut:], [refs[cut:]])
    assert merged == whole
    order = np.random.default_rng(seed).permutation(len(hyps))
    shuffled = metric.stats([hyps[i] for i in order], [[refs[i] for i in order]])
    assert shuffled.score().score == whole.score().score
    batch = metric.sentence_scores(hyps, [refs])
    assert batch.tolist() == [metric.sentence_score(h, [r]).score for h, r in zip(hyps, refs)]


def _rapidfuzz(a, b):
    return [tuple(op) for op in Levenshtein.opcodes(a, b)]


_TAGS = ("equal", "replace", "delete", "insert")
_TOKENS = _core.WerKernel()


def _opcodes(a, b):
    """The core's `Levenshtein.opcodes(a, b)` (the old `levenshtein_opcodes`): `alignments` of
    one token-list pair, `a` the reference (RapidFuzz's source) and `b` the hypothesis, each
    integer a distinct str token; rows become RapidFuzz's `(tag, i1, i2, j1, j2)`."""
    ref, hyp = [str(x) for x in a], [str(x) for x in b]
    _, _, ops, _ = _core.alignments(_TOKENS, [hyp], [ref], tokens=True)
    return [(_TAGS[t], i1, i2, j1, j2) for t, i1, i2, j1, j2 in ops.tolist()]


ints = st.lists(st.integers(0, 5), max_size=80)


@pytest.mark.differential
@settings(max_examples=1000, deadline=None)
@given(a=ints, b=ints)
def test_opcodes_equal_rapidfuzz(a, b):
    assert _opcodes(a, b) == _rapidfuzz(a, b)


@pytest.mark.differential
@settings(max_examples=300, deadline=None)
@given(a=st.lists(st.integers(0, 2**32 - 1), max_size=140), data=st.data())
def test_opcodes_equal_rapidfuzz_on_edited_copies(a, data):
    # Edits of a copy: long shared runs, small distances (banded paths), any id values.
    b = list(a)
    for _ in range(data.draw(st.integers(0, 12))):
        op = data.draw(st.sampled_from(["insert", "delete", "replace"]))
        pos = data.draw(st.integers(0, len(b)))
        value = data.draw(st.sampled_from([*a[:4], 7, 2**32 - 1]))
        if op == "insert":
            b.insert(pos, value)
        elif b and pos < len(b):
            if op == "delete":
                del b[pos]
            else:
                b[pos] = value
    assert _opcodes(a, b) == _rapidfuzz(a, b)


def _mutate(rng, seq, rate, alphabet):
    out = []
    for c in seq:
        r = rng.random()
        if r < rate / 3:
            continue
        if r < 2 * rate / 3:
            out.append(rng.randrange(alphabet))
        elif r < rate:
            out.extend([c, rng.randrange(alphabet)])
        else:
            out.append(c)
    return out


@pytest.mark.differential
@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    length=st.integers(2000, 12000),
    alphabet=st.sampled_from([2, 4, 30, 1000]),
    rate=st.sampled_from([0.0005, 0.01, 0.05, 0.3, 1.0]),
    shape=st.sampled_from(["edited", "random", "prefix", "padded"]),
)
def test_long_opcodes_equal_rapidfuzz(seed, length, alphabet, rate, shape):
    # Over 2048 x 2048 elements the matrix passes 1 MiB and RapidFuzz splits the problem with
    # Hirschberg's algorithm; its halves take the block, small-band and single-word paths.
    rng = random.Random(seed)
    a = [rng.randrange(alphabet) for _ in range(length)]
    if shape == "edited":
        b = _mutate(rng, a, rate, alphabet)
    elif shape == "random":
        b = [rng.randrange(alphabet) for _ in range(rng.randrange(2000, 12000))]
    elif shape == "prefix":
        b = a[: rng.randrange(length)]
    else:
        pad = [alphabet] * rng.randrange(1, 500)
        b = pad + _mutate(rng, a, rate, alphabet) + pad
        a = pad + a + pad
    assert _opcodes(a, b) == _rapidfuzz(a, b)
    assert _opcodes(b, a) == _rapidfuzz(b, a)
