"""``-ci``, ``-pbs`` and ``-par`` on the command line against the real ``sacrebleu`` command,
and bleuprint's own ``--paired-all`` and ``--correction`` against the Python API.

The differential tests run both programs on the first 300 segments of WMT22 en-de (reference A,
optionally B, and four system outputs) and require byte-identical stdout after replacing the
signature version (see ``tests/cli/test_cli.py``). They skip when ``../shared`` is absent.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import bleuprint.io.progress
from bleuprint import cli
from bleuprint.cli.output import single_system_lines
from bleuprint.metrics import BLEU, CHRF, TER, WER
from bleuprint.significance import paired_test_stats
from bleuprint.significance.promotion import WEAK, numpy_promotion
from tests.support.cli import (
    OUR_VERSION,
    SACREBLEU_VERSION,
    assert_same_as_sacrebleu,
    bleuprint_cli,
    sacrebleu_cli,
    subprocess_env,
)
from tests.support.data import read_lines

N_SEGMENTS = 300
SYSTEMS = ("Online-A", "Online-B", "OpenNMT", "PROMT")
SEED_VARIABLES = ("SACREBLEU_SEED", "BLEUPRINT_SEED")


@pytest.fixture(autouse=True)
def _default_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    # The subprocesses inherit os.environ: start every test from the default seed.
    for name in SEED_VARIABLES:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module")
def data(wmt22: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``ref.A``, ``ref.B`` and one file per system (named as in ``SYSTEMS``), 300 lines each,
    plus ``systems.tsv`` (the first three systems, tab-separated)."""
    root = tmp_path_factory.mktemp("wmt22-slice")
    pair = "generaltest2022.en-de"
    files = {
        "ref.A": wmt22 / "references" / f"{pair}.ref.A.de",
        "ref.B": wmt22 / "references" / f"{pair}.ref.B.de",
        **{name: wmt22 / "system-outputs" / f"{pair}.hyp.{name}.de" for name in SYSTEMS},
    }
    columns = {}
    for name, path in files.items():
        lines = read_lines(path)[:N_SEGMENTS]
        assert len(lines) == N_SEGMENTS
        assert not any("\t" in line for line in lines)
        (root / name).write_bytes("".join(f"{line}\n" for line in lines).encode("utf-8"))
        columns[name] = lines
    rows = zip(*(columns[name] for name in SYSTEMS[:3]))
    (root / "systems.tsv").write_bytes("".join("\t".join(r) + "\n" for r in rows).encode("utf-8"))
    return root


def _lines(path: Path) -> list[str]:
    return read_lines(path)


# --------------------------------------------------------------------------------------------
# Byte-identical output (sacrebleu 2.6.0)

THREE = ["-m", "bleu", "chrf", "ter"]
ONE = ["ref.A", "-i", "Online-A"]
PAIRED3 = ["-i", "Online-A", "Online-B", "OpenNMT"]
PAIRED4 = [*PAIRED3, "PROMT"]
TEXT = ["-f", "text"]
CIN = ["-ci", "-cin", "200"]
PBS = ["-pbs", "-pbsn", "200"]
PAR = ["-par", "-parn", "500"]

