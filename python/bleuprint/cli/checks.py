"""Checks of the parsed options, before anything is read or scored: unsupported options,
combinations, and the range of every numeric option (so a huge value is a one-line usage
error, never a long wait, a ``MemoryError`` or a crash)."""

from __future__ import annotations

import argparse
import codecs
from collections.abc import Callable
from typing import Any

from bleuprint._core import MAX_CHRF_ORDER
from bleuprint.cli.errors import EXIT_USAGE, PROG, CliError
from bleuprint.cli.parser import REPEATED_INPUT
from bleuprint.errors import InvalidOptionError
from bleuprint.resampling.limits import MAX_SAMPLES
from bleuprint.resampling.seed import resolve_seed

# (dest, option shown in the message, value when the option was not given)
_UNSUPPORTED: tuple[tuple[str, str, Any], ...] = (
    ("citation", "--citation/--cite", False),
    ("list", "--list", False),
    ("test_set", "-t/--test-set", None),
    ("origlang", "-ol/--origlang", None),
    ("subset", "--subset", None),
    ("download", "--download", None),
    ("echo", "--echo", None),
    ("detail", "-d/--detail", False),
)

#: Decimal places: a float carries 17 significant digits, so more only print noise.
MAX_WIDTH = 100
#: References per line with -nr.
MAX_NUM_REFS = 10_000

# (dest, option, smallest, largest, what the value counts)
_RANGES: tuple[tuple[str, str, int, int, str], ...] = (
    ("num_refs", "-nr/--num-refs", 1, MAX_NUM_REFS, "references per line"),
    ("width", "-w/--width", 0, MAX_WIDTH, "decimal places"),
    ("chrf_char_order", "-cc/--chrf-char-order", 0, MAX_CHRF_ORDER, "an n-gram order"),
    ("chrf_word_order", "-cw/--chrf-word-order", 0, MAX_CHRF_ORDER, "an n-gram order"),
    ("confidence_n", "-cin/--confidence-n", 1, MAX_SAMPLES, "a number of samples"),
    ("paired_bs_n", "-pbsn/--paired-bs-n", 1, MAX_SAMPLES, "a number of samples"),
    ("paired_ar_n", "-parn/--paired-ar-n", 1, MAX_SAMPLES, "a number of samples"),
)


def check_usage(args: argparse.Namespace) -> None:
    """Raises :class:`CliError` (exit status 2) for the first problem with the options."""
    for dest, option, unset in _UNSUPPORTED:
        if getattr(args, dest) != unset:
            raise CliError(f"{option} is not supported yet", EXIT_USAGE)
    if getattr(args, REPEATED_INPUT, False):
        raise CliError(
            "-i/--input is given more than once, and only the last one's files would be "
            "scored: give every system after one -i, e.g. '-i a.txt b.txt'",
            EXIT_USAGE,
        )
    _check_ranges(args)
    if args.sentence_level and len(args.metrics) > 1:
        raise CliError("only one metric can be used with -sl/--sentence-level", EXIT_USAGE)
    if not args.refs:
        raise CliError(
            "no reference files: give them before -i/--input, e.g. "
            f"'{PROG} ref.txt -i hyp.txt' (built-in test sets, -t, are not supported yet)",
            EXIT_USAGE,
        )
    if args.num_refs != 1 and len(args.refs) > 1:
        raise CliError(
            "-nr/--num-refs reads several tab-separated references from one file; it cannot "
            f"be combined with several reference files (got {len(args.refs)})",
            EXIT_USAGE,
        )
    if args.input is not None and not args.input:
        raise CliError("-i/--input needs at least one file", EXIT_USAGE)
    if args.sentence_level and args.input is not None and len(args.input) > 1:
        raise CliError("only one system can be scored with -sl/--sentence-level", EXIT_USAGE)
    if args.langpair is not None and "-" not in args.langpair:
        raise CliError(
            f"-l/--language-pair must look like SRC-TRG (e.g. en-de), got {args.langpair!r}",
            EXIT_USAGE,
        )
    try:
        codecs.lookup(args.encoding)
    except LookupError:
        raise CliError(f"unknown encoding {args.encoding!r} (-e/--encoding)", EXIT_USAGE) from None
    _check_statistics_usage(args)
    _check_preset_usage(args)


def check_output_usage(args: argparse.Namespace) -> None:
    """The checks of ``bleuprint merge``'s options: those of the scores it prints."""
    _check_ranges(args)
    _check_statistics_usage(args)


def paired(args: argparse.Namespace) -> bool:
    """Whether a paired test (-pbs or -par) is asked for."""
    return bool(args.paired_bs or args.paired_ar)


def _check_ranges(args: argparse.Namespace) -> None:
    # Sample counts must be positive too: sacrebleu silently uses its defaults for 0 and
    # fails later on negative numbers.
    for dest, option, low, high, what in _RANGES:
        if not hasattr(args, dest):  # `bleuprint merge` has only the output's options
            continue
        value = getattr(args, dest)
        if not low <= value <= high:
            raise CliError(
                f"{option} must be from {low} to {high:,} ({what}), got {value}", EXIT_USAGE
            )
    if args.paired_jobs is not None and args.paired_jobs < 0:
        raise CliError(
            f"-j/--paired-jobs must be 0 (every core) or more, got {args.paired_jobs}", EXIT_USAGE
        )


# (option, whether it is given): what an upstream tool's output under --preset would ignore.
_NOT_WITH_PRESET: tuple[tuple[str, Callable[[argparse.Namespace], bool]], ...] = (
    ("-m/--metrics", lambda a: a.metrics != ["bleu"]),
    ("-sl/--sentence-level", lambda a: a.sentence_level),
    ("-ci/--confidence", lambda a: a.confidence),
    ("-pbs/--paired-bs, -par/--paired-ar", paired),
    ("-tok/--tokenize", lambda a: a.bleu_tokenize is not None),
    ("-s/--smooth-method", lambda a: a.bleu_smooth_method != "exp"),
    ("-sv/--smooth-value", lambda a: a.bleu_smooth_value is not None),
    ("-lc/--lowercase", lambda a: a.bleu_lowercase),
    ("--normalize", lambda a: a.bleu_normalize is not None),
    ("--spm-model", lambda a: a.bleu_spm_model is not None),
)


def _check_preset_usage(args: argparse.Namespace) -> None:
    """A preset other than sacrebleu prints its tool's corpus BLEU with the tool's own
    settings, so an option it would silently ignore is refused."""
    if args.preset in (None, "sacrebleu"):
        return
    for option, given in _NOT_WITH_PRESET:
        if given(args):
            raise CliError(
                f"--preset {args.preset} prints that tool's own corpus BLEU, with its own "
                f"settings: {option} cannot be combined with it (drop one of them)",
                EXIT_USAGE,
            )


def _check_statistics_usage(args: argparse.Namespace) -> None:
    """The combinations of -ci and the paired tests' options, and the seed."""
    if not paired(args):
        for given, option in ((args.paired_all, "--paired-all"), (args.correction, "--correction")):
            if given:
                raise CliError(
                    f"{option} needs a paired test: add -pbs/--paired-bs or -par/--paired-ar",
                    EXIT_USAGE,
                )
    if args.confidence or paired(args):
        try:
            resolve_seed()  # a bad seed is a usage error before any scoring starts
        except InvalidOptionError as e:
            raise CliError(str(e), EXIT_USAGE) from None
