"""The ``BLEU`` metric class: sacrebleu's constructor, methods and results by default, and any
other upstream's BLEU with ``preset=`` (``BLEU(preset="nltk")``)."""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Optional, Union

from bleuprint import _core
from bleuprint.errors import InvalidInputError, InvalidOptionError, warn
from bleuprint.metrics.bleu.config import MAX_NGRAM_ORDER, BLEUConfig, drop_empty
from bleuprint.metrics.bleu.counting import MECAB_TOKENIZERS, prepares_text, text_for_core
from bleuprint.metrics.bleu.knobs import SMOOTH_DEFAULTS
from bleuprint.metrics.bleu.score import BLEUScore
from bleuprint.metrics.config import shared_config
from bleuprint.metrics.metric import Metric
from bleuprint.metrics.stats import Stats
from bleuprint.tokenizers import TOKENIZERS, get_tokenizer, pretokenize
from bleuprint.tokenizers.language import (
    DEFAULT_TOKENIZER,
    LANGUAGE_NAMES,
    TOKENIZER_FOR_LANGUAGE,
    cjk_tokenizer_advice,
)

if TYPE_CHECKING:
    import numpy as np

#: sacrebleu's constructor defaults, which ``preset=`` may not be combined with.
_SACREBLEU_ARGUMENTS = {
    "lowercase": False,
    "tokenize": None,
    "smooth_method": "exp",
    "smooth_value": None,
    "max_ngram_order": MAX_NGRAM_ORDER,
    "effective_order": False,
    "normalize": None,
    "spm_model": None,
}


