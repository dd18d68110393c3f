"""``bleuprint.compat.evaluate.load("rouge")`` against HF evaluate's rouge metric.

HF's metric is a script on the Hub (huggingface/evaluate, ``metrics/rouge/rouge.py``), which
``evaluate.load`` cannot fetch offline, so two references stand in for it:

- ``tests/data/golden_evaluate_rouge.jsonl``: what the real HF evaluate 0.4.6 returned,
  loading that script (commit 085121968c00e3adfff7ab1781a92d5e2e85d224, copied to a local
  directory) with ``evaluate.load(<directory>)`` offline, on rouge-score 0.1.2 and numpy
  2.4.6: results with their types (``numpy.float64`` medians, float or int F-measures),
  errors, for several global random states at load time and ``seed=``. Each vector was
  computed twice on the same loaded metric (the same result) and numpy's global state was the
  same before and after ``compute()``.
- The script's ``_compute`` re-run here with the real rouge-score (its ``RougeScorer``,
  ``score``/``score_multi`` and ``BootstrapAggregator``, under ``datasets``' ``temp_seed`` as
  ``evaluate.Metric.compute`` runs it) on WMT22 English system outputs: the same computation
  HF makes, on data too large for a golden file.

HF's seeding, which the compat follows: ``compute()`` runs the script with numpy's global
state seeded by the metric's ``seed`` and restores the state afterwards; without ``seed=`` the
seed is read from the global state when the metric is loaded.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

from bleuprint.compat import evaluate
from bleuprint.errors import InvalidInputError, ReferenceLayoutError
from tests.support.data import WMT22, read_lines, wmt22_references, wmt22_systems
from tests.support.golden import Vector, load, params

#: The tokenizers the golden vectors name.
TOKENIZERS = {
    "str.split": str.split,
    "list": list,
    "str.lower.split": lambda s: s.lower().split(),
}


def encode(value: Any) -> Any:
    """A result value as the golden file holds it: ``[type, value]``, lists element-wise."""
    if isinstance(value, list):
        return [encode(v) for v in value]
    kind = {np.float64: "numpy.float64", float: "float", int: "int"}[type(value)]
    return [kind, value if kind == "int" else float(value)]


def global_state() -> tuple[Any, ...]:
    state = np.random.get_state()  # noqa: NPY002 (HF's seeding works on the global state)
    return (state[1].tolist(), *state[2:])


def loaded_like_the_vector(vector: Vector) -> evaluate._Metric:
    """Our metric, loaded from the global state the vector's was loaded from."""
    how = vector["load"]
    np.random.seed(how["np_random_seed"])  # noqa: NPY002
    np.random.random(how["draws_before_load"])  # noqa: NPY002
    seed = how["seed"]
    return evaluate.load("rouge", **({} if seed is None else {"seed": seed}))


def compute(metric: evaluate._Metric, vector: Vector) -> dict[str, Any]:
    kwargs = dict(vector["args"])
    if vector["tokenizer"] is not None:
        kwargs["tokenizer"] = TOKENIZERS[vector["tokenizer"]]
    try:
        return {"result": {k: encode(v) for k, v in metric.compute(**kwargs).items()}}
    except Exception as e:  # compared by class name and message
        return {"error": type(e).__name__, "message": str(e)}


def test_the_golden_file_names_its_upstream() -> None:
    vectors = load("evaluate_rouge")
    assert len(vectors) >= 40
    for vector in vectors:
        assert (vector["upstream"], vector["version"]) == ("evaluate", "0.4.6")
        assert vector["rouge_score"] == "0.1.2"
        assert vector["script"].endswith("085121968c00e3adfff7ab1781a92d5e2e85d224")
    # The vectors of one input with different seeds differ: the seeding is what they test.
    medians = {
        v["load"]["np_random_seed"]: v["expected"]["result"]["rouge1"]
        for v in vectors
        if v["id"].startswith("evaluate-rouge-single-default-") and v["load"]["seed"] is None
    }
    assert len(set(map(str, medians.values()))) == len(medians) >= 4


