"""``bleuprint caption --gts annotations.json --res results.json [more.json ...]``: the COCO
caption evaluation of pycocoevalcap 1.2 (``COCOEvalCap``) without Java: the Stanford PTB
tokenizer, Bleu_1..4, ROUGE_L and CIDEr (CIDEr-D), each equal (``==``) to pycocoevalcap's, with
bootstrap confidence intervals (``-ci``) and paired bootstrap tests between result files
(``--paired-bs``). METEOR and SPICE are pycocoevalcap's own Java programs: ``--java-metrics``
runs them through the real package; otherwise the command says that they were skipped.

The images are those of the first results file, in the annotation file's order (as
pycocoevalcap's demo evaluates ``cocoRes.getImgIds()``); every results file must hold the same
images, each with references.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from bleuprint.cli.actions import add_flags
from bleuprint.cli.errors import library_errors
from bleuprint.cli.output import write_lines
from bleuprint.cli.parser import command_parser
from bleuprint.compat.pycocoevalcap.eval import close_scorer, upstream_scorer
from bleuprint.errors import InvalidInputError
from bleuprint.io.coco import read_coco_annotations, read_coco_results
from bleuprint.metrics.bleu import BLEU
from bleuprint.metrics.cider import CIDEr
from bleuprint.metrics.rouge import ROUGE
from bleuprint.significance.draws import bootstrap_indices, resampled_sums
from bleuprint.significance.estimates import estimate_ci, p_value
from bleuprint.tokenizers.ptb import SIGNATURE, caption_error, tokenize_captions

#: The scores, in pycocoevalcap's order (METEOR and SPICE are its Java programs).
BLEU_NAMES = ("Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4")
JAVA_METRICS = ("METEOR", "SPICE")


def caption_parser() -> argparse.ArgumentParser:
    parser = command_parser(
        "caption",
        "The COCO caption metrics exactly as pycocoevalcap 1.2's COCOEvalCap computes them, "
        "without Java: the Stanford PTB tokenizer (read from the jar pycocoevalcap ships), "
        "Bleu_1..4, ROUGE_L and CIDEr (CIDEr-D). METEOR and SPICE are pycocoevalcap's own "
        "Java programs, run only with --java-metrics.",
    )
    parser.add_argument(
        "--gts", required=True, metavar="JSON",
        help="The COCO captions annotation file (references): images and annotations.",
    )  # fmt: skip
    parser.add_argument(
        "--res", required=True, nargs="+", metavar="JSON",
        help="One or more results files ([{image_id, caption}, ...]); the first is the "
        "baseline of paired tests.",
    )  # fmt: skip
    add_flags(
        parser.add_argument,
        ("--json", "Print one JSON object: every system's scores (and intervals, p-values)."),
        ("--confidence", "Bootstrap 95%% confidence intervals over images (also -ci)."),
        ("--paired-bs", "Paired bootstrap test of each results file against the first."),
    )  # fmt: skip
    parser.add_argument(
        "--java-metrics", nargs="*", choices=list(JAVA_METRICS), default=None, metavar="NAME",
        help="Also METEOR and SPICE (or those named): pycocoevalcap's own Java programs, run "
        "through the real package (needs pycocoevalcap and java; SPICE downloads Stanford "
        "CoreNLP's models on first use).",
    )  # fmt: skip
    parser.add_argument("-ci", dest="confidence", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--n-samples", type=int, default=1000, metavar="N",
        help="Bootstrap resamples (default: %(default)s).",
    )  # fmt: skip
    parser.add_argument(
        "--seed", type=int, default=12345, help="The resampling seed (default: %(default)s)."
    )
    parser.add_argument(
        "--line-breaks", choices=["error", "space"], default="error",
        help="A caption holding CR, U+2028, U+2029, vertical tab or form feed (which the PTB "
        "tokenizer reads as a line end, so pycocoevalcap shifts every later caption to the "
        "wrong image): refuse it (error, the default) or replace them with spaces.",
    )  # fmt: skip
    parser.add_argument("--workers", type=int, default=-1, help="Threads (default: every core).")
    return parser


def _tokenized(
    captions: list[str], images: list[Hashable], where: str, args: argparse.Namespace
) -> list[str]:
    """The captions through pycocoevalcap's tokenizer call (``\\n`` as a space, the other line
    breaks refused or spaced), an error naming the file and the image."""
    mode = "space" if args.line_breaks == "space" else "newline-space"
    try:
        return tokenize_captions(captions, line_breaks=mode, workers=args.workers)
    except InvalidInputError as error:
        message = caption_error(error, images.__getitem__, "--line-breaks space")
        raise InvalidInputError(f"{where}: {message}") from error


class _System:
    """One results file's tokenized captions, statistics and scores."""

    def __init__(self, name: str, hypotheses: list[str], streams: list[list[Any]], workers: int):
        self.name = name
        self.hypotheses = hypotheses
        self.workers = workers
        self.bleu = BLEU(preset="coco", workers=workers).stats(hypotheses, streams)
        rouge = ROUGE(preset="coco", workers=workers).stats(hypotheses, streams)
        self.rouge_images = np.array(
            [r.scores["rougeL"].fmeasure for r in rouge.sentence_results()], dtype=np.float64
        )
        cider = CIDEr(workers=workers).stats(hypotheses, streams).score(workers)
        self.cider_images = np.asarray(cider.sentence_scores, dtype=np.float64)
        bleu: Any = self.bleu.score()
        rouge_score: Any = rouge.score()
        self.scores: dict[str, Any] = dict(zip(BLEU_NAMES, bleu.score))
        self.scores["ROUGE_L"] = rouge_score.scores["rougeL"].fmeasure
        self.scores["CIDEr"] = cider.numpy_score

    def resampled(self, indices: np.ndarray) -> dict[str, np.ndarray]:
        """Each score on every resample (a row of image indices)."""
        # Each resample's counts summed in one core call, scored as a corpus in one more.
        sums = resampled_sums(self.bleu, indices, self.workers)
        scores: list[Any] = self.bleu.config.score_rows_detailed(sums)
        bleu = np.array([s.score for s in scores], dtype=np.float64)
        out = {name: bleu[:, k] for k, name in enumerate(BLEU_NAMES)}
        out["ROUGE_L"] = self.rouge_images[indices].mean(axis=1)
        out["CIDEr"] = self.cider_images[indices].mean(axis=1)
        return out