SAME = {
    # -ci for one system
    "ci-text": [*ONE, *THREE, "-ci", *TEXT],
    "ci-json": [*ONE, *THREE, "-ci"],
    "ci-json-one-metric": [*ONE, "-m", "chrf", *CIN],
    "ci-n-200": [*ONE, *THREE, *CIN, *TEXT],
    "ci-score-only-json": [*ONE, *THREE, *CIN, "-b"],
    "ci-score-only-text": [*ONE, *THREE, *CIN, "-b", *TEXT],
    "ci-score-only-one": [*ONE, *CIN, "-b", "-w", "2"],
    "ci-width-3": [*ONE, *THREE, *CIN, "-w", "3", *TEXT],
    "ci-latex": [*ONE, "-m", "bleu", "ter", *CIN, "-f", "latex"],
    "ci-ter-bleu-order": [*ONE, "-m", "ter", "bleu", *CIN, *TEXT],
    "ci-two-refs-short": ["ref.A", "ref.B", "-i", "Online-A", *THREE, *CIN, *TEXT, "-sh"],
    "cin-without-ci-ignored": [*ONE, "-cin", "50", *TEXT],
    # paired bootstrap resampling
    "pbs-text": ["ref.A", *PAIRED3, *THREE, *PBS, *TEXT],
    "pbs-latex": ["ref.A", *PAIRED3, *THREE, *PBS, "-f", "latex"],
    "pbs-json-bleu": ["ref.A", *PAIRED4, *PBS],
    "pbs-width-3-short": ["ref.A", *PAIRED3, "-m", "bleu", "chrf", *PBS, "-w", "3", "-sh", *TEXT],
    "pbs-ter-bleu-order": ["ref.A", *PAIRED3, "-m", "ter", "bleu", *PBS, *TEXT],
    "pbs-two-refs": ["ref.A", "ref.B", *PAIRED3, *THREE, *PBS, *TEXT],
    "pbs-baseline-repeated": [*ONE, "Online-B", "Online-A", "OpenNMT", *PBS, *TEXT],
    "pbs-jobs": ["ref.A", *PAIRED3, *PBS, "-j", "2", *TEXT],
    # paired approximate randomization
    "par-text": ["ref.A", *PAIRED4, *THREE, *PAR, *TEXT],
    "par-json": ["ref.A", *PAIRED4, *THREE, *PAR],
    "par-latex": ["ref.A", *PAIRED4, *THREE, *PAR, "-f", "latex"],
    "par-ter-bleu-order": ["ref.A", *PAIRED3, "-m", "ter", "bleu", *PAR, *TEXT],
    "par-two-refs-json": ["ref.A", "ref.B", *PAIRED3, *THREE, *PAR],
    "par-jobs-0": ["ref.A", *PAIRED3, *PAR, "-j", "0", *TEXT],
}


@pytest.mark.parametrize("name", list(SAME))
def test_same_output_as_sacrebleu(data: Path, name: str) -> None:
    assert_same_as_sacrebleu(SAME[name], data)


STDIN = {
    "stdin-pbs-text": [*THREE, "-pbs", "-pbsn", "200", "-f", "text"],
    "stdin-pbs-json": ["-pbs", "-pbsn", "200"],
    "stdin-par-latex": ["-m", "bleu", "chrf", "-par", "-parn", "500", "-f", "latex"],
}


@pytest.mark.parametrize("name", list(STDIN))
def test_stdin_systems_same_as_sacrebleu(data: Path, name: str) -> None:
    # sacrebleu names them Baseline, System 1, System 2 (and compares them to "" in the text).
    stdin = (data / "systems.tsv").read_bytes()
    out = assert_same_as_sacrebleu(["ref.A", *STDIN[name]], data, stdin=stdin)
    assert "Baseline" in out
    assert "System 2" in out


@pytest.mark.parametrize("seed", ["7", "0", "2024"])
def test_seed_variable_same_as_sacrebleu(data: Path, seed: str) -> None:
    env = {"SACREBLEU_SEED": seed}
    out = assert_same_as_sacrebleu(
        ["ref.A", "-i", "Online-A", *THREE, "-ci", "-cin", "200", "-f", "text"], data, env=env
    )
    assert f"seed:{seed}|" in out
    if seed != "0":  # paired tests treat a seed of 0 as unseeded, as sacrebleu does
        args = ["ref.A", *PAIRED3, *THREE, "-pbs", "-pbsn", "200", "-f", "text"]
        assert f"seed:{seed}|" in assert_same_as_sacrebleu(args, data, env=env)


def test_bleuprint_seed_alias(data: Path) -> None:
    args = ["ref.A", *PAIRED3, "-par", "-parn", "300", "-f", "text"]
    ours = bleuprint_cli(args, data, env={"BLEUPRINT_SEED": "7"})
    theirs = sacrebleu_cli(args, data, env={"SACREBLEU_SEED": "7"})
    assert ours.returncode == theirs.returncode == 0
    assert ours.stdout.decode().replace(OUR_VERSION, SACREBLEU_VERSION) == theirs.stdout.decode()


