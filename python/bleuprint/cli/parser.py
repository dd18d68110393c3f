"""The ``bleuprint`` argument parser: sacrebleu's options, names, defaults and help text.

The option groups of the metrics are in :mod:`bleuprint.cli.metric_options`, the text above
and below the options in :mod:`bleuprint.cli.help_text`; the checks of option values (ranges,
combinations) are in :mod:`bleuprint.cli.checks`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from bleuprint import __version__
from bleuprint.cli.actions import InputFiles, VersionInfo, add_flags
from bleuprint.cli.compat import PRESET_NAMES, add_preset_option
from bleuprint.cli.errors import PROG
from bleuprint.cli.help_text import DESCRIPTION, EPILOG, MERGE_DESCRIPTION, STATS_DESCRIPTION
from bleuprint.cli.metric_options import (
    add_bleu_options,
    add_chrf_options,
    add_cider_options,
    add_rouge_options,
    add_ter_options,
    add_wer_options,
)

#: ``-m`` names that statistics files hold (``bleuprint stats`` and ``merge``).
SHARD_METRICS = ("bleu", "chrf", "ter", "wer", "cer", "rouge")
#: ``-m`` names; output follows the sorted upper-case names, as in sacrebleu. CIDEr-D's
#: statistics are captions, not rows, so it is not in statistics files.
METRIC_CHOICES = (*SHARD_METRICS, "cider")

#: Output formats; ``latex`` only changes multi-system tables (as in sacrebleu).
OUTPUT_FORMATS = ("json", "text", "latex")

#: Defaults of -cin, -pbsn and -parn (sacrebleu's).
DEFAULT_CONFIDENCE_N = 1000
DEFAULT_PAIRED_N = {"bs": 1000, "ar": 10000}
#: --correction choices (bleuprint.significance.CORRECTIONS, without loading the tests).
CORRECTION_CHOICES = ("holm", "bonferroni", "none")


def command_parser(command: str, description: str, **options: Any) -> argparse.ArgumentParser:
    """The parser of ``bleuprint COMMAND`` (``options`` as ``argparse.ArgumentParser`` takes
    them)."""
    return argparse.ArgumentParser(prog=f"{PROG} {command}", description=description, **options)


def build_parser(stats: bool = False) -> argparse.ArgumentParser:
    """The argument parser, with sacrebleu's options, names and defaults; ``stats=True``
    gives ``bleuprint stats``'s: the same options, plus ``--shard`` and ``-o``."""
    raw = argparse.RawDescriptionHelpFormatter
    if stats:
        parser = command_parser("stats", STATS_DESCRIPTION, formatter_class=raw)
        _add_shard_options(parser)
    else:
        parser = argparse.ArgumentParser(
            prog=PROG, description=DESCRIPTION, epilog=EPILOG, formatter_class=raw
        )
    _add_test_set_options(parser.add_argument)
    _add_input_options(parser.add_argument)
    _add_table_options(parser)
    add_bleu_options(parser)
    add_chrf_options(parser)
    add_ter_options(parser)
    add_wer_options(parser)
    add_rouge_options(parser)
    add_cider_options(parser)
    _add_confidence_options(parser)
    _add_paired_options(parser)
    _add_preset_options(parser)
    _add_report_options(parser)
    parser.add_argument("--version", "-V", action=VersionInfo, version=f"{PROG} {__version__}")
    return parser


def shard_number(value: str) -> tuple[int, int]:
    """``--shard``'s type: ``K/N`` with 1 <= K <= N."""
    index, _, count = value.partition("/")
    try:
        k, n = int(index), int(count)
    except ValueError:
        k = n = 0
    if not 1 <= k <= n:
        raise argparse.ArgumentTypeError(
            f"expected K/N with 1 <= K <= N (shard K of N, e.g. 3/8), got {value!r}"
        )
    return k, n


def _add_shard_options(parser: argparse.ArgumentParser) -> None:
    shards = parser.add_argument_group("Statistics files")
    shards.add_argument(
        "--output", "-o", required=True, metavar="FILE",
        help="Where to write the statistics (an .npz file for 'bleuprint merge').",
    )  # fmt: skip
    shards.add_argument(
        "--shard", type=shard_number, default=None, metavar="K/N",
        help="Count only shard K of N: the K-th of N equal runs of consecutive segments "
        "(every file's lines are counted first, so the length checks are a whole run's).",
    )  # fmt: skip


def build_merge_parser() -> argparse.ArgumentParser:
    """``bleuprint merge``: shard files in, one run's output out."""
    parser = command_parser(
        "merge", MERGE_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "shards", nargs="+", metavar="SHARD",
        help="Statistics files written by 'bleuprint stats' (every shard K/N once, any order).",
    )  # fmt: skip
    parser.add_argument(
        "--metrics", "-m", choices=list(SHARD_METRICS), nargs="+", default=None,
        help="Print only these of the metrics the files hold (default: all of them).",
    )  # fmt: skip
    _add_confidence_options(parser)
    _add_paired_options(parser)
    _add_report_options(parser)
    return parser