def run_caption(argv: Sequence[str]) -> int:
    """``bleuprint caption``: the scores of each results file, as text or JSON."""
    args = caption_parser().parse_args(argv)
    with library_errors():
        references = read_coco_annotations(args.gts)
        results = [(path, read_coco_results(path)) for path in args.res]
        first = results[0][1]
        images = [image for image in references if image in first]
        for path, found in results:
            missing = [image for image in found if image not in references]
            if missing:
                raise InvalidInputError(
                    f"results {path!r}: image {missing[0]!r} has no references in {args.gts!r} "
                    f"({len(missing)} such image(s)); remove its results or add its annotations"
                )
            if found.keys() != first.keys():
                raise InvalidInputError(
                    f"results {path!r} covers other images than {args.res[0]!r}: every results "
                    "file must caption the same images"
                )
        empty = [image for image in images if not references[image]]
        if empty:
            raise InvalidInputError(
                f"annotations {args.gts!r}: image {empty[0]!r} has results but no reference "
                "captions"
            )
        counts = [len(references[image]) for image in images]
        flat = [c for image in images for c in references[image]]
        owners = [image for image in images for _ in references[image]]
        tokenized = _tokenized(flat, owners, f"annotations {args.gts!r}", args)
        per_image: list[list[str]] = []
        start = 0
        for count in counts:
            per_image.append(tokenized[start : start + count])
            start += count
        most = max(counts)
        streams = [[refs[k] if k < len(refs) else None for refs in per_image] for k in range(most)]
        systems = []
        for path, found in results:
            captions = [found[image] for image in images]
            hypotheses = _tokenized(captions, images, f"results {path!r}", args)
            systems.append(_System(path, hypotheses, streams, args.workers))
        java_names = [] if args.java_metrics is None else args.java_metrics or list(JAVA_METRICS)
        java = _java_scores(systems, images, per_image, java_names)
        skipped = [name for name in JAVA_METRICS if name not in java_names]
        record = _record(args, systems, java, skipped, len(images), len(flat))
    if args.json:
        write_lines([json.dumps(record, indent=1)])
    else:
        write_lines(_table(record))
    if skipped:
        print(
            f"bleuprint caption: {' and '.join(skipped)} skipped (pycocoevalcap's own Java "
            "programs; --java-metrics runs them)",
            file=sys.stderr,
        )
    return 0


