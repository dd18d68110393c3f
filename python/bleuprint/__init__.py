"""bleuprint: exact, fast BLEU, chrF, TER and WER.

Every score is bit-identical to sacrebleu 2.6.0 with the same settings; the names mirror
sacrebleu's, so switching is a one-line import change::

    import bleuprint as sacrebleu
"""

from bleuprint._core import __version__
from bleuprint.errors import (
    BleuprintError,
    BleuprintWarning,
    InputDecodeError,
    InputTypeError,
    InvalidInputError,
    InvalidOptionError,
    ModelUnavailableError,
    ReferenceLayoutError,
    StatsFormatError,
    StatsMismatchError,
)
from bleuprint.metrics import (
    BLEU,
    CER,
    CHRF,
    METRICS,
    TER,
    WER,
    BLEUConfig,
    BLEUScore,
    BLEUSignature,
    CHRFConfig,
    CHRFScore,
    CHRFSignature,
    Score,
    Signature,
    TERConfig,
    TERScore,
    TERSignature,
    WERConfig,
    WERScore,
    WERSignature,
)
from bleuprint.metrics.functional import (
    corpus_bleu,
    corpus_chrf,
    corpus_ter,
    raw_corpus_bleu,
    sentence_bleu,
    sentence_chrf,
    sentence_ter,
)
from bleuprint.metrics.functional_wer import (
    corpus_cer,
    corpus_mer,
    corpus_wer,
    corpus_wil,
    corpus_wip,
    sentence_cer,
    sentence_wer,
)
from bleuprint.metrics.stats import Stats
from bleuprint.tokenizers import tokenize

# Names whose modules cost import time (significance, explain): loaded on first use.
_LAZY = {
    "explain": "bleuprint.analysis.explanation",
    "token_bleu": "bleuprint.analysis.token_ids",
    **dict.fromkeys(
        (
            "Comparison",
            "ConfidenceInterval",
            "PairedTestResult",
            "SystemResult",
            "bootstrap_ci",
            "paired_test",
            "paired_test_stats",
        ),
        "bleuprint.significance",
    ),
}


#: Modules reachable as attributes after ``import bleuprint`` (``bleuprint.mbr.select``,
#: ``bleuprint.report(...)``, ``bleuprint.ray.Statistics``), loaded on first use.
_LAZY_MODULES = {
    "mbr": "bleuprint.analysis.mbr",
    "report": "bleuprint.analysis.report",
    "ray": "bleuprint.integrations.ray",
}


def __getattr__(name: str) -> object:
    if name in _LAZY or name in _LAZY_MODULES:
        import importlib  # start-up time: these modules load on first use

        if name in _LAZY_MODULES:
            return importlib.import_module(_LAZY_MODULES[name])
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'bleuprint' has no attribute {name!r}")


__all__ = [
    "BLEU",
    "CER",
    "CHRF",
    "METRICS",
    "TER",
    "WER",
    "BLEUConfig",
    "BLEUScore",
    "BLEUSignature",
    "CHRFConfig",
    "CHRFScore",
    "CHRFSignature",
    "Comparison",
    "ConfidenceInterval",
    "PairedTestResult",
    "SystemResult",
    "TERConfig",
    "TERScore",
    "TERSignature",
    "WERConfig",
    "WERScore",
    "WERSignature",
    "BleuprintError",
    "BleuprintWarning",
    "InputDecodeError",
    "InputTypeError",
    "InvalidInputError",
    "InvalidOptionError",
    "ModelUnavailableError",
    "ReferenceLayoutError",
    "Score",
    "Signature",
    "Stats",
    "explain",
    "token_bleu",
    "StatsFormatError",
    "StatsMismatchError",
    "__version__",
    "bootstrap_ci",
    "corpus_bleu",
    "corpus_cer",
    "corpus_chrf",
    "corpus_mer",
    "corpus_ter",
    "corpus_wer",
    "corpus_wil",
    "corpus_wip",
    "paired_test",
    "paired_test_stats",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_cer",
    "sentence_chrf",
    "sentence_ter",
    "sentence_wer",
    "tokenize",
]
