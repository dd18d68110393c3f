"""bleuprint.compat.nltk against the real nltk 3.10.4 ``nltk.translate.bleu_score``.

Every comparison is ``==`` on the returned value with ``type(ours) is type(theirs)`` (element
by element for lists), the same exception type and message where nltk raises, and the same
warnings (category and text) in the same order.

Comparisons per run (seeded, so the counts are fixed):

- random ``corpus_bleu``: ``RANDOM_CORPORA`` corpora x 17 smoothing functions (none, methods
  0-7 with nltk's defaults, methods 0-7 with ``epsilon=0.2, alpha=3, k=4``) x 7 weight
  settings x ``auto_reweigh`` True/False = 16 x 238 = 3808;
- random ``sentence_bleu``: the same 238 settings for every segment of those corpora
  (``RANDOM_SENTENCES`` = 65 segments: 15470);
- nltk's own ``SmoothingFunction`` methods passed to our ``corpus_bleu``: 16 x 16 x 3 = 768;
- ``modified_precision``: 2000 random inputs; ``closest_ref_length``: 1000;
  ``brevity_penalty``: 21 x 21 = 441;
- WMT22 en-de (300 segments, 2 systems, references A and B): 2 x 8 x 3 = 48 ``corpus_bleu``
  and 2 x 4 x 200 = 1600 ``sentence_bleu``.
"""

from __future__ import annotations

import fractions
import random

import pytest

from bleuprint.compat import nltk as ours
from bleuprint.errors import InvalidInputError, InvalidOptionError, ReferenceLayoutError
from tests.support.checks import assert_same_value, outcome
from tests.support.data import read_lines

nb = pytest.importorskip("nltk.translate.bleu_score")

pytestmark = pytest.mark.differential

RANDOM_CORPORA = 16
#: Segments of the 16 random corpora (checked by test_random_corpus_sizes).
RANDOM_SENTENCES = 65

WEIGHTS = {
    "default": None,
    "bleu2": (0.5, 0.5),
    "bleu3": (1 / 3,) * 3,
    "skewed": (0.1, 0.3, 0.5, 0.1),
    "bleu5": (0.2,) * 5,
    "sum2": (0.5,) * 4,
    "several": [(0.5, 0.5), (1 / 3,) * 3, (0.25,) * 4, (0.2,) * 5],
}
PARAMS = {"default": {}, "custom": {"epsilon": 0.2, "alpha": 3, "k": 4}}


def _smoothers():
    """(label, ours, nltk's) for no smoothing_function and methods 0-7 under each PARAMS."""
    out = [("none", None, None)]
    for label, params in PARAMS.items():
        mine, theirs = ours.SmoothingFunction(**params), nb.SmoothingFunction(**params)
        for n in range(8):
            out.append(
                (f"method{n}-{label}", getattr(mine, f"method{n}"), getattr(theirs, f"method{n}"))
            )
    return out


SMOOTHERS = _smoothers()
SETTINGS = [
    (smoother, weights, reweigh)
    for smoother in SMOOTHERS
    for weights in WEIGHTS.items()
    for reweigh in (False, True)
]


def _same(mine, theirs, context):
    """Same value and type, or same exception type and message; same warnings."""
    (value, warned), (expected, expected_warned) = mine, theirs
    if isinstance(expected, Exception):
        assert type(value) is type(expected), (context, value, expected)
        assert str(value) == str(expected), context
    else:
        assert not isinstance(value, Exception), (context, value)
        try:
            assert_same_value(value, expected)
        except AssertionError:
            pytest.fail(f"{context}: ours {value!r}, nltk {expected!r}")
    assert warned == expected_warned, context


def _kwargs(weights, smoothing, reweigh):
    kwargs = {"smoothing_function": smoothing, "auto_reweigh": reweigh}
    if weights is not None:
        kwargs["weights"] = weights
    return kwargs


# --- random corpora -----------------------------------------------------------------------


