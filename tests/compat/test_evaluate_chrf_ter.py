"""``bleuprint.compat.evaluate.load("chrf")`` and ``load("ter")`` against HF evaluate's chrf and
ter metrics.

HF's metrics are scripts on the Hub (huggingface/evaluate ``metrics/chrf/chrf.py`` and
``metrics/ter/ter.py``; read at commit 085121968c00e3adfff7ab1781a92d5e2e85d224, the one of
evaluate 0.4.6 that ``test_evaluate_rouge.py``'s golden vectors ran, and the same from c447fc8
of September 2022 through a7dd338 of April 2026), which ``evaluate.load`` cannot fetch
offline. Both are thin wrappers over sacrebleu, installed here (2.6.0), so the reference is
what the scripts' ``_compute`` does, re-stated below on the real ``sacrebleu.CHRF`` and
``sacrebleu.TER``:

- one reference string per prediction becomes a list of one;
- every prediction must have as many references as the first, or a ``ValueError`` (chrf:
  "ChrF, as implemented by sacrebleu, requires the same number of references for each
  prediction"; ter: "Sacrebleu requires the same number of references for each prediction");
- the references are transposed into sacrebleu's streams and scored with
  ``CHRF(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)`` or
  ``TER(normalized=normalized, no_punct=ignore_punct, asian_support=support_zh_ja_chars,
  case_sensitive=case_sensitive)``, the defaults sacrebleu's;
- the result is ``{"score", "char_order", "word_order", "beta"}`` or
  ``{"score", "num_edits", "ref_length"}`` of sacrebleu's corpus score.

They are compared on WMT22 system outputs (skipped without ../shared) and on hypothesis'
text, with ``==`` on every value and its type.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuprint.compat import evaluate
from bleuprint.errors import (
    InvalidInputError,
    InvalidOptionError,
    ReferenceLayoutError,
)
from tests.support.data import read_lines, wmt22_references, wmt22_systems
from tests.support.strategies import tercom_text, text

sacrebleu = pytest.importorskip("sacrebleu")

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CHRF_LAYOUT = (
    "ChrF, as implemented by sacrebleu, requires the same number of references for each prediction"
)
TER_LAYOUT = "Sacrebleu requires the same number of references for each prediction"


# --- the scripts' computation with the real sacrebleu --------------------------------------


def hf_streams(references: list[Any], message: str) -> list[list[str]]:
    """The scripts' reference handling: lists of one for strings, the same number for every
    prediction (else ``ValueError(message)``), transposed into sacrebleu's streams."""
    if isinstance(references[0], str):
        references = [[reference] for reference in references]
    count = len(references[0])
    if any(len(refs) != count for refs in references):
        raise ValueError(message)
    return [[refs[k] for refs in references] for k in range(count)]