def _java_scores(
    systems: list[_System], images: list[Hashable], references: list[list[str]], names: list[str]
) -> dict[str, dict[str, Any]]:
    """``names`` (METEOR, SPICE) of each system, by pycocoevalcap's own scorers."""
    gts = dict(zip(images, references))
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        scorer = upstream_scorer(name)
        for system in systems:
            res = {image: [h] for image, h in zip(images, system.hypotheses)}
            score, _ = scorer.compute_score(gts, res)
            out.setdefault(system.name, {})[name] = score
        close_scorer(scorer)
    return out


def _record(
    args: argparse.Namespace,
    systems: list[_System],
    java: dict[str, dict[str, Any]],
    skipped: list[str],
    images: int,
    references: int,
) -> dict[str, Any]:
    indices = None
    if args.confidence or (args.paired_bs and len(systems) > 1):
        rng = np.random.default_rng(args.seed)
        indices = bootstrap_indices(rng, images, args.n_samples)
    samples = [s.resampled(indices) for s in systems] if indices is not None else []
    out_systems = []
    for k, system in enumerate(systems):
        entry: dict[str, Any] = {
            "file": system.name,
            "scores": {name: float(v) for name, v in system.scores.items()},
        }
        entry["scores"].update({n: float(v) for n, v in java.get(system.name, {}).items()})
        if args.confidence and samples:
            entry["confidence"] = {
                name: {"mean": float(m), "ci": float(ci)}
                for name, (m, ci) in ((n, estimate_ci(v)) for n, v in samples[k].items())
            }
        if args.paired_bs and k > 0 and samples:
            entry["p_values"] = {}
            for name, values in samples[k].items():
                diff = abs(float(system.scores[name]) - float(systems[0].scores[name]))
                sample_diffs = np.abs(values - samples[0][name])
                entry["p_values"][name] = p_value(sample_diffs - sample_diffs.mean(), diff)
        out_systems.append(entry)
    return {
        "tokenizer": SIGNATURE,
        "images": images,
        "references": references,
        "skipped": skipped,
        "n_samples": args.n_samples if indices is not None else None,
        "seed": args.seed if indices is not None else None,
        "systems": out_systems,
    }


def _table(record: dict[str, Any]) -> list[str]:
    """pycocoevalcap's ``%s: %0.3f`` lines per system, with intervals and p-values."""
    lines = []
    several = len(record["systems"]) > 1
    for entry in record["systems"]:
        if several:
            lines.append(f"== {entry['file']}")
        for name, score in entry["scores"].items():
            line = f"{name}: {score:0.3f}"
            confidence = entry.get("confidence", {}).get(name)
            if confidence is not None:
                line += f" (\u03bc = {confidence['mean']:.3f} \u00b1 {confidence['ci']:.3f})"
            p = entry.get("p_values", {}).get(name)
            if p is not None:
                line += f" (p = {p:.4f}){'*' if p < 0.05 else ''}"
            lines.append(line)
    return lines
