"""The ``bleuprint`` command line against the real ``sacrebleu`` command line.

Every comparison runs both programs in a subprocess on small files written into ``tmp_path``
and requires byte-identical stdout (after replacing bleuprint's signature version with
sacrebleu's) and the same exit status.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

import numpy as np
import pytest

import bleuprint
from bleuprint import _core
from bleuprint.cli import build_parser, main, sentence_lines
from bleuprint.io.files import read_lines, read_stream_lines
from bleuprint.significance.promotion import numpy_promotion
from tests.support.cli import (
    assert_same_as_sacrebleu,
    bleuprint_cli,
    installed_script,
    run,
    sacrebleu_cli,
    subprocess_env,
)
from tests.support.data import REPO

# Small, varied data: punctuation, numbers, casing, non-ASCII, an empty line, U+2028 inside a
# line (a separator for str.splitlines() but not for sacrebleu's file reader).
REF_A = [
    "The quick brown fox jumps over the lazy dog.",
    "It costs $1,250.50 (about €1,100) per year.",
    "Dr. Smith's office opens at 9:30 a.m. on weekdays.",
    "Das Wetter ist heute schön, nicht wahr?",
    "",
    "A line\u2028with a line separator inside.",
    "SHE SAID: “Don't worry, it'll be fine!”",
    "Results improved by 3.5% over the baseline model.",
    "We met in Zürich, then flew to São Paulo.",
    "The end.",
]
REF_B = [
    "A quick brown fox jumped over a lazy dog.",
    "It costs about $1,250 per year.",
    "Dr. Smith's office is open at 9:30 am on weekdays.",
    "The weather is nice today, isn't it?",
    "Nothing here.",
    "A line\u2028with a separator inside.",
    "She said: “Don't worry, it will be fine!”",
    "The results improved 3.5% over the baseline.",
    "We met in Zurich and then flew to Sao Paulo.",
    "This is the end.",
]
HYP_1 = [
    "The quick brown fox jumped over the lazy dog .",
    "It costs $1,250.50 per year.",
    "Dr. Smith's office opens at 9:30 am on weekdays.",
    "The weather is beautiful today, isn't it?",
    "",
    "A line\u2028with a line separator inside.",
    "she said: “don't worry, it'll be fine!”",
    "Results improved by 3.5 % over the baseline.",
    "We met in Zürich and flew to São Paulo.",
    "End.",
]
HYP_2 = [
    "A fast brown fox jumps over the dog.",
    "The price is $1,250.50 every year.",
    "The office of Dr. Smith opens at 9:30.",
    "Das Wetter ist schön heute.",
    "Something.",
    "A line with a line separator.",
    "She said don't worry.",
    "Results were 3.5% better than the baseline model.",
    "We met in Zurich, then went to Sao Paulo.",
    "The end.",
]


def _write(path: Path, lines: list[str], newline: str = "\n", bom: bool = False) -> Path:
    text = "".join(line + newline for line in lines)
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return path


@pytest.fixture
def data(tmp_path: Path) -> Path:
    _write(tmp_path / "ref.a", REF_A)
    _write(tmp_path / "ref.b", REF_B)
    _write(tmp_path / "hyp.1", HYP_1)
    _write(tmp_path / "hyp.2", HYP_2)
    _write(tmp_path / "refs.tsv", [f"{a}\t{b}" for a, b in zip(REF_A, REF_B)])
    _write(tmp_path / "systems.tsv", [f"{a}\t{b}" for a, b in zip(HYP_1, HYP_2)])
    return tmp_path


# --------------------------------------------------------------------------------------------
# Byte-identical output


CASES = {
    "json": ["ref.a", "-i", "hyp.1"],
    "text": ["ref.a", "-i", "hyp.1", "-f", "text"],
    "latex_single": ["ref.a", "-i", "hyp.1", "-f", "latex"],
    "score_only": ["ref.a", "-i", "hyp.1", "-b"],
    "score_only_text": ["ref.a", "-i", "hyp.1", "-b", "-f", "text"],
    "width4": ["ref.a", "-i", "hyp.1", "-w", "4", "-f", "text"],
    "width4_json": ["ref.a", "-i", "hyp.1", "-w", "4"],
    "width0": ["ref.a", "-i", "hyp.1", "-w", "0", "-f", "text"],
    "short_text": ["ref.a", "-i", "hyp.1", "-sh", "-f", "text"],
    "short_json": ["ref.a", "-i", "hyp.1", "-sh"],
    "sentence": ["ref.a", "-i", "hyp.1", "-sl"],
    "sentence_b": ["ref.a", "-i", "hyp.1", "-sl", "-b"],
    "sentence_b_w3": ["ref.a", "ref.b", "-i", "hyp.2", "-sl", "-b", "-w", "3"],
    "sentence_multi_short": ["ref.a", "ref.b", "-i", "hyp.1", "-sl", "-sh"],
    "sentence_floor": ["ref.a", "-i", "hyp.2", "-sl", "-s", "floor"],
    "sentence_addk": ["ref.a", "-i", "hyp.2", "-sl", "-s", "add-k", "-sv", "0.5"],
    "sentence_none": ["ref.a", "-i", "hyp.2", "-sl", "-s", "none", "-tok", "char"],
    "lowercase": ["ref.a", "-i", "hyp.1", "-lc", "-f", "text"],
    "tok_none": ["ref.a", "-i", "hyp.1", "-tok", "none", "-f", "text"],
    "tok_char": ["ref.a", "-i", "hyp.1", "-tok", "char", "-f", "text"],
    "tok_intl": ["ref.a", "-i", "hyp.1", "-tok", "intl", "-f", "text"],
    "tok_13a": ["ref.a", "-i", "hyp.1", "-tok", "13a", "-f", "text"],
    "floor": ["ref.a", "-i", "hyp.2", "-s", "floor", "-sv", "0.2", "-f", "text"],
    "addk": ["ref.a", "-i", "hyp.2", "-s", "add-k", "-f", "text"],
    "none": ["ref.a", "-i", "hyp.2", "-s", "none", "-f", "text"],
    "multi_ref": ["ref.a", "ref.b", "-i", "hyp.1", "-f", "text"],
    "multi_ref_json": ["ref.a", "ref.b", "-i", "hyp.1"],
    "tsv_refs": ["refs.tsv", "-nr", "2", "-i", "hyp.1", "-f", "text"],
    "language_pair": ["ref.a", "-i", "hyp.1", "-l", "de-en", "-f", "text"],
    "force": ["ref.a", "-i", "hyp.1", "--force", "-q"],
    "table_text": ["ref.a", "ref.b", "-i", "hyp.1", "hyp.2", "-f", "text"],
    "table_text_w2_short": ["ref.a", "-i", "hyp.1", "hyp.2", "-f", "text", "-w", "2", "-sh"],
    "table_json": ["ref.a", "ref.b", "-i", "hyp.1", "hyp.2"],
    "table_latex": ["ref.a", "ref.b", "-i", "hyp.1", "hyp.2", "-f", "latex"],
    "table_nc": ["ref.a", "-i", "hyp.1", "hyp.2", "-f", "text", "-nc"],
    "table_score_only": ["ref.a", "-i", "hyp.1", "hyp.2", "-f", "text", "-b"],
    "table_sentence_tokens": ["ref.a", "ref.b", "-i", "hyp.1", "hyp.2", "-tok", "char", "-lc"],
    # chrF and TER (sacrebleu.md §3, §6.5).
    "chrf_json": ["ref.a", "-i", "hyp.1", "-m", "chrf"],
    "chrf_text": ["ref.a", "ref.b", "-i", "hyp.1", "-m", "chrf", "-f", "text"],
    "chrf_pp_short": ["ref.a", "-i", "hyp.1", "-m", "chrf", "-cw", "2", "-sh", "-f", "text"],
    "chrf_options": [
        "ref.a", "ref.b", "-i", "hyp.2", "-m", "chrf", "-cc", "4", "-cw", "1", "--chrf-beta",
        "3", "--chrf-whitespace", "--chrf-lowercase", "--chrf-eps-smoothing", "-f", "text",
    ],
    "ter_json": ["ref.a", "-i", "hyp.1", "-m", "ter"],
    "ter_text_flags": [
        "ref.a", "ref.b", "-i", "hyp.2", "-m", "ter", "--ter-case-sensitive",
        "--ter-normalized", "--ter-no-punct", "--ter-asian-support", "-f", "text",
    ],
    "three_metrics_text": [
        "ref.a", "ref.b", "-i", "hyp.1", "-m", "ter", "bleu", "chrf", "-f", "text",
    ],
    "three_metrics_json": ["ref.a", "-i", "hyp.1", "-m", "bleu", "chrf", "ter"],
    "three_metrics_b_json": ["ref.a", "-i", "hyp.1", "-m", "bleu", "chrf", "ter", "-b"],
    "three_metrics_b_text": [
        "ref.a", "-i", "hyp.1", "-m", "bleu", "chrf", "ter", "-b", "-f", "text",
    ],
    "three_metrics_short": [
        "ref.a", "-i", "hyp.1", "-m", "bleu", "chrf", "ter", "-sh", "-f", "text",
    ],
    "repeated_metric": ["ref.a", "-i", "hyp.1", "-m", "chrf", "chrf", "-f", "text"],
    "table_three_metrics": [
        "ref.a", "ref.b", "-i", "hyp.1", "hyp.2", "-m", "bleu", "chrf", "ter", "-f", "text",
    ],
    "table_three_metrics_json": ["ref.a", "-i", "hyp.1", "hyp.2", "-m", "bleu", "chrf", "ter"],
    "table_three_metrics_latex": [
        "ref.a", "-i", "hyp.1", "hyp.2", "-m", "chrf", "ter", "bleu", "-f", "latex", "-cw", "2",
    ],
    "sentence_chrf": ["ref.a", "ref.b", "-i", "hyp.1", "-sl", "-m", "chrf"],
    "sentence_chrf_b": ["ref.a", "-i", "hyp.2", "-sl", "-m", "chrf", "-cw", "2", "-b", "-w", "4"],
    "sentence_ter": ["ref.a", "ref.b", "-i", "hyp.2", "-sl", "-m", "ter", "-sh"],
    "sentence_ter_b": ["ref.a", "-i", "hyp.1", "-sl", "-m", "ter", "-b", "-w", "3"],
}  # fmt: skip


@pytest.mark.differential
@pytest.mark.parametrize("name", list(CASES))
def test_same_output_as_sacrebleu(data: Path, name: str) -> None:
    assert_same_as_sacrebleu(CASES[name], data)


@pytest.mark.differential
def test_console_script(data: Path) -> None:
    assert_same_as_sacrebleu(["ref.a", "ref.b", "-i", "hyp.1", "-f", "text"], data, console=True)


@pytest.mark.differential
@pytest.mark.parametrize(
    "args", [["ref.a"], ["ref.a", "ref.b", "-f", "text"], ["ref.a", "-b", "-w", "4"]]
)
def test_stdin_single_system(data: Path, args: list[str]) -> None:
    assert_same_as_sacrebleu(args, data, stdin=(data / "hyp.1").read_bytes())


@pytest.mark.differential
@pytest.mark.parametrize("fmt", ["json", "text", "latex"])
def test_stdin_several_systems(data: Path, fmt: str) -> None:
    stdin = (data / "systems.tsv").read_bytes()
    assert_same_as_sacrebleu(["ref.a", "ref.b", "-f", fmt], data, stdin=stdin)


@pytest.mark.differential
def test_stdin_universal_newlines(data: Path) -> None:
    # A lone \r ends a line on stdin (io.TextIOWrapper) but not in files.
    _write(data / "r2", ["a b", "c d"])
    assert_same_as_sacrebleu(["r2", "-f", "text"], data, stdin=b"a b\rc d\r\n")
    _write(data / "r1", ["a b\rc d"])
    (data / "h").write_bytes(b"a b\rc d\n")
    assert_same_as_sacrebleu(["r1", "-i", "h", "-f", "text"], data)


@pytest.mark.differential
@pytest.mark.parametrize("name", ["text", "json"])
def test_format_environment_variable(data: Path, name: str) -> None:
    env = {"SACREBLEU_FORMAT": name}
    out = assert_same_as_sacrebleu(["ref.a", "-i", "hyp.1", "-f", "latex"], data, env=env)
    assert out.startswith("BLEU|" if name == "text" else "{")


def test_bleuprint_format_variable(data: Path) -> None:
    plain = bleuprint_cli(["ref.a", "-i", "hyp.1", "-f", "text"], data)
    env = {"BLEUPRINT_FORMAT": "text", "SACREBLEU_FORMAT": "json"}
    via_env = bleuprint_cli(["ref.a", "-i", "hyp.1"], data, env=env)
    assert via_env.returncode == 0
    assert via_env.stdout == plain.stdout
    assert plain.stdout.startswith(b"BLEU|nrefs:1|")


@pytest.mark.differential
def test_gzip_and_other_encodings(data: Path) -> None:
    with gzip.open(data / "hyp.1.gz", "wb") as f:
        f.write((data / "hyp.1").read_bytes())
    assert_same_as_sacrebleu(["ref.a", "-i", "hyp.1.gz", "-f", "text"], data)
    for name, lines in (("ref.u16", REF_A), ("hyp.u16", HYP_1)):
        (data / name).write_bytes("".join(f"{x}\n" for x in lines).encode("utf-16"))
    assert_same_as_sacrebleu(["ref.u16", "-i", "hyp.u16", "-e", "utf-16", "-f", "text"], data)


@pytest.mark.differential
def test_examples_quickstart() -> None:
    args = ["examples/ref.en", "examples/ref2.en", "-i", "examples/hyp.en"]
    out = assert_same_as_sacrebleu(args, REPO)
    assert '"name": "BLEU"' in out
    assert_same_as_sacrebleu([*args, "-f", "text"], REPO, console=True)


# --------------------------------------------------------------------------------------------
# Input handling


def _score(data: Path, *args: str, stdin: Optional[bytes] = None) -> str:
    result = bleuprint_cli([*args, "-f", "text"], data, stdin=stdin)
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout.decode()


def test_crlf_same_as_lf(data: Path) -> None:
    _write(data / "ref.crlf", REF_A, newline="\r\n")
    _write(data / "hyp.crlf", HYP_1, newline="\r\n")
    lf = _score(data, "ref.a", "ref.b", "-i", "hyp.1")
    assert _score(data, "ref.crlf", "ref.b", "-i", "hyp.crlf") == lf
    assert _score(data, "ref.crlf", "ref.b", stdin=(data / "hyp.crlf").read_bytes()) == lf
    assert _score(data, "ref.crlf", "ref.b", "-i", "hyp.crlf", "-sl") == _score(
        data, "ref.a", "ref.b", "-i", "hyp.1", "-sl"
    )


def test_bom_is_stripped(data: Path) -> None:
    _write(data / "hyp.bom", HYP_1, bom=True)
    _write(data / "ref.bom", REF_A, bom=True)
    plain = _score(data, "ref.a", "-i", "hyp.1", "-sl")
    assert _score(data, "ref.bom", "-i", "hyp.bom", "-sl") == plain
    assert _score(data, "ref.a", "-sl", stdin=(data / "hyp.bom").read_bytes()) == plain


def test_final_line_without_newline(data: Path) -> None:
    (data / "hyp.nonl").write_bytes((data / "hyp.1").read_bytes().rstrip(b"\n"))
    assert _score(data, "ref.a", "-i", "hyp.nonl") == _score(data, "ref.a", "-i", "hyp.1")


def test_read_lines_rules(tmp_path: Path) -> None:
    raw = "\ufeffone  \r\ntwo\u2028still two\x85\n\nthree\rthree\n".encode()
    path = tmp_path / "f.txt"
    path.write_bytes(raw)
    expected = ["one", "two\u2028still two", "", "three\rthree"]
    assert _core.read_lines(str(path)) == expected
    assert read_lines(path) == expected
    # The Python path (other encodings, gzip) follows the same rules.
    with gzip.open(tmp_path / "f.txt.gz", "wb") as f:
        f.write(raw)
    assert read_lines(tmp_path / "f.txt.gz") == expected
    assert read_lines(path, encoding="utf-8-sig") == expected
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert read_lines(empty) == []


def test_read_stream_lines_universal_newlines(tmp_path: Path) -> None:
    import io

    stream = io.BytesIO("a\rb\r\nc\u2028d\ne".encode())
    assert read_stream_lines(stream) == ["a", "b", "c\u2028d", "e"]
    assert read_stream_lines(io.BytesIO(b"")) == []


# --------------------------------------------------------------------------------------------
# Errors


def _one_error_line(result: subprocess.CompletedProcess, code: int) -> str:
    assert result.returncode == code, result.stderr.decode()
    assert result.stdout == b""
    err = result.stderr.decode()
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("bleuprint: ")
    return lines[0]


def test_mismatched_lengths(data: Path) -> None:
    _write(data / "short", REF_A[:7])
    line = _one_error_line(bleuprint_cli(["ref.a", "short", "-i", "hyp.1"], data), 1)
    assert "different lengths" in line
    assert "hyp.1 has 10 lines" in line
    assert "short has 7 lines" in line
    line = _one_error_line(bleuprint_cli(["short"], data, stdin=(data / "hyp.1").read_bytes()), 1)
    assert "standard input has 10 lines" in line


@pytest.mark.differential
def test_mismatched_lengths_exit_status_like_sacrebleu(data: Path) -> None:
    _write(data / "short", REF_A[:7])
    assert sacrebleu_cli(["short", "-i", "hyp.1"], data).returncode == 1
    assert bleuprint_cli(["short", "-i", "hyp.1"], data).returncode == 1


def test_invalid_utf8_names_file_and_offset(data: Path) -> None:
    (data / "bad").write_bytes(b"fine line\nbroken \xff byte\n")
    line = _one_error_line(bleuprint_cli(["ref.a", "-i", "bad"], data), 1)
    assert "bad" in line
    assert "byte offset 17" in line
    assert "line 2" in line
    line = _one_error_line(bleuprint_cli(["bad"], data, stdin=b"x\n"), 1)
    assert "byte offset 17" in line
    line = _one_error_line(bleuprint_cli(["ref.a"], data, stdin=b"\xc3("), 1)
    assert "<stdin>" in line
    assert "byte offset 0" in line


def test_invalid_gzip_and_encoding_errors(data: Path) -> None:
    (data / "bad.gz").write_bytes(b"not gzip")
    line = _one_error_line(bleuprint_cli(["ref.a", "-i", "bad.gz"], data), 1)
    assert "bad.gz" in line
    (data / "l1").write_bytes(b"caf\xe9\n")
    line = _one_error_line(bleuprint_cli(["ref.a", "-i", "l1"], data), 1)
    assert "byte offset 3" in line


def test_missing_file(data: Path) -> None:
    line = _one_error_line(bleuprint_cli(["ref.a", "-i", "missing.txt"], data), 1)
    assert "missing.txt" in line
    assert "No such file" in line


def test_field_count_errors_exit_17(data: Path) -> None:
    line = _one_error_line(bleuprint_cli(["ref.a", "-nr", "2", "-i", "hyp.1"], data), 17)
    assert "FATAL: line 1: expected 2 fields, but found 1." in line
    stdin = b"a\tb\nc\n"
    line = _one_error_line(bleuprint_cli(["ref.a"], data, stdin=stdin), 17)
    assert "number of tab-delimited fields" in line
    stdin = b"a\nb\tc\n"
    _one_error_line(bleuprint_cli(["ref.a"], data, stdin=stdin), 17)


def test_detail_without_a_test_set(data: Path) -> None:
    """-d with REF files: the scores, then sacrebleu's note that there is nothing to split
    (the test-set cases are in test_testsets.py)."""
    out = assert_same_as_sacrebleu(["ref.a", "-i", "hyp.1", "-d", "-f", "text"], data)
    assert out.endswith("No subset information found. Consider using --origlang argument.\n")


@pytest.mark.parametrize(
    "args",
    [
        ["-i", "hyp.1"],  # no references
        ["ref.a", "-i"],  # -i without files
        ["ref.a", "ref.b", "-nr", "2", "-i", "hyp.1"],
        ["ref.a", "-i", "hyp.1", "hyp.2", "-sl"],
        ["ref.a", "-i", "hyp.1", "hyp.1"],
        ["ref.a", "-i", "hyp.1", "-e", "no-such-codec"],
        ["ref.a", "-i", "hyp.1", "-w", "-1"],
        ["ref.a", "-i", "hyp.1", "-l", "english"],
    ],
)
def test_bad_usage_exit_2(data: Path, args: list[str]) -> None:
    _one_error_line(bleuprint_cli(args, data), 2)


def test_argparse_errors_exit_2(data: Path) -> None:
    result = bleuprint_cli(["ref.a", "-i", "hyp.1", "--no-such-option"], data)
    assert result.returncode == 2
    assert b"usage: bleuprint" in result.stderr
    assert b"Traceback" not in result.stderr


def test_repeated_input_option_is_refused(data: Path) -> None:
    # argparse alone would keep only the last -i's files and silently drop hyp.1.
    line = _one_error_line(bleuprint_cli(["ref.a", "-i", "hyp.1", "-i", "hyp.2"], data), 2)
    assert "-i/--input is given more than once" in line
    assert "'-i a.txt b.txt'" in line
    ok = bleuprint_cli(["ref.a", "-i", "hyp.1", "hyp.2", "-q"], data)
    assert ok.returncode == 0
    assert ok.stdout.count(b"hyp.") == 2


@pytest.mark.parametrize(
    ("args", "option", "allowed"),
    [
        (["-ci", "-cin", str(10**12)], "-cin/--confidence-n", "from 1 to 1,000,000"),
        (["-ci", "-cin", "0"], "-cin/--confidence-n", "from 1 to 1,000,000"),
        (["-w", "999999999"], "-w/--width", "from 0 to 100"),
        (["-w", "-1"], "-w/--width", "from 0 to 100"),
        (["-pbsn", "0"], "-pbsn/--paired-bs-n", "from 1 to 1,000,000"),
        (["-pbsn", str(10**7)], "-pbsn/--paired-bs-n", "from 1 to 1,000,000"),
        (["-parn", "-5"], "-parn/--paired-ar-n", "from 1 to 1,000,000"),
        (["-m", "chrf", "-cc", "2147483648"], "-cc/--chrf-char-order", "from 0 to 255"),
        (["-m", "chrf", "-cw", str(2**62)], "-cw/--chrf-word-order", "from 0 to 255"),
        (["-m", "chrf", "-cw", "-1"], "-cw/--chrf-word-order", "from 0 to 255"),
        (["-nr", str(10**12)], "-nr/--num-refs", "from 1 to 10,000"),
        (["-nr", "0"], "-nr/--num-refs", "from 1 to 10,000"),
    ],
)
def test_numeric_options_out_of_range_exit_2(
    data: Path, args: list[str], option: str, allowed: str
) -> None:
    # Checked before anything is read or allocated: one line, no MemoryError, no long wait.
    result = bleuprint_cli(["ref.a", "-i", "hyp.1", *args], data)
    line = _one_error_line(result, 2)
    assert f"{option} must be {allowed}" in line
    assert line.endswith(f"got {args[-1]}")
    assert result.stdout == b""


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["-s", "floor", "-sv", "nan"], "smooth_value"),
        (["-s", "add-k", "-sv", "-1"], "smooth_value"),
        (["-j", str(10**21)], "workers"),
    ],
)
def test_option_values_the_core_refuses_exit_2(data: Path, args: list[str], needle: str) -> None:
    result = bleuprint_cli(["ref.a", "-i", "hyp.1", *args], data)
    assert needle in _one_error_line(result, 2)
    assert result.stdout == b""


def test_numeric_options_at_their_bounds_are_accepted(data: Path) -> None:
    result = bleuprint_cli(["ref.a", "-i", "hyp.1", "-w", "100", "-b", "-f", "text"], data)
    assert result.returncode == 0, result.stderr.decode()
    assert len(result.stdout.strip().split(b".")[1]) == 100
    chrf = bleuprint_cli(["ref.a", "-i", "hyp.1", "-m", "chrf", "-cc", "0", "-cw", "2"], data)
    assert chrf.returncode == 0, chrf.stderr.decode()


def _interrupt(process: subprocess.Popen) -> tuple[bytes, bytes]:
    process.send_signal(signal.SIGINT)
    try:
        return process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name == "nt", reason="POSIX signals")
def test_ctrl_c_during_scoring_exits_130_with_one_line(tmp_path: Path) -> None:
    rng = random.Random(3)
    words = [f"w{i}" for i in range(3000)]
    lines = [" ".join(rng.choices(words, k=25)) for _ in range(100_000)]
    _write(tmp_path / "ref", lines)
    hyps = "\n".join(reversed(lines)).encode() + b"\n"
    # chrF with 40 character orders: several seconds in the core.
    command = [sys.executable, "-m", "bleuprint", "ref", "-m", "chrf", "-cc", "40"]
    process = subprocess.Popen(
        command, cwd=tmp_path, env=subprocess_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    assert process.stdin is not None
    # The command reads standard input a chunk at a time as it scores, so once half of it is
    # written (the pipe holds 64 KiB) the command is past start-up and scoring; the rest is
    # never sent, and the interrupt comes while it scores or waits for more.
    process.stdin.write(hyps[: len(hyps) // 2])
    process.stdin.flush()
    time.sleep(0.5)
    stdout, stderr = _interrupt(process)
    assert process.returncode == 130
    assert stderr == b"bleuprint: interrupted\n"
    assert stdout == b""


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name == "nt", reason="POSIX signals")
def test_ctrl_c_while_printing_exits_130_with_one_line(tmp_path: Path) -> None:
    lines = [f"segment {i} of a long file" for i in range(50_000)]
    _write(tmp_path / "ref", lines)
    _write(tmp_path / "hyp", lines)
    # Sentence-level output is megabytes: the command blocks writing it to a full pipe.
    command = [sys.executable, "-m", "bleuprint", "ref", "-i", "hyp", "-sl"]
    process = subprocess.Popen(
        command, cwd=tmp_path, env=subprocess_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None
    assert process.stdout.read(1) == b"B"  # it is printing the results
    stdout, stderr = _interrupt(process)
    assert process.returncode == 130
    assert stderr == b"bleuprint: interrupted\n"
    assert 0 < len(stdout) < 50_000 * 80  # cut short


def test_empty_system_output(data: Path) -> None:
    (data / "empty").write_bytes(b"")
    (data / "ref.empty").write_bytes(b"")
    _one_error_line(bleuprint_cli(["ref.empty", "-i", "empty"], data), 1)


def test_warning_goes_to_stderr(data: Path) -> None:
    result = bleuprint_cli(["ref.a", "-i", "hyp.1", "-l", "en-zh", "-tok", "13a", "-b"], data)
    assert result.returncode == 0
    assert result.stderr.decode().startswith("bleuprint: Consider using the 'zh'")


def test_info_message_and_quiet(data: Path) -> None:
    loud = bleuprint_cli(["ref.a", "-i", "hyp.1", "hyp.2"], data)
    assert loud.stderr == b"bleuprint: Found 2 systems.\n"
    quiet = bleuprint_cli(["ref.a", "-i", "hyp.1", "hyp.2", "-q"], data)
    assert quiet.stderr == b""
    assert quiet.stdout == loud.stdout


# --------------------------------------------------------------------------------------------
# Version, help, startup


def test_version(tmp_path: Path) -> None:
    result = bleuprint_cli(["-V"], tmp_path)
    assert result.returncode == 0
    version, core, numpy_line = result.stdout.decode().splitlines()
    assert version == f"bleuprint {bleuprint.__version__}"
    assert core.startswith("core: Rust (PyO3), one abi3 build")
    # The numpy that runs, and the scalar promotion the bootstrap replays under it.
    rule = {"weak": "NEP 50", "legacy": "numpy 1's value-based"}[numpy_promotion()]
    assert numpy_line == f"numpy {np.__version__}: {rule} scalar promotion in sacrebleu's " + (
        "bootstrap arithmetic"
    )
    assert bleuprint_cli(["--version"], tmp_path, console=True).stdout == result.stdout


def _imported_modules(command: list[str], cwd: Path) -> set[str]:
    """The modules ``command`` (a Python process) imports, read from ``-X importtime``."""
    result = run(command, cwd, env={"PYTHONPROFILEIMPORTTIME": "1"})
    assert result.returncode == 0, result.stderr.decode()
    lines = result.stderr.decode().splitlines()
    return {line.rsplit("|", 1)[-1].strip() for line in lines if line.startswith("import time:")}


@pytest.mark.parametrize("console", [False, True], ids=["python -m bleuprint", "console script"])
def test_version_imports_only_what_it_needs(tmp_path: Path, console: bool) -> None:
    # numpy (~100 ms) loads with the first call that makes an array, tables, significance
    # tests, resampling and the compat modules when used.
    if console:
        script = installed_script("bleuprint")
        if script is None:
            pytest.skip("the bleuprint console script is not installed")
        command = [script, "-V"]
    else:
        command = [sys.executable, "-m", "bleuprint", "-V"]
    modules = _imported_modules(command, tmp_path)
    assert "bleuprint.cli.entry" in modules  # the profile covers the command's imports
    # -V reads bleuprint.significance.promotion for its numpy line, which imports no numpy.
    lazy = ("numpy", "tabulate", "bleuprint.significance.bootstrap", "bleuprint.significance.draws")
    assert not modules & set(lazy)
    assert not any(m.startswith("bleuprint.compat.") for m in modules)


def test_import_bleuprint_loads_no_numpy(tmp_path: Path) -> None:
    code = "import sys, bleuprint; assert 'numpy' not in sys.modules, 'numpy loaded at import'"
    modules = _imported_modules([sys.executable, "-c", code], tmp_path)
    assert "bleuprint.metrics" in modules
    assert not any(m == "numpy" or m.startswith("numpy.") for m in modules)


def test_help_describes_every_option(tmp_path: Path) -> None:
    result = bleuprint_cli(["--help"], tmp_path)
    assert result.returncode == 0
    text = result.stdout.decode()
    for action in build_parser()._actions:
        for option in action.option_strings:
            assert option in text, option
        assert action.help, action.dest
    for word in ("exit status", "SACREBLEU_FORMAT", "byte order mark"):
        assert word in text


@pytest.mark.parametrize("command", [[], ["explain"], ["compare-presets"]])
def test_help_says_preset(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    # One word for the concept: "preset"; --compat only as the deprecated old name.
    with pytest.raises(SystemExit) as exit_:
        main([*command, "--help"])
    assert exit_.value.code == 0
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
    assert "preset" in text
    assert "implementation" not in text.replace("compare-implementations is the deprecated", "")
    if command != ["compare-presets"]:
        assert "--preset NAME" in text
        assert "--compat NAME Deprecated: the old name of --preset." in text


# --------------------------------------------------------------------------------------------
# Batched sentence-level lines equal per-segment BLEUScore.format


def _random_rows(rng: random.Random, n: int) -> list[list[int]]:
    rows = []
    for _ in range(n):
        length = rng.choice([0, 1, 2, 3, 4, 5, 8, 20])
        ref_len = rng.choice([0, 1, 3, length, length + rng.randint(0, 6)])
        totals = [max(0, length - k) for k in range(4)]
        counts = [rng.randint(0, t) if rng.random() < 0.7 else 0 for t in totals]
        rows.append([length, ref_len, *counts, *totals])
    return rows


@pytest.mark.parametrize(
    ("method", "value"),
    [
        ("exp", None),
        ("floor", None),
        ("floor", 0.2),
        ("add-k", None),
        ("add-k", 0.5),
        ("none", None),
    ],
)
def test_sentence_lines_match_score_format(method: str, value: Optional[float]) -> None:
    np = pytest.importorskip("numpy")
    from bleuprint.metrics.bleu import BLEUConfig
    from bleuprint.metrics.stats import Stats

    config = BLEUConfig(smooth_method=method, smooth_value=value, effective_order=True)
    rows = np.array(_random_rows(random.Random(7), 400), dtype=np.int64)
    stats = Stats(rows, config, nrefs=1)
    sig = config.signature(1).format()
    expected = [config.score_row(row).format(2, False, sig) for row in rows]
    assert sentence_lines(stats, 2, False, sig) == expected
    expected_b = [config.score_row(row).format(3, True, sig) for row in rows]
    assert sentence_lines(stats, 3, True, sig) == expected_b


@pytest.mark.differential
@pytest.mark.parametrize(
    ("method", "value"), [("exp", None), ("floor", 0.2), ("add-k", None), ("none", None)]
)
def test_sentence_lines_match_sacrebleu_compute_bleu(method: str, value: Optional[float]) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    np = pytest.importorskip("numpy")
    from bleuprint.metrics.bleu import BLEUConfig
    from bleuprint.metrics.stats import Stats

    config = BLEUConfig(smooth_method=method, smooth_value=value, effective_order=True)
    rows = _random_rows(random.Random(11), 400)
    stats = Stats(np.array(rows, dtype=np.int64), config, nrefs=2)
    sig = config.signature(2).format()
    expected = [
        sacrebleu.BLEU.compute_bleu(
            row[2:6], row[6:10], row[0], row[1], method, value, effective_order=True
        ).format(1, False, sig)
        for row in rows
    ]
    assert sentence_lines(stats, 1, False, sig) == expected


# --------------------------------------------------------------------------------------------
# WER and CER (no sacrebleu counterpart: the numbers are checked against the API and jiwer)


def _json(data: Path, *args: str) -> object:
    result = bleuprint_cli(list(args), data)
    assert result.returncode == 0, result.stderr.decode()
    return json.loads(result.stdout)


def test_wer_and_cer_equal_the_api(data: Path) -> None:
    out = _json(data, "ref.a", "ref.b", "-i", "hyp.1", "-m", "cer", "wer", "-w", "6")
    cer, wer = out  # sorted names: CER before WER
    refs = [REF_A, REF_B]
    assert wer["name"] == "WER"
    assert wer["score"] == round(bleuprint.corpus_wer(HYP_1, refs).score, 6)
    assert cer["score"] == round(bleuprint.corpus_cer(HYP_1, refs).score, 6)
    assert wer["unit"] == "word"
    assert cer["unit"] == "char"


def test_wer_options_reach_the_metric(data: Path) -> None:
    args = ["--wer-transform", "standardize", "--wer-remove-punctuation", "-m", "wer", "-w", "6"]
    out = _json(data, "ref.a", "-i", "hyp.2", *args)
    expected = bleuprint.corpus_wer(
        HYP_2, [REF_A], transform="standardize", remove_punctuation=True
    )
    assert out["score"] == round(expected.score, 6)
    assert "punct:removed" in out["signature"]
    assert out["case"] == "lc"


def test_wer_matches_jiwer(data: Path) -> None:
    jiwer = pytest.importorskip("jiwer")
    score = float(
        bleuprint_cli(["ref.a", "-i", "hyp.1", "-m", "wer", "-b", "-w", "10"], data).stdout
    )
    assert score == round(100 * jiwer.wer(REF_A, HYP_1), 10)


def test_wer_sentence_level_and_tables(data: Path) -> None:
    lines = bleuprint_cli(["ref.a", "-i", "hyp.1", "-m", "cer", "-sl", "-b", "-w", "4"], data)
    expected = bleuprint.CER().sentence_scores(HYP_1, [REF_A])
    assert lines.stdout.decode().split() == [f"{v:.4f}" for v in expected]
    table = bleuprint_cli(
        ["ref.a", "-i", "hyp.1", "hyp.2", "-m", "wer", "bleu", "-f", "text"], data
    )
    text = table.stdout.decode()
    assert "BLEU" in text
    assert " - WER        nrefs:1|unit:word|transform:default|case:mixed|" in text


@pytest.mark.skipif(not hasattr(signal, "SIGPIPE"), reason="no SIGPIPE on this platform")
def test_calling_main_keeps_the_callers_sigpipe_handling(data: Path, monkeypatch) -> None:
    """Only the command itself dies quietly on a closed pipe: main([...]) called from a
    program (a test worker, a notebook) must not make a later write to a closed socket kill
    that program without a word."""
    monkeypatch.chdir(data)
    before = signal.getsignal(signal.SIGPIPE)
    assert before == signal.SIG_IGN  # Python's own setting
    assert main(["ref.a", "-i", "hyp.1", "-b"]) == 0
    assert signal.getsignal(signal.SIGPIPE) == before
