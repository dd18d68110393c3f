#!/usr/bin/env python
"""Captioning benchmarks: the COCO caption metrics of bleuprint against pycocoevalcap 1.2.

One run prints every figure and writes a CSV to ``bench/results/<label>/<date>-caption.csv``
(the columns of bench_bleu.py's CSV plus ``vs_pycocoevalcap``; the helpers every script shares
are in common.py).

Workloads, COCO val2014's shape built from WMT22 (issue "Captioning without Java"):

(a) 40,504 images x 5 references: for each into-English pair with at least 6 system outputs
    (outputs in name order), image ``i`` of rotation ``k`` has output ``k``'s line ``i`` as its
    caption and the next five outputs' lines ``i`` as its references; rotations continue until
    there are enough images. What ``COCOEvalCap.evaluate()`` runs for Bleu_1..4, ROUGE-L and
    CIDEr-D: ``PTBTokenizer().tokenize`` of the references and of the captions (pycocoevalcap:
    the Stanford jar in a JVM, started once per call), then ``Bleu(4)``, ``Rouge()`` and
    ``Cider()`` ``compute_score(gts, res)`` (``verbose=0`` for Bleu); against the same calls of
    ``bleuprint.compat.pycocoevalcap`` and against bleuprint's own path
    (``tokenize_captions``, then ``BLEU(preset="coco")``, ``ROUGE(preset="coco")``,
    ``CIDEr()``: corpus scores and per-image lists).
(b) The PTB tokenizer alone on the first 200,000 reference captions of (a), one caption per
    image: pycocoevalcap's ``PTBTokenizer().tokenize`` (JVM start-up included, as it runs),
    the jar's own tokenizing time (what ``PTBTokenizer`` reports on stderr for the same command
    on the same file: without the JVM's start-up), the drop-in's ``PTBTokenizer().tokenize``
    and ``bleuprint.tokenizers.ptb.tokenize_captions``.
(c) The scorers of (a) alone, on the captions as given (no tokenizer on either side), and
    CIDEr-D alone.

Timing as in every script: the median of ``--repeats`` runs after one warm-up run for
bleuprint, ``--slow-repeats`` (default 1, no warm-up) for pycocoevalcap; fresh strings every
run, the dicts built untimed. Exactness: every corpus figure and per-image list of
pycocoevalcap must equal (``==``) the drop-in's and the metrics'. The script exits with status
1 if a check fails and 2 if the data is missing.

Usage::

    python bench/bench_caption.py            # full run, about 6 minutes on 2 cores
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
    "(a)": ("(a) PTB + Bleu + ROUGE-L + CIDEr-D vs pycocoevalcap", "bleuprint drop-in", ANCHOR,
            50.0),
    "(b)": ("(b) PTB tokenizer vs the jar (JVM start-up included)", "bleuprint drop-in", ANCHOR,
            20.0),
}  # fmt: skip
#: Captions of (b).
PTB_CAPTIONS = 200_000
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


def annotations(captions: dict[Any, list[str]]) -> dict[Any, list[dict[str, str]]]:
    """``{image: [{"caption": text}, ...]}``, what COCOEvalCap hands the PTB tokenizer."""
    return {image: [{"caption": c} for c in texts] for image, texts in captions.items()}


def scorers_runner(package: str, tokenize: bool = False) -> common.Runner:
    """pycocoevalcap's or the drop-in's three scorers, as COCOEvalCap runs them, after its PTB
    tokenizer when ``tokenize``."""
    if package == ANCHOR:
        from pycocoevalcap.bleu.bleu import Bleu
        from pycocoevalcap.cider.cider import Cider
        from pycocoevalcap.rouge.rouge import Rouge
        from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer
    else:
        from bleuprint.compat.pycocoevalcap.bleu.bleu import Bleu  # type: ignore[assignment]
        from bleuprint.compat.pycocoevalcap.cider.cider import Cider  # type: ignore[assignment]
        from bleuprint.compat.pycocoevalcap.rouge.rouge import Rouge  # type: ignore[assignment]
        from bleuprint.compat.pycocoevalcap.tokenizer.ptbtokenizer import (  # type: ignore[assignment]
            PTBTokenizer,
        )

    def prepare(h: list[str], r: list[str]) -> Callable[[], Any]:
        gts, res = coco_dicts(h, r)
        if tokenize:
            gts_in, res_in = annotations(gts), annotations(res)

        def run() -> dict[str, Any]:
            nonlocal gts, res
            if tokenize:
                tokenizer = PTBTokenizer()
                gts, res = tokenizer.tokenize(gts_in), tokenizer.tokenize(res_in)
            with redirect_stdout(io.StringIO()):
                bleu = Bleu(4).compute_score(gts, res, verbose=0)
            return {
                "bleu": bleu,
                "rouge": Rouge().compute_score(gts, res),
                "cider": Cider().compute_score(gts, res),
            }

        return run

    return prepare


def metrics_runner(cider_only: bool = False, tokenize: bool = False) -> common.Runner:
    import bleuprint
    from bleuprint.tokenizers.ptb import tokenize_captions

    def prepare(h: list[str], r: list[str]) -> Callable[[], Any]:
        def run() -> dict[str, Any]:
            nonlocal h, r
            if tokenize:  # in pycocoevalcap's order: the references, then the captions
                r = tokenize_captions(r)
                h = tokenize_captions(h)
            streams = [r[k::REFERENCES] for k in range(REFERENCES)]
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


def check(
    report: common.Report, label: str, expected: dict[str, Any], drop_in: Any, metrics: Any
) -> None:
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
        report.failed_checks.append(f"{label}: " + ", ".join(failures))
        print(f"    exactness: MISMATCH in {', '.join(failures)} ({compared})")
    else:
        print(f"    exactness: equal (==) on {compared}")


def time_all(
    report: common.Report, workload: str, h: list[str], r: list[str], args: Any, tokenize: bool
) -> None:
    n = len(h)
    what = (
        "PTBTokenizer, then Bleu(4), Rouge(), Cider()" if tokenize else "Bleu(4), Rouge(), Cider()"
    )
    anchor = common.time_call(
        scorers_runner(ANCHOR, tokenize), h, r, args.slow_repeats, warmup=False
    )
    base = anchor.median
    common.add_time(report, workload, ANCHOR, n, anchor, None, what, anchor=ANCHOR)
    drop_in = common.time_call(scorers_runner("bleuprint", tokenize), h, r, args.repeats)
    common.add_time(report, workload, "bleuprint drop-in", n, drop_in, base,
                    "compat.pycocoevalcap: the same calls", anchor=ANCHOR)  # fmt: skip
    metrics = common.time_call(metrics_runner(tokenize=tokenize), h, r, args.repeats)
    common.add_time(report, workload, "bleuprint metrics", n, metrics, base,
                    ("tokenize_captions, then " if tokenize else "")
                    + "BLEU/ROUGE(preset='coco'), CIDEr(): scores and per-image lists",
                    anchor=ANCHOR)  # fmt: skip
    if not tokenize:
        cider = common.time_call(metrics_runner(cider_only=True), h, r, args.repeats)
        common.add_time(report, workload, "bleuprint CIDEr", n, cider, None,
                        "CIDEr().corpus_score alone", match=None, anchor=ANCHOR)  # fmt: skip
    check(report, workload[:3], anchor.result, drop_in.result, metrics.result)


def jar_tokenizing_seconds(captions: list[str]) -> float:
    """The jar's own time for ``captions`` (pycocoevalcap's command and input file): the
    tokens it reports divided by its tokens per second, measured inside the JVM after start-up."""
    import os
    import re
    import subprocess
    import tempfile

    from bleuprint.tokenizers.ptb import find_jar

    with tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False) as f:
        f.write("\n".join(c.replace("\n", " ") for c in captions).encode())
    try:
        done = subprocess.run(
            ["java", "-cp", str(find_jar()), "edu.stanford.nlp.process.PTBTokenizer",
             "-preserveLines", "-lowerCase", f.name],
            capture_output=True, check=True,
        )  # fmt: skip
    finally:
        os.remove(f.name)
    found = re.search(rb"tokenized (\d+) tokens at ([\d.]+) tokens per second", done.stderr)
    if found is None:
        common.die(f"the jar did not report its time: {done.stderr[-300:]!r}")
    return int(found.group(1)) / float(found.group(2))


def time_ptb(report: common.Report, workload: str, captions: list[str], args: Any) -> None:
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer as Upstream

    from bleuprint.compat.pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer
    from bleuprint.tokenizers.ptb import tokenize_captions

    n = len(captions)

    def runner(tokenize: Callable[[dict[int, list[dict[str, str]]]], Any]) -> common.Runner:
        def prepare(h: list[str], _: list[str]) -> Callable[[], Any]:
            images = annotations({i: [c] for i, c in enumerate(h)})
            return lambda: tokenize(images)

        return prepare

    anchor = common.time_call(
        runner(lambda d: Upstream().tokenize(d)), captions, [], args.slow_repeats, warmup=False
    )
    base = anchor.median
    common.add_time(report, workload, ANCHOR, n, anchor, None,
                    "PTBTokenizer().tokenize: the jar in a JVM, as it runs",
                    anchor=ANCHOR)  # fmt: skip
    inside = common.Timing([jar_tokenizing_seconds(captions)], None, False)
    common.add_time(report, workload, "the jar, tokenizing only", n, inside, None,
                    "its own figure on stderr: no JVM start-up", match=None,
                    anchor=ANCHOR)  # fmt: skip
    drop_in = common.time_call(runner(lambda d: PTBTokenizer().tokenize(d)), captions, [],
                               args.repeats)  # fmt: skip
    common.add_time(report, workload, "bleuprint drop-in", n, drop_in, base,
                    "compat.pycocoevalcap PTBTokenizer().tokenize",
                    anchor=ANCHOR,
                    vs_jar_tokenizing=common.ratio(inside.median, drop_in.median))  # fmt: skip
    core = common.time_call(lambda h, _: lambda: tokenize_captions(h), captions, [], args.repeats)
    common.add_time(report, workload, "bleuprint tokenize_captions", n, core, base,
                    "the same captions as one list", anchor=ANCHOR,
                    vs_jar_tokenizing=common.ratio(inside.median, core.median))  # fmt: skip
    expected, ours = anchor.result, drop_in.result
    if ours != expected or core.result != [v[0] for v in expected.values()]:
        report.failed_checks.append("(b): the PTB tokenizer's captions differ")
        print(f"    exactness: MISMATCH on {n:,} captions")
    else:
        print(f"    exactness: equal (==) on {n:,} captions")


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
    # The CSV's ratio columns: pycocoevalcap, and (b)'s jar without its start-up.
    report.RATIO_TOOLS = (ANCHOR, "jar_tokenizing")
    full = f"(a) {len(captions):,} images x {REFERENCES} refs, PTB + Bleu_1..4 + ROUGE-L + CIDEr-D"
    ptb_captions = references[: min(PTB_CAPTIONS, len(references))]
    ptb = f"(b) PTB tokenizer, {len(ptb_captions):,} captions"
    scorers = f"(c) {len(captions):,} images x {REFERENCES} refs, Bleu_1..4 + ROUGE-L + CIDEr-D"
    sections: list[tuple[str, Callable[[], None]]] = [
        (full, lambda: time_all(report, full, captions, references, args, tokenize=True)),
        (ptb, lambda: time_ptb(report, ptb, ptb_captions, args)),
        (scorers, lambda: time_all(report, scorers, captions, references, args, tokenize=False)),
    ]
    common.run_sections(report, sections, args)
    common.print_results(
        report,
        "Results (time: median wall clock; ratios = speed-up: the other tool's time / this row's)",
        (ANCHOR, "jar_tokenizing"),
    )
    common.speedup_targets(report, TARGETS)
    common.print_targets(report, args.quick)
    params = common.run_params(args, now, images=args.images)
    return common.finish(report, args, info, params, now, "-caption")


if __name__ == "__main__":
    raise SystemExit(main())
