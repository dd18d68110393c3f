"""pycocoevalcap 1.2's ``eval.py``: :class:`COCOEvalCap`, the COCO caption evaluation.

It takes pycocotools ``COCO`` objects (or anything with ``getImgIds()`` and ``imgToAnns``),
tokenizes references and captions with the PTB tokenizer and scores them with Bleu_1..4,
METEOR, ROUGE_L, CIDEr and SPICE, filling ``eval``, ``imgToEval`` and ``evalImgs`` and printing
what upstream prints. The tokenizer, Bleu, ROUGE_L and CIDEr are bleuprint's, without Java.

METEOR 1.5 and SPICE 1.0 are Java programs that bleuprint does not reimplement. Where the real
pycocoevalcap and Java are installed, ``evaluate()`` runs pycocoevalcap's own ``Meteor`` and
``Spice`` and says so; otherwise it raises :class:`~bleuprint.errors.ModelUnavailableError`
naming what is missing, before any scoring. ``COCOEvalCap(coco, cocoRes, skip=("METEOR",
"SPICE"))`` leaves them out on purpose: ``evaluate()`` prints which were skipped and lists them
in ``skipped``; their keys are absent from ``eval`` and ``imgToEval``.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import shutil
import sys
import types
from collections.abc import Iterable
from typing import Any

from bleuprint.compat.pycocoevalcap.bleu.bleu import Bleu
from bleuprint.compat.pycocoevalcap.cider.cider import Cider
from bleuprint.compat.pycocoevalcap.rouge.rouge import Rouge
from bleuprint.compat.pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer
from bleuprint.errors import InvalidOptionError, ModelUnavailableError

#: The scorers bleuprint does not compute: their name and pycocoevalcap module.
DELEGATED = {"METEOR": "meteor.meteor", "SPICE": "spice.spice"}
#: The real pycocoevalcap, loaded under this name (``import pycocoevalcap`` may be bleuprint's
#: drop-in after ``install()``).
_UPSTREAM = "_bleuprint_upstream_pycocoevalcap"


def upstream_scorer(name: str) -> Any:
    """A new instance of pycocoevalcap's own ``Meteor`` or ``Spice`` (Java).

    Raises :class:`ModelUnavailableError` naming what is missing: the pycocoevalcap package
    (``pip install pycocoevalcap``) or Java (``apt install default-jre-headless``).
    """
    if name not in DELEGATED:
        raise InvalidOptionError(f"unknown delegated scorer {name!r}; expected METEOR or SPICE")
    package = sys.modules.get(_UPSTREAM)
    if package is None:
        spec = importlib.machinery.PathFinder.find_spec("pycocoevalcap")
        if spec is None or not spec.submodule_search_locations:
            raise ModelUnavailableError(
                f"{name} is pycocoevalcap's own Java program, which bleuprint runs but does not "
                f"reimplement: pip install pycocoevalcap, or pass skip=({name!r},) to leave "
                f"{name} out"
            )
        package = types.ModuleType(_UPSTREAM)
        package.__path__ = list(spec.submodule_search_locations)
        sys.modules[_UPSTREAM] = package
    if shutil.which("java") is None:
        raise ModelUnavailableError(
            f"{name} runs pycocoevalcap's Java program and there is no java on PATH: install "
            f"Java (e.g. apt install default-jre-headless), or pass skip=({name!r},) to leave "
            f"{name} out"
        )
    module = importlib.import_module(f"{_UPSTREAM}.{DELEGATED[name]}")
    try:
        return getattr(module, name.capitalize())()
    except (OSError, RuntimeError, ValueError) as error:  # URLError is an OSError
        raise ModelUnavailableError(
            f"pycocoevalcap's {name} could not start ({type(error).__name__}: {error}); SPICE "
            "downloads Stanford CoreNLP 3.6.0's models on first use. Leave it out with "
            f"COCOEvalCap(..., skip=({name!r},)) or, on the command line, by naming only the "
            "others after --java-metrics"
        ) from error


def close_scorer(scorer: Any) -> None:
    """Stops a delegated scorer's Java process and closes its pipes (pycocoevalcap's ``Meteor``
    kills its process when collected but leaves the pipes open)."""
    process = getattr(scorer, "meteor_p", None)
    if process is None:
        return
    for pipe in (process.stdin, process.stdout, process.stderr):
        if pipe is not None:
            pipe.close()
    process.kill()
    process.wait()


class COCOEvalCap:
    """The COCO caption evaluation of ``cocoRes`` (results) against ``coco`` (annotations).

    ``skip``: any of ``"METEOR"`` and ``"SPICE"``, left out (and reported as skipped) instead
    of delegated to pycocoevalcap's Java programs.
    """

    def __init__(self, coco: Any, cocoRes: Any, *, skip: Iterable[str] = ()) -> None:
        self.evalImgs: list[dict[str, Any]] = []
        self.eval: dict[str, Any] = {}
        self.imgToEval: dict[Any, dict[str, Any]] = {}
        self.coco = coco
        self.cocoRes = cocoRes
        self.params = {"image_id": coco.getImgIds()}
        if isinstance(skip, str):
            skip = (skip,)
        self.skip = tuple(skip)
        unknown = [s for s in self.skip if s not in DELEGATED]
        if unknown:
            raise InvalidOptionError(
                f"skip takes METEOR and SPICE (the scorers pycocoevalcap runs in Java), got "
                f"{', '.join(map(repr, unknown))}"
            )
        #: The scores left out by ``skip``, filled by ``evaluate()``.
        self.skipped: list[str] = []

    def evaluate(self) -> None:
        """Tokenizes and scores every image, as pycocoevalcap's ``evaluate()``."""
        imgIds = self.params["image_id"]
        gts = {}
        res = {}
        for imgId in imgIds:
            gts[imgId] = self.coco.imgToAnns[imgId]
            res[imgId] = self.cocoRes.imgToAnns[imgId]

        # The Java scorers start first, so that a missing one fails before any work.
        delegated = {n: upstream_scorer(n) for n in DELEGATED if n not in self.skip}
        print("tokenization...")
        tokenizer = PTBTokenizer()
        gts = tokenizer.tokenize(gts)
        res = tokenizer.tokenize(res)

        print("setting up scorers...")
        scorers: list[tuple[Any, Any]] = [
            (Bleu(4), ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4"]),
            (delegated.get("METEOR"), "METEOR"),
            (Rouge(), "ROUGE_L"),
            (Cider(), "CIDEr"),
            (delegated.get("SPICE"), "SPICE"),
        ]
        self.skipped = []
        for scorer, method in scorers:
            if scorer is None:
                self.skipped.append(method)
                print(f"skipping {method} score (skip={self.skip!r}): not computed")
                continue
            print(f"computing {scorer.method()} score...")
            if isinstance(method, str) and method in DELEGATED:
                print(f"{method}: pycocoevalcap's own Java program, run by bleuprint")
            score, scores = scorer.compute_score(gts, res)
            if isinstance(method, str) and method in DELEGATED:
                close_scorer(scorer)
            if type(method) is list:
                for sc, scs, m in zip(score, scores, method):
                    self.setEval(sc, m)
                    self.setImgToEvalImgs(scs, gts.keys(), m)
                    print(f"{m}: {sc:0.3f}")
            else:
                self.setEval(score, method)
                self.setImgToEvalImgs(scores, gts.keys(), method)
                print(f"{method}: {score:0.3f}")
        self.setEvalImgs()

    def setEval(self, score: Any, method: str) -> None:
        self.eval[method] = score

    def setImgToEvalImgs(self, scores: Any, imgIds: Iterable[Any], method: str) -> None:
        for imgId, score in zip(imgIds, scores):
            if imgId not in self.imgToEval:
                self.imgToEval[imgId] = {}
                self.imgToEval[imgId]["image_id"] = imgId
            self.imgToEval[imgId][method] = score

    def setEvalImgs(self) -> None:
        self.evalImgs = [eval for imgId, eval in self.imgToEval.items()]
