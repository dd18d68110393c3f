"""Bad input gets a clear error that names the fix; nothing is silently truncated."""

from __future__ import annotations

import math
import re
import warnings
from fractions import Fraction

import numpy as np
import pytest

import bleuprint
from bleuprint import BLEU, BLEUConfig
from bleuprint.errors import (
    BleuprintError,
    InputTypeError,
    InvalidInputError,
    InvalidOptionError,
    ReferenceLayoutError,
    StatsFormatError,
)
from bleuprint.metrics.stats import Stats

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


# Zero 3- and 4-gram matches: floor and add-k smoothing both act, and sacrebleu's
# float32 bootstrap resamples see the smoothed orders too.
SMOOTHED_HYPS = ["a b c d e", "a b", "c d e f", "x"] * 5
SMOOTHED_REFS = [["a b x y z", "a c", "c d x y", "y"] * 5]


@pytest.mark.parametrize(
    ("method", "value", "sacrebleu_overflows"),
    [
        ("floor", 1e308, True),
        ("floor", 3.5e36, True),
        ("floor", 1.1e36, False),
        ("add-k", 1e307, True),
        ("add-k", 3.5e36, True),
    ],
)
def test_smooth_value_whose_scores_overflow_is_refused(method, value, sacrebleu_overflows):
    """sacrebleu 2.6.0 returns inf for these: its precisions are 100 * smooth_value / total
    (the score overflows beyond 1.8e306) and its bootstrap sums float32 statistics (the mean
    overflows beyond 3.4e36). bleuprint refuses them when the configuration is made, naming
    the bound, 1e36 (below 3.4e36, where sacrebleu stays finite, too)."""
    sacrebleu = pytest.importorskip("sacrebleu")
    upstream = sacrebleu.BLEU(smooth_method=method, smooth_value=value)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's "overflow encountered", at most
        resampled = upstream.corpus_score(SMOOTHED_HYPS, SMOOTHED_REFS, n_bootstrap=50)
    assert (not math.isfinite(resampled._mean)) == sacrebleu_overflows  # inf or nan
    if value > 1.8e306:
        assert math.isinf(upstream.corpus_score(SMOOTHED_HYPS, SMOOTHED_REFS).score)
    message = rf"smooth_value must be <= 1e\+36 with smooth_method='{method}', got "
    message += re.escape(f"{value:g}")
    with pytest.raises(InvalidOptionError, match=message):
        BLEU(smooth_method=method, smooth_value=value)
    with pytest.raises(InvalidOptionError, match=message):
        bleuprint.corpus_bleu(
            SMOOTHED_HYPS, SMOOTHED_REFS, smooth_method=method, smooth_value=value
        )


@pytest.mark.parametrize("method", ["floor", "add-k"])
@pytest.mark.parametrize("value", [0, 0.1, 1, 10.0, 1e30, 1e36])
def test_smooth_values_up_to_the_bound_score_as_sacrebleu(method, value):
    """Below the bound nothing changes: the score, the precisions and the bootstrap mean are
    sacrebleu's, and finite."""
    sacrebleu = pytest.importorskip("sacrebleu")
    ours = BLEU(smooth_method=method, smooth_value=value)
    theirs = sacrebleu.BLEU(smooth_method=method, smooth_value=value)
    got = ours.corpus_score(SMOOTHED_HYPS, SMOOTHED_REFS, n_bootstrap=50)
    expected = theirs.corpus_score(SMOOTHED_HYPS, SMOOTHED_REFS, n_bootstrap=50)
    assert (got.score, got.precisions) == (expected.score, expected.precisions)
    assert got.mean == expected._mean < float("inf")


