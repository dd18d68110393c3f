"""ROUGE's hostile inputs and options: each a bleuprint error whose message names the fix, never
a panic, a bare TypeError or a crash.

The table runs as tests/errors/test_catalogue.py runs its rows (each case in its own subprocess
under the catalogue's memory limit and timeout; the exception is checked by class name along
its MRO and by message), with the catalogue's own runner; it lives here rather than in the
catalogue's ``CASES`` because docs/errors.md shows that table. The fuzzing at the end is
tests/errors/test_hostile_inputs.py's, on ROUGE's constructor, methods, callable tokenizers,
statistics and core kernel.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import strategies as st

import bleuprint
from bleuprint import _core
from bleuprint.errors import BleuprintError, InputTypeError, InvalidInputError, InvalidOptionError
from tests.errors.test_catalogue import Case, Outcome, api, failure, run_cases
from tests.errors.test_hostile_inputs import (
    _call,
    _hostile,
    hyps_refs_option,
    item,
    lines,
    numbers,
    option,
    scalar,
    sentence,
    streams,
    text,
)

# The catalogue's prelude defines H (2 hypotheses) and R (2 reference streams).
FIX_TYPE = r"expected rouge1 \.\.\. rouge9 \(n-grams\), rougeL .* or rougeLsum"
SURROGATE = r"holds a lone surrogate .* decode the input with errors='replace'"

CASES = [
    # --- text in the wrong shape or of the wrong type -----------------------------------------
    api("rouge input", "None as hypotheses", "bleuprint.ROUGE().corpus_score(None, R)",
        "InputTypeError", r"hypotheses must be a list or tuple of str"),
    api("rouge input", "None as a hypothesis", "bleuprint.ROUGE().corpus_score([None, 'a'], R)",
        "InputTypeError", r"hypotheses\[0\] must be str, got NoneType"),
    api("rouge input", "no references", "bleuprint.ROUGE().corpus_score(H, None)",
        "InvalidOptionError", r"pass references=\.\.\. here or to the ROUGE constructor"),
    api("rouge input", "every reference of a segment None",
        "bleuprint.ROUGE().corpus_score(H, [[None, 'x'], [None, 'y']])",
        "InvalidInputError", r"segment 0 has no references"),
    api("rouge input", "None in one of several streams runs",
        "s = bleuprint.ROUGE().corpus_score(H, [[None, 'a dog barks'], R[0]])\n"
        "assert 0 < s.score < 100"),
    api("rouge input", "bytes hypothesis", "bleuprint.ROUGE().corpus_score([b'a', 'b'], R)",
        "InputTypeError", r"hypotheses\[0\] must be str, got bytes"),
    api("rouge input", "bytes reference",
        "bleuprint.ROUGE().corpus_score(H, [[b'the cat', 'x']])",
        "InputTypeError", r"references\[0\]\[0\] must be str or None, got bytes"),
    api("rouge input", "bytes as the hypothesis stream",
        "bleuprint.ROUGE().corpus_score(b'the cat', R)",
        "InputTypeError", r"got a single bytes; wrap it in a list"),
    api("rouge input", "str as the hypothesis stream",
        "bleuprint.ROUGE().corpus_score('the cat', R)",
        "InputTypeError", r"got a single str; wrap it in a list"),
    api("rouge input", "int hypothesis", "bleuprint.ROUGE().corpus_score([3, 'a'], R)",
        "InputTypeError", r"hypotheses\[0\] must be str, got int"),
    api("rouge input", "int reference", "bleuprint.ROUGE().stats(H, [[1, 2]])",
        "InputTypeError", r"references\[0\]\[0\] must be str or None, got int"),
    api("rouge input", "NaN hypothesis", "bleuprint.ROUGE().stats([float('nan'), 'a'], R)",
        "InputTypeError", r"hypotheses\[0\] must be str, got float"),
    api("rouge input", "nested hypothesis", "bleuprint.ROUGE().stats([['a'], 'b'], R)",
        "InputTypeError", r"hypotheses\[0\] must be str, got list"),
    api("rouge input", "ragged reference stream", "bleuprint.ROUGE().corpus_score(H, [R[0][:1]])",
        "InvalidInputError", r"reference stream 0 has 1 segments but there are 2 hypotheses"),
    api("rouge input", "ragged second stream",
        "bleuprint.ROUGE().corpus_score(H, [R[0], R[1] + ['x']])",
        "InvalidInputError", r"reference stream 1 has 3 segments but there are 2 hypotheses"),
    api("rouge input", "sentence_score with a str reference",
        "bleuprint.ROUGE().sentence_score('the cat', 'the cat')",
        "ReferenceLayoutError", r"takes a list of reference strings"),
    api("rouge input", "sentence_score with no reference",
        "bleuprint.ROUGE().sentence_score('the cat', [])",
        "InvalidInputError", r"give at least one reference stream"),
    api("rouge input", "pairwise of nothing", "bleuprint.ROUGE().pairwise([], [])",
        "InvalidInputError", r"hypotheses is empty"),
    api("rouge input", "pairwise of bytes", "bleuprint.ROUGE().pairwise([b'a'], ['a'])",
        "InputTypeError", r"hypotheses\[0\] must be a str, got bytes"),
    # --- lone surrogates: every tokenizer path that reaches the core --------------------------
    api("rouge input", "lone surrogate in a hypothesis",
        "bleuprint.ROUGE().corpus_score(['a', '\\ud800'], R)",
        "InvalidInputError", r"hypotheses\[1\] " + SURROGATE),
    api("rouge input", "lone surrogate in a reference",
        "bleuprint.ROUGE().corpus_score(H, [['x \\udfff', 'a'], R[1]])",
        "InvalidInputError", r"references\[0\]\[0\] " + SURROGATE),
    api("rouge input", "lone surrogate, stemmer",
        "bleuprint.ROUGE(use_stemmer=True).corpus_score(['running \\ud800', 'a'], R)",
        "InvalidInputError", SURROGATE),
    api("rouge input", "lone surrogate, rougeLsum alone",
        "bleuprint.ROUGE(['rougeLsum']).corpus_score(['a\\n\\ud800', 'b'], R)",
        "InvalidInputError", r"hypotheses\[0\] " + SURROGATE),
    api("rouge input", "lone surrogate, 13a tokenizer",
        "bleuprint.ROUGE(tokenizer='13a').corpus_score(H, [['\\udfff', 'a'], R[1]])",
        "InvalidInputError", r"references\[0\]\[0\] " + SURROGATE),
    api("rouge input", "lone surrogate, sentence_score",
        "bleuprint.ROUGE().sentence_score('\\ud800', ['a'])",
        "InvalidInputError", SURROGATE),
    api("rouge input", "lone surrogate, pairwise",
        "bleuprint.ROUGE(['rougeL']).pairwise(['a'], ['\\ud800'])",
        "InvalidInputError", SURROGATE),
    # A callable tokenizer's text never reaches the core: its tokens are what rouge-score gets.
    api("rouge input", "lone surrogate through a callable tokenizer runs",
        "s = bleuprint.ROUGE(tokenizer=str.split).sentence_score('\\ud800 a', ['\\ud800 b'])\n"
        "assert s.scores['rouge1'].fmeasure == 0.5"),
    # --- rouge_types --------------------------------------------------------------------------
    *(
        api("rouge types", f"rouge_types {value}", f"bleuprint.ROUGE({value})",
            "InvalidOptionError", r"unknown ROUGE type .*" + FIX_TYPE)
        for value in (
            "['rougeX']", "['rouge0']", "['rouge10']", "['rougel']", "['rougeLSum']",
            "['ROUGE1']", "[' rouge1']", "['rouge1\\n']", "['rouge\\u0661']", "[1]",
            "['rouge1', None]", "[b'rouge1']",
        )
    ),
    api("rouge types", "rouge_types empty", "bleuprint.ROUGE([])",
        "InvalidOptionError", r"rouge_types is empty: name at least one, e\.g\. \['rouge1'\]"),
    api("rouge types", "rouge_types a str", "bleuprint.ROUGE('rouge1')",
        "InvalidOptionError", r"must be a list of ROUGE types such as \['rouge1', 'rougeL'\]"),
    api("rouge types", "rouge_types None", "bleuprint.ROUGE(None)",
        "InvalidOptionError", r"must be a list of ROUGE types"),
    api("rouge types", "rouge_types a set", "bleuprint.ROUGE({'rouge1'})",
        "InvalidOptionError", r"must be a list of ROUGE types"),
    api("rouge types", "rouge_types repeated", "bleuprint.ROUGE(['rouge1', 'rougeL', 'rouge1'])",
        "InvalidOptionError", r"names a type twice"),
    api("rouge types", "core kernel: rouge10", "bleuprint._core.RougeKernel(types=['rouge10'])",
        "InvalidOptionError", r"unknown ROUGE type \"rouge10\"; expected rouge1"),
    api("rouge types", "core kernel: no types", "bleuprint._core.RougeKernel(types=[])",
        "InvalidOptionError", r"at least one type"),
    api("rouge types", "core kernel: repeated type",
        "bleuprint._core.RougeKernel(types=['rougeL', 'rougeL'])",
        "InvalidOptionError", r"rougeL is given twice"),
    api("rouge types", "core kernel: types a str", "bleuprint._core.RougeKernel(types='rouge1')",
        "InputTypeError", r"types must be a sequence of str"),
    # --- options ------------------------------------------------------------------------------
    api("rouge options", "use_stemmer=True with 13a",
        "bleuprint.ROUGE(use_stemmer=True, tokenizer='13a')",
        "InvalidOptionError", r"use_stemmer=True .* with tokenizer '13a' leave it False"),
    api("rouge options", "use_stemmer=True with a callable",
        "bleuprint.ROUGE(use_stemmer=True, tokenizer=str.split)",
        "InvalidOptionError", r"with tokenizer 'str\.split' leave it False"),
    api("rouge options", "lowercase=False with rouge-score's tokenizer",
        "bleuprint.ROUGE(lowercase=False)",
        "InvalidOptionError", r"always lowercases; lowercase=False needs another tokenizer"),
    *(
        api("rouge options", f"use_stemmer={value}", f"bleuprint.ROUGE(use_stemmer={value})",
            "InvalidOptionError", r"use_stemmer must be True or False")
        for value in ("1", "'yes'", "None", "__import__('numpy').bool_(True)")
    ),
    *(
        api("rouge options", f"split_summaries={value}",
            f"bleuprint.ROUGE(split_summaries={value})",
            "InvalidOptionError", r"split_summaries must be True or False")
        for value in ("0", "'no'")
    ),
    *(
        api("rouge options", f"lowercase={value}",
            f"bleuprint.ROUGE(lowercase={value}, tokenizer='13a')",
            "InvalidOptionError", r"lowercase must be True, False or None")
        for value in ("1", "'no'")
    ),
    api("rouge options", "unknown tokenizer", "bleuprint.ROUGE(tokenizer='nope')",
        "InvalidOptionError", r"unknown tokenizer 'nope'; expected 'rouge' .*or a callable"),
    api("rouge options", "tokenizer ''", "bleuprint.ROUGE(tokenizer='')",
        "InvalidOptionError", r"unknown tokenizer ''"),
    api("rouge options", "tokenizer 3", "bleuprint.ROUGE(tokenizer=3)",
        "InvalidOptionError", r"tokenizer must be a tokenizer name or a callable"),
    api("rouge options", "tokenizer None", "bleuprint.ROUGE(tokenizer=None)",
        "InvalidOptionError", r"tokenizer must be a tokenizer name or a callable"),
    api("rouge options", "workers=0", "bleuprint.ROUGE(workers=0).corpus_score(H, R)",
        "InvalidOptionError", r"workers must be a positive thread count or -1"),
    api("rouge options", "workers=2.5", "bleuprint.ROUGE(workers=2.5).corpus_score(H, R)",
        "BleuprintError", r"workers must be an int"),
    api("rouge options", "n_bootstrap=0", "bleuprint.ROUGE().corpus_score(H, R, n_bootstrap=0)",
        "InvalidOptionError", r"n_bootstrap must be a positive integer"),
    api("rouge options", "core kernel: stem with 13a",
        "bleuprint._core.RougeKernel(types=['rouge1'], tokenizer='13a', stem=True)",
        "InvalidOptionError", r"stem=True applies rouge-score's Porter stemmer"),
    api("rouge options", "core kernel: stem 'yes'",
        "bleuprint._core.RougeKernel(types=['rouge1'], stem='yes')",
        "InputTypeError", r"stem must be a bool"),
    # --- statistics ---------------------------------------------------------------------------
    api("rouge stats", "match above hyp",
        "c = bleuprint.ROUGE(['rouge1']).stats(H, R).config\n"
        "bleuprint.Stats([[5, 1, 1]], c, 1).score()",
        "StatsFormatError", r"breaks the rule match <= hyp and match <= ref"),
    api("rouge stats", "negative count",
        "c = bleuprint.ROUGE(['rouge1']).stats(H, R).config\n"
        "bleuprint.Stats([[-1, 1, 1]], c, 1).score()",
        "StatsFormatError", r"negative count: row 0, column 'rouge1_match'"),
    api("rouge stats", "rows of another width",
        "c = bleuprint.ROUGE(['rouge1']).stats(H, R).config\n"
        "bleuprint.Stats([[1, 1, 1, 1]], c, 1).score()",
        "StatsMismatchError", r"need shape \(n, 3\)"),
    api("rouge stats", "float rows",
        "c = bleuprint.ROUGE(['rouge1']).stats(H, R).config\n"
        "bleuprint.Stats([[0.5, 1, 1]], c, 1).score()",
        "StatsMismatchError", r"must be integers"),
    api("rouge stats", "ROUGE rows of other types do not merge",
        "bleuprint.ROUGE(['rouge1']).stats(H, R) + bleuprint.ROUGE(['rouge2']).stats(H, R)",
        "StatsMismatchError", r"different configurations"),
    api("rouge stats", "saved callable tokenizer counts no new text",
        "import dataclasses\n"
        "bleuprint.ROUGE(tokenizer=str.split).stats(H, R).save('s.npz')\n"
        "c = bleuprint.Stats.load('s.npz').config\n"
        "m = bleuprint.ROUGE(**{f.name: getattr(c, f.name) for f in dataclasses.fields(c)})\n"
        "m.stats(H, R)",
        "InvalidOptionError", r"callable tokenizer 'str\.split'.*tokenizer= that callable"),
    # --- size -----------------------------------------------------------------------------------
    api("rouge size", "rougeL of two 200,000-word lines runs",
        "s = bleuprint.ROUGE(['rougeL']).stats([LONG_A], [[LONG_B]])\n"
        "assert s.rows[0, 1] == s.rows[0, 2] == 200_000"),
]  # fmt: skip

#: Cases that fail today, with what they do instead (see the report that added this file).
#: Cases bleuprint fails today, each with its repro (none at present).
KNOWN_FAILURES: dict[str, str] = {}
CASES.append(
    api(
        "rouge size",
        "rougeLsum of multi-line 150,000-word lines",
        "a = ' '.join(f'w{i % 977}' for i in range(150_000))\n"
        "b = ' '.join(f'w{i * 7 % 983}' for i in range(150_000))\n"
        "bleuprint.ROUGE(['rougeLsum']).stats([a + '\\nx'], [[b + '\\ny']])",
        "BleuprintError",
        r"memory",
    )  # fmt: skip
)


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    """Every case's outcome, run as the catalogue runs its own."""
    return run_cases(tmp_path_factory.mktemp("rouge-catalogue"), CASES)