KINDS = ("words", "ints", "spaces", "mixed")


def _vocabulary(rng: random.Random, kind=None) -> list:
    size = rng.randint(4, 8)
    kind = kind or rng.choice(KINDS)
    if kind == "ints":
        return list(range(1, size + 1))
    if kind == "spaces":
        # Tokens that contain spaces must not split (or merge with) the words they hold.
        return ["a", "b", "a b", "b a", " a", "a  b", "c", "c a"][:size]
    if kind == "mixed":
        # Any hashable is a token; 1 == 1.0 == True in nltk's Counter, "1" is another token.
        return [1, 2, "1", "x", 2.0, True, ("t",), "x y"][:size]
    return ["the", "cat", "sat", "on", "mat", "a", "dog", "."][:size]


def _sentence(rng: random.Random, vocab: list, source=None) -> list:
    if source is not None and rng.random() < 0.5:
        # A perturbed copy of a reference: long n-gram matches, but not everywhere.
        out = [t if rng.random() < 0.8 else rng.choice(vocab) for t in source]
        if out and rng.random() < 0.5:
            del out[rng.randrange(len(out))]
        return out[:15]
    return [rng.choice(vocab) for _ in range(rng.randint(0, 15))]


def random_corpus(seed: int):
    """(list_of_references, hypotheses): 1-8 segments, 1-3 references of 0-15 tokens,
    hypotheses of 0-15 tokens, a vocabulary of 4-8 tokens (each kind for a quarter of the
    seeds)."""
    rng = random.Random(seed)
    vocab = _vocabulary(rng, KINDS[seed % len(KINDS)])
    refs, hyps = [], []
    for _ in range(rng.randint(1, 8)):
        seg_refs = [_sentence(rng, vocab) for _ in range(rng.randint(1, 3))]
        refs.append(seg_refs)
        hyps.append(_sentence(rng, vocab, rng.choice(seg_refs)))
    return refs, hyps


def test_random_corpus_sizes():
    assert sum(len(random_corpus(seed)[1]) for seed in range(RANDOM_CORPORA)) == RANDOM_SENTENCES


@pytest.mark.parametrize("seed", range(RANDOM_CORPORA))
def test_corpus_bleu_random(seed):
    refs, hyps = random_corpus(seed)
    for (label, mine, theirs), (wlabel, weights), reweigh in SETTINGS:
        _same(
            outcome(ours.corpus_bleu, refs, hyps, **_kwargs(weights, mine, reweigh)),
            outcome(nb.corpus_bleu, refs, hyps, **_kwargs(weights, theirs, reweigh)),
            (seed, label, wlabel, reweigh),
        )


@pytest.mark.parametrize("seed", range(RANDOM_CORPORA))
def test_sentence_bleu_random(seed):
    refs, hyps = random_corpus(seed)
    for i, (seg_refs, hyp) in enumerate(zip(refs, hyps)):
        for (label, mine, theirs), (wlabel, weights), reweigh in SETTINGS:
            _same(
                outcome(ours.sentence_bleu, seg_refs, hyp, **_kwargs(weights, mine, reweigh)),
                outcome(nb.sentence_bleu, seg_refs, hyp, **_kwargs(weights, theirs, reweigh)),
                (seed, i, label, wlabel, reweigh),
            )


@pytest.mark.parametrize("seed", range(RANDOM_CORPORA))
def test_nltks_own_smoothing_functions_in_our_corpus_bleu(seed):
    # A foreign callable is called the nltk way: (p_n, references=last segment's references,
    # hypothesis=last hypothesis, hyp_len=corpus hypothesis length).
    refs, hyps = random_corpus(seed)
    for label, _, theirs in SMOOTHERS[1:]:
        for weights in (None, (1 / 3,) * 3, WEIGHTS["several"]):
            kwargs = _kwargs(weights, theirs, False)
            _same(
                outcome(ours.corpus_bleu, refs, hyps, **kwargs),
                outcome(nb.corpus_bleu, refs, hyps, **kwargs),
                (seed, label, weights),
            )


