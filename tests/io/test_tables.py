"""Tables: ``stats_table``/``score_table``/``grouped_scores`` over every source kind (JSONL,
compressed JSONL, Parquet, Arrow IPC, pyarrow objects, pandas, polars, datasets, dicts of
columns, iterables of dicts), equal (``==``) to the in-memory ``stats``/``corpus_score`` for
every metric, chunk size and reference layout; grouped scores equal each group's own corpus
score; bounded reading; errors that name the row and column."""

from __future__ import annotations

import bz2
import gzip
import json
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Optional

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

import bleuprint
from bleuprint.errors import InputDecodeError, InputTypeError, InvalidInputError, InvalidOptionError
from bleuprint.io.files import read_lines
from bleuprint.io.tables import read_table
from tests.support.data import wmt22_references, wmt22_systems
from tests.support.laziness import ReadCounter

METRICS: dict[str, Callable[[], Any]] = {
    "BLEU": lambda: bleuprint.BLEU(),
    "BLEU-lc": lambda: bleuprint.BLEU(tokenize="char", lowercase=True),
    "chrF": lambda: bleuprint.CHRF(),
    "chrF++": lambda: bleuprint.CHRF(word_order=2),
    "TER": lambda: bleuprint.TER(),
    "WER": lambda: bleuprint.WER(),
}

#: Reference layouts: the ref_columns argument.
LAYOUTS: dict[str, Any] = {
    "one column": "ref",
    "two columns, gaps": ["ref", "ref2"],
    "list column": "refs",
    "column and list column": ["ref2", "refs"],
}

Row = dict[str, Any]


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def in_memory(rows: list[Row], ref_columns: Any) -> tuple[list[str], list[list[Optional[str]]]]:
    """The hypotheses and reference streams of ``rows`` as lists: a list column becomes as many
    streams as its longest list, padded with None (written independently of bleuprint)."""
    names = [ref_columns] if isinstance(ref_columns, str) else list(ref_columns)
    streams: list[list[Optional[str]]] = []
    for name in names:
        cells = [row[name] for row in rows]
        if any(isinstance(c, list) for c in cells):
            width = max(len(c) for c in cells if isinstance(c, list))
            for j in range(width):
                streams.append([c[j] if c is not None and j < len(c) else None for c in cells])
        else:
            streams.append(cells)
    return [row["hyp"] for row in rows], streams


def write_jsonl(rows: list[Row], path: Path) -> Path:
    text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    data = text.encode("utf-8")
    if path.name.endswith(".gz"):
        data = gzip.compress(data)
    elif path.name.endswith(".bz2"):
        data = bz2.compress(data)
    elif path.name.endswith(".zst"):
        zstandard = pytest.importorskip("zstandard")
        data = zstandard.ZstdCompressor().compress(data)
    path.write_bytes(data)
    return path


def arrow_table(rows: list[Row]) -> Any:
    pa = pytest.importorskip("pyarrow")
    schema = pa.schema(
        [
            ("hyp", pa.string()),
            ("ref", pa.large_string()),
            ("ref2", pa.string()),
            ("refs", pa.list_(pa.string())),
            ("lang", pa.string()),
            ("system", pa.int64()),
        ]
    )
    return pa.Table.from_pylist(rows, schema=schema)


