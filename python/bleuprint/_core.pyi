"""Type stubs for the compiled core. Private: use the `bleuprint` package."""

from collections.abc import Sequence
from typing import Optional

import numpy as np
import numpy.typing as npt

__version__: str
TOKENIZERS: list[str]

def tokenize(lines: Sequence[str], tokenizer: str, *, workers: int = -1) -> list[str]: ...
def bleu_stats(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    *,
    tokenizer: str,
    max_order: int,
    workers: int = -1,
) -> tuple[npt.NDArray[np.int64], int, int]: ...
def bleu_score_details(
    stats: npt.NDArray[np.int64],
    *,
    max_order: int,
    smooth_method: str,
    smooth_value: Optional[float],
    effective_order: bool,
    compensated_sum: bool,
) -> tuple[
    npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.int64]
]: ...
def bleu_scores(
    stats: npt.NDArray[np.int64],
    *,
    max_order: int,
    smooth_method: str,
    smooth_value: Optional[float],
    effective_order: bool,
    compensated_sum: bool,
) -> npt.NDArray[np.float64]: ...
def read_lines(path: str) -> list[str]: ...
