"""sacrebleu 2.6.0's whole public module tree, computed by bleuprint.

``import bleuprint.compat.sacrebleu as sacrebleu`` works as ``import sacrebleu``;
:func:`install` makes ``import sacrebleu`` (and ``sacrebleu.metrics``, ``sacrebleu.tokenizers.*``,
``sacrebleu.significance``, ...) load it, for code you cannot edit; ``python -m
bleuprint.compat.sacrebleu script.py ARGS`` runs a script that way. ``__version__`` is
``2.6.0+bleuprint.<bleuprint's version>``. The test-set names (``DATASETS``,
``download_test_set``, ...) come from :mod:`bleuprint.testsets` on first use. See
``docs/compat.md``.
"""

from __future__ import annotations

from typing import Any

# bleuprint's additions, outside sacrebleu's __all__ (explicit re-exports).
from bleuprint.compat.sacrebleu._install import install as install
from bleuprint.compat.sacrebleu._install import installed as installed
from bleuprint.compat.sacrebleu._install import uninstall as uninstall
from bleuprint.compat.sacrebleu.compat import (
    corpus_bleu,
    corpus_chrf,
    corpus_ter,
    raw_corpus_bleu,
    sentence_bleu,
    sentence_chrf,
    sentence_ter,
)
from bleuprint.compat.sacrebleu.metrics import BLEU, CHRF, TER
from bleuprint.compat.sacrebleu.metrics.helpers import extract_char_ngrams, extract_word_ngrams
from bleuprint.compat.sacrebleu.utils import dataset_name as _dataset_name
from bleuprint.compat.sacrebleu.utils import smart_open
from bleuprint.compat.sacrebleu.version import __version__

__description__ = (
    "Hassle-free computation of shareable, comparable, and reproducible BLEU, chrF, and TER "
    "scores (sacrebleu 2.6.0's API, computed by bleuprint)"
)


def __getattr__(name: str) -> Any:
    if name in _DATASET_NAMES:
        return _dataset_name(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_DATASET_NAMES})


# sacrebleu 2.6.0's __all__, in its order.
__all__ = [
    "smart_open",
    "SACREBLEU_DIR",
    "download_test_set",
    "get_source_file",
    "get_reference_files",
    "get_available_testsets",
    "get_langpairs_for_testset",
    "extract_word_ngrams",
    "extract_char_ngrams",
    "DATASETS",
    "BLEU",
    "CHRF",
    "TER",
    "corpus_bleu",
    "raw_corpus_bleu",
    "sentence_bleu",
    "corpus_chrf",
    "sentence_chrf",
    "corpus_ter",
    "sentence_ter",
    "__version__",
]

#: The names of ``__all__`` not defined above: served by bleuprint.testsets, loaded on first use.
_DATASET_NAMES = tuple(name for name in __all__ if name not in globals())