def test_random_sweep_meets_errors_and_warnings():
    """The random corpora exercise what they are meant to: int 0, zero orders with
    warnings, method6's AssertionError and its IndexError below three orders."""
    seen = set()
    for seed in range(RANDOM_CORPORA):
        refs, hyps = random_corpus(seed)
        for (_, _, theirs), (_, weights), reweigh in SETTINGS:
            value, warned = outcome(nb.corpus_bleu, refs, hyps, **_kwargs(weights, theirs, reweigh))
            seen.add(type(value).__name__)
            if warned:
                seen.add("warning")
    assert {"float", "int", "list", "AssertionError", "IndexError", "warning"} <= seen


def test_int_tokens_and_tokens_with_spaces():
    refs = [[1, 2, 3, 4, 5], [1, 3, 2, 4]]
    for hyp in ([1, 2, 3, 4], [1, 2, 3, 4, 5, 1], [5, 4, 3]):
        for weights in ((0.5, 0.5), (0.25,) * 4):
            _same(
                outcome(ours.sentence_bleu, refs, hyp, weights),
                outcome(nb.sentence_bleu, refs, hyp, weights),
                hyp,
            )
    # "a b" is one token: it matches neither "a" nor "b".
    refs = [["a b", "c"], ["a", "b", "c"]]
    for hyp in (["a b", "c"], ["a", "b", "c"], ["a b c"], ["a", "b c"]):
        _same(
            outcome(ours.sentence_bleu, refs, hyp, (0.5, 0.5)),
            outcome(nb.sentence_bleu, refs, hyp, (0.5, 0.5)),
            hyp,
        )


# Inputs where nltk raises and ours mirrors the exception (type and message).
MIRRORED_ERRORS = [
    # method6 asserts a non-zero trigram precision (its message says "bigrams").
    ("method6-no-trigram", ([["a", "b", "c"]], ["a", "b", "d"]), {"n": 6}),
    # method6 needs three orders.
    ("method6-two-orders", ([["a", "b", "c"]], ["a", "b", "c"]), {"n": 6, "w": (0.5, 0.5)}),
    # alpha=0 and a last hypothesis without 4-grams: l + alpha == 0.
    ("method6-alpha0", ([["a", "b", "c", "d"]], ["a", "b", "c"]), {"n": 6, "alpha": 0}),
    # k=0: method4 divides by 2**k * 0.
    ("method4-k0", ([["the", "cat", "is"]], ["the", "cat", "sat"]), {"n": 4, "k": 0}),
    ("method7-k0", ([["the", "cat", "is"]], ["the", "cat", "sat"]), {"n": 7, "k": 0}),
]


@pytest.mark.parametrize(
    ("segment", "options"),
    [(s, o) for _, s, o in MIRRORED_ERRORS],
    ids=[m[0] for m in MIRRORED_ERRORS],
)
def test_mirrored_exceptions(segment, options):
    refs, hyp = segment
    params = {k: options[k] for k in ("alpha", "k") if k in options}
    weights = options.get("w", (0.25,) * 4)
    mine = outcome(ours.sentence_bleu, refs, hyp, weights, _method(ours, options["n"], params))
    theirs = outcome(nb.sentence_bleu, refs, hyp, weights, _method(nb, options["n"], params))
    assert isinstance(theirs[0], Exception)
    _same(mine, theirs, options)


def test_mirrored_exceptions_of_the_helpers():
    # modified_precision without references: nltk looks the first n-gram up in an empty dict.
    for fn, args in (
        ("modified_precision", ([], ["a", "b"], 1)),
        ("modified_precision", ([], ["a", "b"], 2)),
        ("closest_ref_length", ([], 3)),
    ):
        mine, theirs = outcome(getattr(ours, fn), *args), outcome(getattr(nb, fn), *args)
        assert type(theirs[0]) in (KeyError, ValueError)
        _same(mine, theirs, (fn, args))
    with pytest.raises(KeyError):
        ours.modified_precision([], ["a", "b"], 1)


