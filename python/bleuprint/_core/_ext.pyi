"""Type stubs for the compiled core. Private: use the `bleuprint` package.

A metric's configuration crosses into the core once, as a kernel object (``BleuKernel``,
``ChrfKernel``, ``TerKernel``, ``WerKernel``, ``GleuKernel``); every operation takes any
kernel and runs one batch per call, with the GIL released.
"""

from collections.abc import Mapping, Sequence
from typing import Any, Optional, SupportsFloat, Union, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "ARITHMETICS",
    "ARITHMETIC_SMOOTHINGS",
    "EMPTY_REFERENCE_RULES",
    "MAX_CHRF_ORDER",
    "MAX_NGRAM_ORDER",
    "BleuKernel",
    "ChrfKernel",
    "GleuKernel",
    "MecabTagger",
    "PtbTokenizer",
    "MetricKernel",
    "NORMALIZATIONS",
    "NORMALIZATION_SIGNATURES",
    "NORMALIZATION_UNICODE_VERSION",
    "REF_LENGTHS",
    "SMOOTH_DEFAULTS",
    "SMOOTH_METHODS",
    "RougeKernel",
    "CiderKernel",
    "Sentences",
    "TerKernel",
    "TextColumn",
    "TOKENIZERS",
    "WHISPER_TABLES",
    "OPEN_ASR_REVISION",
    "WerKernel",
    "WhisperStage",
    "__version__",
    "aggregate",
    "alignments",
    "arithmetic_score",
    "bags",
    "bootstrap_sums",
    "brevity_penalty",
    "details",
    "grouped_stats",
    "line_end",
    "ngram_details",
    "pairwise",
    "randomization_sums",
    "read_lines",
    "references_per_segment",
    "resampled_scores",
    "scores",
    "script_counts",
    "stats",
    "token_id_stats",
    "tokenize",
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
NORMALIZATION_SIGNATURES: dict[str, str]
WHISPER_TABLES: dict[str, Any]
OPEN_ASR_REVISION: str
"""The Whisper normalizers' data as upstream's attributes hold it: ``spelling``,
``additional_diacritics``, ``replacers``, ``package_replacers`` (dicts) and
``ignore_patterns`` (a str)."""
NORMALIZATION_UNICODE_VERSION: str
SMOOTH_METHODS: list[str]
"""sacrebleu's BLEU ``smooth_method`` names: ``none``, ``floor``, ``add-k``, ``exp``."""
SMOOTH_DEFAULTS: dict[str, Optional[float]]
"""sacrebleu's default ``smooth_value`` per method (``None``: the method takes no value)."""
EMPTY_REFERENCE_RULES: list[str]
"""``WerKernel(empty_reference=...)`` names: ``ratio`` and ``jiwer``."""
ARITHMETICS: list[str]
"""The upstreams whose float operations ``arithmetic_score`` reproduces: ``sacrebleu``,
``nltk``, ``nmt`` (tensorflow/nmt, HF evaluate), ``torch`` (torchmetrics, float32), ``moses``
(multi-bleu.perl), ``fairseq`` and ``mteval`` (mteval-v13a.pl)."""
ARITHMETIC_SMOOTHINGS: list[tuple[str, list[str]]]
"""Each arithmetic with the smoothing methods it computes from the counts itself; any other
smoothing's precisions are passed to ``arithmetic_score`` as ``smoothed``."""
MAX_NGRAM_ORDER: int
"""The highest accepted BLEU ``max_order`` (and GLEU ``max_len``): 255."""
MAX_CHRF_ORDER: int
"""The highest accepted chrF ``char_order`` and ``word_order``: 255."""

_Rows = npt.NDArray[np.int64]
_Floats = npt.NDArray[np.float64]

# --- kernels: a metric's configuration, checked once -------------------------------------------

class MetricKernel:
    """What every kernel has: the shape of its statistics rows."""

    @property
    def width(self) -> int:
        """Columns of a statistics row."""
    @property
    def column_names(self) -> list[str]:
        """The names of a statistics row's columns."""

