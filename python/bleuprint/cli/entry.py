"""The ``bleuprint`` entry point: subcommands, the scoring command, and how it ends (exit
statuses, a closed pipe, Ctrl-C)."""

from __future__ import annotations

import signal
import sys
from collections.abc import Sequence
from typing import Optional

from bleuprint.cli.compat import SUBCOMMANDS, run_subcommand
from bleuprint.cli.errors import EXIT_ERROR, EXIT_INTERRUPTED, CliError, Reporter, fail
from bleuprint.cli.output import colors_enabled, write_lines, write_text
from bleuprint.cli.parser import build_parser
from bleuprint.errors import BleuprintError


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command line; returns the exit status (``argparse`` exits 2 on bad usage).

    Ctrl-C, whether it comes during scoring or while the results are printed, ends the
    command with one line on stderr and status 130, never a traceback.
    """
    try:
        return _main(argv)
    except KeyboardInterrupt:
        Reporter.write("interrupted")
        return EXIT_INTERRUPTED


def _main(argv: Optional[Sequence[str]]) -> int:
    # Like sacrebleu: die quietly on a closed pipe (`bleuprint ... | head`). Only as the
    # command itself (argv from sys.argv): a program calling main([...]) keeps Python's
    # SIGPIPE handling, or a write to a closed socket anywhere in it would kill it silently.
    if argv is None and hasattr(signal, "SIGPIPE"):  # not on Windows
        try:
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        except ValueError:  # not the main thread
            pass
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments and arguments[0] in ("stats", "merge"):
        from bleuprint.cli.shards import run_merge, run_stats

        try:
            return (run_stats if arguments[0] == "stats" else run_merge)(arguments[1:])
        except CliError as e:
            fail(e.message, e.code)
    if arguments and arguments[0] == "report":
        from bleuprint.cli.report import run_report

        try:
            return run_report(arguments[1:])
        except CliError as e:
            fail(e.message, e.code)
    if arguments and arguments[0] == "testset":
        from bleuprint.cli.test_sets import run_testset

        try:
            write_lines(run_testset(arguments[1:]))
        except CliError as e:
            fail(e.message, e.code)
        return 0
    if arguments and arguments[0] in (*SUBCOMMANDS, "mbr"):
        try:
            if arguments[0] == "mbr":
                from bleuprint.cli.mbr import run_mbr

                write_lines(run_mbr(arguments[1:]))
            else:
                write_lines(run_subcommand(arguments) or [])
        except (BleuprintError, OSError) as e:
            fail(str(e), EXIT_ERROR)
        return 0
    args = build_parser().parse_args(arguments)
    # Imported here: `-V` and `--help` end inside parse_args and need no scoring module.
    from bleuprint.cli.running import run

    try:
        return run(args)
    except CliError as e:
        fail(e.message, e.code)
    finally:
        # sacrebleu's colorama writes a colour reset at exit when stdout is a terminal.
        if colors_enabled(args.no_color):
            write_text("\x1b[0m")