@pytest.mark.parametrize("arithmetic", ["sacrebleu", "nltk", "nmt", "moses", "fairseq", "mteval"])
@pytest.mark.parametrize("scale", [1, 100])
@pytest.mark.parametrize("order", [1, 2, 4])
def test_every_arithmetic_scores_finite_at_the_bound(arithmetic, scale, order):
    """At smooth_value = 1e36 every arithmetic's scores and bootstrap estimates are finite,
    for one-token hypotheses (a precision of smooth_value / 1) and longer ones."""
    hyps, refs = ["a", "b c", "a b c d e"], [["b", "b d", "a b x y z"]]
    for method in ("floor", "add-k"):
        config = BLEUConfig(
            smooth_method=method, smooth_value=1e36, arithmetic=arithmetic, scale=scale,
            max_ngram_order=order,
        )  # fmt: skip
        scores = [float(config.item_score([h], [[r]]).score) for h, r in zip(hyps, refs[0])]
        scores.append(float(config.item_score(hyps, [[r] for r in refs[0]]).score))
        interval = bleuprint.bootstrap_ci(BLEU(preset=config).stats(hyps, refs), 30, seed=1)
        assert all(math.isfinite(s) for s in scores), (method, scores)
        assert math.isfinite(interval.mean), (method, interval)
        assert math.isfinite(interval.ci), (method, interval)


def test_weights_above_one_lower_the_floor_bound():
    """Floor's precision is raised to the power of the weights' sum: (1, 1, 1, 1) gives
    1e36 ** (1 / 4) = 1e9."""
    nltk = BLEUConfig.from_preset("nltk", smooth_method="floor", weights=(1, 1, 1, 1))
    result = nltk.replace(smooth_value=1e9).item_score([["a", "b", "c", "d"]], [[["a", "x"]]])
    assert math.isfinite(result.score)
    with pytest.raises(InvalidOptionError, match=r"<= 1e\+09 .*weights summing to 4"):
        nltk.replace(smooth_value=1e10)
    # add-k's precisions stay at most 1 whatever the weights.
    BLEUConfig.from_preset("nltk", smooth_method="add-k", smooth_value=1e30, weights=(1, 1))


@pytest.mark.parametrize("value", [10**400, Fraction(10**400), np.float32("inf"), np.nan])
def test_smooth_values_beyond_float_range(value):
    """A Python int or Fraction too large for a float was an OverflowError (from
    math.isfinite's conversion); numpy's inf and NaN are refused as Python's are."""
    with pytest.raises(InvalidOptionError, match="smooth_value must be a finite number >= 0"):
        BLEU(smooth_method="floor", smooth_value=value)


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
    with pytest.raises(InvalidInputError, match=r"hypotheses\[0\].*surrogate"):
        bleuprint.corpus_bleu(["\ud800"], [["a"]])  # a lone surrogate is not text


# --- containers: sequences only -------------------------------------------------------------

HYPS3 = ["the cat sat on the mat", "a dog barked loudly", "it rained"]
REFS3 = [
    ["the cat is on the mat", "the dog barked", "it was raining"],
    ["a cat sat on a mat", "a dog barks", "rain fell"],
]


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda np, h, r: (np.array(h), np.array(r)), id="numpy-2d-references"),
        pytest.param(lambda np, h, r: (np.array(h), [np.array(s) for s in r]), id="numpy-1d"),
        pytest.param(lambda np, h, r: (tuple(h), tuple(tuple(s) for s in r)), id="tuples"),
    ],
)
def test_numpy_layouts_score_like_lists(make):
    np = pytest.importorskip("numpy")
    expected = bleuprint.corpus_bleu(HYPS3, REFS3)
    hyps, refs = make(np, HYPS3, REFS3)
    assert bleuprint.corpus_bleu(hyps, refs).score == expected.score
    assert bleuprint.corpus_chrf(hyps, refs).score == bleuprint.corpus_chrf(HYPS3, REFS3).score


def test_numpy_references_of_the_wrong_rank():
    np = pytest.importorskip("numpy")
    with pytest.raises(InputTypeError, match=r"shape \(n_refs, n_segments\), got \(1, 1, 3\)"):
        bleuprint.corpus_bleu(HYPS3, np.array([[REFS3[0]]]))
    with pytest.raises(InputTypeError, match="hypotheses must be one-dimensional"):
        bleuprint.corpus_bleu(np.array([HYPS3]), REFS3)


