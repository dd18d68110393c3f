"""jiwer 4.0's ``jiwer.cli``: the ``jiwer`` command, computed by bleuprint.

``python -m bleuprint.compat.jiwer.cli -r REF_FILE -h HYP_FILE [-c] [-a] [-g]`` takes jiwer's
options and prints what ``jiwer`` prints: the WER (or with ``-c`` the CER) as Python prints the
value, or with ``-a`` the alignment of every sentence and the measures. Lines are read as
jiwer reads them (the locale's encoding, stripped; lines of fewer than two characters are
dropped). jiwer's command is built on click; this one on ``argparse``, so click is not needed:
usage errors exit 2 as click's do, and an unreadable file or a line-count mismatch prints
``Error: ...`` and exits 1 (jiwer exits 1 with a traceback).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Optional, Union

from bleuprint.compat.jiwer.alignment import visualize_alignment
from bleuprint.compat.jiwer.process import (
    CharacterOutput,
    WordOutput,
    process_characters,
    process_words,
)
from bleuprint.compat.jiwer.transformations import (
    cer_contiguous,
    cer_default,
    wer_contiguous,
    wer_default,
)
from bleuprint.errors import InvalidInputError

__all__ = ["cli"]

EXIT_ERROR = 1


def _parser() -> argparse.ArgumentParser:
    # -h is the hypothesis file, as in jiwer; help is --help only.
    parser = argparse.ArgumentParser(
        prog="jiwer",
        add_help=False,
        description="JiWER's command line, computed by bleuprint: the word error rate of "
        "new-line delimited reference and hypothesis files (one sentence per line).",
    )
    parser.add_argument("--help", action="help", help="Show this message and exit.")
    parser.add_argument(
        "-r",
        "--reference",
        dest="reference_file",
        type=Path,
        required=True,
        help="Path to new-line delimited text file of reference sentences.",
    )
    parser.add_argument(
        "-h",
        "--hypothesis",
        dest="hypothesis_file",
        type=Path,
        required=True,
        help="Path to new-line delimited text file of hypothesis sentences.",
    )
    parser.add_argument(
        "--cer", "-c", dest="compute_cer", action="store_true", help="Compute CER instead of WER."
    )
    parser.add_argument(
        "--align",
        "-a",
        dest="show_alignment",
        action="store_true",
        help="Print alignment of each sentence.",
    )
    parser.add_argument(
        "--global",
        "-g",
        dest="global_alignment",
        action="store_true",
        help="Apply a global minimal alignment between reference and hypothesis sentences "
        "before computing the WER.",
    )
    return parser


def _sentences(path: Path) -> list[str]:
    """jiwer's reading of a file: stripped lines, keeping only those of 2+ characters."""
    with path.open("r", encoding="locale") as f:
        return [ln.strip() for ln in f.readlines() if len(ln.strip()) > 1]


def _output(args: argparse.Namespace) -> str:
    references = _sentences(args.reference_file)
    hypotheses = _sentences(args.hypothesis_file)
    if not args.global_alignment and len(references) != len(hypotheses):
        raise InvalidInputError(
            f"Number of reference sentences ({len(references)} in '{args.reference_file}') "
            f"and hypothesis sentences ({len(hypotheses)} in '{args.hypothesis_file}') "
            "do not match! Use the `--global` flag to compute the measures over a global "
            "alignment of the reference and hypothesis sentences."
        )
    out: Union[WordOutput, CharacterOutput]
    if args.compute_cer:
        chars = cer_contiguous if args.global_alignment else cer_default
        out = process_characters(references, hypotheses, chars, chars)
    else:
        words = wer_contiguous if args.global_alignment else wer_default
        out = process_words(references, hypotheses, words, words)
    if args.show_alignment:
        return visualize_alignment(out, show_measures=True)
    value = out.cer if isinstance(out, CharacterOutput) else out.wer
    return f"{value}\n"


def cli(args: Optional[Sequence[str]] = None) -> int:
    """Runs the command on ``args`` (default ``sys.argv[1:]``); returns the exit status."""
    namespace = _parser().parse_args(args)
    try:
        text = _output(namespace)
    except (OSError, ValueError) as e:  # unreadable or undecodable files, unequal line counts
        print(f"Error: {e}", file=sys.stderr)
        return EXIT_ERROR
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(cli())