# --- warnings ------------------------------------------------------------------------------


def test_method0_warns_once_per_zero_order_like_nltk():
    refs = [["the", "cat", "sat", "on", "the", "mat"]]
    for hyp, zero_orders in (
        ("the cat is on the mat", [4]),
        ("the mat cat", [3, 4]),
        ("mat the sat", [2, 3, 4]),
        ("the cat sat on a mat", []),
        ("dog", []),  # no unigram match: int 0 before smoothing, no warning
    ):
        hyp = hyp.split()
        mine, theirs = outcome(ours.sentence_bleu, refs, hyp), outcome(nb.sentence_bleu, refs, hyp)
        _same(mine, theirs, hyp)
        assert [c for c, _ in mine[1]] == [UserWarning] * len(zero_orders), hyp
        for (_, message), n in zip(mine[1], zero_orders):
            assert f"contains 0 counts of {n}-gram overlaps" in message
    # Several weight tuples: one smoothing pass, so still one warning per zero order.
    hyp = "the mat cat".split()
    mine = outcome(ours.sentence_bleu, refs, hyp, WEIGHTS["several"])
    _same(mine, outcome(nb.sentence_bleu, refs, hyp, WEIGHTS["several"]), hyp)
    assert len(mine[1]) == 3  # orders 3, 4 and 5


# --- modified_precision, closest_ref_length, brevity_penalty -------------------------------


def _value(fraction):
    """The value of an nltk-style Fraction. Not ``==`` on the objects: under Python <= 3.11
    nltk's un-normalised ``Fraction(0, 3) == 0`` is False (see
    test_fraction_equality_follows_the_value)."""
    return fractions.Fraction(fraction.numerator, fraction.denominator)


def test_modified_precision_random():
    rng = random.Random(7)
    compared = 0
    for _ in range(400):
        vocab = _vocabulary(rng)
        # No references at all: nltk raises KeyError (for a non-empty hypothesis).
        refs = [_sentence(rng, vocab) for _ in range(rng.choice([0, 1, 1, 2, 3]))]
        hyp = _sentence(rng, vocab, refs[0] if refs else None)
        for n in range(1, 6):
            (mine, _), (theirs, _) = (
                outcome(ours.modified_precision, refs, hyp, n),
                outcome(nb.modified_precision, refs, hyp, n),
            )
            if isinstance(theirs, Exception):
                assert type(mine) is type(theirs), (refs, hyp, n)
                assert str(mine) == str(theirs)
            else:
                # Equal as Fractions, and nltk keeps the counts: 0/3 stays 0/3, 2/4 stays 2/4.
                assert isinstance(mine, fractions.Fraction), (refs, hyp, n, mine)
                assert _value(mine) == _value(theirs), (refs, hyp, n)
                assert (mine.numerator, mine.denominator) == (
                    theirs.numerator,
                    theirs.denominator,
                ), (refs, hyp, n)
            compared += 1
    assert compared == 2000


def test_modified_precision_keeps_unnormalised_counts():
    refs = [["the", "cat", "is", "on", "the", "mat"]]
    hyp = ["the", "cat", "sat", "on", "the", "mat"]
    for n, counts in zip(range(1, 6), [(5, 6), (3, 5), (1, 4), (0, 3), (0, 2)]):
        mine, theirs = ours.modified_precision(refs, hyp, n), nb.modified_precision(refs, hyp, n)
        assert (mine.numerator, mine.denominator) == counts
        assert (theirs.numerator, theirs.denominator) == counts
        assert _value(mine) == _value(theirs)
        assert float(mine) == float(theirs)


