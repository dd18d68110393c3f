"""Word and character error rates (WER, CER) with jiwer's MER, WIL and WIP.

Every segment becomes one int64 row ``[substitutions, deletions, insertions, hits, ref_words,
hyp_words]`` in the Rust core. The alignment behind the row is the one jiwer 4.0.0 gets from
``rapidfuzz.distance.Levenshtein.opcodes(reference, hypothesis)``, reproduced exactly, so
hits and therefore MER, WIL and WIP equal jiwer's, not just the edit distance. Corpus values
are ratios of the summed columns.

Text is split as jiwer's default transforms split it: for words, runs of two or more
whitespace characters and single spaces separate words (a lone tab does not), after leading
and trailing whitespace is stripped; for characters, every character of the stripped line
counts, spaces included. Hypotheses and references always go through the same steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Optional

from bleuprint import _core
from bleuprint.errors import InvalidOptionError
from bleuprint.io.layout import count_references, naming_lone_surrogates
from bleuprint.metrics.base import Score, Signature, SummedRowsScoring, register_config
from bleuprint.metrics.metric import Metric, References
from bleuprint.metrics.wer_alignment import (
    AlignmentOp,
    Alignments,
    SegmentAlignment,
    align_segments,
)
from bleuprint.tokenizers import wer_text as _wer_text

if TYPE_CHECKING:
    import numpy as np

#: Token units: words (WER, MER, WIL, WIP) or characters (CER).
UNITS = ("word", "char")
#: Text transforms: jiwer's defaults, ``wer_standardize``, or none at all.
TRANSFORMS = ("default", "standardize", "none")
#: The statistics columns.
COLUMNS = tuple(_core.WER_COLUMNS)
#: The measures a :class:`WERScore` can report as its ``score``.
MEASURES = ("wer", "mer", "wil", "wip")


def _measures(row: Sequence[int]) -> tuple[float, float, float, float]:
    """(wer, mer, wil, wip) of one row as fractions, by the core (jiwer's formulas; without
    reference words WER is 1.0 with errors, else 0.0)."""
    import numpy as np

    wer, mer, wil, wip = _core.wer_measures(np.array([row], dtype=np.int64))[0].tolist()
    return wer, mer, wil, wip


@register_config
@dataclass(frozen=True)
class WERConfig(SummedRowsScoring):
    """Every setting that changes WER/CER statistics.

    ``transform="standardize"`` is jiwer's ``wer_standardize`` and implies ``lowercase``,
    ``expand_contractions`` and ``remove_kaldi_non_words`` (set here so equal settings compare
    equal). Statistics made under one config only merge with statistics of an equal config.
    """

    unit: str = "word"
    transform: str = "default"
    lowercase: bool = False
    remove_punctuation: bool = False
    expand_contractions: bool = False
    remove_kaldi_non_words: bool = False

    metric = "WER"
    #: Lower scores are better (read by the paired tests' clusters, which rank best first).
    higher_is_better = False
    #: No sacrebleu counterpart to match: resampled sums stay exact integers.
    resample_float32 = False

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise InvalidOptionError(f"unknown unit {self.unit!r}; expected 'word' or 'char'")
        if self.transform not in TRANSFORMS:
            raise InvalidOptionError(
                f"unknown transform {self.transform!r}; expected one of {', '.join(TRANSFORMS)}"
            )
        for name in ("lowercase", "remove_punctuation", "expand_contractions"):
            self._check_bool(name)
        self._check_bool("remove_kaldi_non_words")
        if self.transform == "standardize":
            for name in ("lowercase", "expand_contractions", "remove_kaldi_non_words"):
                object.__setattr__(self, name, True)

    def _check_bool(self, name: str) -> None:
        if not isinstance(getattr(self, name), bool):
            raise InvalidOptionError(f"{name} must be True or False, got {getattr(self, name)!r}")

    @property
    def width(self) -> int:
        """Columns of a statistics row: 6."""
        return len(COLUMNS)

    @property
    def column_names(self) -> tuple[str, ...]:
        """Names of the statistics columns."""
        return COLUMNS

    @property
    def name(self) -> str:
        """``WER`` for words, ``CER`` for characters."""
        return "WER" if self.unit == "word" else "CER"

    @property
    def raw(self) -> bool:
        """True when the core splits without jiwer's whitespace cleanup (``transform="none"``)."""
        return self.transform == "none"

    @property
    def rewrites_text(self) -> bool:
        """True when text is rewritten in Python before the core splits it."""
        return (
            self.lowercase
            or self.remove_punctuation
            or self.expand_contractions
            or self.remove_kaldi_non_words
            or self.transform == "standardize"
        )

    def prepare(self, stream: Sequence[Any]) -> Sequence[Any]:
        """Applies the text options to a stream; non-str items pass through for the core to
        report, ``None`` stays ``None``."""
        if not self.rewrites_text:
            return stream
        return [self.prepare_text(s) if isinstance(s, str) else s for s in stream]

    def prepare_text(self, s: str) -> str:
        """The text options on one string, in jiwer's ``wer_standardize`` order: lowercase,
        contractions, Kaldi non-words, punctuation, then (standardize) ASCII whitespace to
        spaces."""
        if self.lowercase:
            s = s.lower()
        if self.expand_contractions:
            s = _wer_text.expand_contractions(s)
        if self.remove_kaldi_non_words:
            s = _wer_text.remove_kaldi_non_words(s)
        if self.remove_punctuation:
            s = _wer_text.remove_punctuation(s)
        if self.transform == "standardize":
            s = _wer_text.whitespace_to_space(s)
        return s

    def score_row(self, row: Any, measure: str = "wer") -> WERScore:
        """Scores one (summed) statistics row; ``measure`` picks what ``.score`` reports."""
        values = [int(v) for v in row]
        if len(values) != self.width:
            raise InvalidOptionError(f"a WER statistics row has 6 columns, got {len(values)}")
        name = self.name if measure == "wer" else measure.upper()
        s, d, i, h, ref_words, hyp_words = values
        return WERScore(name, s, d, i, h, ref_words, hyp_words, measure=measure)

    def score_rows(self, rows: Any) -> np.ndarray:
        """WER (or CER) of every row in percent: a float64 array of shape ``(n,)``."""
        import numpy as np

        rows = np.ascontiguousarray(np.asarray(rows, dtype=np.int64).reshape(-1, self.width))
        return 100 * _core.wer_measures(rows)[:, 0]

    def score_rows_detailed(self, rows: Any) -> list[WERScore]:
        """Scores every row of a statistics matrix as a :class:`WERScore`."""
        import numpy as np

        rows = np.asarray(rows, dtype=np.int64).reshape(-1, self.width)
        return [WERScore(self.name, *row) for row in rows.tolist()]

    def signature(self, nrefs: int) -> WERSignature:
        """The signature for statistics made with ``nrefs`` references per segment."""
        return WERSignature(self, nrefs)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable description (used when saving statistics)."""
        return {"metric": self.metric, **asdict(self)}


class WERScore(Score):
    """A word (or character) error rate with the counts behind it.

    Attributes
    ----------
    score : float
        The requested measure in percent (WER by default; CER for character statistics).
    wer, mer, wil, wip : float
        Word error rate, match error rate, word information lost and preserved, as fractions
        computed with jiwer's formulas (over characters for CER statistics; ``cer`` is an
        alias of ``wer``).
    substitutions, deletions, insertions, hits : int
        Alignment counts summed over segments.
    ref_words, hyp_words : int
        Reference and hypothesis lengths in tokens.
    errors : int
        ``substitutions + deletions + insertions``.
    """

    def __init__(
        self,
        name: str,
        substitutions: int,
        deletions: int,
        insertions: int,
        hits: int,
        ref_words: int,
        hyp_words: int,
        measure: str = "wer",
    ) -> None:
        if measure not in MEASURES:
            raise InvalidOptionError(
                f"unknown measure {measure!r}; expected one of {', '.join(MEASURES)}"
            )
        self.substitutions = substitutions
        self.deletions = deletions
        self.insertions = insertions
        self.hits = hits
        self.ref_words = ref_words
        self.hyp_words = hyp_words
        self.errors = substitutions + deletions + insertions
        self.wer, self.mer, self.wil, self.wip = _measures(
            (substitutions, deletions, insertions, hits, ref_words, hyp_words)
        )
        self.measure = measure
        super().__init__(name, 100 * getattr(self, measure))

    @property
    def cer(self) -> float:
        """The character error rate of character statistics (the same number as ``wer``)."""
        return self.wer

    def counts(self) -> dict[str, int]:
        """The six statistics as a dict."""
        return {name: getattr(self, name) for name in COLUMNS}


class WERSignature(Signature):
    """``nrefs:1|unit:word|transform:default|case:mixed|version:bleuprint-X``.

    ``punct:removed``, ``contractions:expanded`` and ``kaldi:removed`` come before the version
    when those options are on.
    """

    def __init__(self, config: WERConfig, nrefs: int) -> None:
        super().__init__(nrefs)
        self.abbreviations.update(
            {
                "unit": "u",
                "transform": "tr",
                "case": "c",
                "punct": "p",
                "contractions": "ct",
                "kaldi": "k",
            }
        )
        self.info.update(
            {
                "unit": config.unit,
                "transform": config.transform,
                "case": "lc" if config.lowercase else "mixed",
            }
        )
        if config.remove_punctuation:
            self.info["punct"] = "removed"
        if config.expand_contractions:
            self.info["contractions"] = "expanded"
        if config.remove_kaldi_non_words:
            self.info["kaldi"] = "removed"


class WER(Metric[WERScore]):
    """Word error rate (and MER, WIL, WIP) with jiwer's numbers and bleuprint's layout.

    Hypotheses come first and references are streams, as in :class:`~bleuprint.BLEU`:
    ``references[k][i]`` is reference ``k`` of segment ``i`` (``None`` skips it). With several
    references a segment is scored against the one with the fewest edits (the first on ties).

    Parameters
    ----------
    unit
        ``"word"`` (default) or ``"char"`` (see :class:`CER`).
    transform
        ``"default"``: jiwer's ``wer_default``/``cer_default`` (strip the line; for words,
        whitespace runs and single spaces separate words). ``"standardize"``: jiwer's
        ``wer_standardize`` (lowercase, expand English contractions, remove Kaldi non-words
        such as ``[noise]``, tabs and newlines to spaces, then the default). ``"none"``:
        split on single spaces only (words) or count every character (characters).
    lowercase
        Lowercase with Python's ``str.lower``.
    remove_punctuation
        Delete every character of a Unicode ``P*`` category (jiwer's ``RemovePunctuation``).
    expand_contractions
        jiwer's ``ExpandCommonEnglishContractions`` (``can't`` → ``can not``).
    remove_kaldi_non_words
        jiwer's ``RemoveKaldiNonWords`` (``<unk>``, ``[laugh]``).
    references
        Reference streams to prepare once and reuse for every call.
    workers
        Threads for the core: ``-1`` (default) uses every core, ``1`` runs serially. Results
        are identical for every value.
    """

    def __init__(
        self,
        unit: str = "word",
        transform: str = "default",
        lowercase: bool = False,
        remove_punctuation: bool = False,
        expand_contractions: bool = False,
        remove_kaldi_non_words: bool = False,
        references: Optional[References] = None,
        *,
        workers: int = -1,
    ) -> None:
        config = WERConfig(
            unit=unit,
            transform=transform,
            lowercase=lowercase,
            remove_punctuation=remove_punctuation,
            expand_contractions=expand_contractions,
            remove_kaldi_non_words=remove_kaldi_non_words,
        )
        super().__init__(config, references, workers)

    @property
    def unit(self) -> str:
        return self.config.unit

    @property
    def transform(self) -> str:
        return self.config.transform

    def _prepare_stream(self, stream: Sequence[Any]) -> Sequence[Any]:
        return self.config.prepare(stream)

    def _compute_stats(
        self, hyps: Sequence[Any], streams: list[Sequence[Any]]
    ) -> tuple[np.ndarray, int]:
        rows = _core.wer_stats(
            hyps, streams, unit=self.config.unit, raw=self.config.raw, workers=self.workers
        )
        return rows, count_references(streams)

    def align(
        self,
        hypotheses: Sequence[str],
        references: Optional[References] = None,
    ) -> Alignments:
        """Every segment's alignment with its best reference, and the corpus score.

        ``align(...).visualize()`` draws jiwer's ``REF:``/``HYP:`` view.
        """
        hyps, streams = self._inputs(hypotheses, references)
        named = [("hypotheses", hyps), *((f"references[{k}]", s) for k, s in enumerate(streams))]
        with naming_lone_surrogates(named):
            alignments = align_segments(self.config, hyps, streams, self.workers)
        self.num_refs = count_references(streams)
        return alignments


class CER(WER):
    """Character error rate: :class:`WER` with ``unit="char"``.

    Every character of the stripped line counts, spaces included; hypotheses and references
    go through the same steps, so the edit count is the same whichever side is which.
    """

    def __init__(
        self,
        transform: str = "default",
        lowercase: bool = False,
        remove_punctuation: bool = False,
        expand_contractions: bool = False,
        remove_kaldi_non_words: bool = False,
        references: Optional[References] = None,
        *,
        workers: int = -1,
    ) -> None:
        super().__init__(
            "char",
            transform,
            lowercase,
            remove_punctuation,
            expand_contractions,
            remove_kaldi_non_words,
            references,
            workers=workers,
        )


__all__ = [
    "CER",
    "COLUMNS",
    "MEASURES",
    "TRANSFORMS",
    "UNITS",
    "WER",
    "AlignmentOp",
    "Alignments",
    "SegmentAlignment",
    "WERConfig",
    "WERScore",
    "WERSignature",
]
