"""Built-in test sets on the command line (``-t``, ``-l``, ``--echo``, ``--list``,
``--download``, ``--citation``, ``-ol``, ``--subset``, ``-d``), with sacrebleu's checks, order
and messages; the data and the cache are :mod:`bleuprint.testsets`'.

A test set's references are its cached text files, read like REF files. ``-ol``/``--subset``
keep some segments: every segment is counted, then the kept rows of the statistics are
scored, so ``-d`` scores each original language and domain from the same rows.
"""

from __future__ import annotations

import argparse
from types import ModuleType
from typing import TYPE_CHECKING, Any, Optional

from bleuprint.cli.errors import EXIT_USAGE, CliError, Reporter, catching_test_set_errors
from bleuprint.cli.output import colored

if TYPE_CHECKING:
    from bleuprint.metrics.stats import Stats


def _testsets() -> ModuleType:
    """:mod:`bleuprint.testsets`, imported when an option names a test set."""
    # Start-up time: the test sets (tarfile, hashlib, xml: about 12 ms of imports) load for
    # the options that use them, not for every scoring run.
    from bleuprint import testsets

    return testsets


def _names(args: argparse.Namespace) -> list[str]:
    return str(args.test_set).split(",")


def test_set_actions(args: argparse.Namespace, reporter: Reporter) -> Optional[list[str]]:
    """The lines of an option that prints and quits (``--download``, ``--list``,
    ``--citation``, ``--echo``), or None; checks ``-t``/``-l``/REF files as sacrebleu does,
    in its order. Raises :class:`CliError` for a bad combination."""
    with catching_test_set_errors():
        if args.download:
            _prepare(args, args.download, args.langpair)
            _testsets().download_test_set(args.download, args.langpair)
            return []
        if args.list:
            return _list_lines(args)
        if args.citation:
            if not args.test_set:
                raise CliError("I need a test set (-t).")
            lines = []
            for name in _names(args):
                citation = _testsets().DATASETS[_known(name)].citation
                if citation is None:
                    reporter.warning(f"No citation found for {name}")
                else:
                    lines.append(citation)
            return lines
        if args.test_set is None:
            if args.echo:
                raise CliError("--echo requires a test set (-t) and a language pair (-l)")
            return None
        if args.num_refs != 1:
            raise CliError(
                "-nr/--num-refs reads tab-separated references from your own reference file; "
                "it cannot be combined with -t (a test set brings its references)"
            )
        for name in _names(args):
            _known(name)
        if args.refs:
            raise CliError(
                "I need exactly one of (a) a predefined test set (-t) or (b) a list of references"
            )
        if args.langpair is None:
            raise CliError(
                "I need a language pair (-l). Use --list to see available language pairs for "
                "this test set."
            )
        for name in _names(args):
            pairs = _testsets().get_langpairs_for_testset(name)
            if args.langpair not in pairs:
                raise CliError(
                    f"No such language pair {args.langpair!r}; the language pairs of {name!r} "
                    f"are: {', '.join(pairs)}"
                )
        if args.echo:
            return [
                line
                for name in _names(args)
                for line in _testsets().echo_lines(
                    name, args.langpair, args.echo, args.origlang, args.subset
                )
            ]
    return None


def _prepare(args: argparse.Namespace, name: str, langpair: Optional[str]) -> None:
    """Downloads and processes what the test set needs (every pair without ``langpair``),
    with a progress bar on a terminal unless -q or --no-progress."""
    entry = _testsets().registry.lookup(name)
    progress = False if (args.quiet or getattr(args, "no_progress", False)) else None
    for pair in [langpair] if langpair else list(entry.langpairs):
        _testsets().cache.prepare(entry, pair, progress=progress)


def _known(name: str) -> str:
    if name not in _testsets().DATASETS:
        raise CliError(f"Unknown test set {name!r}: run with --list to see the available test sets")
    return name


def _list_lines(args: argparse.Namespace) -> list[str]:
    testsets = _testsets()
    if args.test_set:
        name = _known(args.test_set)
        pairs = [args.langpair] if args.langpair else testsets.get_langpairs_for_testset(name)
        return [f"{pair}: {', '.join(testsets.DATASETS[name].fieldnames(pair))}" for pair in pairs]
    if args.langpair:
        lines = [f"The available test sets for {args.langpair} are:"]
        names = testsets.get_available_testsets_for_langpair(args.langpair)
    else:
        lines = ["The available test sets are:"]
        names = testsets.get_available_testsets()
    for name in sorted(names):
        description = (testsets.DATASETS[name].description or "").strip()
        lines.append(f"{name:<30}: {description}")
    return lines


def reference_files(args: argparse.Namespace) -> list[list[str]]:
    """Per reference stream, its cached text file of each test set in ``-t`` (concatenated in
    that order)."""
    with catching_test_set_errors():
        for name in _names(args):
            _prepare(args, name, args.langpair)
        per_set = [_testsets().get_reference_files(name, args.langpair) for name in _names(args)]
    counts = {len(files) for files in per_set}
    if counts == {0}:
        raise CliError(f"No references found for test set {args.test_set}/{args.langpair}.")
    if len(counts) != 1:
        raise CliError(
            f"the test sets {args.test_set} have different numbers of references for "
            f"{args.langpair}: score them separately"
        )
    return [list(files) for files in zip(*per_set)]


def segment_filter(args: argparse.Namespace) -> Optional[list[bool]]:
    """Which segments ``-ol``/``--subset`` keep (None: all of them)."""
    if args.origlang is None and args.subset is None:
        return None
    if args.test_set is None or args.langpair is None:
        raise CliError(
            "Filtering for --origlang or --subset needs a test (-t) and a language pair (-l).",
            EXIT_USAGE,
        )
    with catching_test_set_errors():
        return _testsets().keep_flags(args.test_set, args.langpair, args.origlang, args.subset)


def kept_rows(stats: Stats, keep: list[bool], args: argparse.Namespace) -> Stats:
    """The rows of the kept segments; none kept is sacrebleu's error."""
    import numpy as np

    mask = np.asarray(keep, dtype=bool)
    if len(mask) != len(stats):
        raise CliError(
            f"the system output has {len(stats)} lines, but test set {args.test_set} "
            f"({args.langpair}) has {len(mask)} segments"
        )
    if not mask.any():
        what = [f"origlang={args.origlang}"] if args.origlang else []
        what += [f"subset={args.subset}"] if args.subset else []
        raise CliError(f"Test set {args.test_set!r} contains no sentence with {' '.join(what)}")
    return stats[mask]


def detail_lines(
    args: argparse.Namespace, metrics: dict[str, Any], rows: list[Stats], color: bool
) -> list[str]:
    """sacrebleu's ``-d``: each metric's score for every original language, overall and per
    domain (or country), from the rows of every segment (``rows`` in ``metrics`` order)."""
    # Start-up time, as _testsets: only -d scores the subsets.
    from bleuprint.testsets import details

    with catching_test_set_errors():
        results = details.subset_scores(
            list(metrics.values()),
            rows,
            args.test_set,
            args.langpair,
            [args.origlang] if args.origlang else None,
            args.subset,
        )
    yellow = "33"
    return details.detail_lines(results, args.width, lambda label: colored(color, label, yellow))


__all__ = [
    "detail_lines",
    "kept_rows",
    "reference_files",
    "segment_filter",
    "test_set_actions",
]
