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
from bleuprint.tokenizers.spm import get_spm_tokenizer

#: The MeCab tokenizers' classes; every other name here is a SentencePiece model's.
MECAB_CLASSES: dict[str, type[ExternalTokenizer]] = {
    "ja-mecab": JaMecabTokenizer,
    "ko-mecab": KoMecabTokenizer,
}

_shared: dict[str, ExternalTokenizer] = {}
_shared_lock = Lock()


def external_tokenizer(name: str, spm_model: Optional[str] = None) -> ExternalTokenizer:
    """The process-wide tokenizer for ``name``: MeCab taggers, the PTB tokenizer's tables and
    SentencePiece models load once per process, on first use."""
    cls = MECAB_CLASSES.get(name)
    if name == "ptb":
        from bleuprint.tokenizers.ptb import PTBTokenizer

        cls = PTBTokenizer
    if cls is None:
        return get_spm_tokenizer(name, spm_model)
    with _shared_lock:
        tokenizer = _shared.get(name)
        if tokenizer is None:
            tokenizer = _shared[name] = cls()
    return tokenizer


__all__ = ["MECAB_CLASSES", "external_tokenizer"]
