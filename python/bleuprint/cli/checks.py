"""Checks of the parsed options, before anything is read or scored: unsupported options,
combinations, and the range of every numeric option (so a huge value is a one-line usage
error, never a long wait, a ``MemoryError`` or a crash)."""

from __future__ import annotations

import argparse
import codecs
from collections.abc import Callable

from bleuprint.cli.actions import REPEATED_INPUT
from bleuprint.cli.errors import EXIT_USAGE, PROG, CliError
from bleuprint.errors import InvalidOptionError
from bleuprint.metrics.chrf import MAX_ORDER as MAX_CHRF_ORDER
from bleuprint.significance.limits import MAX_SAMPLES
from bleuprint.significance.seed import resolve_seed

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
    if getattr(args, REPEATED_INPUT, False):
        raise CliError(
            "-i/--input is given more than once, and only the last one's files would be "
            "scored: give every system after one -i, e.g. '-i a.txt b.txt'",
            EXIT_USAGE,
        )
    _check_ranges(args)
    if args.sentence_level and len(args.metrics) > 1:
        raise CliError("only one metric can be used with -sl/--sentence-level", EXIT_USAGE)
    if not args.refs and not table_input(args):
        raise CliError(
            "no reference files: give them before -i/--input, e.g. "
            f"'{PROG} ref.txt -i hyp.txt', or name a built-in test set: "
            f"'{PROG} -t wmt22 -l en-de -i hyp.txt' (--list shows them)",
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
    _check_table_usage(args)
    _check_cider_usage(args)


def check_output_usage(args: argparse.Namespace) -> None:
    """The checks of ``bleuprint merge``'s options: those of the scores it prints."""
    _check_ranges(args)
    _check_statistics_usage(args)


def paired(args: argparse.Namespace) -> bool:
    """Whether a paired test (-pbs or -par) is asked for."""
    return bool(args.paired_bs or args.paired_ar)


def table_input(args: argparse.Namespace) -> bool:
    """Whether ``-i`` names a table: --hyp-column, --ref-column or --group-by is given."""
    return any(
        getattr(args, dest, None) is not None for dest in ("hyp_column", "ref_column", "group_by")
    )


def grouped(args: argparse.Namespace) -> bool:
    """Whether one score per group is asked for (--group-by, or --groups for text input)."""
    return getattr(args, "group_by", None) is not None or getattr(args, "groups", None) is not None


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


def _check_cider_usage(args: argparse.Namespace) -> None:
    """What -m cider cannot do on this command: an image's CIDEr-D depends on every image's
    references, so its statistics are the captions, not rows that paired tests, groups and
    per-language details split."""
    if "cider" not in (args.metrics or ()):
        return
    for given, option, instead in (
        (paired(args), "paired tests (-pbs/-par)",
         "'bleuprint caption --paired-bs' compares COCO results files"),
        (grouped(args), "--group-by/--groups", "score each group's files on their own"),
        (getattr(args, "detail", False), "-d/--detail", "score each subset with -ol/--subset"),
    ):  # fmt: skip
        if given:
            raise CliError(f"-m cider has no {option}: {instead}", EXIT_USAGE)


def _check_table_usage(args: argparse.Namespace) -> None:
    """Where a table's systems, references and groups come from, and what grouped scores
    cannot be combined with."""
    if args.groups is not None and table_input(args):
        raise CliError(
            "--groups FILE gives the group keys of text input; a table's groups come from its "
            "own column: use --group-by COL instead",
            EXIT_USAGE,
        )
    if table_input(args):
        if not args.input:
            raise CliError(
                "--hyp-column, --ref-column and --group-by read a table file: give it with "
                f"-i, e.g. '{PROG} -i outputs.jsonl --ref-column ref'",
                EXIT_USAGE,
            )
        if len(args.input) > 1:
            raise CliError(
                f"-i names one table with --hyp-column/--ref-column/--group-by (got "
                f"{len(args.input)} files): several systems are several --hyp-column columns",
                EXIT_USAGE,
            )
        if args.ref_column is not None and args.refs:
            raise CliError(
                "references come either from REF files or from --ref-column, not both: drop "
                "one of them",
                EXIT_USAGE,
            )
        if args.ref_column is not None and args.num_refs != 1:
            raise CliError(
                "-nr/--num-refs splits a reference file's lines; with --ref-column give every "
                "reference column (or one column of lists) instead",
                EXIT_USAGE,
            )
        repeated = sorted({c for c in args.hyp_column or () if args.hyp_column.count(c) > 1})
        if repeated:
            raise CliError(
                f"--hyp-column names {', '.join(repr(c) for c in repeated)} more than once; "
                "every system needs its own column",
                EXIT_USAGE,
            )
    if args.preset not in (None, "sacrebleu") and args.ref_column is not None:
        raise CliError(
            f"--preset {args.preset} scores reference files (or -nr fields), one reference "
            "per stream on every line: give the references as REF files, not --ref-column",
            EXIT_USAGE,
        )
    if grouped(args):
        if len(args.hyp_column or ()) > 1 or (args.input is not None and len(args.input) > 1):
            raise CliError(GROUPS_OF_ONE_SYSTEM, EXIT_USAGE)
        for given, option in (
            (args.sentence_level, "-sl/--sentence-level"),
            (args.confidence, "-ci/--confidence (per-group intervals are not supported)"),
            (paired(args), "-pbs/--paired-bs or -par/--paired-ar"),
            (args.preset not in (None, "sacrebleu"), "--preset"),
        ):
            if given:
                raise CliError(
                    f"--group-by/--groups prints one corpus score per group: it cannot be "
                    f"combined with {option}",
                    EXIT_USAGE,
                )


#: Grouped scores of several systems would be a table of tables.
GROUPS_OF_ONE_SYSTEM = (
    "--group-by/--groups scores one system: give one -i file or one --hyp-column (score "
    "every system in its own run)"
)
