"""``bleuprint.compat.torchmetrics``' ROUGE against the real torchmetrics 1.9.0: every value of
``rouge_score`` and ``ROUGEScore.compute()`` equal (``==``, float32) on WMT22 English text and
on generated text, for both ``accumulate`` modes, the stemmer, several references, a custom
normalizer and tokenizer, and the batch-by-batch states.

``rougeLsum`` is left out of the comparisons: torchmetrics always splits its sentences with
nltk's ``punkt_tab`` model, which cannot be downloaded here; without it bleuprint raises an
error naming the download (tested), where torchmetrics raises ``OSError``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuprint.compat.torchmetrics import ROUGEScore, rouge_score
from bleuprint.errors import InvalidOptionError
from tests.support.data import read_lines, wmt22_references, wmt22_systems

torch = pytest.importorskip("torch")
tm_functional = pytest.importorskip("torchmetrics.functional.text")
tm_text = pytest.importorskip("torchmetrics.text")

KEYS = ("rouge1", "rouge2", "rougeL", "rouge4")


def _same(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    assert sorted(ours) == sorted(theirs)
    for key, value in theirs.items():
        assert ours[key].dtype == value.dtype, key
        assert bool(ours[key] == value), (key, ours[key], value)


def _wmt22_english(root: Path, n: int) -> tuple[list[str], list[list[str]]]:
    """The first n lines of one de-en system and each line's two references."""
    hyp_path = next(path for pair, _, path in wmt22_systems(root) if pair == "de-en")
    streams = [read_lines(p)[:n] for p in wmt22_references(root, "de-en").values()]
    return read_lines(hyp_path)[:n], [list(refs) for refs in zip(*streams)]


@pytest.mark.parametrize("accumulate", ["best", "avg"])
@pytest.mark.parametrize("use_stemmer", [False, True])
def test_functional_on_wmt22(wmt22: Path, accumulate: str, use_stemmer: bool) -> None:
    hyps, refs = _wmt22_english(wmt22, 300)
    args = {"accumulate": accumulate, "use_stemmer": use_stemmer, "rouge_keys": KEYS}
    _same(rouge_score(hyps, refs, **args), tm_functional.rouge_score(hyps, refs, **args))
    single = [r[:1] for r in refs]
    _same(rouge_score(hyps, single, **args), tm_functional.rouge_score(hyps, single, **args))


def test_metric_states_over_batches(wmt22: Path) -> None:
    hyps, refs = _wmt22_english(wmt22, 120)
    ours, theirs = ROUGEScore(rouge_keys=KEYS), tm_text.ROUGEScore(rouge_keys=KEYS)
    for start in range(0, 120, 50):
        batch = (hyps[start : start + 50], refs[start : start + 50])
        ours.update(*batch)
        theirs.update(*batch)
    _same(ours.compute(), theirs.compute())
    ours.reset()
    ours.update(hyps[0], refs[0])
    theirs.reset()
    theirs.update(hyps[0], refs[0])
    _same(ours.compute(), theirs.compute())


def test_custom_normalizer_and_tokenizer() -> None:
    hyps = ["The Cats were RUNNING home!", "Ein Hund läuft."]
    refs = [["the cat runs home", "cats running"], ["Der Hund lief."]]

    def normalizer(text: str) -> str:
        return text.replace("!", " ").lower()

    for args in (
        {"tokenizer": str.split},
        {"normalizer": normalizer},
        {"normalizer": normalizer, "tokenizer": str.split, "use_stemmer": True},
    ):
        ours = rouge_score(hyps, refs, rouge_keys=KEYS, **args)
        _same(ours, tm_functional.rouge_score(hyps, refs, rouge_keys=KEYS, **args))


words = st.sampled_from(["the", "cat", "Cats", "running", "ran", "a", "mat", "5", "x-y", "é"])
texts = st.lists(words, max_size=12).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(texts, st.lists(texts, min_size=1, max_size=3)), min_size=1, max_size=6),
    st.sampled_from(["best", "avg"]),
    st.booleans(),
)
def test_generated_text(pairs: list[Any], accumulate: str, use_stemmer: bool) -> None:
    hyps = [h for h, _ in pairs]
    refs = [r for _, r in pairs]
    args = {"accumulate": accumulate, "use_stemmer": use_stemmer, "rouge_keys": KEYS}
    _same(rouge_score(hyps, refs, **args), tm_functional.rouge_score(hyps, refs, **args))


def test_argument_errors_are_torchmetrics() -> None:
    with pytest.raises(ValueError, match="Got unknown rouge key rougeX"):
        rouge_score(["a"], ["a"], rouge_keys="rougeX")
    with pytest.raises(ValueError, match="Got unknown accumulate value max"):
        rouge_score(["a"], ["a"], accumulate="max")


def test_rouge_lsum_without_nltks_model_names_the_download() -> None:
    pytest.importorskip("nltk")
    import nltk

    try:
        nltk.data.find("tokenizers/punkt_tab")
    except LookupError:
        with pytest.raises(InvalidOptionError, match="nltk.downloader punkt_tab"):
            rouge_score(["a b"], ["a b"], rouge_keys="rougeLsum")
    else:  # the model is installed: then rougeLsum equals torchmetrics' too
        _same(
            rouge_score(["A b. C d."], ["a b. c e."], rouge_keys="rougeLsum"),
            tm_functional.rouge_score(["A b. C d."], ["a b. c e."], rouge_keys="rougeLsum"),
        )


def test_metric_pickles_with_its_states() -> None:
    import pickle

    metric = ROUGEScore(rouge_keys=("rouge1", "rougeL"))
    metric.update(["the cat sat"], [["the cat is here"]])
    restored = pickle.loads(pickle.dumps(metric))
    _same(restored.compute(), metric.compute())
