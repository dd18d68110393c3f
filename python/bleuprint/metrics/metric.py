"""The sacrebleu-shaped metric class every bleuprint metric builds on.

A metric holds its configuration (which makes the core's kernel), turns hypotheses and
reference streams into :class:`~bleuprint.Stats` (one integer row per segment, counted in the
Rust core) and scores them. Reference caching, validation, the Python text steps, corpus,
sentence and batch scores and signatures are here; the conveniences built on statistics
(streams, tables, groups, pairwise matrices, bootstrap) are one-line delegates to the modules
that own those jobs, which see a metric only through :mod:`bleuprint.metrics.protocol`.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Generic, Optional, TypeVar

from bleuprint import _core
from bleuprint.errors import (
    InputDecodeError,
    InputTypeError,
    InvalidInputError,
    InvalidOptionError,
    ReferenceLayoutError,
)
from bleuprint.io.arrow_text import is_text, text_columns
from bleuprint.io.layout import (
    check_hypotheses,
    check_references,
    count_references,
    naming_lone_surrogates,
)
from bleuprint.io.line_reader import LineBlock
from bleuprint.metrics.scores import Score, Signature
from bleuprint.metrics.stats import Stats

if TYPE_CHECKING:
    import numpy as np

    from bleuprint.analysis import pairwise as matrices
    from bleuprint.io import streaming, tables
    from bleuprint.metrics.protocol import Block

#: References in sacrebleu's layout: ``references[k][i]`` is reference k of segment i.
References = Sequence[Sequence[Optional[str]]]

#: The score class a metric returns (``BLEUScore``, ``CHRFScore``, ...).
ScoreT = TypeVar("ScoreT", bound=Score)


def lower(stream: Sequence[Any]) -> list[Any]:
    """Python's ``str.lower()`` of every item.

    Python's (not Rust's) so the case mapping follows this interpreter's Unicode tables, as
    sacrebleu's does. Non-str items pass through for the core to report.
    """
    return [s.lower() if isinstance(s, str) else s for s in stream]


class _Job:
    """A method of :class:`Metric` that is a function of the module owning its job, loaded on
    first use: start-up time, as ``import bleuprint`` need not load the stream, table and
    pairwise machinery. The first lookup puts the function itself on the class."""

    def __init__(self, module: str, function: str) -> None:
        self.module, self.function = module, function

    def __set_name__(self, owner: type, name: str) -> None:
        self.owner, self.name = owner, name

    def __get__(self, instance: Any, owner: Optional[type] = None) -> Any:
        function = getattr(importlib.import_module(self.module), self.function)
        setattr(self.owner, self.name, function)
        return function if instance is None else function.__get__(instance, owner)


class Metric(Generic[ScoreT]):
    """Shared behaviour of :class:`~bleuprint.BLEU`, :class:`~bleuprint.CHRF`,
    :class:`~bleuprint.TER` and the WER family.

    Parameters
    ----------
    config
        The metric's frozen configuration (e.g. :class:`~bleuprint.CHRFConfig`); its
        ``kernel`` is what the core counts and scores with.
    references
        Reference streams to prepare once and reuse for every ``corpus_score`` call.
    workers
        Threads for the core: ``-1`` uses every core (or ``BLEUPRINT_NUM_THREADS``), ``1``
        runs serially; a larger count than the cores (or ``BLEUPRINT_NUM_THREADS``, if larger)
        is clamped to them. Anything else but an int >= 1 or -1 raises ``InvalidOptionError``
        (``InputTypeError`` for a non-int). Results are identical for every value.
    """

    def __init__(self, config: Any, references: Optional[References], workers: int) -> None:
        self.config = config
        self.workers = workers
        #: References per segment in the last evaluation (-1: it varies); read by signatures.
        self.num_refs: Optional[int] = None
        self._ref_cache: Optional[list[Sequence[Any]]] = None
        # After a bootstrap, sacrebleu's signatures keep its size and seed (bs, seed).
        self._bootstrap_signature: dict[str, Any] = {}
        if references is not None:
            self._ref_cache = self._prepare_references(references)

    # --- the text steps before the core ----------------------------------------------------

    def _prepare_stream(self, stream: Sequence[Any]) -> Sequence[Any]:
        """Text changes made in Python before the core sees a stream: lowercasing when the
        configuration has ``lowercase`` set."""
        return lower(stream) if getattr(self.config, "lowercase", False) is True else stream

    def _prepare_references(self, references: References) -> list[Sequence[Any]]:
        # Private copies: the caller may edit their lists after building the metric.
        streams: list[Sequence[Any]] = [list(s) for s in check_references(references, None)]
        streams = [self._prepare_stream(s) for s in streams]
        self.num_refs = count_references(streams)
        return streams

    def _inputs(
        self, hypotheses: Sequence[str], references: Optional[References]
    ) -> tuple[Sequence[Any], list[Sequence[Any]]]:
        """Checked (and prepared, e.g. lowercased) hypotheses and reference streams."""
        hyps = check_hypotheses(hypotheses)
        if references is not None:
            streams = [self._prepare_stream(s) for s in check_references(references, len(hyps))]
        elif self._ref_cache is not None:
            streams = check_references(self._ref_cache, len(hyps))
        else:
            name = type(self).__name__
            raise InvalidOptionError(
                f"no references: pass references=... here or to the {name} constructor"
            )
        return self._prepare_stream(hyps), streams

    def _takes_blocks(self) -> bool:
        """Whether the core can count a file's bytes as they are: no text step in Python
        (lowercasing, WER's transformations, an external tokenizer)."""
        lowercase = getattr(self.config, "lowercase", False)
        return type(self)._prepare_stream is Metric._prepare_stream and not lowercase

    # --- statistics -------------------------------------------------------------------------

    def _compute_stats(
        self, hypotheses: Sequence[Any], streams: list[Sequence[Any]]
    ) -> tuple[np.ndarray, int]:
        """The statistics rows and references per segment (-1 if it varies), from the core."""
        rows, nrefs, _ = _core.stats(self.config.kernel, hypotheses, streams, workers=self.workers)
        return rows, nrefs

    def stats(self, hypotheses: Sequence[str], references: Optional[References] = None) -> Stats:
        """Per-segment statistics, one int64 row per hypothesis.

        Parameters
        ----------
        hypotheses
            One string per segment.
        references
            Reference streams (``references[k][i]``); ``None`` uses the references given to
            the constructor.

        Returns
        -------
        Stats
            Rows that merge with ``+``, and score with ``.score()`` (corpus) or
            ``.sentence_scores()`` (each row); ``.column_names`` names the columns: BLEU
            ``hyp_len, ref_len, correct_1..N, total_1..N``; chrF ``hyp, ref, match`` per
            order; TER ``edits, ref_words, nrefs``; WER ``substitutions, deletions,
            insertions, hits, ref_words, hyp_words``.
        """
        if isinstance(hypotheses, LineBlock):  # the command line's file blocks
            return self._block_stats(hypotheses, references)
        if is_text(hypotheses) and self._takes_blocks():
            columns = text_columns(hypotheses, references)
            if columns is not None:  # Arrow string columns: their buffers go to the core
                return self._stats_of(*self._compute_stats(*columns))
        hyps, streams = self._inputs(hypotheses, references)
        named = [("hypotheses", hyps), *((f"references[{k}]", s) for k, s in enumerate(streams))]
        with naming_lone_surrogates(named):
            return self._stats_of(*self._compute_stats(hyps, streams))

    def _stats_of(self, rows: np.ndarray, nrefs: int) -> Stats:
        self.num_refs = nrefs
        return Stats._trusted(rows, self.config, nrefs)

    def _block_stats(self, hypotheses: LineBlock, references: Any) -> Stats:
        """Statistics of blocks of the same number of file lines: given to the core as bytes
        where it can count them as they are (the text never becomes Python strings), decoded
        into lines first otherwise. Equal to ``stats`` of the lines."""
        if not self._takes_blocks():
            return self.stats(hypotheses.lines(), [block.lines() for block in references])
        try:
            counted = self._compute_stats(hypotheses.data, [b.data for b in references])
        except InputDecodeError:
            for block in [hypotheses, *references]:
                block.lines()  # raises, naming the file, byte offset and line
            raise
        return self._stats_of(*counted)

    @contextmanager
    def _warnings_summed(self) -> Iterator[None]:
        """Within it, warnings that count segments (BLEU's tokenized periods) are held and
        given once at the end for the totals over every ``stats`` call, as one call over the
        whole input gives them: the chunks of a stream each call the core."""
        yield

    # --- scores -------------------------------------------------------------------------------

    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Optional[References] = None,
        n_bootstrap: int = 1,
    ) -> ScoreT:
        """The corpus score: statistics summed over segments, then scored.

        With ``n_bootstrap > 1``, the score also carries ``mean`` and ``ci`` (the 95%
        half-width) from that many bootstrap resamples, seeded from ``SACREBLEU_SEED`` /
        ``BLEUPRINT_SEED`` (default 12345) exactly as sacrebleu does, and the signature gains
        ``bs`` and ``seed``. :func:`bleuprint.bootstrap_ci` returns the interval as data.
        """
        return self.score_stats(self.stats(hypotheses, references), n_bootstrap=n_bootstrap)

    def score_stats(self, stats: Stats, n_bootstrap: int = 1) -> ScoreT:
        """The corpus score of statistics this metric made (streamed, merged from shards or
        subset), with ``n_bootstrap`` as in :meth:`corpus_score`; equal to ``corpus_score``
        of the text they came from. The signature takes their reference count."""
        if not isinstance(stats, Stats):
            raise InputTypeError(f"stats must be a bleuprint Stats, got {type(stats).__name__}")
        # Usually the very configuration (shared_config): no field-by-field comparison.
        if stats.config is not self.config and stats.config != self.config:
            raise InvalidInputError(
                f"these statistics were made by {stats.config}, not by this metric "
                f"({self.config}); score them with stats.score() or a metric of their settings"
            )
        self.num_refs = stats.nrefs
        score = stats.score()
        if isinstance(n_bootstrap, bool) or n_bootstrap != 1:
            # Start-up time: the resampling engine loads numpy, which `import bleuprint` does
            # not; only a bootstrap pays for it.
            from bleuprint.significance.bootstrap import bootstrap_signature

            score.mean, score.ci, self._bootstrap_signature = bootstrap_signature(
                stats, n_bootstrap, self.workers
            )
        return score  # type: ignore[return-value]

    def _before_sentence_scores(self) -> None:  # noqa: B027 (an optional hook)
        """A hook for warnings about sentence-level use (BLEU without effective order)."""

    def sentence_score(self, hypothesis: str, references: Sequence[Optional[str]]) -> ScoreT:
        """The score of one hypothesis against its references (a list of strings)."""
        if not isinstance(hypothesis, str):
            raise InputTypeError(f"hypothesis must be a str, got {type(hypothesis).__name__}")
        if isinstance(references, str) or not isinstance(references, Sequence):
            raise ReferenceLayoutError(
                "sentence_score takes a list of reference strings for this one hypothesis, "
                f"e.g. ['ref 1', 'ref 2']; got {type(references).__name__}"
            )
        self._before_sentence_scores()
        return self.corpus_score([hypothesis], [[r] for r in references])

    def sentence_scores(
        self, hypotheses: Sequence[str], references: Optional[References] = None
    ) -> np.ndarray:
        """The sentence score of every segment in one batch: float64, shape ``(n,)``.

        Each value equals ``sentence_score(hypotheses[i], [s[i] for s in references])``.
        """
        self._before_sentence_scores()
        return self.stats(hypotheses, references).sentence_scores()

    def get_signature(self) -> Signature:
        """The reproducibility signature of the last evaluation."""
        if self.num_refs is None:
            # sacrebleu's message; InvalidInputError is a ValueError, as sacrebleu's.
            raise InvalidInputError(
                "Number of references unknown, please evaluate the metric first."
            )
        signature = self.config.signature(self.num_refs)
        for key, value in self._bootstrap_signature.items():
            signature.update(key, value)
        return signature

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in asdict(self.config).items())
        return f"{type(self).__name__}({fields})"

    # --- sacrebleu's settings as attributes --------------------------------------------------

    def __getattr__(self, name: str) -> Any:
        """A setting of the configuration (``bleu.tokenize``, ``chrf.char_order``), read-only,
        as sacrebleu's metrics expose their settings."""
        config = self.__dict__.get("config")  # absent while unpickling
        if config is not None and name in getattr(config, "__dataclass_fields__", ()):
            return getattr(config, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # --- the jobs built on statistics: each module owns its job ----------------------------
    if TYPE_CHECKING:
        # Streams too large to hold, tables and groups (bleuprint.io).
        stats_stream = streaming.stream_stats
        score_stream = streaming.stream_score
        stats_table = tables.table_stats
        score_table = tables.table_score
        grouped_stats = tables.grouped_stats
        grouped_scores = tables.grouped_scores
        # Pairwise matrices and MBR (bleuprint.analysis.pairwise).
        pairwise = matrices.pairwise
        expected_utility = matrices.expected_utility
        aggregate_utility = matrices.aggregate_utility
    else:  # the same functions, their modules loaded on first use
        stats_stream = _Job("bleuprint.io.streaming", "stream_stats")
        score_stream = _Job("bleuprint.io.streaming", "stream_score")
        stats_table = _Job("bleuprint.io.tables", "table_stats")
        score_table = _Job("bleuprint.io.tables", "table_score")
        grouped_stats = _Job("bleuprint.io.tables", "grouped_stats")
        grouped_scores = _Job("bleuprint.io.tables", "grouped_scores")
        pairwise = _Job("bleuprint.analysis.pairwise", "pairwise")
        expected_utility = _Job("bleuprint.analysis.pairwise", "expected_utility")
        aggregate_utility = _Job("bleuprint.analysis.pairwise", "aggregate_utility")

    # --- the pairwise hooks --------------------------------------------------------------------

    def _count_sentences(self, sentences: list[str]) -> Any:
        """Sentences prepared once for :meth:`_score_block`: counted in the core (BLEU's and
        chrF's n-grams, TER's tokens), or kept as text and scored as a batch of segments."""
        if not self.config.counts_sentences:
            return sentences
        lines = self._prepare_stream(sentences)
        return _core.bags(self.config.kernel, lines, workers=self.workers)

    def _score_block(self, counted: Any, block: Block) -> np.ndarray:
        """Sentence scores of the counted hypotheses ``block[0]`` (a ``(start, stop)`` range)
        against each of the references ``block[1]`` alone: ``(H, R)`` float64."""
        if self.config.counts_sentences:
            return self.config.pair_scores(counted, block, self.workers)  # type: ignore[no-any-return]
        (h0, h1), (r0, r1) = block
        refs = counted[r0:r1]
        hyps = [h for h in counted[h0:h1] for _ in refs]
        scores = self.stats(hyps, [refs * (h1 - h0)]).sentence_scores()
        return scores.reshape(h1 - h0, r1 - r0)

    def _aggregate_block(self, counted: Any, block: Block, log_weights: list[float]) -> np.ndarray:
        """Reference aggregation of the counted sentences (BLEU and chrF)."""
        if not self.config.aggregates_references:
            raise InvalidOptionError(
                f"reference aggregation (aggregate_utility) is defined for sacrebleu's BLEU and "
                f"chrF, not {type(self).__name__} of these settings; use expected_utility"
            )
        hyps, refs = block
        kernel = self.config.kernel
        return _core.aggregate(kernel, counted, hyps, refs, log_weights, workers=self.workers)
