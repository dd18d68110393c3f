"""``bleuprint REF ... -i HYP --preset NAME``: what the upstream tool of a preset prints
(``multi-bleu.perl``'s line, mteval's line, nltk's float, HF's dict, ...), with the compat
code of every tool the presets emulate; loaded for ``--preset`` only."""

from __future__ import annotations

import contextlib
import io
import json

from bleuprint.cli.compat import references_per_segment
from bleuprint.compat.evaluate import load as load_evaluate_metric
from bleuprint.compat.moses import multi_bleu, multi_bleu_detok
from bleuprint.compat.mteval import mteval_v13a, mteval_v14
from bleuprint.compat.nlgmetricverse import NLGMetricverse
from bleuprint.compat.nltk import corpus_bleu as nltk_corpus_bleu
from bleuprint.compat.pycocoevalcap.bleu.bleu import Bleu as CocoBleu
from bleuprint.compat.torchmetrics import bleu_score, sacre_bleu_score
from bleuprint.errors import InvalidOptionError


def compat_output(mode: str, hypotheses: list[str], ref_streams: list[list[str]]) -> list[str]:
    """What the upstream tool of preset ``mode`` (not ``sacrebleu``) prints for one system
    (``--preset``)."""
    per_segment = references_per_segment(ref_streams, len(hypotheses))
    if mode in ("moses", "moses-detok"):
        moses = multi_bleu if mode == "moses" else multi_bleu_detok
        return [str(moses(hypotheses, ref_streams))]
    if mode.startswith("mteval"):
        mteval = mteval_v13a if mode == "mteval-v13a" else mteval_v14
        return [str(mteval(hypotheses, ref_streams))]
    if mode == "nltk":
        score = nltk_corpus_bleu(
            [[r.split() for r in refs] for refs in per_segment], [h.split() for h in hypotheses]
        )
        return [repr(score)]
    if mode == "hf":
        metric = load_evaluate_metric("bleu")
        return [json.dumps(metric.compute(predictions=hypotheses, references=per_segment))]
    if mode == "nlgmetricverse":
        out = NLGMetricverse()(predictions=hypotheses, references=per_segment)
        for key in ("total_time_elapsed",):
            out.pop(key)
        out.get("bleu", {}).pop("time_elapsed", None)
        return [json.dumps(out)]
    if mode in ("torchmetrics", "torchmetrics-sacrebleu"):
        torchmetrics = sacre_bleu_score if mode == "torchmetrics-sacrebleu" else bleu_score
        return [repr(float(torchmetrics(hypotheses, per_segment)))]
    if mode == "coco":
        return _coco_bleu(hypotheses, per_segment)
    # sacrebleu's own output is the command's ordinary output, which running.run prints.
    raise InvalidOptionError(f"preset {mode!r} has no output of its own")


def _coco_bleu(hypotheses: list[str], per_segment: list[list[str]]) -> list[str]:
    """What pycocoevalcap's ``COCOEvalCap.evaluate()`` prints for its Bleu scorer, line i
    being image i: the scorer's own two lines (captured), then ``Bleu_k: %0.3f``."""
    gts = dict(enumerate(per_segment))
    res = {i: [h] for i, h in enumerate(hypotheses)}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        scores, _ = CocoBleu(4).compute_score(gts, res)
    lines = ["computing Bleu score...", *printed.getvalue().splitlines()]
    return lines + [f"Bleu_{k}: {score:0.3f}" for k, score in enumerate(scores, 1)]


__all__ = ["compat_output"]
