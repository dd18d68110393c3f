"""The golden vectors (tests/data/golden_*.jsonl) through the public API (and compat.nltk),
compared with `==`: sacrebleu's, nltk's and jiwer's published results.

Where the upstream is installed, each vector is also recomputed with it, so the files cannot
drift from what the upstream gives; and every vector's exact value agrees with the figure its
source publishes.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import bleuprint
from bleuprint import BLEU, CHRF, TER
from bleuprint.significance.promotion import LEGACY, numpy_promotion
from tests.support.checks import assert_same_value
from tests.support.golden import DATA, Vector, load, params, same_float_sums, sentence_references

METRICS: dict[str, Any] = {"BLEU": BLEU, "CHRF": CHRF, "TER": TER}
FILES = ["bleu", "chrf", "ter", "significance"]  # sacrebleu's; golden_nltk.jsonl is below
SCORE_VECTORS = [p for name in ("bleu", "chrf", "ter") for p in params(name)]


@pytest.fixture(autouse=True)
def _no_seed_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    monkeypatch.delenv("BLEUPRINT_SEED", raising=False)


def skip_unless_same_float_sums(vector: Vector) -> None:
    if not same_float_sums(vector):
        pytest.skip(
            f"computed on Python {vector['python']}, whose float sum() differs from this one"
        )


def run(metrics: dict[str, Any], vector: Vector, raw_corpus_bleu: Any) -> Any:
    """Calls a vector's metric as the vector says, with `metrics`' classes."""
    cls, call, args = metrics[vector["metric"]], vector["call"], vector["args"]
    hyps, refs = vector["hypotheses"], vector["references"]
    with warnings.catch_warnings():
        # Sentence BLEU without effective order warns (sacrebleu logs the same advice).
        warnings.simplefilter("ignore")
        if call == "corpus_score":
            return cls(**args).corpus_score(hyps, refs)
        if call == "sentence_score":
            return cls(**args).sentence_score(hyps[0], sentence_references(vector))
        if call == "raw_corpus_bleu":
            return raw_corpus_bleu(hyps, refs, args["smooth_value"])
        if call == "compute_bleu":
            return cls.compute_bleu(**args)
    raise AssertionError(f"unknown call {call!r}")


def observed(vector: Vector, score: Any) -> dict[str, Any]:
    """The fields of `expected` read off a score object."""
    out: dict[str, Any] = {}
    for key in vector["expected"]:
        out[key] = str(score) if key == "text" else getattr(score, key)
    out["score"] = float(score.score)
    return out


@pytest.mark.parametrize(
    "vector", [p for p in SCORE_VECTORS if p.values[0]["call"] not in ("stats", "tokenize")]
)
def test_scores(vector: Vector) -> None:
    skip_unless_same_float_sums(vector)
    score = run(METRICS, vector, bleuprint.raw_corpus_bleu)
    assert observed(vector, score) == vector["expected"]


@pytest.mark.parametrize("vector", [p for p in SCORE_VECTORS if p.values[0]["call"] == "stats"])
def test_statistics(vector: Vector) -> None:
    stats = METRICS[vector["metric"]](**vector["args"]).stats(
        vector["hypotheses"], vector["references"]
    )
    rows = stats.rows.tolist()
    if vector["metric"] == "TER":
        # sacrebleu's TER row is [edits, average reference length]; ours keeps the sum and the
        # reference count, so the average is exactly the same division.
        rows = [[edits, words / nrefs] for edits, words, nrefs in rows]
    assert rows == vector["expected"]["rows"]


@pytest.mark.parametrize("vector", params("significance", call="bootstrap"))
def test_bootstrap(vector: Vector, monkeypatch: pytest.MonkeyPatch) -> None:
    skip_unless_same_float_sums(vector)
    # sacrebleu's bootstrap figures depend on numpy's scalar promotion: under numpy 1 they are
    # the ones it gave under numpy 1.26 (docs/significance.md).
    legacy = numpy_promotion() == LEGACY
    expected = vector["expected_numpy1"] if legacy else vector["expected"]
    monkeypatch.setenv("SACREBLEU_SEED", str(vector["args"]["seed"]))
    result = METRICS[vector["metric"]]().corpus_score(
        vector["hypotheses"], vector["references"], n_bootstrap=vector["args"]["n_bootstrap"]
    )
    dtype = {"float32": np.float32, "float64": np.float64, "float": float}[expected["dtype"]]
    assert result.score == vector["expected"]["score"]  # the same under either numpy
    assert type(result.mean) is dtype
    assert result.mean == dtype(expected["mean"])
    assert result.ci == dtype(expected["ci"])
    assert result.format(width=1) == expected["text_width_1"]


PUBLISHED = [p for name in FILES for p in params(name) if "published" in p.values[0]]


@pytest.mark.parametrize("vector", PUBLISHED)
def test_exact_values_agree_with_the_published_figures(vector: Vector) -> None:
    published = vector["published"]
    decimals = len(published.split(".")[1]) if "." in published and "e" not in published else 0
    tolerance = vector.get("published_tolerance", 10.0**-decimals)
    assert abs(vector["expected"]["score"] - float(published)) <= tolerance


def test_every_vector_names_its_upstream_and_is_unique() -> None:
    upstreams = {name: ("sacrebleu", "2.6.0") for name in FILES}
    upstreams |= {"nltk": ("nltk", "3.10.4"), "jiwer": ("jiwer", "4.0.0")}
    names = sorted(path.stem.removeprefix("golden_") for path in DATA.glob("golden_*.jsonl"))
    assert set(upstreams) <= set(names)
    ids = []
    for name in names:  # golden_compat.jsonl holds several upstreams (tests/compat/test_compat.py)
        for vector in load(name):
            if name in upstreams:
                assert (vector["upstream"], vector["version"]) == upstreams[name]
            assert vector["upstream"]
            assert vector["version"]
            assert vector["python"]
            assert vector["source"]
            ids.append(vector["id"])
    assert len(ids) == len(set(ids))


@pytest.mark.differential
@pytest.mark.parametrize("vector", SCORE_VECTORS)
def test_vectors_are_what_sacrebleu_gives(vector: Vector) -> None:
    skip_unless_same_float_sums(vector)
    sacrebleu = pytest.importorskip("sacrebleu")
    if sacrebleu.__version__ != vector["version"]:
        pytest.skip(f"sacrebleu {sacrebleu.__version__} is installed, not {vector['version']}")
    from sacrebleu.metrics import BLEU as SacreBLEU
    from sacrebleu.metrics import CHRF as SacreCHRF
    from sacrebleu.metrics import TER as SacreTER

    theirs = {"BLEU": SacreBLEU, "CHRF": SacreCHRF, "TER": SacreTER}
    if vector["call"] == "tokenize":
        from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

        tokens = TercomTokenizer(**vector["args"])(vector["hypotheses"][0])
        assert tokens == vector["expected"]["tokens"]
        return
    if vector["call"] == "stats":
        rows = theirs[vector["metric"]](**vector["args"])._extract_corpus_statistics(
            vector["hypotheses"], vector["references"]
        )
        assert [list(row) for row in rows] == vector["expected"]["rows"]
        return
    score = run(theirs, vector, sacrebleu.raw_corpus_bleu)
    assert observed(vector, score) == vector["expected"]


# --- nltk (tests/data/golden_nltk.jsonl) ------------------------------------------------------


def nltk_call(module: Any, vector: Vector) -> tuple[Any, int]:
    """Calls `module.<function>` (bleuprint.compat.nltk or nltk's bleu_score) as the vector
    says; returns the value, or {"raises", "message"} for an AssertionError, and the number of
    warnings. JSON lists of weights are tuples, lists of them lists of tuples, as nltk takes."""
    args = dict(vector["args"])
    if "weights" in args:
        weights = args.pop("weights")
        nested = bool(weights) and isinstance(weights[0], list)
        args["weights"] = [tuple(w) for w in weights] if nested else tuple(weights)
    smoothing = args.pop("smoothing", None)
    if smoothing is not None:
        functions = module.SmoothingFunction(**smoothing.get("params", {}))
        args["smoothing_function"] = getattr(functions, f"method{smoothing['method']}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if vector["function"] == "smoothed_precisions":
                refs, hyp = args["references"], args["hypothesis"]
                p_n = [module.modified_precision(refs, hyp, n) for n in range(1, 5)]
                smoothed = args["smoothing_function"](
                    p_n, references=refs, hypothesis=hyp, hyp_len=len(hyp)
                )
                value: Any = [float(p) for p in smoothed]
            else:
                value = getattr(module, vector["function"])(**args)
        except AssertionError as error:
            value = {"raises": "AssertionError", "message": str(error)}
    return value, len(caught)


@pytest.mark.parametrize("vector", params("nltk"))
def test_nltk_vectors(vector: Vector) -> None:
    from bleuprint.compat import nltk as ours

    skip_unless_same_float_sums(vector)
    value, warned = nltk_call(ours, vector)
    assert_same_value(value, vector["expected"])
    assert warned == vector["warnings"]


@pytest.mark.differential
@pytest.mark.parametrize("vector", params("nltk"))
def test_nltk_vectors_are_what_nltk_gives(vector: Vector) -> None:
    nltk = pytest.importorskip("nltk")
    if nltk.__version__ != vector["version"]:
        pytest.skip(f"nltk {nltk.__version__} is installed, not {vector['version']}")
    skip_unless_same_float_sums(vector)
    from nltk.translate import bleu_score

    value, warned = nltk_call(bleu_score, vector)
    assert_same_value(value, vector["expected"])
    assert warned == vector["warnings"]


# --- jiwer (tests/data/golden_jiwer.jsonl) ----------------------------------------------------


@pytest.mark.parametrize("vector", params("jiwer"))
def test_jiwer_vectors(vector: Vector) -> None:
    from bleuprint.metrics.functional_wer import corpus_cer, corpus_wer

    score_of = corpus_wer if vector["unit"] == "words" else corpus_cer
    score = score_of(vector["hypotheses"], [vector["references"]])
    assert {key: getattr(score, key) for key in vector["expected"]} == vector["expected"]


@pytest.mark.differential
@pytest.mark.parametrize("vector", params("jiwer"))
def test_jiwer_vectors_are_what_jiwer_gives(vector: Vector) -> None:
    jiwer = pytest.importorskip("jiwer")
    from importlib.metadata import version

    if version("jiwer") != vector["version"]:
        pytest.skip(f"jiwer {version('jiwer')} is installed, not {vector['version']}")
    process = jiwer.process_words if vector["unit"] == "words" else jiwer.process_characters
    output = process(vector["references"], vector["hypotheses"])
    assert {key: getattr(output, key) for key in vector["expected"]} == vector["expected"]
