"""Every metric, every preset: the laws of the statistics model (tests/support/metric_laws.py)
on the German-English sample. A new metric adds its constructors to ``METRICS``."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import bleuprint
from bleuprint.presets import PRESETS
from tests.support import metric_laws
from tests.support.data import SAMPLE

#: One constructor per metric setting the laws are checked for.
METRICS: dict[str, Callable[[], Any]] = {
    "BLEU": bleuprint.BLEU,
    "BLEU intl, effective order": lambda: bleuprint.BLEU(tokenize="intl", effective_order=True),
    **{f"BLEU preset {name}": (lambda name=name: bleuprint.BLEU(preset=name)) for name in PRESETS},
    "chrF": bleuprint.CHRF,
    "chrF++": lambda: bleuprint.CHRF(word_order=2),
    "TER": bleuprint.TER,
    "TER normalized": lambda: bleuprint.TER(normalized=True, asian_support=True),
    "WER": bleuprint.WER,
    "CER": bleuprint.CER,
    "ROUGE": bleuprint.ROUGE,
    "ROUGE stemmed, rouge3": lambda: bleuprint.ROUGE(["rouge3", "rougeLsum"], use_stemmer=True),
    "ROUGE 13a": lambda: bleuprint.ROUGE(["rouge2", "rougeL"], tokenizer="13a"),
    "ROUGE coco": lambda: bleuprint.ROUGE(preset="coco"),
    "ROUGE coco-like, rouge2": lambda: bleuprint.ROUGE(
        ["rouge2", "rougeL"],
        tokenizer="split-space",
        multi_reference="max-precision-recall",
        beta=2.0,
    ),
}


def _lines(name: str, n: int = 24) -> list[str]:
    return (SAMPLE / name).read_text(encoding="utf-8").splitlines()[:n]


HYPOTHESES = _lines("sys.fair.en")
REFERENCES = [_lines("ref.A.en"), _lines("ref.B.en")]


@pytest.fixture(params=sorted(METRICS), name="metric")
def metric_fixture(request: pytest.FixtureRequest) -> Iterator[Any]:
    with warnings.catch_warnings():
        # nltk's zero-precision warning and sacrebleu's advice on sentence BLEU.
        warnings.simplefilter("ignore")
        yield METRICS[request.param]()


def test_merge_is_concatenation(metric: Any) -> None:
    metric_laws.check_merge_is_concatenation(metric, HYPOTHESES, REFERENCES)


def test_workers_invariance(metric: Any) -> None:
    metric_laws.check_workers_invariance(metric, HYPOTHESES, REFERENCES)


def test_sentence_is_corpus_of_one(metric: Any) -> None:
    metric_laws.check_sentence_is_corpus_of_one(metric, HYPOTHESES[:8], REFERENCES)


def test_pairwise_cell_is_sentence_score(metric: Any) -> None:
    metric_laws.check_pairwise_cell_is_sentence_score(metric, HYPOTHESES[:6], REFERENCES[0][:5])


def test_saved_statistics_score_the_same(metric: Any, tmp_path: Path) -> None:
    metric_laws.check_saved_statistics_score_the_same(metric, HYPOTHESES, REFERENCES, tmp_path)
