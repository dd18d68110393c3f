"""Running the command: read the input, score every system with every metric (corpus,
sentence-level, confidence intervals, paired tests, one score per group, ``--preset``) and
print the results."""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any, Optional, Protocol, Union

from bleuprint.cli.checks import GROUPS_OF_ONE_SYSTEM, check_usage, paired
from bleuprint.cli.compat import note_deprecated
from bleuprint.cli.errors import EXIT_USAGE, CliError, Reporter
from bleuprint.cli.input import InputStreams
from bleuprint.cli.metric_objects import core_workers, make_metrics, report_warnings
from bleuprint.cli.output import (
    colors_enabled,
    grouped_lines,
    output_format,
    sentence_lines,
    single_system_lines,
    table_lines,
    write_lines,
)
from bleuprint.cli.paired_output import paired_all_lines, paired_baseline_lines
from bleuprint.cli.test_sets import (
    detail_lines,
    kept_rows,
    reference_files,
    segment_filter,
    test_set_actions,
)
from bleuprint.errors import (
    BleuprintError,
    BleuprintWarning,
    InputDecodeError,
    InvalidOptionError,
)
from bleuprint.io.progress import reporter as progress_reporter
from bleuprint.io.progress import wanted_on_terminal
from bleuprint.io.streaming import GroupAccumulator, chunk_stats, default_keep
from bleuprint.metrics.cider import CIDEr, CIDErAccumulator
from bleuprint.metrics.stats import Stats, StatsAccumulator

#: Input above this size shows a progress line on a terminal (smaller runs end in a blink).
PROGRESS_BYTES = 4 << 20


class StatsFile(Protocol):
    """Where ``bleuprint stats`` puts the statistics instead of printing scores, and which
    segments it counts (made by :mod:`bleuprint.cli.shards`, which owns the file format)."""

    #: The segments ``[start, stop)`` to count of the input's ``total`` (``--shard``), or
    #: None for all of them.
    window: Optional[Callable[[int], tuple[int, int]]]

    def save(self, inputs: InputStreams, metrics: list[str], stats: list[list[Stats]]) -> None: ...


def run(args: argparse.Namespace, stats_file: Optional[StatsFile] = None) -> int:
    """Scores what the options ask for and writes it to stdout (with ``stats_file``: counts
    the statistics and saves them there); returns the exit status.

    Raises
    ------
    CliError
        Any expected failure (bad options, unreadable or mismatched input, a metric's error).
    """
    note_deprecated(args)
    reporter = Reporter(args.quiet)
    printed = test_set_actions(args, reporter)  # --list, --echo, ... print and quit
    if printed is not None:
        write_lines(printed)
        return 0
    if args.test_set is not None:
        args.ref_parts = reference_files(args)
        args.refs = [parts[0] for parts in args.ref_parts]
        if args.bleu_tokenize == "none":
            reporter.warning(
                "You are turning off BLEU's internal tokenizer presumably to supply your own "
                "tokenized files. Published numbers will not be comparable to other papers."
            )
    check_usage(args)
    keep = segment_filter(args)  # -ol/--subset
    if args.detail and args.format == "json":
        args.format = "text"  # as sacrebleu: the details would break the JSON
    fmt = output_format(args.format)
    # Validate the metric options before reading anything.
    make_metrics(args, reporter, report=False)

    window = stats_file.window if stats_file is not None else None
    inputs = InputStreams(args, reporter, window=window)
    n_systems = len(inputs.names)
    if args.sentence_level and n_systems > 1:
        raise CliError("only one system can be scored with -sl/--sentence-level", EXIT_USAGE)
    if inputs.group_name is not None and n_systems > 1:  # systems on standard input
        raise CliError(GROUPS_OF_ONE_SYSTEM, EXIT_USAGE)
    # sacrebleu's checks, messages and statuses.
    if args.sentence_level and (args.confidence or paired(args)):
        raise CliError("Statistical tests are unavailable in sentence-level mode.")
    if paired(args) and n_systems == 1:
        raise CliError("Paired tests require multiple input systems given to --input (-i).")
    if n_systems > 1 and args.confidence:
        raise CliError("Use paired tests (--paired) for multiple systems.")
    if args.preset not in (None, "sacrebleu"):  # sacrebleu's output is the ordinary one
        return _preset_output(args, inputs)

    out: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", BleuprintWarning)
        with scoring_errors():
            metrics = make_metrics(args, reporter)
            if inputs.group_name is not None:  # --group-by/--groups: one system
                groups = _grouped_statistics(args, inputs, metrics)
                out = grouped_output(args, fmt, inputs.group_name, metrics, groups)
            else:
                every_row = keep is not None or args.detail
                stats = _statistics(
                    args, inputs, metrics, keep_rows=stats_file is not None or every_row
                )
                all_rows = stats
                if keep is not None:
                    stats = [[kept_rows(s, keep, args) for s in system] for system in stats]
                if stats_file is not None:
                    stats_file.save(inputs, list(metrics), stats)
                elif args.sentence_level:
                    (metric,) = metrics.values()
                    sig = metric.get_signature().format(args.short)
                    out = sentence_lines(stats[0][0], args.width, args.score_only, sig)
                else:
                    out = corpus_output(args, reporter, fmt, inputs.names, metrics, stats)
                    if args.detail and n_systems == 1:
                        color = colors_enabled(args.no_color)
                        out += detail_lines(args, metrics, all_rows[0], color)
    report_warnings(reporter, caught)
    write_lines(out)
    return 0


