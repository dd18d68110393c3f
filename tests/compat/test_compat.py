"""The compat modules against the verified vectors of ../shared/reference/implementations.md:
the §2 table V1-V10 and the §4-§7 HF evaluate, torchmetrics, nlg-metricverse, Moses and mteval
results are golden vectors in tests/data/golden_compat.jsonl (with the compat issue's facts);
here, how the compat modules behave around them.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import warnings

import numpy as np
import pytest

from bleuprint import BLEU, BLEUConfig, bootstrap_ci, paired_test_stats
from bleuprint.compat import evaluate
from bleuprint.compat.moses import multi_bleu, multi_bleu_detok
from bleuprint.compat.mteval import mteval_v13a, mteval_v14
from bleuprint.compat.nlgmetricverse import NLGMetricverse, load_metric
from bleuprint.compat.nltk import LengthMismatchError, corpus_bleu, sentence_bleu
from bleuprint.compat.torchmetrics import (
    BLEUScore,
    SacreBLEUScore,
    bleu_score,
    sacre_bleu_score,
)
from bleuprint.compat.torchmetrics import arithmetic as torchmetrics_arithmetic
from bleuprint.errors import (
    BleuprintWarning,
    InvalidInputError,
    InvalidOptionError,
    ReferenceLayoutError,
    StatsMismatchError,
)
from bleuprint.metrics import GLEUConfig
from bleuprint.metrics.bleu.aggregation import float32_running_sum
from bleuprint.metrics.bleu.config import knob_table, knob_values
from bleuprint.presets import PRESETS
from tests.support.data import DOCS
from tests.support.golden import load

# implementations.md §2's cross-implementation table: V1..V10 (hypotheses, references grouped
# per hypothesis) and each implementation's result, from tests/data/golden_compat.jsonl; the
# file's other vectors call the HF evaluate and nlg-metricverse APIs (§4, §6).
COMPAT_VECTORS = [v for v in load("compat") if "vector" in v]
API_VECTORS = {v["id"]: v for v in load("compat") if "vector" not in v}
VECTORS = {v["vector"]: (v["hypotheses"], v["references"]) for v in COMPAT_VECTORS}


def _row(preset: str, entry: str = "corpus_score") -> dict[str, dict]:
    """Vector name -> expected, for one implementation and entry point, V1..V10 in order."""
    return {
        v["vector"]: v["expected"]
        for v in COMPAT_VECTORS
        if (v["preset"], v["entry"]) == (preset, entry)
    }


_PRESETS = list(dict.fromkeys(v["preset"] for v in COMPAT_VECTORS))
# Floats compared with ==: every implementation's exact result.
TABLE = {
    name: [e["score"] for e in _row(name).values()]
    for name in _PRESETS
    if "score" in next(iter(_row(name).values()))
}
# Moses and mteval print 2 and 4 decimals, and cannot be installed here: the printed figure is
# compared with the score formatted the same way.
PRINTED = {
    name: [e["printed"] for e in _row(name).values()]
    for name in _PRESETS
    if "printed" in next(iter(_row(name).values()))
}
HF_SMOOTH = [e["score"] for e in _row("hf", "smooth").values()]
TORCH_SMOOTH = {key: e["score"] for key, e in _row("torchmetrics", "smooth").items()}


@pytest.fixture
def numpy_arithmetic(monkeypatch: pytest.MonkeyPatch) -> None:
    """compat.torchmetrics without torch: the golden torchmetrics figures are ported ones
    (verification PORT), numpy's float32; tests/compat/test_torchmetrics.py compares the
    torch arithmetic with the real torchmetrics."""
    monkeypatch.setattr(torchmetrics_arithmetic, "torch_module", lambda: None)


@pytest.mark.parametrize("name", list(TABLE))
def test_presets_reproduce_the_cross_implementation_table(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nltk's method0 warns on V3, V6
        scores = [BLEUConfig.from_preset(name).item_score(h, r).score for h, r in VECTORS.values()]
    assert [float(s) for s in scores] == TABLE[name]
    if BLEUConfig.from_preset(name).dtype == "float32":
        assert all(isinstance(s, np.float32) for s in scores)


@pytest.mark.parametrize("name", list(PRINTED))
def test_printed_presets_reproduce_the_table(name: str) -> None:
    digits = 2 if name.startswith("moses") else 4
    scores = [BLEUConfig.from_preset(name).item_score(h, r).score for h, r in VECTORS.values()]
    assert [f"{s:.{digits}f}" for s in scores] == PRINTED[name]


def test_smoothed_variants(numpy_arithmetic: None) -> None:
    hf = evaluate.load("bleu")
    scores = [
        hf.compute(predictions=h, references=r, smooth=True)["bleu"] for h, r in VECTORS.values()
    ]
    assert scores == HF_SMOOTH
    for key, expected in TORCH_SMOOTH.items():
        hyps, refs = VECTORS[key]
        assert float(bleu_score(hyps, refs, smooth=True)) == expected


# --- nltk --------------------------------------------------------------------------------


def test_issue_nltk_fact() -> None:
    (vector,) = [v for v in load("nltk") if v["id"] == "nltk-issue-fact-zero-weights"]
    refs, hyp = vector["args"]["references"], vector["args"]["hypothesis"]
    # nltk's method0 warns about the zero 3- and 4-gram precisions even at weight 0.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert sentence_bleu(refs, hyp, weights=(0.25, 0.25, 0, 0)) == vector["expected"]
    assert ["3-gram" in str(w.message) for w in caught] == [True, False]


def test_nltk_length_mismatch_names_both_lengths() -> None:
    with pytest.raises(LengthMismatchError, match="3 hypotheses and 2 reference lists"):
        corpus_bleu([[["a"]], [["b"]]], [["a"], ["b"], ["c"]])
    assert issubclass(LengthMismatchError, AssertionError)
    assert issubclass(LengthMismatchError, ValueError)


def test_nltk_wrong_nesting_shows_the_shape() -> None:
    with pytest.raises(ReferenceLayoutError, match=r"list_of_references=\[\[ref_tokens"):
        corpus_bleu([["the", "cat"]], [["the", "cat"]])
    with pytest.raises(ReferenceLayoutError, match=r"hypotheses\[0\] is a str"):
        corpus_bleu([[["the", "cat"]]], ["the cat"])


# --- HF evaluate -------------------------------------------------------------------------


def _fields(result: dict, expected: dict) -> dict:
    """The keys of `result` that `expected` names, nested dicts likewise."""
    return {
        key: _fields(result[key], value) if isinstance(value, dict) else result[key]
        for key, value in expected.items()
    }


# How each kind of API vector is called.
API_ENTRIES = {
    "evaluate": lambda v: evaluate.load(v["metric"]).compute(**v["args"]),
    "nlgmetricverse": lambda v: _metricverse(**v["args"]),
    "multi_bleu": lambda v: multi_bleu(**v["args"]),
    "multi_bleu_detok": lambda v: multi_bleu_detok(**v["args"]),
    "mteval_v13a": lambda v: mteval_v13a(**v["args"]),
    "torchmetrics_bleu_score": lambda v: bleu_score(**v["args"]),
}


@pytest.mark.parametrize("vector", list(API_VECTORS.values()), ids=list(API_VECTORS))
def test_api_vectors(vector: dict, numpy_arithmetic: None) -> None:
    """HF evaluate's, nlg-metricverse's, torchmetrics', Moses' and mteval's published results
    (implementations.md §4-§7, and the compat issue's facts): the whole result or the fields
    the source gives, the printed line, or the score as printed (Moses and mteval cannot run
    here, and print 2 and 4 decimals)."""
    result = API_ENTRIES[vector["entry"]](vector)
    expected = vector["expected"]
    if vector["entry"] in ("evaluate", "nlgmetricverse"):
        if vector.get("fields"):
            result = _fields(result, expected)
        assert result == expected
        return
    score = float(result if vector["entry"] == "torchmetrics_bleu_score" else result.score)
    checks = 0
    if "text" in expected:
        assert str(result) == expected["text"]
        checks += 1
    if "text_prefix" in expected:
        assert str(result).startswith(expected["text_prefix"])
        checks += 1
    if "printed" in expected:
        assert f"{score:.{expected['decimals']}f}" == expected["printed"]
        checks += 1
    if "score" in expected:
        assert score == expected["score"]
        checks += 1
    assert checks > 0


def test_hf_bleu_vectors() -> None:
    bleu = evaluate.load("bleu")
    pred, ref = ["the cat sat on the mat."], [["the cat is on the mat ."]]
    assert bleu.compute(predictions=pred, references=ref, tokenizer=str.split)["bleu"] == 0.0
    assert bleu.compute(predictions=pred, references=ref)["bleu"] > 0


def test_hf_bleu_errors_instead_of_zero_division() -> None:
    with pytest.raises(InvalidInputError, match="divides by zero"):
        evaluate.load("bleu").compute(predictions=[""], references=["the cat sat"])
    with pytest.raises(ReferenceLayoutError, match="Mismatch in the number"):
        evaluate.load("bleu").compute(predictions=["a", "b"], references=[["a"]])
    with pytest.raises(ReferenceLayoutError, match=r"predictions\[1\] must be str, got int"):
        evaluate.load("bleu").compute(predictions=["a", 3], references=[["a"], ["b"]])
    with pytest.raises(ReferenceLayoutError, match=r"references\[1\]\[0\] must be str.*expected"):
        evaluate.load("bleu").compute(predictions=["a", "b"], references=[["a"], [["b"]]])
    with pytest.raises(InvalidOptionError, match="no metric 'meteor'"):
        evaluate.load("meteor")


def test_hf_sacrebleu_and_batches() -> None:
    sacre = evaluate.load("sacrebleu")
    with pytest.raises(InvalidInputError, match="same number of references"):
        sacre.compute(predictions=["a", "b"], references=[["a"], ["b", "c"]])
    bleu = evaluate.load("evaluate-metric/bleu")
    for h, r in zip(*VECTORS["V8"]):
        bleu.add(prediction=h, reference=r)
    assert bleu.compute()["bleu"] == TABLE["hf"][7]


def test_google_bleu_symmetry_and_empty() -> None:
    gleu = evaluate.load("google_bleu")
    ab = gleu.compute(predictions=["a b c"], references=[["a b"]])
    ba = gleu.compute(predictions=["a b"], references=[["a b c"]])
    assert ab == ba == {"google_bleu": 0.5}
    assert gleu.compute(predictions=[""], references=[[""]]) == {"google_bleu": 0.0}


# --- nlg-metricverse ----------------------------------------------------------------------


def _metricverse(**kwargs: object) -> dict:
    result = NLGMetricverse(metrics=load_metric("bleu"))(**kwargs)
    result.pop("total_time_elapsed")
    for value in result.values():
        if isinstance(value, dict):
            value.pop("time_elapsed")
    return result


def test_nlgmetricverse_keeps_a_list_holding_an_empty_reference() -> None:
    # Upstream drops falsy items only: [""] is a non-empty list, so the item stays and adds
    # a reference length of 0.
    result = _metricverse(predictions=["the cat sat", "x"], references=[["the cat sat"], [""]])
    assert result["empty_items"] == 0
    assert (result["bleu"]["translation_length"], result["bleu"]["reference_length"]) == (4, 3)


def test_nlgmetricverse_reads_numpy_array_items_as_lists() -> None:
    # An array has no truth value (upstream's empty-item test would raise); it counts as the
    # list it holds, so an empty array is an empty item and a full one scores like a list.
    as_arrays = _metricverse(
        predictions=["the cat sat", "x"], references=[np.array(["the cat sat"]), np.array([])]
    )
    as_lists = _metricverse(predictions=["the cat sat", "x"], references=[["the cat sat"], []])
    assert as_arrays == as_lists
    assert as_arrays["empty_items"] == 1


def test_nlgmetricverse_bad_nesting() -> None:
    with pytest.raises(ReferenceLayoutError, match="expected predictions="):
        NLGMetricverse()(predictions=["a"], references=["a", "b"])
    with pytest.raises(ReferenceLayoutError, match=r"references\[0\] must be a str or a list"):
        NLGMetricverse()(predictions=["a"], references=[[["a"]]])


# --- torchmetrics ------------------------------------------------------------------------


def test_torchmetrics_doctest_and_float32() -> None:
    preds, target = (
        ["the cat is on the mat"],
        [["there is a cat on the mat", "a cat is on the mat"]],
    )
    score = bleu_score(preds, target)  # its value: test_api_vectors[torchmetrics-doctest]
    try:
        import torch
    except ImportError:
        assert isinstance(score, np.float32)
    else:  # pragma: no cover - torch is not a test dependency
        assert isinstance(score, torch.Tensor)


def test_torchmetrics_classes_accumulate(numpy_arithmetic: None) -> None:
    metric = BLEUScore()
    hyps, refs = VECTORS["V8"]
    first = metric(hyps[:1], refs[:1])
    assert float(first) == float(bleu_score(hyps[:1], refs[:1]))
    metric.update(hyps[1:], refs[1:])
    assert float(metric.compute()) == TABLE["torchmetrics"][7]
    sacre = SacreBLEUScore(lowercase=True)
    sacre.update(*VECTORS["V10"])
    assert float(sacre.compute()) == 1.0
    assert float(sacre_bleu_score(*VECTORS["V8"])) == TABLE["torchmetrics-sacrebleu"][7]
    with pytest.raises(InvalidInputError, match="Corpus has different size 1 != 2"):
        bleu_score(["a"], [["a"], ["b"]])
    with pytest.raises(InvalidOptionError, match="different weights than `n_gram`"):
        BLEUScore(weights=(0.5, 0.5))
    with pytest.raises(ReferenceLayoutError, match=r"target\[0\] must be a list"):
        sacre_bleu_score(["a b"], ["a b"])


# --- Moses and mteval ---------------------------------------------------------------------


def test_moses_lines() -> None:
    # The printed lines are golden vectors (test_api_vectors); here, the errors and warnings.
    with pytest.raises(InvalidInputError, match="reference file 0 has 1 lines but there are 2"):
        multi_bleu(["a b c d", "a b c d"], [["a b c d"]])
    with pytest.warns(BleuprintWarning, match="as multi-bleu.perl does"):
        perl = multi_bleu(["a b c d", "a b c d"], [["a b c d"]], mismatched="perl")
    assert str(perl) == (
        "BLEU = 0.00, 50.0/50.0/50.0/50.0 (BP=0.000, ratio=0.001, hyp_len=8, ref_len=10003)"
    )
    with pytest.raises(InvalidInputError, match="dies"):
        multi_bleu([""], [["a b"]])
    with pytest.raises(ReferenceLayoutError, match="reference files' lines"):
        multi_bleu(["a b"], ["a b"])


def test_mteval() -> None:
    # mteval's published figures are golden vectors (test_api_vectors); here, its options.
    v3 = VECTORS["V3"]
    assert mteval_v13a(v3[0], [[r[0] for r in v3[1]]], smoothing=False).score == 0.0
    # v13a lowercases ASCII only; v14's international tokenization lowercases everything.
    assert mteval_v13a(["Ünïcödé ÀB"], [["ünïcödé àb"]]).score < 1.0
    assert mteval_v14(["Ünïcödé ÀB"], [["ünïcödé àb"]]).score == 1.0
    assert mteval_v14(["a &amp; b c"], [["a & b c"]]).score == 1.0
    with pytest.raises(InvalidInputError, match="log of 0"):
        mteval_v13a([""], [["a"]])
    with pytest.raises(InvalidInputError, match="reference set 0 has 1 segments"):
        mteval_v13a(["a", "b"], [["a"]])


# --- knobs and the generated table -------------------------------------------------------


def test_docs_table_is_generated_from_the_presets() -> None:

    doc = (DOCS / "compat.md").read_text(encoding="utf-8")
    assert knob_table() in doc
    assert knob_values() in doc


def test_knob_validation() -> None:
    with pytest.raises(InvalidOptionError, match="unknown ref_length 'longest'"):
        BLEUConfig(ref_length="longest")
    with pytest.raises(InvalidOptionError, match="float32"):
        BLEUConfig(dtype="float32")
    with pytest.raises(InvalidOptionError, match="max_ngram_order"):
        BLEUConfig(max_ngram_order=0)
    assert BLEUConfig(weights=(0.5, 0.5)).weights == ((0.5, 0.5),)
    assert BLEUConfig(weights=[(1,), (0.5, 0.5)]).orders == 2


def test_average_reference_length() -> None:
    config = BLEUConfig(ref_length="average", smooth_method="none", arithmetic="nmt", scale=1)
    result = config.item_score(["a b c d"], [["a b c d", "a b c d e f"]])
    assert result.ref_len == 5.0
    assert result.bp == float(np.exp(1 - 5 / 4))


def test_compare_json_serialisable() -> None:
    hyps, refs = VECTORS["V8"]
    assert json.loads(json.dumps(evaluate.load("bleu").compute(predictions=hyps, references=refs)))


# --- presets as Stats -------------------------------------------------------------------


def _resampled_scores(stats, n_samples: int, seed: int) -> list:
    """Each bootstrap resample's score, from the resampled rows (sacrebleu's draw)."""
    draws = np.random.default_rng(seed).choice(len(stats), size=(n_samples, len(stats)))
    return [stats[indices].score() for indices in draws]


# The sacrebleu preset resamples with sacrebleu's float32 arithmetic (the test after this).
@pytest.mark.parametrize("name", [name for name in PRESETS if name != "sacrebleu"])
def test_bootstrap_of_a_preset_resamples_its_rows(name: str) -> None:
    hyps, refs = VECTORS["V8"]
    stats = BLEU(preset=name).item_stats(hyps * 4, refs * 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # nltk's zero-order warnings
        ci = bootstrap_ci(stats, 40, seed=7)
        scores = _resampled_scores(stats, 40, 7)
    # sacrebleu's estimate: statistics.mean of the sorted scores (float32 ones stay float32).
    values = sorted(s.score if isinstance(s.score, np.float32) else s.number for s in scores)
    assert ci.mean == float(statistics.mean(values))
    assert (ci.lower, ci.upper) == (float(values[1]), float(values[-2]))
    assert ci.score == stats.score().score  # as reported: the coco preset lists every order


def test_sacrebleu_preset_bootstraps_as_sacrebleu() -> None:
    hyps, refs = VECTORS["V8"]
    ours = bootstrap_ci(BLEU(preset="sacrebleu").item_stats(hyps * 3, refs * 3), 50, seed=3)
    streams = [[r[k] for r in refs * 3] for k in range(2)]
    native = bootstrap_ci(BLEU().stats(hyps * 3, streams), 50, seed=3)
    assert (ours.mean, ours.ci, ours.lower, ours.upper) == (
        native.mean, native.ci, native.lower, native.upper
    )  # fmt: skip


def test_paired_test_on_preset_stats() -> None:
    hyps, refs = VECTORS["V8"]
    other = ["The dog bit a man.", "It was surprising.", "The man bit him."]
    config = BLEUConfig.from_preset("hf")
    result = paired_test_stats(
        {
            "a": [BLEU(preset=config).item_stats(hyps * 3, refs * 3)],
            "b": [BLEU(preset=config).item_stats(other * 3, refs * 3)],
        },
        n_samples=30,
        seed=1,
    )
    assert result.results["BLEU"][0].score == config.item_score(hyps * 3, refs * 3).score
    assert "preset:hf" in str(result.signatures["BLEU"])
    with pytest.raises(StatsMismatchError):
        paired_test_stats(
            {
                "a": [BLEU(preset="hf").item_stats(hyps, refs)],
                "b": [BLEU(preset="nltk").item_stats(other, refs)],
            }
        )


def test_resampling_is_refused_where_sums_do_not_define_the_score() -> None:
    hyps, refs = VECTORS["V8"]
    for config in (
        BLEUConfig.from_preset("hf", ref_length="average"),
        BLEUConfig.from_preset("nltk", smooth_method="nltk5"),
    ):
        stats = BLEU(preset=config).item_stats(hyps, refs)
        with pytest.raises(InvalidOptionError, match="not defined|cannot be resampled"):
            bootstrap_ci(stats, 10, seed=1)


def test_preset_stats_load_in_a_fresh_process(tmp_path) -> None:
    path = tmp_path / "nltk.npz"
    hyps, refs = VECTORS["V8"]
    stats = BLEU(preset=BLEUConfig.from_preset("nltk", smooth_method="nltk3")).item_stats(
        hyps, refs
    )
    stats.save(path)
    script = f"import bleuprint; print(repr(bleuprint.Stats.load({str(path)!r}).score().score))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == repr(stats.score().score)


def test_gleu_is_a_metric_config() -> None:
    hyps, refs = VECTORS["V8"]
    config = GLEUConfig("13a", 1, 4)
    stats = config.stats(hyps[:1], refs[:1]) + config.stats(hyps[1:], refs[1:])
    google = evaluate.load("google_bleu").compute(predictions=hyps, references=refs)
    assert stats.score().score == google["google_bleu"]
    assert stats.score().name == "GLEU"
    with pytest.raises(StatsMismatchError):
        stats + GLEUConfig("13a", 1, 2).stats(hyps, refs)
    ci = bootstrap_ci(stats, 20, seed=2)
    assert ci.metric == "GLEU"


def test_variant_keyword_is_deprecated() -> None:
    # presets.corpus_score(variant=) went with the one-metric refactor; its rule (the old
    # keyword still works, with a DeprecationWarning; giving both is an error) lives on in
    # errors.renamed_keyword, which the library's renamed keywords call.
    from bleuprint.errors import renamed_keyword

    hyps, refs = VECTORS["V3"]
    with pytest.warns(DeprecationWarning, match="variant= is deprecated; use preset="):
        chosen = renamed_keyword(None, "hf", "variant", "sacrebleu")
    old = BLEUConfig.from_preset(chosen).item_score(hyps, refs)
    chosen = renamed_keyword("hf", None, "variant", "sacrebleu")
    assert old == BLEUConfig.from_preset(chosen).item_score(hyps, refs)
    with pytest.raises(InvalidOptionError, match="give preset= only"):
        renamed_keyword("hf", "hf", "variant", "sacrebleu")


def test_torchmetrics_state_is_the_float32_running_sum() -> None:
    hyps, refs = VECTORS["V8"]
    metric = BLEUScore()
    metric.update(hyps[:2], refs[:2])
    metric.update(hyps[2:], refs[2:])
    whole = BLEU(preset="torchmetrics").item_stats(hyps, refs)
    assert np.array_equal(metric._state.sums, float32_running_sum(whole.rows))
    assert float(metric.compute()) == float(whole.score().score)


def test_knob_names_follow_the_core() -> None:
    # The knobs describe the core's reference-length rules and tokenizers; the Python-side
    # tokenizers are mteval-v14's entity step before intl, and caller-made token lists.
    from bleuprint import _core
    from bleuprint.metrics.bleu import knobs

    assert list(knobs.REF_LENGTHS) == list(_core.REF_LENGTHS)
    # Python-side knobs: mteval's entity decoding before intl, token lists, and the PTB
    # tokenizer (the core's scanner, called before the kernel counts).
    assert set(knobs.TOKENIZERS) == set(_core.TOKENIZERS) | {"mteval-intl", "tokens", "ptb"}


def test_hand_made_preset_and_gleu_rows_are_checked() -> None:
    from bleuprint import Stats
    from bleuprint.errors import StatsFormatError

    nltk = BLEUConfig.from_preset("nltk")
    with pytest.raises(StatsFormatError, match="correct_n <= total_n"):
        Stats(np.array([[3, 3, 4, 1, 1, 1, 3, 2, 1, 1]]), nltk, 1)
    average = BLEUConfig.from_preset("hf", ref_length="average")
    with pytest.raises(StatsFormatError, match="nrefs >= 1"):
        Stats(np.array([[3, 3, 3, 1, 1, 1, 3, 2, 1, 1, 0]]), average, 1)
    with pytest.raises(StatsFormatError, match="n_match <= n_all"):
        Stats(np.array([[3, 2]]), GLEUConfig(), 1)
    made = Stats(np.array([[3, 3, 3, 1, 1, 1, 3, 2, 1, 1]]), nltk, 1)
    assert made.score().counts == [3, 1, 1, 1]


def test_compat_guide_python_examples_run(tmp_path) -> None:
    import re

    doc = (DOCS / "compat.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", doc, flags=re.S)
    assert len(blocks) == 3
    # Each in a fresh interpreter: the sacrebleu one calls install(), which must come before
    # any `import sacrebleu` and would stay installed in this process.
    for block in blocks:  # the examples assert their claims
        done = subprocess.run(
            [sys.executable, "-c", block], cwd=tmp_path, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr
    assert (tmp_path / "hf.npz").exists()


def test_the_core_has_every_arithmetic_knob():
    from bleuprint import _core
    from bleuprint.metrics.bleu.knobs import ARITHMETICS

    assert list(ARITHMETICS) == _core.ARITHMETICS


def test_nltk_parameter_types_are_kept_apart() -> None:
    """nltk's method6 gives different floats for alpha=4 and alpha=4.0 (a Fraction times an
    int stays exact); bleuprint's caches must not hand one the other's knobs."""
    from nltk.translate import bleu_score as real

    from bleuprint.compat.nltk import SmoothingFunction

    hyp = [4, 3, 2, 4, 3, 5]
    refs = [[4, 4, 2, 4, 2, 5, 2, 2, 3, 5], [0, 4, 3, 5, 1], [0, 5, 4, 2]]
    alphas = (4, 4.0, 4, 4.0)
    expected = [
        real.sentence_bleu(refs, hyp, smoothing_function=real.SmoothingFunction(alpha=a).method6)
        for a in alphas
    ]
    assert expected[0] != expected[1]  # the case this test is about
    for alpha, value in zip(alphas, expected):
        method = SmoothingFunction(alpha=alpha).method6
        assert sentence_bleu(refs, hyp, smoothing_function=method) == value
