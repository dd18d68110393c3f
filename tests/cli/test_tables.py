"""Tables on the command line (``--hyp-column``, ``--ref-column``) print exactly what the same
data as text files prints, and ``--group-by``/``--groups`` print one exact corpus score per
group; every failure is one line with the right exit status."""

from __future__ import annotations

import gzip
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import bleuprint
import bleuprint.cli.input as cli_input
from tests.support.cli import run_cli_in_process as _run
from tests.support.data import read_lines, wmt22_references, wmt22_systems

# Every test writes Parquet and Arrow files, and a .zst table (the optional extras).
pa = pytest.importorskip("pyarrow")
feather = pytest.importorskip("pyarrow.feather")
pq = pytest.importorskip("pyarrow.parquet")
zstandard = pytest.importorskip("zstandard")

ROWS = 57
LANGS = ("en-de", "de-en", "cs-uk")
FORMATS = ("t.jsonl", "t.jsonl.gz", "t.jsonl.zst", "t.parquet", "t.arrow", "t.feather")


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _rows() -> list[dict[str, Any]]:
    rng = random.Random(11)
    words = "the a cat dog sat on mat . , big small house run ran quickly ü é 猫".split()

    def sentence() -> str:
        return " ".join(rng.choices(words, k=rng.randint(1, 12)))

    return [
        {
            "hyp_a": sentence(),
            "hyp_b": sentence(),
            "hyp_c": sentence(),
            "ref_a": sentence(),
            "ref_b": sentence(),
            "refs": [sentence() for _ in range(rng.randint(1, 3))],
            "lang": rng.choice(LANGS),
        }
        for _ in range(ROWS)
    ]


