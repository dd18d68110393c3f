"""bleuprint.ray on a real local Ray cluster: statistics columns from ``map_batches``, corpus
scores from ``aggregate``/``groupby`` equal (``==``, every field) to the single-process scores
for any blocks in any order, sentence scores, Stats read back for bootstrap and paired tests,
a worker killed mid-job, and the errors."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Optional

import pytest

ray = pytest.importorskip("ray")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import bleuprint  # noqa: E402
import bleuprint.integrations.ray as bray  # noqa: E402
from bleuprint.errors import (  # noqa: E402
    InputTypeError,
    InvalidInputError,
    InvalidOptionError,
    StatsMismatchError,
)
from tests.support.data import DOCS, SAMPLE, read_lines, wmt22_references  # noqa: E402

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

# Ray's own threads and libraries warn (deprecations, resource hints); the suite turns
# warnings into errors, and these say nothing about bleuprint.
# A hang (an actor pool waiting for CPUs) fails its test rather than the whole run.
pytestmark = [pytest.mark.filterwarnings("ignore"), pytest.mark.timeout(180)]

SYSTEMS = ("fair", "good", "poor")


def on_actors(size: int = 1) -> dict[str, Any]:
    """map_batches options for an actor pool: each pool holds its CPUs for the whole run, so
    several pools on a 2-CPU cluster take a fraction each."""
    return {"compute": ray.data.ActorPoolStrategy(size=size), "num_cpus": 0.25}


@pytest.fixture(scope="module", autouse=True)
def cluster() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    context.print_on_execution_start = False
    # Ray's defaults are sized for clusters: a groupby's hash shuffle into 200 partitions
    # (each an aggregator's work) took most of a 180 s test on the 2 CPUs here.
    context.default_hash_shuffle_parallelism = 2
    yield
    ray.shutdown()


def metrics() -> dict[str, Any]:
    """The statistics columns of the sample table: name -> (metric, Statistics keywords)."""
    return {
        "bleu": (bleuprint.BLEU(), {"ref_columns": ["ref_a", "ref_b"]}),
        "chrf": (bleuprint.CHRF(), {"ref_columns": ["ref_a", "ref_b"]}),
        "chrf++": (bleuprint.CHRF(word_order=2), {"ref_columns": "refs"}),
        # One or two references: the exact sums, no order needed.
        "ter": (bleuprint.TER(), {"ref_columns": ["ref_a", "ref_b"]}),
        # One to three references: averages such as 7/3 need the rows in key order.
        "ter3": (bleuprint.TER(), {"ref_columns": "refs", "order_column": "id"}),
        "wer": (bleuprint.WER(), {"ref_columns": ["ref_a"]}),
        # Not a function of column sums, but of the rows in any order: no key needed.
        "rouge": (bleuprint.ROUGE(use_stemmer=True), {"ref_columns": ["ref_a", "ref_b"]}),
        "rouge keyed": (
            bleuprint.ROUGE(["rougeLsum"]),
            {"ref_columns": "refs", "order_column": "id"},
        ),
    }


def sample_rows() -> list[dict[str, Any]]:
    """The in-repo sample: three systems x 60 segments, references A, B (with gaps) and a
    list of one to three references (B dropped in places, another system's output added)."""
    ref_a, ref_b = read_lines(SAMPLE / "ref.A.en"), read_lines(SAMPLE / "ref.B.en")
    outputs = {name: read_lines(SAMPLE / f"sys.{name}.en") for name in SYSTEMS}
    rows = []
    for s, system in enumerate(SYSTEMS):
        other = outputs[SYSTEMS[(s + 1) % len(SYSTEMS)]]
        for i, hyp in enumerate(outputs[system]):
            b = None if i % 4 == 1 else ref_b[i]
            refs = [ref_a[i], b, other[i]] if i % 3 else [ref_a[i]]
            rows.append(
                {"id": s * 1000 + i, "system": system, "hyp": hyp, "ref_a": ref_a[i],
                 "ref_b": b, "refs": refs}
            )  # fmt: skip
    return rows


def streams(rows: list[dict[str, Any]], keywords: dict[str, Any]) -> list[list[Optional[str]]]:
    """The reference streams one process would pass for ``rows`` (lists padded with None)."""
    columns = keywords["ref_columns"]
    if isinstance(columns, str):
        lists = [[r for r in row[columns] if r is not None] for row in rows]
        width = max(len(refs) for refs in lists)
        return [[refs[k] if k < len(refs) else None for refs in lists] for k in range(width)]
    return [[row[c] for row in rows] for c in columns]


def expected_score(name: str, rows: list[dict[str, Any]]) -> Any:
    metric, keywords = metrics()[name]
    rows = sorted(rows, key=lambda row: row["id"])
    return metric.corpus_score([row["hyp"] for row in rows], streams(rows, keywords))


def same(got: Any, expected: Any) -> bool:
    """Scores equal in every field (score, counts, lengths, precisions, text form)."""
    return type(got) is type(expected) and vars(got) == vars(expected)


def add_statistics(batch: Any, names: Any = None, **options: Any) -> Any:
    """Every chosen statistics column added in one task (several actor pools would each hold
    CPUs of the 2-CPU test cluster; the actor path has tests of its own)."""
    for name, (metric, keywords) in metrics().items():
        if names is None or name in names:
            batch = bray.Statistics(metric, **keywords, column=name, **options)(batch)
    return batch


def with_statistics(ds: Any, names: Any = None, **options: Any) -> Any:
    return ds.map_batches(
        add_statistics, fn_kwargs={"names": names, **options}, batch_format="pyarrow"
    )


def corpus_scores() -> list[Any]:
    return [bray.CorpusScore(metric, name) for name, (metric, _) in metrics().items()]


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    return sample_rows()


@pytest.fixture(scope="module")
def scored(rows: list[dict[str, Any]]) -> Any:
    """The sample with every statistics column, materialized once."""
    return with_statistics(ray.data.from_items(rows).repartition(3)).materialize()


# --- equality for any blocks in any order ---------------------------------------------------


@settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(blocks=st.integers(1, 23), seed=st.integers(0, 2**16))
# Three examples of an aggregate and a groupby each: on two busy cores Ray's scheduler alone
# took 45 s a task, and the test ran past the module's 180 s (not a hang).
@pytest.mark.timeout(600)
def test_any_blocks_any_order_give_the_single_process_score(
    scored: Any, rows: list[dict[str, Any]], blocks: int, seed: int
) -> None:
    """Repartitioned into any number of blocks, shuffled: every metric's corpus score, and
    every system's under groupby, equals one process' score of the same segments."""
    ds = scored.repartition(blocks).randomize_block_order(seed=seed)
    result = ds.aggregate(*corpus_scores())
    for name in metrics():
        assert same(result[f"corpus_score({name})"], expected_score(name, rows)), name
    grouped = ds.groupby("system", num_partitions=1).aggregate(*corpus_scores()).take_all()
    assert sorted(g["system"] for g in grouped) == list(SYSTEMS)
    for group in grouped:
        part = [row for row in rows if row["system"] == group["system"]]
        for name in metrics():
            assert same(group[f"corpus_score({name})"], expected_score(name, part)), name


def test_an_empty_dataset_scores_as_no_segments() -> None:
    empty = ray.data.from_items(
        [{"bleu": {name: 0 for name in bleuprint.BLEU().config.column_names}}]
    )
    result = empty.filter(lambda row: False).aggregate(bray.CorpusScore(bleuprint.BLEU()))
    assert same(result["corpus_score(bleu)"], bleuprint.BLEU().corpus_score([], [[]]))


# --- real text against sacrebleu ------------------------------------------------------------


@pytest.mark.differential
def test_wmt22_equals_sacrebleu(wmt22: Path) -> None:
    """The first 600 segments of WMT22 en-de Online-B against references A and B, in 7
    shuffled blocks: corpus BLEU,
    chrF++ and TER equal sacrebleu's, and the rows' sentence scores bleuprint's own."""
    import sacrebleu

    refs = wmt22_references(wmt22, "en-de")
    ref_a, ref_b = read_lines(refs["A"]), read_lines(refs["B"])
    hyps = read_lines(wmt22 / "system-outputs" / "generaltest2022.en-de.hyp.Online-B.de")[:600]
    ref_a, ref_b = ref_a[:600], ref_b[:600]
    table = pa.table({"id": list(range(len(hyps))), "hyp": hyps, "refs": list(zip(ref_a, ref_b))})
    ds = ray.data.from_arrow(table).repartition(7).randomize_block_order(seed=3)
    ours = {
        "bleu": bleuprint.BLEU(),
        "chrf++": bleuprint.CHRF(word_order=2),
        "ter": bleuprint.TER(),
    }

    def add_columns(batch: Any) -> Any:
        for name, metric in ours.items():
            batch = bray.Statistics(metric, ref_columns="refs", column=name, order_column="id")(
                batch
            )
        return batch

    ds = ds.map_batches(add_columns, batch_format="pyarrow")
    ds = ds.materialize()
    result = ds.aggregate(*(bray.CorpusScore(metric, name) for name, metric in ours.items()))
    theirs = {
        "bleu": sacrebleu.BLEU(),
        "chrf++": sacrebleu.CHRF(word_order=2),
        "ter": sacrebleu.TER(),
    }
    for name, metric in theirs.items():
        expected = metric.corpus_score(hyps, [ref_a, ref_b])
        got = result[f"corpus_score({name})"]
        assert got.score == expected.score, name
        assert str(got) == str(expected), name
        assert same(got, ours[name].corpus_score(hyps, [ref_a, ref_b])), name
        stats = bray.to_stats(ds, ours[name], name)
        assert stats == ours[name].stats(hyps, [ref_a, ref_b]), name


# --- sentence scores, list columns, pandas and numpy batches --------------------------------


@pytest.mark.parametrize("batch_format", ["pyarrow", "pandas", "numpy"])
def test_sentence_scores_equal_sentence_score(
    rows: list[dict[str, Any]], batch_format: str
) -> None:
    """A list column with one to three references (some null), in each batch format: every
    row's score column equals metric.sentence_score of its hypothesis and references."""
    sentence_metrics = {
        "bleu": bleuprint.BLEU(effective_order=True),
        "chrf++": bleuprint.CHRF(word_order=2),
        "ter": bleuprint.TER(),
        "wer": bleuprint.WER(),
    }
    part = rows[::7]

    def add_scores(batch: Any) -> Any:
        for name, metric in sentence_metrics.items():
            refs = "ref_a" if name == "wer" else "refs"  # WER takes one reference
            batch = bray.Statistics(
                metric, "hyp", refs, column=name, sentence_scores=True, order_column="id"
            )(batch)
        return batch

    ds = ray.data.from_items(part).repartition(3).map_batches(add_scores, batch_format=batch_format)
    out = sorted(ds.take_all(), key=lambda row: row["id"])
    assert len(out) == len(part)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, metric in sentence_metrics.items():
            for row, original in zip(out, sorted(part, key=lambda row: row["id"])):
                refs = [original["ref_a"]] if name == "wer" else original["refs"]
                expected = metric.sentence_score(row["hyp"], [r for r in refs if r is not None])
                assert row[f"{name}_score"] == expected.score, (name, row["id"])
                assert row[name]["nrefs"] == sum(r is not None for r in refs)


def test_list_column_with_varying_counts_equals_padded_streams(
    rows: list[dict[str, Any]],
) -> None:
    """Read back as Stats (ordered by the key), a list column's rows equal metric.stats of
    the streams padded with None; nrefs is -1 as the counts vary."""
    metric = bleuprint.CHRF(word_order=2)
    ds = with_statistics(ray.data.from_items(rows).repartition(4), ("chrf++",))
    stats = bray.to_stats(ds.randomize_block_order(seed=1), metric, "chrf++")
    ordered = sorted(rows, key=lambda row: row["id"])
    expected = metric.stats(
        [row["hyp"] for row in ordered], streams(ordered, {"ref_columns": "refs"})
    )
    assert stats == expected
    assert stats.nrefs == -1


# --- keeping only some columns, and the read fused into the actors --------------------------


@pytest.mark.parametrize("batch_format", ["pyarrow", "pandas", "numpy"])
def test_keep_columns_returns_only_those_and_the_statistics(
    rows: list[dict[str, Any]], batch_format: str
) -> None:
    """keep_columns=["system"]: the output holds system and the added columns, in that order,
    and scores as the full batch does; [] keeps only the added columns."""
    metric = bleuprint.BLEU()
    ds = ray.data.from_items(rows).repartition(3)
    kept = ds.map_batches(
        bray.Statistics,
        fn_constructor_args=(metric, "hyp", "ref_a"),
        fn_constructor_kwargs={"keep_columns": ["system"], "sentence_scores": True},
        batch_format=batch_format,
        **on_actors(),
    ).materialize()
    assert kept.columns() == ["system", "bleu", "bleu_score"]
    expected = metric.corpus_score([r["hyp"] for r in rows], [[r["ref_a"] for r in rows]])
    assert same(kept.aggregate(bray.CorpusScore(metric))["corpus_score(bleu)"], expected)
    for group in kept.groupby("system").aggregate(bray.CorpusScore(metric)).take_all():
        part = [r for r in rows if r["system"] == group["system"]]
        want = metric.corpus_score([r["hyp"] for r in part], [[r["ref_a"] for r in part]])
        assert same(group["corpus_score(bleu)"], want)
    table = pa.Table.from_pylist(rows[:5])
    only = bray.Statistics(metric, ref_columns="ref_a", keep_columns=[])(table)
    assert only.column_names == ["bleu"]
    assert only.num_rows == 5
    # A column named like the statistics is no conflict when it is not kept.
    renamed = table.rename_columns(["bleu" if c == "system" else c for c in table.column_names])
    assert bray.Statistics(metric, ref_columns="ref_a", keep_columns="id")(
        renamed
    ).column_names == ["id", "bleu"]
    with pytest.raises(InvalidInputError, match=r"keep_columns names \['lang'\].*'system'"):
        bray.Statistics(metric, ref_columns="ref_a", keep_columns=["system", "lang"])(table)
    with pytest.raises(InputTypeError, match="keep_columns"):
        bray.Statistics(metric, ref_columns="ref_a", keep_columns=[3])  # type: ignore[list-item]


def test_the_fused_read_recipe_scores_parquet_exactly(
    rows: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/ray.md's fast recipe: Parquet read with the actors' num_cpus, whole blocks
    (batch_size=None), so Ray fuses the read into the actors; the scores stay exact."""
    table = pa.Table.from_pylist(rows).select(["id", "system", "hyp", "ref_a", "ref_b"])
    for k, part in enumerate((table.slice(0, 70), table.slice(70))):
        pq.write_table(part, str(tmp_path / f"part-{k}.parquet"))
    metric = bleuprint.BLEU()
    ds = ray.data.read_parquet(str(tmp_path), num_cpus=0.5).map_batches(
        bray.Statistics,
        fn_constructor_args=(metric,),
        fn_constructor_kwargs={"ref_columns": ["ref_a", "ref_b"], "keep_columns": ["system"]},
        batch_format="pyarrow",
        batch_size=None,
        compute=ray.data.ActorPoolStrategy(size=2),
        num_cpus=0.5,
    )
    ds.explain()
    assert "ReadFilesParquetV2->MapBatches(Statistics)" in capsys.readouterr().out
    grouped = ds.groupby("system").aggregate(bray.CorpusScore(metric)).take_all()
    assert sorted(g["system"] for g in grouped) == list(SYSTEMS)
    for group in grouped:
        part = [r for r in rows if r["system"] == group["system"]]
        want = metric.corpus_score(
            [r["hyp"] for r in part], [[r["ref_a"] for r in part], [r["ref_b"] for r in part]]
        )
        assert same(group["corpus_score(bleu)"], want)


# --- Stats on the driver: bootstrap and paired tests ----------------------------------------


def test_stats_feed_bootstrap_and_paired_tests(scored: Any, rows: list[dict[str, Any]]) -> None:
    """Per system, to_stats of the Ray column equals the in-memory Stats, so bootstrap_ci and
    paired_test_stats give the in-memory results."""
    metric, keywords = metrics()["ter3"]
    shuffled = scored.repartition(6).randomize_block_order(seed=11)
    per_system: dict[str, Any] = {}
    for system in SYSTEMS:
        part = sorted((r for r in rows if r["system"] == system), key=lambda r: r["id"])
        expected = metric.stats([r["hyp"] for r in part], streams(part, keywords))
        got = bray.to_stats(shuffled.filter(lambda r, s=system: r["system"] == s), metric, "ter3")
        assert got == expected
        per_system[system] = (got, expected)
    got_ci = bleuprint.bootstrap_ci(per_system["good"][0], 200, seed=5)
    assert got_ci == bleuprint.bootstrap_ci(per_system["good"][1], 200, seed=5)
    got_test = bleuprint.paired_test_stats(
        {name: [pair[0]] for name, pair in per_system.items()}, n_samples=200, seed=5
    )
    expected_test = bleuprint.paired_test_stats(
        {name: [pair[1]] for name, pair in per_system.items()}, n_samples=200, seed=5
    )
    assert str(got_test) == str(expected_test)


def test_stats_of_a_materialized_batch(scored: Any, rows: list[dict[str, Any]]) -> None:
    """A pyarrow table or a pandas DataFrame taken from the dataset reads back the same."""
    metric = bleuprint.BLEU()
    table = pa.concat_tables(scored.iter_batches(batch_size=None, batch_format="pyarrow"))
    from_table = bray.to_stats(table, metric, "bleu")
    assert from_table == bray.to_stats(table.to_pandas(), metric, "bleu")
    assert len(from_table) == len(rows)
    assert from_table.score().score == expected_score("bleu", rows).score


# --- a worker killed mid-job ----------------------------------------------------------------


def test_a_killed_worker_is_retried_and_the_score_stays_exact(
    rows: list[dict[str, Any]], tmp_path: Path
) -> None:
    """The first batch kills its worker process (os._exit); Ray retries the task on a new
    worker and the corpus scores still equal the single-process ones."""
    marker = tmp_path / "killed-once"

    def dying_statistics(batch: Any, metric: Any = None, marker: str = str(marker)) -> Any:
        if not os.path.exists(marker):
            Path(marker).write_text(str(os.getpid()))
            os._exit(1)
        return bray.Statistics(metric, ref_columns="refs", column="ter3", order_column="id")(batch)

    ds = ray.data.from_items(rows).repartition(4)
    ds = ds.map_batches(
        dying_statistics,
        fn_kwargs={"metric": bleuprint.TER()},
        batch_format="pyarrow",
        max_retries=2,
    )
    result = ds.aggregate(bray.CorpusScore(bleuprint.TER(), "ter3"))
    assert marker.exists()  # a worker did die
    assert int(marker.read_text()) != os.getpid()
    assert same(result["corpus_score(ter3)"], expected_score("ter3", rows))


def test_a_killed_actor_is_restarted_and_the_score_stays_exact(
    rows: list[dict[str, Any]], tmp_path: Path
) -> None:
    """The same with the callable class on an actor pool: the actor process dies on its first
    batch, Ray restarts it and re-runs the batch."""
    marker = str(tmp_path / "actor-killed-once")

    class DyingStatistics(bray.Statistics):
        def __call__(self, batch: Any) -> Any:
            if not os.path.exists(marker):
                Path(marker).write_text("killed")
                os._exit(1)
            return super().__call__(batch)

    metric, keywords = metrics()["bleu"]
    ds = (
        ray.data.from_items(rows)
        .repartition(4)
        .map_batches(
            DyingStatistics,
            fn_constructor_args=(metric,),
            fn_constructor_kwargs={**keywords},
            batch_format="pyarrow",
            max_restarts=2,
            max_task_retries=2,
            **on_actors(),
        )
    )
    result = ds.aggregate(bray.CorpusScore(metric))
    assert os.path.exists(marker)
    assert same(result["corpus_score(bleu)"], expected_score("bleu", rows))


# --- errors ---------------------------------------------------------------------------------


def test_missing_columns_name_what_the_batch_has(rows: list[dict[str, Any]]) -> None:
    table = pa.Table.from_pylist(rows[:4])
    with pytest.raises(InvalidInputError, match=r"no hypothesis column 'output'.*'hyp'"):
        bray.Statistics(bleuprint.BLEU(), hyp_column="output")(table)
    with pytest.raises(InvalidInputError, match=r"no reference column 'reference'.*'ref_a'"):
        bray.Statistics(bleuprint.BLEU(), ref_columns=["reference"])(table)
    ds = ray.data.from_items(rows[:4])
    with pytest.raises(InvalidInputError, match=r"no statistics column 'bleu'.*Statistics"):
        ds.aggregate(bray.CorpusScore(bleuprint.BLEU()))
    with pytest.raises(InvalidInputError, match=r"no statistics column 'bleu'"):
        bray.to_stats(ds, bleuprint.BLEU())


def test_errors_inside_ray_keep_their_class(rows: list[dict[str, Any]]) -> None:
    """Ray wraps a map's exception in its own unless raise_original_map_exception is set;
    either way bleuprint's message reaches the driver."""

    def missing_column() -> Any:
        return ray.data.from_items(rows[:4]).map_batches(
            bray.Statistics,
            fn_constructor_args=(bleuprint.BLEU(),),
            fn_constructor_kwargs={"hyp_column": "output"},
            batch_format="pyarrow",
            **on_actors(),
        )

    ds = missing_column()
    with pytest.raises(Exception, match="no hypothesis column 'output'"):
        ds.materialize()
    context = ray.data.DataContext.get_current()
    context.raise_original_map_exception = True
    try:
        again = missing_column()
        with pytest.raises(InvalidInputError, match="no hypothesis column 'output'"):
            again.materialize()
    finally:
        context.raise_original_map_exception = False


def test_other_statistics_are_refused(scored: Any) -> None:
    """A column made by another configuration, or TER needing an order it lacks."""
    with pytest.raises(StatsMismatchError, match="fields"):
        scored.aggregate(bray.CorpusScore(bleuprint.BLEU(max_ngram_order=2), "bleu"))
    with pytest.raises(StatsMismatchError):
        bray.to_stats(scored, bleuprint.CHRF(), "chrf++")
    with pytest.raises(InputTypeError, match="not bleuprint statistics"):
        bray.to_stats(pa.table({"bleu": [1, 2]}), bleuprint.BLEU())


def test_ter_without_an_order_key_refuses_inexact_sums(rows: list[dict[str, Any]]) -> None:
    """Three references make averages such as 7/3: without order_column the aggregation
    refuses and names the fix."""
    ds = ray.data.from_items(rows).map_batches(
        bray.Statistics,
        fn_constructor_args=(bleuprint.TER(),),
        fn_constructor_kwargs={"ref_columns": "refs"},
        batch_format="pyarrow",
        **on_actors(),
    )
    with pytest.raises(InvalidInputError, match="order_column"):
        ds.aggregate(bray.CorpusScore(bleuprint.TER()))


def test_local_errors(rows: list[dict[str, Any]]) -> None:
    """Errors raised before Ray runs anything, on the driver."""
    table = pa.Table.from_pylist(rows[:4])
    with pytest.raises(InputTypeError, match="bleuprint metric"):
        bray.Statistics("bleu")  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match="bleuprint metric"):
        bray.CorpusScore(sacrebleu_metric())
    with pytest.raises(InvalidOptionError, match="already has a column 'hyp'"):
        bray.Statistics(bleuprint.BLEU(), ref_columns="ref_a", column="hyp")(table)
    with pytest.raises(InputTypeError, match="order column 'system' must hold integers"):
        bray.Statistics(bleuprint.BLEU(), ref_columns="ref_a", order_column="system")(table)
    empty = pa.table({"hyp": ["a"], "refs": pa.array([[None]], pa.list_(pa.string()))})
    with pytest.raises(InvalidInputError, match="row 0 of this batch has no references"):
        bray.Statistics(bleuprint.BLEU(), ref_columns="refs")(empty)
    twice = bray.Statistics(bleuprint.BLEU(), ref_columns="ref_a", order_column="id")(
        pa.concat_tables([table, table])
    )
    with pytest.raises(InvalidInputError, match="more than one row"):
        bray.to_stats(twice, bleuprint.BLEU())


def sacrebleu_metric() -> Any:
    import sacrebleu

    return sacrebleu.BLEU()


# --- the guide's example -------------------------------------------------------------------


def test_the_guide_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/ray.md's pipeline example runs as written and prints the single-process scores."""
    guide = DOCS / "ray.md"
    block = guide.read_text(encoding="utf-8").split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(block, str(guide), "exec"), {})
    printed = capsys.readouterr().out
    hyps = ["The dog is barking.", "It rains.", "Hello."]
    refs = [["The dog barks.", "It is raining.", "Hello."], [None, "It rains.", "Good morning."]]
    assert str(bleuprint.BLEU().corpus_score(hyps, refs)) in printed
    assert str(bleuprint.CHRF(word_order=2).corpus_score(hyps, refs)) in printed


# --- imports --------------------------------------------------------------------------------


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


def test_importing_bleuprint_does_not_import_ray() -> None:
    done = run_python("import sys, bleuprint; bleuprint.BLEU(); print('ray' in sys.modules)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_without_ray_the_error_names_the_extra() -> None:
    done = run_python("import sys; sys.modules['ray'] = None; import bleuprint.integrations.ray")
    assert done.returncode != 0
    assert "ModuleNotFoundError" in done.stderr
    assert "pip install 'bleuprint[ray]'" in done.stderr
