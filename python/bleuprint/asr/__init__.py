"""Speech recognition scores as the leaderboards compute them.

:func:`leaderboard_wer` is the Hugging Face Open ASR Leaderboard's WER
(``normalizer/eval_utils.py``'s ``score_results`` at the revision the core reproduces,
:data:`OPEN_ASR_REVISION`): its normalizer on both sides, then kaldialign 0.12.0's
``batch_error_rate(..., merge_compounds=True)``, and on its multilingual path
(``language`` other than ``"en"``) its compound-pair pass first. It is a preset of
:class:`~bleuprint.WER`'s knobs (:func:`leaderboard_config`), so the same numbers come from
``WER(**leaderboard_config(language))`` and from the command line::

    bleuprint REF -i HYP -m wer --normalize open-asr-en --merge-compounds
    bleuprint REF -i HYP -m wer --normalize open-asr-multilingual --language de
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bleuprint.errors import InvalidOptionError
from bleuprint.metrics.wer import WER, WERScore
from bleuprint.tokenizers.whisper import OPEN_ASR_REVISION

#: The languages of the leaderboard's multilingual path (num2words spells their digits).
LANGUAGES: tuple[str, ...] = ("de", "fr", "it", "es", "pt")


def leaderboard_config(language: str = "en") -> dict[str, Any]:
    """The :class:`~bleuprint.WER` options of the leaderboard's scoring for ``language``:
    ``"en"`` (its English normalizer, compounds merged) or one of :data:`LANGUAGES` (its
    multilingual normalizer with num2words' numbers in that language, the compound-pair pass,
    compounds merged)."""
    if language == "en":
        return {"normalizer": "open-asr-en", "merge_compounds": True}
    if language not in LANGUAGES:
        raise InvalidOptionError(
            f"language {language!r} is not one the leaderboard's scoring is reproduced for; "
            f"expected 'en' or one of {', '.join(LANGUAGES)}"
        )
    return {
        "normalizer": f"open-asr-multilingual-{language}",
        "merge_compounds": True,
        "compound_pairs": True,
    }


@dataclass(frozen=True)
class LeaderboardWER:
    """The leaderboard's figures for one dataset: ``wer`` as its tables print it
    (``round(100 * err_rate, 2)``), kaldialign's ``err_rate`` and counts, and the full
    :class:`~bleuprint.metrics.wer.WERScore` (with its signature)."""

    wer: float
    err_rate: float
    ins: int
    deletions: int
    sub: int
    ref_len: int
    score: WERScore

    def __str__(self) -> str:
        return f"WER = {self.wer:0.2f} %"


def leaderboard_wer(
    references: Sequence[str],
    predictions: Sequence[str],
    language: str = "en",
    *,
    workers: int = -1,
) -> LeaderboardWER:
    """The Open ASR Leaderboard's WER of ``predictions`` against ``references`` (one each,
    raw text: the leaderboard's normalizer runs here), as ``score_results`` computes it for a
    dataset: for ``language="en"`` its ``EnglishTextNormalizer``, for another language its
    ``MultilingualNormalizer`` with ``lang=language`` and ``normalize_compound_pairs``; then
    ``kaldialign.batch_error_rate(refs, preds, merge_compounds=True)``."""
    if len(references) != len(predictions):
        raise InvalidOptionError(
            f"references has {len(references)} lines and predictions {len(predictions)}: "
            "give one prediction per reference"
        )
    metric = WER(**leaderboard_config(language), workers=workers)
    score = metric.corpus_score(list(predictions), [list(references)])
    errors = score.substitutions + score.deletions + score.insertions
    ref_len = score.ref_words
    if ref_len:
        err_rate = errors / ref_len
    else:
        err_rate = 0.0 if errors == 0 else float("inf")
    return LeaderboardWER(
        wer=round(100 * err_rate, 2),
        err_rate=err_rate,
        ins=score.insertions,
        deletions=score.deletions,
        sub=score.substitutions,
        ref_len=ref_len,
        score=score,
    )


__all__ = [
    "LANGUAGES",
    "OPEN_ASR_REVISION",
    "LeaderboardWER",
    "leaderboard_config",
    "leaderboard_wer",
]
