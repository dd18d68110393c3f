"""sacrebleu's SentencePiece tokenizers, run by bleuprint (``bleuprint[spm]``); models are
downloaded once and cached as bleuprint caches them."""

from __future__ import annotations

import logging
from typing import Any

from bleuprint.compat.sacrebleu.tokenizers.tokenizer_base import BleuprintTokenizer
from bleuprint.compat.sacrebleu.utils import dataset_name as _dataset_name
from bleuprint.errors import InvalidOptionError
from bleuprint.tokenizers.spm import SPM_MODELS

sacrelogger = logging.getLogger("sacrebleu")

__all__ = [
    "SPM_MODELS",
    "Flores101Tokenizer",
    "Flores200Tokenizer",
    "TokenizerSPM",
    "spBLEU1KTokenizer",
    "sacrelogger",
]


class TokenizerSPM(BleuprintTokenizer):
    """SentencePiece pieces joined by spaces; ``key`` is a key of :data:`SPM_MODELS`."""

    def __init__(self, key: str = "spm") -> None:
        if key not in SPM_MODELS:
            raise InvalidOptionError(
                f"unknown SentencePiece model {key!r}; expected one of {', '.join(SPM_MODELS)}"
            )
        self.name = key
        super().__init__()


class Flores200Tokenizer(TokenizerSPM):
    """The FLORES-200 model."""

    def __init__(self) -> None:
        super().__init__("flores200")


class Flores101Tokenizer(TokenizerSPM):
    """The FLORES-101 model."""

    def __init__(self) -> None:
        super().__init__("flores101")


class spBLEU1KTokenizer(TokenizerSPM):  # noqa: N801 (sacrebleu's name)
    """The spBLEU-1K model."""

    def __init__(self) -> None:
        super().__init__("spBLEU-1K")


def __getattr__(name: str) -> Any:
    # SACREBLEU_DIR comes from the test-set cache module, loaded only when asked for.
    if name == "SACREBLEU_DIR":
        return _dataset_name(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