@pytest.mark.parametrize("vector", params("evaluate_rouge"))
def test_golden_vector(vector: Vector) -> None:
    metric = loaded_like_the_vector(vector)
    before = global_state()
    got = compute(metric, vector)
    if "error" in vector["expected"] and vector["expected"]["error"] == "ValueError":
        assert got["error"] == "ValueError"  # numpy's argmax message may change with numpy
        if "argmax" not in vector["expected"]["message"]:
            assert got == vector["expected"]
    else:
        assert got == vector["expected"]
    assert global_state() == before  # compute() restores numpy's global state, as HF's
    assert compute(metric, vector) == got  # the same seed on every call


# --- the script's computation with the real rouge-score -----------------------------------


@contextmanager
def temp_seed(seed: int) -> Iterator[None]:
    """``datasets.utils.py_utils.temp_seed`` (numpy only), around HF's ``_compute``."""
    state = np.random.get_state()  # noqa: NPY002
    np.random.seed(seed)  # noqa: NPY002
    try:
        yield
    finally:
        np.random.set_state(state)  # noqa: NPY002


def hf_compute(
    predictions: list[str],
    references: list[Any],
    seed: int,
    rouge_types: Any = None,
    use_aggregator: bool = True,
    use_stemmer: bool = False,
    tokenizer: Any = None,
) -> dict[str, Any]:
    """HF's ``Rouge._compute`` (metrics/rouge/rouge.py) on the real rouge-score, as
    ``evaluate.Metric.compute`` runs it: under ``temp_seed(metric.seed)``."""
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    scoring = pytest.importorskip("rouge_score.scoring")

    class Tokenizer:
        def __init__(self, tokenizer_func: Any) -> None:
            self.tokenizer_func = tokenizer_func

        def tokenize(self, text: str) -> Any:
            return self.tokenizer_func(text)

    with temp_seed(seed):
        if rouge_types is None:
            rouge_types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
        multi_ref = isinstance(references[0], list)
        if tokenizer is not None:
            tokenizer = Tokenizer(tokenizer)
        scorer = rouge_scorer.RougeScorer(
            rouge_types=rouge_types, use_stemmer=use_stemmer, tokenizer=tokenizer
        )
        if use_aggregator:
            aggregator = scoring.BootstrapAggregator()
        else:
            scores = []
        for ref, pred in zip(references, predictions):
            score = scorer.score_multi(ref, pred) if multi_ref else scorer.score(ref, pred)
            if use_aggregator:
                aggregator.add_scores(score)
            else:
                scores.append(score)
        if use_aggregator:
            result = aggregator.aggregate()
            for key in result:
                result[key] = result[key].mid.fmeasure
        else:
            result = {}
            for key in scores[0]:
                result[key] = list(score[key].fmeasure for score in scores)
        return result


def wmt22_pair(pair: str, segments: int) -> tuple[list[str], list[list[str]]]:
    if not (WMT22 / "system-outputs").is_dir():
        pytest.skip("../shared/data/wmt22 is not available")
    refs = [read_lines(p)[:segments] for p in wmt22_references(WMT22, pair).values()]
    system = next(p for found, _, p in wmt22_systems(WMT22) if found == pair)
    return read_lines(system)[:segments], [list(r) for r in zip(*refs)]


@pytest.mark.differential
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"use_stemmer": True},
        {"use_aggregator": False},
        {"use_aggregator": False, "use_stemmer": True, "rouge_types": ["rouge3", "rougeLsum"]},
        {"rouge_types": ["rouge1", "rouge4", "rougeL"], "tokenizer": str.split},
        {"multi": False},
        {"multi": False, "use_aggregator": False, "tokenizer": str.split},
    ],
    ids=repr,
)
@pytest.mark.parametrize("pair", ["de-en", "zh-en"])
def test_wmt22_equals_hfs_computation(pair: str, options: dict[str, Any]) -> None:
    """600 segments, every reference (score_multi) or the first (score), several seeds:
    the same dict, the same types, the global state untouched."""
    options = dict(options)
    predictions, references = wmt22_pair(pair, 600)
    if not options.pop("multi", True):
        references = [r[0] for r in references]
    for seed in (0, 7, 2**31 + 5):
        expected = hf_compute(predictions, references, seed, **options)
        metric = evaluate.load("rouge", seed=seed)
        before = global_state()
        got = metric.compute(predictions=predictions, references=references, **options)
        assert global_state() == before
        assert {k: encode(v) for k, v in got.items()} == {k: encode(v) for k, v in expected.items()}


