"""Type stubs for the compiled core. Private: use the `bleuprint` package."""

from collections.abc import Sequence
from typing import Optional, SupportsFloat, Union, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "ARITHMETICS",
    "ARITHMETIC_SMOOTHINGS",
    "EMPTY_REFERENCE_RULES",
    "GLEU_COLUMNS",
    "MAX_CHRF_ORDER",
    "MAX_NGRAM_ORDER",
    "MecabTagger",
    "NORMALIZATIONS",
    "NORMALIZATION_UNICODE_VERSION",
    "NgramBags",
    "REF_LENGTHS",
    "SMOOTH_DEFAULTS",
    "SMOOTH_METHODS",
    "TER_COLUMNS",
    "TerSentences",
    "TextColumn",
    "TOKENIZERS",
    "WER_COLUMNS",
    "__version__",
    "arithmetic_score",
    "bleu_aggregate",
    "bleu_bags",
    "bleu_column_names",
    "bleu_grouped_stats",
    "bleu_ngram_details",
    "bleu_pairwise",
    "bleu_score_details",
    "bleu_scores",
    "bleu_scores_float32",
    "bleu_stats",
    "bleu_token_id_stats",
    "bootstrap_sums_float32",
    "bootstrap_sums_int64",
    "brevity_penalty",
    "chrf_aggregate",
    "chrf_bags",
    "chrf_column_names",
    "chrf_pairwise",
    "chrf_scores",
    "chrf_scores_float32",
    "chrf_stats",
    "gleu_stats",
    "levenshtein_opcodes",
    "normalize",
    "pairwise_rows",
    "randomization_sums",
    "line_end",
    "read_lines",
    "references_per_segment",
    "script_counts",
    "ter_corpus_score",
    "ter_pairwise",
    "ter_row_scores",
    "ter_scores_from_sums",
    "ter_sentences",
    "ter_stats",
    "ter_tokenize",
    "tokenize",
    "tokenize_regexp",
    "wer_alignments",
    "wer_measures",
    "wer_stats",
    "wer_token_alignments",
    "wer_token_stats",
    "wer_tokens",
]

__version__: str
TOKENIZERS: list[str]
"""Tokenizer names the core runs: sacrebleu's ``none``, ``13a``, ``intl``, ``char``, ``zh``,
and ``split-ascii`` (Moses ``multi-bleu.perl``: words separated by ASCII whitespace only) and
``strip-punct`` (jury ``normalize_text`` without lowercasing: ASCII punctuation becomes a
space, then ``str.split()``). ``tokenize`` joins their words with single spaces; split
``split-ascii`` output with ``.split(" ")``, since its words may hold U+00A0 and friends."""
REF_LENGTHS: list[str]
"""Names accepted by ``ref_length=``: ``closest`` (ties to the shorter; sacrebleu, nltk,
Moses), ``closest-first`` (ties to the first listed; torchmetrics), ``shortest`` (HF evaluate
``bleu``) and ``average`` (the column holds the SUM of the reference lengths)."""
NORMALIZATIONS: list[str]
NORMALIZATION_UNICODE_VERSION: str
SMOOTH_METHODS: list[str]
"""BLEU ``smooth_method`` names: ``none``, ``floor``, ``add-k``, ``exp``."""
SMOOTH_DEFAULTS: dict[str, Optional[float]]
"""sacrebleu's default ``smooth_value`` per method (``None``: the method takes no value)."""
EMPTY_REFERENCE_RULES: list[str]
"""``empty_reference=`` names of ``wer_measures``: ``ratio`` and ``jiwer``."""
TER_COLUMNS: list[str]
WER_COLUMNS: list[str]
GLEU_COLUMNS: list[str]
ARITHMETICS: list[str]
"""The upstreams whose float operations ``arithmetic_score`` reproduces: ``sacrebleu``,
``nltk``, ``nmt`` (tensorflow/nmt, HF evaluate), ``torch`` (torchmetrics, float32), ``moses``
(multi-bleu.perl) and ``mteval`` (mteval-v13a.pl)."""
ARITHMETIC_SMOOTHINGS: list[tuple[str, list[str]]]
"""Each arithmetic with the smoothing methods it computes from the counts itself; any other
smoothing's precisions are passed to ``arithmetic_score`` as ``smoothed``."""
MAX_NGRAM_ORDER: int
"""The highest accepted BLEU ``max_ngram_order`` (and GLEU ``max_len``): 255."""
MAX_CHRF_ORDER: int
"""The highest accepted chrF ``char_order`` and ``word_order``: 255."""

