"""The command line's compat features (each loads the compat code only when run):

- ``bleuprint explain --hyp TEXT --ref TEXT [--ref TEXT ...] [--compat NAME]``
- ``bleuprint compare-implementations REF [REF ...] -i HYP``
- ``bleuprint REF ... -i HYP --compat NAME``: the upstream tool's own output
  (``multi-bleu.perl``'s line, mteval's line, nltk's float, HF's dict).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Optional

from bleuprint.errors import BleuprintError
from bleuprint.io import read_lines

#: ``--compat`` names: the upstream tool whose output the command prints.
COMPAT_MODES = (
    "moses", "moses-detok", "mteval-v13a", "mteval-v14", "nltk", "hf", "nlgmetricverse",
    "torchmetrics",
)  # fmt: skip
#: The preset names (kept here so that building the parser does not load the presets).
PRESET_NAMES = (
    "sacrebleu", "nltk", "hf", "nlgmetricverse", "torchmetrics", "torchmetrics-sacrebleu",
    "moses", "moses-detok", "mteval-v13a", "mteval-v14",
)  # fmt: skip
SUBCOMMANDS = ("explain", "compare-implementations")


def explain_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bleuprint explain",
        description="Show how BLEU is computed for one hypothesis, step by step: every n-gram "
        "with its count, its highest count in any reference and its clipped count; the "
        "precisions; the reference length and why; the brevity penalty and the score.",
    )
    parser.add_argument("--hyp", required=True, help="The hypothesis (one sentence).")
    parser.add_argument(
        "--ref", action="append", required=True, help="A reference; repeat for more."
    )
    parser.add_argument(
        "--compat", default="sacrebleu", choices=PRESET_NAMES,
        help="Compute as this implementation does, and list the knobs that differ from "
        "sacrebleu's with how much each moves the score (default: %(default)s).",
    )  # fmt: skip
    parser.add_argument(
        "--html", metavar="FILE", help="Also write the explanation as HTML to FILE."
    )
    return parser


def compare_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bleuprint compare-implementations",
        description="Score one hypothesis file under every implementation bleuprint emulates: "
        "one table, then one line per implementation naming the knobs that differ from "
        "sacrebleu's.",
    )
    parser.add_argument(
        "refs", nargs="+", metavar="REF", help="Reference files, one segment per line."
    )
    parser.add_argument("--input", "-i", required=True, metavar="HYP", help="The hypothesis file.")
    parser.add_argument(
        "--encoding", "-e", default="utf-8", help="Input encoding (default: %(default)s)."
    )
    return parser


def _read(path: str, encoding: str) -> list[str]:
    return read_lines(path, encoding)  # the CLI's line rules: BOM, "\n" only, rstrip


def _grouped(refs: Sequence[Sequence[str]], n: int) -> list[list[str]]:
    for k, stream in enumerate(refs):
        if len(stream) != n:
            raise BleuprintError(
                f"reference file {k + 1} has {len(stream)} lines, the hypothesis file {n}"
            )
    return [[s[i] for s in refs] for i in range(n)]


def run_explain(argv: Sequence[str]) -> list[str]:
    from bleuprint.explanation import explain  # the presets load for this subcommand only

    args = explain_parser().parse_args(argv)
    result = explain(args.hyp, args.ref, preset=args.compat)
    if args.html:
        with open(args.html, "w", encoding="utf-8") as f:
            f.write(result._repr_html_())
    return str(result).splitlines()


def _differences(name: str) -> str:
    from bleuprint.variants import PRESETS, SACREBLEU  # loaded by run_compare already

    diffs = PRESETS[name].knobs.differences(SACREBLEU)
    return ", ".join(f"{k}={v[0]}" for k, v in diffs.items()) or "none (sacrebleu's defaults)"


def run_compare(argv: Sequence[str]) -> list[str]:
    # Tables and presets load for this subcommand only.
    from tabulate import tabulate  # type: ignore[import-untyped]

    from bleuprint.variants import PRESETS, corpus_score

    args = compare_parser().parse_args(argv)
    hyps = _read(args.input, args.encoding)
    refs = _grouped([_read(r, args.encoding) for r in args.refs], len(hyps))
    rows = []
    for name, preset in PRESETS.items():
        try:
            score = corpus_score(hyps, refs, preset.knobs).score
            value = float(score)
            cells = [f"{value:.4f}", f"{value if preset.knobs.scale == 100 else 100 * value:.2f}"]
        except BleuprintError as error:
            cells = [f"error: {error}", ""]
        rows.append([name, *cells, preset.upstream])
    lines = tabulate(
        rows, headers=["implementation", "score", "on 0-100", "upstream"], disable_numparse=True
    ).splitlines()
    lines += ["", "knobs that differ from sacrebleu's:"]
    lines += [f"  {name}: {_differences(name)}" for name in PRESETS if name != "sacrebleu"]
    return lines


def compat_output(mode: str, hypotheses: list[str], ref_streams: list[list[str]]) -> list[str]:
    """What the upstream tool prints for one system (``--compat``). Only the chosen tool's
    compat module is imported."""
    grouped = _grouped(ref_streams, len(hypotheses))
    if mode in ("moses", "moses-detok"):
        from bleuprint.compat.moses import multi_bleu, multi_bleu_detok

        moses = multi_bleu if mode == "moses" else multi_bleu_detok
        return [str(moses(hypotheses, ref_streams))]
    if mode.startswith("mteval"):
        from bleuprint.compat.mteval import mteval_v13a, mteval_v14

        mteval = mteval_v13a if mode == "mteval-v13a" else mteval_v14
        return [str(mteval(hypotheses, ref_streams))]
    if mode == "nltk":
        from bleuprint.compat.nltk import corpus_bleu

        score = corpus_bleu(
            [[r.split() for r in refs] for refs in grouped], [h.split() for h in hypotheses]
        )
        return [repr(score)]
    if mode == "hf":
        from bleuprint.compat.evaluate import load

        return [json.dumps(load("bleu").compute(predictions=hypotheses, references=grouped))]
    if mode == "nlgmetricverse":
        from bleuprint.compat.nlgmetricverse import NLGMetricverse

        out = NLGMetricverse()(predictions=hypotheses, references=grouped)
        for key in ("total_time_elapsed",):
            out.pop(key)
        out.get("bleu", {}).pop("time_elapsed", None)
        return [json.dumps(out)]
    from bleuprint.compat.torchmetrics import bleu_score

    return [repr(float(bleu_score(hypotheses, grouped)))]


def run_subcommand(argv: Sequence[str]) -> Optional[list[str]]:
    """Output lines of ``explain`` or ``compare-implementations``; ``None`` for other argv."""
    if not argv or argv[0] not in SUBCOMMANDS:
        return None
    if argv[0] == "explain":
        return run_explain(argv[1:])
    return run_compare(argv[1:])


__all__ = ["COMPAT_MODES", "PRESET_NAMES", "SUBCOMMANDS", "compat_output", "run_subcommand"]
