"""pycocoevalcap 1.2 (``pycocoevalcap``, the COCO caption evaluation), computed by bleuprint's
core, without Java.

``from bleuprint.compat.pycocoevalcap.bleu.bleu import Bleu`` works as the same import from
``pycocoevalcap``; :func:`install` makes ``import pycocoevalcap`` load this package, for code
you cannot edit; ``python -m bleuprint.compat.pycocoevalcap script.py ARGS`` runs a script that
way.

What is here so far: ``bleu.bleu.Bleu``, whose scores are ``BLEU(preset="coco")``'s (its
``bleu_scorer.py``: the closest reference length, the 1e-15 and 1e-9 guards, Bleu_1 .. Bleu_4
and the per-image lists), ``rouge.rouge.Rouge``, ``ROUGE(preset="coco")``'s (ROUGE-L on
``str.split(" ")`` tokens, the highest precision and recall, beta 1.2, ``numpy.mean``), and
``cider.cider.Cider``, :class:`bleuprint.CIDEr`'s (CIDEr-D). The other modules
(``tokenizer``, ``eval``, ``meteor``, ``spice``) are not written yet: importing them fails as
importing a missing module does.
"""

from __future__ import annotations

from bleuprint.compat.aliasing import Alias, AlreadyImportedError

__version__ = "1.2"


class PycocoevalcapAlreadyImportedError(AlreadyImportedError):
    """The real pycocoevalcap was imported before ``install()``."""


_alias = Alias("pycocoevalcap", __name__, PycocoevalcapAlreadyImportedError)
install, uninstall, installed = _alias.install, _alias.uninstall, _alias.installed

__all__ = ["install", "installed", "uninstall"]