@final
class BleuKernel(MetricKernel):
    """BLEU: how text becomes counts (``tokenizer``: a core tokenizer name, ``ja-mecab`` or
    ``ko-mecab`` with the loaded ``tagger``, or ``None`` for token lists; ``normalize``;
    ``max_order``; ``ref_length``) and how counts become a score (sacrebleu's
    ``smooth_method``/``smooth_value``/``effective_order``, or another upstream's
    ``arithmetic`` with ``weights``, ``auto_reweigh`` and ``scale``)."""

    def __new__(
        cls,
        *,
        tokenizer: Optional[str] = ...,
        normalize: Optional[str] = None,
        max_order: int = 4,
        ref_length: str = "closest",
        smooth_method: str = "exp",
        smooth_value: Optional[float] = None,
        effective_order: bool = False,
        compensated_sum: bool = False,
        arithmetic: str = "sacrebleu",
        weights: Optional[Sequence[Sequence[float]]] = None,
        uniform_weights: Optional[bool] = None,
        auto_reweigh: bool = False,
        scale: int = 100,
        tagger: Optional[MecabTagger] = None,
    ) -> BleuKernel: ...
    def self_stats(
        self, sentences: Sequence[Sequence[str]], *, include_self: bool = False, workers: int = ...
    ) -> _Rows:
        """Self-BLEU's rows ``(n, 2 + 2 * max_order)``: each token list clipped against all
        the others (all of them, itself too, with ``include_self``)."""

@final
class ChrfKernel(MetricKernel):
    """chrF/chrF++: orders, ``beta ** 2`` (``factor``) and ``1 + beta ** 2``, whitespace,
    smoothing."""

    def __new__(
        cls,
        *,
        char_order: int = 6,
        word_order: int = 0,
        factor: float = 4.0,
        one_plus_factor: float = 5.0,
        whitespace: bool = False,
        eps_smoothing: bool = False,
        compensated_sum: bool = False,
    ) -> ChrfKernel: ...

@final
class TerKernel(MetricKernel):
    """TER: the Tercom tokenizer's options."""

    def __new__(
        cls, *, normalized: bool = False, no_punct: bool = False, asian_support: bool = False
    ) -> TerKernel: ...

@final
class WerKernel(MetricKernel):
    """The WER family: ``unit`` (``word``, ``char``), ``raw`` (no whitespace cleanup), the
    ``empty_reference`` rule of the measures (``ratio``, ``jiwer``), and whose alignment:
    ``aligner`` (``rapidfuzz``, ``kaldialign``) with kaldialign's ``sclite`` costs and
    ``merge_compounds``, the Open ASR Leaderboard's ``compound_pairs`` pass, and a
    ``normalize`` form (any of ``NORMALIZATIONS``) applied to the text first."""

    def __new__(
        cls,
        *,
        unit: str = "word",
        raw: bool = False,
        empty_reference: str = "ratio",
        aligner: str = "rapidfuzz",
        sclite: bool = False,
        merge_compounds: bool = False,
        compound_pairs: bool = False,
        normalize: str | None = None,
    ) -> WerKernel: ...

@final
class GleuKernel(MetricKernel):
    """GLEU (nltk ``corpus_gleu``, HF ``google_bleu``): the tokenizer (or ``None`` for token
    lists) and the n-gram lengths."""

    def __new__(
        cls,
        *,
        tokenizer: Optional[str] = ...,
        normalize: Optional[str] = None,
        min_len: int = 1,
        max_len: int = 4,
    ) -> GleuKernel: ...