def bleu_column_names(max_order: int) -> list[str]:
    """``hyp_len, ref_len, correct_1..N, total_1..N``."""

def chrf_column_names(char_order: int, word_order: int) -> list[str]:
    """``char1_hyp, char1_ref, char1_match, ...``, then the word orders."""

def tokenize(
    lines: Sequence[str],
    tokenizer: str,
    *,
    normalize: Optional[str] = None,
    name: str = "lines",
    workers: int = ...,
) -> list[str]:
    """Each line as the named tokenizer returns it (see ``TOKENIZERS``), after an optional
    Unicode normalization; ``name`` names the stream in errors (``text[3]``)."""

def tokenize_regexp(lines: Sequence[str], *, name: str = "lines", workers: int = ...) -> list[str]:
    """sacrebleu's ``TokenizerRegexp()(line)`` for each line: the punctuation stage of
    ``13a`` and ``zh`` on its own."""

def normalize(
    lines: Sequence[Optional[str]], form: str, *, name: str = "lines", workers: int = ...
) -> list[Optional[str]]: ...
def script_counts(
    lines: Sequence[Optional[str]], max_lines: int = 1000
) -> tuple[int, int, int, int]: ...
def references_per_segment(references: Sequence[Sequence[Optional[str]]]) -> int:
    """sacrebleu's ``num_refs``: references per segment (``None`` is a missing one), or -1."""

def bleu_stats(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    *,
    tokenizer: str,
    max_order: int,
    normalize: Optional[str] = None,
    ref_length: str = "closest",
    workers: int = ...,
) -> tuple[npt.NDArray[np.int64], int, int]:
    """Per-segment BLEU statistics ``[hyp_len, ref_len, correct_1..N, total_1..N]`` (int64,
    shape ``(n, 2 + 2 * max_order)``) against reference streams (``references[k][i]``,
    ``None`` drops a reference), the references per segment (-1 where it varies) and the
    number of hypotheses ending in ``" ."``.

    ``ref_length`` picks the ``ref_len`` column (see ``REF_LENGTHS``): ``closest`` (default,
    sacrebleu), ``closest-first`` (ties go to the first stream holding a reference for the
    segment), ``shortest``, or ``average``, for which the column holds the SUM of the
    segment's reference lengths: divide it by the segment's number of references.
    """

def bleu_grouped_stats(
    hypotheses: Union[Sequence[str], Sequence[Sequence[str]]],
    references: Union[Sequence[Sequence[str]], Sequence[Sequence[Sequence[str]]]],
    *,
    tokenizer: Optional[str],
    max_order: int,
    normalize: Optional[str] = None,
    ref_length: str = "closest",
    workers: int = ...,
) -> npt.NDArray[np.int64]:
    """``bleu_stats`` rows for hypotheses that each carry their own references:
    ``references[i]`` lists the references of ``hypotheses[i]`` (at least one; their number
    may vary; "first listed" is list order for ``closest-first``).

    With a tokenizer name, items are text lines counted as ``bleu_stats`` counts them (the
    rows equal ``bleu_stats`` on the transposed streams). With ``tokenizer=None`` they are
    already-split tokens (``hypotheses[i]`` a sequence of str, ``references[i][k]`` a sequence
    of str) counted as given: no splitting, so ``"a b"`` is one token that matches neither
    ``"a"`` nor ``"b"``; ``normalize`` must then be None. A non-str token raises ``TypeError``
    starting with its position (``hypotheses[2][5] must be str, got int``).
    """

