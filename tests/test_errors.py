"""Bad input gets a clear error that names the fix; nothing is silently truncated."""

from __future__ import annotations

import pytest

import bleuprint
from bleuprint import BLEU
from bleuprint.errors import (
    BleuprintError,
    InvalidInputError,
    InvalidOptionError,
    ReferenceLayoutError,
)

HYPS = ["a b c", "d e f"]


def test_flat_reference_list_shows_the_expected_nesting():
    with pytest.raises(
        ReferenceLayoutError, match=r"references\[k\]\[i\].*references=\[refs\]"
    ) as e:
        bleuprint.corpus_bleu(HYPS, ["a b c", "d e f"])
    assert isinstance(e.value, TypeError)
    assert isinstance(e.value, BleuprintError)
    with pytest.raises(ReferenceLayoutError, match="single str"):
        bleuprint.corpus_bleu(HYPS, "a b c")


@pytest.mark.parametrize(
    ("refs", "message"),
    [
        ([["a b c"]], "reference stream 0 has 1 segments but there are 2 hypotheses"),
        (
            [["a", "b"], ["a", "b", "c"]],
            "reference stream 1 has 3 segments but there are 2 hypotheses",
        ),
        ([], "references is empty"),
    ],
)
def test_stream_length_mismatch_names_stream_and_lengths(refs, message):
    with pytest.raises(InvalidInputError, match=message) as e:
        bleuprint.corpus_bleu(HYPS, refs)
    assert isinstance(e.value, ValueError)


def test_transposed_references_are_caught_not_truncated():
    # sacrebleu issue #275: per-item layout passed where streams are expected.
    hyps = ["a b", "c d", "e f"]
    per_item = [["a b", "x"], ["c d", "y"], ["e f", "z"]]
    with pytest.raises(InvalidInputError, match="stream 0 has 2 segments but there are 3"):
        bleuprint.corpus_bleu(hyps, per_item)


@pytest.mark.parametrize(
    ("hyps", "refs", "message"),
    [
        (["a", 3], [["a", "b"]], r"hypotheses\[1\] must be str, got int"),
        (["a", None], [["a", "b"]], r"hypotheses\[1\] must be str, got NoneType"),
        (["a", "b"], [["a", b"b"]], r"references\[0\]\[1\] must be str or None, got bytes"),
        (
            ["a", "b"],
            [["a", "b"], [1.5, "b"]],
            r"references\[1\]\[0\] must be str or None, got float",
        ),
    ],
)
def test_non_string_items_name_their_position(hyps, refs, message):
    with pytest.raises(TypeError, match=message):
        bleuprint.corpus_bleu(hyps, refs)
    # Also when the text is normalized and tokenized outside the core (MeCab).
    pytest.importorskip("MeCab")
    with pytest.raises(
        TypeError, match=message.replace(" must be str,", " must be str( or None)?,")
    ):
        bleuprint.corpus_bleu(hyps, refs, tokenize="ja-mecab", normalize="nfc")


def test_single_string_as_hypotheses():
    with pytest.raises(TypeError, match="single str; wrap it in a list"):
        bleuprint.corpus_bleu("a b c", [["a b c"]])


def test_segment_without_any_reference():
    with pytest.raises(InvalidInputError, match="segment 1 has no references"):
        bleuprint.corpus_bleu(HYPS, [["a b c", None], ["x", None]])


def test_sentence_score_argument_types():
    with pytest.raises(TypeError, match="hypothesis must be a str"):
        bleuprint.sentence_bleu(["a"], ["a"])
    with pytest.raises(ReferenceLayoutError, match="list of reference strings"):
        bleuprint.sentence_bleu("a", "a")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"tokenize": "nope"}, "unknown tokenizer 'nope'; expected one of none, zh, 13a, intl"),
        ({"normalize": "nfd"}, "unknown normalization 'nfd'; expected None or one of nfc, nfkc"),
        ({"spm_model": "m.model"}, "spm_model is for the spm, flores101, flores200"),
        (
            {"smooth_method": "laplace"},
            "unknown smooth_method 'laplace'; expected one of none, floor, add-k, exp",
        ),
        ({"max_ngram_order": 0}, "max_ngram_order must be an int >= 1"),
    ],
)
def test_unknown_options_list_the_choices(kwargs, message):
    with pytest.raises(InvalidOptionError, match=message):
        BLEU(**kwargs)