@final
class RougeKernel(MetricKernel):
    """ROUGE (rouge-score 0.1.2): the types (``rouge1`` ... ``rouge9``, ``rougeL``,
    ``rougeLsum``; a ``[match, hyp, ref]`` triple each) and the tokenizer: ``"rouge"``
    (rouge-score's, with ``stem`` its Porter stemmer), ``"split-space"`` (``str.split(" ")``),
    a bleuprint tokenizer name, or ``None`` for text the caller split (``"whole\\nline
    1\\nline 2"``, tokens separated by spaces). ``multi_reference="max-precision-recall"``
    (pycocoevalcap's ROUGE-L) keeps the highest precision and recall over the references,
    ``[p_match, hyp, r_match, ref]`` per type; ``beta`` is the F-measure's."""

    def __new__(
        cls,
        *,
        types: Sequence[str],
        tokenizer: Optional[str] = ...,
        stem: bool = False,
        normalize: Optional[str] = None,
        tagger: Optional[MecabTagger] = None,
        multi_reference: str = "best-f",
        beta: float = 1.0,
    ) -> RougeKernel: ...

@final
class CiderKernel:
    """CIDEr-D (pycocoevalcap 1.2): the tokenizer (``"none"``: ``str.split()``), the n-gram
    orders counted, the sums per image (``columns``, at least ``orders``) and the length
    penalty's ``2 * sigma**2``. Its statistics are captions as token ids, not rows, so it has
    its own two operations instead of the generic ones."""

    def __new__(
        cls,
        *,
        tokenizer: Optional[str] = "none",
        normalize: Optional[str] = None,
        orders: int = 4,
        columns: int = 4,
        two_sigma_squared: float = 72.0,
    ) -> CiderKernel: ...
    def count(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[Optional[str]]],
        *,
        workers: int = ...,
    ) -> tuple[list[str], Any, Any, Any]:
        """``(tokens, ids, caption_ends, image_ends)``: the token table, every caption's
        token ids, where each caption's ids end, where each image's captions end (its caption,
        then its references); int64 arrays. Counted on ``workers`` threads (-1: every core),
        with the same result."""
    def order_sums(
        self, tokens: Any, caption_ends: Any, image_ends: Any, log_table: Any, *, workers: int = ...
    ) -> Any:
        """Each image's per-order sums over its references, float64 ``(images, columns)``;
        ``log_table[k]`` is ``numpy.log(max(1.0, k))`` up to the number of images."""

_Kernel = MetricKernel

# --- statistics ---------------------------------------------------------------------------------

def stats(
    kernel: _Kernel,
    hypotheses: Any,
    references: Any,
    *,
    workers: int = ...,
) -> tuple[_Rows, int, int]:
    """Per-segment statistics against reference streams (``references[k][i]``; ``None``
    drops one): ``(rows, nrefs, tokenized_periods)``, the last counted for a BLEU kernel only
    (0 otherwise). Text is a sequence of ``str``, a ``TextColumn`` or the ``bytes`` of whole
    lines."""

def grouped_stats(
    kernel: _Kernel, hypotheses: Sequence[Any], references: Sequence[Any], *, workers: int = ...
) -> _Rows:
    """Per-segment statistics when ``references[i]`` lists the references of
    ``hypotheses[i]``: text, or token lists for a kernel that takes tokens (BLEU and GLEU
    with ``tokenizer=None``; WER, with exactly one reference each)."""

def token_id_stats(
    kernel: BleuKernel,
    tokens: npt.NDArray[np.int64],
    ends: npt.NDArray[np.int64],
    reference_counts: npt.NDArray[np.int64],
    *,
    workers: int = ...,
) -> _Rows:
    """Per-candidate BLEU statistics of token-ID sequences: ``tokens[ends[k - 1]:ends[k]]``
    is sequence ``k``, the ``B = len(reference_counts)`` candidates first, then each
    candidate's references in order."""

def alignments(
    kernel: WerKernel,
    hypotheses: Sequence[Any],
    references: Sequence[Any],
    *,
    tokens: bool = False,
    workers: int = ...,
) -> tuple[_Rows, _Rows, _Rows, _Rows]:
    """WER alignments: ``(rows (n, 6), stream (n,), opcodes (m, 5), offsets (n + 1,))``;
    opcodes rows are ``[tag, ref_start, ref_end, hyp_start, hyp_end]`` with tag 0 equal, 1
    substitute, 2 delete, 3 insert. Text takes reference streams; ``tokens=True`` one token
    list per hypothesis."""

