"""The ``bleuprint`` entry point: which module runs the command, and how it ends (exit
statuses, a closed pipe, Ctrl-C)."""

from __future__ import annotations

import importlib
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Optional

from bleuprint.cli.errors import EXIT_INTERRUPTED, CliError, Reporter, fail
from bleuprint.cli.output import colors_enabled, write_text
from bleuprint.cli.parser import build_parser

#: What runs each subcommand, as ``"module:function"``: the function takes the arguments
#: after the subcommand's name, prints, and returns the exit status (or raises
#: :class:`CliError`). For start-up time, the module is imported only when its subcommand
#: runs, and this is the one place that does it: ``import bleuprint.cli``, ``bleuprint -V``
#: and ``--help`` load none of them (numpy, the test sets, the presets and compat code, the
#: report, MBR).
SUBCOMMANDS = {
    "stats": "bleuprint.cli.shards:run_stats",
    "merge": "bleuprint.cli.shards:run_merge",
    "report": "bleuprint.cli.report:run_report",
    "testset": "bleuprint.cli.testset_cache:run_testset",
    "mbr": "bleuprint.cli.mbr:run_mbr",
    "self-bleu": "bleuprint.cli.self_bleu:run_self_bleu",
    "caption": "bleuprint.cli.caption:run_caption",
    "explain": "bleuprint.cli.presets:run_explain",
    "compare-presets": "bleuprint.cli.presets:run_compare",
    "compare-implementations": "bleuprint.cli.presets:run_compare_implementations",
}
#: The scoring command (no subcommand): it takes the parsed options, so that ``-V`` and
#: ``--help`` end in the parser before it is imported.
SCORING = "bleuprint.cli.running:run"


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
    if arguments and arguments[0] in SUBCOMMANDS:
        run_subcommand = _load(SUBCOMMANDS[arguments[0]])
        try:
            return run_subcommand(arguments[1:])
        except CliError as e:
            fail(e.message, e.code)
    args = build_parser().parse_args(arguments)
    run = _load(SCORING)
    try:
        return run(args)
    except CliError as e:
        fail(e.message, e.code)
    finally:
        # sacrebleu's colorama writes a colour reset at exit when stdout is a terminal.
        if colors_enabled(args.no_color):
            write_text("\x1b[0m")


def _load(target: str) -> Callable[..., int]:
    """The function that ``"module:function"`` names, importing its module."""
    module, _, name = target.partition(":")
    function: Callable[..., int] = getattr(importlib.import_module(module), name)
    return function


__all__ = ["SCORING", "SUBCOMMANDS", "main"]