def test_cases_are_named_uniquely() -> None:
    names = [case.name for case in CASES]
    assert len(names) == len(set(names))
    assert len(CASES) >= 60


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(
            c,
            marks=[pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[c.name])]
            if c.name in KNOWN_FAILURES
            else [],
        )
        for c in CASES
    ],
    ids=[f"{c.group}: {c.name}" for c in CASES],
)
def test_case(case: Case, outcomes: dict[str, Outcome]) -> None:
    problem = failure(case, outcomes[case.name])
    assert problem is None, f"{case.name}: {problem}\ncode: {case.code}"


# --- callable tokenizers that return something else than tokens -----------------------------


@pytest.mark.parametrize(
    "tokenizer",
    [lambda t: None, lambda t: 3, lambda t: [[w] for w in t.split()], lambda t: [{}]],
    ids=["None", "int", "lists", "dicts"],
)
def test_callable_tokenizer_returning_no_tokens(tokenizer: Any) -> None:
    with pytest.raises(InputTypeError, match="tokenizer"):
        bleuprint.ROUGE(tokenizer=tokenizer).stats(["a b"], [["a"]])


def test_callable_tokenizer_errors_are_its_own() -> None:
    # An exception the user's callable raises reaches the caller unchanged.
    def broken(text: str) -> list[str]:
        raise ZeroDivisionError("broken tokenizer")

    with pytest.raises(ZeroDivisionError, match="broken tokenizer"):
        bleuprint.ROUGE(tokenizer=broken).stats(["a"], [["a"]])


