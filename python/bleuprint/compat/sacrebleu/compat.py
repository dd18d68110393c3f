"""``sacrebleu.compat``: the function API (<= 1.4.10 style), bleuprint's own functions."""

from bleuprint.metrics import functional
from bleuprint.metrics.functional import *  # noqa: F403  (corpus_bleu, sentence_chrf, ...)

__all__ = list(functional.__all__)