def test_closest_ref_length_random():
    rng = random.Random(11)
    for _ in range(1000):
        refs = [["w"] * rng.randint(0, 12) for _ in range(rng.randint(1, 4))]
        hyp_len = rng.randint(0, 12)
        mine = ours.closest_ref_length(refs, hyp_len)
        theirs = nb.closest_ref_length(refs, hyp_len)
        assert type(mine) is type(theirs)
        assert mine == theirs
    # Ties go to the shorter reference, whatever the order.
    for refs in ([["w"] * 13, ["w"] * 11], [["w"] * 11, ["w"] * 13]):
        assert ours.closest_ref_length(refs, 12) == nb.closest_ref_length(refs, 12) == 11


def test_brevity_penalty_grid():
    for r in range(21):
        for c in range(21):
            _same(outcome(ours.brevity_penalty, r, c), outcome(nb.brevity_penalty, r, c), (r, c))


# --- corpus-level smoothing quirks ----------------------------------------------------------

# Vector B (= V2) and C (= V3).
B = (
    ["there is a cat on the mat".split(), "a cat is on the mat".split()],
    "the cat is on the mat".split(),
)
C = (["the cat is on the mat".split()], "the cat sat on the mat".split())
X = ([["a", "b", "d"]], ["a", "b", "c"])


def _method(module, n, params=None):
    return getattr(module.SmoothingFunction(**(params or {})), f"method{n}")


def _corpus(*segments):
    return [s[0] for s in segments], [s[1] for s in segments]


@pytest.mark.parametrize(
    ("method", "order"),
    # nltk passes the last segment to methods 5, 6 and 7, so the order of the segments matters
    # (the published values are golden vectors: tests/data/golden_nltk.jsonl).
    [(5, (C, B)), (5, (B, C)), (7, (C, B)), (7, (B, C)), (6, (C, B, X)), (6, (X, B, C))],
)
def test_corpus_smoothing_uses_the_last_segment(method, order):
    refs, hyps = _corpus(*order)
    mine = outcome(ours.corpus_bleu, refs, hyps, smoothing_function=_method(ours, method))
    theirs = outcome(nb.corpus_bleu, refs, hyps, smoothing_function=_method(nb, method))
    _same(mine, theirs, (method, order))
    reverse = _corpus(*order[::-1])
    _same(
        outcome(ours.corpus_bleu, *reverse, smoothing_function=_method(ours, method)),
        outcome(nb.corpus_bleu, *reverse, smoothing_function=_method(nb, method)),
        (method, "reversed"),
    )


def test_order_dependence_matches_nltk_on_random_corpora():
    compared = differs = 0
    for seed in range(RANDOM_CORPORA):
        refs, hyps = random_corpus(seed)
        for n in (5, 6, 7):
            for params in PARAMS.values():
                results = []
                for r, h in ((refs, hyps), (refs[::-1], hyps[::-1])):
                    mine = outcome(
                        ours.corpus_bleu, r, h, smoothing_function=_method(ours, n, params)
                    )
                    theirs = outcome(
                        nb.corpus_bleu, r, h, smoothing_function=_method(nb, n, params)
                    )
                    _same(mine, theirs, (seed, n, params))
                    results.append(theirs[0])
                    compared += 1
                differs += results[0] != results[1]
    assert compared == RANDOM_CORPORA * 3 * 2 * 2
    assert differs > 0  # the quirk is exercised, not only survived


def test_fraction_equality_follows_the_value():
    # Ours compares by value on every Python. nltk 3.10.4 builds its Fraction with
    # _normalize=False on Python <= 3.11, where stdlib equality then compares the raw parts
    # (nltk's Fraction(0, 3) == 0 is False there, True from 3.12 on).
    refs, hyp = C
    p4 = ours.modified_precision(refs, hyp, 4)
    assert (p4.numerator, p4.denominator) == (0, 3)
    assert p4 == 0
    assert p4 == fractions.Fraction(0, 1)
    assert not p4
    half = ours.Fraction(2, 4, _normalize=False)
    assert half == fractions.Fraction(1, 2)
    assert (half.numerator, half.denominator) == (2, 4)
    assert ours.Fraction(2, 4, _normalize=True).numerator == 1