@contextmanager
def scoring_errors() -> Iterator[None]:
    """The library's errors while scoring, as the command's messages and statuses."""
    try:
        yield
    except InvalidOptionError as e:
        # An option value the core refuses when it first uses it (e.g. -sv nan): usage.
        raise CliError(str(e), EXIT_USAGE) from None
    except InputDecodeError as e:  # a file block the core was given to split
        raise CliError(f"cannot decode {e}") from None
    except BleuprintError as e:
        raise CliError(str(e)) from None
    except MemoryError:
        raise CliError(
            "not enough memory for these inputs and options (fewer -cin/-pbsn/-parn "
            "samples, or fewer segments per run, need less)"
        ) from None


def _preset_output(args: argparse.Namespace, inputs: InputStreams) -> int:
    # Start-up time: the presets and the compat code of every tool they emulate load for
    # --preset only, not for every scoring run.
    from bleuprint.cli.preset_output import compat_output

    if len(inputs.names) != 1:
        raise CliError("--preset scores one system", EXIT_USAGE)
    refs, systems = inputs.read_all()  # the presets' scorers take whole lists
    try:
        write_lines(compat_output(args.preset, systems[0], refs))
    except BleuprintError as e:
        raise CliError(str(e)) from None
    return 0


def _statistics(
    args: argparse.Namespace, inputs: InputStreams, metrics: dict[str, Any], keep_rows: bool
) -> list[list[Stats]]:
    """Every system's statistics for every metric (in ``metrics`` order), counted a chunk at
    a time. Only their sums are kept where the output needs no more: per-segment rows are
    kept for sentence scores and significance tests, and for TER."""
    rows_needed = keep_rows or bool(args.sentence_level or args.confidence or paired(args))
    gathered = [[_accumulator(m, rows_needed) for m in metrics.values()] for _ in inputs.names]
    _count(args, inputs, metrics, gathered)
    stats = [
        [
            a.result() if a.segments or isinstance(m, CIDEr) else _no_rows(m, inputs)
            for a, m in zip(row, metrics.values())
        ]
        for row in gathered
    ]
    for metric, first in zip(metrics.values(), stats[0]):
        metric.num_refs = first.nrefs  # for the signatures
    return stats


def _accumulator(metric: Any, rows_needed: bool) -> Any:
    """Where a metric's statistics are gathered: CIDEr-D's captions are merged at the end
    (its document frequencies are the whole input's); other metrics keep rows, or only their
    sums where the output needs no more."""
    if isinstance(metric, CIDEr):
        return CIDErAccumulator()
    return StatsAccumulator("rows" if rows_needed or not _from_sums(metric) else "sum")


def _grouped_statistics(
    args: argparse.Namespace, inputs: InputStreams, metrics: dict[str, Any]
) -> dict[Any, list[Stats]]:
    """The one system's statistics for every group key (first-seen order) and metric (in
    ``metrics`` order), in one pass: running sums per group where the metric allows."""
    gathered = [GroupAccumulator(default_keep(m)) for m in metrics.values()]
    _count(args, inputs, metrics, [gathered])
    per_metric = [accumulator.result() for accumulator in gathered]
    for metric, accumulator in zip(metrics.values(), gathered):
        if accumulator.nrefs is not None:
            metric.num_refs = accumulator.nrefs  # for the signatures: "var" where it varies
    # Every metric saw the same keys in the same order.
    return {key: [groups[key] for groups in per_metric] for key in per_metric[0]}


def _count(
    args: argparse.Namespace,
    inputs: InputStreams,
    metrics: dict[str, Any],
    gathered: Sequence[Sequence[Union[StatsAccumulator, GroupAccumulator]]],
) -> None:
    """The loop over the input: each chunk of each system (``gathered[system]``) counted with
    every metric (``gathered[system][metric]``)."""
    report = progress_reporter(
        wanted_on_terminal(args.quiet or args.no_progress)
        and inputs.size_bytes() >= PROGRESS_BYTES,
        total=None,
        what="scoring",
        unit="lines",
    )
    with ExitStack() as stack:
        for metric in metrics.values():
            stack.enter_context(metric._warnings_summed())
        for chunk in inputs.chunks():
            for k, accumulators in enumerate(gathered):
                system = chunk.system(k)
                for accumulator, metric in zip(accumulators, metrics.values()):
                    stats = chunk_stats(metric, system)  # a refused cell names its table row
                    if isinstance(accumulator, GroupAccumulator):
                        accumulator.add(system, stats)
                    else:
                        accumulator.add(stats)
            if report is not None:
                report(gathered[0][0].segments, None)


