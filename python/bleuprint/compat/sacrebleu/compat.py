"""``sacrebleu.compat``: the function API (<= 1.4.10 style), bleuprint's own functions."""

from bleuprint.metrics.functional import (
    corpus_bleu,
    corpus_chrf,
    corpus_ter,
    raw_corpus_bleu,
    sentence_bleu,
    sentence_chrf,
    sentence_ter,
)

__all__ = [
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
]