# --- scores -------------------------------------------------------------------------------------

def scores(kernel: _Kernel, rows: _Rows) -> _Floats:
    """Every row's sentence score, float64 ``(n,)``."""

def details(kernel: _Kernel, rows: _Rows, *, corpus: bool = False) -> dict[str, list[Any]]:
    """Every row's score with the parts behind it, one list per name (BLEU ``score``,
    ``bp``, ``precisions``, ``smoothed_orders``; chrF ``score``; TER ``score``, ``edits``,
    ``ref_length``; WER ``wer``, ``mer``, ``wil``, ``wip``); ``corpus=True``: the one corpus
    result, and (but for TER) the summed row it scores as ``sums``."""

def resampled_scores(
    kernel: _Kernel, sums: Union[npt.NDArray[np.float32], _Floats], *, promotion: str
) -> tuple[_Floats, npt.NDArray[np.bool_]]:
    """Scores of resampled sums in sacrebleu's float32 arithmetic under numpy's scalar
    ``promotion`` (``"weak"``: NEP 50, ``"legacy"``: numpy 1): ``(scores, is_numpy)``."""

def arithmetic_score(
    kernel: BleuKernel,
    correct: Sequence[SupportsFloat],
    total: Sequence[SupportsFloat],
    *,
    hyp_len: SupportsFloat,
    ref_len: SupportsFloat,
    smoothed: Optional[Sequence[float]] = None,
    positive: Optional[Sequence[bool]] = None,
    item_lengths: Optional[tuple[SupportsFloat, SupportsFloat]] = None,
) -> tuple[
    list[float],
    float,
    float,
    list[float],
    int,
    tuple[bool, bool, bool, list[bool]],
    Optional[tuple[str, str]],
]:
    """BLEU of summed counts in the kernel's upstream arithmetic: ``(scores, bp, ratio,
    precisions, smoothed_orders, (scores_int, bp_int, ratio_int, precision_ints), error)``."""

def brevity_penalty(
    hyp_len: SupportsFloat, ref_len: SupportsFloat, *, arithmetic: str
) -> tuple[float, bool, Optional[tuple[str, str]]]:
    """``(value, is_int, error)`` of an arithmetic's brevity penalty."""

def ngram_details(
    hypothesis: Sequence[str], references: Sequence[Sequence[str]], *, max_order: int
) -> list[list[tuple[tuple[str, ...], int, int, int]]]:
    """Per order, each distinct hypothesis n-gram: ``(ngram, count, max_ref, clipped)``."""

# --- pairwise matrices --------------------------------------------------------------------------

@final
class Sentences:
    """Sentences counted once under a kernel (BLEU's or chrF's n-grams, TER's tokens)."""

    def __len__(self) -> int: ...
    @property
    def metric(self) -> str: ...

def bags(kernel: _Kernel, lines: Sequence[str], *, workers: int = ...) -> Sentences:
    """Counts every line once for ``pairwise`` and ``aggregate``."""

def pairwise(
    kernel: _Kernel,
    sentences: Sentences,
    hypotheses: tuple[int, int],
    references: tuple[int, int],
    *,
    rows: bool = False,
    workers: int = ...,
) -> Any:
    """The ``(H, R)`` float64 sentence scores of the ranges' pairs; ``rows=True`` gives the
    cells' int64 statistics rows ``(H * R, width)`` instead."""

def aggregate(
    kernel: _Kernel,
    sentences: Sentences,
    hypotheses: tuple[int, int],
    references: tuple[int, int],
    log_weights: Sequence[float],
    *,
    workers: int = ...,
) -> _Floats:
    """Reference aggregation (BLEU, chrF): each hypothesis against the references' averaged
    n-gram statistics, float64 ``(H,)``."""

# --- text ---------------------------------------------------------------------------------------

