"""``bleuprint.compat.evaluate.load("wer")`` and ``load("cer")`` against HF evaluate's wer and
cer metrics.

HF's metrics are scripts on the Hub (huggingface/evaluate ``metrics/wer/wer.py`` and
``metrics/cer/cer.py``, read at a7dd338 of April 2026; their jiwer 4 branch came with b39b266,
"support jiwer 4.0"), which ``evaluate.load`` cannot fetch offline. Both are thin wrappers
over jiwer, installed here (4.0.0), so the reference is what the scripts' ``_compute`` does on
jiwer 4, re-stated below on the real ``jiwer``:

- each prediction is aligned with its one reference string (``jiwer.process_words`` for wer,
  ``jiwer.process_characters`` for cer), and the counts are summed over the pairs;
- the result is ``(S + D + I) / (S + D + H)``, a Python float (a ``ZeroDivisionError`` when no
  reference has a word or character);
- with ``concatenate_texts=True``, the rate of jiwer's output for the two lists.

They are compared on WMT22 system outputs (skipped without ../shared) and on hypothesis'
text, with ``==`` on the value and its type.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuprint.compat import evaluate
from bleuprint.errors import InvalidInputError, ReferenceLayoutError
from tests.support.data import WMT22, read_lines, wmt22_references, wmt22_systems

jiwer = pytest.importorskip("jiwer")

EXAMPLE = (
    ["this is the prediction", "there is an other sample"],
    ["this is the reference", "there is another one"],
)


def hf(name: str, predictions: list[str], references: list[str], concatenate: bool) -> Any:
    """What HF's script returns, computed with the real jiwer as the script describes it."""
    process = jiwer.process_words if name == "wer" else jiwer.process_characters
    if concatenate:
        return getattr(process(references, predictions), name)
    incorrect = total = 0
    for prediction, reference in zip(predictions, references):
        m = process(reference, prediction)
        incorrect += m.substitutions + m.deletions + m.insertions
        total += m.substitutions + m.deletions + m.hits
    return incorrect / total


def same(name: str, predictions: list[str], references: list[str]) -> None:
    metric = evaluate.load(name)
    for concatenate in (False, True):
        expected = hf(name, predictions, references, concatenate)
        got = metric.compute(
            predictions=predictions, references=references, concatenate_texts=concatenate
        )
        assert (got, type(got)) == (expected, type(expected)), (name, concatenate)


def test_docstring_examples() -> None:
    predictions, references = EXAMPLE
    assert evaluate.load("wer").compute(predictions=predictions, references=references) == 0.5
    cer = evaluate.load("evaluate-metric/cer").compute(
        predictions=predictions, references=references
    )
    assert cer == 0.34146341463414637
    same("wer", predictions, references)
    same("cer", predictions, references)


def test_add_batch_and_repr() -> None:
    metric = evaluate.load("wer")
    metric.add_batch(predictions=EXAMPLE[0][:1], references=EXAMPLE[1][:1])
    metric.add(prediction=EXAMPLE[0][1], reference=EXAMPLE[1][1])
    assert metric.compute() == 0.5
    assert repr(metric) == 'EvaluationModule(name: "wer", module_type: "metric")'


@pytest.mark.slow
def test_wmt22_equals_hfs_computation() -> None:
    if not (WMT22 / "system-outputs").is_dir():
        pytest.skip("../shared/data/wmt22 is absent")
    for pair in ("de-en", "en-de", "zh-en"):
        refs = wmt22_references(WMT22, pair)
        reference = read_lines(refs["A"] if "A" in refs else refs[sorted(refs)[0]])
        systems = [path for p, _, path in wmt22_systems(WMT22) if p == pair][:3]
        assert systems
        for path in systems:
            hypothesis = read_lines(path)
            same("wer", hypothesis, reference)
            same("cer", hypothesis, reference)


words = st.sampled_from(["a", "b", "the", "cat", "Ünïcode", "日本", "", " ", "\t", "x\u00a0y"])
texts = st.lists(words, max_size=6).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(texts, texts), min_size=1, max_size=8))
def test_generated_text_equals_hfs_computation(pairs: list[tuple[str, str]]) -> None:
    predictions, references = [p for p, _ in pairs], [r for _, r in pairs]
    for name in ("wer", "cer"):
        metric = evaluate.load(name)
        try:
            expected: Any = hf(name, predictions, references, False)
        except ZeroDivisionError:
            with pytest.raises(ZeroDivisionError):
                metric.compute(predictions=predictions, references=references)
            continue
        assert metric.compute(predictions=predictions, references=references) == expected
        concatenated = metric.compute(
            predictions=predictions, references=references, concatenate_texts=True
        )
        assert concatenated == hf(name, predictions, references, True)


def test_bad_input() -> None:
    wer = evaluate.load("wer")
    with pytest.raises(ReferenceLayoutError, match="Mismatch in the number of predictions"):
        wer.compute(predictions=["a", "b"], references=["a"])
    with pytest.raises(InvalidInputError, match="predictions=... and references="):
        wer.compute(predictions=["a"])
    with pytest.raises(ReferenceLayoutError, match="must be lists"):
        wer.compute(predictions="a b", references="a b")
    with pytest.raises(ZeroDivisionError):
        wer.compute(predictions=["a"], references=[""])
    assert wer.compute(predictions=["a"], references=[""], concatenate_texts=True) == 1.0
    with pytest.raises(TypeError):
        wer.compute(predictions=[3], references=["a"])
