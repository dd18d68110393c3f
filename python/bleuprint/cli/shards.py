"""``bleuprint stats`` and ``bleuprint merge``: statistics of (a shard of) the input written
to a file, and one run's output printed from every shard's file."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Optional

from bleuprint.cli.checks import check_output_usage, grouped
from bleuprint.cli.errors import EXIT_USAGE, CliError, Reporter
from bleuprint.cli.input import InputStreams
from bleuprint.cli.metric_objects import core_workers
from bleuprint.cli.output import output_format, write_lines
from bleuprint.cli.parser import build_merge_parser, build_parser
from bleuprint.cli.running import corpus_output, run, scoring_errors
from bleuprint.errors import BleuprintError
from bleuprint.io.shards import Shard, merge_shards, shard_window
from bleuprint.metrics.restored import RestoredMetric
from bleuprint.metrics.stats import Stats


class ShardFile:
    """Shard ``index`` of ``count`` of the input (``--shard K/N``; without it the whole input,
    1 of 1), and the file its statistics go to: the :class:`~bleuprint.cli.running.StatsFile`
    of ``bleuprint stats``."""

    def __init__(self, path: str, shard: Optional[tuple[int, int]]) -> None:
        self.path = path
        self.index, self.count = shard or (1, 1)
        #: Without --shard the whole input is read, with no count of its lines first.
        self.window: Optional[Callable[[int], tuple[int, int]]] = (
            partial(shard_window, self.index, self.count) if shard else None
        )

    def save(self, inputs: InputStreams, metrics: list[str], stats: list[list[Stats]]) -> None:
        shard = Shard(
            systems=inputs.names,
            metrics=metrics,
            stats=stats,
            index=self.index,
            count=self.count,
            start=inputs.start,
            total=inputs.total if inputs.total is not None else len(stats[0][0]),
            from_stdin=inputs.from_stdin,
        )
        try:
            shard.save(self.path)
        except OSError as e:
            raise CliError(f"cannot write {self.path}: {e.strerror or e}") from None


def run_stats(argv: Sequence[str]) -> int:
    """``bleuprint stats``: the scoring command's input and options, a file as output."""
    args = build_parser(stats=True).parse_args(argv)
    if grouped(args):
        raise CliError(
            "--group-by/--groups print one score per group; 'bleuprint stats' writes one "
            "system's statistics as a whole: score the groups with 'bleuprint' itself",
            EXIT_USAGE,
        )
    if "cider" in args.metrics:
        raise CliError(
            "-m cider cannot be sharded: an image's CIDEr-D depends on every image's references, "
            "so its statistics are the captions themselves (CIDErStats.save and + merge them in "
            "Python); score it with 'bleuprint -m cider' on the whole input",
            EXIT_USAGE,
        )
    for given, option in (
        (args.confidence, "-ci/--confidence"),
        (args.paired_bs or args.paired_ar, "-pbs/--paired-bs and -par/--paired-ar"),
        (args.sentence_level, "-sl/--sentence-level"),
        (args.preset not in (None, "sacrebleu"), "--preset"),
    ):
        if given:
            raise CliError(
                f"{option} prints scores, which 'bleuprint stats' does not: give -ci, -pbs or "
                "-par to 'bleuprint merge' (sentence-level and --preset output need the text)",
                EXIT_USAGE,
            )
    return run(args, ShardFile(args.output, args.shard))


def run_merge(argv: Sequence[str]) -> int:
    """``bleuprint merge``: what one run over every shard's input prints."""
    args = build_merge_parser().parse_args(argv)
    check_output_usage(args)
    fmt = output_format(args.format)
    reporter = Reporter(args.quiet)
    try:
        # Per-segment rows are read only for what needs them: intervals and paired tests.
        rows = bool(args.confidence or args.paired_bs or args.paired_ar)
        whole = merge_shards([Shard.load(path, rows=rows) for path in args.shards])
    except OSError as e:
        raise CliError(f"cannot read {e.filename or ''}: {e.strerror or e}") from None
    except BleuprintError as e:
        raise CliError(str(e)) from None
    keys = whole.metrics
    if args.metrics is not None:
        wanted = [m.upper() for m in dict.fromkeys(args.metrics)]
        absent = [m for m in wanted if m not in keys]
        if absent:
            raise CliError(
                f"the shards hold no {', '.join(absent)} statistics (they hold "
                f"{', '.join(keys)}); count it with 'bleuprint stats -m ...'",
                EXIT_USAGE,
            )
        keys = wanted
    columns = [whole.metrics.index(k) for k in keys]
    metrics = {
        k: RestoredMetric(whole.stats[0][c].config, core_workers(args))
        for k, c in zip(keys, columns)
    }
    stats = [[row[c] for c in columns] for row in whole.stats]
    n_systems = len(whole.systems)
    # The scoring command's checks, messages and statuses.
    if args.paired_bs or args.paired_ar:
        if n_systems == 1:
            raise CliError("Paired tests require multiple input systems given to --input (-i).")
    elif n_systems > 1 and args.confidence:
        raise CliError("Use paired tests (--paired) for multiple systems.")
    args.input = None if whole.from_stdin else whole.systems  # how the systems are named
    with scoring_errors():
        write_lines(corpus_output(args, reporter, fmt, whole.systems, metrics, stats))
    return 0


__all__ = ["run_merge", "run_stats"]
