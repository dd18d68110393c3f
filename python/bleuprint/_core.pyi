"""Type stubs for the compiled core. Private: use the `bleuprint` package."""

from collections.abc import Sequence
from typing import Optional, Union

import numpy as np
import numpy.typing as npt

__version__: str
TOKENIZERS: list[str]
NORMALIZATIONS: list[str]
NORMALIZATION_UNICODE_VERSION: str

def tokenize(
    lines: Sequence[str], tokenizer: str, *, normalize: Optional[str] = None, workers: int = -1
) -> list[str]: ...
def normalize(
    lines: Sequence[Optional[str]], form: str, *, name: str = "lines", workers: int = -1
) -> list[Optional[str]]: ...
def script_counts(
    lines: Sequence[Optional[str]], max_lines: int = 1000
) -> tuple[int, int, int, int]: ...
def bleu_stats(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    *,
    tokenizer: str,
    max_order: int,
    normalize: Optional[str] = None,
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
def bleu_scores_float32(
    sums: npt.NDArray[np.float32],
    *,
    max_order: int,
    smooth_method: str,
    smooth_value: Optional[float],
    effective_order: bool,
    compensated_sum: bool,
) -> npt.NDArray[np.float64]:
    """BLEU of float32 resample sums, with sacrebleu's arithmetic on numpy.float32 counts."""

def chrf_stats(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    *,
    char_order: int,
    word_order: int,
    factor: float,
    one_plus_factor: float,
    whitespace: bool,
    eps_smoothing: bool,
    workers: int = -1,
) -> tuple[npt.NDArray[np.int64], int]:
    """Per-segment chrF statistics ``[hyp, ref, match]`` per character order, then per word
    order (int64, shape ``(n, 3 * (char_order + word_order))``), of each segment's reference
    with the best F-score, and the references per segment (-1 where it varies). ``factor`` is
    ``beta ** 2`` and ``one_plus_factor`` ``1 + beta ** 2``, computed in Python."""

def chrf_scores(
    stats: npt.NDArray[np.int64],
    *,
    char_order: int,
    word_order: int,
    factor: float,
    one_plus_factor: float,
    eps_smoothing: bool,
) -> npt.NDArray[np.float64]:
    """The chrF score (0..100) of every statistics row, with sacrebleu's float operations."""

def chrf_scores_float32(
    sums: npt.NDArray[np.float32],
    *,
    char_order: int,
    word_order: int,
    factor: float,
    one_plus_factor: float,
    eps_smoothing: bool,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """chrF of float32 resample sums: the values and which of them are numpy.float32."""

def ter_stats(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    workers: int = -1,
) -> tuple[npt.NDArray[np.int64], int]:
    """Per-segment TER statistics ``[best_edits, sum_of_ref_lengths, references]`` (int64,
    shape ``(n, 3)``) and the references per segment (-1 where it varies).

    Exactly sacrebleu's ``TER(...)._extract_corpus_statistics``: its row is ``[best_edits,
    sum_of_ref_lengths / references]``. Lowercase the text first (``str.lower()``) unless
    TER is case-sensitive; ``None`` drops a reference for one segment.
    """

def ter_tokenize(
    lines: Sequence[str],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    workers: int = -1,
) -> list[str]:
    """Each line as sacrebleu's TER tokenizes a hypothesis: ``TercomTokenizer(...)(line.rstrip())``
    without the lowercasing. (sacrebleu tokenizes references twice; ``ter_stats`` does too.)"""

def ter_scores_from_sums(
    sums: Union[npt.NDArray[np.float32], npt.NDArray[np.float64]],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """TER of summed ``[edits, reference length]`` rows: the values and which are float32."""

def read_lines(path: str) -> list[str]: ...

# Resampling (significance tests); index and swap matrices are drawn by numpy.
def bootstrap_sums_float32(
    stats: npt.NDArray[np.float32], indices: npt.NDArray[np.int64], *, workers: int = -1
) -> npt.NDArray[np.float32]:
    """Per resample (a row of ``indices``), the rows it selects summed in index order."""

def bootstrap_sums_int64(
    stats: npt.NDArray[np.int64], indices: npt.NDArray[np.int64], *, workers: int = -1
) -> npt.NDArray[np.int64]:
    """Per resample (a row of ``indices``), the rows it selects summed exactly."""

def randomization_sums(
    baseline: npt.NDArray[np.int64],
    system: npt.NDArray[np.int64],
    packed_swaps: npt.NDArray[np.uint8],
    *,
    workers: int = -1,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Per trial, the sums of the two pseudo-systems: A takes the baseline's row where the
    swap flag is set and the system's elsewhere, B the other. Flags are packed 8 segments to a
    byte: ``numpy.packbits(flags, axis=1, bitorder="little")``."""

# WER/CER. Statistics rows are [substitutions, deletions, insertions, hits, ref_words,
# hyp_words]; opcodes rows are [tag, ref_start, ref_end, hyp_start, hyp_end] with tag 0 equal,
# 1 substitute, 2 delete, 3 insert; offsets[i]:offsets[i + 1] are segment i's opcodes.
def wer_stats(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    *,
    unit: str,
    raw: bool = False,
    workers: int = -1,
) -> npt.NDArray[np.int64]: ...
def wer_alignments(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    *,
    unit: str,
    raw: bool = False,
    workers: int = -1,
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]
]: ...
def wer_tokens(
    lines: Sequence[str], *, unit: str, raw: bool = False, workers: int = -1, name: str = "lines"
) -> list[list[str]]: ...
def wer_token_stats(
    hypotheses: Sequence[Sequence[str]], references: Sequence[Sequence[str]], *, workers: int = -1
) -> npt.NDArray[np.int64]: ...
def wer_token_alignments(
    hypotheses: Sequence[Sequence[str]], references: Sequence[Sequence[str]], *, workers: int = -1
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]
]: ...
def levenshtein_opcodes(
    s1: Sequence[int], s2: Sequence[int]
) -> list[tuple[str, int, int, int, int]]: ...

class MecabTagger:
    """A MeCab model loaded from a ``libmecab`` shared library (``ja-mecab``, ``ko-mecab``)."""

    def __init__(self, library_path: str, args: Sequence[str]) -> None: ...
    def tokenize(self, lines: Sequence[str], workers: int = -1) -> list[str]: ...
    def version(self) -> str: ...
    def dictionary_info(self) -> list[dict[str, Union[str, int]]]: ...