# --- real text: WMT22 en-de --------------------------------------------------------------

WMT22_SYSTEMS = ("Online-A", "JDExploreAcademy")


def _wmt22_en_de(root, segments):
    refs = [
        read_lines(root / "references" / f"generaltest2022.en-de.ref.{name}.de")[:segments]
        for name in ("A", "B")
    ]
    list_of_references = [[a.split(), b.split()] for a, b in zip(*refs)]
    systems = {
        name: [
            line.split()
            for line in read_lines(
                root / "system-outputs" / f"generaltest2022.en-de.hyp.{name}.de"
            )[:segments]
        ]
        for name in WMT22_SYSTEMS
    }
    return list_of_references, systems


def test_wmt22_corpus_bleu(wmt22):
    refs, systems = _wmt22_en_de(wmt22, 300)
    assert len(refs) == 300
    compared = 0
    for name, hyps in systems.items():
        for n in range(8):
            for weights in ((0.25,) * 4, (0.5, 0.5), WEIGHTS["several"]):
                mine = outcome(ours.corpus_bleu, refs, hyps, weights, _method(ours, n))
                theirs = outcome(nb.corpus_bleu, refs, hyps, weights, _method(nb, n))
                _same(mine, theirs, (name, n, weights))
                compared += 1
    assert compared == 48


def test_wmt22_sentence_bleu(wmt22):
    refs, systems = _wmt22_en_de(wmt22, 200)
    compared = 0
    for name, hyps in systems.items():
        for n in (1, 3, 4, 7):
            mine_fn, their_fn = _method(ours, n), _method(nb, n)
            for i, (seg_refs, hyp) in enumerate(zip(refs, hyps)):
                _same(
                    outcome(ours.sentence_bleu, seg_refs, hyp, smoothing_function=mine_fn),
                    outcome(nb.sentence_bleu, seg_refs, hyp, smoothing_function=their_fn),
                    (name, n, i),
                )
                compared += 1
    assert compared == 1600


# --- bad input: ours raises clear errors ---------------------------------------------------


def test_length_mismatch_names_both_lengths():
    refs = [[["a", "b"]], [["c"]], [["d"]]]
    hyps = [["a", "b"], ["c"]]
    with pytest.raises(ours.LengthMismatchError, match=r"2 hypotheses and 3 reference lists"):
        ours.corpus_bleu(refs, hyps)
    # nltk raises a bare AssertionError; ours is one too, and a ValueError.
    with pytest.raises(AssertionError):
        ours.corpus_bleu(refs, hyps)
    with pytest.raises(ValueError, match="2 hypotheses"):
        ours.corpus_bleu(refs, hyps)
    with pytest.raises(AssertionError):
        nb.corpus_bleu(refs, hyps)
    assert issubclass(ours.LengthMismatchError, InvalidInputError)


def test_str_hypothesis_is_a_layout_error():
    with pytest.raises(ReferenceLayoutError, match=r"hypotheses\[0\] is a str") as info:
        ours.sentence_bleu([["the", "cat"]], "the cat")
    # The message shows the token-list shape to pass instead.
    assert "['the', 'cat']" in str(info.value)
    with pytest.raises(ReferenceLayoutError, match=r"hypotheses\[1\] is a str"):
        ours.corpus_bleu([[["a"]], [["b"]]], [["a"], "b"])


def test_missing_nesting_level_is_a_layout_error():
    ref_tokens = ["the", "cat", "sat"]
    with pytest.raises(ReferenceLayoutError, match=r"list_of_references\[0\]") as info:
        ours.corpus_bleu([ref_tokens], [["the", "cat", "sat"]])
    assert "[[ref_tokens, ...], ...]" in str(info.value)
    # sentence_bleu with references=ref_tokens (one level missing there too).
    with pytest.raises(ReferenceLayoutError, match=r"expected list_of_references="):
        ours.sentence_bleu(ref_tokens, ["the", "cat", "sat"])
    # Whole arguments of the wrong kind.
    with pytest.raises(ReferenceLayoutError, match="hypotheses must be a list"):
        ours.corpus_bleu([[ref_tokens]], "the cat sat")


