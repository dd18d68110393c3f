"""The tokenizers that run outside the Rust core's rule-based ones, one shared object per
process: MeCab (``ja-mecab``, ``ko-mecab``), the Stanford PTB tokenizer (``ptb``) and
SentencePiece (``spm``, ``flores101``, ``flores200``, ``spBLEU-1K``).
:mod:`bleuprint.tokenizers` imports this module when one is first asked for, so that
``import bleuprint`` loads none of them."""

from __future__ import annotations

from threading import Lock
from typing import Optional

from bleuprint.tokenizers.base import ExternalTokenizer
from bleuprint.tokenizers.mecab import JaMecabTokenizer, KoMecabTokenizer
from bleuprint.tokenizers.ptb import PTBTokenizer
from bleuprint.tokenizers.spm import get_spm_tokenizer

#: The MeCab tokenizers' classes.
MECAB_CLASSES: dict[str, type[ExternalTokenizer]] = {
    "ja-mecab": JaMecabTokenizer,
    "ko-mecab": KoMecabTokenizer,
}

#: The tokenizers made once per process by their class: MeCab's and the PTB tokenizer; every
#: other name is a SentencePiece model's.
SHARED_CLASSES: dict[str, type[ExternalTokenizer]] = {**MECAB_CLASSES, "ptb": PTBTokenizer}

_shared: dict[str, ExternalTokenizer] = {}
_shared_lock = Lock()


def external_tokenizer(name: str, spm_model: Optional[str] = None) -> ExternalTokenizer:
    """The process-wide tokenizer for ``name``: MeCab taggers, the PTB tokenizer's tables and
    SentencePiece models load once per process, on first use."""
    cls = SHARED_CLASSES.get(name)
    if cls is None:
        return get_spm_tokenizer(name, spm_model)
    with _shared_lock:
        tokenizer = _shared.get(name)
        if tokenizer is None:
            tokenizer = _shared[name] = cls()
    return tokenizer


__all__ = ["MECAB_CLASSES", "SHARED_CLASSES", "external_tokenizer"]