def test_callable_tokenizers_of_any_hashable_tokens() -> None:
    # rouge-score compares tokens with ==: ints, tuples, a str (its characters) all count.
    for tokenizer, recall in (
        (lambda t: [len(w) for w in t.split()], 1.0),
        (lambda t: [tuple(w) for w in t.split()], 0.5),
        (lambda t: t, 0.75),
        (lambda t: ["a b", "", "\n"], 1.0),
    ):
        score = bleuprint.ROUGE(["rouge1"], tokenizer=tokenizer).sentence_score("ab c", ["ab d"])
        assert score.scores["rouge1"].recall == recall


# --- fuzzing (test_hostile_inputs' harness) -------------------------------------------------

type_lists = st.one_of(
    st.lists(
        st.one_of(
            st.sampled_from(["rouge1", "rouge9", "rougeL", "rougeLsum", "rouge0", "rouge10",
                             "rougeX", "rougel", "", "rouge1 "]),
            text, numbers, st.none(),
        ),
        max_size=4,
    ),
    scalar,
)  # fmt: skip
tokenizers = st.one_of(
    st.sampled_from(["rouge", "13a", "intl", "zh", "char", "none", "nope", "", "ja-mecab"]),
    st.sampled_from([str.split, list, lambda t: None, lambda t: [t], lambda t: 3]),
    scalar,
)
ROUGE_OPTIONS = ["rouge_types", "use_stemmer", "tokenizer", "lowercase", "split_summaries",
                 "workers"]  # fmt: skip