def _strip_estimates(text: str) -> str:
    """The deterministic parts of an unseeded run: bootstrap means, intervals and p-values
    replaced by placeholders."""
    text = re.sub(r"μ = [0-9.]+ ± [0-9.]+", "μ = M ± C", text)
    text = re.sub(r"\(p = [0-9.]+\)\*?", "(p = P)", text)
    text = re.sub(r"\([0-9.]+ ± [0-9.]+\)", "(M ± C)", text)
    return text


def test_unseeded_confidence(data: Path) -> None:
    env = {"SACREBLEU_SEED": "None"}
    args = ["ref.A", "-i", "Online-A", *THREE, "-ci", "-cin", "100", "-f", "text"]
    ours = bleuprint_cli(args, data, env=env)
    theirs = sacrebleu_cli(args, data, env=env)
    assert ours.returncode == theirs.returncode == 0
    out = ours.stdout.decode().replace(OUR_VERSION, SACREBLEU_VERSION)
    assert "|seed:none|" in out
    assert _strip_estimates(out) == _strip_estimates(theirs.stdout.decode())

    ours_json = json.loads(bleuprint_cli(args[:-2], data, env=env).stdout)
    theirs_json = json.loads(sacrebleu_cli(args[:-2], data, env=env).stdout)
    for a, b in zip(ours_json, theirs_json):
        for key in ("confidence_mean", "confidence_var", "confidence"):
            del a[key], b[key]
        a["version"] = b["version"]
        a["signature"] = a["signature"].replace(OUR_VERSION, SACREBLEU_VERSION)
        assert a == b


@pytest.mark.parametrize("test", ["-pbs", "-par"])
def test_unseeded_paired(data: Path, test: str) -> None:
    env = {"SACREBLEU_SEED": "None"}
    args = ["ref.A", *PAIRED3, *THREE, test, "-pbsn", "100", "-parn", "100", "-f", "text"]
    ours = bleuprint_cli(args, data, env=env)
    theirs = sacrebleu_cli(args, data, env=env)
    assert ours.returncode == theirs.returncode == 0
    out = ours.stdout.decode().replace(OUR_VERSION, SACREBLEU_VERSION)
    assert "|seed:none|" in out
    ours_lines, theirs_lines = out.splitlines(), theirs.stdout.decode().splitlines()
    # Table widths may follow the random estimates; the scores, explanations and signatures
    # (everything after the table) do not.
    assert out.split("╛\n", 1)[1] == theirs.stdout.decode().split("╛\n", 1)[1]
    scores = re.compile(r"│ +(\S.*?) +│ +([0-9.]+)")
    assert [m.groups() for m in map(scores.search, ours_lines) if m] == [
        m.groups() for m in map(scores.search, theirs_lines) if m
    ]


@pytest.mark.slow
@pytest.mark.parametrize("test", ["-pbs", "-par"])
def test_default_sample_counts_same_as_sacrebleu(data: Path, test: str) -> None:
    # 1000 bootstrap resamples, 10000 randomization trials; and -ci's 1000.
    assert_same_as_sacrebleu(["ref.A", *PAIRED4, *THREE, test, "-f", "text"], data)
    assert_same_as_sacrebleu(["ref.A", *PAIRED3, "-m", "bleu", test], data)


def test_colours_only_on_a_terminal(data: Path) -> None:
    # Not a terminal: no escape codes, whatever NO_COLOR says.
    for env in (None, {"NO_COLOR": "1"}):
        args = ["ref.A", *PAIRED3, "-pbs", "-pbsn", "100", "-f", "text"]
        assert b"\x1b[" not in bleuprint_cli(args, data, env=env).stdout
        args = ["ref.A", "-i", "Online-A", "-ci", "-cin", "100", "-f", "text"]
        assert b"\x1b[" not in bleuprint_cli(args, data, env=env).stdout