def hf_chrf(
    predictions: list[str],
    references: list[Any],
    char_order: int = sacrebleu.CHRF.CHAR_ORDER,
    word_order: int = sacrebleu.CHRF.WORD_ORDER,
    beta: int = sacrebleu.CHRF.BETA,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> dict[str, Any]:
    """HF's ``ChrF._compute`` (metrics/chrf/chrf.py) on the real sacrebleu."""
    streams = hf_streams(references, CHRF_LAYOUT)
    metric = sacrebleu.CHRF(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
    output = metric.corpus_score(predictions, streams)
    return {
        "score": output.score,
        "char_order": output.char_order,
        "word_order": output.word_order,
        "beta": output.beta,
    }


def hf_ter(
    predictions: list[str],
    references: list[Any],
    normalized: bool = False,
    ignore_punct: bool = False,
    support_zh_ja_chars: bool = False,
    case_sensitive: bool = False,
) -> dict[str, Any]:
    """HF's ``Ter._compute`` (metrics/ter/ter.py) on the real sacrebleu."""
    streams = hf_streams(references, TER_LAYOUT)
    metric = sacrebleu.TER(
        normalized=normalized,
        no_punct=ignore_punct,
        asian_support=support_zh_ja_chars,
        case_sensitive=case_sensitive,
    )
    output = metric.corpus_score(predictions, streams)
    return {"score": output.score, "num_edits": output.num_edits, "ref_length": output.ref_length}


HF = {"chrf": hf_chrf, "ter": hf_ter}


def typed(result: dict[str, Any]) -> dict[str, tuple[type, Any]]:
    """Each value with its type, so that ``==`` also compares int with float."""
    return {key: (type(value), value) for key, value in result.items()}


def assert_same(name: str, predictions: list[str], references: list[Any], **options: Any) -> None:
    expected = HF[name](predictions, references, **options)
    metric = evaluate.load(name)
    got = metric.compute(predictions=predictions, references=references, **options)
    assert list(got) == list(expected)
    assert typed(got) == typed(expected)


# --- WMT22 -------------------------------------------------------------------------------


def wmt22_pair(root: Path, pair: str, segments: int) -> tuple[list[str], list[list[str]]]:
    """The first system's first ``segments`` outputs, with every reference grouped per
    prediction (HF's layout)."""
    refs = [read_lines(p)[:segments] for p in wmt22_references(root, pair).values()]
    system = next(p for found, _, p in wmt22_systems(root) if found == pair)
    return read_lines(system)[:segments], [list(r) for r in zip(*refs)]


CHRF_OPTIONS = [
    {},
    {"word_order": 2},
    {"char_order": 4, "word_order": 1, "beta": 1},
    {"char_order": 0, "word_order": 2, "beta": 3},
    {"beta": 3, "lowercase": True},
    {"whitespace": True, "eps_smoothing": True},
    {"char_order": 8, "word_order": 2, "beta": 0.5, "lowercase": True, "eps_smoothing": True},
]


@pytest.mark.differential
@pytest.mark.parametrize("options", CHRF_OPTIONS, ids=repr)
@pytest.mark.parametrize("pair", ["de-en", "zh-en", "en-zh", "cs-en"])
def test_wmt22_chrf_equals_hfs_computation(wmt22: Path, pair: str, options: dict) -> None:
    """500 segments against both references, and against the first as one string each."""
    predictions, references = wmt22_pair(wmt22, pair, 500)
    assert {len(refs) for refs in references} == {2}
    assert_same("chrf", predictions, references, **options)
    assert_same("chrf", predictions, [refs[0] for refs in references], **options)


TER_OPTIONS = [
    {},
    {"normalized": True},
    {"ignore_punct": True},
    {"case_sensitive": True},
    {"support_zh_ja_chars": True},  # alone it changes nothing, as in sacrebleu
    {"normalized": True, "ignore_punct": True, "support_zh_ja_chars": True},
    {"normalized": True, "ignore_punct": True, "case_sensitive": True},
]


@pytest.mark.differential
@pytest.mark.parametrize("options", TER_OPTIONS, ids=repr)
@pytest.mark.parametrize("pair", ["de-en", "en-zh"])
def test_wmt22_ter_equals_hfs_computation(wmt22: Path, pair: str, options: dict) -> None:
    """sacrebleu's TER costs about 2 ms a segment and reference (far more on Chinese
    characters): 120 segments against both references, 60 against the first alone."""
    predictions, references = wmt22_pair(wmt22, pair, 120)
    assert_same("ter", predictions, references, **options)
    assert_same("ter", predictions[:60], [refs[0] for refs in references[:60]], **options)


@pytest.mark.differential
@pytest.mark.parametrize(
    "options",
    [{"normalized": True, "support_zh_ja_chars": True}, {"ignore_punct": True}],
    ids=repr,
)
def test_wmt22_ter_japanese_one_reference(wmt22: Path, options: dict) -> None:
    """en-ja has one reference: a list of one per prediction, or the strings themselves."""
    predictions, references = wmt22_pair(wmt22, "en-ja", 60)
    assert {len(refs) for refs in references} == {1}
    assert_same("ter", predictions, references, **options)
    assert_same("ter", predictions, [refs[0] for refs in references], **options)


# --- hypothesis' text --------------------------------------------------------------------


@st.composite
def grouped(draw: st.DrawFn, texts: st.SearchStrategy[str]) -> tuple[list[str], list[Any]]:
    """1-6 predictions with 1-3 references each (the same number for all, as sacrebleu
    needs), half the time one reference string each; some predictions copy a reference."""
    n = draw(st.integers(1, 6))
    k = draw(st.integers(1, 3))
    references = [draw(st.lists(texts, min_size=k, max_size=k)) for _ in range(n)]
    predictions = [refs[0] if draw(st.integers(0, 3)) == 0 else draw(texts) for refs in references]
    if k == 1 and draw(st.booleans()):
        return predictions, [refs[0] for refs in references]
    return predictions, references


chrf_options = st.fixed_dictionaries(
    {},
    optional={
        "char_order": st.integers(0, 8),
        "word_order": st.integers(0, 3),
        "beta": st.sampled_from([0, 1, 2, 3, 0.5, 2.5]),
        "lowercase": st.booleans(),
        "whitespace": st.booleans(),
        "eps_smoothing": st.booleans(),
    },
).filter(lambda o: o.get("char_order", 6) + o.get("word_order", 0) > 0)

ter_options = st.fixed_dictionaries(
    {},
    optional={
        name: st.booleans()
        for name in ("normalized", "ignore_punct", "support_zh_ja_chars", "case_sensitive")
    },
)


@pytest.mark.differential
@SETTINGS
@given(corpus=grouped(text), options=chrf_options)
def test_chrf_equals_hfs_computation(corpus: tuple[list[str], list[Any]], options: dict) -> None:
    assert_same("chrf", *corpus, **options)


@pytest.mark.differential
@SETTINGS
@given(corpus=grouped(tercom_text), options=ter_options)
def test_ter_equals_hfs_computation(corpus: tuple[list[str], list[Any]], options: dict) -> None:
    assert_same("ter", *corpus, **options)


# --- the layout, errors and calling conventions -------------------------------------------


@pytest.mark.parametrize(("name", "message"), [("chrf", CHRF_LAYOUT), ("ter", TER_LAYOUT)])
@pytest.mark.parametrize(
    "references",
    [[["a"], ["b", "c"]], [["a", "b"], ["c"]], [["a"], ["b"], []], [("a", "b"), ["c", "d"], ["e"]]],
    ids=repr,
)
def test_references_of_different_numbers_raise_hfs_error(
    name: str, message: str, references: list[Any]
) -> None:
    """HF's check and message; ours is an InvalidInputError, which is a ValueError as HF's."""
    predictions = ["a b"] * len(references)
    with pytest.raises(ValueError, match="requires the same number of references") as theirs:
        HF[name](predictions, references)
    with pytest.raises(InvalidInputError) as ours:
        evaluate.load(name).compute(predictions=predictions, references=references)
    assert str(ours.value) == str(theirs.value) == message
    assert isinstance(ours.value, ValueError)


def test_results_keys_types_and_defaults() -> None:
    predictions = ["The cat sat on the mat.", "Hello there!"]
    references = [["The cat is on the mat.", "A cat sat."], ["Hi there.", "Hello, there."]]
    chrf = evaluate.load("chrf").compute(predictions=predictions, references=references)
    assert chrf == {"score": chrf["score"], "char_order": 6, "word_order": 0, "beta": 2}
    assert [type(v) for v in chrf.values()] == [float, int, int, int]
    assert chrf == hf_chrf(predictions, references)
    ter = evaluate.load("ter").compute(predictions=predictions, references=references)
    assert list(ter) == ["score", "num_edits", "ref_length"]
    assert [type(v) for v in ter.values()] == [float, int, float]
    assert ter == hf_ter(predictions, references)
    assert ter["score"] == 100 * ter["num_edits"] / ter["ref_length"]


def test_every_argument_changes_what_it_should() -> None:
    """Each argument reaches sacrebleu under HF's name: on this text every option set gives
    a different result (a wrong mapping could go unnoticed where an option changes nothing),
    the one HF's computation gives."""
    predictions = ["The CAT sat, on the mat .", "日本のテストです。"]
    references = [["the cat sat on the mat.", "a cat"], ["日本の テスト です", "テスト"]]
    for name, option_sets in [
        ("chrf", [
            {}, {"char_order": 3}, {"word_order": 2}, {"beta": 1}, {"lowercase": True},
            {"whitespace": True}, {"eps_smoothing": True},
        ]),
        ("ter", [
            {}, {"normalized": True}, {"ignore_punct": True}, {"case_sensitive": True},
            {"normalized": True, "support_zh_ja_chars": True},
        ]),
    ]:  # fmt: skip
        metric = evaluate.load(name)
        results = []
        for options in option_sets:
            got = metric.compute(predictions=predictions, references=references, **options)
            assert typed(got) == typed(HF[name](predictions, references, **options)), options
            results.append(got)
        assert len({repr(result) for result in results}) == len(option_sets), name


@pytest.mark.parametrize("name", ["chrf", "ter"])
def test_load_names_and_batches(name: str) -> None:
    metric = evaluate.load(f"evaluate-metric/{name}")
    assert repr(metric) == f'EvaluationModule(name: "{name}", module_type: "metric")'
    predictions = ["the cat sat", "b c d", "d"]
    references = [["a cat sat", "the cat"], ["b", "c d"], ["d e", "d"]]
    metric.add(prediction=predictions[0], reference=references[0])
    metric.add_batch(predictions=predictions[1:], references=references[1:])
    collected = metric.compute()
    assert collected == HF[name](predictions, references)
    assert evaluate.load(name).compute(predictions=predictions, references=references) == (
        collected
    )
    # Tuples are several references (HF's datasets make them lists).
    as_tuples = [tuple(refs) for refs in references]
    assert metric.compute(predictions=predictions, references=as_tuples) == collected


@pytest.mark.parametrize("name", ["chrf", "ter"])
def test_errors_name_hfs_arguments_and_positions(name: str) -> None:
    metric = evaluate.load(name)
    # The core sees sacrebleu's streams; the message gives the position in HF's layout.
    with pytest.raises(ReferenceLayoutError, match=r"references\[0\]\[1\] must be str"):
        metric.compute(predictions=["a", "b"], references=[["a", 3], ["b", "c"]])
    with pytest.raises(ReferenceLayoutError, match=r"references\[2\]\[0\] must be str"):
        metric.compute(predictions=["a", "b", "c"], references=[["a"], ["b"], [3]])
    # A list among strings (HF's datasets refuse the mix: "don't match the expected format").
    with pytest.raises(ReferenceLayoutError, match=r"references\[1\]\[0\] must be str.*got list"):
        metric.compute(predictions=["a", "b"], references=["a", ["b", "c"]])
    with pytest.raises(ReferenceLayoutError, match=r"predictions\[1\] must be str, got NoneType"):
        metric.compute(predictions=["a", None], references=[["a"], ["b"]])
    with pytest.raises(ReferenceLayoutError, match=r"Mismatch in the number of predictions \(2\)"):
        metric.compute(predictions=["a", "b"], references=[["a"]])
    with pytest.raises(ReferenceLayoutError, match="must be lists"):
        metric.compute(predictions="a b", references="a b")
    with pytest.raises(InvalidInputError, match="needs predictions"):
        metric.compute(predictions=["a"])
    # HF's scripts read references[0] (an IndexError); bleuprint says what is missing.
    with pytest.raises(InvalidInputError, match="references is empty"):
        metric.compute(predictions=[], references=[])


def test_chrf_options_out_of_range_name_the_option() -> None:
    """sacrebleu fails with an IndexError on char_order=word_order=0 (and accepts orders
    beyond the core's 255); bleuprint names the option."""
    chrf = evaluate.load("chrf")
    with pytest.raises(InvalidOptionError, match="char_order \\+ word_order >= 1"):
        chrf.compute(predictions=["a"], references=["a"], char_order=0, word_order=0)
    with pytest.raises(InvalidOptionError, match="char_order must be an int"):
        chrf.compute(predictions=["a"], references=["a"], char_order=300)
    with pytest.raises(InvalidOptionError, match="normalized must be True or False"):
        evaluate.load("ter").compute(predictions=["a"], references=["a"], normalized="yes")
