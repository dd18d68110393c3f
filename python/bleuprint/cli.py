"""The ``bleuprint`` command: sacrebleu's command line, with identical output.

Every BLEU, chrF and TER invocation of ``sacrebleu`` 2.6.0 works unchanged and prints the same
bytes on stdout, except that signatures say ``version:bleuprint-X`` instead of
``version:2.6.0``; that includes confidence intervals (``-ci``) and paired significance tests
(``-pbs``, ``-par``). ``-m wer cer`` adds the WER family, ``--paired-all`` compares every pair
of systems with a multiple-comparison correction (``--correction``). Options that belong to
features bleuprint does not have yet (built-in test sets) are accepted by the parser, so the
usage text is familiar, and exit with status 2 and a one-line message when used. See
``docs/cli.md``.

Only ``argparse`` and the already-loaded package are imported up front, so ``bleuprint -V`` is
quick; numpy (for statistics) and tabulate (for multi-system tables) load when needed.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, Optional

from bleuprint._core import __version__
from bleuprint.cli_compat import COMPAT_MODES, SUBCOMMANDS, compat_output, run_subcommand
from bleuprint.cli_output import (
    paired_all_lines,
    paired_baseline_lines,
    sentence_lines,
    single_system_lines,
    table_lines,
)
from bleuprint.metrics.bleu import SMOOTH_DEFAULTS
from bleuprint.metrics.chrf import CHRF
from bleuprint.tokenizers import TOKENIZERS

PROG = "bleuprint"

#: ``-m`` names; output follows the sorted upper-case names, as in sacrebleu.
METRIC_CHOICES = ("bleu", "chrf", "ter", "wer", "cer")

#: Output formats; ``latex`` only changes multi-system tables (as in sacrebleu).
OUTPUT_FORMATS = ("json", "text", "latex")

#: Environment variables that override ``-f/--format``, strongest first.
FORMAT_ENV_VARS = ("BLEUPRINT_FORMAT", "SACREBLEU_FORMAT")

#: Defaults of -cin, -pbsn and -parn (sacrebleu's).
DEFAULT_CONFIDENCE_N = 1000
DEFAULT_PAIRED_N = {"bs": 1000, "ar": 10000}
#: --correction choices (bleuprint.significance.CORRECTIONS, without importing numpy).
CORRECTION_CHOICES = ("holm", "bonferroni", "none")

# Exit statuses.
EXIT_ERROR = 1  # unreadable input, line count mismatch, empty system
EXIT_USAGE = 2  # bad or unsupported options (argparse uses 2 as well)
EXIT_FIELDS = 17  # a tab-separated line with the wrong number of fields (as sacrebleu)

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

_DESCRIPTION = f"""\
{PROG} {__version__}: exact, fast BLEU, chrF, TER and WER. Scores are bit-identical to
sacrebleu 2.6.0 and every sacrebleu BLEU, chrF and TER invocation works unchanged.

Quick usage:
    {PROG} ref.en [ref2.en ...] -i hyp.en          one system, one or more references
    cat hyp.en | {PROG} ref.en                     the system output on standard input
    {PROG} ref.en -i sys1.en sys2.en -f text       several systems: a table
    {PROG} ref.en -i hyp.en -m bleu chrf ter       several metrics
    {PROG} ref.en -i hyp.en -ci -f text            a bootstrap confidence interval
    {PROG} ref.en -i base.en sys1.en -pbs -f text  paired test against the baseline (first)"""

_EPILOG = f"""\
input rules:
  Files: only \\n ends a line, each line is rstrip()-ed (CRLF files work), a final newline
  adds no empty line, a leading UTF-8 byte order mark is removed. *.gz files are
  decompressed. Standard input uses universal newlines; tab-separated fields on standard
  input are separate systems.

environment:
  BLEUPRINT_FORMAT, SACREBLEU_FORMAT   override -f/--format (json, text or latex)
  NO_COLOR                             disable colours, like -nc
  BLEUPRINT_NUM_THREADS                threads for scoring (default: all cores)
  SACREBLEU_SEED, BLEUPRINT_SEED       seed of -ci, -pbs and -par: an integer (default
                                       12345), or None for a different draw every run

