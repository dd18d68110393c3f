"""The command line reads its input a chunk at a time (same output for every chunk size), and
``bleuprint stats --shard K/N`` + ``bleuprint merge`` print exactly what one run prints."""

from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
from pathlib import Path

import pytest

import bleuprint.cli.input as cli_input
from bleuprint.io.shards import Shard, merge_shards, shard_window
from tests.support.cli import run_cli_in_process as _run
from tests.support.data import wmt22_references, wmt22_systems


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """97 segments: two references, a two-column reference file and three systems; the test
    runs in their folder."""
    rng = random.Random(7)
    words = "the a cat dog sat on mat . , big small house run ran quickly ü é 猫".split()

    def sentence() -> str:
        return " ".join(rng.choices(words, k=rng.randint(1, 14)))

    refs = [sentence() for _ in range(97)]
    _write(tmp_path / "ref.a", refs)
    _write(tmp_path / "ref.b", [sentence() for _ in refs])
    _write(tmp_path / "refs.tsv", [f"{sentence()}\t{sentence()}" for _ in refs])
    for k in range(3):
        _write(tmp_path / f"sys{k}", [sentence() for _ in refs])
    monkeypatch.chdir(tmp_path)
    return tmp_path


RUNS = [
    ["ref.a", "-i", "sys0"],
    ["ref.a", "ref.b", "-i", "sys0", "-m", "bleu", "chrf", "ter", "wer", "-f", "text"],
    ["refs.tsv", "-nr", "2", "-i", "sys1", "-m", "chrf", "ter", "-lc"],
    ["ref.a", "-i", "sys0", "sys1", "sys2", "-m", "bleu", "chrf", "-f", "text"],
    ["ref.a", "-i", "sys0", "-ci", "-cin", "200", "-m", "bleu", "chrf", "ter"],
    ["ref.a", "-i", "sys0", "sys1", "sys2", "-pbs", "-pbsn", "100", "-f", "text"],
    ["ref.a", "-i", "sys0", "sys1", "-par", "-parn", "100", "-m", "bleu", "ter"],
    ["ref.a", "ref.b", "-i", "sys0", "sys1", "-pbs", "-pbsn", "50", "--paired-all"],
    ["ref.a", "-i", "sys2", "-sl", "-m", "chrf"],
]


@pytest.mark.parametrize("argv", RUNS, ids=[" ".join(a) for a in RUNS])
def test_every_chunk_size_prints_the_same(
    corpus: Path,
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    whole = _run(argv, capsys)
    assert whole[0] == 0, whole[2]
    for chunk in (1, 2, 7, 96, 97, 1000):
        monkeypatch.setattr(cli_input, "CHUNK_SEGMENTS", chunk)
        assert _run(argv, capsys) == whole


def test_standard_input_in_chunks(
    corpus: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    one = (corpus / "sys0").read_bytes()
    fields = b"".join(
        a + b"\t" + b + b"\n"
        for a, b in zip(one.splitlines(), (corpus / "sys1").read_bytes().splitlines())
    )
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(fields)))
    expected = _run(["ref.a", "-f", "text"], capsys)
    assert expected[0] == 0
    assert "System 2" in expected[1]
    for chunk in (1, 5, 1000):
        monkeypatch.setattr(cli_input, "CHUNK_SEGMENTS", chunk)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(fields)))
        assert _run(["ref.a", "-f", "text"], capsys) == expected
        # A later line with a different field count is the whole-run error, with its number.
        bad = fields + b"only one field\n"
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(bad)))
        code, _, err = _run(["ref.a"], capsys)
        assert code == 17
        assert "line 1 has 2, line 98 has 1" in err


