"""``bleuprint -m cider``: CIDEr-D of plain-text files on the main command, equal to
pycocoevalcap's ``Cider`` (corpus and per line), streamed in chunks, with its options, several
systems, sentence level and confidence intervals; what it cannot do is refused by name."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import bleuprint
from bleuprint.cli import input as cli_input
from bleuprint.errors import InvalidInputError, ModelUnavailableError
from bleuprint.metrics.cider import CIDErAccumulator
from tests.support.cli import run_cli_in_process
from tests.support.data import read_lines, wmt22_systems

IMAGES = 300
REFERENCES = 4


@pytest.fixture(name="files")
def files_fixture(wmt22: Path, tmp_path: Path) -> Path:
    """De-English outputs as captions: a.txt and b.txt two systems' first lines, ref1..4.txt
    four other systems' lines of the same segments."""
    paths = [path for pair, _, path in wmt22_systems(wmt22) if pair == "de-en"]
    outputs = [read_lines(p)[:IMAGES] for p in paths[: 2 + REFERENCES]]
    names = ["a.txt", "b.txt", *(f"ref{k}.txt" for k in range(1, REFERENCES + 1))]
    for name, lines in zip(names, outputs):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path


def _texts(files: Path) -> tuple[list[str], list[str], list[list[str]]]:
    a, b = (read_lines(files / n) for n in ("a.txt", "b.txt"))
    streams = [read_lines(files / f"ref{k}.txt") for k in range(1, REFERENCES + 1)]
    return a, b, streams


def _refs(files: Path) -> list[str]:
    return [str(files / f"ref{k}.txt") for k in range(1, REFERENCES + 1)]


def test_corpus_and_lines_equal_pycocoevalcap(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cider = pytest.importorskip("pycocoevalcap.cider.cider")
    a, _, streams = _texts(files)
    gts = {i: [s[i] for s in streams] for i in range(IMAGES)}
    res = {i: [a[i]] for i in range(IMAGES)}
    score, scores = cider.Cider().compute_score(gts, res)
    argv = [*_refs(files), "-i", str(files / "a.txt"), "-m", "cider", "-w", "12"]
    code, out, err = run_cli_in_process(argv, capsys)
    assert code == 0, err
    record = json.loads(out)
    assert record["name"] == "CIDEr-D"
    assert record["score"] == float(f"{score:.12f}")
    assert record["nrefs"] == str(REFERENCES)
    assert record["tok"] == "none"
    code, out, err = run_cli_in_process([*argv, "-sl", "-b"], capsys)
    assert code == 0, err
    assert out.splitlines() == [f"{s:.12f}" for s in scores.tolist()]
    code, out, err = run_cli_in_process([*argv, "-sl"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == IMAGES
    assert lines[0].startswith("CIDEr-D|nrefs:4|case:mixed|tok:none|n:4|sigma:6.0|")
    assert lines[0].endswith(f" = {scores[0]:.12f}")


def test_chunks_score_as_one_pass(
    files: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The document frequencies are the whole input's, however it is read."""
    argv = [*_refs(files), "-i", str(files / "a.txt"), "-m", "cider", "-w", "15", "-f", "text"]
    code, whole, err = run_cli_in_process(argv, capsys)
    assert code == 0, err
    monkeypatch.setattr(cli_input, "CHUNK_SEGMENTS", 35)
    code, chunked, err = run_cli_in_process(argv, capsys)
    assert code == 0, err
    assert chunked == whole


def test_options_systems_and_bootstrap(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b, streams = _texts(files)
    metric = bleuprint.CIDEr(max_ngram_order=2, sigma=3.0, lowercase=True)
    argv = [*_refs(files), "-i", str(files / "a.txt"), str(files / "b.txt"), "-m", "cider"]
    argv += ["chrf", "--cider-ngram-order", "2", "--cider-sigma", "3", "--cider-lowercase"]
    code, out, err = run_cli_in_process([*argv, "-w", "10"], capsys)
    assert code == 0, err
    table = json.loads(out)
    for row, hyps in zip(table, (a, b)):
        assert row["CIDEr-D"] == f"{metric.corpus_score(hyps, streams).score:.10f}"
        assert list(row) == ["system", "chrF2", "CIDEr-D"]  # sorted: CHRF, CIDER

    # -ci: sacrebleu's draws (seed 12345), each resample the mean of its images' scores.
    argv = [*_refs(files), "-i", str(files / "a.txt"), "-m", "cider", "-ci", "-cin", "300"]
    code, out, err = run_cli_in_process([*argv, "-w", "10", "-f", "text"], capsys)
    assert code == 0, err
    scores = bleuprint.CIDEr().corpus_score(a, streams).sentence_scores
    draws = np.random.default_rng(12345).integers(0, IMAGES, size=(300, IMAGES))
    means = sorted(float(scores[row].mean()) for row in draws)
    half = 0.5 * (means[292] - means[7])  # 95%: 1/40 of 300 off each end
    mu = sum(means) / len(means)
    assert out.startswith("CIDEr-D|nrefs:4|bs:300|seed:12345|case:mixed|")
    assert out.rstrip().endswith(f"(μ = {mu:.10f} ± {half:.10f})")


def test_ptb_tokenizer(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, _, streams = _texts(files)
    try:
        expected = bleuprint.CIDEr(tokenize="ptb").corpus_score(a, streams).score
    except ModelUnavailableError:
        pytest.skip("no stanford-corenlp-3.4.1.jar (pycocoevalcap's) to read the PTB rules from")
    argv = [*_refs(files), "-i", str(files / "a.txt"), "-m", "cider", "--cider-tokenize", "ptb"]
    code, out, err = run_cli_in_process([*argv, "-w", "12", "-b"], capsys)
    assert code == 0, err
    assert out.strip() == f"{expected:.12f}"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["-i", "a.txt", "b.txt", "-pbs"], "-m cider has no paired tests (-pbs/-par)"),
        (["-i", "a.txt", "--groups", "a.txt"], "-m cider has no --group-by/--groups"),
    ],
)
def test_refused_combinations(
    tmp_path: Path, extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("ref.txt", "a.txt", "b.txt"):
        (tmp_path / name).write_text("a cat\n", encoding="utf-8")
    argv = [str(tmp_path / "ref.txt"), *(str(tmp_path / e) if e.endswith(".txt") else e
            for e in extra), "-m", "cider"]  # fmt: skip
    code, _, err = run_cli_in_process(argv, capsys)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_statistics_files_and_empty_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "ref.txt").write_text("a cat\n", encoding="utf-8")
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    ref, hyp = str(tmp_path / "ref.txt"), str(tmp_path / "ref.txt")
    code, _, err = run_cli_in_process(
        ["stats", ref, "-i", hyp, "-m", "cider", "-o", str(tmp_path / "s.json")], capsys
    )
    assert code == 2
    assert "-m cider cannot be sharded" in err
    code, _, err = run_cli_in_process(["merge", str(tmp_path / "s.json"), "-m", "cider"], capsys)
    assert code == 2
    assert "invalid choice: 'cider'" in err
    code, _, err = run_cli_in_process(
        [str(tmp_path / "empty.txt"), "-i", str(tmp_path / "empty.txt"), "-m", "cider"], capsys
    )
    assert code == 1
    assert "empty.txt is empty: nothing to score" in err
    with pytest.raises(InvalidInputError, match="CIDEr-D of no image is undefined"):
        CIDErAccumulator().result()