def bleu_ngram_details(
    hypothesis: Sequence[str], references: Sequence[Sequence[str]], *, max_order: int
) -> list[list[tuple[tuple[str, ...], int, int, int]]]:
    """For one tokenized hypothesis, per order ``n = 1..max_order``, each distinct n-gram in
    order of first occurrence as ``(ngram, count, max_ref_count, clipped)``: its count in the
    hypothesis, its maximum count over the references (0 without references) and
    ``min(count, max_ref_count)``, which sums to the order's ``correct`` column."""

def gleu_stats(
    hypotheses: Union[Sequence[str], Sequence[Sequence[str]]],
    references: Union[Sequence[Sequence[str]], Sequence[Sequence[Sequence[str]]]],
    *,
    tokenizer: Optional[str],
    min_len: int = 1,
    max_len: int = 4,
    normalize: Optional[str] = None,
    workers: int = ...,
) -> npt.NDArray[np.int64]:
    """Per-segment GLEU statistics ``[n_match, n_all]`` (int64, shape ``(n, 2)``), exactly as
    nltk's ``corpus_gleu`` sums them: the corpus GLEU is ``sum(n_match) / sum(n_all)`` (0.0
    when that is 0). Inputs as ``bleu_grouped_stats`` (text with a tokenizer name, or token
    lists with ``tokenizer=None``), except that an empty reference list is allowed and gives
    ``[0, 0]``. Needs ``1 <= min_len <= max_len``."""

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

def arithmetic_score(
    correct: Sequence[float],
    total: Sequence[float],
    *,
    hyp_len: SupportsFloat,
    ref_len: SupportsFloat,
    arithmetic: str,
    weights: Sequence[Sequence[float]],
    uniform_weights: bool,
    effective_order: bool,
    auto_reweigh: bool,
    smooth_method: str,
    smooth_value: Optional[float],
    smoothed: Optional[Sequence[float]],
    positive: Optional[Sequence[bool]],
    item_lengths: Optional[tuple[float, float]],
    scale: int,
    compensated_sum: bool,
) -> tuple[
    list[float],
    float,
    float,
    list[float],
    int,
    tuple[bool, bool, bool, list[bool]],
    Optional[tuple[str, str]],
]:
    """Summed counts to a score in one upstream's float operations: ``(scores, bp, ratio,
    precisions, smoothed_orders, (scores_int, bp_int, ratio_int, precisions_int),
    python_error)``. ``smoothed``/``positive`` (``float(p)`` and ``p > 0`` per order) carry
    precisions smoothed in Python, ``None`` for a smoothing in ``ARITHMETIC_SMOOTHINGS`` or
    where the upstream stops before smoothing. ``python_error`` is ``(class name, message)``
    of the exception the upstream's Python raises on these numbers (then the rest is
    empty); the ``*_int`` flags say which values the upstream returns as Python ints."""

def brevity_penalty(
    hyp_len: SupportsFloat, ref_len: SupportsFloat, *, arithmetic: str
) -> tuple[float, bool, Optional[tuple[str, str]]]:
    """The brevity penalty in one upstream's arithmetic: ``(value, is_int, python_error)``."""

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
    workers: int = ...,
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
    workers: int = ...,
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
    workers: int = ...,
) -> list[str]:
    """Each line as sacrebleu's TER tokenizes a hypothesis: ``TercomTokenizer(...)(line.rstrip())``
    without the lowercasing. (sacrebleu tokenizes references twice; ``ter_stats`` does too.)"""

