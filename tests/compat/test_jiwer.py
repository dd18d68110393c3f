"""WER, CER, MER, WIL and WIP equal jiwer 4.0.0 exactly (``==`` and the same types), through
``bleuprint.compat.jiwer`` and through the native API: the documented vectors, the error
cases, and every WMT22 system output of several language pairs."""

from __future__ import annotations

import pytest

import bleuprint.compat.jiwer as bj
from tests.support.checks import assert_native_wer_equals_jiwer
from tests.support.data import WMT22, read_lines, wmt22_references, wmt22_systems

jiwer = pytest.importorskip("jiwer")

pytestmark = pytest.mark.differential

MEASURES = ("wer", "mer", "wil", "wip", "cer")

# (reference, hypothesis) pairs from jiwer's documentation, tests and edge cases.
VECTORS = [
    ("hello world", "hello duck"),
    (["hello world", "i like monthy python"], ["hello duck", "i like python"]),
    (
        ["short one here", "quite a bit of longer sentence"],
        ["shoe order one", "quite bit of an even longest sentence here"],
    ),
    (["i can spell", "i hope"], ["i kan cpell", "i hop"]),
    ("a", "a b c d"),
    ("", ""),
    ("", "a b"),
    ("a b", ""),
    ([], []),
    ([], ["a b"]),
    ([""], ["", "x"]),
    ("a b", "b a"),
    ("a b c", "c a b"),
    ("a\tb c", "a b c"),
    ("  multiple   spaces\t\there ", "multiple spaces here"),
    ("ab cd", "abcd"),
    ("non\u00a0breaking space", "non breaking space"),
    ("日本語のテキスト", "日本のテキストです"),
    (" \t ", "\n"),
]


def _same(ours, theirs):
    assert ours == theirs
    assert type(ours) is type(theirs)


def _outcome(function, *args):
    """The value and its type, or the exception's type and message."""
    try:
        value = function(*args)
    except (TypeError, ValueError, AttributeError) as e:
        # bleuprint raises its own subclasses (InvalidInputError is a ValueError) where jiwer
        # raises the built-in class: compare by that class and the message.
        builtin = next(t for t in (TypeError, ValueError, AttributeError) if isinstance(e, t))
        return ("raised", builtin, str(e))
    return ("returned", type(value), value)


@pytest.mark.parametrize(("reference", "hypothesis"), VECTORS)
def test_measures_equal_jiwer(reference, hypothesis):
    for name in MEASURES:
        expected = _outcome(getattr(jiwer, name), reference, hypothesis)
        assert _outcome(getattr(bj, name), reference, hypothesis) == expected


