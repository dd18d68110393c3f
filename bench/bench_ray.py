#!/usr/bin/env python
"""Ray Data benchmark: corpus scores of segments read from Parquet on a local 2-CPU Ray
cluster, against the in-process streaming paths on the same lines.

The segments are WMT22's into-English system outputs with their reference A (the pool of
bench_bleu.py's workload (b), 110,908 segments), repeated to ``--segments`` (10 million) and
written, untimed, to a temporary folder: ``--files`` Parquet files (columns ``hyp``, ``ref``)
and the same lines as two plain-text files. Then, timed once each (wall clock):

(1) ``metric.score_stream("hyp.txt", ["ref.txt"])``: in-process streaming from text (the
    issue's baseline; every core through the metric's threads);
(2) in-process Arrow: ``pyarrow.parquet`` batches, ``metric.stats`` per batch, running sums;
(3) Ray, docs/ray.md's recipe: ``read_parquet -> map_batches(bleuprint.ray.Statistics) ->
    aggregate(CorpusScore)`` with ``--actors`` actors reserving ``--actor-cpus`` each, the read
    reserving the same (so Ray fuses it into the actors: the text never enters the object
    store), whole blocks (``batch_size=None``) and ``keep_columns=[]`` (only the statistics
    leave the actors). ``ray.init`` and one tiny pass that starts its worker processes are
    timed apart, not counted;
(4) Ray's own overhead: the same pipeline with a no-op map (an empty batch of the same rows)
    and Ray's ``Count()``: reading, moving blocks and scheduling, without any scoring;
(5) Ray without the recipe: ``batch_size=65536``, every column kept, the read on its own
    tasks (the text goes through the object store twice).

It prints segments per second, the ratio of (3) to (1) (target: at least 0.5) and to (2),
the share of (3) that (4) accounts for, and whether the four scores are equal (``==`` in every
field). Exit status 1 if they are not, 2 if the data is missing.

Usage::

    python bench/bench_ray.py                          # 10 million segments, a few minutes
    python bench/bench_ray.py --segments 200000        # smoke run
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from common import die, load_into_english_pool, machine_info, print_header, require_data

TARGET_RATIO = 0.5
METRICS = {
    "bleu": lambda bleuprint: bleuprint.BLEU(),
    "chrf": lambda bleuprint: bleuprint.CHRF(),
    "ter": lambda bleuprint: bleuprint.TER(),
    "wer": lambda bleuprint: bleuprint.WER(),
}


def repeated(pool: list[str], size: int, chunk: int) -> Iterator[list[str]]:
    """The pool cycled to ``size`` lines, ``chunk`` lines at a time."""
    done = 0
    while done < size:
        start = done % len(pool)
        take = min(chunk, size - done, len(pool) - start)
        yield pool[start : start + take]
        done += take


def write_inputs(folder: Path, hyps: list[str], refs: list[str], size: int, files: int) -> None:
    """``files`` Parquet files and hyp.txt/ref.txt holding the same ``size`` segments."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    parquet = folder / "parquet"
    parquet.mkdir()
    per_file = math.ceil(size / files)
    writer: Any = None
    path = None
    written = 0
    with (
        open(folder / "hyp.txt", "w", encoding="utf-8") as hyp_text,
        open(folder / "ref.txt", "w", encoding="utf-8") as ref_text,
    ):
        for h, r in zip(repeated(hyps, size, 50_000), repeated(refs, size, 50_000)):
            hyp_text.write("\n".join(h) + "\n")
            ref_text.write("\n".join(r) + "\n")
            table = pa.table({"hyp": h, "ref": r})
            wanted = parquet / f"part-{min(written // per_file, files - 1):04d}.parquet"
            if wanted != path:
                if writer is not None:
                    writer.close()
                path = wanted
                writer = pq.ParquetWriter(str(path), table.schema, compression="snappy")
            writer.write_table(table, row_group_size=65536)
            written += len(h)
    if writer is not None:
        writer.close()


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def in_process_arrow(metric: Any, folder: Path, batch_size: int) -> Any:
    """Running column sums of metric.stats over Parquet batches (BLEU, chrF, WER); TER keeps
    rows, as score_stream does."""
    import numpy as np
    import pyarrow.parquet as pq

    from bleuprint.metrics.stats import Stats

    parts: list[Any] = []
    total = None
    keep_rows = not getattr(metric.config, "corpus_from_sums", False)
    for path in sorted((folder / "parquet").iterdir()):
        for batch in pq.ParquetFile(path).iter_batches(batch_size=batch_size):
            stats = metric.stats(batch.column("hyp"), [batch.column("ref")])
            if keep_rows:
                parts.append(stats.rows)
            else:
                part = stats.sum()
                total = part if total is None else total + part
    rows = np.concatenate(parts) if keep_rows else np.asarray(total)[None, :]
    return Stats(rows, metric.config, 1).score()