def test_pandas_series_and_dataframe_columns():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"hyp": HYPS3, "ref1": REFS3[0], "ref2": REFS3[1]})
    got = bleuprint.corpus_bleu(df["hyp"], [df[c] for c in ("ref1", "ref2")])
    assert got.score == bleuprint.corpus_bleu(HYPS3, REFS3).score
    with pytest.raises(InputTypeError, match=r"\[df\[c\] for c in"):
        bleuprint.corpus_bleu(df["hyp"], df[["ref1", "ref2"]])
    with pytest.raises(InputTypeError, match="whole pandas DataFrame"):
        bleuprint.corpus_bleu(df, REFS3)


def test_pyarrow_arrays_and_chunked_arrays():
    pa = pytest.importorskip("pyarrow")
    hyps = pa.chunked_array([HYPS3[:1], HYPS3[1:]])
    refs = [pa.array(REFS3[0]), pa.chunked_array([REFS3[1]])]
    assert bleuprint.corpus_bleu(hyps, refs).score == bleuprint.corpus_bleu(HYPS3, REFS3).score


@pytest.mark.parametrize(
    ("hyps", "refs", "message"),
    [
        (set(HYPS3), REFS3, "hypotheses must be an ordered sequence, got a set"),
        (frozenset(HYPS3), REFS3, "got a frozenset"),
        (dict.fromkeys(HYPS3), REFS3, "hypotheses must be an ordered sequence, got a dict"),
        ((h for h in HYPS3), REFS3, r"one-shot iterator.*hypotheses=list\(\.\.\.\)"),
        (iter(HYPS3), REFS3, "list_iterator"),
        (HYPS3, [set(REFS3[0])], r"references\[0\] must be an ordered sequence, got a set"),
        (HYPS3, {0: REFS3[0]}, "references must be an ordered sequence, got a dict"),
        (HYPS3, [iter(REFS3[0])], r"references\[0\] is a list_iterator"),
        (HYPS3, iter(REFS3), "references is a list_iterator"),
    ],
)
def test_unordered_or_one_shot_containers_are_refused(hyps, refs, message):
    with pytest.raises(InputTypeError, match=message) as e:
        bleuprint.corpus_bleu(hyps, refs)
    assert isinstance(e.value, TypeError)
    assert "a list or tuple of str, a 1-D numpy array" in str(e.value)


@pytest.mark.parametrize("metric", [bleuprint.BLEU, bleuprint.CHRF, bleuprint.TER, bleuprint.WER])
def test_references_given_to_the_constructor_are_copied(metric):
    refs = [list(REFS3[0]), list(REFS3[1])]
    scorer = metric(references=refs)
    before = scorer.corpus_score(HYPS3).score
    assert before == metric().corpus_score(HYPS3, REFS3).score
    refs[0][0] = "something else entirely"
    refs[1].append("one more")
    assert scorer.corpus_score(HYPS3).score == before


def test_constructor_references_must_agree_in_length():
    with pytest.raises(
        InvalidInputError, match="stream 1 has 1 segments but reference stream 0 has 3"
    ):
        BLEU(references=[REFS3[0], REFS3[1][:1]])


# --- statistics from outside the library -----------------------------------------------------


def _stats(metric):
    return metric().stats(HYPS3, REFS3)


@pytest.mark.parametrize(
    ("metric", "row", "message"),
    [
        (BLEU, [3, 3, 5, 0, 0, 0, 3, 2, 1, 0], "correct_n <= total_n"),
        (BLEU, [3, 3, -1, 0, 0, 0, 3, 2, 1, 0], "negative count: row 0, column 'correct_1'"),
        (bleuprint.CHRF, [1, 1, 2] + [0] * 15, "match <= hyp and match <= ref"),
        (bleuprint.CHRF, [-1] + [0] * 17, "negative count"),
        (bleuprint.TER, [-2, 3, 1], "negative count: row 0, column 'edits'"),
        (bleuprint.TER, [2, 3, 0], "nrefs >= 1"),
        (bleuprint.WER, [1, 0, 0, 1, 3, 2], "hits == ref_words"),
        (bleuprint.WER, [0, 0, -1, 1, 1, 0], "negative count"),
    ],
)
def test_hand_made_rows_that_no_metric_produces_are_refused(metric, row, message):
    config = _stats(metric).config
    with pytest.raises(StatsFormatError, match=message) as e:
        Stats([row], config, 1)
    assert isinstance(e.value, ValueError)