def _add_test_set_options(add: Callable[..., Any]) -> None:
    """sacrebleu's test-set options (:mod:`bleuprint.cli.test_sets`; docs/testsets.md)."""
    add_flags(
        add,
        ("--citation", "--cite", "Print the bibtex citation of the test set(s) of -t and quit."),
        (
            "--list",
            "List the available test sets (with -l: those of one language pair; with -t: "
            "the fields of each of its language pairs) and quit.",
        ),
    )
    add(
        "--test-set", "-t", default=None,
        help="A built-in test set (see --list), or several separated by commas, concatenated: "
        "its references are used, downloaded and processed into sacrebleu's cache "
        "($SACREBLEU, else ~/.sacrebleu) on first use. Needs -l.",
    )  # fmt: skip
    add(
        "--language-pair", "-l", dest="langpair", default=None, metavar="SRC-TRG",
        help="Source-target language pair, e.g. en-de: the test set's pair with -t. With your "
        "own reference files it only sets the target language, which picks the default "
        "tokenizer (zh, ja-mecab, ko-mecab; 13a otherwise).",
    )  # fmt: skip
    add(
        "--origlang", "-ol", default=None,
        help="Score only the segments of documents with this original language (2-letter "
        "code; a 'non-' prefix negates it). Needs -t.",
    )  # fmt: skip
    add(
        "--subset", default=None,
        help="Score only the segments whose document's domain (or WMT18/19 annotation; "
        "'country:XX' for a country) matches this regex. Needs -t.",
    )  # fmt: skip
    add(
        "--download", default=None, metavar="TEST_SET",
        help="Download and process a test set (with -l: one language pair) and quit.",
    )  # fmt: skip
    add(
        "--echo", nargs="+", default=None, metavar="FIELD",
        help="Print fields of the test set of -t and -l, tab-separated, and quit: src, ref, "
        "docid, origlang, domain, ref:NAME, a system's name, or 'all' (--list -t NAME shows "
        "them).",
    )  # fmt: skip


def _add_input_options(add: Callable[..., Any]) -> None:
    add(
        "--input", "-i", nargs="*", default=None, metavar="HYP", action=InputFiles,
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
        help="Metrics to compute (default: bleu), printed in the order BLEU, CER, chrF, CIDEr-D, "
        "ROUGE, TER, WER whatever the order given.",
    )  # fmt: skip
    add(
        "--sentence-level", "-sl", action="store_true",
        help="Score every segment on its own (one system only); effective order is switched "
        "on and one text line is printed per segment (only the score with -b).",
    )  # fmt: skip


def _add_table_options(parser: argparse.ArgumentParser) -> None:
    tables = parser.add_argument_group(
        "Tables and grouped scores (bleuprint only)",
        "With --hyp-column, --ref-column or --group-by, -i names one table file: JSONL\n"
        "(.jsonl/.ndjson, also .gz/.bz2/.xz/.zst), Parquet or Arrow (.arrow/.feather/.ipc;\n"
        "these need 'bleuprint[parquet]'), read a chunk of rows at a time. Cells are taken as\n"
        "they are (not stripped); a null reference cell is a missing reference.",
    )
    tables.add_argument(
        "--hyp-column", nargs="+", default=None, metavar="COL",
        help="The table's system output column(s) (default: hyp). Several columns are several "
        "systems, scored in a table and named by their columns.",
    )  # fmt: skip
    tables.add_argument(
        "--ref-column", nargs="+", default=None, metavar="COL",
        help="The table's reference column(s): several columns are several references per "
        "segment; a column of lists of strings gives each row as many references as its list "
        "holds. Default: the REF files if given (their lines match the table's rows), else "
        "the column ref.",
    )  # fmt: skip
    tables.add_argument(
        "--group-by", default=None, metavar="COL",
        help="One exact corpus score per value of this column (e.g. a language pair, a "
        "domain), in one pass, printed as a table with a row per group in first-seen order "
        "(one system; not with -sl, -ci, -pbs, -par).",
    )  # fmt: skip
    tables.add_argument(
        "--groups", default=None, metavar="FILE",
        help="--group-by for text input: a file of one group key per line, aligned with the "
        "system output's lines.",
    )  # fmt: skip


