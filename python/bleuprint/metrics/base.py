"""What the metric modules share: sacrebleu-exact corpus and resampled scores of summed rows.

:class:`Score`, :class:`Signature` (:mod:`bleuprint.metrics.scores`) and the configuration registry
(:mod:`bleuprint.metrics.config`) live below the metrics and are re-exported here, where they
have always been importable from.
"""

from __future__ import annotations

import sys
from typing import Any

from bleuprint.metrics.config import METRIC_CONFIGS, register_config
from bleuprint.metrics.scores import SIGNATURE_VERSION, Score, Signature

#: Python >= 3.12's ``sum()`` compensates float rounding (Neumaier); the upstreams reproduced
#: here sum floats with ``sum()`` (sacrebleu's log precisions, mbrs' expected counts).
COMPENSATED_SUM = sys.version_info >= (3, 12)


class SummedRowsScoring:
    """Corpus and resampled scores for metrics whose corpus score is the score of the column
    sums (BLEU, chrF, WER). TER defines its own: it adds per-segment float averages in order.

    The resampling methods describe the statistics as sacrebleu's significance tests hold
    them, so resampled scores are bit-identical to sacrebleu's (see
    :mod:`bleuprint.significance`).
    """

    #: sacrebleu's bootstrap casts these statistics to float32 before summing resamples.
    resample_float32 = True
    #: The corpus score is a function of the column sums (so a stream may keep only them).
    corpus_from_sums = True

    def score_corpus(self, rows: Any) -> Any:
        """The corpus score of per-segment rows."""
        import numpy as np

        summed = np.asarray(rows, dtype=np.int64).sum(axis=0, dtype=np.int64)
        return self.score_row(summed)  # type: ignore[attr-defined]

    def float_rows(self, rows: Any) -> Any:
        """The per-segment statistics as sacrebleu's tests hold them, as float64."""
        import numpy as np

        return np.asarray(rows, dtype=np.float64)

    def randomization_rows(self, rows: Any) -> tuple[Any, int]:
        """Integer rows and a power-of-two divisor: the sums of the rows divided by it are the
        sums sacrebleu's randomization test gets, exactly."""
        import numpy as np

        return np.asarray(rows, dtype=np.int64), 1

    def score_sums(self, sums: Any) -> Any:
        """Scores of summed statistics (one resample or trial per row): float64, ``(n,)``."""
        return self.score_rows(sums)  # type: ignore[attr-defined]


__all__ = [
    "COMPENSATED_SUM",
    "METRIC_CONFIGS",
    "SIGNATURE_VERSION",
    "Score",
    "Signature",
    "SummedRowsScoring",
    "register_config",
]