class BLEU(Metric[BLEUScore]):
    """BLEU with sacrebleu's constructor, methods and results, or any preset's.

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
    preset
        Another upstream's BLEU: a name in :data:`bleuprint.presets.PRESETS` (``"nltk"``,
        ``"hf"``, ``"torchmetrics"``, ``"moses"``, ``"mteval-v13a"``, ...) or a
        :class:`~bleuprint.BLEUConfig` with any knobs. It replaces sacrebleu's settings, so
        it is given alone (with ``force``, ``trg_lang``, ``references`` and ``workers``).
        Scores then have the upstream's scale and types, and the signature names the preset
        (``preset:nltk``).
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

    config: BLEUConfig

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
        preset: Union[str, BLEUConfig, None] = None,
        workers: int = -1,
    ) -> None:
        self.trg_lang = trg_lang
        if preset is not None:
            given = {
                "lowercase": lowercase, "tokenize": tokenize, "smooth_method": smooth_method,
                "smooth_value": smooth_value, "max_ngram_order": max_ngram_order,
                "effective_order": effective_order, "normalize": normalize,
                "spm_model": spm_model,
            }  # fmt: skip
            changed = [n for n, v in given.items() if v != _SACREBLEU_ARGUMENTS[n]]
            if changed:
                raise InvalidOptionError(
                    f"preset= gives every BLEU setting, so it does not combine with "
                    f"{', '.join(changed)}; change the preset's knobs instead: "
                    f"BLEU(preset=BLEUConfig.from_preset(name, {changed[0]}=...))"
                )
            self._check_script = False
            config = BLEUConfig.from_preset(preset)
        else:
            # Only a tokenizer nobody chose is second-guessed from the text.
            self._check_script = tokenize is None and trg_lang not in self._TOKENIZER_MAP
            if tokenize is None:
                tokenize = self._TOKENIZER_MAP.get(trg_lang, self.TOKENIZER_DEFAULT)
            else:
                expected = self._TOKENIZER_MAP.get(trg_lang)
                if expected is not None and tokenize != expected:
                    language = LANGUAGE_NAMES[trg_lang]
                    warn(f"Consider using the {expected!r} or 'spm' tokenizer for {language}.")
            args = (
                tokenize, lowercase, max_ngram_order, smooth_method, smooth_value,
                effective_order, normalize, spm_model,
            )  # fmt: skip
            # Not shared for MeCab: its kernel holds the tagger that loaded when it was made.
            share = tokenize not in MECAB_TOKENIZERS
            config = shared_config(BLEUConfig, *args) if share else BLEUConfig(*args)
        # Loads MeCab or the SentencePiece model now, so a missing package fails early.
        self._external = (
            get_tokenizer(config.tokenize, config.spm_model) if config.external_tokenizer else None
        )
        self.force = force
        super().__init__(config, references, workers)

    # --- the text steps and the statistics ---------------------------------------------------

    def _prepare_stream(self, stream: Sequence[Any]) -> Sequence[Any]:
        return text_for_core(stream, self.config) if prepares_text(self.config) else stream

    def _takes_blocks(self) -> bool:
        return self._external is None and not prepares_text(self.config)

    def _pretokenized(self, stream: Sequence[Any], name: str) -> Sequence[Any]:
        """MeCab's or SentencePiece's tokens of a stream (after the normalization)."""
        if self._external is None:
            return stream
        return pretokenize(stream, self._external, self.config.normalize, name, self.workers)

    def _compute_stats(
        self, hyps: Sequence[Any], streams: list[Sequence[Any]]
    ) -> tuple[np.ndarray, int]:
        config = self.config
        if config.drop_empty:
            hyps, kept = _kept_segments(hyps, streams)
            streams = list(kept)
        tokenized_periods = None
        if self._external is not None:
            # MeCab / SentencePiece run here; the core then only splits on spaces.
            tokenized_periods = sum(1 for h in hyps if isinstance(h, str) and h.endswith(" ."))
            hyps = self._pretokenized(hyps, "hypotheses")
            streams = [self._pretokenized(s, f"references[{k}]") for k, s in enumerate(streams)]
        rows, nrefs, periods = _core.stats(
            config.counting_kernel(True), hyps, streams, workers=self.workers
        )
        if not config.fast:
            if config.aggregation == "multi-prediction":
                raise InvalidOptionError(
                    "aggregation='multi-prediction' needs each prediction's item: "
                    "item_stats(hypotheses, references, items=...)"
                )
            per_segment = None
            if config.ref_length == "average":
                per_segment = [sum(s[i] is not None for s in streams) for i in range(len(hyps))]
            rows = config.rows_from_counts(rows, nrefs=per_segment)
        self._after_counting(
            hyps, streams, periods if tokenized_periods is None else tokenized_periods
        )
        return rows, nrefs

    def _after_counting(
        self, hyps: Sequence[Any], streams: list[Sequence[Any]], tokenized_periods: int
    ) -> None:
        """sacrebleu's warnings about the text, after the core has validated every item: a
        CJK text under 13a (a stream samples its first chunk only) and a tokenized-looking
        output."""
        if self._check_script and (self._period_tally is None or not self._stream_sampled):
            self._stream_sampled = self._period_tally is not None
            advice = cjk_tokenizer_advice([streams[0], hyps], self.config.tokenize)
            if advice is not None:
                warn(advice)
        if self._period_tally is None:
            self._warn_tokenized(tokenized_periods)
        else:
            self._period_tally += tokenized_periods

    def item_stats(
        self,
        hypotheses: Sequence[Any],
        references: Sequence[Sequence[Any]],
        *,
        items: Optional[Sequence[Hashable]] = None,
    ) -> Stats:
        """Per-segment statistics when ``references[i]`` lists the references of
        ``hypotheses[i]`` (nltk's, HF evaluate's and torchmetrics' layout; any number per
        segment), text or, for the ``tokens`` tokenizer, token lists. ``items`` gives each
        hypothesis' item for ``aggregation="multi-prediction"``."""
        config = self.config
        if config.drop_empty:  # so that nrefs counts the kept items only
            hypotheses, references, items = drop_empty(hypotheses, references, items)
        if self._external is not None:
            hypotheses = self._pretokenized(hypotheses, "hypotheses")
            references = [
                self._pretokenized(r, f"references[{i}]") for i, r in enumerate(references)
            ]
        rows = config.item_rows(hypotheses, references, items=items, workers=self.workers)
        counts = set(map(len, references))  # at C speed: it runs on every call
        nrefs = counts.pop() if len(counts) == 1 else -1
        return self._stats_of(rows, nrefs if nrefs >= 1 else -1)

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

    # --- pairwise matrices --------------------------------------------------------------------

    def _count_sentences(self, sentences: list[str]) -> Any:
        if self.config.drop_empty:
            empty = [k for k, s in enumerate(sentences) if not s]
            if empty:
                raise InvalidInputError(
                    f"sentence {empty[0]} is empty, and this preset drops empty pairs, so it has "
                    "no score for them; leave empty sentences out"
                )
        lines = self._pretokenized(self._prepare_stream(sentences), "sentences")
        return _core.bags(self.config.counting_kernel(True), lines, workers=self.workers)

    # --- sacrebleu's scoring API -----------------------------------------------------------

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
        return config.score_row([int(v) for v in values])  # type: ignore[no-any-return]

    def _before_sentence_scores(self) -> None:
        if self.config.arithmetic == "sacrebleu" and not self.config.effective_order:
            warn("It is recommended to enable `effective_order` for sentence-level BLEU.")


def _kept_segments(
    hyps: Sequence[Any], streams: list[Sequence[Any]]
) -> tuple[list[Any], list[list[Any]]]:
    """nlg-metricverse's ``_remove_empty`` on reference streams: a segment whose hypothesis
    is empty, or whose only reference is empty or missing, is left out."""
    kept = []
    for i, h in enumerate(hyps):
        refs = [s[i] for s in streams if s[i] is not None]
        if h and refs and not (len(refs) == 1 and not refs[0]):
            kept.append(i)
    return [hyps[i] for i in kept], [[s[i] for i in kept] for s in streams]