# --- where ours deliberately differs from nltk ---------------------------------------------


def test_empty_corpus_is_a_clear_error():
    with pytest.raises(ZeroDivisionError):
        nb.corpus_bleu([], [])  # nltk: Fraction(0, 0)
    with pytest.raises(InvalidInputError, match="at least one hypothesis"):
        ours.corpus_bleu([], [])


@pytest.mark.parametrize(
    ("refs", "hyps", "nltk_error"),
    [
        ([[]], [["a", "b"]], KeyError),  # nltk: KeyError: ('a',)
        ([[]], [[]], ValueError),  # nltk: min() arg is an empty sequence
        ([[["a"]], []], [["a"], ["x"]], KeyError),
    ],
)
def test_segment_without_references_is_a_clear_error(refs, hyps, nltk_error):
    with pytest.raises(nltk_error):
        nb.corpus_bleu(refs, hyps)
    index = len(refs) - 1
    with pytest.raises(InvalidInputError, match=rf"references\[{index}\] is empty"):
        ours.corpus_bleu(refs, hyps)


@pytest.mark.parametrize("weights", [(), []])
def test_empty_weights_are_a_clear_error(weights):
    # nltk returns the int 0 (no order to compute); ours names the problem.
    assert nb.sentence_bleu([["a", "b"]], ["a", "b"], weights) == 0
    with pytest.raises(InvalidOptionError, match="weights must not be empty"):
        ours.sentence_bleu([["a", "b"]], ["a", "b"], weights)


def test_malformed_weights_are_a_clear_error():
    # nltk: TypeError from () * log(p); ours: an InvalidOptionError (a ValueError).
    with pytest.raises(TypeError):
        nb.sentence_bleu([["a", "b"]], ["a", "b"], [()])
    with pytest.raises(InvalidOptionError, match="tuple of floats or a list of such tuples"):
        ours.sentence_bleu([["a", "b"]], ["a", "b"], [()])


# --- once-discrepancies, now fixed (found by these tests) ----------------------------------


@pytest.mark.parametrize("weights", [[0.25] * 4, [[0.5, 0.5], [0.25] * 4]])
def test_auto_reweigh_only_for_the_default_tuple(weights):
    refs, hyp = [["a", "b", "c"]], ["a", "b"]
    _same(
        outcome(ours.sentence_bleu, refs, hyp, weights, None, True),
        outcome(nb.sentence_bleu, refs, hyp, weights, None, True),
        weights,
    )


def test_overridden_smoothing_method_is_called():
    """A subclass's own methodN is called, not mapped to the built-in smoothing."""

    class Floor(ours.SmoothingFunction):
        def method1(self, p_n, *args, **kwargs):
            return [0.5 if p.numerator == 0 else p for p in p_n]

    class NltkFloor(nb.SmoothingFunction):
        def method1(self, p_n, *args, **kwargs):
            return [0.5 if p.numerator == 0 else p for p in p_n]

    refs, hyp = C
    assert ours.sentence_bleu(refs, hyp, smoothing_function=Floor().method1) == nb.sentence_bleu(
        refs, hyp, smoothing_function=NltkFloor().method1
    )


def test_missing_smoothing_parameter_raises_like_nltk():
    """``SmoothingFunction(epsilon=None).method1`` fails in nltk (None + int); so does ours,
    rather than quietly using the default."""
    refs, hyp = C
    with pytest.raises(TypeError):
        nb.sentence_bleu(refs, hyp, smoothing_function=nb.SmoothingFunction(epsilon=None).method1)
    with pytest.raises(TypeError):
        ours.sentence_bleu(
            refs, hyp, smoothing_function=ours.SmoothingFunction(epsilon=None).method1
        )
