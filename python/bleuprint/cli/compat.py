"""The command line's presets (each loads the compat code only when run):

- ``bleuprint explain --hyp TEXT --ref TEXT [--ref TEXT ...] [--preset NAME]``
- ``bleuprint compare-presets REF [REF ...] -i HYP``
- ``bleuprint REF ... -i HYP --preset NAME``: the upstream tool's own output
  (``multi-bleu.perl``'s line, mteval's line, nltk's float, HF's dict).

``--compat`` and ``compare-implementations`` are the deprecated old spellings: they work as
before, with one line on stderr.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any, Optional, Union

from bleuprint.cli.errors import Reporter
from bleuprint.errors import BleuprintError, InvalidOptionError
from bleuprint.io.files import read_lines

#: The preset names (kept here so that building the parser does not load the presets).
PRESET_NAMES = (
    "sacrebleu", "nltk", "hf", "nlgmetricverse", "torchmetrics", "torchmetrics-sacrebleu",
    "moses", "moses-detok", "mteval-v13a", "mteval-v14",
)  # fmt: skip
#: The deprecated subcommand names and their new names.
RENAMED_SUBCOMMANDS = {"compare-implementations": "compare-presets"}
SUBCOMMANDS = ("explain", "compare-presets", *RENAMED_SUBCOMMANDS)
#: Where the parsers record the deprecated option spellings used (see :class:`DeprecatedAlias`).
DEPRECATED_USED = "_deprecated_used"


def preset_name(value: str) -> str:
    """``--preset``'s type: a preset name, or a usage error that lists the names."""
    if value not in PRESET_NAMES:
        raise argparse.ArgumentTypeError(
            f"unknown preset {value!r}; expected one of {', '.join(PRESET_NAMES)}"
        )
    return value


class DeprecatedAlias(argparse.Action):
    """An old option name (``--compat``) that stores into its new option's ``dest`` and is
    recorded, so that the command notes it on stderr once parsing is done."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Optional[Union[str, Sequence[Any]]],
        option_string: Optional[str] = None,
    ) -> None:
        setattr(namespace, self.dest, values)
        used = getattr(namespace, DEPRECATED_USED, None) or []
        if option_string not in used:
            used.append(option_string)
        setattr(namespace, DEPRECATED_USED, used)


def add_preset_option(add: Any, default: Optional[str], help: str) -> None:
    """``--preset NAME``, and ``--compat NAME`` as its deprecated alias."""
    add("--preset", type=preset_name, default=default, metavar="NAME", help=help)
    add(
        "--compat", type=preset_name, dest="preset", action=DeprecatedAlias, metavar="NAME",
        default=argparse.SUPPRESS, help="Deprecated: the old name of --preset.",
    )  # fmt: skip


def note_deprecated(args: argparse.Namespace) -> None:
    """One stderr line per deprecated option spelling that was used."""
    for option in getattr(args, DEPRECATED_USED, None) or []:
        deprecated(option, "--preset")


def deprecated(old: str, new: str) -> None:
    Reporter.write(f"{old} is deprecated, use {new}")


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
    parser = argparse.ArgumentParser(
        prog="bleuprint compare-presets",
        description="Score one hypothesis file under every preset (every other tool's BLEU "
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
    from bleuprint.analysis.explanation import explain  # the presets load for this subcommand only

    args = explain_parser().parse_args(argv)
    note_deprecated(args)
    result = explain(args.hyp, args.ref, preset=args.preset)
    if args.html:
        with open(args.html, "w", encoding="utf-8") as f:
            f.write(result._repr_html_())
    return str(result).splitlines()


def _differences(name: str) -> str:
    from bleuprint.metrics.bleu.config import BLEUConfig, knob_changes, preset_config

    changes = knob_changes(preset_config(name), BLEUConfig())
    return ", ".join(changes) or "none (sacrebleu's defaults)"


def run_compare(argv: Sequence[str]) -> list[str]:
    # Tables and presets load for this subcommand only.
    from tabulate import tabulate  # type: ignore[import-untyped]

    from bleuprint.metrics.bleu.config import preset_config
    from bleuprint.presets import PRESETS

    args = compare_parser().parse_args(argv)
    hyps = _read(args.input, args.encoding)
    refs = _grouped([_read(r, args.encoding) for r in args.refs], len(hyps))
    rows = []
    for name, preset in PRESETS.items():
        try:
            config = preset_config(name)
            value = float(config.item_score(hyps, refs).score)
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


def compat_output(mode: str, hypotheses: list[str], ref_streams: list[list[str]]) -> list[str]:
    """What the upstream tool of preset ``mode`` (not ``sacrebleu``) prints for one system
    (``--preset``). Only the chosen tool's compat module is imported."""
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
    if mode in ("torchmetrics", "torchmetrics-sacrebleu"):
        from bleuprint.compat.torchmetrics import bleu_score, sacre_bleu_score

        torchmetrics = sacre_bleu_score if mode == "torchmetrics-sacrebleu" else bleu_score
        return [repr(float(torchmetrics(hypotheses, grouped)))]
    # sacrebleu's own output is the command's ordinary output, which running.run prints.
    raise InvalidOptionError(f"preset {mode!r} has no output of its own")


def run_subcommand(argv: Sequence[str]) -> Optional[list[str]]:
    """Output lines of ``explain`` or ``compare-presets``; ``None`` for other argv."""
    if not argv or argv[0] not in SUBCOMMANDS:
        return None
    if argv[0] in RENAMED_SUBCOMMANDS:
        deprecated(argv[0], RENAMED_SUBCOMMANDS[argv[0]])
    if argv[0] == "explain":
        return run_explain(argv[1:])
    return run_compare(argv[1:])


__all__ = [
    "PRESET_NAMES",
    "SUBCOMMANDS",
    "add_preset_option",
    "compat_output",
    "note_deprecated",
    "preset_name",
    "run_subcommand",
]
