"""``bleuprint report``: one self-contained HTML page (and optionally JSON) analysing
systems against references or a built-in test set."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bleuprint import testsets
from bleuprint.analysis.report import report
from bleuprint.analysis.report.inputs import (
    DEFAULT_METRICS,
    METRIC_NAMES,
    read_meta_tsv,
    read_train_counts,
)
from bleuprint.cli.errors import EXIT_USAGE, PROG, CliError, library_errors
from bleuprint.cli.parser import command_parser
from bleuprint.io.files import read_lines

USAGE = (
    f"{PROG} report [REF ...] -i SYS [SYS ...] [-t TESTSET -l PAIR] [--src SRC] "
    "[-m {bleu,chrf,ter} ...] [--names NAME ...] [--train-vocab FILE] [--meta TSV] "
    "[-o report.html] [--json FILE]"
)


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser(
        "report",
        "Write a self-contained HTML report (scores with confidence intervals, "
        "all-pairs significance, buckets, word accuracy, metadata, characteristic n-grams, "
        "examples, plots).",
        usage=USAGE,
    )
    parser.add_argument("refs", nargs="*", metavar="REF", help="reference files")
    parser.add_argument(
        "-i",
        "--input",
        nargs="+",
        required=True,
        metavar="SYS",
        help="system output files, one segment per line",
    )
    parser.add_argument("-t", "--test-set", help="a built-in test set instead of REF files")
    parser.add_argument("-l", "--language-pair", dest="langpair", help="its language pair")
    parser.add_argument("--src", help="source file (shown with examples)")
    parser.add_argument(
        "-m",
        "--metrics",
        nargs="+",
        default=list(DEFAULT_METRICS),
        choices=list(METRIC_NAMES),
        help="metrics; the first orders systems",
    )
    parser.add_argument("--names", nargs="+", help="system names (default: file names)")
    parser.add_argument(
        "--train-vocab",
        metavar="FILE",
        help="training corpus or word<TAB>count file for word-frequency buckets",
    )
    parser.add_argument(
        "--meta",
        metavar="TSV",
        help="per-segment metadata: a header naming docid, origlang, domain",
    )
    parser.add_argument(
        "-o",
        "--output",
        default="report.html",
        metavar="FILE",
        help="HTML file to write (default report.html; '-' for none)",
    )
    parser.add_argument(
        "--json", metavar="FILE", help="also write the analyses as JSON ('-': stdout)"
    )
    parser.add_argument(
        "--n-bootstrap",
        type=int,
        default=1000,
        metavar="N",
        help="bootstrap resamples (default 1000)",
    )
    return parser


def _inputs(args: argparse.Namespace) -> dict[str, Any]:
    names = args.names or [Path(p).name for p in args.input]
    if len(names) != len(args.input):
        raise CliError(
            f"--names gives {len(names)} names for {len(args.input)} systems", EXIT_USAGE
        )
    if len(set(names)) != len(names):
        raise CliError("system names must be distinct: pass --names", EXIT_USAGE)
    meta: dict[str, Any] = {}
    sources = None
    test_set = None
    if args.test_set:
        if args.refs:
            raise CliError("give REF files or -t/-l, not both", EXIT_USAGE)
        if not args.langpair:
            raise CliError("-t needs a language pair (-l)", EXIT_USAGE)
        found = testsets.get(args.test_set, args.langpair)
        references = found.references
        sources = found.sources
        meta = {"docid": found.docids, "origlang": found.origlangs, "domain": found.domains}
        test_set = f"{args.test_set} {args.langpair}"
    elif args.refs:
        references = [read_lines(p) for p in args.refs]
    else:
        raise CliError("give reference files or a test set (-t TESTSET -l PAIR)", EXIT_USAGE)
    if args.src:
        sources = read_lines(args.src)
    if args.meta:
        meta.update(read_meta_tsv(Path(args.meta).read_text(encoding="utf-8")))
    train = None
    if args.train_vocab:
        train = read_train_counts(Path(args.train_vocab).read_text(encoding="utf-8"))
    return {
        "systems": {n: read_lines(p) for n, p in zip(names, args.input)},
        "references": references,
        "sources": sources,
        "meta": {k: v for k, v in meta.items() if v is not None},
        "metrics": args.metrics,
        "train_counts": train,
        "n_bootstrap": args.n_bootstrap,
        "test_set": test_set,
    }


def _write(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
        return
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def run_report(argv: Sequence[str]) -> int:
    """Runs ``bleuprint report``; raises :class:`CliError` for bad usage or input."""
    args = build_parser().parse_args(list(argv))
    with library_errors():
        result = report(**_inputs(args))
        if args.json:
            _write(args.json, result.to_json() + "\n")
        if args.output != "-":
            _write(args.output, result.to_html())
    return 0
