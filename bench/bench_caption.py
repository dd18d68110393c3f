#!/usr/bin/env python
"""Captioning benchmarks: the COCO caption metrics of bleuprint against pycocoevalcap 1.2.

One run prints every figure and writes a CSV to ``bench/results/<label>/<date>-caption.csv``
(the columns of bench_bleu.py's CSV plus ``vs_pycocoevalcap``; the helpers every script shares
are in common.py).

Workload, COCO val2014's shape built from WMT22 (issue "Captioning without Java"):

(a) 40,504 images x 5 references: for each into-English pair with at least 6 system outputs
    (outputs in name order), image ``i`` of rotation ``k`` has output ``k``'s line ``i`` as its
    caption and the next five outputs' lines ``i`` as its references; rotations continue until
    there are enough images. Bleu_1..4, ROUGE-L and CIDEr-D of the whole set, as
    ``COCOEvalCap.evaluate()`` computes them: pycocoevalcap's ``Bleu(4)``, ``Rouge()`` and
    ``Cider()`` ``compute_score(gts, res)`` (``verbose=0`` for Bleu), against the same calls
    of ``bleuprint.compat.pycocoevalcap`` and bleuprint's own metrics
    (``BLEU(preset="coco")``, ``ROUGE(preset="coco")``, ``CIDEr()``, corpus scores and
    per-image lists), and CIDEr-D alone. The captions are scored as given: the PTB tokenizer
    (pycocoevalcap's Java step before the scorers) is not built yet, so this is the scorers'
    part of the issue's target, without the tokenizer on either side.

Timing as in every script: the median of ``--repeats`` runs after one warm-up run for
bleuprint, ``--slow-repeats`` (default 1, no warm-up) for pycocoevalcap; fresh strings every
run, the dicts built untimed. Exactness: every corpus figure and per-image list of
pycocoevalcap must equal (``==``) the drop-in's and the metrics'. The script exits with status
1 if a check fails and 2 if the data is missing.

Usage::

    python bench/bench_caption.py            # full run, about 3 minutes on 2 cores
    python bench/bench_caption.py --quick    # smoke run, 4,000 images, writes no CSV
"""

from __future__ import annotations

import importlib.metadata
import io
from collections.abc import Callable, Sequence
from contextlib import redirect_stdout
from typing import Any, Optional

import common

ANCHOR = "pycocoevalcap"
REFERENCES = 5
#: Speed-up targets: label, bleuprint's row, the other tool's row, at least this much faster.
TARGETS = {
    "(a)": ("(a) Bleu + ROUGE-L + CIDEr-D vs pycocoevalcap (no PTB)", "bleuprint drop-in", ANCHOR,
            50.0),
}  # fmt: skip
COUNTS: dict[str, common.Count] = {
    "repeats": (3, 1, "timed runs of bleuprint (default 3)"),
    "slow_repeats": (1, 1, "timed runs of pycocoevalcap (default 1, no warm-up)"),
    "images": (40_504, 4_000, "images of (a) (default 40,504, COCO val2014's)"),
}  # fmt: skip
QUICK = "smoke run: 4,000 images, one repeat"


def caption_set(images: int) -> tuple[list[str], list[str], list[str]]:
    """``images`` captions, their references (``REFERENCES`` per image, flat) and notes."""
    outputs: list[list[list[str]]] = []
    notes: list[str] = []
    systems = common.DATA / "system-outputs"
    pairs = sorted({p.name.split(".")[1] for p in systems.glob("generaltest2022.*-en.hyp.*")})
    for pair in pairs:
        lines = [
            common.read_lines(p) for p in sorted(systems.glob(f"generaltest2022.{pair}.hyp.*"))
        ]
        length = min(len(x) for x in lines) if lines else 0
        if len(lines) > REFERENCES and length:
            outputs.append([x[:length] for x in lines])
            notes.append(f"{pair}: {len(lines)} outputs x {length} segments")
    if not outputs:
        common.die(f"no into-English pair with {REFERENCES + 1} system outputs under {common.DATA}")
    captions: list[str] = []
    references: list[str] = []
    rotation = 0
    while len(captions) < images:
        for lines in outputs:
            k = len(lines)
            for i in range(len(lines[0])):
                if len(captions) == images:
                    break
                captions.append(lines[rotation % k][i])
                references.extend(lines[(rotation + j) % k][i] for j in range(1, REFERENCES + 1))
        rotation += 1
    notes.append(f"{images:,} images in {rotation} rotation(s)")
    return captions, references, notes


def coco_dicts(captions: list[str], references: list[str]) -> tuple[dict, dict]:
    gts = {i: references[i * REFERENCES : (i + 1) * REFERENCES] for i in range(len(captions))}
    return gts, {i: [c] for i, c in enumerate(captions)}


def scorers_runner(package: str) -> common.Runner:
    """pycocoevalcap's or the drop-in's three scorers, as COCOEvalCap runs them."""
    if package == ANCHOR:
        from pycocoevalcap.bleu.bleu import Bleu
        from pycocoevalcap.cider.cider import Cider
        from pycocoevalcap.rouge.rouge import Rouge
    else:
        from bleuprint.compat.pycocoevalcap.bleu.bleu import Bleu  # type: ignore[assignment]
        from bleuprint.compat.pycocoevalcap.cider.cider import Cider  # type: ignore[assignment]
        from bleuprint.compat.pycocoevalcap.rouge.rouge import Rouge  # type: ignore[assignment]

    def prepare(h: list[str], r: list[str]) -> Callable[[], Any]:
        gts, res = coco_dicts(h, r)

        def run() -> dict[str, Any]:
            with redirect_stdout(io.StringIO()):
                bleu = Bleu(4).compute_score(gts, res, verbose=0)
            return {
                "bleu": bleu,
                "rouge": Rouge().compute_score(gts, res),
                "cider": Cider().compute_score(gts, res),
            }

        return run

    return prepare