def _write_tables(folder: Path, rows: list[dict[str, Any]]) -> None:
    jsonl = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows).encode()
    (folder / "t.jsonl").write_bytes(jsonl)
    (folder / "t.jsonl.gz").write_bytes(gzip.compress(jsonl))
    (folder / "t.jsonl.zst").write_bytes(zstandard.ZstdCompressor().compress(jsonl))
    table = pa.Table.from_pylist(rows)
    pq.write_table(table, folder / "t.parquet", row_group_size=10)
    with pa.ipc.new_file(folder / "t.arrow", table.schema) as writer:
        for batch in table.to_batches(max_chunksize=13):
            writer.write_batch(batch)
    feather.write_feather(table, str(folder / "t.feather"))


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The same data as text files (named as the columns) and as every table format."""
    rows = _rows()
    for column in ("hyp_a", "hyp_b", "hyp_c", "ref_a", "ref_b", "lang"):
        _write(tmp_path / column, [row[column] for row in rows])
    _write_tables(tmp_path, rows)
    monkeypatch.chdir(tmp_path)
    return rows


def _ok(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code, out, err = _run(argv, capsys)
    assert code == 0, err
    return out


# (text run, the same run's options for a table; "T" is the table file)
SAME_RUNS = [
    (["ref_a", "-i", "hyp_a"], ["-i", "T", "--hyp-column", "hyp_a", "--ref-column", "ref_a"]),
    (
        ["ref_a", "ref_b", "-i", "hyp_a", "-m", "bleu", "chrf", "ter", "wer", "-f", "text"],
        ["-i", "T", "--hyp-column", "hyp_a", "--ref-column", "ref_a", "ref_b",
         "-m", "bleu", "chrf", "ter", "wer", "-f", "text"],
    ),
    (
        ["ref_a", "-i", "hyp_a", "hyp_b", "hyp_c", "-m", "bleu", "chrf", "-f", "text"],
        ["-i", "T", "--hyp-column", "hyp_a", "hyp_b", "hyp_c", "--ref-column", "ref_a",
         "-m", "bleu", "chrf", "-f", "text"],
    ),
    (
        ["ref_a", "-i", "hyp_a", "hyp_b", "-f", "json", "-m", "ter"],
        ["-i", "T", "--hyp-column", "hyp_a", "hyp_b", "--ref-column", "ref_a", "-m", "ter"],
    ),
    (
        ["ref_a", "-i", "hyp_a", "-ci", "-cin", "100", "-m", "bleu", "ter"],
        ["-i", "T", "--hyp-column", "hyp_a", "--ref-column", "ref_a", "-ci", "-cin", "100",
         "-m", "bleu", "ter"],
    ),
    (
        ["ref_a", "ref_b", "-i", "hyp_a", "hyp_b", "hyp_c", "-pbs", "-pbsn", "50", "-f", "text"],
        ["-i", "T", "--hyp-column", "hyp_a", "hyp_b", "hyp_c", "--ref-column", "ref_a", "ref_b",
         "-pbs", "-pbsn", "50", "-f", "text"],
    ),
    (
        ["ref_a", "-i", "hyp_a", "-sl", "-m", "chrf"],
        ["-i", "T", "--hyp-column", "hyp_a", "--ref-column", "ref_a", "-sl", "-m", "chrf"],
    ),
    # References from REF files, the system from the table.
    (
        ["ref_a", "ref_b", "-i", "hyp_b", "-m", "bleu", "chrf"],
        ["ref_a", "ref_b", "-i", "T", "--hyp-column", "hyp_b", "-m", "bleu", "chrf"],
    ),
]  # fmt: skip


@pytest.mark.parametrize("table", FORMATS)
@pytest.mark.parametrize(("text_argv", "table_argv"), SAME_RUNS, ids=lambda a: " ".join(a))
def test_a_table_prints_what_its_text_files_print(
    corpus: list[dict[str, Any]],
    table: str,
    text_argv: list[str],
    table_argv: list[str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    expected = _ok(text_argv, capsys)
    argv = [table if a == "T" else a for a in table_argv]
    assert _ok(argv, capsys) == expected


@pytest.mark.parametrize("chunk", [1, 2, 7, 56, 1000])
def test_every_chunk_size_prints_the_same(
    corpus: list[dict[str, Any]],
    chunk: int,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runs = [
        ["-i", "t.parquet", "--hyp-column", "hyp_a", "hyp_b", "--ref-column", "refs", "-m",
         "bleu", "ter", "-f", "text"],
        ["ref_a", "-i", "t.jsonl", "--hyp-column", "hyp_c", "-m", "chrf"],
        ["-i", "t.arrow", "--hyp-column", "hyp_a", "--ref-column", "refs", "ref_b",
         "--group-by", "lang", "-m", "bleu", "chrf", "ter"],
        ["ref_a", "ref_b", "-i", "hyp_b", "--groups", "lang", "-m", "ter", "wer"],
    ]  # fmt: skip
    whole = [_ok(argv, capsys) for argv in runs]
    monkeypatch.setattr(cli_input, "CHUNK_SEGMENTS", chunk)
    assert [_ok(argv, capsys) for argv in runs] == whole


def test_defaults_are_hyp_and_ref(
    corpus: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    renamed = [{"hyp": row["hyp_a"], "ref": row["ref_a"]} for row in corpus]
    pq.write_table(pa.Table.from_pylist(renamed), tmp_path / "d.parquet")
    expected = _ok(["ref_a", "-i", "hyp_a", "-m", "bleu", "chrf"], capsys)
    assert _ok(["-i", "d.parquet", "--ref-column", "ref", "-m", "bleu", "chrf"], capsys) == (
        expected
    )
    assert _ok(["-i", "d.parquet", "--hyp-column", "hyp", "-m", "bleu", "chrf"], capsys) == (
        expected
    )
    # REF files given: they are the references, and only the hypothesis column is read.
    assert _ok(["ref_a", "-i", "d.parquet", "--hyp-column", "hyp"], capsys) == _ok(
        ["ref_a", "-i", "hyp_a"], capsys
    )


def test_stats_of_a_table_merge_to_the_text_run(
    corpus: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        _run(
            ["stats", "-i", "t.parquet", "--hyp-column", "hyp_a", "hyp_b", "--ref-column",
             "ref_a", "-m", "bleu", "chrf", "ter", "-o", "part.npz"],
            capsys,
        )[0]
        == 0
    )  # fmt: skip
    for options in (["-f", "text"], ["-pbs", "-pbsn", "40", "-f", "text"], ["-m", "ter"]):
        expected = _ok(
            ["ref_a", "-i", "hyp_a", "hyp_b", "-m", "bleu", "chrf", "ter", *options], capsys
        )
        merged = _ok(["merge", "part.npz", *options], capsys)
        assert merged == expected


@pytest.mark.parametrize("table", ["t.jsonl.gz", "t.parquet", "t.feather"])
@pytest.mark.parametrize("name", ["bleu", "chrf", "ter", "wer"])
def test_a_list_column_of_varying_counts_equals_the_api(
    corpus: list[dict[str, Any]], table: str, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    metric = {"bleu": bleuprint.BLEU, "chrf": bleuprint.CHRF, "ter": bleuprint.TER}.get(
        name, bleuprint.WER
    )()
    width = max(len(row["refs"]) for row in corpus)
    assert width > 1
    assert len({len(row["refs"]) for row in corpus}) > 1  # the counts vary
    streams = [
        [row["refs"][k] if k < len(row["refs"]) else None for row in corpus] for k in range(width)
    ]
    hyps = [row["hyp_b"] for row in corpus]
    expected = metric.corpus_score(hyps, streams)
    from_table = metric.score_table(table, hyp_column="hyp_b", ref_columns="refs")
    assert vars(from_table) == vars(expected)  # Score has no __eq__: every field
    out = _ok(
        ["-i", table, "--hyp-column", "hyp_b", "--ref-column", "refs", "-m", name, "-w", "12",
         "-f", "json"],
        capsys,
    )  # fmt: skip
    printed = json.loads(out)
    assert printed["score"] == round(expected.score, 12)
    assert printed["nrefs"] == "var"


def _per_group(rows: list[dict[str, Any]], keys: list[Any]) -> dict[Any, list[int]]:
    groups: dict[Any, list[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(key, []).append(i)
    return groups


@pytest.mark.parametrize("table", ["t.jsonl.zst", "t.parquet", "t.arrow"])
def test_group_rows_equal_each_groups_corpus_score(
    corpus: list[dict[str, Any]], table: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _ok(
        ["-i", table, "--hyp-column", "hyp_c", "--ref-column", "ref_a", "refs", "--group-by",
         "lang", "-m", "bleu", "chrf", "ter", "wer", "-w", "6"],
        capsys,
    )  # fmt: skip
    printed = json.loads(out)
    groups = _per_group(corpus, [row["lang"] for row in corpus])
    assert [row["lang"] for row in printed] == list(groups)  # first-seen order
    metrics: list[Any] = [bleuprint.BLEU(), bleuprint.CHRF(), bleuprint.TER(), bleuprint.WER()]
    for row, (key, members) in zip(printed, groups.items()):
        hyps = [corpus[i]["hyp_c"] for i in members]
        width = max(len(corpus[i]["refs"]) for i in members)
        streams = [[corpus[i]["ref_a"] for i in members]] + [
            [corpus[i]["refs"][k] if k < len(corpus[i]["refs"]) else None for i in members]
            for k in range(width)
        ]
        expected = {}
        for metric in metrics:
            score = metric.corpus_score(hyps, streams)
            expected[score.name] = score.format(6, True)
        assert row == {"lang": key, **expected}


def test_group_by_text_table_and_signatures(
    corpus: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    out = _ok(
        ["-i", "t.parquet", "--hyp-column", "hyp_a", "--ref-column", "ref_a", "--group-by",
         "lang", "-m", "chrf", "bleu", "-f", "text", "-sh"],
        capsys,
    )  # fmt: skip
    lines = out.splitlines()
    assert [cell.strip() for cell in lines[1].split("│")[1:-1]] == ["lang", "BLEU", "chrF2"]
    seen = list(dict.fromkeys(row["lang"] for row in corpus))
    body = [line.split("│")[1].strip() for line in lines if line.startswith("│")][1:]
    assert body == seen
    assert lines[-2].startswith(" - BLEU       #:1|c:mixed|")
    assert lines[-1].startswith(" - chrF2      #:1|c:mixed|")
    latex = _ok(
        ["-i", "t.parquet", "--hyp-column", "hyp_a", "--ref-column", "ref_a", "--group-by",
         "lang", "-f", "latex"],
        capsys,
    )  # fmt: skip
    assert "\\toprule" in latex
    assert "lang" in latex


def test_groups_file_for_text_input_equals_group_by(
    corpus: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    table = json.loads(
        _ok(["ref_a", "ref_b", "-i", "t.jsonl", "--hyp-column", "hyp_b", "--group-by", "lang",
             "-m", "bleu", "ter"], capsys)
    )  # fmt: skip
    text = json.loads(
        _ok(["ref_a", "ref_b", "-i", "hyp_b", "--groups", "lang", "-m", "bleu", "ter"], capsys)
    )
    assert text == [{"group": row.pop("lang"), **row} for row in table]


def test_group_keys_of_other_types(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [
        {"hyp": "a b c", "ref": "a b c", "year": 2019},
        {"hyp": "x y", "ref": "x y z", "year": None},
        {"hyp": "p q r s", "ref": "p q r", "year": 2019},
    ]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "y.parquet")
    code, out, err = _run(["-i", str(tmp_path / "y.parquet"), "--group-by", "year"], capsys)
    assert code == 0, err
    assert [row["year"] for row in json.loads(out)] == [2019, None]
    bleu = bleuprint.BLEU()
    expected = bleu.corpus_score(["a b c", "p q r s"], [["a b c", "p q r"]])
    assert json.loads(out)[0]["BLEU"] == expected.format(1, True)


def test_group_by_on_wmt22_equals_sacrebleu(
    wmt22: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    refs = wmt22_references(wmt22, "en-de")
    reference = read_lines(refs["A"])
    systems = [(name, path) for pair, name, path in wmt22_systems(wmt22) if pair == "en-de"][:3]
    columns: dict[str, list[str]] = {"hyp": [], "ref": [], "system": []}
    for name, path in systems:
        hyps = read_lines(path)
        columns["hyp"] += hyps
        columns["ref"] += reference
        columns["system"] += [name] * len(hyps)
    pq.write_table(pa.table(columns), tmp_path / "wmt.parquet")
    code, out, err = _run(
        ["-i", str(tmp_path / "wmt.parquet"), "--group-by", "system", "-m", "bleu", "chrf",
         "-w", "4"],
        capsys,
    )  # fmt: skip
    assert code == 0, err
    printed = json.loads(out)
    assert [row["system"] for row in printed] == [name for name, _ in systems]
    for row, (_, path) in zip(printed, systems):
        hyps = read_lines(path)
        assert row["BLEU"] == f"{sacrebleu.corpus_bleu(hyps, [reference]).score:.4f}"
        assert row["chrF2"] == f"{sacrebleu.corpus_chrf(hyps, [reference]).score:.4f}"


# --- errors ------------------------------------------------------------------------------------


def _fails(argv: list[str], capsys: pytest.CaptureFixture[str], code: int) -> str:
    status, out, err = _run(argv, capsys)
    assert status == code, err
    assert out == ""
    assert err.count("\n") == 1, err  # one line, never a traceback
    assert err.startswith("bleuprint: ")
    return err


@pytest.mark.parametrize("table", ["t.jsonl", "t.parquet", "t.arrow"])
@pytest.mark.parametrize(
    "options",
    [["--hyp-column", "hyp"], ["--hyp-column", "hyp_a", "nope"], ["--ref-column", "ref_a", "nope"],
     ["--hyp-column", "hyp_a", "--ref-column", "ref_a", "--group-by", "nope"]],
    ids=lambda o: " ".join(o),
)  # fmt: skip
def test_a_missing_column_lists_the_tables_columns(
    corpus: list[dict[str, Any]], table: str, options: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    err = _fails(["-i", table, *options], capsys, 1)
    assert "has no column" in err
    assert "its columns are 'hyp_a', 'hyp_b', 'hyp_c', 'ref_a', 'ref_b', 'refs', 'lang'" in err
    assert "--hyp-column, --ref-column (and --group-by)" in err


def test_cells_that_are_not_strings_name_the_row_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    lines: list[dict[str, Any]] = [{"hyp": "a b", "ref": "a b", "h2": "x"}] * 4
    lines += [{"hyp": "a b", "ref": "a b", "h2": 42}]
    Path("bad.jsonl").write_text("".join(json.dumps(row) + "\n" for row in lines))
    # The second system's cells are checked and named by its own column.
    err = _fails(["-i", "bad.jsonl", "--hyp-column", "hyp", "h2", "--ref-column", "ref"], capsys, 1)
    assert "bad.jsonl line 5: column 'h2' holds 42 of type int, not a string" in err
    Path("null.jsonl").write_text('{"hyp": "a", "ref": "a"}\n{"hyp": null, "ref": "a"}\n')
    err = _fails(["-i", "null.jsonl", "--ref-column", "ref"], capsys, 1)
    assert "null.jsonl line 2: column 'hyp' is null" in err
    numbers = pa.table({"hyp": ["a", "b", "c"], "ref": ["a", "b", "c"], "num": [1, 2, 3]})
    pq.write_table(numbers, "n.parquet")
    err = _fails(["-i", "n.parquet", "--ref-column", "ref", "num"], capsys, 1)
    assert "n.parquet, row 0 (from 0): reference column 'num' holds 1 of type int" in err
    pq.write_table(pa.table({"hyp": ["a", "b"], "ref": ["a", None]}), "gap.parquet")
    err = _fails(["-i", "gap.parquet", "--ref-column", "ref"], capsys, 1)
    assert "gap.parquet, row 1 (from 0) has no reference" in err
    Path("list.jsonl").write_text('{"hyp": "a", "ref": "a", "g": [1]}\n')
    err = _fails(["-i", "list.jsonl", "--group-by", "g"], capsys, 1)
    assert "list.jsonl line 1: group column 'g' holds [1] of type list" in err
    Path("broken.jsonl").write_text('{"hyp": "a", "ref": "a"}\n{"hyp": \n')
    err = _fails(["-i", "broken.jsonl", "--ref-column", "ref"], capsys, 1)
    assert "broken.jsonl line 2: not valid JSON" in err


def test_missing_packages_name_the_extra(
    corpus: list[dict[str, Any]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    err = _fails(["-i", "t.parquet", "--hyp-column", "hyp_a", "--ref-column", "ref_a"], capsys, 1)
    assert "needs the 'pyarrow' package: pip install 'bleuprint[parquet]'" in err
    err = _fails(["-i", "t.feather", "--hyp-column", "hyp_a", "--ref-column", "ref_a"], capsys, 1)
    assert "bleuprint[parquet]" in err
    monkeypatch.setitem(sys.modules, "zstandard", None)
    monkeypatch.setitem(sys.modules, "compression.zstd", None)
    err = _fails(["-i", "t.jsonl.zst", "--hyp-column", "hyp_a", "--ref-column", "ref_a"], capsys, 1)
    assert "'zstandard' package" in err
    assert "bleuprint[zstd]" in err


def test_unreadable_tables(
    corpus: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    err = _fails(["-i", "absent.parquet", "--hyp-column", "hyp_a"], capsys, 1)
    assert err.startswith("bleuprint: cannot read absent.parquet")
    Path("junk.parquet").write_bytes(b"not parquet at all")
    err = _fails(["-i", "junk.parquet", "--ref-column", "ref_a"], capsys, 1)
    assert err.startswith("bleuprint: cannot read junk.parquet")
    err = _fails(["-i", "absent.jsonl", "--ref-column", "ref_a"], capsys, 1)
    assert err.startswith("bleuprint: cannot read absent.jsonl")
    err = _fails(["-i", "hyp_a", "--ref-column", "ref_a"], capsys, 1)
    assert "cannot tell a table format" in err
    assert "read without --hyp-column, --ref-column and --group-by" in err
    Path("empty.jsonl").write_text("")
    err = _fails(["-i", "empty.jsonl", "--ref-column", "ref"], capsys, 1)
    assert "the system output empty.jsonl (column 'hyp') is empty" in err


def test_reference_files_of_another_length(
    corpus: list[dict[str, Any]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _write(Path("short"), [row["ref_a"] for row in corpus[:-3]])
    _write(Path("long"), [row["ref_a"] for row in corpus] + ["more"])
    for chunk in (65536, 5):
        monkeypatch.setattr(cli_input, "CHUNK_SEGMENTS", chunk)
        err = _fails(["short", "-i", "t.parquet", "--hyp-column", "hyp_a"], capsys, 1)
        assert err == (
            "bleuprint: System and reference streams have different lengths: t.parquet "
            f"(column 'hyp_a') has {ROWS} lines, short has {ROWS - 3} lines\n"
        )
        err = _fails(["ref_a", "long", "-i", "t.jsonl", "--hyp-column", "hyp_a"], capsys, 1)
        assert f"has {ROWS} lines, long has {ROWS + 1} lines" in err
    err = _fails(["ref_a", "-i", "hyp_a", "--groups", "short"], capsys, 1)
    assert f"--groups needs one key per segment: hyp_a has {ROWS} lines, short has" in err


USAGE_ERRORS = [
    (["ref_a", "--hyp-column", "hyp_a"], "give it with -i"),
    (["-i", "t.jsonl", "t.parquet", "--hyp-column", "hyp_a"], "-i names one table"),
    (["ref_a", "-i", "t.jsonl", "--ref-column", "ref_a"], "not both"),
    (["-i", "t.jsonl", "--ref-column", "ref_a", "-nr", "2"], "-nr/--num-refs"),
    (["-i", "t.jsonl", "--hyp-column", "hyp_a", "hyp_a"], "more than once"),
    (["-i", "t.jsonl", "--group-by", "lang", "--groups", "lang"], "use --group-by COL"),
    (["-i", "t.jsonl", "--hyp-column", "hyp_a", "hyp_b", "--group-by", "lang"], "one system"),
    (["ref_a", "-i", "hyp_a", "hyp_b", "--groups", "lang"], "one system"),
    (["-i", "t.jsonl", "--group-by", "lang", "-sl"], "-sl/--sentence-level"),
    (["-i", "t.jsonl", "--group-by", "lang", "-ci"], "-ci/--confidence"),
    (["ref_a", "-i", "hyp_a", "--groups", "lang", "-pbs"], "-pbs/--paired-bs"),
    (["ref_a", "-i", "t.jsonl", "--hyp-column", "hyp_a", "--group-by", "lang", "--preset",
      "moses"], "--preset"),
    (["-i", "t.jsonl", "--ref-column", "ref_a", "--preset", "moses"], "REF files"),
    (["stats", "-i", "t.jsonl", "--group-by", "lang", "-o", "x.npz"], "one score per group"),
    (["stats", "-i", "t.parquet", "--ref-column", "ref_a", "--shard", "1/2", "-o", "x.npz"],
     "cannot be skipped"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "message"), USAGE_ERRORS, ids=lambda a: str(a))
def test_usage_errors(
    corpus: list[dict[str, Any]], argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert message in _fails(argv, capsys, 2)


def test_groups_of_several_systems_on_standard_input(
    corpus: list[dict[str, Any]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io

    text = "".join(f"{row['hyp_a']}\t{row['hyp_b']}\n" for row in corpus).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    assert "one system" in _fails(["ref_a", "--groups", "lang"], capsys, 2)


def test_the_command_in_a_subprocess(corpus: list[dict[str, Any]], tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bleuprint", "-i", "t.parquet", "--hyp-column", "hyp_a",
         "--ref-column", "ref_a", "ref_b", "--group-by", "lang", "-m", "bleu", "chrf",
         "-f", "text"],
        capture_output=True, cwd=tmp_path, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    table = done.stdout.decode()
    assert all(f" {lang} │" in table for lang in LANGS)
    failed = subprocess.run(
        [sys.executable, "-m", "bleuprint", "-i", "t.parquet", "--hyp-column", "missing"],
        capture_output=True, cwd=tmp_path, check=False, timeout=120,
    )  # fmt: skip
    assert failed.returncode == 1
    assert b"Traceback" not in failed.stderr
    assert failed.stderr.startswith(b"bleuprint: t.parquet has no column 'missing'")
