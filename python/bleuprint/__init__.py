"""bleuprint: exact, fast BLEU, chrF, TER and WER.

Every score is bit-identical to sacrebleu 2.6.0 with the same settings; the names mirror
sacrebleu's, so switching is a one-line import change::

    import bleuprint as sacrebleu
"""

from bleuprint import errors as _errors
from bleuprint import metrics as _metrics
from bleuprint._core import __version__
from bleuprint.errors import *  # noqa: F403  (the exception and warning classes)
from bleuprint.metrics import *  # noqa: F403  (the metric classes, configurations, scores)
from bleuprint.metrics import functional as _functional
from bleuprint.metrics import functional_wer as _functional_wer
from bleuprint.metrics.functional import *  # noqa: F403  (sacrebleu's corpus_bleu, sentence_chrf, ...)
from bleuprint.metrics.functional_wer import *  # noqa: F403  (corpus_wer, sentence_cer, ...)
from bleuprint.metrics.stats import Stats
from bleuprint.tokenizers import tokenize

# Names whose modules cost import time (significance, explain): loaded on first use.
_LAZY = {
    "explain": "bleuprint.analysis.explanation",
    "token_bleu": "bleuprint.analysis.token_ids",
    "self_bleu": "bleuprint.analysis.self_bleu",
    "SelfBLEUScore": "bleuprint.analysis.self_bleu",
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
    *_metrics.__all__,
    *_functional.__all__,
    *_functional_wer.__all__,
    *_errors.__all__,
    "Stats",
    "tokenize",
    "__version__",
    *_LAZY,
]