def metrics_runner(cider_only: bool = False) -> common.Runner:
    import bleuprint

    def prepare(h: list[str], r: list[str]) -> Callable[[], Any]:
        streams = [r[k::REFERENCES] for k in range(REFERENCES)]

        def run() -> dict[str, Any]:
            cider = bleuprint.CIDEr().corpus_score(h, streams)
            if cider_only:
                return {"cider": cider}
            bleu = bleuprint.BLEU(preset="coco").stats(h, streams)
            rouge = bleuprint.ROUGE(preset="coco").stats(h, streams)
            return {
                "bleu": (bleu.score().score, bleu.sentence_results()),
                "rouge": (rouge.score(), rouge.sentence_results()),
                "cider": cider,
            }

        return run

    return prepare


def check(report: common.Report, expected: dict[str, Any], drop_in: Any, metrics: Any) -> None:
    """The drop-in's results and the metrics' equal pycocoevalcap's (``==``)."""
    images = len(expected["cider"][1])
    failures = []
    for name in ("bleu", "rouge", "cider"):
        ours, theirs = drop_in[name], expected[name]
        same = ours == theirs if name == "bleu" else (
            ours[0] == theirs[0] and ours[1].tolist() == theirs[1].tolist()
        )  # fmt: skip
        if not same:
            failures.append(f"drop-in {name}")
    bleu_scores, bleu_lists = metrics["bleu"]
    if bleu_scores != expected["bleu"][0] or [r.score for r in bleu_lists] != [
        list(s) for s in zip(*expected["bleu"][1])
    ]:
        failures.append("BLEU(preset='coco')")
    rouge_score, rouge_rows = metrics["rouge"]
    if (
        rouge_score.scores["rougeL"].fmeasure != expected["rouge"][0]
        or [r.scores["rougeL"].fmeasure for r in rouge_rows] != expected["rouge"][1].tolist()
    ):
        failures.append("ROUGE(preset='coco')")
    cider = metrics["cider"]
    if cider.numpy_score != expected["cider"][0] or (
        cider.sentence_scores.tolist() != expected["cider"][1].tolist()
    ):
        failures.append("CIDEr()")
    compared = f"{images:,} images x (4 Bleu orders + ROUGE-L + CIDEr-D) and the corpus figures"
    if failures:
        report.failed_checks.append("(a): " + ", ".join(failures))
        print(f"    exactness: MISMATCH in {', '.join(failures)} ({compared})")
    else:
        print(f"    exactness: equal (==) on {compared}")


def time_all(report: common.Report, workload: str, h: list[str], r: list[str], args: Any) -> None:
    n = len(h)
    anchor = common.time_call(scorers_runner(ANCHOR), h, r, args.slow_repeats, warmup=False)
    base = anchor.median
    common.add_time(report, workload, ANCHOR, n, anchor, None, "Bleu(4), Rouge(), Cider()",
                    anchor=ANCHOR)  # fmt: skip
    drop_in = common.time_call(scorers_runner("bleuprint"), h, r, args.repeats)
    common.add_time(report, workload, "bleuprint drop-in", n, drop_in, base,
                    "compat.pycocoevalcap: the same three calls", anchor=ANCHOR)  # fmt: skip
    metrics = common.time_call(metrics_runner(), h, r, args.repeats)
    common.add_time(report, workload, "bleuprint metrics", n, metrics, base,
                    "BLEU/ROUGE(preset='coco'), CIDEr(): scores and per-image lists",
                    anchor=ANCHOR)  # fmt: skip
    cider = common.time_call(metrics_runner(cider_only=True), h, r, args.repeats)
    common.add_time(report, workload, "bleuprint CIDEr", n, cider, None,
                    "CIDEr().corpus_score alone", match=None, anchor=ANCHOR)  # fmt: skip
    check(report, anchor.result, drop_in.result, metrics.result)


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = common.parse_args(__doc__, QUICK, COUNTS, argv)
    versions = {"pycocoevalcap": importlib.metadata.version("pycocoevalcap")}
    info, now = common.begin(args, "bleuprint captioning benchmarks", **versions)
    print(f"  repeats: median of {args.repeats} timed runs of bleuprint (after one warm-up run), "
          f"{args.slow_repeats} of {ANCHOR} (no warm-up)")  # fmt: skip
    print()
    captions, references, notes = caption_set(args.images)
    print("data: " + "; ".join(notes))
    print()
    report = common.Report()
    report.RATIO_TOOLS = (ANCHOR,)  # the CSV's one ratio column
    workload = f"(a) {len(captions):,} images x {REFERENCES} refs, Bleu_1..4 + ROUGE-L + CIDEr-D"
    sections: list[tuple[str, Callable[[], None]]] = [
        (workload, lambda: time_all(report, workload, captions, references, args))
    ]
    common.run_sections(report, sections, args)
    common.print_results(
        report,
        "Results (time: median wall clock; ratios = speed-up: the other tool's time / this row's)",
        (ANCHOR,),
    )
    common.speedup_targets(report, TARGETS)
    common.print_targets(report, args.quick)
    params = common.run_params(args, now, images=args.images)
    return common.finish(report, args, info, params, now, "-caption")


if __name__ == "__main__":
    raise SystemExit(main())