exit status:
  0   success
  1   unreadable or undecodable input, different line counts, empty system output;
      a statistical option refused as sacrebleu refuses it (e.g. -ci with two systems)
  2   bad usage (e.g. -pbsn 0, an invalid SACREBLEU_SEED), or an option that {PROG}
      does not support yet
  17  a tab-separated line with the wrong number of fields (-nr, or systems on stdin)"""


class CliError(Exception):
    """An expected failure: one line on stderr, then ``sys.exit(code)``."""

    def __init__(self, message: str, code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def _not_yet(what: str) -> str:
    return f"{what} (not supported yet)"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser, with sacrebleu's options, names and defaults."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add = parser.add_argument

    # Test sets: accepted for familiarity; none of them is supported yet.
    add(
        "--citation",
        "--cite",
        action="store_true",
        help=_not_yet("Print the bibtex citation of a test set and quit."),
    )
    add("--list", action="store_true", help=_not_yet("List the available test sets and quit."))
    add(
        "--test-set",
        "-t",
        default=None,
        help=_not_yet("A built-in test set, or several separated by commas."),
    )
    add(
        "--language-pair", "-l", dest="langpair", default=None, metavar="SRC-TRG",
        help="Source-target language pair, e.g. en-de. With your own reference files it only "
        "sets the target language, which picks the default tokenizer (zh, ja-mecab, ko-mecab; "
        "13a otherwise).",
    )  # fmt: skip
    add(
        "--origlang",
        "-ol",
        default=None,
        help=_not_yet("Score only segments of one original language (needs -t)."),
    )
    add(
        "--subset",
        default=None,
        help=_not_yet("Score only segments whose document annotation matches a regex (needs -t)."),
    )
    add(
        "--download",
        default=None,
        metavar="TEST_SET",
        help=_not_yet("Download a test set and quit."),
    )
    add(
        "--echo",
        nargs="+",
        default=None,
        metavar="FIELD",
        help=_not_yet("Print fields of a test set (src, ref, ...) and quit."),
    )

    # Inputs.
    add(
        "--input", "-i", nargs="*", default=None, metavar="HYP",
        help="System output file(s). Several files are several systems, scored in a table "
        "(each named by its path). Without -i the system output is read from standard input, "
        "where tab-separated fields are separate systems.",
    )  # fmt: skip
    add(
        "refs", nargs="*", default=[], metavar="REF",
        help="Reference file(s), one segment per line; several files are several references "
        "per segment. Give them before -i/--input, which takes every file after it.",
    )  # fmt: skip
    add(
        "--num-refs", "-nr", type=int, default=1, metavar="N",
        help="Read N tab-separated references per line from a single reference file "
        "(default: %(default)s).",
    )  # fmt: skip
    add(
        "--encoding", "-e", default="utf-8",
        help="Encoding of every input (default: %(default)s). UTF-8 takes the fast path.",
    )  # fmt: skip

    add(
        "--metrics", "-m", choices=list(METRIC_CHOICES), nargs="+", default=["bleu"],
        help="Metrics to compute (default: bleu), printed in the order BLEU, CER, chrF, TER, "
        "WER whatever the order given.",
    )  # fmt: skip
    add(
        "--sentence-level", "-sl", action="store_true",
        help="Score every segment on its own (one system only); effective order is switched "
        "on and one text line is printed per segment (only the score with -b).",
    )  # fmt: skip

    bleu = parser.add_argument_group("BLEU related arguments")
    bleu.add_argument(
        "--smooth-method", "-s", choices=list(SMOOTH_DEFAULTS), default="exp",
        dest="bleu_smooth_method",
        help="Smoothing method: exponential decay (exp), floor (increment zero counts), add-k "
        "(increment numerators and denominators by k for n > 1), or none "
        "(default: %(default)s).",
    )  # fmt: skip
    bleu.add_argument(
        "--smooth-value", "-sv", type=float, default=None, dest="bleu_smooth_value",
        help="The smoothing value; only used by floor and add-k (defaults: floor "
        f"{SMOOTH_DEFAULTS['floor']}, add-k {SMOOTH_DEFAULTS['add-k']}).",
    )  # fmt: skip
    bleu.add_argument(
        "--tokenize", "-tok", choices=list(TOKENIZERS), default=None,
        dest="bleu_tokenize",
        help="Tokenizer: 13a (mteval-v13a; the default, except that -l picks zh, ja-mecab or "
        "ko-mecab for those targets), intl (mteval-v14 international), char, none, zh "
        "(Chinese), ja-mecab (Japanese; pip install 'bleuprint[ja]'), ko-mecab (Korean; "
        "'bleuprint[ko]'), flores200, flores101, spBLEU-1K, spm (SentencePiece; "
        "'bleuprint[spm]'). With the default tokenizer, text that looks Chinese, Japanese or "
        "Korean gets a warning.",
    )  # fmt: skip
    bleu.add_argument(
        "--spm-model", default=None, dest="bleu_spm_model", metavar="PATH",
        help="SentencePiece model file for spm/flores101/flores200/spBLEU-1K. Default: the "
        "published model, downloaded once into the cache directory ($BLEUPRINT_CACHE, else "
        "~/.cache/bleuprint).",
    )  # fmt: skip
    bleu.add_argument(
        "--normalize", choices=["nfc", "nfkc"], default=None, dest="bleu_normalize",
        help="Unicode-normalize hypotheses and references before tokenizing (off by default, "
        "as in sacrebleu; recorded in the signature as norm:nfc or norm:nfkc).",
    )  # fmt: skip
    bleu.add_argument(
        "--lowercase", "-lc", action="store_true", dest="bleu_lowercase",
        help="Case-insensitive BLEU: lowercase hypotheses and references.",
    )  # fmt: skip
    bleu.add_argument(
        "--force", action="store_true", dest="bleu_force",
        help="Do not warn when the system output looks tokenized already.",
    )  # fmt: skip

    chrf = parser.add_argument_group("chrF related arguments")
    chrf.add_argument(
        "--chrf-char-order", "-cc", type=int, default=CHRF.CHAR_ORDER,
        help="Character n-gram order (default: %(default)s).",
    )  # fmt: skip
    chrf.add_argument(
        "--chrf-word-order", "-cw", type=int, default=CHRF.WORD_ORDER,
        help="Word n-gram order (default: %(default)s); 2 gives chrF++.",
    )  # fmt: skip
    chrf.add_argument(
        "--chrf-beta", type=int, default=CHRF.BETA,
        help="Weight of recall against precision (default: %(default)s).",
    )  # fmt: skip
    chrf.add_argument(
        "--chrf-whitespace", action="store_true",
        help="Include whitespace in character n-grams.",
    )  # fmt: skip
    chrf.add_argument(
        "--chrf-lowercase", action="store_true", help="Case-insensitive chrF."
    )  # fmt: skip
    chrf.add_argument(
        "--chrf-eps-smoothing", action="store_true",
        help="Average per-order F-scores with eps smoothing (chrF++.py, NLTK, Moses) instead of "
        "the effective-order average.",
    )  # fmt: skip

    ter = parser.add_argument_group("TER related arguments")
    ter.add_argument(
        "--ter-case-sensitive", action="store_true",
        help="Case-sensitive TER (TER lowercases by default).",
    )  # fmt: skip
    ter.add_argument(
        "--ter-asian-support", action="store_true",
        help="With --ter-normalized, split CJK characters; with --ter-no-punct, also remove CJK "
        "and full-width punctuation.",
    )  # fmt: skip
    ter.add_argument(
        "--ter-no-punct", action="store_true", help="Remove punctuation."
    )  # fmt: skip
    ter.add_argument(
        "--ter-normalized", action="store_true",
        help="Tercom normalization: split punctuation, unescape XML entities.",
    )  # fmt: skip

    wer = parser.add_argument_group(
        "WER and CER related arguments (bleuprint only; jiwer's numbers, see docs/wer.md)"
    )
    wer.add_argument(
        "--wer-transform", choices=["default", "standardize", "none"], default="default",
        help="Text clean-up, the same on both sides: default (the default; jiwer's "
        "wer_default/cer_default: strip, split on spaces and whitespace runs), standardize "
        "(jiwer's wer_standardize: also lowercase, expand contractions, drop Kaldi non-words) "
        "or none (no clean-up).",
    )  # fmt: skip
    wer.add_argument(
        "--wer-lowercase", action="store_true", help="Case-insensitive WER/CER."
    )  # fmt: skip
    wer.add_argument(
        "--wer-remove-punctuation", action="store_true",
        help="Delete Unicode punctuation (categories P*) before scoring.",
    )  # fmt: skip
    wer.add_argument(
        "--wer-expand-contractions", action="store_true",
        help="Expand English contractions (won't -> will not).",
    )  # fmt: skip
    wer.add_argument(
        "--wer-remove-kaldi-non-words", action="store_true",
        help="Drop Kaldi non-words such as [noise] and <unk>.",
    )  # fmt: skip

    ci = parser.add_argument_group("Confidence interval (CI) for one system")
    ci.add_argument(
        "--confidence", "-ci", action="store_true",
        help="Add each score's bootstrap mean and 95%% confidence half-width, printed as "
        "'(μ = MEAN ± HALF-WIDTH)' as sacrebleu does (one system only; seeded by "
        "SACREBLEU_SEED).",
    )  # fmt: skip
    ci.add_argument(
        "--confidence-n", "-cin", type=int, default=DEFAULT_CONFIDENCE_N, metavar="N",
        help="Bootstrap resamples for -ci (default: %(default)s).",
    )  # fmt: skip

    paired = parser.add_argument_group(
        "Paired significance tests for several systems",
        "The first system is the baseline; every other system is compared with it (or,\n"
        "with --paired-all, every pair of systems). Seeded by SACREBLEU_SEED.",
    )
    choice = paired.add_mutually_exclusive_group()
    choice.add_argument(
        "--paired-ar", "-par", action="store_true",
        help="Paired approximate randomization test (exclusive with --paired-bs).",
    )  # fmt: skip
    choice.add_argument(
        "--paired-bs", "-pbs", action="store_true",
        help="Paired bootstrap resampling test; also reports each system's bootstrap mean and "
        "95%% CI (exclusive with --paired-ar).",
    )  # fmt: skip
    paired.add_argument(
        "--paired-ar-n", "-parn", type=int, default=DEFAULT_PAIRED_N["ar"], metavar="N",
        help="Approximate randomization trials (default: %(default)s).",
    )  # fmt: skip
    paired.add_argument(
        "--paired-bs-n", "-pbsn", type=int, default=DEFAULT_PAIRED_N["bs"], metavar="N",
        help="Bootstrap resamples of the paired bootstrap test (default: %(default)s).",
    )  # fmt: skip
    paired.add_argument(
        "--paired-jobs", "-j", type=int, default=None, metavar="N",
        help="Threads for scoring and the tests: 0 or unset uses every core (or "
        "BLEUPRINT_NUM_THREADS). Results do not depend on it. (sacrebleu: worker processes, "
        "default 1.)",
    )  # fmt: skip
    paired.add_argument(
        "--paired-all", action="store_true",
        help="(bleuprint only) Compare every pair of systems instead of each system with the "
        "baseline, and group systems that do not differ significantly into clusters. Needs "
        "-pbs or -par.",
    )  # fmt: skip
    paired.add_argument(
        "--correction", choices=CORRECTION_CHOICES, default=None,
        help="(bleuprint only) Multiple-comparison correction of the p-values of each metric: "
        "holm (the default with --paired-all), bonferroni, or none (the default otherwise, "
        "sacrebleu's p-values).",
    )  # fmt: skip

    compat = parser.add_argument_group(
        "Other implementations' BLEU",
        "Also: 'bleuprint explain --hyp TEXT --ref TEXT' shows one sentence's BLEU step by "
        "step, and 'bleuprint compare-implementations REF -i HYP' scores a file under every "
        "implementation (see docs/compat.md).",
    )
    compat.add_argument(
        "--compat", choices=COMPAT_MODES, default=None,
        help="Score one system as this tool does and print its own output: multi-bleu.perl's "
        "or multi-bleu-detok.perl's BLEU line, mteval's 'BLEU score' line (lowercased, as "
        "mteval's default), nltk corpus_bleu's float on whitespace tokens, or a JSON dict of "
        "HF evaluate's bleu, nlg-metricverse's bleu or torchmetrics' bleu_score.",
    )  # fmt: skip
    report = parser.add_argument_group("Reporting related arguments")
    report.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="Suppress informative messages on stderr (warnings and errors are still printed).",
    )
    report.add_argument(
        "--short",
        "-sh",
        action="store_true",
        help="Abbreviated signature (#:1|c:mixed|...); not used by single-system JSON, as in "
        "sacrebleu.",
    )
    report.add_argument("--score-only", "-b", action="store_true", help="Print only the score.")
    report.add_argument(
        "--width",
        "-w",
        type=int,
        default=1,
        help="Decimal places of scores (default: %(default)s).",
    )
    report.add_argument(
        "--detail",
        "-d",
        action="store_true",
        help=_not_yet("Break the score down by original language and domain (needs -t)."),
    )
    report.add_argument(
        "--no-color",
        "-nc",
        action="store_true",
        help="No terminal colours in multi-system tables (also NO_COLOR=1).",
    )
    report.add_argument(
        "--format", "-f", default="json", choices=OUTPUT_FORMATS,
        help="Output format (default: %(default)s). For one system json prints a JSON object "
        "and text (or latex) a sacrebleu text line; for several systems text prints a table, "
        "latex a booktabs table and json a list. BLEUPRINT_FORMAT or SACREBLEU_FORMAT in the "
        "environment override this flag.",
    )  # fmt: skip
    parser.add_argument("--version", "-V", action="version", version=f"{PROG} {__version__}")
    return parser


def _output_format(flag: str) -> str:
    for var in FORMAT_ENV_VARS:
        value = os.environ.get(var, "").lower()
        if value in OUTPUT_FORMATS:
            return value
    return flag


class _Reporter:
    """Messages on stderr, prefixed ``bleuprint:`` (sacrebleu's are ``sacreBLEU:``)."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet

    def info(self, message: str) -> None:
        if not self.quiet:
            self._write(message)

    @staticmethod
    def warning(message: str) -> None:
        _Reporter._write(message)

    @staticmethod
    def _write(message: str) -> None:
        if sys.stderr is not None:
            sys.stderr.write(f"{PROG}: {message}\n")
            sys.stderr.flush()


def _check_usage(args: argparse.Namespace) -> None:
    for dest, option, unset in _UNSUPPORTED:
        if getattr(args, dest) != unset:
            raise CliError(f"{option} is not supported yet", EXIT_USAGE)
    if args.sentence_level and len(args.metrics) > 1:
        raise CliError("only one metric can be used with -sl/--sentence-level", EXIT_USAGE)
    if not args.refs:
        raise CliError(
            "no reference files: give them before -i/--input, e.g. "
            f"'{PROG} ref.txt -i hyp.txt' (built-in test sets, -t, are not supported yet)",
            EXIT_USAGE,
        )
    if args.num_refs < 1:
        raise CliError(f"-nr/--num-refs must be at least 1, got {args.num_refs}", EXIT_USAGE)
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
    if args.width < 0:
        raise CliError(f"-w/--width must be >= 0, got {args.width}", EXIT_USAGE)
    if args.langpair is not None and "-" not in args.langpair:
        raise CliError(
            f"-l/--language-pair must look like SRC-TRG (e.g. en-de), got {args.langpair!r}",
            EXIT_USAGE,
        )
    import codecs

    try:
        codecs.lookup(args.encoding)
    except LookupError:
        raise CliError(f"unknown encoding {args.encoding!r} (-e/--encoding)", EXIT_USAGE) from None
    _check_statistics_usage(args)


def _paired(args: argparse.Namespace) -> bool:
    return bool(args.paired_bs or args.paired_ar)


def _check_statistics_usage(args: argparse.Namespace) -> None:
    """The options of -ci and the paired tests. Sample counts must be positive (sacrebleu
    silently uses its defaults for 0 and fails later on negative numbers)."""
    for value, option in (
        (args.confidence_n, "-cin/--confidence-n"),
        (args.paired_bs_n, "-pbsn/--paired-bs-n"),
        (args.paired_ar_n, "-parn/--paired-ar-n"),
    ):
        if value <= 0:
            raise CliError(
                f"{option} must be a positive number of samples, got {value}", EXIT_USAGE
            )
    if args.paired_jobs is not None and args.paired_jobs < 0:
        raise CliError(
            f"-j/--paired-jobs must be 0 (every core) or more, got {args.paired_jobs}", EXIT_USAGE
        )
    if not _paired(args):
        for given, option in ((args.paired_all, "--paired-all"), (args.correction, "--correction")):
            if given:
                raise CliError(
                    f"{option} needs a paired test: add -pbs/--paired-bs or -par/--paired-ar",
                    EXIT_USAGE,
                )
    if args.confidence or _paired(args):
        from bleuprint.errors import InvalidOptionError
        from bleuprint.significance.seed import resolve_seed

        try:
            resolve_seed()  # a bad seed is a usage error before any scoring starts
        except InvalidOptionError as e:
            raise CliError(str(e), EXIT_USAGE) from None


def _read_file(path: str, encoding: str) -> list[str]:
    from bleuprint.errors import InputDecodeError
    from bleuprint.io import read_lines

    try:
        return read_lines(path, encoding)
    except InputDecodeError as e:
        raise CliError(f"cannot decode {e}") from None
    except OSError as e:
        reason = e.strerror or str(e)
        raise CliError(f"cannot read {path}: {reason}") from None


def _read_references(args: argparse.Namespace) -> tuple[list[list[str]], list[str]]:
    """The reference streams and, for messages, the file each stream came from."""
    if args.num_refs == 1:
        return [_read_file(path, args.encoding) for path in args.refs], list(args.refs)
    n = args.num_refs
    path = args.refs[0]
    rows = [line.split("\t", n - 1) for line in _read_file(path, args.encoding)]
    for lineno, fields in enumerate(rows, 1):
        if len(fields) != n:
            raise CliError(
                f"FATAL: line {lineno}: expected {n} fields, but found {len(fields)}. ({path})",
                EXIT_FIELDS,
            )
    streams = [list(stream) for stream in zip(*rows)] if rows else [[] for _ in range(n)]
    return streams, [f"{path} (field {k + 1})" for k in range(n)]


def _read_systems(
    args: argparse.Namespace, reporter: _Reporter
) -> tuple[list[list[str]], list[str]]:
    """The system outputs and their names (paths, or ``System N`` for stdin fields). In a
    paired test, a file given again as the baseline is skipped, as in sacrebleu."""
    if args.input is not None:
        names: list[str] = []
        systems = []
        for path in args.input:
            if names and path == names[0] and _paired(args):
                reporter.info(f"Ignoring {path!r} as it was also given as the baseline.")
                continue
            if path in names:
                raise CliError(
                    f"{path!r} is given twice to -i/--input; every system needs a different "
                    "file name",
                    EXIT_USAGE,
                )
            systems.append(_read_file(path, args.encoding))
            names.append(path)
        return systems, names

    from bleuprint.errors import InputDecodeError
    from bleuprint.io import read_stream_lines

    if sys.stdin is None:
        lines: list[str] = []
    else:
        try:
            lines = read_stream_lines(sys.stdin.buffer, args.encoding, "<stdin>")
        except InputDecodeError as e:
            raise CliError(f"cannot decode {e}") from None
    # sacrebleu reads the first line with readline(), so empty input is one empty segment.
    first = lines[0] if lines else ""
    # sacrebleu: the first line's fields are not rstripped one by one, later lines' are.
    fields = first.rstrip().split("\t")
    num_sys = len(fields)
    if num_sys == 1:
        stripped = [line.rstrip() for line in lines] if lines else [""]
        if "\t" not in "\n".join(stripped):  # the common case: one system, checked in C
            return [stripped], ["System 1"]
    systems: list[list[str]] = [[f] for f in fields]
    for lineno, line in enumerate(lines[1:], 2):
        fields = line.rstrip().split("\t")
        if len(fields) != num_sys:
            raise CliError(
                "FATAL: the number of tab-delimited fields in the input stream differ across "
                f"lines (line 1 has {num_sys}, line {lineno} has {len(fields)})",
                EXIT_FIELDS,
            )
        for stream, sent in zip(systems, fields):
            stream.append(sent.rstrip())
    return systems, [f"System {i + 1}" for i in range(num_sys)]


def _check_lengths(
    systems: list[list[str]],
    names: list[str],
    refs: list[list[str]],
    ref_names: list[str],
    from_stdin: bool,
) -> None:
    for system, name in zip(systems, names):
        label = f"standard input ({name})" if from_stdin and len(systems) > 1 else name
        if from_stdin and len(systems) == 1:
            label = "standard input"
        if not system:
            raise CliError(f"the system output {label} is empty: nothing to score")
        for ref, ref_name in zip(refs, ref_names):
            if len(ref) != len(system):
                raise CliError(
                    "System and reference streams have different lengths: "
                    f"{label} has {_lines(len(system))}, {ref_name} has {_lines(len(ref))}"
                )


def _lines(n: int) -> str:
    return f"{n} line" if n == 1 else f"{n} lines"


def _metric_objects(args: argparse.Namespace, references: Any) -> dict[str, Any]:
    """One metric object per ``-m`` name (upper-case keys, first occurrence first)."""
    from bleuprint.metrics.bleu import BLEU
    from bleuprint.metrics.ter import TER
    from bleuprint.metrics.wer import WER

    trg_lang = args.langpair.split("-")[1] if args.langpair else ""
    workers = _workers(args)
    metrics: dict[str, Any] = {}
    for name in dict.fromkeys(args.metrics):
        if name == "bleu":
            metrics["BLEU"] = BLEU(
                lowercase=args.bleu_lowercase,
                force=args.bleu_force,
                tokenize=args.bleu_tokenize,
                smooth_method=args.bleu_smooth_method,
                smooth_value=args.bleu_smooth_value,
                effective_order=args.sentence_level,
                trg_lang=trg_lang,
                references=references,
                workers=workers,
                normalize=args.bleu_normalize,
                spm_model=args.bleu_spm_model,
            )
        elif name == "chrf":
            metrics["CHRF"] = CHRF(
                char_order=args.chrf_char_order,
                word_order=args.chrf_word_order,
                beta=args.chrf_beta,
                lowercase=args.chrf_lowercase,
                whitespace=args.chrf_whitespace,
                eps_smoothing=args.chrf_eps_smoothing,
                references=references,
                workers=workers,
            )
        elif name in ("wer", "cer"):
            metrics[name.upper()] = WER(
                unit="word" if name == "wer" else "char",
                transform=args.wer_transform,
                lowercase=args.wer_lowercase,
                remove_punctuation=args.wer_remove_punctuation,
                expand_contractions=args.wer_expand_contractions,
                remove_kaldi_non_words=args.wer_remove_kaldi_non_words,
                references=references,
                workers=workers,
            )
        elif name == "ter":
            metrics["TER"] = TER(
                normalized=args.ter_normalized,
                no_punct=args.ter_no_punct,
                asian_support=args.ter_asian_support,
                case_sensitive=args.ter_case_sensitive,
                references=references,
                workers=workers,
            )
    return metrics


def _make_metrics(
    args: argparse.Namespace, reporter: _Reporter, references: Any = None, report: bool = True
) -> dict[str, Any]:
    import warnings

    from bleuprint.errors import BleuprintError, BleuprintWarning, InvalidOptionError

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", BleuprintWarning)
        try:
            metrics = _metric_objects(args, references)
        except InvalidOptionError as e:
            raise CliError(str(e), EXIT_USAGE) from None
        except (ImportError, BleuprintError) as e:
            # A missing optional package (MeCab, SentencePiece), or an unavailable model.
            raise CliError(str(e)) from None
    if report:
        _report_warnings(reporter, caught)
    return metrics


def _report_warnings(reporter: _Reporter, caught: list[Any]) -> None:
    # Each system is scored separately; say each distinct thing once.
    for message in dict.fromkeys(str(w.message) for w in caught):
        reporter.warning(message)


def _run(args: argparse.Namespace) -> int:
    _check_usage(args)
    fmt = _output_format(args.format)
    reporter = _Reporter(args.quiet)
    # Validate the metric options before reading anything.
    _make_metrics(args, reporter, report=False)

    refs, ref_names = _read_references(args)
    systems, names = _read_systems(args, reporter)
    from_stdin = args.input is None
    if args.sentence_level and len(systems) > 1:
        raise CliError("only one system can be scored with -sl/--sentence-level", EXIT_USAGE)
    # sacrebleu's checks, messages and statuses.
    if args.sentence_level and (args.confidence or _paired(args)):
        raise CliError("Statistical tests are unavailable in sentence-level mode.")
    if _paired(args) and len(systems) == 1:
        raise CliError("Paired tests require multiple input systems given to --input (-i).")
    if len(systems) > 1 and args.confidence:
        raise CliError("Use paired tests (--paired) for multiple systems.")
    _check_lengths(systems, names, refs, ref_names, from_stdin)
    if args.compat is not None:
        return _compat(args, systems, refs)

    import warnings

    from bleuprint.errors import BleuprintError, BleuprintWarning

    out: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", BleuprintWarning)
        try:
            if args.sentence_level:
                out = _sentence_level(args, reporter, systems[0], refs)
            else:
                out = _corpus_level(args, reporter, fmt, systems, names, refs)
        except BleuprintError as e:
            raise CliError(str(e)) from None
    _report_warnings(reporter, caught)
    _write(out)
    return 0


def _compat(args: argparse.Namespace, systems: list[list[str]], refs: list[list[str]]) -> int:
    from bleuprint.errors import BleuprintError

    if len(systems) != 1:
        raise CliError("--compat scores one system", EXIT_USAGE)
    try:
        _write(compat_output(args.compat, systems[0], refs))
    except BleuprintError as e:
        raise CliError(str(e)) from None
    return 0


def _sentence_level(
    args: argparse.Namespace, reporter: _Reporter, system: list[str], refs: list[list[str]]
) -> list[str]:
    (metric,) = _make_metrics(args, reporter).values()
    # One batch: every segment's statistics and score in the core.
    stats = metric.stats(system, refs)
    sig = metric.get_signature().format(args.short)
    return sentence_lines(stats, args.width, args.score_only, sig)


def _corpus_level(
    args: argparse.Namespace,
    reporter: _Reporter,
    fmt: str,
    systems: list[list[str]],
    names: list[str],
    refs: list[list[str]],
) -> list[str]:
    # References are prepared once and reused for every system, as in sacrebleu.
    metrics = _make_metrics(args, reporter, references=refs)
    order = sorted(metrics)
    color = _colors_enabled(args)
    if len(systems) == 1:
        n_bootstrap = args.confidence_n if args.confidence else 1
        results = []
        for key in order:
            score = metrics[key].corpus_score(systems[0], n_bootstrap=n_bootstrap)
            sig = metrics[key].get_signature().format(args.short if fmt != "json" else False)
            results.append(score.format(args.width, args.score_only, sig, fmt == "json"))
        return single_system_lines(results, fmt, color)

    reporter.info(f"Found {len(systems)} systems.")
    if _paired(args):
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


# --------------------------------------------------------------------------------------------
# Paired significance tests (-pbs, -par), as sacrebleu prints them, and --paired-all


def _workers(args: argparse.Namespace) -> int:
    """Core threads from -j: 0 or unset means every core (``-1``)."""
    return -1 if not args.paired_jobs else int(args.paired_jobs)


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
    from bleuprint.significance.paired import paired_test_stats

    names = _paired_names(args, names)
    named = [(name, [m.stats(system) for m in metrics]) for name, system in zip(names, systems)]
    test = "bs" if args.paired_bs else "ar"
    n_comparisons = len(names) * (len(names) - 1) // 2 if args.paired_all else len(names) - 1
    progress = _progress_reporter(args.quiet, n_comparisons)
    result = paired_test_stats(
        named,
        test=test,
        n_samples=args.paired_bs_n if test == "bs" else args.paired_ar_n,
        all_pairs=args.paired_all,
        correction=args.correction,
        workers=_workers(args),
        progress=progress,
    )
    if args.paired_all:
        return paired_all_lines(result, fmt, args.width, args.short, color)
    return paired_baseline_lines(result, fmt, args.width, args.short, color)


def _progress_reporter(quiet: bool, total: int) -> Optional[Callable[[int, int], None]]:
    """``progress(done, total)`` writing ``bleuprint: paired test: 3/8 comparisons`` over
    itself on a terminal's stderr (and erasing it when done); None elsewhere or with -q."""
    stream = sys.stderr
    if quiet or not _isatty(stream):
        return None

    def progress(done: int, total: int) -> None:
        end = "\r\x1b[K" if done >= total else ""
        stream.write(f"\r{PROG}: paired test: {done}/{total} comparisons{end}")
        stream.flush()

    progress(0, total)
    return progress


def _colors_enabled(args: argparse.Namespace) -> bool:
    """Colours (as sacrebleu prints them) only on a terminal, unless -nc or NO_COLOR."""
    return not (os.environ.get("NO_COLOR") or args.no_color) and _isatty(sys.stdout)


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _write(lines: list[str]) -> None:
    if lines:
        _write_raw("\n".join(lines) + "\n")


def _write_raw(text: str) -> None:
    stdout = sys.stdout
    if stdout is None:
        return
    # sacrebleu reopens stdout as UTF-8 whatever the locale says; so do we.
    buffer = getattr(stdout, "buffer", None)
    if buffer is not None:
        stdout.flush()
        buffer.write(text.encode("utf-8", "surrogateescape"))
        buffer.flush()
    else:
        stdout.write(text)
        stdout.flush()


def _fail(message: str, code: int) -> NoReturn:
    _Reporter.warning(message)
    sys.exit(code)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command line; returns the exit status (``argparse`` exits 2 on bad usage)."""
    try:
        # Like sacrebleu: die quietly on a closed pipe (`bleuprint ... | head`).
        from signal import SIG_DFL, SIGPIPE, signal

        signal(SIGPIPE, SIG_DFL)
    except (ImportError, ValueError):  # no SIGPIPE (Windows) or not the main thread
        pass
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments and arguments[0] in SUBCOMMANDS:
        from bleuprint.errors import BleuprintError

        try:
            _write(run_subcommand(arguments) or [])
        except (BleuprintError, OSError) as e:
            _fail(str(e), EXIT_ERROR)
        return 0
    args = build_parser().parse_args(arguments)
    try:
        return _run(args)
    except CliError as e:
        _fail(e.message, e.code)
    except KeyboardInterrupt:
        return 130
    finally:
        # sacrebleu's colorama writes a colour reset at exit when stdout is a terminal.
        if _colors_enabled(args):
            _write_raw("\x1b[0m")


__all__ = ["CliError", "build_parser", "main"]
