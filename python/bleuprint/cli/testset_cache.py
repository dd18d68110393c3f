"""``bleuprint testset import FILE [FILE ...]``: fills the built-in test sets' cache from
downloads made elsewhere (the test-set options of the scoring command are in
:mod:`bleuprint.cli.test_sets`)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from bleuprint.cli.errors import catching_test_set_errors
from bleuprint.cli.output import write_lines
from bleuprint.cli.parser import command_parser
from bleuprint.testsets.archive_import import import_archive


def testset_parser() -> argparse.ArgumentParser:
    parser = command_parser(
        "testset", "Manage the built-in test sets' cache ($SACREBLEU, else ~/.sacrebleu)."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    importing = commands.add_parser(
        "import",
        help="Copy downloaded test-set archives into the cache (for machines without network).",
        description="Copy test-set downloads made elsewhere into the cache, where a download "
        "would put them. Each file is recognised by its MD5 sum among the registry's (so a "
        "renamed file is found), else by its name for a download without a sum.",
    )
    importing.add_argument("files", nargs="+", metavar="FILE", help="downloaded archives")
    return parser


def run_testset(argv: Sequence[str]) -> int:
    """``bleuprint testset import``: copies each file where its download would go (each
    recognised by its MD5 sum) and prints a line per copy."""
    args = testset_parser().parse_args(argv)
    lines: list[str] = []
    for path in args.files:
        with catching_test_set_errors():
            lines.extend(str(copy) for copy in import_archive(Path(path)))
    write_lines(lines)
    return 0


__all__ = ["run_testset"]
