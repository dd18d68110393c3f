"""CIDEr-D (Vedantam et al. 2015), bit-identical to pycocoevalcap 1.2's ``Cider``.

Per n-gram order, the cosine of the caption's and a reference's TF-IDF vectors, the caption's
weights clipped by the reference's, times a Gaussian penalty on the difference of their
lengths (sigma 6); averaged over the orders and the references, times 10. The IDF is
``log(images) - log(max(1, df))``, ``df`` counting the images whose references hold the
n-gram, so an image's score depends on every image's references.

The statistics are therefore not rows: :class:`CIDErStats` holds the captions as token ids
(a token table, and per image its caption and references). Two sets merge by mapping one
token table onto the other and concatenating, and the core counts the n-gram bags and the
document frequencies from the ids when scoring, so merged shards (streams, Ray) score exactly
as one pass over every image: the document frequency of merged sets is the sum of theirs.
The core returns each image's per-order sums over its references; the mean over the orders,
the division by the number of references, the factor 10 and the corpus mean are numpy's
operations here, in pycocoevalcap's order.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import asdict, dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Optional, Union

from bleuprint import _core
from bleuprint.errors import (
    InputTypeError,
    InvalidInputError,
    InvalidOptionError,
    StatsFormatError,
)
from bleuprint.io.line_reader import LineBlock
from bleuprint.metrics.config import shared_config
from bleuprint.metrics.metric import References, lower
from bleuprint.metrics.scores import Score, Signature
from bleuprint.metrics.stats import check_mergeable
from bleuprint.tokenizers import EXTRA_TOKENIZERS, get_tokenizer

if TYPE_CHECKING:
    import numpy as np

#: pycocoevalcap's tokens: ``str.split()`` (captions come tokenized from its PTB tokenizer).
DEFAULT_TOKENIZER = "none"


@dataclass(frozen=True)
class CIDErConfig:
    """CIDEr-D's settings.

    Parameters
    ----------
    max_ngram_order
        N-gram orders counted, ``1..max_ngram_order`` (pycocoevalcap: 4).
    sigma
        The length penalty's standard deviation (pycocoevalcap: 6.0).
    tokenize
        A bleuprint tokenizer name; ``"none"`` is ``str.split()``, pycocoevalcap's scorers'
        (its captions come tokenized); ``"ptb"`` tokenizes each caption as pycocoevalcap's PTB
        tokenizer does first.
    lowercase
        Lowercase captions and references first.
    mean_orders
        The number of orders the per-image mean divides by, when it differs from
        ``max_ngram_order`` (pycocoevalcap's ``Cider(n=5)`` counts 4 orders and divides by 5).
    """

    max_ngram_order: int = 4
    sigma: float = 6.0
    tokenize: str = DEFAULT_TOKENIZER
    lowercase: bool = False
    mean_orders: Optional[int] = None

    metric = "CIDEr-D"

    def __post_init__(self) -> None:
        for name in ("max_ngram_order", "mean_orders"):
            value = getattr(self, name)
            if value is None and name == "mean_orders":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidOptionError(f"{name} must be an integer of 1 or more, got {value!r}")
        if self.mean_orders is not None and self.mean_orders < self.max_ngram_order:
            raise InvalidOptionError(
                f"mean_orders ({self.mean_orders}) must be at least max_ngram_order "
                f"({self.max_ngram_order})"
            )
        if isinstance(self.sigma, bool) or not isinstance(self.sigma, (int, float)):
            raise InputTypeError(f"sigma must be a float, got {type(self.sigma).__name__}")
        if not isinstance(self.tokenize, str):
            raise InputTypeError(f"tokenize must be a str, got {type(self.tokenize).__name__}")
        if not isinstance(self.lowercase, bool):
            raise InputTypeError(f"lowercase must be a bool, got {type(self.lowercase).__name__}")
        # Checks sigma (a nonzero finite number) and the tokenizer now, not at the first call.
        self.kernel  # noqa: B018

    @property
    def columns(self) -> int:
        """The per-order sums per image: the orders the mean divides by."""
        return self.mean_orders or self.max_ngram_order

    @cached_property
    def pretokenizer(self) -> Any:
        """The tokenizer run before the kernel counts (``ptb``), or ``None`` where the kernel
        tokenizes."""
        if self.tokenize not in EXTRA_TOKENIZERS:
            return None
        return get_tokenizer(self.tokenize)

    @cached_property
    def kernel(self) -> Any:
        """The core's kernel of these settings (made once per configuration)."""
        try:
            # pycocoevalcap's expression: `2*self.sigma**2`, Python's float operations.
            two_sigma_squared = float(2 * self.sigma**2)
        except OverflowError:
            two_sigma_squared = float("inf")
        return _core.CiderKernel(
            tokenizer="none" if self.pretokenizer is not None else self.tokenize,
            orders=self.max_ngram_order,
            columns=self.columns,
            two_sigma_squared=two_sigma_squared,
        )

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON-ready values."""
        return asdict(self)


class CIDErSignature(Signature):
    """``nrefs:5|case:mixed|tok:none|n:4|sigma:6.0|version:...``."""

    def __init__(self, config: CIDErConfig, nrefs: int) -> None:
        super().__init__(nrefs)
        self.abbreviations.update({"case": "c", "tok": "tok", "n": "n", "sigma": "s"})
        self.info.update(
            {
                "case": "lc" if config.lowercase else "mixed",
                "tok": config.tokenize,
                "n": config.max_ngram_order
                if config.mean_orders in (None, config.max_ngram_order)
                else f"{config.max_ngram_order}/{config.mean_orders}",
                "sigma": float(config.sigma),
            }
        )


class CIDErScore(Score):
    """The corpus CIDEr-D (pycocoevalcap's ``score``, a numpy float) with every image's score
    (its ``scores``) in :attr:`sentence_scores`."""

    def __init__(self, score: Any, sentence_scores: np.ndarray) -> None:
        super().__init__("CIDEr-D", float(score))
        #: The corpus figure as numpy computed it (``numpy.float64``).
        self.numpy_score = score
        self.sentence_scores = sentence_scores


def _log_table(images: int) -> np.ndarray:
    """``numpy.log(max(1.0, k))`` for ``k`` in ``0..images``: the IDF's logs and, at
    ``images``, its ``ref_len``. Each is numpy's log of one Python float, as pycocoevalcap
    takes them (an array's log may take a vector path that rounds differently on some CPUs)."""
    import numpy as np

    log = np.log
    return np.array([log(max(1.0, float(k))) for k in range(images + 1)], dtype=np.float64)


class CIDErStats:
    """CIDEr-D's statistics: the captions of some images as token ids.

    ``tokens`` is the token table; ``ids`` every caption's token ids, caption after caption;
    ``caption_ends[c]`` where caption ``c``'s ids end; ``image_ends[i]`` where image ``i``'s
    captions end (its caption first, then its references). ``+`` merges two sets of the same
    configuration; indexing selects images; :meth:`save` and :meth:`load` keep them in an
    ``.npz`` file.
    """

    def __init__(
        self,
        config: CIDErConfig,
        tokens: Sequence[str],
        ids: np.ndarray,
        caption_ends: np.ndarray,
        image_ends: np.ndarray,
    ) -> None:
        self.config = config
        self.tokens = tuple(tokens)
        self.ids = ids
        self.caption_ends = caption_ends
        self.image_ends = image_ends

    def __len__(self) -> int:
        return len(self.image_ends)

    @property
    def references_per_image(self) -> np.ndarray:
        """The number of references of each image."""
        import numpy as np

        return np.diff(self.image_ends, prepend=0) - 1  # type: ignore[no-any-return]

    @property
    def nrefs(self) -> int:
        """References per image, or -1 when that varies."""
        counts = set(self.references_per_image.tolist())
        return counts.pop() if len(counts) == 1 else -1

    def __add__(self, other: CIDErStats) -> CIDErStats:
        """The images of both, ``self``'s first."""
        return CIDErStats.concatenate([self, other])

    @classmethod
    def concatenate(cls, shards: Sequence[CIDErStats]) -> CIDErStats:
        """The images of every shard, in order (the token tables merged)."""
        import numpy as np

        if not shards:
            raise InvalidInputError("concatenate needs at least one CIDErStats")
        first = shards[0]
        for shard in shards:
            check_mergeable(first, shard)
        index: dict[str, int] = {t: i for i, t in enumerate(first.tokens)}
        ids, caption_ends, image_ends = [first.ids], [first.caption_ends], [first.image_ends]
        id_count, caption_count = len(first.ids), len(first.caption_ends)
        for shard in shards[1:]:
            mapping = np.array(
                [index.setdefault(t, len(index)) for t in shard.tokens], dtype=np.int64
            )
            ids.append(mapping[shard.ids] if len(shard.ids) else shard.ids)
            caption_ends.append(shard.caption_ends + id_count)
            image_ends.append(shard.image_ends + caption_count)
            id_count += len(shard.ids)
            caption_count += len(shard.caption_ends)
        return cls(
            first.config,
            list(index),
            np.concatenate(ids),
            np.concatenate(caption_ends),
            np.concatenate(image_ends),
        )

    def __getitem__(self, index: Any) -> CIDErStats:
        """The images at ``index`` (an int, a slice or an array of indices), in that order."""
        import numpy as np

        chosen = np.arange(len(self))[index]
        chosen = np.atleast_1d(chosen)
        image_starts = np.concatenate([[0], self.image_ends[:-1]])
        caption_starts = np.concatenate([[0], self.caption_ends[:-1]])
        ids, caption_ends, image_ends = [], [], []
        (id_count, caption_count) = (0, 0)
        for i in chosen.tolist():
            first, end = image_starts[i], self.image_ends[i]
            start_id, end_id = caption_starts[first], self.caption_ends[end - 1]
            ids.append(self.ids[start_id:end_id])
            caption_ends.append(self.caption_ends[first:end] - start_id + id_count)
            id_count += end_id - start_id
            caption_count += end - first
            image_ends.append(caption_count)
        empty = np.zeros(0, dtype=np.int64)
        return CIDErStats(
            self.config,
            self.tokens,
            np.concatenate(ids) if ids else empty,
            np.concatenate(caption_ends) if caption_ends else empty,
            np.array(image_ends, dtype=np.int64),
        )

    def order_sums(self, workers: int = -1) -> np.ndarray:
        """Per image, each order's similarity summed over its references, shape
        ``(images, orders)``: pycocoevalcap's ``score`` array before its mean."""
        return self.config.kernel.order_sums(  # type: ignore[no-any-return]
            self.ids,
            self.caption_ends,
            self.image_ends,
            _log_table(len(self)),
            workers=workers,
        )

    def sentence_scores(self, workers: int = -1) -> np.ndarray:
        """Every image's CIDEr-D: ``numpy.mean`` of its sums, over its reference count, times
        10 (pycocoevalcap's ``scores``)."""
        sums = self.order_sums(workers)
        means = sums.mean(axis=1)
        means /= self.references_per_image
        means *= 10.0
        return means

    def sentence_results(self, workers: int = -1) -> list[CIDErScore]:
        """Every image's CIDEr-D as a score of its own (the command's ``-sl`` lines)."""
        scores = self.sentence_scores(workers)
        return [CIDErScore(scores[i], scores[i : i + 1]) for i in range(len(scores))]

    def score(self, workers: int = -1) -> CIDErScore:
        """The corpus CIDEr-D: ``numpy.mean`` of the images' scores.

        Raises
        ------
        InvalidInputError
            For statistics of no image (pycocoevalcap raises on an empty set too).
        """
        import numpy as np

        if not len(self):
            raise InvalidInputError("CIDEr-D of no image is undefined: score at least one")
        scores = self.sentence_scores(workers)
        return CIDErScore(np.mean(scores), scores)

    def signature(self) -> CIDErSignature:
        """The settings and the reference count, as a signature."""
        return CIDErSignature(self.config, self.nrefs)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CIDErStats):
            return NotImplemented
        if self.config != other.config or len(self) != len(other):
            return False
        import numpy as np

        texts = np.array(self.tokens + ("",), dtype=object)
        other_texts = np.array(other.tokens + ("",), dtype=object)
        return bool(
            np.array_equal(self.caption_ends, other.caption_ends)
            and np.array_equal(self.image_ends, other.image_ends)
            and np.array_equal(texts[self.ids], other_texts[other.ids])
        )

    __hash__ = None  # type: ignore[assignment]  # mutable arrays

    def save(self, path: Union[str, os.PathLike]) -> None:
        """Writes the statistics to an ``.npz`` file, configuration included."""
        import json

        import numpy as np

        meta = json.dumps({"format": "bleuprint-cider", "config": self.config.to_dict()})
        # The tokens as one UTF-8 blob and their lengths: numpy's str arrays drop a token's
        # trailing NUL characters.
        encoded = [t.encode("utf-8", "surrogatepass") for t in self.tokens]
        with open(path, "wb") as f:
            np.savez_compressed(
                f,
                token_bytes=np.frombuffer(b"".join(encoded), dtype=np.uint8),
                token_lengths=np.array([len(t) for t in encoded], dtype=np.int64),
                ids=self.ids,
                caption_ends=self.caption_ends,
                image_ends=self.image_ends,
                meta=np.array(meta),
            )

    @classmethod
    def load(cls, path: Union[str, os.PathLike]) -> CIDErStats:
        """Reads statistics written by :meth:`save` (never unpickling); the arrays are
        checked when scored.

        Raises
        ------
        StatsFormatError
            For a file that is not CIDEr-D statistics.
        """
        import json

        import numpy as np

        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                arrays = {
                    k: np.asarray(data[k], dtype=np.int64)
                    for k in ("ids", "caption_ends", "image_ends")
                }
                tokens = _saved_tokens(data)
            if meta.get("format") != "bleuprint-cider":
                raise ValueError("not CIDEr-D statistics")
            config = CIDErConfig(**meta["config"])
        except (OSError, KeyError, ValueError, TypeError) as e:
            raise StatsFormatError(f"{path}: not bleuprint CIDEr-D statistics ({e})") from e
        if arrays["ids"].size and (arrays["ids"].min() < 0 or arrays["ids"].max() >= len(tokens)):
            raise StatsFormatError(f"{path}: token ids outside the token table")
        return cls(config, tokens, arrays["ids"], arrays["caption_ends"], arrays["image_ends"])

    def __repr__(self) -> str:
        return f"CIDErStats(images={len(self)}, nrefs={self.nrefs}, tokens={len(self.tokens)})"


def _saved_tokens(data: Any) -> list[str]:
    """The token table of a file :meth:`CIDErStats.save` wrote: a UTF-8 blob with the tokens'
    lengths, or a str array (files written before 2026-11-29, whose tokens lost any trailing
    NUL)."""
    if "tokens" in data:
        return [str(t) for t in data["tokens"]]
    blob, lengths = data["token_bytes"].tobytes(), data["token_lengths"]
    ends = lengths.cumsum().tolist()
    if (lengths < 0).any() or (ends and ends[-1] != len(blob)):
        raise ValueError("the token lengths do not add up to the token bytes")
    starts = [0, *ends[:-1]]
    return [blob[a:b].decode("utf-8", "surrogatepass") for a, b in zip(starts, ends)]


class CIDErAccumulator:
    """CIDEr-D statistics gathered a chunk at a time (the command's input, streamed): the
    chunks' images in order, merged at the end, so the document frequencies are those of the
    whole input."""

    def __init__(self) -> None:
        self.segments = 0
        self._parts: list[CIDErStats] = []

    def add(self, stats: CIDErStats) -> None:
        """Adds the next chunk's statistics (of the same configuration)."""
        if self._parts:
            check_mergeable(self._parts[0], stats)
        self._parts.append(stats)
        self.segments += len(stats)

    def result(self) -> CIDErStats:
        """Every chunk's images as one set of statistics.

        Raises
        ------
        InvalidInputError
            When no image was added (CIDEr-D of no image is undefined).
        """
        if not self._parts:
            raise InvalidInputError("CIDEr-D of no image is undefined: the input has no lines")
        return self._parts[0] if len(self._parts) == 1 else CIDErStats.concatenate(self._parts)


class CIDEr:
    """CIDEr-D, as pycocoevalcap 1.2 computes it (its ``Cider``).

    Parameters
    ----------
    max_ngram_order
        N-gram orders, ``1..max_ngram_order``.
    sigma
        The length penalty's standard deviation.
    tokenize
        A bleuprint tokenizer name (``"none"``: ``str.split()``, as pycocoevalcap's scorers
        split captions its PTB tokenizer has tokenized).
    lowercase
        Lowercase first.
    mean_orders
        See :class:`CIDErConfig`.
    workers
        Threads of the core: -1 for all cores.

    References come as sacrebleu's streams (``references[k][i]`` is image ``i``'s ``k``-th
    reference; ``None`` where an image has fewer). An image's score depends on every image's
    references (the document frequencies): :meth:`sentence_scores` scores each image within
    the set given, as pycocoevalcap does.
    """

    def __init__(
        self,
        max_ngram_order: int = 4,
        sigma: float = 6.0,
        tokenize: str = DEFAULT_TOKENIZER,
        lowercase: bool = False,
        *,
        mean_orders: Optional[int] = None,
        workers: int = -1,
    ) -> None:
        self.config: CIDErConfig = shared_config(
            CIDErConfig, max_ngram_order, sigma, tokenize, lowercase, mean_orders
        )
        self.workers = workers
        #: References per image of the last statistics scored (-1: it varies), for the
        #: signature.
        self.num_refs = 1
        self._bootstrap_signature: dict[str, Any] = {}

    def stats(self, hypotheses: Sequence[str], references: References) -> CIDErStats:
        """The captions and their references as :class:`CIDErStats`."""
        if isinstance(hypotheses, LineBlock):  # the command line's file blocks
            hypotheses, references = hypotheses.lines(), [b.lines() for b in references]
        if self.config.lowercase:
            hypotheses = lower(hypotheses)
            references = [lower(stream) for stream in references]
        pretokenizer = self.config.pretokenizer
        if pretokenizer is not None:
            hypotheses = pretokenizer.tokenize_stream(hypotheses, self.workers)
            references = [pretokenizer.tokenize_stream(s, self.workers) for s in references]
        tokens, ids, caption_ends, image_ends = self.config.kernel.count(
            hypotheses, references, workers=self.workers
        )
        return CIDErStats(self.config, tokens, ids, caption_ends, image_ends)

    def corpus_score(self, hypotheses: Sequence[str], references: References) -> CIDErScore:
        """The corpus CIDEr-D, with every image's score in ``.sentence_scores``."""
        return self.stats(hypotheses, references).score(self.workers)

    def sentence_scores(self, hypotheses: Sequence[str], references: References) -> np.ndarray:
        """Every image's CIDEr-D within this set of images."""
        return self.stats(hypotheses, references).sentence_scores(self.workers)

    def score_stats(self, stats: CIDErStats, n_bootstrap: int = 1) -> CIDErScore:
        """The corpus CIDEr-D of statistics this metric made (streamed in chunks, merged, a
        subset of images). With ``n_bootstrap`` resamples of the images, the score's ``mean``
        and ``ci`` are sacrebleu's bootstrap estimate, each resample the mean of its images'
        scores within the whole set (the document frequencies stay those of every image)."""
        if not isinstance(stats, CIDErStats):
            raise InputTypeError(f"stats must be bleuprint CIDErStats, got {type(stats).__name__}")
        if stats.config != self.config:
            raise InvalidInputError(
                f"these statistics were made by {stats.config}, not by this metric "
                f"({self.config}); score them with stats.score()"
            )
        self.num_refs = stats.nrefs
        score = stats.score(self.workers)
        if isinstance(n_bootstrap, bool) or n_bootstrap != 1:
            # Start-up time: the resampling code loads for a bootstrap only.
            from bleuprint.significance.bootstrap import mean_bootstrap_signature

            score.mean, score.ci, self._bootstrap_signature = mean_bootstrap_signature(
                score.sentence_scores, n_bootstrap
            )
        return score

    def get_signature(self, nrefs: Optional[int] = None) -> CIDErSignature:
        """The signature of these settings with ``nrefs`` references per image (default: those
        of the last statistics scored), and the bootstrap's when there was one."""
        signature = CIDErSignature(self.config, self.num_refs if nrefs is None else nrefs)
        for key, value in self._bootstrap_signature.items():
            signature.update(key, value)
        return signature

    def _warnings_summed(self) -> AbstractContextManager[None]:
        """The command's hook for repeated warnings (``Metric._warnings_summed``): CIDEr-D
        has none."""
        return nullcontext()

    def __repr__(self) -> str:
        c = self.config
        return (
            f"CIDEr(max_ngram_order={c.max_ngram_order}, sigma={c.sigma!r}, "
            f"tokenize={c.tokenize!r}, lowercase={c.lowercase})"
        )
