"""NIST ``mteval-v13a.pl`` and ``mteval-v14.pl`` BLEU on plain segments::

    from bleuprint.compat.mteval import mteval_v13a
    print(mteval_v13a(hypotheses, [reference_lines]))   # BLEU score = 0.4853 for system "sys"

Lines are segment contents as the scripts read them from the SGML files (entities such as
``&amp;`` are decoded by the tokenizer). Both scripts lowercase unless ``case_sensitive``
(``-c``): v13a ASCII letters only, v14's international tokenization (``mteval_v14``) all of
Unicode. ``smoothing=False`` is ``--no-smoothing``; ``brevity_penalty="shortest"`` is
``--brevity-penalty shortest``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional

from bleuprint.errors import InvalidInputError, InvalidOptionError, ReferenceLayoutError
from bleuprint.io.layout import as_text_sequence
from bleuprint.metrics.bleu.config import BLEUConfig


@dataclass
class MtevalBLEU:
    """An mteval BLEU result; ``str()`` is the script's ``BLEU score`` line (``-b``)."""

    score: float
    precisions: list[float]
    bp: float
    hyp_len: int
    ref_len: int
    system: str = "sys"

    def __str__(self) -> str:
        return f'BLEU score = {self.score:.4f} for system "{self.system}"'


def _score(
    config: BLEUConfig,
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    smoothing: bool,
    brevity_penalty: str,
    system: str,
) -> MtevalBLEU:
    if brevity_penalty not in ("closest", "shortest"):
        raise InvalidOptionError(
            f"brevity_penalty must be 'closest' or 'shortest', got {brevity_penalty!r}"
        )
    layout = ReferenceLayoutError(
        "pass hypotheses=[segment, ...] and references=[ref_set_1, ...], each reference "
        "set a list with one segment per hypothesis"
    )
    if isinstance(hypotheses, str) or isinstance(references, str):
        raise layout
    hypotheses = as_text_sequence(hypotheses, "hypotheses")
    references = as_text_sequence(references, "references")
    if not references or isinstance(references[0], str):
        raise layout
    references = [as_text_sequence(s, f"references[{k}]") for k, s in enumerate(references)]
    for k, stream in enumerate(references):
        if len(stream) != len(hypotheses):
            raise InvalidInputError(
                f"reference set {k} has {len(stream)} segments, the hypotheses {len(hypotheses)}"
            )
    config = config.replace(
        smooth_method="exp" if smoothing else "none", ref_length=brevity_penalty
    )
    grouped = [[s[i] for s in references] for i in range(len(hypotheses))]
    result = config.item_score(hypotheses, grouped)
    if result.hyp_len == 0:
        raise InvalidInputError("mteval dies on this input (log of 0): every hypothesis is empty")
    return MtevalBLEU(
        result.score, result.precisions, result.bp, int(result.hyp_len), int(result.ref_len), system
    )


def mteval_v13a(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    case_sensitive: bool = False,
    smoothing: bool = True,
    brevity_penalty: str = "closest",
    system: str = "sys",
) -> MtevalBLEU:
    """``mteval-v13a.pl -b [-c] [--no-smoothing] [--brevity-penalty shortest]``."""
    config = BLEUConfig.from_preset("mteval-v13a")
    if case_sensitive:
        config = config.replace(lowercase=False)
    return _score(config, hypotheses, references, smoothing, brevity_penalty, system)


def mteval_v14(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    case_sensitive: bool = False,
    smoothing: bool = True,
    brevity_penalty: str = "closest",
    system: str = "sys",
    international: Optional[bool] = True,
) -> MtevalBLEU:
    """``mteval-v14.pl -b --international-tokenization [-c] ...``; ``international=False``
    uses v14's default (v13a) tokenization."""
    config = BLEUConfig.from_preset("mteval-v14" if international else "mteval-v13a")
    if case_sensitive:
        config = config.replace(lowercase=False)
    return _score(config, hypotheses, references, smoothing, brevity_penalty, system)


__all__ = ["MtevalBLEU", "mteval_v13a", "mteval_v14"]
