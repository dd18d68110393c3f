"""``bleuprint mbr``: the chosen sample per source equals a selection made from sacrebleu's
own sentence scores; plain text, JSON lines, options and errors."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import sacrebleu

from bleuprint.analysis import mbr
from bleuprint.cli import main
from tests.support.data import SAMPLE, read_lines


def _samples() -> list[list[str]]:
    """Five sources, four "samples" each: the three systems' outputs and a reference."""
    systems = [read_lines(SAMPLE / f"sys.{name}.en") for name in ("good", "fair", "poor")]
    refs = read_lines(SAMPLE / "ref.B.en")
    return [[s[i] for s in systems] + [refs[i]] for i in range(5)]


def _expected(groups: list[list[str]], metric, higher: bool = True) -> list[int]:
    """The choice a loop over sacrebleu's sentence_score makes."""
    chosen = []
    for group in groups:
        utility = [
            math.fsum(metric.sentence_score(h, [r]).score for r in group) / len(group)
            for h in group
        ]
        best = max(utility) if higher else min(utility)
        chosen.append(utility.index(best))
    return chosen


@pytest.mark.parametrize(
    ("name", "metric", "higher"),
    [
        ("bleu", lambda: sacrebleu.BLEU(effective_order=True), True),
        ("chrf", sacrebleu.CHRF, True),
        ("chrf++", lambda: sacrebleu.CHRF(word_order=2), True),
        ("ter", sacrebleu.TER, False),
    ],
)
def test_mbr_command_matches_sacrebleu_selection(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, metric, higher: bool
) -> None:
    groups = _samples()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = _expected(groups, metric(), higher)
    path = tmp_path / "samples.txt"
    path.write_text("".join(s + "\n" for g in groups for s in g), encoding="utf-8")
    assert main(["mbr", str(path), "-n", "4", "-m", name, "--scores"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [int(line.split("\t")[0]) for line in lines] == expected
    assert [line.split("\t", 2)[2] for line in lines] == [g[k] for g, k in zip(groups, expected)]
    chosen = mbr.select(groups, name)
    assert [c.index for c in chosen] == expected


def test_jsonl_and_references(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    groups = _samples()
    refs = read_lines(SAMPLE / "ref.A.en")[:5]
    path = tmp_path / "samples.jsonl"
    path.write_text(
        "".join(json.dumps({"samples": g, "references": [r]}) + "\n" for g, r in zip(groups, refs)),
        encoding="utf-8",
    )
    assert main(["mbr", str(path), "--jsonl", "-m", "chrf"]) == 0
    out = capsys.readouterr().out.splitlines()
    chrf = sacrebleu.CHRF()
    best = [max(g, key=lambda h: chrf.sentence_score(h, [r]).score) for g, r in zip(groups, refs)]
    assert out == best


def test_tsv_groups_by_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ID<TAB>sample lines, interleaved and with varying counts per ID; output keeps the IDs."""
    groups = _samples()
    groups[1] = groups[1][:2]
    groups[3] = groups[3] + groups[0][:2]
    rows = [(f"doc{i}", s) for i, g in enumerate(groups) for s in g]
    rows = rows[1::2] + rows[0::2]  # interleaved: IDs first seen in another order
    path = tmp_path / "samples.tsv"
    path.write_text("".join(f"{k}\t{s}\n" for k, s in rows), encoding="utf-8")
    assert main(["mbr", str(path), "--tsv", "-m", "chrf", "--scores"]) == 0
    out = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    order = list(dict.fromkeys(k for k, _ in rows))
    assert [o[0] for o in out] == order
    by_id = {k: [s for key, s in rows if key == k] for k in order}
    expected = _expected([by_id[k] for k in order], sacrebleu.CHRF())
    assert [int(o[1]) for o in out] == expected
    assert [o[3] for o in out] == [by_id[k][i] for k, i in zip(order, expected)]


def test_stdin_exclude_self_and_tokenizer(tmp_path: Path) -> None:
    text = "".join(s + "\n" for g in _samples() for s in g)
    args = [sys.executable, "-m", "bleuprint", "mbr", "-", "-n", "4", "--exclude-self"]
    result = subprocess.run(
        [*args, "-tok", "char"], input=text, capture_output=True, text=True, check=True
    )
    groups = _samples()
    bleu = sacrebleu.BLEU(effective_order=True, tokenize="char")
    expected = []
    for g in groups:
        utility = [
            math.fsum(bleu.sentence_score(h, [r]).score for j, r in enumerate(g) if j != i) / 3
            for i, h in enumerate(g)
        ]
        expected.append(g[utility.index(max(utility))])
    assert result.stdout.splitlines() == expected


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-n", "3"], "not a whole number of groups"),
        ([], "give -n N"),
        (["--tsv"], "line 1 has no tab"),
        (["--tsv", "-n", "2"], "-n is for plain text"),
        (["-n", "4", "-m", "chrf", "-tok", "13a"], "--tokenize applies to --metric bleu only"),
    ],
)
def test_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], args, message: str) -> None:
    path = tmp_path / "samples.txt"
    path.write_text("a\nb\nc\nd\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        main(["mbr", str(path), *args])
    assert exit_info.value.code == 1
    assert message in capsys.readouterr().err


def test_bad_jsonl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "samples.jsonl"
    path.write_text('{"samples": ["a"]}\n[1, 2]\n', encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["mbr", str(path), "--jsonl"])
    assert 'line 2 is not a JSON object with a "samples" list' in capsys.readouterr().err


def test_select_api_errors() -> None:
    with pytest.raises(Exception, match="pass n="):
        mbr.select(["a", "b"])
    with pytest.raises(Exception, match="unknown metric"):
        mbr.select([["a"]], "meteor")
    with pytest.raises(Exception, match="2 sources but 1 reference lists"):
        mbr.select([["a"], ["b"]], references=[["x"]])
    calls = []
    mbr.select([["a", "b"], ["c"]], "chrf", progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 2), (2, 2)]