@final
class WhisperStage:
    """One class or function of the Whisper text normalizers with its options (``english``,
    ``numbers``, ``spelling``, ``basic``, ``remove_symbols``,
    ``remove_symbols_and_diacritics``), which :func:`tokenize` takes as its tokenizer."""

    def __new__(
        cls,
        stage: str,
        *,
        package: bool = False,
        remove_diacritics: bool = False,
        split_letters: bool = False,
        preserve_marks: bool = False,
        keep: str = ...,
    ) -> WhisperStage: ...

def tokenize(
    tokenizer: Union[str, _Kernel, WhisperStage],
    lines: Sequence[Optional[str]],
    *,
    normalize: Optional[str] = None,
    name: str = "lines",
    workers: int = ...,
) -> list[Any]:
    """Every line tokenized by a tokenizer name (or ``regexp``, sacrebleu's
    ``TokenizerRegexp`` alone), after an optional normalization, or by a kernel's tokenizer
    (WER: a list of tokens per line), or normalized by a :class:`WhisperStage`. ``None``
    lines stay ``None``."""

def script_counts(lines: Sequence[str], max_lines: int = ...) -> tuple[int, int, int, int]: ...
def references_per_segment(references: Sequence[Sequence[Optional[str]]]) -> int:
    """References per segment, or -1 where the count varies."""

@final
class MecabTagger:
    """A MeCab model loaded from a ``libmecab`` shared library (``ja-mecab``, ``ko-mecab``)."""

    def __new__(cls, library_path: str, args: Sequence[str]) -> MecabTagger: ...
    def tokenize(self, lines: Sequence[str], workers: int = ...) -> list[str]: ...
    def clear_cache(self) -> None: ...
    def cache_info(self) -> dict[str, int]: ...
    def version(self) -> str: ...
    def dictionary_info(self) -> list[dict[str, Union[str, int]]]: ...

@final
class PtbTokenizer:
    """Stanford CoreNLP 3.4.1's PTB tokenizer as pycocoevalcap runs it (``-preserveLines
    -lowerCase``, then its punctuation list dropped), built from the bytes of the jar's
    ``edu/stanford/nlp/process/PTBLexer.class``."""

    def __new__(cls, class_file: bytes) -> PtbTokenizer: ...
    def tokenize(self, captions: Sequence[str], *, workers: int = ...) -> list[str]:
        """Each caption on its own (as the jar reads it followed by a line break)."""
    def tokenize_batch(
        self, captions: Sequence[str], *, line_breaks: str = ..., workers: int = ...
    ) -> list[str]:
        """The captions as pycocoevalcap's one call of the jar tokenizes them; ``line_breaks``:
        ``error``, ``newline-space`` or ``space``."""
    def tokenize_images(
        self,
        captions_for_image: Mapping[Any, Sequence[Mapping[str, str]]],
        *,
        line_breaks: str = ...,
        workers: int = ...,
    ) -> dict[Any, list[str]]:
        """pycocoevalcap's ``PTBTokenizer().tokenize``: ``{image: [{"caption": str}, ...]}``
        to ``{image: [tokenized caption, ...]}`` (no entry for an image without captions), in
        one batch as :meth:`tokenize_batch` tokenizes them."""
    def jar_output(self, text: str) -> str:
        """The jar's output for ``text`` with ``-preserveLines -lowerCase``."""

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

# --- files and resampling -----------------------------------------------------------------------

def read_lines(path: str) -> list[str]: ...
def line_end(data: bytes, start: int, n: int) -> tuple[int, int]: ...
def bootstrap_sums(stats: Any, indices: _Rows, *, workers: int = ...) -> Any:
    """Per resample (a row of ``indices``), the rows it selects summed in index order: float32
    sums of float32 statistics, float64 sums of float64 ones, exact sums of int64 ones."""

def randomization_sums(
    baseline: _Rows,
    system: _Rows,
    packed_swaps: npt.NDArray[np.uint8],
    *,
    workers: int = ...,
) -> tuple[_Rows, _Rows]:
    """Per trial, the sums of the two pseudo-systems: A takes the baseline's row where the
    swap flag is set and the system's elsewhere, B the other. Flags are packed 8 segments to a
    byte: ``numpy.packbits(flags, axis=1, bitorder="little")``."""