def test_valid_hand_made_rows_still_score():
    stats = _stats(BLEU)
    assert Stats(stats.rows.tolist(), stats.config, 2).score().score == stats.score().score
    with pytest.raises(StatsFormatError, match="nrefs must be >= 1"):
        Stats(stats.rows, stats.config, 0)


def _write_npz(path, **arrays):
    np = pytest.importorskip("numpy")
    with open(path, "wb") as f:
        np.savez(f, **{k: np.asarray(v) for k, v in arrays.items()})


def test_stats_load_refuses_files_that_are_not_statistics(tmp_path):
    import pickle

    np = pytest.importorskip("numpy")
    stats = _stats(BLEU)
    meta = '{"config": {"metric": "BLEU"}, "nrefs": 1}'
    cases = {
        "foreign.npz": (lambda p: _write_npz(p, a=[1, 2]), r"holds \['a'\]"),
        "pickle.pkl": (lambda p: p.write_bytes(pickle.dumps(stats)), "not an .npz archive"),
        "garbage.npz": (lambda p: p.write_bytes(b"\x00garbage" * 20), "not an .npz archive"),
        "one.npy": (lambda p: np.save(p, np.arange(3)), "single .npy array"),
        "floats.npz": (lambda p: _write_npz(p, rows=np.zeros((1, 10)), meta=meta), "integers"),
        "meta.npz": (lambda p: _write_npz(p, rows=np.zeros((1, 10), int), meta=3), "JSON string"),
        "json.npz": (lambda p: _write_npz(p, rows=np.zeros((1, 10), int), meta="{"), "not JSON"),
        "option.npz": (
            lambda p: _write_npz(
                p, rows=np.zeros((1, 10), int), meta=meta.replace('"BLEU"', '"BLEU", "x": 1')
            ),
            r"unknown options \['x'\]",
        ),
        "counts.npz": (
            lambda p: _write_npz(p, rows=[[1, 1, 2, 0, 0, 0, 1, 0, 0, 0]], meta=meta),
            "correct_n <= total_n",
        ),
        "objects.npz": (
            lambda p: np.savez(p, rows=np.array([[1]], dtype=object), meta=np.array(meta)),
            "pickled data",
        ),
    }
    for name, (write, message) in cases.items():
        path = tmp_path / name
        write(path)
        with pytest.raises(StatsFormatError, match=message):
            Stats.load(path)
    stats.save(tmp_path / "ok.npz")
    assert Stats.load(tmp_path / "ok.npz") == stats


@pytest.mark.parametrize("metrics", [["BLEU"], "BLEU", [bleuprint.CHRF], [BLEU(), None]])
def test_paired_test_wants_metric_objects(metrics):
    systems = {"base": HYPS3, "new": HYPS3[::-1]}
    with pytest.raises(InvalidOptionError, match=r"metric objects such as bleuprint.BLEU\(\)"):
        bleuprint.paired_test(systems, REFS3, metrics, n_samples=10)


def test_paired_test_refuses_unordered_systems():
    with pytest.raises(InputTypeError, match="system 'new' must be an ordered sequence"):
        bleuprint.paired_test({"base": HYPS3, "new": set(HYPS3)}, REFS3, n_samples=10)


