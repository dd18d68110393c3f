"""BLEU (Papineni et al. 2002), bit-identical to sacrebleu 2.6.0's ``BLEU``.

Text becomes per-segment statistics in the Rust core (``[hyp_len, ref_len, correct_1..N,
total_1..N]``); statistics become scores there too, with sacrebleu's float operations in
sacrebleu's order. This module holds the configuration, the result and signature objects, and
the sacrebleu-shaped ``BLEU`` class.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Optional

from bleuprint import _core
from bleuprint.errors import InputTypeError, InvalidOptionError, warn
from bleuprint.metrics.base import (
    COMPENSATED_SUM,
    Score,
    Signature,
    SummedRowsScoring,
    register_config,
)
from bleuprint.metrics.metric import Metric
from bleuprint.tokenizers import (
    TOKENIZERS,
    check_normalization,
    check_spm_model,
    check_tokenizer,
    get_tokenizer,
    pretokenize,
    tokenizer_signature,
)
from bleuprint.tokenizers.language import (
    DEFAULT_TOKENIZER,
    LANGUAGE_NAMES,
    TOKENIZER_FOR_LANGUAGE,
    cjk_tokenizer_advice,
)

if TYPE_CHECKING:
    import numpy as np

MAX_NGRAM_ORDER = 4

#: The highest accepted ``max_ngram_order`` (the core's bound, checked before it allocates).
MAX_ORDER: int = _core.MAX_NGRAM_ORDER

#: Default smoothing value per method (Chen & Cherry 2014), as in sacrebleu: the core's table.
SMOOTH_DEFAULTS: dict[str, Optional[float]] = dict(_core.SMOOTH_DEFAULTS)


@register_config
@dataclass(frozen=True)
class BLEUConfig(SummedRowsScoring):
    """Every setting that changes BLEU statistics or scores.

    Statistics made under one config can only be merged with statistics of an equal config.
    """

    tokenize: str = "13a"
    lowercase: bool = False
    max_ngram_order: int = MAX_NGRAM_ORDER
    smooth_method: str = "exp"
    smooth_value: Optional[float] = None
    effective_order: bool = False
    normalize: Optional[str] = None
    spm_model: Optional[str] = None

    metric = "BLEU"
    #: Higher scores are better (read by the paired tests' clusters, which rank best first).
    higher_is_better = True

    def __post_init__(self) -> None:
        check_tokenizer(self.tokenize)
        check_normalization(self.normalize)
        check_spm_model(self.tokenize, self.spm_model)
        if self.spm_model is not None:
            # A path, stored as str so configs compare, hash and serialise simply.
            object.__setattr__(self, "spm_model", str(self.spm_model))
        if self.smooth_method not in SMOOTH_DEFAULTS:
            raise InvalidOptionError(
                f"unknown smooth_method {self.smooth_method!r}; "
                f"expected one of {', '.join(SMOOTH_DEFAULTS)}"
            )
        value = self.smooth_value
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise InputTypeError(
                    f"smooth_value must be a number or None, got {type(value).__name__}"
                )
            if not (math.isfinite(value) and value >= 0):
                raise InvalidOptionError(f"smooth_value must be a finite number >= 0, got {value}")
        order = self.max_ngram_order
        if isinstance(order, bool) or not isinstance(order, int) or not 1 <= order <= MAX_ORDER:
            raise InvalidOptionError(
                f"max_ngram_order must be an int >= 1 and <= {MAX_ORDER}, got {order!r}"
            )

    @property
    def width(self) -> int:
        """Columns of a statistics row: ``2 + 2 * max_ngram_order``."""
        return 2 + 2 * self.max_ngram_order

    @property
    def column_names(self) -> tuple[str, ...]:
        """Names of the statistics columns."""
        return tuple(_core.bleu_column_names(self.max_ngram_order))

    @property
    def effective_smooth_value(self) -> Optional[float]:
        """The smoothing value in use: the given one, else the method's default."""
        if self.smooth_value is None:
            return SMOOTH_DEFAULTS[self.smooth_method]
        return self.smooth_value

    def _score_kwargs(self) -> dict[str, Any]:
        value = self.effective_smooth_value
        return {
            "max_order": self.max_ngram_order,
            "smooth_method": self.smooth_method,
            "smooth_value": None if value is None else float(value),
            "effective_order": self.effective_order,
            "compensated_sum": COMPENSATED_SUM,
        }

    def score_row(self, row: Any) -> BLEUScore:
        """Scores one (summed) statistics row."""
        import numpy as np

        return self.score_rows_detailed(np.asarray(row, dtype=np.int64).reshape(1, -1))[0]

    def score_rows(self, rows: Any) -> np.ndarray:
        """Scores every row of a statistics matrix; a float64 array of shape ``(n,)``."""
        import numpy as np

        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, self.width)
        return _core.bleu_scores(rows, **self._score_kwargs())

    def score_float32_sums(self, sums: Any) -> tuple[np.ndarray, np.ndarray]:
        """Scores float32 resample sums with sacrebleu's arithmetic on numpy.float32 counts:
        ``(scores, is_float32)``; a BLEU score is always a Python float."""
        import numpy as np

        sums = np.ascontiguousarray(sums, dtype=np.float32).reshape(-1, self.width)
        scores = _core.bleu_scores_float32(sums, **self._score_kwargs())
        return scores, np.zeros(len(scores), dtype=bool)

    def score_rows_detailed(self, rows: Any) -> list[BLEUScore]:
        """Scores every row of a statistics matrix, as full :class:`BLEUScore` objects."""
        import numpy as np

        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, self.width)
        scores, bps, precisions, smoothed = _core.bleu_score_details(rows, **self._score_kwargs())
        n, k = self.max_ngram_order, self.effective_smooth_value
        results = []
        for row, score, bp, precs, smoothed_orders in zip(
            rows.tolist(), scores.tolist(), bps.tolist(), precisions.tolist(), smoothed.tolist()
        ):
            counts, totals = row[2 : 2 + n], row[2 + n : 2 + 2 * n]
            # sacrebleu reports add-k counts and totals after adding k to the orders it
            # smoothed.
            for i in range(1, 1 + smoothed_orders):
                counts[i] += k
                totals[i] += k
            results.append(BLEUScore(score, counts, totals, precs, bp, row[0], row[1]))
        return results

    def signature(self, nrefs: int) -> BLEUSignature:
        """The signature for statistics made with ``nrefs`` references per segment."""
        return BLEUSignature(self, nrefs)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable description (used when saving statistics)."""
        return {"metric": self.metric, **asdict(self)}


class BLEUScore(Score):
    """A BLEU score with the statistics behind it (sacrebleu's ``BLEUScore``).

    Attributes
    ----------
    score : float
        BLEU in 0..100.
    counts, totals : list
        Clipped n-gram matches and hypothesis n-gram counts per order.
    precisions : list of float
        Per-order precisions in percent.
    bp : float
        Brevity penalty.
    sys_len, ref_len : int
        Hypothesis length and effective reference length, in tokens.
    """

    def __init__(
        self,
        score: float,
        counts: list[Any],
        totals: list[Any],
        precisions: list[float],
        bp: float,
        sys_len: int,
        ref_len: int,
    ) -> None:
        super().__init__("BLEU", score)
        self.bp = bp
        self.counts = counts
        self.totals = totals
        self.sys_len = sys_len
        self.ref_len = ref_len
        self.precisions = precisions
        self.prec_str = "/".join([f"{p:.1f}" for p in self.precisions])
        self.ratio = self.sys_len / self.ref_len if self.ref_len else 0
        self._verbose = (
            f"{self.prec_str} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {self.sys_len:d} ref_len = {self.ref_len:d})"
        )


class BLEUSignature(Signature):
    """``nrefs:N|case:mixed|eff:no|tok:13a|smooth:exp|version:bleuprint-X``.

    ``norm:nfc`` (or ``nfkc``) comes before the version when Unicode normalization is on.
    """

    def __init__(self, config: BLEUConfig, nrefs: int) -> None:
        super().__init__(nrefs)
        self.abbreviations.update(
            {"case": "c", "eff": "e", "tok": "tok", "smooth": "s", "norm": "nm"}
        )
        smooth = config.smooth_method
        if SMOOTH_DEFAULTS[smooth] is not None:
            smooth += f"[{config.effective_smooth_value:.2f}]"
        self.info.update(
            {
                "case": "lc" if config.lowercase else "mixed",
                "eff": "yes" if config.effective_order else "no",
                "tok": tokenizer_signature(config.tokenize, config.spm_model),
                "smooth": smooth,
            }
        )
        if config.normalize is not None:
            self.info["norm"] = config.normalize


class BLEU(Metric[BLEUScore]):
    """BLEU with sacrebleu's constructor, methods and results.

    Parameters
    ----------
    lowercase
        Lowercase hypotheses and references (Python ``str.lower``).
    force
        Do not warn about input that looks tokenized already.
    tokenize
        Tokenizer name (see :data:`bleuprint.tokenizers.TOKENIZERS`); ``None`` picks the
        ``trg_lang`` default, else ``13a``, and warns if the text then looks Chinese,
        Japanese or Korean.
    smooth_method
        ``exp`` (default), ``floor``, ``add-k`` or ``none``.
    smooth_value
        Value for ``floor`` (default 0.1) and ``add-k`` (default 1).
    max_ngram_order
        Highest n-gram order (default 4, at most 255).
    effective_order
        Average only over orders the hypothesis has n-grams for (for sentence BLEU).
    trg_lang
        Target language code; ``zh``, ``ja`` and ``ko`` pick their tokenizers as sacrebleu does.
    references
        Reference streams to prepare once and reuse for every ``corpus_score`` call.
    normalize
        ``"nfc"`` or ``"nfkc"``: Unicode-normalize hypotheses and references (after
        lowercasing, before tokenizing). Off by default, as in sacrebleu; recorded in the
        signature (``norm:nfc``) when on.
    spm_model
        SentencePiece model file for the ``spm``/``flores*``/``spBLEU-1K`` tokenizers; by
        default the published model is downloaded once and cached.
    workers
        Threads for the core: ``-1`` (default) uses every core (or ``BLEUPRINT_NUM_THREADS``),
        ``1`` runs serially; a larger count than the cores (or ``BLEUPRINT_NUM_THREADS``, if
        larger) is clamped to them. Results are identical for every value.
    """

    SMOOTH_DEFAULTS = SMOOTH_DEFAULTS
    TOKENIZERS = TOKENIZERS
    TOKENIZER_DEFAULT = DEFAULT_TOKENIZER
    _TOKENIZER_MAP = TOKENIZER_FOR_LANGUAGE
    #: Tokenized periods counted over the chunks of a stream (see ``_warnings_summed``), and
    #: whether the stream's script sample (its first chunk) was taken.
    _period_tally: Optional[int] = None
    _stream_sampled = False

    def __init__(
        self,
        lowercase: bool = False,
        force: bool = False,
        tokenize: Optional[str] = None,
        smooth_method: str = "exp",
        smooth_value: Optional[float] = None,
        max_ngram_order: int = MAX_NGRAM_ORDER,
        effective_order: bool = False,
        trg_lang: str = "",
        references: Optional[Sequence[Sequence[Optional[str]]]] = None,
        *,
        normalize: Optional[str] = None,
        spm_model: Optional[str] = None,
        workers: int = -1,
    ) -> None:
        self.trg_lang = trg_lang
        # Only a tokenizer nobody chose is second-guessed from the text.
        self._check_script = tokenize is None and trg_lang not in self._TOKENIZER_MAP
        if tokenize is None:
            tokenize = self._TOKENIZER_MAP.get(trg_lang, self.TOKENIZER_DEFAULT)
        else:
            expected = self._TOKENIZER_MAP.get(trg_lang)
            if expected is not None and tokenize != expected:
                language = LANGUAGE_NAMES[trg_lang]
                warn(f"Consider using the {expected!r} or 'spm' tokenizer for {language}.")
        config = BLEUConfig(
            tokenize=tokenize,
            lowercase=lowercase,
            max_ngram_order=max_ngram_order,
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            effective_order=effective_order,
            normalize=normalize,
            spm_model=spm_model,
        )
        # Loads MeCab or the SentencePiece model now, so a missing package fails early.
        self._external = get_tokenizer(config.tokenize, config.spm_model)
        self.force = force
        super().__init__(config, references, workers)

    # sacrebleu exposes the settings as attributes.
    @property
    def lowercase(self) -> bool:
        return self.config.lowercase

    @property
    def tokenize(self) -> str:
        return self.config.tokenize

    @property
    def smooth_method(self) -> str:
        return self.config.smooth_method

    @property
    def smooth_value(self) -> Optional[float]:
        return self.config.smooth_value

    @property
    def max_ngram_order(self) -> int:
        return self.config.max_ngram_order

    @property
    def effective_order(self) -> bool:
        return self.config.effective_order

    @property
    def normalize(self) -> Optional[str]:
        return self.config.normalize

    def _compute_stats(
        self, hyps: Sequence[Any], streams: list[Sequence[Any]]
    ) -> tuple[np.ndarray, int]:
        tokenizer, normalize = self.config.tokenize, self.config.normalize
        external = self._external
        if external is not None:
            # MeCab / SentencePiece run here; the core then only splits on spaces.
            tokenized_periods = sum(1 for h in hyps if isinstance(h, str) and h.endswith(" ."))
            hyps = pretokenize(hyps, external, normalize, "hypotheses", self.workers)
            streams = [
                pretokenize(s, external, normalize, f"references[{k}]", self.workers)
                for k, s in enumerate(streams)
            ]
            tokenizer, normalize = "none", None
        rows, nrefs, periods = _core.bleu_stats(
            hyps,
            streams,
            tokenizer=tokenizer,
            max_order=self.config.max_ngram_order,
            normalize=normalize,
            workers=self.workers,
        )
        if external is None:
            tokenized_periods = periods
        # After the core has validated every item; a stream samples its first chunk only.
        if self._check_script and (self._period_tally is None or not self._stream_sampled):
            self._stream_sampled = self._period_tally is not None
            advice = cjk_tokenizer_advice([streams[0], hyps], self.config.tokenize)
            if advice is not None:
                warn(advice)
        if self._period_tally is None:
            self._warn_tokenized(tokenized_periods)
        else:
            self._period_tally += tokenized_periods
        return rows, nrefs

    def _takes_blocks(self) -> bool:
        return super()._takes_blocks() and self._external is None

    def _warn_tokenized(self, tokenized_periods: int) -> None:
        if tokenized_periods >= 100 and not self.force:
            warn(
                f"{tokenized_periods} hypotheses end in a tokenized period (' .'). Your system "
                "output looks tokenized already, which makes BLEU incomparable with published "
                "numbers; pass detokenized text, or force=True (--force) to silence this."
            )

    @contextmanager
    def _warnings_summed(self) -> Iterator[None]:
        self._period_tally, self._stream_sampled = 0, False
        try:
            yield
        except BaseException:
            self._period_tally, self._stream_sampled = None, False
            raise
        tally, self._period_tally, self._stream_sampled = self._period_tally, None, False
        self._warn_tokenized(tally)

    def _count_sentences(self, sentences: list[str]) -> Any:
        tokenizer, normalize = self.config.tokenize, self.config.normalize
        lines = self._prepare_stream(sentences)
        if self._external is not None:
            lines = pretokenize(lines, self._external, normalize, "sentences", self.workers)
            tokenizer, normalize = "none", None
        return _core.bleu_bags(
            lines,
            tokenizer=tokenizer,
            max_order=self.config.max_ngram_order,
            normalize=normalize,
        )

    def _score_block(
        self, counted: Any, hypotheses: tuple[int, int], references: tuple[int, int]
    ) -> np.ndarray:
        return _core.bleu_pairwise(
            counted, hypotheses, references, **self.config._score_kwargs(), workers=self.workers
        )

    def _aggregate_block(
        self,
        counted: Any,
        hypotheses: tuple[int, int],
        references: tuple[int, int],
        log_weights: list[float],
    ) -> np.ndarray:
        return _core.bleu_aggregate(
            counted, hypotheses, references, log_weights, **self.config._score_kwargs(),
            workers=self.workers,
        )  # fmt: skip

    @staticmethod
    def compute_bleu(
        correct: Sequence[int],
        total: Sequence[int],
        sys_len: int,
        ref_len: int,
        smooth_method: str = "none",
        smooth_value: Optional[float] = None,
        effective_order: bool = False,
        max_ngram_order: int = MAX_NGRAM_ORDER,
    ) -> BLEUScore:
        """BLEU from summed statistics (sacrebleu's ``BLEU.compute_bleu``)."""
        config = BLEUConfig(
            tokenize="none",
            max_ngram_order=max_ngram_order,
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            effective_order=effective_order,
        )
        values = [sys_len, ref_len, *correct[:max_ngram_order], *total[:max_ngram_order]]
        if len(values) != config.width or any(int(v) != v for v in values):
            raise InvalidOptionError(
                f"compute_bleu needs {max_ngram_order} integer counts and totals, "
                f"got {list(correct)!r} and {list(total)!r}"
            )
        return config.score_row([int(v) for v in values])

    def _before_sentence_scores(self) -> None:
        if not self.config.effective_order:
            warn("It is recommended to enable `effective_order` for sentence-level BLEU.")