def make_source(kind: str, rows: list[Row], folder: Path) -> Any:
    """``rows`` as a source of ``kind``."""
    if kind == "dicts":
        return list(rows)
    if kind == "generator":
        return (dict(row) for row in rows)
    if kind == "columns":
        return {name: [row[name] for row in rows] for name in rows[0]}
    if kind.startswith("jsonl"):
        suffix = kind[len("jsonl") :]
        return write_jsonl(rows, folder / f"table.jsonl{suffix}")
    if kind == "parquet":
        pq = pytest.importorskip("pyarrow.parquet")
        pq.write_table(arrow_table(rows), folder / "t.parquet", row_group_size=5)
        return folder / "t.parquet"
    if kind in ("arrow", "arrows"):
        pa = pytest.importorskip("pyarrow")
        table = arrow_table(rows)
        with pa.OSFile(str(folder / f"t.{kind}"), "wb") as f:
            new = pa.ipc.new_file if kind == "arrow" else pa.ipc.new_stream
            with new(f, table.schema) as writer:
                writer.write_table(table, max_chunksize=3)
        return str(folder / f"t.{kind}")
    if kind == "pa.Table":
        return arrow_table(rows)
    if kind == "pa.RecordBatch":
        return arrow_table(rows).combine_chunks().to_batches()[0]
    if kind == "pa.RecordBatchReader":
        pa = pytest.importorskip("pyarrow")
        table = arrow_table(rows)
        return pa.RecordBatchReader.from_batches(table.schema, table.to_batches(max_chunksize=4))
    if kind == "pandas":
        pd = pytest.importorskip("pandas")
        return pd.DataFrame(rows)
    if kind == "polars":
        pl = pytest.importorskip("polars")
        return pl.DataFrame(rows, schema_overrides={"refs": pl.List(pl.String)})
    if kind == "datasets":
        ds = pytest.importorskip("datasets")
        return ds.Dataset(arrow_table(rows))
    raise AssertionError(kind)


SOURCES = [
    "dicts",
    "generator",
    "columns",
    "jsonl",
    "jsonl.gz",
    "jsonl.bz2",
    "jsonl.zst",
    "parquet",
    "arrow",
    "arrows",
    "pa.Table",
    "pa.RecordBatch",
    "pa.RecordBatchReader",
    "pandas",
    "polars",
    "datasets",
]

text = st.text(st.sampled_from("ab c.,é\tX"), max_size=10)
row_strategy = st.fixed_dictionaries(
    {
        "hyp": text,
        "ref": text,
        "ref2": st.one_of(st.none(), text),
        "refs": st.lists(text, min_size=1, max_size=3),
        "lang": st.sampled_from(["de-en", "en-de", "cs-uk"]),
        "system": st.integers(0, 2),
    }
)


def assert_same_score(got: Any, expected: Any) -> None:
    assert got.score == expected.score
    assert str(got) == str(expected)


@settings(max_examples=150, deadline=None)
@given(
    metric_name=st.sampled_from(sorted(METRICS)),
    kind=st.sampled_from(SOURCES),
    layout=st.sampled_from(sorted(LAYOUTS)),
    rows=st.lists(row_strategy, min_size=1, max_size=25),
    chunk_size=st.integers(1, 9),
)
def test_every_source_equals_the_in_memory_path(
    metric_name: str, kind: str, layout: str, rows: list[Row], chunk_size: int
) -> None:
    ref_columns = LAYOUTS[layout]
    hyps, refs = in_memory(rows, ref_columns)
    metric = METRICS[metric_name]()
    whole = metric.stats(hyps, refs)
    with tempfile.TemporaryDirectory() as folder:
        source = make_source(kind, rows, Path(folder))
        got = metric.stats_table(source, ref_columns=ref_columns, chunk_size=chunk_size)
        assert got == whole  # rows, nrefs and config
        source = make_source(kind, rows, Path(folder))
        score = metric.score_table(source, ref_columns=ref_columns, chunk_size=chunk_size)
    assert_same_score(score, metric.corpus_score(hyps, refs))


@pytest.mark.parametrize("kind", SOURCES)
def test_every_source_every_layout(kind: str, tmp_path: Path) -> None:
    """Each source kind once with every layout, a list column of varying counts included."""
    rows = [
        {
            "hyp": f"the cat {i} sat on the mat",
            "ref": f"the cat {i % 3} sat on a mat",
            "ref2": None if i % 4 else f"a cat {i} sat",
            "refs": [f"the cat {i}", "a mat"][: 1 + i % 2],
            "lang": ["de-en", "en-de", "cs-uk"][i % 3],
            "system": i % 2,
        }
        for i in range(23)
    ]
    for layout, ref_columns in LAYOUTS.items():
        hyps, refs = in_memory(rows, ref_columns)
        for metric in (bleuprint.BLEU(), bleuprint.TER()):
            source = make_source(kind, rows, tmp_path)
            got = metric.stats_table(source, ref_columns=ref_columns, chunk_size=4)
            assert got == metric.stats(hyps, refs), layout