def test_lengths_are_checked_across_chunks(
    corpus: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(corpus / "short", (corpus / "sys0").read_text(encoding="utf-8").splitlines()[:60])
    monkeypatch.setattr(cli_input, "CHUNK_SEGMENTS", 20)
    code, out, err = _run(["ref.a", "-i", "sys0", "short"], capsys)
    assert code == 1
    assert out == ""
    assert "short has 60 lines, ref.a has 97 lines" in err


def test_tokenized_period_warning_counts_the_whole_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # 150 tokenized periods spread over chunks of 40: one warning for all 150, as one call
    # over the whole input gives, never one per chunk (or none, below 100 per chunk).
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "ref", [f"sentence {i} ." for i in range(300)])
    _write(tmp_path / "hyp", [f"sentence {i} ." if i % 2 else f"sentence {i}" for i in range(300)])
    monkeypatch.setattr(cli_input, "CHUNK_SEGMENTS", 80)  # 40 segments per stream
    code, _, err = _run(["ref", "-i", "hyp"], capsys)
    assert code == 0
    assert err.count("tokenized period") == 1
    assert "150 hypotheses" in err


def _peak_rss_kib(args: list[str], cwd: Path) -> int:
    # A fresh interpreter per run: its peak RSS is the run's alone.
    code = (
        "import resource, sys\nfrom bleuprint.cli import main\n"
        f"main({args!r})\n"
        "sys.stderr.write(str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, check=True
    )
    return int(done.stderr.strip().splitlines()[-1])


@pytest.mark.skipif(not hasattr(resource, "getrusage"), reason="POSIX resource limits")
def test_memory_does_not_grow_with_the_input(tmp_path: Path) -> None:
    line = "ein ziemlich gewöhnlicher Satz mit einigen Wörtern und Zeichen , wie üblich"
    for n in (60_000, 360_000):
        _write(tmp_path / f"ref{n}", [f"{line} {i}" for i in range(n)])
        _write(tmp_path / f"hyp{n}", [f"{i} {line}" for i in range(n)])
    small = _peak_rss_kib(["ref60000", "-i", "hyp60000", "-m", "bleu", "chrf"], tmp_path)
    large = _peak_rss_kib(["ref360000", "-i", "hyp360000", "-m", "bleu", "chrf"], tmp_path)
    # Held in memory, 300,000 more segments would add about 90 MB of text.
    assert large - small < 25_000, (small, large)


# --------------------------------------------------------------------------------------------
# stats --shard K/N and merge


def _shards(
    argv: list[str], n: int, directory: Path, capsys: pytest.CaptureFixture[str]
) -> list[str]:
    paths = []
    for k in range(1, n + 1):
        path = str(directory / f"part{k}of{n}.npz")
        code, out, err = _run(["stats", *argv, "--shard", f"{k}/{n}", "-o", path], capsys)
        assert code == 0, err
        assert out == ""
        paths.append(path)
    return paths


MERGED = [
    (["ref.a", "-i", "sys0"], []),
    (["ref.a", "ref.b", "-i", "sys0", "-m", "bleu", "chrf", "ter", "wer", "cer"], ["-f", "text"]),
    (["refs.tsv", "-nr", "2", "-i", "sys1", "-m", "chrf", "ter", "-lc"], ["-ci", "-cin", "300"]),
    (["ref.a", "-i", "sys0", "sys1", "sys2", "-m", "bleu", "chrf"], ["-f", "text", "-w", "4"]),
    (["ref.a", "-i", "sys0", "sys1", "sys2", "-m", "bleu", "ter"], ["-pbs", "-pbsn", "100"]),
    (["ref.a", "-i", "sys0", "sys1", "-m", "bleu", "chrf"], ["-par", "-parn", "100", "-m", "chrf"]),
    (
        ["ref.a", "-i", "sys0", "sys1", "sys2"],
        ["-pbs", "-pbsn", "50", "--paired-all", "-f", "text"],
    ),
]