class OneByte:
    """A no-op map: each batch's rows as one int8 column (what Statistics returns with
    keep_columns=[], less its statistics; Ray counts no rows in a block without columns)."""

    def __call__(self, batch: Any) -> Any:
        import pyarrow as pa

        return pa.table({"row": pa.nulls(batch.num_rows, pa.int8())})


def ray_pipeline(folder: Path, call: Any, args: argparse.Namespace, recipe: bool, **kw: Any) -> Any:
    """read_parquet -> map_batches(call) on ``args.actors`` actors; with ``recipe``, as
    docs/ray.md advises (the read fused into the actors, whole blocks)."""
    import ray

    read_args = {"num_cpus": args.actor_cpus} if recipe else {}
    return ray.data.read_parquet(str(folder / "parquet"), **read_args).map_batches(
        call,
        batch_format="pyarrow",
        batch_size=None if recipe else args.batch_size,
        compute=ray.data.ActorPoolStrategy(size=args.actors),
        num_cpus=args.actor_cpus,
        **kw,
    )


def ray_score(metric: Any, folder: Path, args: argparse.Namespace, recipe: bool) -> Any:
    import bleuprint.integrations.ray

    options: dict[str, Any] = {"ref_columns": ["ref"]}
    if recipe:
        options["keep_columns"] = []
    ds = ray_pipeline(
        folder,
        bleuprint.ray.Statistics,
        args,
        recipe,
        fn_constructor_args=(metric,),
        fn_constructor_kwargs=options,
    )
    return ds.aggregate(bleuprint.ray.CorpusScore(metric))[
        f"corpus_score({bleuprint.integrations.ray.default_column(metric)})"
    ]


def ray_overhead(folder: Path, args: argparse.Namespace) -> int:
    from ray.data.aggregate import Count

    ds = ray_pipeline(folder, OneByte, args, recipe=True)
    return int(ds.aggregate(Count())["count()"])


def start_ray(cpus: int) -> None:
    """A local cluster, and one tiny pass that starts its worker processes (a running
    cluster has them already)."""
    import ray

    ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    ray.data.range(2 * cpus, override_num_blocks=2 * cpus).map_batches(lambda b: b).materialize()


def same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and vars(a) == vars(b)


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--segments", type=int, default=10_000_000, help="segments (10 million)")
    p.add_argument("--metric", choices=sorted(METRICS), default="bleu")
    p.add_argument("--files", type=int, default=16, help="Parquet files (16)")
    p.add_argument("--actors", type=int, default=2, help="Ray actors (2)")
    p.add_argument(
        "--actor-cpus",
        type=float,
        default=0.5,
        help="CPUs each actor reserves (0.5: the read tasks need the rest, or they never start)",
    )
    p.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray cluster (2)")
    p.add_argument(
        "--batch-size",
        type=int,
        default=65536,
        help="rows per batch of (2), and of (5), the pipeline without the recipe (65536)",
    )
    p.add_argument("--tmp", type=Path, default=None, help="folder for the inputs (a temp dir)")
    return p.parse_args()