@settings(max_examples=100, deadline=None)
@given(
    metric_name=st.sampled_from(sorted(METRICS)),
    kind=st.sampled_from(["dicts", "jsonl.gz", "parquet", "pa.Table", "pandas", "polars"]),
    layout=st.sampled_from(sorted(LAYOUTS)),
    rows=st.lists(row_strategy, min_size=1, max_size=25),
    chunk_size=st.integers(1, 9),
    two_columns=st.booleans(),
)
def test_grouped_scores_equal_each_groups_corpus_score(
    metric_name: str, kind: str, layout: str, rows: list[Row], chunk_size: int, two_columns: bool
) -> None:
    ref_columns = LAYOUTS[layout]
    by: Any = ["lang", "system"] if two_columns else "lang"
    metric = METRICS[metric_name]()
    with tempfile.TemporaryDirectory() as folder:
        source = make_source(kind, rows, Path(folder))
        got = metric.grouped_scores(source, by=by, ref_columns=ref_columns, chunk_size=chunk_size)
        source = make_source(kind, rows, Path(folder))
        got_stats = metric.grouped_stats(
            source, by=by, ref_columns=ref_columns, chunk_size=chunk_size
        )

    def key(row: Row) -> Any:
        return (row["lang"], row["system"]) if two_columns else row["lang"]

    expected_keys = list(dict.fromkeys(key(row) for row in rows))  # first-seen order
    assert list(got) == expected_keys
    assert list(got_stats) == expected_keys
    for k in expected_keys:
        members = [row for row in rows if key(row) == k]
        hyps, refs = in_memory(members, ref_columns)
        # Each group on its own: its list column is only as wide as its own longest list.
        assert_same_score(got[k], metric.corpus_score(hyps, refs))
        assert got_stats[k] == metric.stats(hyps, refs)


@settings(max_examples=60, deadline=None)
@given(
    metric_name=st.sampled_from(sorted(METRICS)),
    rows=st.lists(row_strategy, min_size=1, max_size=25),
    chunk_size=st.integers(1, 9),
)
def test_grouped_scores_of_lists_with_groups(
    metric_name: str, rows: list[Row], chunk_size: int
) -> None:
    """In-memory lists (or streams) with one key per hypothesis: the same groups."""
    metric = METRICS[metric_name]()
    hyps, refs = in_memory(rows, ["ref", "ref2"])
    langs = [row["lang"] for row in rows]
    got = metric.grouped_scores(hyps, refs, groups=langs, chunk_size=chunk_size)
    assert list(got) == list(dict.fromkeys(langs))
    for lang, score in got.items():
        members = [i for i, g in enumerate(langs) if g == lang]
        expected = metric.corpus_score(
            [hyps[i] for i in members], [[s[i] for i in members] for s in refs]
        )
        assert_same_score(score, expected)


def test_grouped_signatures_count_each_groups_references() -> None:
    """A group whose rows all have two references says nrefs=2 even when the others vary."""
    rows = [
        {"hyp": "a b", "ref": "a b", "ref2": "a c", "g": "two"},
        {"hyp": "a b", "ref": "a b", "ref2": None, "g": "varies"},
        {"hyp": "c d", "ref": "c d", "ref2": "c e", "g": "varies"},
        {"hyp": "c d", "ref": "c d", "ref2": "c d", "g": "two"},
    ]
    for metric in (bleuprint.BLEU(), bleuprint.CHRF(), bleuprint.TER()):
        stats = metric.grouped_stats(rows, by="g", ref_columns=["ref", "ref2"], chunk_size=4)
        assert {k: s.nrefs for k, s in stats.items()} == {"two": 2, "varies": -1}