def _chunks(output):
    return [
        [(c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in s]
        for s in output.alignments
    ]


def _same_output(ours, theirs):
    assert ours.references == theirs.references
    assert ours.hypotheses == theirs.hypotheses
    assert _chunks(ours) == _chunks(theirs)
    for field in ("wer", "mer", "wil", "wip", "cer", "hits", "substitutions", "insertions"):
        if hasattr(theirs, field):
            _same(getattr(ours, field), getattr(theirs, field))
    _same(ours.deletions, theirs.deletions)
    assert repr(ours.alignments) == repr(theirs.alignments)


@pytest.mark.parametrize(("reference", "hypothesis"), VECTORS)
def test_outputs_and_views_equal_jiwer(reference, hypothesis):
    if isinstance(reference, list) and len(reference or [""]) != len(hypothesis or [""]):
        pytest.skip("unequal lengths: covered by the error tests")
    for process in ("process_words", "process_characters"):
        theirs = getattr(jiwer, process)(reference, hypothesis)
        ours = getattr(bj, process)(reference, hypothesis)
        _same_output(ours, theirs)
        for kwargs in (
            {},
            {"show_measures": False},
            {"skip_correct": False},
            {"line_width": 20},
            {"line_width": 7, "skip_correct": False},
        ):
            assert bj.visualize_alignment(ours, **kwargs) == jiwer.visualize_alignment(
                theirs, **kwargs
            )
        assert bj.visualize_error_counts(ours) == jiwer.visualize_error_counts(theirs)
        assert bj.visualize_error_counts(ours, top_k=1, show_insertions=False) == (
            jiwer.visualize_error_counts(theirs, top_k=1, show_insertions=False)
        )
        # Our renderer also draws jiwer's own output objects.
        assert bj.visualize_alignment(theirs) == jiwer.visualize_alignment(theirs)


def test_documented_numbers():
    out = bj.process_words(
        ["short one here", "quite a bit of longer sentence"],
        ["shoe order one", "quite bit of an even longest sentence here"],
    )
    assert (out.hits, out.substitutions, out.deletions, out.insertions) == (5, 2, 2, 4)
    assert (out.wer, out.mer, out.wil, out.wip) == (
        0.8888888888888888,
        0.6153846153846154,
        0.7474747474747474,
        0.25252525252525254,
    )
    assert bj.cer(["i can spell", "i hope"], ["i kan cpell", "i hop"]) == 0.17647058823529413
    assert bj.wer("a", "a b c d") == 3.0
    assert bj.wer("", "") == 0
    assert type(bj.wer("", "")) is int
    assert bj.wer("", "a b") == 2
    assert bj.wer("a b", "") == 1.0
    assert (bj.mer("a b", "b a"), bj.wil("a b", "b a"), bj.wip("a b", "b a")) == (
        0.6666666666666666,
        0.75,
        0.25,
    )
    assert bj.wil("a b c", "c a b") == 0.5555555555555556
    assert bj.cer("ab cd", "abcd") == 0.2
    std = bj.wer_standardize
    assert bj.wer("I'm fine, thanks [noise]", "i am fine thanks", std, std) == 0.25
    assert bj.visualize_alignment(out) == (
        "=== SENTENCE 1 ===\n\n"
        "REF: **** short one here\n"
        "HYP: shoe order one ****\n"
        "        I     S        D\n\n"
        "=== SENTENCE 2 ===\n\n"
        "REF: quite a bit of ** ****  longer sentence ****\n"
        "HYP: quite * bit of an even longest sentence here\n"
        "           D         I    I       S             I\n\n"
        "=== SUMMARY ===\n"
        "number of sentences: 2\n"
        "substitutions=2 deletions=2 insertions=4 hits=5\n\n"
        "mer=61.54%\nwil=74.75%\nwip=25.25%\nwer=88.89%\n"
    )


TRANSFORM_CASES = [
    ("wer_standardize", "wer_standardize"),
    ("wer_contiguous", "wer_contiguous"),
    ("wer_standardize_contiguous", "wer_standardize_contiguous"),
    ("cer_contiguous", "cer_contiguous"),
    ("wer_default", "wer_standardize"),
]


@pytest.mark.parametrize(("ref_transform", "hyp_transform"), TRANSFORM_CASES)
def test_transform_compositions(ref_transform, hyp_transform):
    refs = ["I'm fine, thanks [noise]", "  they won't GO\there  ", "", "<unk> let's see"]
    hyps = ["i am fine thanks", "they will not go here", "x", "let us  see"]
    for name in MEASURES:
        expected = getattr(jiwer, name)(
            refs, hyps, getattr(jiwer, ref_transform), getattr(jiwer, hyp_transform)
        )
        _same(
            getattr(bj, name)(refs, hyps, getattr(bj, ref_transform), getattr(bj, hyp_transform)),
            expected,
        )
        # jiwer's own transform objects are accepted too.
        _same(
            getattr(bj, name)(
                refs, hyps, getattr(jiwer, ref_transform), getattr(jiwer, hyp_transform)
            ),
            expected,
        )


def test_every_transform_class():
    text = ["  Hello, World!  it's <unk> the [laugh] foo\tfoobar  ", "", "Ünïcode — “quotes”"]
    for name, args in [
        ("RemovePunctuation", ()),
        ("RemoveWhiteSpace", ()),
        ("RemoveWhiteSpace", (True,)),
        ("RemoveMultipleSpaces", ()),
        ("Strip", ()),
        ("RemoveEmptyStrings", ()),
        ("ExpandCommonEnglishContractions", ()),
        ("ToLowerCase", ()),
        ("ToUpperCase", ()),
        ("RemoveKaldiNonWords", ()),
        ("ReduceToSingleSentence", ()),
        ("ReduceToListOfListOfWords", ()),
        ("ReduceToListOfListOfChars", ()),
        ("SubstituteWords", ({"foo": "bar", "it's": "it is"},)),
        ("SubstituteRegexes", ({r"\b(\w+)o\b": r"\1"},)),
        ("RemoveSpecificWords", (["the", "foo"],)),
    ]:
        ours, theirs = getattr(bj, name)(*args), getattr(jiwer, name)(*args)
        assert ours(text) == theirs(text), name
        assert ours(text[0]) == theirs(text[0]), name
        assert ours([]) == theirs([]), name


def test_errors_equal_jiwer():
    cases = [
        (("a",), "a"),
        (["a", 1], ["a", "b"]),
        (["a"], ["a", "b"]),
        (None, None),
        (["a", None], ["b", "c"]),
        # The core refuses the hypothesis' lone surrogate before it reaches the None.
        (["a", None], ["\ud800", "c"]),
        ("a", ["b", 2]),
        ([b"x"], ["x"]),
    ]
    for reference, hypothesis in cases:
        for name in ("wer", "cer", "process_words"):
            expected = _outcome(getattr(jiwer, name), reference, hypothesis)
            assert expected[0] == "raised"
            assert _outcome(getattr(bj, name), reference, hypothesis) == expected
    bad = jiwer.Compose([jiwer.Strip()])  # does not reduce to lists of words
    expected = _outcome(jiwer.wer, "a", "a", bad, bad)
    assert expected[0] == "raised"
    assert "should be a list of strings" in expected[2]
    assert _outcome(bj.wer, "a", "a", bad, bad) == expected


def test_lone_surrogates():
    reference, hypothesis = ["a \ud800 b", "\udfff"], ["a \ud800 c", "x"]
    for name in MEASURES:
        _same(getattr(bj, name)(reference, hypothesis), getattr(jiwer, name)(reference, hypothesis))
    _same_output(
        bj.process_words(reference, hypothesis), jiwer.process_words(reference, hypothesis)
    )


# Pairs whose every system output is compared: German, English, Chinese and Japanese text.
WMT22_PAIRS = ("en-de", "de-en", "zh-en", "en-zh", "en-ja")


def _wmt22_pairs():
    if not (WMT22 / "system-outputs").is_dir():
        return []
    available = {pair for pair, _, _ in wmt22_systems(WMT22)}
    return [p for p in WMT22_PAIRS if p in available]


@pytest.mark.slow
@pytest.mark.parametrize("pair", _wmt22_pairs() or ["en-de"])
def test_every_wmt22_system_equals_jiwer(wmt22, pair):
    refs = wmt22_references(wmt22, pair)
    reference = read_lines(refs["A"] if "A" in refs else refs[sorted(refs)[0]])
    systems = [(name, read_lines(path)) for p, name, path in wmt22_systems(wmt22) if p == pair]
    assert systems
    for _name, hypothesis in systems:
        words = jiwer.process_words(reference, hypothesis)
        chars = jiwer.process_characters(reference, hypothesis)
        _same_output(bj.process_words(reference, hypothesis), words)
        _same_output(bj.process_characters(reference, hypothesis), chars)
        for name in ("wer", "mer", "wil", "wip"):
            _same(getattr(bj, name)(reference, hypothesis), getattr(words, name))
        _same(bj.cer(reference, hypothesis), chars.cer)
        assert_native_wer_equals_jiwer(hypothesis, reference, words, chars)