def test_without_a_seed_the_global_state_at_load_decides() -> None:
    """As in HF: the seed is read when loading (the state's word at its position); the
    state when computing does not matter."""
    predictions = ["a b c d e", "b c", "the cat sat", "x y z", ""]
    references = ["a c d", "b c d", "a cat sat down", "y", "q"]
    np.random.seed(3)  # noqa: NPY002
    metric = evaluate.load("rouge")
    state = np.random.get_state()  # noqa: NPY002
    seed = int(state[1][0])  # a freshly seeded state is at position 624: the first word
    first = metric.compute(predictions=predictions, references=references)
    np.random.random(10)  # noqa: NPY002
    assert metric.compute(predictions=predictions, references=references) == first
    assert first == hf_compute(predictions, references, seed)
    np.random.seed(3)  # noqa: NPY002
    np.random.random(5)  # noqa: NPY002
    position = int(np.random.get_state()[2])  # noqa: NPY002
    word = int(np.random.get_state()[1][position])  # noqa: NPY002
    assert evaluate.load("rouge").seed == word
    assert evaluate.load("rouge", seed=11).seed == 11


# --- the layout, errors and calling conventions -------------------------------------------


def test_results_types_and_layout() -> None:
    rouge = evaluate.load("evaluate-metric/rouge")
    assert repr(rouge) == 'EvaluationModule(name: "rouge", module_type: "metric")'
    result = rouge.compute(predictions=["hello there", ""], references=["hello there", "x"])
    assert list(result) == ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    assert all(type(v) is np.float64 for v in result.values())
    lists = rouge.compute(
        predictions=["hello there", ""], references=["hello there", "x"], use_aggregator=False
    )
    assert lists == {
        "rouge1": [1.0, 0.0],
        "rouge2": [1.0, 0.0],
        "rougeL": [1.0, 0],
        "rougeLsum": [1.0, 0],
    }
    assert [type(v) for v in lists["rougeL"]] == [float, int]  # rouge-score's int 0
    # Tuples are several references (HF's datasets make them lists).
    as_tuples = rouge.compute(predictions=["a b"], references=[("a", "a b")], use_aggregator=False)
    assert as_tuples == {"rouge1": [1.0], "rouge2": [1.0], "rougeL": [1.0], "rougeLsum": [1.0]}
    assert rouge.compute(predictions=["a"], references=["a"], rouge_types=[]) == {}


def test_add_and_add_batch() -> None:
    rouge = evaluate.load("rouge", seed=5)
    rouge.add(prediction="the cat sat", reference="a cat sat")
    rouge.add_batch(predictions=["b c", "d"], references=["b", "d e"])
    collected = rouge.compute()
    direct = evaluate.load("rouge", seed=5).compute(
        predictions=["the cat sat", "b c", "d"], references=["a cat sat", "b", "d e"]
    )
    assert collected == direct


def test_errors() -> None:
    rouge = evaluate.load("rouge")
    with pytest.raises(ReferenceLayoutError, match=r"Mismatch in the number of predictions \(2\)"):
        rouge.compute(predictions=["a", "b"], references=[["a"]])
    with pytest.raises(ReferenceLayoutError, match=r"predictions\[1\] must be str, got NoneType"):
        rouge.compute(predictions=["a", None], references=["a", "b"])
    with pytest.raises(ReferenceLayoutError, match=r"references\[1\]\[0\] must be str, got int"):
        rouge.compute(predictions=["a", "b"], references=[["a"], [3]])
    with pytest.raises(ReferenceLayoutError, match="must be lists"):
        rouge.compute(predictions="a b", references="a b")
    with pytest.raises(InvalidInputError, match="needs predictions"):
        rouge.compute(predictions=["a"])
    with pytest.raises(IndexError):  # HF's script reads references[0]
        rouge.compute(predictions=[], references=[])
    with pytest.raises(ValueError, match="Invalid rouge type: rougeX"):
        rouge.compute(predictions=["a"], references=["a"], rouge_types=["rouge1", "rougeX"])
    with pytest.raises(ValueError, match="argmax of an empty sequence"):
        rouge.compute(predictions=["a", "b"], references=[["a"], []])
    before = global_state()
    with pytest.raises(ValueError, match="rougen requires positive n: rouge0"):
        rouge.compute(predictions=["a"], references=["a"], rouge_types=["rouge0"])
    assert global_state() == before  # restored on errors too
