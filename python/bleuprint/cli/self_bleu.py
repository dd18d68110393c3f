"""``bleuprint self-bleu FILE``: the Self-BLEU of the sentences of a file (one per line; ``-``
reads stdin), each scored with BLEU against all the others. Prints the figure; ``--sentences``
prints every sentence's score, ``--json`` one JSON object."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from bleuprint.analysis.self_bleu import VARIANTS, SelfBLEUScore, self_bleu
from bleuprint.cli.actions import add_flags
from bleuprint.cli.errors import library_errors
from bleuprint.cli.output import write_lines
from bleuprint.cli.parser import command_parser
from bleuprint.io.files import read_lines, read_stream_lines


def self_bleu_parser() -> argparse.ArgumentParser:
    parser = command_parser(
        "self-bleu",
        "Self-BLEU, the diversity of generated text: each line's BLEU against all the other "
        "lines as references, averaged (lower is more diverse). Each variant is exact to its "
        "upstream on the same tokens: texygen (Texygen's SelfBleu: nltk sentence_bleu, "
        "method1 smoothing, 0-1), fast-bleu (fast-bleu 0.0.90's SelfBLEU) or sacrebleu "
        "(sentence_bleu, 0-100).",
    )
    parser.add_argument("file", metavar="FILE", help="One sentence per line (- for stdin).")
    parser.add_argument(
        "--variant", default="texygen", choices=list(VARIANTS),
        help="Whose Self-BLEU (default: %(default)s).",
    )  # fmt: skip
    parser.add_argument(
        "--max-order", "-n", type=int, default=None, metavar="N",
        help="Highest n-gram order (default: 3 for texygen, as its gram; 4 otherwise).",
    )  # fmt: skip
    parser.add_argument(
        "--tokenize", "-tok", default=None,
        help="A bleuprint tokenizer (13a, intl, zh, char, ...). Default: split on whitespace "
        "(texygen, fast-bleu); 13a (sacrebleu). Texygen itself uses nltk.word_tokenize: "
        "call bleuprint.self_bleu(..., tokenizer=nltk.word_tokenize) to match it exactly.",
    )  # fmt: skip
    parser.add_argument(
        "--sample", type=int, default=None, metavar="K",
        help="Score a random sample of K lines among themselves (with --seed).",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=None, help="The sample's seed.")
    add_flags(
        parser.add_argument,
        ("--include-self", "Texygen's get_bleu: each line among its own references (texygen)."),
        ("--sentences", "Print every scored line's index and score, tab-separated."),
        ("--json", "Print one JSON object: the figure, the settings and the line count."),
    )
    parser.add_argument("--workers", type=int, default=-1, help="Threads (default: every core).")
    parser.add_argument(
        "--encoding", "-e", default="utf-8", help="Input encoding (default: %(default)s)."
    )
    return parser


def run_self_bleu(argv: Sequence[str]) -> int:
    """``bleuprint self-bleu``: the figure, every line's score, or JSON."""
    args = self_bleu_parser().parse_args(argv)
    with library_errors():
        if args.file == "-":
            lines = read_stream_lines(sys.stdin.buffer, args.encoding)
        else:
            lines = read_lines(args.file, args.encoding)
        result = self_bleu(
            lines, variant=args.variant, max_order=args.max_order, sample=args.sample,
            seed=args.seed, tokenizer=args.tokenize, include_self=args.include_self,
            workers=args.workers,
        )  # fmt: skip
        write_lines(_output(result, args))
    return 0


def _output(result: SelfBLEUScore, args: argparse.Namespace) -> list[str]:
    if args.json:
        record = {
            "name": "Self-BLEU",
            "score": result.score,
            "variant": result.variant,
            "max_order": result.max_order,
            "include_self": result.include_self,
            "tokenize": args.tokenize,
            "sentences": len(result.sentence_scores),
            "sample": args.sample,
            "seed": args.seed,
        }
        return [json.dumps(record, indent=1)]
    if args.sentences:
        indices = (
            range(len(result.sentence_scores))
            if result.indices is None
            else result.indices.tolist()
        )
        return [f"{i}\t{s!r}" for i, s in zip(indices, result.sentence_scores.tolist())]
    return [str(result)]