def _rouge_call(run: Any) -> Any:
    """``run`` as it is: a callable's bad result is an ``InputTypeError`` like any other."""
    return run


@pytest.mark.parametrize("name", ROUGE_OPTIONS)
def test_hostile_options(name: str) -> None:
    values = {"rouge_types": type_lists, "tokenizer": tokenizers}.get(name, option)

    def run(args: Any) -> None:
        hyps, refs, value = args
        bleuprint.ROUGE(**{name: value}).corpus_score(hyps, refs)

    _hostile(f"ROUGE({name}=...)", st.tuples(lines, streams, values), _rouge_call(run))()


@pytest.mark.parametrize(
    "method", ["stats", "sentence_scores", "corpus_score", "constructor references"]
)
def test_hostile_methods(method: str) -> None:
    def run(args: Any) -> None:
        hyps, refs, value = args
        metric = bleuprint.ROUGE(["rouge2", "rougeLsum"], use_stemmer=True)
        if method == "constructor references":
            bleuprint.ROUGE(references=refs).corpus_score(hyps)
        elif method == "corpus_score" and isinstance(value, int) and 0 < value < 50:
            metric.corpus_score(hyps, refs, n_bootstrap=value)
        else:
            getattr(metric, method)(hyps, refs)

    _hostile(f"ROUGE.{method}", hyps_refs_option, run)()