@pytest.mark.parametrize(
    ("preset", "hypothesis", "references", "bp_line", "bp"),
    [
        ("sacrebleu", "", [""], "c = 0 is not shorter than r = 0, so BP = 1", 1.0),
        ("sacrebleu", "", ["a b"], "the hypothesis is empty (c = 0, r = 2), so BP = 0", 0.0),
        ("nltk", "", [""], "the hypothesis is empty (c = 0, r = 0), so BP = 0", 0.0),
    ],
)
def test_explain_of_an_empty_hypothesis_agrees_with_its_score(
    preset, hypothesis, references, bp_line, bp
):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nltk's own zero-overlap warnings
        explanation = bleuprint.explain(hypothesis, references, compat=preset)
    text = str(explanation)
    assert f"brevity penalty: {bp_line}\n" in text
    assert explanation.brevity_penalty == bp
    assert f"BLEU = BP * exp(sum) = {bp:.4f} * 0 = 0" in text
    if preset == "sacrebleu":
        assert bp == bleuprint.corpus_bleu([hypothesis], [[r] for r in references]).bp


@pytest.mark.parametrize("backend", [None, "python"])
def test_mecab_with_a_broken_dictionary_path(backend, monkeypatch):
    ipadic = pytest.importorskip("ipadic")
    pytest.importorskip("MeCab")
    from bleuprint.errors import ModelUnavailableError
    from bleuprint.tokenizers.mecab import JaMecabTokenizer

    monkeypatch.setattr(ipadic, "MECAB_ARGS", "-r /dev/null -d /nonexistent")
    with pytest.raises(ModelUnavailableError, match="no such file or directory: /nonexistent"):
        JaMecabTokenizer(backend=backend)


def test_mecab_failure_on_a_line_names_the_line():
    pytest.importorskip("ipadic")
    pytest.importorskip("MeCab")
    from bleuprint.tokenizers.mecab import JaMecabTokenizer

    class FailingTagger:  # the SWIG tagger's parse() answers None when MeCab fails
        def parse(self, line):
            return None

    tokenizer = JaMecabTokenizer(backend="python")
    tokenizer._tagger = FailingTagger()
    with pytest.raises(InvalidInputError, match=r"MeCab \(ja-mecab\) failed on the line 'abc'"):
        tokenizer.tokenize_stream(["abc"])


def test_mecab_lone_surrogate_names_the_segment():
    pytest.importorskip("ipadic")
    pytest.importorskip("MeCab")
    with pytest.raises(InvalidInputError, match=r"hypotheses\[1\]|line '\\ud800'"):
        bleuprint.corpus_bleu(["a", "\ud800"], [["a", "b"]], tokenize="ja-mecab")


def test_no_assert_statements_in_library_code():
    # An assert vanishes under python -O; library checks must be real raises.
    import ast
    from pathlib import Path

    package = Path(bleuprint.__file__).parent
    found = [
        f"{path.relative_to(package)}:{node.lineno}"
        for path in sorted(package.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Assert)
    ]
    assert found == []


@pytest.mark.parametrize(
    ("call", "where"),
    [
        (lambda: bleuprint.tokenize(["a", "b \ud800"]), r"text\[1\]"),
        (lambda: bleuprint.tokenize("\udfff"), r"text\[0\]"),
        (lambda: bleuprint.corpus_ter(HYPS3, [REFS3[0][:2] + ["\ud800"]]), r"references\[0\]\[2\]"),
        (lambda: bleuprint.corpus_wer(["\ud800"] + HYPS3[1:], REFS3), r"hypotheses\[0\]"),
        (lambda: bleuprint.WER().align(HYPS3, [["\ud800", "a", "b"]]), r"references\[0\]\[0\]"),
        (lambda: bleuprint.corpus_chrf(HYPS3, REFS3[:1] + [["x", "\ud800", "y"]]), r"\[1\]\[1\]"),
        (lambda: bleuprint.explain("a \ud800", ["a b"]), r"hypotheses\[0\]"),
    ],
)
def test_lone_surrogates_are_named_by_position(call, where):
    with pytest.raises(InvalidInputError, match=where + " holds a lone surrogate"):
        call()


def test_signature_before_any_evaluation():
    with pytest.raises(InvalidInputError, match="please evaluate the metric first") as e:
        BLEU().get_signature()
    assert isinstance(e.value, ValueError)  # as sacrebleu's
