"""Running the command: read the input, score every system with every metric (corpus,
sentence-level, confidence intervals, paired tests, ``--preset``) and print the results."""

from __future__ import annotations

import argparse
import warnings
from typing import Any

from bleuprint.cli.checks import check_usage, paired
from bleuprint.cli.compat import compat_output, note_deprecated
from bleuprint.cli.errors import EXIT_USAGE, CliError, Reporter
from bleuprint.cli.input import check_lengths, read_references, read_systems
from bleuprint.cli.metric_objects import core_workers, make_metrics, report_warnings
from bleuprint.cli.output import (
    colors_enabled,
    output_format,
    sentence_lines,
    single_system_lines,
    table_lines,
    write_lines,
)
from bleuprint.cli.paired_output import paired_all_lines, paired_baseline_lines
from bleuprint.errors import BleuprintError, BleuprintWarning, InvalidOptionError
from bleuprint.progress import wanted_on_terminal


def run(args: argparse.Namespace) -> int:
    """Scores what the options ask for and writes it to stdout; returns the exit status.

    Raises
    ------
    CliError
        Any expected failure (bad options, unreadable or mismatched input, a metric's error).
    """
    note_deprecated(args)
    check_usage(args)
    fmt = output_format(args.format)
    reporter = Reporter(args.quiet)
    # Validate the metric options before reading anything.
    make_metrics(args, reporter, report=False)

    refs, ref_names = read_references(args)
    systems, names = read_systems(args, reporter)
    from_stdin = args.input is None
    if args.sentence_level and len(systems) > 1:
        raise CliError("only one system can be scored with -sl/--sentence-level", EXIT_USAGE)
    # sacrebleu's checks, messages and statuses.
    if args.sentence_level and (args.confidence or paired(args)):
        raise CliError("Statistical tests are unavailable in sentence-level mode.")
    if paired(args) and len(systems) == 1:
        raise CliError("Paired tests require multiple input systems given to --input (-i).")
    if len(systems) > 1 and args.confidence:
        raise CliError("Use paired tests (--paired) for multiple systems.")
    check_lengths(systems, names, refs, ref_names, from_stdin)
    if args.preset not in (None, "sacrebleu"):  # sacrebleu's output is the ordinary one
        return _preset_output(args, systems, refs)

    out: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", BleuprintWarning)
        try:
            if args.sentence_level:
                out = _sentence_level(args, reporter, systems[0], refs)
            else:
                out = _corpus_level(args, reporter, fmt, systems, names, refs)
        except InvalidOptionError as e:
            # An option value the core refuses when it first uses it (e.g. -sv nan): usage.
            raise CliError(str(e), EXIT_USAGE) from None
        except BleuprintError as e:
            raise CliError(str(e)) from None
        except MemoryError:
            raise CliError(
                "not enough memory for these inputs and options (fewer -cin/-pbsn/-parn "
                "samples, or fewer segments per run, need less)"
            ) from None
    report_warnings(reporter, caught)
    write_lines(out)
    return 0


def _preset_output(
    args: argparse.Namespace, systems: list[list[str]], refs: list[list[str]]
) -> int:
    if len(systems) != 1:
        raise CliError("--preset scores one system", EXIT_USAGE)
    try:
        write_lines(compat_output(args.preset, systems[0], refs))
    except BleuprintError as e:
        raise CliError(str(e)) from None
    return 0


def _sentence_level(
    args: argparse.Namespace, reporter: Reporter, system: list[str], refs: list[list[str]]
) -> list[str]:
    (metric,) = make_metrics(args, reporter).values()
    # One batch: every segment's statistics and score in the core.
    stats = metric.stats(system, refs)
    sig = metric.get_signature().format(args.short)
    return sentence_lines(stats, args.width, args.score_only, sig)


def _corpus_level(
    args: argparse.Namespace,
    reporter: Reporter,
    fmt: str,
    systems: list[list[str]],
    names: list[str],
    refs: list[list[str]],
) -> list[str]:
    # References are prepared once and reused for every system, as in sacrebleu.
    metrics = make_metrics(args, reporter, references=refs)
    order = sorted(metrics)
    color = colors_enabled(args.no_color)
    if len(systems) == 1:
        n_bootstrap = args.confidence_n if args.confidence else 1
        results = []
        for key in order:
            score = metrics[key].corpus_score(systems[0], n_bootstrap=n_bootstrap)
            sig = metrics[key].get_signature().format(args.short if fmt != "json" else False)
            results.append(score.format(args.width, args.score_only, sig, fmt == "json"))
        return single_system_lines(results, fmt, color)

    reporter.info(f"Found {len(systems)} systems.")
    if paired(args):
        # The metrics in -m order (sacrebleu's PairedTest keeps it; other modes sort).
        return _paired_lines(args, fmt, systems, names, list(metrics.values()), color)
    columns: dict[str, list[str]] = {"System": list(names)}
    signatures: dict[str, str] = {}
    for system in systems:
        for key in order:
            score = metrics[key].corpus_score(system)
            signatures[score.name] = metrics[key].get_signature().format(args.short)
            columns.setdefault(score.name, []).append(score.format(args.width, True))
    return table_lines(columns, signatures, fmt, args.width, color)


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
    systems: list[list[str]],
    names: list[str],
    metrics: list[Any],
    color: bool,
) -> list[str]:
    # The significance tests load for paired tests only (~40 ms of imports).
    from bleuprint.significance.paired import paired_test_stats

    names = _paired_names(args, names)
    named = [(name, [m.stats(system) for m in metrics]) for name, system in zip(names, systems)]
    test = "bs" if args.paired_bs else "ar"
    result = paired_test_stats(
        named,
        test=test,
        n_samples=args.paired_bs_n if test == "bs" else args.paired_ar_n,
        all_pairs=args.paired_all,
        correction=args.correction,
        workers=core_workers(args),
        progress=wanted_on_terminal(args.quiet),
    )
    if args.paired_all:
        return paired_all_lines(result, fmt, args.width, args.short, color)
    return paired_baseline_lines(result, fmt, args.width, args.short, color)
