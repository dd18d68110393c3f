"""``bleuprint.compat.pycocoevalcap.eval.COCOEvalCap`` with pycocotools' ``COCO`` objects,
against the real pycocoevalcap 1.2 run step by step (its PTB tokenizer in Java, then its Bleu,
METEOR, Rouge and Cider; its own ``evaluate()`` cannot run here, because its SPICE downloads
Stanford models): ``eval``, ``imgToEval``, ``evalImgs`` and the printed lines; METEOR delegated
to pycocoevalcap's own scorer; the errors when METEOR or SPICE cannot run, and ``skip``."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from bleuprint.compat.pycocoevalcap.eval import COCOEvalCap, close_scorer, upstream_scorer
from bleuprint.errors import InvalidOptionError, ModelUnavailableError
from tests.support.data import read_lines
from tests.support.java import require_java

coco_module = pytest.importorskip("pycocotools.coco")
upstream_tokenizer = pytest.importorskip("pycocoevalcap.tokenizer.ptbtokenizer")
upstream_bleu = pytest.importorskip("pycocoevalcap.bleu.bleu")
upstream_rouge = pytest.importorskip("pycocoevalcap.rouge.rouge")
upstream_cider = pytest.importorskip("pycocoevalcap.cider.cider")

pytestmark = pytest.mark.differential


def _coco(wmt22: Path, tmp: Path, images: int = 120) -> tuple[Any, Any]:
    """pycocotools ``COCO`` objects: 1 to 5 references per image (WMT22 references and
    outputs), captions from another output, an empty caption and a duplicate reference."""
    require_java()  # the oracle's tokenizer
    refs = read_lines(wmt22 / "references" / "generaltest2022.de-en.ref.A.en")
    outputs = sorted((wmt22 / "system-outputs").glob("generaltest2022.de-en.hyp.*"))
    others = [read_lines(p) for p in outputs[:5]]
    annotations = []
    for i in range(images):
        texts = [refs[i], *(o[i] for o in others[1 : 1 + i % 5])]
        if i == 3:
            texts.append(texts[0])  # a duplicate reference
        for text in texts:
            annotations.append({"image_id": 1000 + i, "id": len(annotations), "caption": text})
    results = [{"image_id": 1000 + i, "caption": others[0][i]} for i in range(images)]
    results[7]["caption"] = ""
    (tmp / "ann.json").write_text(
        json.dumps(
            {"images": [{"id": 1000 + i} for i in range(images)], "annotations": annotations}
        )
    )
    (tmp / "res.json").write_text(json.dumps(results))
    with contextlib.redirect_stdout(io.StringIO()):
        coco = coco_module.COCO(str(tmp / "ann.json"))
        return coco, coco.loadRes(str(tmp / "res.json"))


def _upstream(coco: Any, res: Any, meteor: bool) -> dict[str, Any]:
    """pycocoevalcap's evaluate() without SPICE: its own steps."""
    ids = coco.getImgIds()
    tokenizer = upstream_tokenizer.PTBTokenizer()
    gts = tokenizer.tokenize({i: coco.imgToAnns[i] for i in ids})
    hyp = tokenizer.tokenize({i: res.imgToAnns[i] for i in ids})
    out: dict[str, Any] = {}
    images: dict[Any, dict[str, Any]] = {}
    scorers: list[tuple[Any, Any]] = [
        (upstream_bleu.Bleu(4), ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4"])
    ]
    if meteor:
        scorers.append((upstream_scorer("METEOR"), "METEOR"))
    scorers += [(upstream_rouge.Rouge(), "ROUGE_L"), (upstream_cider.Cider(), "CIDEr")]
    with contextlib.redirect_stdout(io.StringIO()):
        for scorer, method in scorers:
            score, scores = scorer.compute_score(gts, hyp)
            pairs = (
                zip(score, scores, method)
                if isinstance(method, list)
                else [(score, scores, method)]
            )
            close_scorer(scorer)
            for sc, scs, m in pairs:
                out[m] = sc
                for image, s in zip(gts.keys(), scs):
                    images.setdefault(image, {"image_id": image})[m] = s
    return {"eval": out, "imgToEval": images}


def test_evaluate_as_pycocoevalcap(wmt22: Path, tmp_path: Path) -> None:
    coco, res = _coco(wmt22, tmp_path)
    expected = _upstream(coco, res, meteor=True)
    evaluation = COCOEvalCap(coco, res, skip=["SPICE"])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        evaluation.evaluate()
    assert evaluation.eval == expected["eval"]
    assert [type(v) for v in evaluation.eval.values()] == [
        type(v) for v in expected["eval"].values()
    ]
    assert evaluation.imgToEval == expected["imgToEval"]
    assert evaluation.evalImgs == list(expected["imgToEval"].values())
    assert evaluation.skipped == ["SPICE"]
    printed = out.getvalue().splitlines()
    assert printed[:2] == ["tokenization...", "setting up scorers..."]
    assert "METEOR: pycocoevalcap's own Java program, run by bleuprint" in printed
    assert f"CIDEr: {expected['eval']['CIDEr']:0.3f}" in printed
    assert printed[-1] == "skipping SPICE score (skip=('SPICE',)): not computed"


def test_skipping_both_java_scorers(wmt22: Path, tmp_path: Path) -> None:
    coco, res = _coco(wmt22, tmp_path, images=30)
    expected = _upstream(coco, res, meteor=False)
    evaluation = COCOEvalCap(coco, res, skip=("METEOR", "SPICE"))
    with contextlib.redirect_stdout(io.StringIO()):
        evaluation.evaluate()
    assert evaluation.eval == expected["eval"]
    assert evaluation.skipped == ["METEOR", "SPICE"]
    assert "METEOR" not in evaluation.imgToEval[1000]
    with pytest.raises(InvalidOptionError, match="skip takes METEOR and SPICE"):
        COCOEvalCap(coco, res, skip=["BLEU"])


def test_missing_java_or_package_is_named(
    wmt22: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    coco, res = _coco(wmt22, tmp_path, images=10)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(ModelUnavailableError, match="no java on PATH.*skip=\\('METEOR',\\)"):
        with contextlib.redirect_stdout(io.StringIO()):
            COCOEvalCap(coco, res, skip=["SPICE"]).evaluate()
    monkeypatch.delitem(sys.modules, "_bleuprint_upstream_pycocoevalcap", raising=False)
    monkeypatch.setattr("importlib.machinery.PathFinder.find_spec", lambda *a, **k: None)
    with pytest.raises(ModelUnavailableError, match="pip install pycocoevalcap"):
        upstream_scorer("SPICE")