@pytest.mark.parametrize("workers", [0, -2])
def test_invalid_workers(workers):
    with pytest.raises(InvalidOptionError, match="workers must be a positive thread count or -1"):
        BLEU(workers=workers).corpus_score(HYPS, [HYPS])


def test_no_references_anywhere():
    with pytest.raises(InvalidOptionError, match="no references"):
        BLEU().corpus_score(HYPS)


def test_trg_lang_mismatch_warns():
    with pytest.warns(bleuprint.BleuprintWarning, match="'zh' or 'spm' tokenizer for Chinese"):
        BLEU(tokenize="char", trg_lang="zh")


def test_tokenized_input_warns_unless_forced():
    hyps = ["a b ."] * 100
    with pytest.warns(bleuprint.BleuprintWarning, match="tokenized period"):
        bleuprint.corpus_bleu(hyps, [hyps])
    bleuprint.corpus_bleu(hyps, [hyps], force=True)  # no warning (warnings are errors here)


# --- edge cases that are scores, not errors ------------------------------------------------


def test_empty_hypotheses_score_zero():
    s = bleuprint.corpus_bleu(["", ""], [["a b", "c"]])
    assert (s.score, s.bp, s.sys_len, s.ref_len) == (0.0, 0.0, 0, 3)
    s = bleuprint.corpus_bleu(["", ""], [["", ""]])
    assert (s.score, s.bp) == (0.0, 1.0)


def test_empty_corpus_scores_zero_where_sacrebleu_raises():
    # sacrebleu raises IndexError on hyps[0]; an empty corpus has all-zero statistics.
    s = bleuprint.corpus_bleu([], [[]])
    assert (s.score, s.bp, s.sys_len, s.ref_len, s.counts) == (0.0, 1.0, 0, 0, [0, 0, 0, 0])
    assert BLEU(effective_order=True).sentence_scores([], [[]]).shape == (0,)


def test_none_drops_a_reference_but_empty_string_is_kept():
    hyps = ["a b c d"]
    dropped = bleuprint.corpus_bleu(hyps, [["a b c d"], [None]])
    kept = bleuprint.corpus_bleu(hyps, [["a b c d"], [""]])
    assert dropped.ref_len == kept.ref_len == 4
    bleu = BLEU()
    bleu.corpus_score(["a b", "c"], [["a b", "c"], [None, "c"]])
    assert bleu.get_signature().info["nrefs"] == "var"
    bleu.corpus_score(["a b", "c"], [["a b", "c"], ["", "c"]])
    assert bleu.get_signature().info["nrefs"] == 2


def test_crlf_and_trailing_whitespace_are_stripped_like_sacrebleu():
    a = bleuprint.corpus_bleu(["a b c d\r"], [["a b c d\r\n"]])
    b = bleuprint.corpus_bleu(["a b c d"], [["a b c d"]])
    assert a.score == b.score == 100.00000000000004


def test_numpy_arrays_and_tuples_are_accepted():
    np = pytest.importorskip("numpy")
    hyps = np.array(["a b c", "d e f"])
    refs = (np.array(["a b c", "d e g"]),)
    assert (
        bleuprint.corpus_bleu(hyps, refs).score
        == bleuprint.corpus_bleu(list(hyps), [list(refs[0])]).score
    )


def test_no_panic_reaches_python_on_odd_input():
    odd = [
        "\x00",
        "\ud7ff",
        "\U0010ffff",
        " " * 1000,
        "a" * 100_000,
        "\u2028\u2029",
        "<skipped>&amp;",
    ]
    for tokenize in ("none", "13a", "intl", "char"):
        bleu = BLEU(tokenize=tokenize, effective_order=True)
        scores = bleu.sentence_scores(odd, [odd[::-1]])
        assert scores.shape == (len(odd),)
    with pytest.raises(UnicodeEncodeError):
        bleuprint.corpus_bleu(["\ud800"], [["a"]])  # a lone surrogate is not text
