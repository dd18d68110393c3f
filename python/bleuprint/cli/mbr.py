"""``bleuprint mbr SAMPLES -n N``: minimum Bayes risk selection from a file of samples.

SAMPLES holds ``N`` consecutive samples per source, one per line (``-`` reads stdin); with
``--tsv`` lines of ``ID<TAB>sample`` (any number per ID); with ``--jsonl`` one JSON object per
source with a ``samples`` list. The output is one chosen sample per source (``ID<TAB>sample``
for ``--tsv``), or with ``--scores`` ``index<TAB>utility<TAB>sentence``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from bleuprint.analysis.mbr import METRIC_NAMES, make_metric, select
from bleuprint.cli.actions import add_flags
from bleuprint.cli.errors import library_errors
from bleuprint.cli.output import write_lines
from bleuprint.cli.parser import command_parser
from bleuprint.errors import BleuprintError
from bleuprint.io.files import read_lines
from bleuprint.io.progress import wanted_on_terminal


def mbr_parser() -> argparse.ArgumentParser:
    parser = command_parser(
        "mbr",
        "Minimum Bayes risk selection: for every source, print the sample with "
        "the best expected utility (the mean sentence score against the other samples; for "
        "TER the lowest). Every score equals sacrebleu's sentence_score.",
    )
    parser.add_argument(
        "samples", metavar="SAMPLES",
        help="Samples: N consecutive lines per source (- for stdin); ID<TAB>sample lines with "
        "--tsv; JSON lines with --jsonl.",
    )  # fmt: skip
    parser.add_argument("-n", type=int, metavar="N", help="Samples per source (plain text).")
    layout = parser.add_mutually_exclusive_group()
    layout.add_argument(
        "--tsv", action="store_true",
        help="SAMPLES holds ID<TAB>sample lines: the samples of one source share an ID (in "
        "any order, any number each). The output is ID<TAB>chosen sample, in order of first "
        "appearance.",
    )  # fmt: skip
    layout.add_argument(
        "--jsonl", action="store_true",
        help='SAMPLES holds one JSON object per source: {"samples": [...]} (and optionally '
        '"references": [...], pseudo-references to score against).',
    )  # fmt: skip
    parser.add_argument(
        "--metric", "-m", default="bleu", choices=METRIC_NAMES,
        help="Utility metric (default: %(default)s: sentence BLEU with effective order; rouge: "
        "the F-measure of rouge1).",
    )  # fmt: skip
    parser.add_argument("--tokenize", "-tok", help="BLEU's tokenizer (default: 13a).")
    add_flags(
        parser.add_argument,
        ("--lowercase", "-lc", "Lowercase first (BLEU, chrF; TER ignores case already)."),
        ("--exclude-self", "Leave each sample's score against itself out of its utility."),
        ("--scores", "Print index, utility and sentence, tab-separated, per source."),
    )
    parser.add_argument("--workers", type=int, default=-1, help="Threads (default: every core).")
    parser.add_argument(
        "--quiet", "-q", "--no-progress", action="store_true",
        help="No progress bar (shown on a terminal's stderr unless BLEUPRINT_NO_PROGRESS is set).",
    )  # fmt: skip
    parser.add_argument(
        "--encoding", "-e", default="utf-8", help="Input encoding (default: %(default)s)."
    )
    return parser


def _read(path: str, encoding: str) -> list[str]:
    if path == "-":
        return [line.rstrip("\n") for line in sys.stdin]
    return read_lines(path, encoding)


def _jsonl(lines: list[str]) -> tuple[list[list[str]], Any]:
    groups, refs = [], []
    for k, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            groups.append(list(record["samples"]))
            refs.append(record.get("references"))
        except (ValueError, KeyError, TypeError) as e:
            raise BleuprintError(
                f'line {k} is not a JSON object with a "samples" list ({e})'
            ) from None
    if any(r is None for r in refs):
        if any(r is not None for r in refs):
            raise BleuprintError('give "references" on every line or on none')
        return groups, None
    return groups, refs


def _tsv(lines: list[str]) -> tuple[list[str], list[list[str]]]:
    groups: dict[str, list[str]] = {}
    for k, line in enumerate(lines, 1):
        if not line.strip():
            continue
        key, tab, sample = line.partition("\t")
        if not tab:
            raise BleuprintError(f"line {k} has no tab: --tsv lines are ID<TAB>sample")
        groups.setdefault(key, []).append(sample)
    return list(groups), list(groups.values())


def run_mbr(argv: Sequence[str]) -> int:
    """``bleuprint mbr``: one chosen sample per source."""
    args = mbr_parser().parse_args(argv)
    with library_errors():
        write_lines(_selection(args))
    return 0


def _selection(args: argparse.Namespace) -> list[str]:
    lines = _read(args.samples, args.encoding)
    references = None
    ids: list[str] = []
    samples: list[Any]
    if (args.jsonl or args.tsv) and args.n is not None:
        raise BleuprintError("-n is for plain text: --tsv and --jsonl group the samples")
    n = None
    if args.jsonl:
        samples, references = _jsonl(lines)
    elif args.tsv:
        ids, samples = _tsv(lines)
    elif args.n is None:
        raise BleuprintError("give -n N (samples per source), --tsv or --jsonl")
    else:
        samples, n = lines, args.n
    options: dict[str, Any] = {"lowercase": args.lowercase, "workers": args.workers}
    if args.tokenize is not None:
        if args.metric != "bleu":
            raise BleuprintError("--tokenize applies to --metric bleu only")
        options["tokenize"] = args.tokenize
    if args.metric in ("ter", "rouge"):
        # TER ignores case by default, as sacrebleu's does; rouge-score's tokenizer lowercases.
        options.pop("lowercase")
    metric = make_metric(args.metric, **options)
    progress = wanted_on_terminal(args.quiet)
    chosen = select(
        samples, metric, n=n, references=references, exclude_self=args.exclude_self,
        progress=progress,
    )  # fmt: skip
    if args.scores:
        out = [f"{c.index}\t{c.score!r}\t{c.sentence}" for c in chosen]
    else:
        out = [c.sentence for c in chosen]
    return [f"{key}\t{line}" for key, line in zip(ids, out)] if ids else out
