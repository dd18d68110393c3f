"""pycocoevalcap 1.2 (``pycocoevalcap``, the COCO caption evaluation), computed by bleuprint's
core, without Java.

``from bleuprint.compat.pycocoevalcap.bleu.bleu import Bleu`` works as the same import from
``pycocoevalcap``; :func:`install` makes ``import pycocoevalcap`` load this package, for code
you cannot edit; ``python -m bleuprint.compat.pycocoevalcap script.py ARGS`` runs a script that
way.

What is here: ``tokenizer.ptbtokenizer.PTBTokenizer``, Stanford CoreNLP 3.4.1's PTB tokenizer
as upstream runs it, by the core on the tables of the jar pycocoevalcap ships (no JVM), equal
caption for caption, refusing the line breaks that would shift later captions;
``bleu.bleu.Bleu``, whose scores are ``BLEU(preset="coco")``'s (its ``bleu_scorer.py``: the
closest reference length, the 1e-15 and 1e-9 guards, Bleu_1 .. Bleu_4 and the per-image lists),
``rouge.rouge.Rouge``, ``ROUGE(preset="coco")``'s (ROUGE-L on ``str.split(" ")`` tokens, the
highest precision and recall, beta 1.2, ``numpy.mean``), ``cider.cider.Cider``,
:class:`bleuprint.CIDEr`'s (CIDEr-D), and ``eval.COCOEvalCap``, the whole evaluation on
pycocotools ``COCO`` objects. ``meteor.meteor.Meteor`` and ``spice.spice.Spice`` (METEOR 1.5 and
SPICE 1.0, Java programs) are the real package's own scorers, run with Java; ``COCOEvalCap``
runs them the same way, or skips them on request and says so.
"""

from __future__ import annotations

from bleuprint.compat.aliasing import Alias, AlreadyImportedError

__version__ = "1.2"


class PycocoevalcapAlreadyImportedError(AlreadyImportedError):
    """The real pycocoevalcap was imported before ``install()``."""


_alias = Alias("pycocoevalcap", __name__, PycocoevalcapAlreadyImportedError)
install, uninstall, installed = _alias.install, _alias.uninstall, _alias.installed

__all__ = ["install", "installed", "uninstall"]
