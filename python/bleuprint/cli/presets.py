"""The subcommands that run the presets:

- ``bleuprint explain --hyp TEXT --ref TEXT [--ref TEXT ...] [--preset NAME]``
- ``bleuprint compare-presets REF [REF ...] -i HYP``

``--compat`` and ``compare-implementations`` are the deprecated old spellings: they work as
before, with one line on stderr. The options themselves are in :mod:`bleuprint.cli.compat`,
which the parsers load at start-up; the upstream tools' own output (``--preset NAME``) is
:mod:`bleuprint.cli.preset_output`.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from bleuprint.analysis.explanation import explain
from bleuprint.cli.compat import (
    PRESET_NAMES,
    add_preset_option,
    deprecated,
    note_deprecated,
    references_per_segment,
)
from bleuprint.cli.errors import library_errors
from bleuprint.cli.output import write_lines
from bleuprint.cli.parser import command_parser
from bleuprint.errors import BleuprintError
from bleuprint.io.files import read_lines
from bleuprint.metrics.bleu.config import BLEUConfig, knob_changes, preset_config
from bleuprint.presets import PRESETS


def explain_parser() -> argparse.ArgumentParser:
    parser = command_parser(
        "explain",
        "Show how BLEU is computed for one hypothesis, step by step: every n-gram "
        "with its count, its highest count in any reference and its clipped count; the "
        "precisions; the reference length and why; the brevity penalty and the score.",
    )
    parser.add_argument("--hyp", required=True, help="The hypothesis (one sentence).")
    parser.add_argument(
        "--ref", action="append", required=True, help="A reference; repeat for more."
    )
    add_preset_option(
        parser.add_argument, "sacrebleu",
        "Compute as this preset does (one of " + ", ".join(PRESET_NAMES) + "), and list the "
        "knobs that differ from sacrebleu's with how much each moves the score (default: "
        "%(default)s).",
    )  # fmt: skip
    parser.add_argument(
        "--html", metavar="FILE", help="Also write the explanation as HTML to FILE."
    )
    return parser


def compare_parser() -> argparse.ArgumentParser:
    parser = command_parser(
        "compare-presets",
        "Score one hypothesis file under every preset (every other tool's BLEU "
        "that bleuprint emulates): one table, then one line per preset naming the knobs that "
        "differ from sacrebleu's. (compare-implementations is the deprecated old name.)",
    )
    parser.add_argument(
        "refs", nargs="+", metavar="REF", help="Reference files, one segment per line."
    )
    parser.add_argument("--input", "-i", required=True, metavar="HYP", help="The hypothesis file.")
    parser.add_argument(
        "--encoding", "-e", default="utf-8", help="Input encoding (default: %(default)s)."
    )
    return parser


def run_explain(argv: Sequence[str]) -> int:
    """``bleuprint explain``: one sentence's BLEU, step by step."""
    args = explain_parser().parse_args(argv)
    note_deprecated(args)
    with library_errors():
        result = explain(args.hyp, args.ref, preset=args.preset)
        if args.html:
            with open(args.html, "w", encoding="utf-8") as f:
                f.write(result._repr_html_())
        write_lines(str(result).splitlines())
    return 0


def run_compare(argv: Sequence[str]) -> int:
    """``bleuprint compare-presets``: one hypothesis file under every preset."""
    args = compare_parser().parse_args(argv)
    with library_errors():
        write_lines(_comparison(args.input, args.refs, args.encoding))
    return 0


def run_compare_implementations(argv: Sequence[str]) -> int:
    """``bleuprint compare-implementations``: the deprecated name of ``compare-presets``."""
    deprecated("compare-implementations", "compare-presets")
    return run_compare(argv)


def _comparison(hyp_file: str, ref_files: Sequence[str], encoding: str) -> list[str]:
    from tabulate import tabulate  # type: ignore[import-untyped]  # for this table only

    hyps = read_lines(hyp_file, encoding)  # the CLI's line rules: BOM, "\n" only, rstrip
    refs = references_per_segment([read_lines(r, encoding) for r in ref_files], len(hyps))
    rows = []
    for name, preset in PRESETS.items():
        try:
            config = preset_config(name)
            value = config.item_score(hyps, refs).number
            cells = [f"{value:.4f}", f"{value if config.scale == 100 else 100 * value:.2f}"]
        except BleuprintError as error:
            cells = [f"error: {error}", ""]
        rows.append([name, *cells, preset.upstream])
    lines = tabulate(
        rows, headers=["preset", "score", "on 0-100", "upstream"], disable_numparse=True
    ).splitlines()
    lines += ["", "knobs that differ from sacrebleu's:"]
    lines += [f"  {name}: {_differences(name)}" for name in PRESETS if name != "sacrebleu"]
    return lines


def _differences(name: str) -> str:
    changes = knob_changes(preset_config(name), BLEUConfig())
    return ", ".join(changes) or "none (sacrebleu's defaults)"


__all__ = [
    "run_compare",
    "run_compare_implementations",
    "run_explain",
]