def ter_scores_from_sums(
    sums: Union[npt.NDArray[np.float32], npt.NDArray[np.float64]],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """TER of summed ``[edits, reference length]`` rows: the values and which are float32."""

def ter_corpus_score(rows: npt.NDArray[np.int64]) -> tuple[float, int, float]:
    """Corpus TER of ``(n, 3)`` rows: ``(score, edits, summed average reference length)``."""

def ter_row_scores(
    rows: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Every ``(n, 3)`` row as one segment: scores, edits and average reference lengths."""

def read_lines(path: str) -> list[str]: ...
def line_end(data: bytes, start: int, n: int) -> tuple[int, int]: ...

# Resampling (significance tests); index and swap matrices are drawn by numpy.
def bootstrap_sums_float32(
    stats: npt.NDArray[np.float32], indices: npt.NDArray[np.int64], *, workers: int = ...
) -> npt.NDArray[np.float32]:
    """Per resample (a row of ``indices``), the rows it selects summed in index order."""

def bootstrap_sums_int64(
    stats: npt.NDArray[np.int64], indices: npt.NDArray[np.int64], *, workers: int = ...
) -> npt.NDArray[np.int64]:
    """Per resample (a row of ``indices``), the rows it selects summed exactly."""

def randomization_sums(
    baseline: npt.NDArray[np.int64],
    system: npt.NDArray[np.int64],
    packed_swaps: npt.NDArray[np.uint8],
    *,
    workers: int = ...,
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
    workers: int = ...,
) -> npt.NDArray[np.int64]: ...
def wer_alignments(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    *,
    unit: str,
    raw: bool = False,
    workers: int = ...,
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]
]: ...
def wer_tokens(
    lines: Sequence[str], *, unit: str, raw: bool = False, workers: int = ..., name: str = "lines"
) -> list[list[str]]: ...
def wer_token_stats(
    hypotheses: Sequence[Sequence[str]], references: Sequence[Sequence[str]], *, workers: int = ...
) -> npt.NDArray[np.int64]: ...
def wer_token_alignments(
    hypotheses: Sequence[Sequence[str]], references: Sequence[Sequence[str]], *, workers: int = ...
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]
]: ...
def wer_measures(
    rows: npt.NDArray[np.int64], *, empty_reference: str = "ratio"
) -> npt.NDArray[np.float64]:
    """``[wer, mer, wil, wip]`` of every ``(n, 6)`` row as fractions, jiwer's formulas;
    ``empty_reference`` is ``"ratio"`` (WER 1 with errors, else 0) or ``"jiwer"`` (WER = the
    insertions) for rows without reference words."""

def levenshtein_opcodes(
    s1: Sequence[int], s2: Sequence[int]
) -> list[tuple[str, int, int, int, int]]: ...

@final
class TextColumn:
    """A column of text in Arrow's layout, accepted wherever the core reads a stream of
    ``str``: ``data`` holds the cells' UTF-8 bytes, ``offsets`` ``n + 1`` native-endian int64
    byte offsets (cell ``i`` is ``data[offsets[i]:offsets[i + 1]]``) and ``valid`` ``n``
    bytes, 0 for a null (``None``). Checked once, here."""

    def __new__(cls, data: bytes, offsets: bytes, valid: Optional[bytes] = None) -> TextColumn: ...
    @staticmethod
    def from_arrow(chunks: list[tuple[object, object]]) -> TextColumn:
        """The cells of pyarrow ``string``/``large_string`` arrays, read in place: one
        ``(schema, array)`` capsule pair per array, as ``Array.__arrow_c_array__()`` gives it.
        The column keeps the arrays alive; the cells are checked once, here."""
    def __len__(self) -> int: ...

@final
class MecabTagger:
    """A MeCab model loaded from a ``libmecab`` shared library (``ja-mecab``, ``ko-mecab``)."""

    def __new__(cls, library_path: str, args: Sequence[str]) -> MecabTagger: ...
    def tokenize(self, lines: Sequence[str], workers: int = ...) -> list[str]: ...
    def version(self) -> str: ...
    def dictionary_info(self) -> list[dict[str, Union[str, int]]]: ...

def bleu_token_id_stats(
    tokens: npt.NDArray[np.int64],
    ends: npt.NDArray[np.int64],
    reference_counts: npt.NDArray[np.int64],
    *,
    max_order: int,
    ref_length: str = ...,
    workers: int = ...,
) -> npt.NDArray[np.int64]:
    """Per-candidate BLEU statistics (int64 ``(B, 2 + 2 * max_order)``) of token-ID sequences:
    ``tokens[ends[k - 1]:ends[k]]`` is sequence ``k``, the ``B = len(reference_counts)``
    candidates first, then each candidate's references in order."""

@final
class NgramBags:
    """Sentences counted once (BLEU or chrF n-grams), for scoring any block of pairs."""

    def __len__(self) -> int: ...
    @property
    def metric(self) -> str:
        """``"bleu"`` or ``"chrf"``: the n-grams counted."""

def bleu_bags(
    lines: Sequence[str], *, tokenizer: str, max_order: int, normalize: Optional[str] = ...
) -> NgramBags:
    """BLEU's n-grams of orders ``1..max_order`` of every line, tokenized as ``bleu_stats``."""

def chrf_bags(
    lines: Sequence[str], *, char_order: int, word_order: int, whitespace: bool
) -> NgramBags:
    """chrF's character (and word) n-grams of every line, as ``chrf_stats`` reads them."""

def bleu_pairwise(
    bags: NgramBags,
    hypotheses: tuple[int, int],
    references: tuple[int, int],
    *,
    max_order: int,
    smooth_method: str,
    smooth_value: Optional[float],
    effective_order: bool,
    compensated_sum: bool,
    workers: int = ...,
) -> npt.NDArray[np.float64]:
    """Sentence BLEU of the bags ``hypotheses`` (a ``(start, stop)`` range) against each of
    ``references`` alone: float64 ``(H, R)``."""

def chrf_pairwise(
    bags: NgramBags,
    hypotheses: tuple[int, int],
    references: tuple[int, int],
    *,
    factor: float,
    one_plus_factor: float,
    eps_smoothing: bool,
    workers: int = ...,
) -> npt.NDArray[np.float64]:
    """Sentence chrF of the bags ``hypotheses`` against each of ``references`` alone: float64
    ``(H, R)``, under the orders the bags were counted with."""

def bleu_aggregate(
    bags: NgramBags,
    hypotheses: tuple[int, int],
    references: tuple[int, int],
    log_weights: Sequence[float],
    *,
    max_order: int,
    smooth_method: str,
    smooth_value: Optional[float],
    effective_order: bool,
    compensated_sum: bool,
    workers: int = ...,
) -> npt.NDArray[np.float64]:
    """Reference aggregation for BLEU (mbrs' float arithmetic): float64 ``(H,)``."""

def chrf_aggregate(
    bags: NgramBags,
    hypotheses: tuple[int, int],
    references: tuple[int, int],
    log_weights: Sequence[float],
    *,
    factor: float,
    one_plus_factor: float,
    eps_smoothing: bool,
    compensated_sum: bool,
    workers: int = ...,
) -> npt.NDArray[np.float64]:
    """Reference aggregation for chrF and chrF++ (mbrs' float arithmetic): float64 ``(H,)``."""

def pairwise_rows(
    bags: NgramBags,
    hypotheses: tuple[int, int],
    references: tuple[int, int],
    *,
    max_order: Optional[int] = ...,
    ref_length: str = ...,
    workers: int = ...,
) -> npt.NDArray[np.int64]:
    """Every cell's statistics row (int64 ``(H * R, width)``, hypothesis index major)."""

@final
class TerSentences:
    """Sentences tokenized once for TER (as hypotheses and as references)."""

    def __len__(self) -> int: ...

def ter_sentences(
    lines: Sequence[str],
    *,
    normalized: bool = ...,
    no_punct: bool = ...,
    asian_support: bool = ...,
    workers: int = ...,
) -> TerSentences:
    """Every line tokenized as ``ter_stats`` reads it, as a hypothesis and as a reference."""

def ter_pairwise(
    sentences: TerSentences,
    hypotheses: tuple[int, int],
    references: tuple[int, int],
    *,
    workers: int = ...,
) -> npt.NDArray[np.float64]:
    """The ``(H, R)`` float64 matrix of sentence TER, each reference alone."""
