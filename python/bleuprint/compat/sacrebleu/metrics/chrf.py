"""``sacrebleu.metrics.chrf``: bleuprint's :class:`~bleuprint.CHRF` with sacrebleu's
attributes and private scoring methods."""

from __future__ import annotations

from bleuprint.compat.sacrebleu.metrics.base import SacrebleuMethods
from bleuprint.compat.sacrebleu.metrics.helpers import check_text
from bleuprint.metrics import chrf as _chrf
from bleuprint.metrics.chrf import CHRFScore, CHRFSignature


class CHRF(SacrebleuMethods, _chrf.CHRF):
    """sacrebleu's ``CHRF`` (same constructor), computed by bleuprint."""

    _SIGNATURE_TYPE = CHRFSignature

    def _preprocess_segment(self, sent: str) -> str:
        """Lowercased if set: chrF reads text otherwise as it is."""
        check_text("sent", sent)
        return sent.lower() if self.lowercase else sent


__all__ = ["CHRF", "CHRFScore", "CHRFSignature"]