def _on_terminal(command: list[str], cwd: Path) -> bytes:
    """stdout of ``command`` run with a pseudo-terminal as stdout (colours on)."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    process = subprocess.Popen(
        command,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=subprocess.DEVNULL,
        env=subprocess_env(),
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:  # EIO: the terminal closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=120)
    os.close(master)
    return b"".join(chunks)


COLOURED = {
    "pbs-text": ["ref.A", *PAIRED3, *THREE, *PBS, *TEXT],
    "par-latex": ["ref.A", *PAIRED3, "-m", "ter", "bleu", *PAR, "-f", "latex"],
    "ci-text": [*ONE, *THREE, *CIN, *TEXT],
    "ci-score-only": [*ONE, *THREE, *CIN, "-b", *TEXT],
}


@pytest.mark.parametrize("name", list(COLOURED))
def test_colours_on_a_terminal_same_as_sacrebleu(data: Path, name: str) -> None:
    pytest.importorskip("sacrebleu")
    args = COLOURED[name]
    ours = _on_terminal([sys.executable, "-m", "bleuprint", *args], data)
    theirs = _on_terminal([sys.executable, "-m", "sacrebleu", *args], data)
    assert b"\x1b[36m" in theirs
    assert ours.replace(OUR_VERSION.encode(), SACREBLEU_VERSION.encode()) == theirs


def test_confidence_colour_is_applied_before_alignment() -> None:
    # sacrebleu colours "(μ = ...)" first, then aligns the lines on their first "=" (which,
    # with -b, is the one inside the coloured part).
    results = ["36.7 (μ = 37.0 ± 2.5)", "64.7 (μ = 64.8 ± 1.6)"]
    plain = single_system_lines(list(results), "text")
    coloured = single_system_lines(list(results), "text", color=True)
    assert plain == results
    assert coloured == [
        "36.7 \x1b[36m(μ = 37.0 ± 2.5)\x1b[0m",
        "64.7 \x1b[36m(μ = 64.8 ± 1.6)\x1b[0m",
    ]
    lines = ["BLEU|x = 36.7 (μ = 37.0 ± 2.5)", "TER|xyz = 50.1 (μ = 49.9 ± 2.4)"]
    assert single_system_lines(lines, "text", color=True) == [
        " BLEU|x = 36.7 \x1b[36m(μ = 37.0 ± 2.5)\x1b[0m",
        "TER|xyz = 50.1 \x1b[36m(μ = 49.9 ± 2.4)\x1b[0m",
    ]


def test_chrf_ter_bootstrap_json_has_python_floats(data: Path) -> None:
    # Under numpy 2, sacrebleu crashes here (numpy.float32 is not JSON serializable); we print
    # the floats. Under numpy 1 its means are numpy.float64, which json writes: the same bytes.
    args = ["ref.A", *PAIRED3, *THREE, "-pbs", "-pbsn", "200"]
    theirs = sacrebleu_cli(args, data)
    ours = bleuprint_cli(args, data)
    assert ours.returncode == 0, ours.stderr.decode()
    if numpy_promotion() == WEAK:
        assert theirs.returncode != 0
    else:
        assert theirs.stdout == ours.stdout
    rows = json.loads(ours.stdout)
    assert [r["system"] for r in rows] == ["Baseline: Online-A", "Online-B", "OpenNMT"]
    assert list(rows[1]) == ["system", "BLEU", "chrF2", "TER"]
    assert list(rows[1]["TER"]) == ["score", "p_value", "mean", "ci"]
    # The BLEU part is sacrebleu's (its BLEU-only JSON is compared byte for byte above).
    bleu_only = json.loads(bleuprint_cli(["ref.A", *PAIRED3, "-pbs", "-pbsn", "200"], data).stdout)
    assert [{"system": r["system"], "BLEU": r["BLEU"]} for r in rows] == bleu_only
    # chrF and TER means and intervals are numpy scalars written as Python floats.
    result = _api_result(data, list(SYSTEMS[:3]), [BLEU, CHRF, TER], test="bs", n_samples=200)
    for row, name in zip(rows, result.systems):
        for metric in ("chrF2", "TER"):
            expected = result.result(name, metric)
            assert row[metric]["mean"] == float(expected.mean)
            assert row[metric]["ci"] == float(expected.ci)


# --------------------------------------------------------------------------------------------
# Errors


def _error(result, code: int) -> str:
    assert result.returncode == code, (result.returncode, result.stderr.decode())
    assert result.stdout == b""
    err = result.stderr.decode()
    assert "Traceback" not in err
    return err


SACREBLEU_ERRORS = {
    "paired-one-system": (
        ["ref.A", "-i", "Online-A", "-pbs"],
        "Paired tests require multiple input systems given to --input (-i).",
    ),
    "paired-baseline-only": (
        ["ref.A", "-i", "Online-A", "Online-A", "-par"],
        "Paired tests require multiple input systems given to --input (-i).",
    ),
    "ci-two-systems": (
        ["ref.A", "-i", "Online-A", "Online-B", "-ci"],
        "Use paired tests (--paired) for multiple systems.",
    ),
    "ci-and-paired": (
        ["ref.A", "-i", "Online-A", "Online-B", "-ci", "-pbs"],
        "Use paired tests (--paired) for multiple systems.",
    ),
    "sentence-level-ci": (
        ["ref.A", "-i", "Online-A", "-sl", "-ci"],
        "Statistical tests are unavailable in sentence-level mode.",
    ),
    "sentence-level-paired": (
        ["ref.A", "-i", "Online-A", "-sl", "-par"],
        "Statistical tests are unavailable in sentence-level mode.",
    ),
}


@pytest.mark.parametrize("name", list(SACREBLEU_ERRORS))
def test_refused_as_sacrebleu(data: Path, name: str) -> None:
    args, message = SACREBLEU_ERRORS[name]
    ours = _error(bleuprint_cli(args, data), 1)
    theirs = sacrebleu_cli(args, data)
    assert theirs.returncode == 1
    assert ours.splitlines()[-1] == f"bleuprint: {message}"
    assert theirs.stderr.decode().splitlines()[-1] == f"sacreBLEU: {message}"


def test_stdin_single_system_paired_test_refused(data: Path) -> None:
    stdin = (data / "Online-A").read_bytes()
    err = _error(bleuprint_cli(["ref.A", "-pbs"], data, stdin=stdin), 1)
    assert "Paired tests require multiple input systems" in err


def test_baseline_repeated_is_ignored_with_a_message(data: Path) -> None:
    args = ["ref.A", "-i", "Online-A", "Online-B", "Online-A", "-par", "-parn", "100", "-f", "text"]
    ours = bleuprint_cli(args, data)
    assert ours.returncode == 0
    err = ours.stderr.decode()
    assert "bleuprint: Ignoring 'Online-A' as it was also given as the baseline.\n" in err
    assert "bleuprint: Found 2 systems.\n" in err
    assert bleuprint_cli([*args, "-q"], data).stderr == b""
    # Without a paired test, a repeated file is still an error.
    _error(bleuprint_cli(["ref.A", "-i", "Online-A", "Online-B", "Online-A"], data), 2)


USAGE_ERRORS = {
    "cin-0": (["-i", "Online-A", "-ci", "-cin", "0"], "-cin/--confidence-n"),
    "cin-negative": (["-i", "Online-A", "-ci", "-cin", "-5"], "-cin/--confidence-n"),
    "pbsn-0": (["-i", "Online-A", "Online-B", "-pbs", "-pbsn", "0"], "-pbsn/--paired-bs-n"),
    "parn-0": (["-i", "Online-A", "Online-B", "-par", "-parn", "0"], "-parn/--paired-ar-n"),
    "jobs-negative": (["-i", "Online-A", "Online-B", "-par", "-j", "-1"], "-j/--paired-jobs"),
    "paired-all-without-test": (["-i", "Online-A", "Online-B", "--paired-all"], "--paired-all"),
    "correction-without-test": (
        ["-i", "Online-A", "Online-B", "--correction", "holm"],
        "--correction",
    ),
}


@pytest.mark.parametrize("name", list(USAGE_ERRORS))
def test_usage_errors_exit_2(data: Path, name: str) -> None:
    args, option = USAGE_ERRORS[name]
    err = _error(bleuprint_cli(["ref.A", *args], data), 2)
    assert len(err.splitlines()) == 1
    assert err.startswith(f"bleuprint: {option} ")


def test_bad_correction_and_exclusive_tests_are_argparse_errors(data: Path) -> None:
    for args in (["-pbs", "--correction", "sidak"], ["-pbs", "-par"]):
        result = bleuprint_cli(["ref.A", "-i", "Online-A", "Online-B", *args], data)
        err = _error(result, 2)
        assert "usage: bleuprint" in err


@pytest.mark.parametrize("value", ["abc", "1.5", "", "-3"])
def test_invalid_seed_variable(data: Path, value: str) -> None:
    for args in (["-i", "Online-A", "-ci"], ["-i", "Online-A", "Online-B", "-pbs"]):
        err = _error(bleuprint_cli(["ref.A", *args], data, env={"SACREBLEU_SEED": value}), 2)
        expected = f"SACREBLEU_SEED must be a non-negative integer or 'None', got {value!r}"
        assert err == f"bleuprint: {expected}\n"
    # The seed is only read when something is resampled.
    plain = bleuprint_cli(["ref.A", "-i", "Online-A"], data, env={"SACREBLEU_SEED": "abc"})
    assert plain.returncode == 0


# --------------------------------------------------------------------------------------------
# bleuprint's own: --paired-all, --correction, WER/CER, progress


def _api_result(data: Path, systems: list[str], metric_types: list, **options):
    refs = [_lines(data / "ref.A")]
    metrics = [m(references=refs) for m in metric_types]
    named = [(name, [m.stats(_lines(data / name)) for m in metrics]) for name in systems]
    return paired_test_stats(named, **options)


def _holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment, written out."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_paired_all_json_equals_the_api(data: Path, test: str) -> None:
    flag, n_flag, n = ("-pbs", "-pbsn", 200) if test == "bs" else ("-par", "-parn", 500)
    args = ["ref.A", "-i", *SYSTEMS, *THREE, flag, n_flag, str(n), "--paired-all"]
    ours = bleuprint_cli(args, data)
    assert ours.returncode == 0, ours.stderr.decode()
    printed = json.loads(ours.stdout)
    result = _api_result(
        data, list(SYSTEMS), [BLEU, CHRF, TER], test=test, n_samples=n, all_pairs=True
    )
    expected = json.loads(result.to_json())
    expected["signatures"] = {m: s.format() for m, s in result.signatures.items()}
    assert printed == expected
    assert printed["correction"] == "holm"
    assert len(printed["comparisons"]) == 3 * 6
    assert set(printed["clusters"]) == {"BLEU", "chrF2", "TER"}
    for metric in ("BLEU", "chrF2", "TER"):
        family = [c for c in printed["comparisons"] if c["metric"] == metric]
        assert [(c["baseline"], c["system"]) for c in family] == [
            ("Online-A", "Online-B"),
            ("Online-A", "OpenNMT"),
            ("Online-A", "PROMT"),
            ("Online-B", "OpenNMT"),
            ("Online-B", "PROMT"),
            ("OpenNMT", "PROMT"),
        ]
        holm = _holm([c["p_value"] for c in family])
        assert [c["adjusted_p_value"] for c in family] == holm
        assert [c["significant"] for c in family] == [p <= 0.05 for p in holm]


def test_paired_all_text_table(data: Path) -> None:
    args = ["ref.A", "-i", *SYSTEMS, "-m", "bleu", "ter", "-pbs", "-pbsn", "200", "--paired-all"]
    out = bleuprint_cli([*args, "-f", "text"], data).stdout.decode()
    result = _api_result(data, list(SYSTEMS), [BLEU, TER], test="bs", n_samples=200, all_pairs=True)
    # Every comparison is a row: metric, A, B, delta, raw p and Holm-adjusted p ("*" when
    # significant), and the adjusted p-values are Holm's on the printed raw ones.
    row = re.compile(
        r"│ +(BLEU|TER) │ +(\S+) +│ +(\S+) +│ +([+-][0-9.]+) +│ +([0-9.]+) +│ +([0-9.]+)(\*?) +│"
    )
    rows = [m.groups() for m in map(row.search, out.splitlines()) if m]
    assert len(rows) == 12
    for metric in ("BLEU", "TER"):
        mine = [r for r in rows if r[0] == metric]
        family = [c for c in result.comparisons if c.metric == metric]
        for r, c in zip(mine, family):
            assert r[1:5] == (c.baseline, c.system, f"{c.delta:+.1f}", f"{c.p_value:.4f}")
            assert r[5] == f"{c.adjusted_p_value:.4f}"
            assert (r[6] == "*") == c.significant
        holm = _holm([c.p_value for c in family])
        assert [r[5] for r in mine] == [f"{p:.4f}" for p in holm]
    # Each system's cell ends with its cluster, from result.clusters.
    for metric, clusters in result.clusters.items():
        for number, members in enumerate(clusters, 1):
            for name in members:
                assert result.result(name, metric).cluster == number
    cells = re.findall(r"\(cluster (\d+)\)", out)
    expected = [
        str(result.result(name, metric).cluster) for name in SYSTEMS for metric in ("BLEU", "TER")
    ]
    assert cells == expected
    assert "Holm's step-down" in out
    assert "--correction holm" in out
    assert "Metric signatures" in out
    assert "bs:200|seed:12345" in out
    # LaTeX: the same tables in booktabs.
    latex = bleuprint_cli([*args, "-f", "latex"], data).stdout.decode()
    assert latex.count("\\begin{tabular}") == 2
    assert "(cluster 1)" in latex


def test_clusters_rank_lower_is_better_metrics_best_first(data: Path) -> None:
    result = _api_result(
        data, list(SYSTEMS), [BLEU, TER, WER], test="ar", n_samples=500, all_pairs=True
    )
    for metric in ("TER", "WER"):
        best = min(SYSTEMS, key=lambda s: result.result(s, metric).score)
        assert best in result.clusters[metric][0]
        assert result.result(best, metric).cluster == 1
    best_bleu = max(SYSTEMS, key=lambda s: result.result(s, "BLEU").score)
    assert result.result(best_bleu, "BLEU").cluster == 1


def test_paired_all_stdin_names_and_no_baseline(data: Path) -> None:
    stdin = (data / "systems.tsv").read_bytes()
    args = ["ref.A", "-par", "-parn", "200", "--paired-all", "-f", "text"]
    out = bleuprint_cli(args, data, stdin=stdin).stdout.decode()
    assert "Baseline" not in out
    for name in ("System 1", "System 2", "System 3"):
        assert name in out
    assert "all 3 pairs of 3 systems" in out


@pytest.mark.parametrize("correction", ["none", "bonferroni"])
def test_paired_all_other_corrections(data: Path, correction: str) -> None:
    args = ["ref.A", "-i", *SYSTEMS[:3], "-par", "-parn", "500", "--paired-all"]
    printed = json.loads(bleuprint_cli([*args, "--correction", correction], data).stdout)
    assert printed["correction"] == correction
    p = [c["p_value"] for c in printed["comparisons"]]
    adjusted = [c["adjusted_p_value"] for c in printed["comparisons"]]
    if correction == "none":
        assert adjusted == p
    else:
        assert adjusted == [min(1.0, 3 * x) for x in p]
    text = bleuprint_cli([*args, "--correction", correction, "-f", "text"], data).stdout.decode()
    assert f"--correction {correction}" in text
    assert ("adj. p (" in text) == (correction != "none")


def test_correction_against_the_baseline(data: Path) -> None:
    args = ["ref.A", "-i", *SYSTEMS, "-m", "bleu", "chrf", "-par", "-parn", "500"]
    result = _api_result(
        data, list(SYSTEMS), [BLEU, CHRF], test="ar", n_samples=500, correction="holm"
    )
    text = bleuprint_cli([*args, "--correction", "holm", "-f", "text"], data).stdout.decode()
    for metric in ("BLEU", "chrF2"):
        for r in result.results[metric][1:]:
            cell = f"(p = {r.p_value:.4f}, adj. p = {r.adjusted_p_value:.4f})"
            assert cell + ("*" if r.adjusted_p_value <= 0.05 else "") in text
    assert '"adj. p"' in text
    assert "--correction holm" in text
    rows = json.loads(bleuprint_cli([*args, "--correction", "holm"], data).stdout)
    assert rows[1]["BLEU"]["adjusted_p_value"] == result.results["BLEU"][1].adjusted_p_value
    assert rows[0]["BLEU"]["adjusted_p_value"] is None
    # --correction none prints sacrebleu's output.
    same = bleuprint_cli([*args, "--correction", "none", "-f", "text"], data).stdout
    assert same == bleuprint_cli([*args, "-f", "text"], data).stdout


def test_wer_cer_confidence_equals_the_api(data: Path) -> None:
    args = ["ref.A", "-i", "Online-A", "-m", "wer", "cer", "-ci", "-cin", "200"]
    printed = json.loads(bleuprint_cli(args, data).stdout)
    refs = [_lines(data / "ref.A")]
    hyps = _lines(data / "Online-A")
    for row, unit in zip(printed, ("char", "word")):  # printed sorted: CER, WER
        metric = WER(unit=unit, references=refs)
        score = metric.corpus_score(hyps, n_bootstrap=200)
        assert row["name"] == score.name
        assert row["confidence"] == f"μ = {score.mean:.1f} ± {score.ci:.1f}"
        assert row["signature"] == metric.get_signature().format()
        assert "bs:200|seed:12345" in row["signature"]


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_wer_cer_paired_equals_the_api(data: Path, test: str) -> None:
    flag, n_flag = ("-pbs", "-pbsn") if test == "bs" else ("-par", "-parn")
    args = ["ref.A", "-i", *SYSTEMS[:3], "-m", "wer", "cer", flag, n_flag, "200"]
    rows = json.loads(bleuprint_cli(args, data).stdout)
    result = _api_result(
        data, list(SYSTEMS[:3]), [WER, lambda references: WER(unit="char", references=references)],
        test=test, n_samples=200,
    )  # fmt: skip
    assert [r["system"] for r in rows] == ["Baseline: Online-A", "Online-B", "OpenNMT"]
    for row, name in zip(rows, result.systems):
        for metric in ("WER", "CER"):
            r = result.result(name, metric)
            assert row[metric] == {
                "score": r.score,
                "p_value": r.p_value,
                "mean": r.mean,
                "ci": r.ci,
            }
    text = bleuprint_cli([*args, "-f", "text"], data).stdout.decode()
    assert "WER" in text
    assert "CER" in text
    assert "Metric signatures" in text


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _main(argv: list[str], stderr: io.StringIO, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr("sys.stderr", stderr)
    monkeypatch.setattr("sys.stdout", io.StringIO())
    return cli.main(argv)


def test_progress_on_a_terminal_only(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(data)
    monkeypatch.setattr(bleuprint.io.progress, "BAR_DELAY", 0.0)  # these jobs take milliseconds
    argv = ["ref.A", "-i", *SYSTEMS, "-par", "-parn", "100", "--paired-all", "-f", "text"]
    terminal = _Terminal()
    assert _main(argv, terminal, monkeypatch) == 0
    progress = terminal.getvalue()
    assert "bleuprint: paired test:" in progress
    assert "/6 [" in progress
    assert progress.endswith("\r")
    # Not with -q or BLEUPRINT_NO_PROGRESS, and never when stderr is not a terminal.
    monkeypatch.setenv("BLEUPRINT_NO_PROGRESS", "1")
    silenced = _Terminal()
    assert _main(argv, silenced, monkeypatch) == 0
    assert silenced.getvalue() == "bleuprint: Found 4 systems.\n"
    monkeypatch.delenv("BLEUPRINT_NO_PROGRESS")
    quiet = _Terminal()
    assert _main([*argv, "-q"], quiet, monkeypatch) == 0
    assert quiet.getvalue() == ""
    no_bar = _Terminal()
    assert _main([*argv, "--no-progress"], no_bar, monkeypatch) == 0
    assert no_bar.getvalue() == "bleuprint: Found 4 systems.\n"
    pipe = io.StringIO()
    assert _main(argv, pipe, monkeypatch) == 0
    assert pipe.getvalue() == "bleuprint: Found 4 systems.\n"
    result = bleuprint_cli(["ref.A", *PAIRED3, "-pbs", "-pbsn", "100"], data)
    assert result.stderr == b"bleuprint: Found 3 systems.\n"


def test_paired_jobs_do_not_change_results(data: Path) -> None:
    args = ["ref.A", "-i", *SYSTEMS, *THREE, "-pbs", "-pbsn", "200", "--paired-all"]
    outputs = {bleuprint_cli([*args, "-j", j], data).stdout for j in ("1", "2", "0")}
    assert len(outputs) == 1


def _help() -> str:
    return cli.build_parser().format_help()


def test_help_no_longer_says_not_supported_for_statistics() -> None:
    text = _help()
    for option in ("--confidence", "--paired-bs", "--paired-ar", "--paired-all", "--correction"):
        assert option in text
    statistics = text.split("Confidence interval", 1)[1].split("Reporting related", 1)[0]
    assert "not supported" not in statistics
