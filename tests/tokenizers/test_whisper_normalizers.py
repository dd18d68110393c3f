"""openai-whisper 20250625's text normalizers through the Python API (``normalize=`` and
WER/CER's ``normalizer=``): every golden input of ``tests/data/golden_whisper_normalizers.jsonl``
(recorded from upstream by ``tools/gen_whisper_golden.py``; the core's own tests check the same
file and the live comparison) normalized to upstream's string, WER/CER/BLEU scoring the
normalized text, the signature with upstream's version, the command line, and bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import bleuprint
from bleuprint.errors import InputTypeError, InvalidInputError, InvalidOptionError
from bleuprint.tokenizers import NORMALIZATIONS, normalization_signature, normalized, tokenize

GOLDEN = Path(__file__).parents[1] / "data" / "golden_whisper_normalizers.jsonl"
NORMALIZERS = ("whisper-basic", "whisper-english")


def golden() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    # One record per "\n" (the texts hold other line breaks, which str.splitlines cuts at).
    text = GOLDEN.read_text(encoding="utf-8")
    records = [json.loads(line) for line in text.split("\n") if line]
    return records[0], records[1:]


def cases(name: str) -> tuple[list[str], list[str]]:
    """The golden inputs and upstream's outputs under ``name`` (inputs on which upstream
    raises left out: see test_upstreams_errors)."""
    header, records = golden()
    assert (header["upstream"], header["version"]) == ("openai-whisper", "20250625")
    pairs = [
        (r["input"], r["expected"][name])
        for r in records
        if isinstance(r["expected"].get(name), str)
    ]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def test_names() -> None:
    assert set(NORMALIZERS) < set(NORMALIZATIONS)
    assert normalization_signature("whisper-english") == "whisper-english@20250625"
    assert normalization_signature("whisper-basic") == "whisper-basic@20250625"
    assert normalization_signature("nfkc") == "nfkc"


@pytest.mark.parametrize("name", NORMALIZERS)
@pytest.mark.parametrize("workers", [1, -1])
def test_every_golden_input(name: str, workers: int) -> None:
    inputs, expected = cases(name)
    assert len(inputs) > 800
    out = normalized(inputs, name, workers=workers)
    wrong = [(i, o, e) for i, o, e in zip(inputs, out, expected) if o != e]
    assert not wrong, f"{len(wrong)} of {len(inputs)} differ, e.g. {wrong[:3]}"
    # One string at a time, and as a tokenizer's input ("none" keeps the text as it is).
    assert [tokenize(s, "none", normalize=name) for s in inputs[:50]] == expected[:50]
    assert normalized([None, inputs[0]], name) == [None, expected[0]]


def test_upstreams_errors() -> None:
    """Where upstream raises (a number past CPython's 4,300-digit limit), so does bleuprint,
    with an error that says what to do."""
    _, records = golden()
    failing = [
        r["input"] for r in records if isinstance(r["expected"].get("whisper-english"), dict)
    ]
    assert failing
    for text in failing:
        with pytest.raises(InvalidInputError, match="whisper-basic"):
            normalized([text], "whisper-english")
        with pytest.raises(InvalidInputError, match="number normalizer"):
            bleuprint.WER(normalizer="whisper-english").corpus_score([text], [["x"]])


@pytest.mark.parametrize("name", NORMALIZERS)
@pytest.mark.parametrize("unit", ["word", "char"])
def test_wer_scores_the_normalized_text(name: str, unit: str) -> None:
    """WER/CER with ``normalizer=`` equals WER/CER of upstream's normalized strings, per
    segment and for the corpus, with several references."""
    inputs, expected = cases(name)
    n = len(inputs) // 2
    hyps, refs, other = inputs[:n], inputs[n : 2 * n], inputs[::-1][:n]
    want = dict(zip(inputs, expected))
    metric = bleuprint.WER(unit, normalizer=name)
    plain = bleuprint.WER(unit)
    ours = metric.corpus_score(hyps, [refs, other])
    theirs = plain.corpus_score([want[h] for h in hyps], [[want[r] for r in refs],
                                [want[r] for r in other]])  # fmt: skip
    assert ours.score == theirs.score
    assert (metric.stats(hyps, [refs]).rows == plain.stats(
        [want[h] for h in hyps], [[want[r] for r in refs]]).rows).all()  # fmt: skip
    # The text options run after the normalizer.
    options = {"lowercase": True, "remove_punctuation": True}
    assert (
        bleuprint.WER(unit, **options, normalizer=name).corpus_score(hyps, [refs]).score
        == bleuprint.WER(unit, **options).corpus_score(
            [want[h] for h in hyps], [[want[r] for r in refs]]).score
    )  # fmt: skip


def test_signatures() -> None:
    wer = bleuprint.WER(normalizer="whisper-english")
    wer.corpus_score(["Mr. Smith has one hundred dollars"], [["mister smith has 100 dollars"]])
    assert "|norm:whisper-english@20250625|" in str(wer.get_signature())
    cer = bleuprint.CER(normalizer="whisper-basic")
    assert cer.corpus_score(["A-B!"], [["a b"]]).score == 0
    assert "|norm:whisper-basic@20250625|" in str(cer.get_signature())
    bleu = bleuprint.BLEU(normalize="whisper-english")
    score = bleu.corpus_score(["The colour is grey."], [["the color is gray"]])
    assert score.score == pytest.approx(100)
    assert "|norm:whisper-english@20250625|" in str(bleu.get_signature())
    plain = bleuprint.WER()
    plain.corpus_score(["a"], [["a"]])
    assert "norm" not in str(plain.get_signature())


def test_bad_input() -> None:
    with pytest.raises(InvalidOptionError, match="whisper-english"):
        bleuprint.WER(normalizer="whisper")
    with pytest.raises(InvalidOptionError, match="whisper-english"):
        bleuprint.BLEU(normalize="english")
    with pytest.raises(InvalidOptionError, match="whisper-english"):
        tokenize("a", "none", normalize="Whisper English")
    metric = bleuprint.WER(normalizer="whisper-english")
    with pytest.raises(InputTypeError, match=r"hypotheses\[1\] must be str"):
        metric.corpus_score(["a", 3], [["x", "y"]])  # type: ignore[list-item]
    with pytest.raises(InputTypeError, match=r"hypotheses\[1\] must be str"):
        metric.corpus_score(["a", b"b"], [["x", "y"]])  # type: ignore[list-item]
    with pytest.raises(InvalidInputError, match=r"references\[0\]\[1\] holds a lone surrogate"):
        metric.corpus_score(["a", "b"], [["x", "\udc80"]])
    with pytest.raises(InvalidInputError, match=r"hypotheses\[0\] holds a lone surrogate"):
        metric.corpus_score(["\udc80"], [["x"]])


def test_command_line(tmp_path: Path) -> None:
    (tmp_path / "hyp.txt").write_text("Mr. Smith has one hundred dollars\nthe colour is grey\n")
    (tmp_path / "ref.txt").write_text("mister smith has 100 dollars\nthe color is gray\n")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "bleuprint", "ref.txt", "-i", "hyp.txt", *args]
        return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)

    done = run("-m", "wer", "cer", "bleu", "--normalize", "whisper-english", "-f", "text")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3
    assert all("norm:whisper-english@20250625" in line for line in lines)
    assert all(line.endswith((" = 0.0", " = 100.0")) or " = 100.0 " in line for line in lines)
    plain = run("-m", "wer", "-b")
    assert plain.returncode == 0
    assert float(plain.stdout) > 0
    bad = run("-m", "wer", "--normalize", "whisper")
    assert bad.returncode == 2
    assert "whisper-english" in bad.stderr