def _add_confidence_options(parser: argparse.ArgumentParser) -> None:
    ci = parser.add_argument_group("Confidence interval (CI) for one system")
    ci.add_argument(
        "--confidence", "-ci", action="store_true",
        help="Add each score's bootstrap mean and 95%% confidence half-width, printed as "
        "'(μ = MEAN ± HALF-WIDTH)' as sacrebleu does (one system only; seeded by "
        "SACREBLEU_SEED).",
    )  # fmt: skip
    ci.add_argument(
        "--confidence-n", "-cin", type=int, default=DEFAULT_CONFIDENCE_N, metavar="N",
        help="Bootstrap resamples for -ci, up to 1,000,000 (default: %(default)s).",
    )  # fmt: skip


def _add_paired_options(parser: argparse.ArgumentParser) -> None:
    paired = parser.add_argument_group(
        "Paired significance tests for several systems",
        "The first system is the baseline; every other system is compared with it (or,\n"
        "with --paired-all, every pair of systems). Seeded by SACREBLEU_SEED.",
    )
    add_flags(
        paired.add_mutually_exclusive_group().add_argument,
        (
            "--paired-ar",
            "-par",
            "Paired approximate randomization test (exclusive with --paired-bs).",
        ),
        (
            "--paired-bs",
            "-pbs",
            "Paired bootstrap resampling test; also reports each system's bootstrap mean and "
            "95%% CI (exclusive with --paired-ar).",
        ),
    )
    paired.add_argument(
        "--paired-ar-n", "-parn", type=int, default=DEFAULT_PAIRED_N["ar"], metavar="N",
        help="Approximate randomization trials, up to 1,000,000 (default: %(default)s).",
    )  # fmt: skip
    paired.add_argument(
        "--paired-bs-n", "-pbsn", type=int, default=DEFAULT_PAIRED_N["bs"], metavar="N",
        help="Bootstrap resamples of the paired bootstrap test, up to 1,000,000 (default: "
        "%(default)s).",
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


def _add_preset_options(parser: argparse.ArgumentParser) -> None:
    presets = parser.add_argument_group(
        "Presets: other tools' BLEU",
        "Also: 'bleuprint explain --hyp TEXT --ref TEXT' shows one sentence's BLEU step by "
        "step, and 'bleuprint compare-presets REF -i HYP' scores a file under every preset "
        "(see docs/compat.md).",
    )
    add_preset_option(
        presets.add_argument, None,
        "Score one system as this preset's tool does and print its own output: "
        + ", ".join(PRESET_NAMES) + ". moses and moses-detok print multi-bleu.perl's or "
        "multi-bleu-detok.perl's BLEU line, mteval-v13a and mteval-v14 mteval's 'BLEU score' "
        "line (lowercased, as mteval's default), nltk corpus_bleu's float on whitespace "
        "tokens, hf and nlgmetricverse a JSON dict of HF evaluate's or nlg-metricverse's "
        "bleu, torchmetrics and torchmetrics-sacrebleu the float of bleu_score or "
        "sacre_bleu_score, coco what pycocoevalcap's COCOEvalCap prints for Bleu_1..4 "
        "(lines taken as PTB-tokenized captions); sacrebleu is the ordinary output. The "
        "other presets use their "
        "tool's own settings, so they refuse -m, -sl, -ci, -pbs, -par, -tok, -s, -sv, -lc, "
        "--normalize and --spm-model.",
    )  # fmt: skip


def _add_report_options(parser: argparse.ArgumentParser) -> None:
    report = parser.add_argument_group("Reporting related arguments")
    add_flags(
        report.add_argument,
        (
            "--quiet",
            "-q",
            "Suppress informative messages on stderr (warnings and errors are still printed).",
        ),
        (
            "--short",
            "-sh",
            "Abbreviated signature (#:1|c:mixed|...); not used by single-system JSON, as in "
            "sacrebleu.",
        ),
        (
            "--no-progress",
            "(bleuprint only) No progress line on stderr (shown on a terminal when a long run "
            "has taken 4 seconds; also BLEUPRINT_NO_PROGRESS=1, or -q).",
        ),
        ("--score-only", "-b", "Print only the score."),
    )
    report.add_argument(
        "--width",
        "-w",
        type=int,
        default=1,
        help="Decimal places of scores, 0 to 100 (default: %(default)s).",
    )
    add_flags(
        report.add_argument,
        (
            "--detail",
            "-d",
            "After the score of one system, print each metric's score per original language "
            "of the test set, overall and per domain (needs -t).",
        ),
        ("--no-color", "-nc", "No terminal colours in multi-system tables (also NO_COLOR=1)."),
    )
    report.add_argument(
        "--format", "-f", default="json", choices=OUTPUT_FORMATS,
        help="Output format (default: %(default)s). For one system json prints a JSON object "
        "and text (or latex) a sacrebleu text line; for several systems text prints a table, "
        "latex a booktabs table and json a list. BLEUPRINT_FORMAT or SACREBLEU_FORMAT in the "
        "environment override this flag.",
    )  # fmt: skip