def test_grouped_stats_keep_sum_holds_one_row_per_group() -> None:
    rows = [{"hyp": f"x {i}", "ref": f"x {i % 3}", "g": i % 3} for i in range(20)]
    bleu = bleuprint.BLEU()
    summed = bleu.grouped_stats(rows, by="g", keep="sum", chunk_size=3)
    kept = bleu.grouped_stats(rows, by="g", chunk_size=3)
    assert list(summed) == [0, 1, 2]
    for g in summed:
        assert summed[g].rows.shape == (1, kept[g].rows.shape[1])
        assert (summed[g].rows[0] == kept[g].sum()).all()
    with pytest.raises(InvalidOptionError, match="keep='sum' needs"):
        bleuprint.TER().grouped_stats(rows, by="g", keep="sum")


def test_empty_tables() -> None:
    bleu = bleuprint.BLEU()
    assert len(bleu.stats_table([])) == 0
    assert len(bleu.stats_table({"hyp": [], "ref": []})) == 0
    assert bleu.grouped_scores([], by="g") == {}


def test_a_shuffled_dataset_is_read_in_its_own_order() -> None:
    """A datasets.Dataset after select/shuffle keeps an index mapping over its Arrow table;
    the rows come in the dataset's order, not the table's."""
    datasets = pytest.importorskip("datasets")
    rows = [{"hyp": f"word {i} and more", "ref": f"word {i * 7 % 5} and more"} for i in range(30)]
    ds = datasets.Dataset.from_list(rows).shuffle(seed=3).select(range(25))
    order = [dict(r) for r in ds]
    chrf = bleuprint.CHRF()
    expected = chrf.stats([r["hyp"] for r in order], [[r["ref"] for r in order]])
    assert chrf.stats_table(ds, chunk_size=4) == expected


def test_pandas_missing_values_are_missing_references() -> None:
    """NaN, None and pd.NA in a pandas column are null cells, whatever the dtype."""
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(
        {
            "hyp": ["a b c", "d e f", "g h"],
            "ref": ["a b c", "d e g", "g h"],
            "ref2": pd.array([None, "d e f", pd.NA], dtype="string"),
            "ref3": [float("nan"), "x", None],
        }
    )
    bleu = bleuprint.BLEU()
    expected = bleu.stats(
        ["a b c", "d e f", "g h"],
        [["a b c", "d e g", "g h"], [None, "d e f", None], [None, "x", None]],
    )
    assert bleu.stats_table(frame, ref_columns=["ref", "ref2", "ref3"]) == expected


# --- bounded reading -------------------------------------------------------------------------


def test_rows_are_read_a_chunk_at_a_time() -> None:
    """Each chunk is counted before the next rows are taken from an iterable of dicts."""
    taken = ReadCounter()

    def rows() -> Iterator[Row]:
        return taken.counted(
            {"hyp": f"segment {k}", "ref": f"segment {k} here", "g": k % 2} for k in range(1000)
        )

    bleu = bleuprint.BLEU()
    taken.watch(bleu)
    bleu.stats_table(rows(), chunk_size=100)
    assert taken.seen == [100 * (k + 1) for k in range(10)]
    taken.reset()
    bleu.grouped_scores(rows(), by="g", chunk_size=250)
    assert taken.seen == [250 * (k + 1) for k in range(4)]


