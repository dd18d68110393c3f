"""The commands that run the presets, with the presets and every emulated tool's compat code:

- ``bleuprint explain --hyp TEXT --ref TEXT [--ref TEXT ...] [--preset NAME]``
- ``bleuprint compare-presets REF [REF ...] -i HYP``
- ``bleuprint REF ... -i HYP --preset NAME``: the upstream tool's own output
  (``multi-bleu.perl``'s line, mteval's line, nltk's float, HF's dict), :func:`compat_output`.

``--compat`` and ``compare-implementations`` are the deprecated old spellings: they work as
before, with one line on stderr. The options themselves are in :mod:`bleuprint.cli.compat`,
which the parsers load at start-up; this module loads only when a preset runs.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from tabulate import tabulate  # type: ignore[import-untyped]

from bleuprint.analysis.explanation import explain
from bleuprint.cli.compat import PRESET_NAMES, add_preset_option, deprecated, note_deprecated
from bleuprint.cli.errors import library_errors
from bleuprint.cli.output import write_lines
from bleuprint.cli.parser import command_parser
from bleuprint.compat.evaluate import load as load_evaluate_metric
from bleuprint.compat.moses import multi_bleu, multi_bleu_detok
from bleuprint.compat.mteval import mteval_v13a, mteval_v14
from bleuprint.compat.nlgmetricverse import NLGMetricverse
from bleuprint.compat.nltk import corpus_bleu as nltk_corpus_bleu
from bleuprint.compat.torchmetrics import bleu_score, sacre_bleu_score
from bleuprint.errors import BleuprintError, InvalidOptionError
from bleuprint.io.files import read_lines
from bleuprint.presets import PRESETS, SACREBLEU, corpus_score


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
    hyps = read_lines(hyp_file, encoding)  # the CLI's line rules: BOM, "\n" only, rstrip
    refs = grouped([read_lines(r, encoding) for r in ref_files], len(hyps))
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
        rows, headers=["preset", "score", "on 0-100", "upstream"], disable_numparse=True
    ).splitlines()
    lines += ["", "knobs that differ from sacrebleu's:"]
    lines += [f"  {name}: {_differences(name)}" for name in PRESETS if name != "sacrebleu"]
    return lines


def _differences(name: str) -> str:
    diffs = PRESETS[name].knobs.differences(SACREBLEU)
    return ", ".join(f"{k}={v[0]}" for k, v in diffs.items()) or "none (sacrebleu's defaults)"


def grouped(refs: Sequence[Sequence[str]], n: int) -> list[list[str]]:
    """The references of each of the ``n`` segments, from reference streams."""
    for k, stream in enumerate(refs):
        if len(stream) != n:
            raise BleuprintError(
                f"reference file {k + 1} has {len(stream)} lines, the hypothesis file {n}"
            )
    return [[s[i] for s in refs] for i in range(n)]


def compat_output(mode: str, hypotheses: list[str], ref_streams: list[list[str]]) -> list[str]:
    """What the upstream tool of preset ``mode`` (not ``sacrebleu``) prints for one system
    (``--preset``)."""
    grouped_refs = grouped(ref_streams, len(hypotheses))
    if mode in ("moses", "moses-detok"):
        moses = multi_bleu if mode == "moses" else multi_bleu_detok
        return [str(moses(hypotheses, ref_streams))]
    if mode.startswith("mteval"):
        mteval = mteval_v13a if mode == "mteval-v13a" else mteval_v14
        return [str(mteval(hypotheses, ref_streams))]
    if mode == "nltk":
        score = nltk_corpus_bleu(
            [[r.split() for r in refs] for refs in grouped_refs], [h.split() for h in hypotheses]
        )
        return [repr(score)]
    if mode == "hf":
        metric = load_evaluate_metric("bleu")
        return [json.dumps(metric.compute(predictions=hypotheses, references=grouped_refs))]
    if mode == "nlgmetricverse":
        out = NLGMetricverse()(predictions=hypotheses, references=grouped_refs)
        for key in ("total_time_elapsed",):
            out.pop(key)
        out.get("bleu", {}).pop("time_elapsed", None)
        return [json.dumps(out)]
    if mode in ("torchmetrics", "torchmetrics-sacrebleu"):
        torchmetrics = sacre_bleu_score if mode == "torchmetrics-sacrebleu" else bleu_score
        return [repr(float(torchmetrics(hypotheses, grouped_refs)))]
    # sacrebleu's own output is the command's ordinary output, which running.run prints.
    raise InvalidOptionError(f"preset {mode!r} has no output of its own")


__all__ = [
    "compat_output",
    "grouped",
    "run_compare",
    "run_compare_implementations",
    "run_explain",
]
