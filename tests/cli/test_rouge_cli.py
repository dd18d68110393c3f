"""``bleuprint -m rouge``: the command's ROUGE equals rouge-score's mean of sentence scores, with
its options, sentence level, several systems, confidence intervals and paired tests."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tests.support.cli import run_cli_in_process

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")

REFS = [
    "The quick brown fox jumps over the lazy dog.",
    "A stitch in time saves nine, they said in 1999.",
    "Running dogs were seen running near the riverbanks.",
    "",
    "Naïve café owners wrote İstanbul and 5\u212a on the sign.",
]
SYS_A = [
    "The quick brown fox jumped over a lazy dog.",
    "They said a stitch in time saves nine.",
    "Dogs run near river banks.",
    "Nothing here.",
    "The cafe owners wrote Istanbul on a sign.",
]
SYS_B = [
    "A fast fox leaps over the dog.",
    "A stitch saves nine.",
    "Running dogs by the riverbanks.",
    "",
    "Owners wrote a sign.",
]


@pytest.fixture(name="files")
def files_fixture(tmp_path: Path) -> Path:
    for name, lines in (("ref.txt", REFS), ("a.txt", SYS_A), ("b.txt", SYS_B)):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path


def _mean_f(types: list[str], stem: bool, hyps: list[str]) -> dict[str, float]:
    scorer = rouge_scorer.RougeScorer(types, use_stemmer=stem)
    scores = [scorer.score(r, h) for r, h in zip(REFS, hyps)]
    return {t: math.fsum(s[t].fmeasure for s in scores) / len(scores) for t in types}


@pytest.mark.parametrize("stem", [False, True])
def test_corpus_score_is_rouge_scores_mean(
    files: Path, stem: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    types = ["rouge2", "rougeL", "rouge1"]
    argv = [str(files / "ref.txt"), "-i", str(files / "a.txt"), "-m", "rouge", "--rouge-types"]
    argv += types + ["-f", "json"] + (["--stem"] if stem else [])
    code, out, err = run_cli_in_process(argv, capsys)
    assert code == 0, err
    result = json.loads(out)
    expected = _mean_f(types, stem, SYS_A)
    assert result["name"] == "rouge2"
    assert result["score"] == round(100 * expected["rouge2"], 1)
    assert result["stem"] == ("yes" if stem else "no")
    assert result["types"] == "rouge2+rougeL+rouge1"
    assert f"rougeL {100 * expected['rougeL']:.2f}" in result["verbose_score"]


def test_sentence_level(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [str(files / "ref.txt"), "-i", str(files / "a.txt"), "-m", "rouge", "-sl", "-b"]
    argv += ["--rouge-types", "rougeL", "-w", "6"]
    code, out, err = run_cli_in_process(argv, capsys)
    assert code == 0, err
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    expected = [f"{100 * scorer.score(r, h)['rougeL'].fmeasure:.6f}" for r, h in zip(REFS, SYS_A)]
    assert out.split() == expected


def test_several_systems_with_paired_bootstrap(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [str(files / "ref.txt"), "-i", str(files / "a.txt"), str(files / "b.txt")]
    argv += ["-m", "rouge", "--paired-bs", "--paired-bs-n", "50", "-f", "json"]
    code, out, err = run_cli_in_process(argv, capsys)
    assert code == 0, err
    result = json.loads(out)
    names = [system["system"] for system in result]
    assert len(names) == 2
    second = result[1]["rouge1"]
    assert 0 <= second["p_value"] <= 1
    assert second["score"] == pytest.approx(100 * _mean_f(["rouge1"], False, SYS_B)["rouge1"])


def test_confidence_interval(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [str(files / "ref.txt"), "-i", str(files / "a.txt"), "-m", "rouge", "-ci"]
    argv += ["--confidence-n", "50", "-f", "json"]
    code, out, err = run_cli_in_process(argv, capsys)
    assert code == 0, err
    result = json.loads(out)
    assert "confidence_mean" in result
    assert result["bs"] == "50"


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--rouge-types", "rougeX"], "unknown ROUGE type 'rougeX'"),
        (["--rouge-types", "rouge0"], "unknown ROUGE type 'rouge0'"),
        (["--rouge-tokenize", "13a", "--stem"], "use_stemmer=True stems rouge-score's own"),
    ],
)
def test_bad_options(
    files: Path, option: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [str(files / "ref.txt"), "-i", str(files / "a.txt"), "-m", "rouge", *option]
    code, _, err = run_cli_in_process(argv, capsys)
    assert code != 0
    assert message in err
    assert "Traceback" not in err


def test_mbr_selects_by_rouge(capsys: pytest.CaptureFixture[str]) -> None:
    from bleuprint.analysis.mbr import make_metric

    metric = make_metric("rouge", rouge_types=["rougeL"])
    candidates = ["the cat sat", "a cat sat on the mat", "the cat sat on the mat"]
    utility = metric.expected_utility(candidates)
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    expected = [
        100 * sum(scorer.score(r, c)["rougeL"].fmeasure for r in candidates) / len(candidates)
        for c in candidates
    ]
    assert utility.tolist() == pytest.approx(expected, rel=1e-12)