def test_hostile_sentence_score() -> None:
    run = lambda a: bleuprint.ROUGE(["rougeL"]).sentence_score(*a)  # noqa: E731
    _hostile("ROUGE.sentence_score", sentence, run)()


def test_hostile_pairwise() -> None:
    def run(args: Any) -> None:
        hyps, refs, exclude = args
        for types in (["rougeL"], ["rougeLsum", "rouge3"]):
            bleuprint.ROUGE(types).pairwise(hyps, refs, exclude_self=exclude)

    strategy = st.tuples(lines, st.one_of(st.none(), lines), st.booleans())
    _hostile("ROUGE.pairwise", strategy, run)()


def test_hostile_callable_tokenizers() -> None:
    """Callables returning odd but valid tokens (any hashable): results, never an error of
    another class; their text is whatever the stream holds."""
    tokens = st.lists(st.one_of(text, numbers, st.tuples(text), st.none(), st.booleans()),
                      max_size=5)  # fmt: skip

    def run(args: Any) -> None:
        hyps, refs, made = args
        tokenizer = lambda t: made  # noqa: E731
        bleuprint.ROUGE(["rouge2", "rougeL", "rougeLsum"], tokenizer=tokenizer).corpus_score(
            hyps, refs
        )

    _hostile("ROUGE(tokenizer=callable)", st.tuples(lines, lines.map(lambda x: [x]), tokens),
             run)()  # fmt: skip


