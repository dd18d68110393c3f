"""The sacrebleu-shaped metric class every bleuprint metric builds on.

A metric turns hypotheses and reference streams into :class:`~bleuprint.Stats` (one integer
row per segment, made in the Rust core) and scores them. Subclasses supply the configuration
and one method, :meth:`Metric._compute_stats`; reference caching, validation, lowercasing,
corpus, sentence and batch scores and signatures are shared.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Generic, Optional, TypeVar

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
from bleuprint.metrics.base import Score, Signature
from bleuprint.metrics.stats import Stats

if TYPE_CHECKING:
    import numpy as np

    from bleuprint.io.progress import Progress
    from bleuprint.io.tables import GroupBy, RefColumns

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


class Metric(ABC, Generic[ScoreT]):
    """Shared behaviour of :class:`~bleuprint.BLEU`, :class:`~bleuprint.CHRF`,
    :class:`~bleuprint.TER` and the WER family.

    Parameters
    ----------
    config
        The metric's frozen configuration (e.g. :class:`~bleuprint.CHRFConfig`).
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

    def _prepare_stream(self, stream: Sequence[Any]) -> Sequence[Any]:
        """Text changes made in Python before the core sees a stream: lowercasing when the
        configuration has ``lowercase`` set."""
        return lower(stream) if getattr(self.config, "lowercase", False) else stream

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

    @abstractmethod
    def _compute_stats(
        self, hypotheses: Sequence[Any], streams: list[Sequence[Any]]
    ) -> tuple[np.ndarray, int]:
        """The statistics rows and references per segment (-1 if it varies), from the core."""

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
                rows, nrefs = self._compute_stats(*columns)
                self.num_refs = nrefs
                return Stats._trusted(rows, self.config, nrefs)
        hyps, streams = self._inputs(hypotheses, references)
        named = [("hypotheses", hyps), *((f"references[{k}]", s) for k, s in enumerate(streams))]
        with naming_lone_surrogates(named):
            rows, nrefs = self._compute_stats(hyps, streams)
        self.num_refs = nrefs
        return Stats._trusted(rows, self.config, nrefs)

    def _takes_blocks(self) -> bool:
        """Whether the core can count a file's bytes as they are: no text step in Python
        (lowercasing, WER's transformations, an external tokenizer)."""
        lowercase = getattr(self.config, "lowercase", False)
        return type(self)._prepare_stream is Metric._prepare_stream and not lowercase

    def _block_stats(self, hypotheses: LineBlock, references: Any) -> Stats:
        """Statistics of blocks of the same number of file lines: given to the core as bytes
        where it can count them as they are (the text never becomes Python strings), decoded
        into lines first otherwise. Equal to ``stats`` of the lines."""
        blocks = [hypotheses, *references]
        if not self._takes_blocks():
            return self.stats(hypotheses.lines(), [block.lines() for block in references])
        try:
            rows, nrefs = self._compute_stats(hypotheses.data, [b.data for b in references])
        except InputDecodeError:
            for block in blocks:
                block.lines()  # raises, naming the file, byte offset and line
            raise
        self.num_refs = nrefs
        return Stats._trusted(rows, self.config, nrefs)

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
        if stats.config != self.config:
            raise InvalidInputError(
                f"these statistics were made by {stats.config}, not by this metric "
                f"({self.config}); score them with stats.score() or a metric of their settings"
            )
        self.num_refs = stats.nrefs
        score = stats.score()
        if isinstance(n_bootstrap, bool) or n_bootstrap != 1:
            # Only a bootstrap pays for loading the resampling engine (statistics, ~15 ms).
            from bleuprint.significance.bootstrap import bootstrap_estimate, check_samples
            from bleuprint.significance.seed import resolve_seed

            n = check_samples(n_bootstrap, "n_bootstrap")
            seed = resolve_seed()
            score.mean, score.ci, _, _ = bootstrap_estimate(stats, n, seed, self.workers)
            self._bootstrap_signature = {"bs": n, "seed": seed.label}
        return score  # type: ignore[return-value]

    @contextmanager
    def _warnings_summed(self) -> Iterator[None]:
        """Within it, warnings that count segments (BLEU's tokenized periods) are held and
        given once at the end for the totals over every ``stats`` call, as one call over the
        whole input gives them: the chunks of a stream each call the core."""
        yield

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

    # --- streams too large to hold ---------------------------------------------------------

    def stats_stream(
        self,
        hypotheses: Any,
        references: Sequence[Any],
        *,
        chunk_size: int = 65536,
        keep: str = "rows",
        progress: Progress = None,
        encoding: str = "utf-8",
        rows_file: Any = None,
    ) -> Stats:
        """:meth:`stats` of streams, read and counted ``chunk_size`` segments at a time.

        ``hypotheses`` and each of ``references`` may be a file path (also compressed:
        ``.gz``, ``.bz2``, ``.xz``, ``.zst``), an open file or any iterable of strings; files
        are read as the command line reads them. The rows equal ``stats`` of the whole lists.
        ``keep="sum"`` keeps only their running sum, returned as one row (O(1) memory; BLEU,
        chrF and WER), for ``.score()``. ``rows_file="rows.npy"`` writes the rows to that
        file as they come and returns them memory-mapped (bootstrap and paired tests on more
        rows than memory holds). ``progress=True`` counts lines on stderr.
        """
        from bleuprint.io.streaming import stream_stats

        return stream_stats(
            self, hypotheses, references, chunk_size=chunk_size, keep=keep, progress=progress,
            encoding=encoding, rows_file=rows_file,
        )  # fmt: skip

    def score_stream(
        self,
        hypotheses: Any,
        references: Sequence[Any],
        *,
        chunk_size: int = 65536,
        progress: Progress = None,
        encoding: str = "utf-8",
    ) -> ScoreT:
        """:meth:`corpus_score` of streams (see :meth:`stats_stream`), equal to the in-memory
        score; only running sums are kept where the metric allows (all but TER)."""
        from bleuprint.io.streaming import stream_score

        return stream_score(  # type: ignore[no-any-return]
            self, hypotheses, references, chunk_size=chunk_size, progress=progress,
            encoding=encoding,
        )  # fmt: skip

    # --- tables and groups -----------------------------------------------------------------

    def stats_table(
        self,
        source: Any,
        *,
        hyp_column: str = "hyp",
        ref_columns: RefColumns = "ref",
        chunk_size: int = 65536,
        keep: str = "rows",
        progress: Progress = None,
        rows_file: Any = None,
    ) -> Stats:
        """:meth:`stats` of a table, read and counted ``chunk_size`` rows at a time.

        ``source`` is a JSONL file (``.jsonl``/``.ndjson``, compressed too), a Parquet or
        Arrow IPC/Feather file, a pyarrow Table/RecordBatch/RecordBatchReader, a pandas or
        polars DataFrame, a ``datasets.Dataset``, a dict of columns or an iterable of dicts
        (see :mod:`bleuprint.io.tables`). ``ref_columns`` names one column or several; a column
        of lists gives each row its own number of references. Null cells are missing
        references. ``keep``, ``progress`` and ``rows_file`` are as in :meth:`stats_stream`;
        the rows equal ``stats`` of the columns as lists.
        """
        from bleuprint.io.streaming import count_chunks
        from bleuprint.io.tables import read_table

        table = read_table(
            source, hyp_column=hyp_column, ref_columns=ref_columns, chunk_size=chunk_size
        )
        return count_chunks(
            self, table.chunks, keep=keep, progress=progress, total=table.rows, what="table",
            unit="rows", streams=table.streams, rows_file=rows_file,
        )  # fmt: skip

    def score_table(
        self,
        source: Any,
        *,
        hyp_column: str = "hyp",
        ref_columns: RefColumns = "ref",
        chunk_size: int = 65536,
        progress: Progress = None,
    ) -> ScoreT:
        """:meth:`corpus_score` of a table (see :meth:`stats_table`), equal to the in-memory
        score; only running sums are kept where the metric allows (all but TER)."""
        from bleuprint.io.streaming import default_keep

        stats = self.stats_table(
            source, hyp_column=hyp_column, ref_columns=ref_columns, chunk_size=chunk_size,
            keep=default_keep(self), progress=progress,
        )  # fmt: skip
        return stats.score()  # type: ignore[return-value]

    def grouped_stats(
        self,
        source: Any,
        references: Optional[Sequence[Any]] = None,
        *,
        by: GroupBy = None,
        groups: Any = None,
        hyp_column: str = "hyp",
        ref_columns: RefColumns = "ref",
        chunk_size: int = 65536,
        keep: str = "rows",
        progress: Progress = None,
        encoding: str = "utf-8",
    ) -> dict[Any, Stats]:
        """The statistics of each group, in one pass: ``{key: Stats}`` in the order keys are
        first seen, each equal to :meth:`stats` of that group's segments alone.

        Either a table (as :meth:`stats_table`) with ``by`` naming its group column (keys are
        its values) or columns (keys are tuples); or hypotheses and ``references`` (lists or
        streams, as :meth:`stats_stream`) with ``groups``, one key per hypothesis (any
        hashable values, or a file of one key per line). ``keep="sum"`` keeps one row of
        column sums per group (BLEU, chrF, WER).
        """
        from bleuprint.io.streaming import count_groups, stream_grouped_stats

        if groups is not None:
            if by is not None:
                raise InvalidOptionError(
                    "pass by= (the group columns of a table) or groups= (one key per "
                    "hypothesis), not both"
                )
            if references is None:
                raise InvalidOptionError(
                    "groups= needs references=: grouped_stats(hypotheses, references, groups=keys)"
                )
            return stream_grouped_stats(
                self, source, references, groups, chunk_size=chunk_size, keep=keep,
                progress=progress, encoding=encoding,
            )  # fmt: skip
        if references is not None:
            raise InvalidOptionError(
                "references= goes with groups= (hypotheses and references as lists or "
                "streams); a table names its reference columns with ref_columns="
            )
        if by is None:
            raise InvalidOptionError(
                "name the group column(s) with by=, e.g. by='lang_pair', or give one key per "
                "hypothesis with groups="
            )
        from bleuprint.io.tables import read_table

        table = read_table(
            source, hyp_column=hyp_column, ref_columns=ref_columns, by=by, chunk_size=chunk_size
        )
        return count_groups(self, table.chunks, keep=keep, progress=progress, total=table.rows)

    def grouped_scores(
        self,
        source: Any,
        references: Optional[Sequence[Any]] = None,
        *,
        by: GroupBy = None,
        groups: Any = None,
        hyp_column: str = "hyp",
        ref_columns: RefColumns = "ref",
        chunk_size: int = 65536,
        progress: Progress = None,
        encoding: str = "utf-8",
    ) -> dict[Any, ScoreT]:
        """One exact corpus score per group, in one pass (see :meth:`grouped_stats`):
        ``{key: score}``, each equal to :meth:`corpus_score` of that group's segments alone.
        Only each group's running sums are kept where the metric allows (all but TER).

        >>> bleu.grouped_scores("test.parquet", by="lang_pair")  # doctest: +SKIP
        {'en-de': BLEU = 34.12 ..., 'de-en': BLEU = 40.05 ...}
        """
        from bleuprint.io.streaming import default_keep

        per_group = self.grouped_stats(
            source, references, by=by, groups=groups, hyp_column=hyp_column,
            ref_columns=ref_columns, chunk_size=chunk_size, keep=default_keep(self),
            progress=progress, encoding=encoding,
        )  # fmt: skip
        return {key: stats.score() for key, stats in per_group.items()}  # type: ignore[misc]

    # --- pairwise (MBR) ------------------------------------------------------------------

    def _count_sentences(self, sentences: list[str]) -> Any:
        """Sentences prepared once for :meth:`_score_block` (BLEU and chrF count their n-grams
        in the core; this default keeps the text, and scores cells as a batch)."""
        return sentences

    def _score_block(
        self, counted: Any, hypotheses: tuple[int, int], references: tuple[int, int]
    ) -> np.ndarray:
        """Sentence scores of the counted sentences ``hypotheses`` (a ``(start, stop)`` range)
        against each of ``references`` alone: ``(H, R)`` float64."""
        (h0, h1), (r0, r1) = hypotheses, references
        refs = counted[r0:r1]
        hyps = [h for h in counted[h0:h1] for _ in refs]
        scores = self.stats(hyps, [refs * (h1 - h0)]).sentence_scores()
        return scores.reshape(h1 - h0, r1 - r0)

    def _aggregate_block(
        self,
        counted: Any,
        hypotheses: tuple[int, int],
        references: tuple[int, int],
        log_weights: list[float],
    ) -> np.ndarray:
        """Reference aggregation of the counted sentences (BLEU and chrF only)."""
        raise InvalidOptionError(
            f"reference aggregation (aggregate_utility) is defined for BLEU and chrF, not "
            f"{type(self).__name__}; use expected_utility"
        )

    def pairwise(
        self,
        hypotheses: Sequence[Any],
        references: Optional[Sequence[Any]] = None,
        *,
        exclude_self: bool = False,
    ) -> np.ndarray:
        """The ``(H, R)`` matrix of sentence scores of every hypothesis against every
        reference (each alone): cell ``(i, j)`` equals
        ``sentence_score(hypotheses[i], [references[j]]).score``. ``references=None`` scores
        the hypotheses against each other (MBR); ``exclude_self=True`` then sets the diagonal
        to NaN. Lists of lists give a ``(B, H, R)`` array. See :mod:`bleuprint.analysis.pairwise`.
        """
        from bleuprint.analysis.pairwise import pairwise

        self._before_sentence_scores()
        return pairwise(self, hypotheses, references, exclude_self=exclude_self)

    def expected_utility(
        self,
        hypotheses: Sequence[str],
        references: Optional[Sequence[str]] = None,
        *,
        weights: Optional[Any] = None,
        exclude_self: bool = False,
    ) -> np.ndarray:
        """Each hypothesis' (weighted) mean sentence score against the references, ``(H,)``
        float64: :meth:`pairwise`'s row means, computed with ``math.fsum`` block by block
        without the whole matrix. ``weights`` has one value per reference."""
        from bleuprint.analysis.pairwise import expected_utility

        self._before_sentence_scores()
        return expected_utility(
            self, hypotheses, references, weights=weights, exclude_self=exclude_self
        )

    def aggregate_utility(
        self,
        hypotheses: Sequence[str],
        references: Optional[Sequence[str]] = None,
        *,
        weights: Optional[Any] = None,
    ) -> np.ndarray:
        """Each hypothesis scored against the references' averaged n-gram statistics,
        ``(H,)`` float64: reference aggregation, MBR in linear time (BLEU: DeNero et al.
        2009; chrF: Vamvas & Sennrich 2024), as mbrs computes it. See
        :func:`bleuprint.analysis.pairwise.aggregate_utility`."""
        from bleuprint.analysis.pairwise import aggregate_utility

        return aggregate_utility(self, hypotheses, references, weights=weights)

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