def _no_rows(metric: Any, inputs: InputStreams) -> Stats:
    """The statistics of a shard with no segments (more shards than segments)."""
    import numpy as np

    rows = np.zeros((0, metric.config.width), dtype=np.int64)
    return Stats._trusted(rows, metric.config, len(inputs.ref_names))


def _from_sums(metric: Any) -> bool:
    return bool(getattr(metric.config, "corpus_from_sums", False))


def corpus_output(
    args: argparse.Namespace,
    reporter: Reporter,
    fmt: str,
    names: list[str],
    metrics: dict[str, Any],
    stats: list[list[Stats]],
) -> list[str]:
    """The corpus-level output of every system's statistics (``stats[system][metric]``, in
    ``metrics`` order): one system's scores (with -ci), a table, or the paired tests."""
    keys = list(metrics)
    order = sorted(metrics)
    color = colors_enabled(args.no_color)
    if len(names) == 1:
        n_bootstrap = args.confidence_n if args.confidence else 1
        results = []
        for key in order:
            metric = metrics[key]
            score = metric.score_stats(stats[0][keys.index(key)], n_bootstrap=n_bootstrap)
            sig = metric.get_signature().format(args.short if fmt != "json" else False)
            results.append(score.format(args.width, args.score_only, sig, fmt == "json"))
        return single_system_lines(results, fmt, color)

    reporter.info(f"Found {len(names)} systems.")
    if paired(args):
        # The metrics in -m order (sacrebleu's PairedTest keeps it; other modes sort).
        return _paired_lines(args, fmt, names, stats, color)
    columns: dict[str, list[str]] = {"System": list(names)}
    signatures: dict[str, str] = {}
    for system_stats in stats:
        for key in order:
            metric = metrics[key]
            score = metric.score_stats(system_stats[keys.index(key)])
            signatures[score.name] = metric.get_signature().format(args.short)
            columns.setdefault(score.name, []).append(score.format(args.width, True))
    return table_lines(columns, signatures, fmt, args.width, color)


def grouped_output(
    args: argparse.Namespace,
    fmt: str,
    group_name: str,
    metrics: dict[str, Any],
    groups: dict[Any, list[Stats]],
) -> list[str]:
    """One row per group (``groups[key][metric]``, metrics in ``metrics`` order), the metrics
    in sorted order as in the multi-system table."""
    keys = list(metrics)
    columns: dict[str, list[str]] = {}
    signatures: dict[str, str] = {}
    for group_stats in groups.values():
        for key in sorted(metrics):
            metric = metrics[key]
            score = metric.score_stats(group_stats[keys.index(key)])
            signatures[score.name] = metric.get_signature().format(args.short)
            columns.setdefault(score.name, []).append(score.format(args.width, True))
    color = colors_enabled(args.no_color)
    return grouped_lines(group_name, list(groups), columns, signatures, fmt, args.width, color)


def _paired_names(args: argparse.Namespace, names: list[str]) -> list[str]:
    """sacrebleu's names: ``Baseline: PATH`` (stdin: ``Baseline``, ``System 1``, ...). With
    --paired-all no system is a baseline, so names stay paths (stdin: ``System N``)."""
    if args.paired_all:
        return list(names)
    if args.input is None:
        return ["Baseline"] + [f"System {i + 1}" for i in range(len(names) - 1)]
    return [f"Baseline: {names[0]}", *names[1:]]


def _paired_lines(
    args: argparse.Namespace,
    fmt: str,
    names: list[str],
    stats: list[list[Stats]],
    color: bool,
) -> list[str]:
    named = list(zip(_paired_names(args, names), stats))
    test = "bs" if args.paired_bs else "ar"
    # Start-up time: the significance tests (statistics, fractions: ~10 ms of imports) load
    # for paired tests only.
    from bleuprint.significance.paired import paired_test_stats

    result = paired_test_stats(
        named,
        test=test,
        n_samples=args.paired_bs_n if test == "bs" else args.paired_ar_n,
        all_pairs=args.paired_all,
        correction=args.correction,
        workers=core_workers(args),
        progress=wanted_on_terminal(args.quiet or args.no_progress),
    )
    if args.paired_all:
        return paired_all_lines(result, fmt, args.width, args.short, color)
    return paired_baseline_lines(result, fmt, args.width, args.short, color)