rows = st.one_of(
    st.lists(st.lists(numbers, max_size=7), max_size=3),
    st.just(np.full((2, 6), -1)),
    st.just(np.array([[3, 2, 1, 0, 0, 0]])),
    st.just(np.array([[2**62] * 6])),
    st.just(np.zeros((2, 6), dtype=np.float64)),
    scalar,
)


def test_hostile_stats_rows() -> None:
    config = bleuprint.ROUGE(["rouge1", "rougeLsum"]).stats(["a"], [["a"]]).config

    def run(args: Any) -> None:
        matrix, nrefs = args
        stats = bleuprint.Stats(matrix, config, nrefs)
        stats.score()
        stats.sentence_scores()
        config.score_rows_detailed(stats.rows)
        (stats + stats)[0]

    _hostile("Stats(ROUGE)", st.tuples(rows, option), run)()


def test_hostile_core_kernel() -> None:
    def run(args: Any) -> None:
        types, tokenizer, stem, hyps, refs = args
        options: dict[str, Any] = {"types": types, "stem": stem}
        if tokenizer != "default":
            options["tokenizer"] = tokenizer
        kernel = _core.RougeKernel(**options)
        rows, _, _ = _core.stats(kernel, hyps, refs)
        _core.details(kernel, rows)
        _core.scores(kernel, rows)
        _core.tokenize(kernel, hyps)

    kernel_tokenizers = st.one_of(
        st.sampled_from(["default", None, "13a", "intl", "nope", "zh", "char"]), scalar
    )
    strategy = st.tuples(type_lists, kernel_tokenizers, st.one_of(st.booleans(), scalar),
                         lines, lines.map(lambda x: [x]))  # fmt: skip
    _hostile("_core.RougeKernel", strategy, run)()


def test_presplit_core_kernel_takes_any_text() -> None:
    """tokenizer=None reads "whole\\nline\\n..." of space-separated ids: any text is such a
    line, the counts follow the spaces and newlines."""
    kernel = _core.RougeKernel(types=["rouge1", "rougeLsum"], tokenizer=None)
    rows, _, _ = _core.stats(kernel, ["0 1\n0\n1", "", "\n\n\n", " \x00 "],
                             [["0\n0", "1", "x", "\x00"]])  # fmt: skip
    assert rows.tolist() == [[1, 2, 1, 1, 2, 1], [0, 0, 1, 0, 0, 0], [0, 0, 1, 0, 0, 0],
                             [1, 1, 1, 0, 0, 0]]  # fmt: skip
    _call("_core.RougeKernel(tokenizer=None)", _core.stats, kernel, [item], [["a"]])


def test_saved_callable_statistics_refuse_new_text() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.npz"
        bleuprint.ROUGE(tokenizer=str.split).stats(["a b"], [["a"]]).save(path)
        loaded = bleuprint.Stats.load(path)
    with pytest.raises(InvalidOptionError, match="callable tokenizer 'str.split'"):
        loaded.config.tokenizer("a b")
    assert (
        loaded.score().score
        == bleuprint.ROUGE(tokenizer=str.split).corpus_score(["a b"], [["a"]]).score
    )


def test_errors_are_bleuprint_errors_and_builtins() -> None:
    # As for every metric: an option error is also a ValueError, a type error a TypeError.
    with pytest.raises(ValueError, match="rouge_types is empty"):
        bleuprint.ROUGE([])
    with pytest.raises(TypeError):
        bleuprint.ROUGE().stats([b"a"], [["a"]])
    with pytest.raises(BleuprintError):
        bleuprint.ROUGE(["rouge0"])
    with pytest.raises(InvalidInputError):
        bleuprint.ROUGE().stats(["\ud800"], [["a"]])


@pytest.mark.parametrize("argument", ["tokenizer", "multi_reference"])
def test_a_lone_surrogate_in_a_name_is_an_option_error(argument: str) -> None:
    """A str argument that cannot be text is refused by name, not with the
    UnicodeEncodeError of encoding it (hypothesis found it in the tokenizer)."""
    with pytest.raises(InvalidOptionError, match=f"{argument} holds a lone surrogate"):
        _core.RougeKernel(types=["rougeL"], **{argument: "x\ud800"})