def main() -> int:
    args = parse_args()
    require_data()
    import bleuprint

    # The pool's lines look tokenized to BLEU's check; that warning says nothing here.
    warnings.simplefilter("ignore", bleuprint.BleuprintWarning)

    metric = METRICS[args.metric](bleuprint)
    print_header("Ray Data benchmark", machine_info(None))
    import ray

    hyps, refs, notes = load_into_english_pool()
    if not hyps:
        die("no into-English system outputs with a reference A")
    print(f"data: {len(hyps):,} segments repeated to {args.segments:,}; {notes[-1]}")
    with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
        folder = Path(tmp)
        start = time.perf_counter()
        write_inputs(folder, hyps, refs, args.segments, args.files)
        seconds = time.perf_counter() - start
        size = sum(f.stat().st_size for f in (folder / "parquet").iterdir())
        print(f"inputs written in {seconds:.1f} s (untimed): Parquet {size / 2**20:,.0f} MiB")
        del hyps, refs

        results: dict[str, tuple[float, Any]] = {}
        print("(1) score_stream from text ...", flush=True)
        results["stream"] = timed(
            lambda: metric.score_stream(str(folder / "hyp.txt"), [str(folder / "ref.txt")])
        )
        print("(2) in-process Arrow batches ...", flush=True)
        results["arrow"] = timed(lambda: in_process_arrow(metric, folder, args.batch_size))
        start_seconds, _ = timed(lambda: start_ray(args.cpus))
        print("(3) Ray Data ...", flush=True)
        results["ray"] = timed(lambda: ray_score(metric, folder, args, recipe=True))
        print("(4) Ray no-op pass ...", flush=True)
        overhead, counted = timed(lambda: ray_overhead(folder, args))
        print("(5) Ray Data without the recipe ...", flush=True)
        results["ray_plain"] = timed(lambda: ray_score(metric, folder, args, recipe=False))
        ray.shutdown()

    n = args.segments
    print(f"\nmetric: {metric}\nsegments: {n:,}")
    print(f"Ray cluster start and worker warm-up: {start_seconds:.1f} s (not counted)")
    print(f"{'path':<40}{'seconds':>10}{'segments/s':>14}")
    names = {
        "stream": "(1) score_stream, text files",
        "arrow": "(2) in-process, Arrow batches",
        "ray": f"(3) Ray Data, {args.actors} actors, recipe",
        "ray_plain": "(5) Ray Data, without the recipe",
    }
    for key, (seconds, _) in results.items():
        print(f"{names[key]:<40}{seconds:>10.2f}{n / seconds:>14,.0f}")
    print(f"{'(4) Ray no-op pass (overhead)':<40}{overhead:>10.2f}{n / overhead:>14,.0f}")
    ray_seconds = results["ray"][0]
    ratio = results["stream"][0] / ray_seconds
    print(f"\nRay / score_stream throughput: {ratio:.2f} (target >= {TARGET_RATIO})")
    print(f"Ray / in-process Arrow throughput: {results['arrow'][0] / ray_seconds:.2f}")
    print(f"Ray, recipe / without it: {results['ray_plain'][0] / ray_seconds:.2f}x faster")
    print(f"Ray's own overhead: {overhead:.2f} s, {overhead / ray_seconds:.0%} of (3)")
    scores = [result for _, result in results.values()]
    equal = all(same(scores[0], s) for s in scores[1:]) and counted == n
    print(f"scores equal (==, every field): {'yes' if equal else 'NO'}: {scores[0]}")
    if ratio < TARGET_RATIO:
        print("target missed: Ray below half the in-process streaming throughput")
    return 0 if equal else 1


if __name__ == "__main__":
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    sys.exit(main())