@pytest.mark.parametrize(("counting", "output"), MERGED, ids=[" ".join(a + b) for a, b in MERGED])
def test_merge_prints_what_one_run_prints(
    corpus: Path, counting: list[str], output: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    one_run = [*counting, *output]
    if "-m" in output:  # merge's -m picks stored metrics; one run counts only those
        at = counting.index("-m")
        one_run = [*counting[:at], *output]
    expected = _run(one_run, capsys)
    assert expected[0] == 0, expected[2]
    rng = random.Random(len(counting))
    # 100 shards of 97 segments: some shards are empty, and merge all the same.
    for n in (1, 2, 3, 7, 100) if counting == MERGED[0][0] else (1, 3, 7):
        paths = _shards(counting, n, corpus, capsys)
        rng.shuffle(paths)  # any order
        assert _run(["merge", *paths, *output], capsys) == expected


def test_shard_windows_cover_the_input_once() -> None:
    for total in range(0, 40):
        for count in range(1, 12):
            windows = [shard_window(k, count, total) for k in range(1, count + 1)]
            assert windows[0][0] == 0
            assert windows[-1][1] == total
            assert all(a[1] == b[0] for a, b in zip(windows, windows[1:]))
            assert max(b - a for a, b in windows) - min(b - a for a, b in windows) <= 1


@pytest.mark.slow
def test_wmt22_shards_merge_to_sacrebleus_scores(
    wmt22: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    from tests.support.data import read_lines

    pair = "en-de"
    systems = [p for pr, _, p in wmt22_systems(wmt22) if pr == pair][:3]
    ref = wmt22_references(wmt22, pair)["A"]
    counting = [str(ref), "-i", *map(str, systems), "-m", "bleu", "chrf", "ter"]
    paths = _shards(counting, 5, tmp_path, capsys)
    code, out, err = _run(["merge", *paths, "-f", "json"], capsys)
    assert code == 0, err
    table = json.loads(out)
    refs = [read_lines(ref)]
    for row, path in zip(table, systems):
        hyps = read_lines(path)
        assert row["system"] == str(path)
        assert row["BLEU"] == f"{sacrebleu.corpus_bleu(hyps, refs).score:.1f}"
        assert row["chrF2"] == f"{sacrebleu.corpus_chrf(hyps, refs).score:.1f}"
        assert row["TER"] == f"{sacrebleu.corpus_ter(hyps, refs).score:.1f}"


def test_shard_files_round_trip_and_merge_in_any_order(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    counting = ["ref.a", "ref.b", "-i", "sys0", "sys1", "-m", "bleu", "chrf", "ter"]
    (whole_path,) = _shards(counting, 1, corpus, capsys)
    whole = Shard.load(whole_path)
    parts = [Shard.load(p) for p in _shards(counting, 4, corpus, capsys)]
    assert [p.start for p in parts] == [0, 24, 48, 72]
    for order in ([0, 1, 2, 3], [3, 1, 0, 2]):
        merged = merge_shards([parts[i] for i in order])
        assert merged.stats == whole.stats
        assert (merged.systems, merged.metrics, merged.total) == (
            whole.systems,
            whole.metrics,
            97,
        )


def _error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code, out, err = _run(argv, capsys)
    assert out == ""
    assert "Traceback" not in err, err
    assert len(err.splitlines()) == 1, err
    return code, err


def test_mismatched_shards_are_refused(
    corpus: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    base = ["ref.a", "-i", "sys0", "sys1"]
    three = _shards(base, 3, corpus, capsys)
    (other_dir := tmp_path / "other").mkdir()
    assert _error(["merge", *three[:2]], capsys) == (1, _msg("shard 3 of 3 is missing"))
    code, err = _error(["merge", three[0], *three], capsys)
    assert code == 1
    assert "shard 1/3 is given twice" in err
    two = _shards(base, 2, other_dir, capsys)
    code, err = _error(["merge", three[0], three[1], two[1]], capsys)
    assert code == 1
    assert "split the input differently" in err
    chrf = _shards(["ref.a", "-i", "sys0", "sys1", "-m", "chrf"], 3, other_dir, capsys)
    code, err = _error(["merge", three[0], three[1], chrf[2]], capsys)
    assert code == 1
    assert "the metrics differ" in err
    lowercased = _shards([*base, "-lc"], 3, other_dir, capsys)
    code, err = _error(["merge", three[0], three[1], lowercased[2]], capsys)
    assert code == 1
    assert "the BLEU settings differ" in err
    systems = _shards(["ref.a", "-i", "sys0", "sys2"], 3, other_dir, capsys)
    code, err = _error(["merge", three[0], three[1], systems[2]], capsys)
    assert code == 1
    assert "the systems differ" in err
    # A shard from another bleuprint version: its signatures (and maybe scores) differ.
    old = Shard.load(three[2])
    old.version = "0.0.1"
    old.save(other_dir / "old.npz")
    code, err = _error(["merge", three[0], three[1], str(other_dir / "old.npz")], capsys)
    assert code == 1
    assert "the bleuprint versions differ" in err
    assert "0.0.1" in err
    # The same command over an input of another length.
    for name in ("ref.a", "sys0", "sys1"):
        lines = (corpus / name).read_text(encoding="utf-8").splitlines()[:90]
        _write(other_dir / name, lines)
    monkeypatch.chdir(other_dir)
    short = _shards(base, 3, other_dir, capsys)
    code, err = _error(["merge", three[0], three[1], short[2]], capsys)
    assert code == 1
    assert "the input lengths differ (97 segments and 90 segments)" in err


def _msg(text: str) -> str:
    return f"bleuprint: {text}: every shard 1..3 is needed for the whole input's score\n"


def test_bad_shard_usage(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for bad in ("0/3", "4/3", "a/b", "3", "1/0"):
        code, _, err = _run(["stats", "ref.a", "-i", "sys0", "--shard", bad, "-o", "x.npz"], capsys)
        assert code == 2
        assert "K/N" in err
    for option in (["-ci"], ["-sl"], ["--preset", "nltk"]):
        code, err = _error(["stats", "ref.a", "-i", "sys0", *option, "-o", "x.npz"], capsys)
        assert code == 2
        assert "bleuprint merge" in err
    code, _, err = _run(["stats", "ref.a", "-i", "sys0"], capsys)
    assert code == 2
    assert "--output/-o" in err
    code, err = _error(["stats", "ref.a", "-i", "sys0", "-o", str(corpus / "no" / "x.npz")], capsys)
    assert code == 1
    assert "cannot write" in err
    assert not os.path.exists("x.npz")
    (one,) = _shards(["ref.a", "-i", "sys0"], 1, corpus, capsys)
    code, err = _error(["merge", one, "-m", "ter"], capsys)
    assert code == 2
    assert "hold no TER statistics" in err
    code, err = _error(["merge", one, "-pbs"], capsys)
    assert code == 1
    assert "Paired tests require multiple input systems" in err
    code, err = _error(["merge", one, "-cin", "0", "-ci"], capsys)
    assert code == 2
    assert "-cin" in err


def test_shard_with_stdin_is_refused(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _error(["stats", "ref.a", "--shard", "1/2", "-o", "x.npz"], capsys)
    assert code == 2
    assert "standard input" in err


def test_foreign_files_are_not_shards(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import pickle

    import numpy as np

    pickled = tmp_path / "pickle.npz"
    pickled.write_bytes(pickle.dumps({"rows": [1, 2]}))
    other = tmp_path / "other.npz"
    np.savez(other, rows=np.zeros((2, 3)))
    stats_file = tmp_path / "stats.npz"
    import bleuprint

    bleuprint.BLEU().stats(["a b"], [["a b"]]).save(stats_file)
    for path, why in (
        (pickled, "not an .npz archive"),
        (other, "no JSON 'meta'"),
        (stats_file, "format is None"),
        (tmp_path / "missing.npz", "cannot read"),
    ):
        code, err = _error(["merge", str(path)], capsys)
        assert code == 1
        assert why in err, err
