"""``sacrebleu.metrics.ter``: bleuprint's :class:`~bleuprint.TER` with sacrebleu's attributes
(``tokenizer``, ``_SIGNATURE_TYPE``) and private scoring methods."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

import numpy as np

from bleuprint.compat.sacrebleu.metrics.base import SacrebleuMethods
from bleuprint.compat.sacrebleu.metrics.helpers import check_text
from bleuprint.compat.sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer
from bleuprint.metrics import ter as _ter
from bleuprint.metrics.ter import TERScore, TERSignature


class TER(SacrebleuMethods, _ter.TER):
    """sacrebleu's ``TER`` (same constructor), computed by bleuprint."""

    _SIGNATURE_TYPE = TERSignature

    @property
    def tokenizer(self) -> TercomTokenizer:
        """The Tercom tokenizer with this TER's settings."""
        return TercomTokenizer(**asdict(self.config))

    @property
    def tokenizer_signature(self) -> str:
        return self.tokenizer.signature()

    def _preprocess_segment(self, sent: str) -> str:
        """Tokenized (and lowercased unless case-sensitive), as TER reads a segment."""
        return self.tokenizer(check_text("sent", sent).rstrip())

    def _sacrebleu_rows(self, rows: Any) -> list[list[Any]]:
        # sacrebleu's TER rows: [edits, average reference length].
        return [list(row) for row in self.config.float_rows(rows).tolist()]

    def _compute_score_from_stats(self, stats: Sequence[Any]) -> TERScore:
        """TER of summed ``[edits, reference length]``."""
        sums = np.asarray([stats[:2]], dtype=np.float64)
        (score,) = self.config.score_sums(sums).tolist()
        return TERScore(score, stats[0], stats[1])


__all__ = ["TER", "TERScore", "TERSignature"]