def test_arrow_batches_are_read_as_needed() -> None:
    """A RecordBatchReader over a generator: no batch is pulled before the previous chunks
    are counted (batches larger than a chunk are sliced, smaller ones joined)."""
    pa = pytest.importorskip("pyarrow")
    schema = pa.schema([("hyp", pa.string()), ("ref", pa.string())])
    pulled = ReadCounter()

    def batch(b: int) -> Any:
        lines = [f"segment {b} {k}" for k in range(50)]
        return pa.record_batch([lines, lines], schema=schema)

    batches = pulled.counted(batch(b) for b in range(6))
    chrf = bleuprint.CHRF()
    pulled.watch(chrf)
    stats = chrf.stats_table(pa.RecordBatchReader.from_batches(schema, batches), chunk_size=20)
    assert len(stats) == 300
    # Chunk k (20 rows) needs batch ceil(20 (k + 1) / 50).
    assert pulled.seen == [-(-20 * (k + 1) // 50) for k in range(15)]


def test_parquet_is_read_by_batches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Parquet file is read batch by batch through iter_batches, never whole."""
    pq = pytest.importorskip("pyarrow.parquet")
    pa = pytest.importorskip("pyarrow")
    lines = [f"segment {k}" for k in range(100)]
    pq.write_table(
        pa.table({"hyp": lines, "ref": lines}), tmp_path / "t.parquet", row_group_size=10
    )
    sizes: list[int] = []
    original = pq.ParquetFile.iter_batches

    def recording(self: Any, *args: Any, **kwargs: Any) -> Iterator[Any]:
        for batch in original(self, *args, **kwargs):
            sizes.append(batch.num_rows)
            yield batch

    monkeypatch.setattr(pq.ParquetFile, "iter_batches", recording)
    monkeypatch.setattr(pq, "read_table", None)  # a whole-file read would fail
    assert len(bleuprint.BLEU().stats_table(tmp_path / "t.parquet", chunk_size=7)) == 100
    assert sum(sizes) == 100
    assert max(sizes) <= 10


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind", ["dicts", "columns", "jsonl", "parquet", "pandas", "polars", "datasets"]
)
def test_a_missing_column_names_the_columns_there_are(kind: str, tmp_path: Path) -> None:
    rows = [{"hyp": "a", "ref": "a", "ref2": None, "refs": ["a"], "lang": "x", "system": 0}]
    source = make_source(kind, rows, tmp_path)
    with pytest.raises(
        InvalidInputError, match="no column 'reference'; its columns are 'hyp', 'ref'"
    ):
        bleuprint.BLEU().score_table(source, ref_columns="reference")
    source = make_source(kind, rows, tmp_path)
    with pytest.raises(InvalidInputError, match="no column 'domain'"):
        bleuprint.BLEU().grouped_scores(source, by="domain")


def test_cells_that_are_not_strings_name_row_and_column(tmp_path: Path) -> None:
    rows: list[Row] = [{"hyp": f"h {i}", "ref": f"r {i}", "refs": ["a"]} for i in range(20)]
    bleu = bleuprint.BLEU()
    bad = [dict(r) for r in rows]
    bad[13]["hyp"] = 42
    with pytest.raises(
        InputTypeError, match=r"row 13 \(from 0\): column 'hyp' holds 42 of type int, not a string"
    ):
        bleu.score_table(bad, chunk_size=5)
    with pytest.raises(
        InputTypeError, match=r"table.jsonl line 14: column 'hyp' holds 42 of type int"
    ):
        bleu.score_table(write_jsonl(bad, tmp_path / "table.jsonl"), chunk_size=5)
    bad = [dict(r) for r in rows]
    bad[7]["hyp"] = None
    with pytest.raises(InputTypeError, match="row 7 .*column 'hyp' is null; every row needs"):
        bleu.score_table(bad, chunk_size=5)
    bad = [dict(r) for r in rows]
    bad[11]["ref"] = 3.5
    with pytest.raises(
        InputTypeError, match="row 11 .*reference column 'ref' holds 3.5 of type float"
    ):
        bleu.score_table(bad, chunk_size=5)
    bad = [dict(r) for r in rows]
    bad[6]["refs"] = ["fine", {"text": "x"}]
    with pytest.raises(
        InputTypeError, match="row 6 .*reference column 'refs' item 1 holds .* of type dict"
    ):
        bleu.score_table(bad, ref_columns="refs", chunk_size=4)
    bad = [dict(r) for r in rows]
    bad[9]["refs"] = []
    with pytest.raises(
        InvalidInputError, match="row 9 .*has no reference: 'refs' is null or empty"
    ):
        bleu.score_table(bad, ref_columns="refs", chunk_size=4)
    bad = [dict(r) for r in rows]
    bad[12]["g"] = ["not", "hashable"]
    for r in bad:
        r.setdefault("g", "x")
    with pytest.raises(InputTypeError, match="row 12 .*group column 'g' holds .* of type list"):
        bleu.grouped_scores(bad, by="g", chunk_size=5)


def test_arrow_columns_of_other_types_name_row_and_column() -> None:
    pa = pytest.importorskip("pyarrow")
    table = pa.table({"hyp": ["a", "b", "c"], "ref": [1, 2, 3]})
    with pytest.raises(InputTypeError, match="row 0 .*reference column 'ref' holds 1 of type int"):
        bleuprint.CHRF().score_table(table)
    table = pa.table({"hyp": ["a", None, "c"], "ref": ["a", "b", "c"]})
    with pytest.raises(InputTypeError, match="row 1 .*column 'hyp' is null"):
        bleuprint.CHRF().score_table(table, chunk_size=2)


def test_bad_sources_and_options(tmp_path: Path) -> None:
    bleu = bleuprint.BLEU()
    (tmp_path / "t.csv").write_text("hyp,ref\n")
    with pytest.raises(InvalidInputError, match="cannot tell a table format.*stats_stream"):
        bleu.score_table(tmp_path / "t.csv")
    with pytest.raises(InputTypeError, match="a table must be a file path"):
        bleu.score_table(42)
    with pytest.raises(InputTypeError, match="row 0 is a str; an iterable table must give"):
        bleu.score_table(["a line"])
    (tmp_path / "t.jsonl").write_text('{"hyp": "a", "ref": "a"}\n\n{"hyp": "b", "ref": \n')
    with pytest.raises(InputDecodeError, match="t.jsonl line 3: not valid JSON"):
        bleu.score_table(tmp_path / "t.jsonl")
    (tmp_path / "t.jsonl").write_text('{"hyp": "a", "ref": "a"}\n["b", "b"]\n')
    with pytest.raises(InvalidInputError, match="t.jsonl line 2: a JSON list"):
        bleu.score_table(tmp_path / "t.jsonl")
    with pytest.raises(FileNotFoundError):
        bleu.score_table(tmp_path / "absent.jsonl")
    with pytest.raises(InvalidOptionError, match="ref_columns is empty"):
        bleu.score_table([], ref_columns=[])
    with pytest.raises(InputTypeError, match="ref_columns must be a column name"):
        bleu.score_table([], ref_columns=[1])  # type: ignore[list-item]
    with pytest.raises(InvalidOptionError, match="chunk_size must be an int >= 1"):
        bleu.score_table([], chunk_size=0)
    with pytest.raises(InvalidInputError, match="different lengths: 'hyp' 2, 'ref' 1 rows"):
        bleu.score_table({"hyp": ["a", "b"], "ref": ["a"]})
    with pytest.raises(InvalidOptionError, match="name the group column"):
        bleu.grouped_scores([])
    with pytest.raises(InvalidOptionError, match="not both"):
        bleu.grouped_scores(["a"], [["a"]], by="g", groups=["x"])
    with pytest.raises(InvalidOptionError, match="groups= needs references="):
        bleu.grouped_scores(["a"], groups=["x"])
    with pytest.raises(InvalidOptionError, match="references= goes with groups="):
        bleu.grouped_scores(["a"], [["a"]], by="g")
    with pytest.raises(InvalidInputError, match="groups ends before the hypotheses"):
        bleu.grouped_scores(["a", "b"], [["a", "b"]], groups=["x"])
    with pytest.raises(InvalidInputError, match="groups has more keys"):
        bleu.grouped_scores(["a"], [["a"]], groups=["x", "y"])


def test_dataset_dicts_and_lazy_frames_are_refused() -> None:
    datasets = pytest.importorskip("datasets")
    splits = datasets.DatasetDict({"test": datasets.Dataset.from_list([{"hyp": "a", "ref": "a"}])})
    with pytest.raises(InputTypeError, match=r"several splits \('test'\); pass one"):
        bleuprint.BLEU().score_table(splits)
    pl = pytest.importorskip("polars")
    with pytest.raises(InputTypeError, match=r"LazyFrame, its .collect\(\)"):
        bleuprint.BLEU().score_table(pl.LazyFrame({"hyp": ["a"], "ref": ["a"]}))


def test_missing_optional_packages_name_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "t.parquet").write_bytes(b"PAR1")
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow now raises ImportError
    with pytest.raises(ImportError, match=r"pip install 'bleuprint\[parquet\]'"):
        bleuprint.BLEU().score_table(tmp_path / "t.parquet")


def test_read_table_reports_its_size(tmp_path: Path) -> None:
    rows = [{"hyp": "a", "ref": "b"}] * 9
    assert read_table(rows).rows is None  # an iterable does not know
    assert read_table({"hyp": ["a"] * 9, "ref": ["b"] * 9}).rows == 9
    pq = pytest.importorskip("pyarrow.parquet")
    pa = pytest.importorskip("pyarrow")
    pq.write_table(pa.table({"hyp": ["a"] * 9, "ref": ["b"] * 9}), tmp_path / "t.parquet")
    assert read_table(tmp_path / "t.parquet").rows == 9
    calls: list[tuple[int, Any]] = []
    bleuprint.BLEU().score_table(
        tmp_path / "t.parquet", chunk_size=4, progress=lambda d, t: calls.append((d, t))
    )
    assert calls == [(4, 9), (8, 9), (9, 9)]


# --- against sacrebleu -----------------------------------------------------------------------


@pytest.mark.differential
def test_wmt22_systems_in_one_table_equal_sacrebleu(wmt22: Path, tmp_path: Path) -> None:
    """Three en-de systems with references A and B in one Parquet file and one .jsonl.gz
    file: each system's grouped score equals sacrebleu's corpus score of that system, and
    the whole table's score equals sacrebleu on the concatenation."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    refs = wmt22_references(wmt22, "en-de")
    ref_lines = [read_lines(refs[name]) for name in ("A", "B") if name in refs]
    systems = [(name, path) for pair, name, path in wmt22_systems(wmt22) if pair == "en-de"][:3]
    rows: list[Row] = []
    for name, path in systems:
        for i, hyp in enumerate(read_lines(path)):
            rows.append({"hyp": hyp, "refs": [r[i] for r in ref_lines], "system": name})
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "wmt.parquet", row_group_size=1000)
    write_jsonl(rows, tmp_path / "wmt.jsonl.gz")
    for source in (tmp_path / "wmt.parquet", tmp_path / "wmt.jsonl.gz"):
        bleu = bleuprint.BLEU().grouped_scores(source, by="system", ref_columns="refs")
        chrf = bleuprint.CHRF(word_order=2).grouped_scores(source, by="system", ref_columns="refs")
        assert list(bleu) == [name for name, _ in systems]
        for name, path in systems:
            hyps = read_lines(path)
            assert bleu[name].score == sacrebleu.corpus_bleu(hyps, ref_lines).score
            expected = sacrebleu.corpus_chrf(hyps, ref_lines, word_order=2)
            assert chrf[name].score == expected.score
    all_hyps = [row["hyp"] for row in rows]
    all_refs = [[row["refs"][k] for row in rows] for k in range(len(ref_lines))]
    got = bleuprint.BLEU().score_table(tmp_path / "wmt.parquet", ref_columns="refs", chunk_size=999)
    assert got.score == sacrebleu.corpus_bleu(all_hyps, all_refs).score
