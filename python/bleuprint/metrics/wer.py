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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional

from bleuprint import _core
from bleuprint.errors import InvalidInputError, InvalidOptionError
from bleuprint.io.layout import count_references, holds_lone_surrogate, naming_lone_surrogates
from bleuprint.metrics.config import KernelConfig, register_config, shared_config
from bleuprint.metrics.metric import Metric, References
from bleuprint.metrics.scores import Score, Signature, gc_paused
from bleuprint.metrics.wer_alignment import (
    AlignmentOp,
    Alignments,
    SegmentAlignment,
    segments_from_arrays,
)
from bleuprint.tokenizers import check_normalization, normalization_signature, normalized
from bleuprint.tokenizers import wer_text as _wer_text
from bleuprint.tokenizers.whisper import OPEN_ASR_REVISION

if TYPE_CHECKING:
    import numpy as np

#: Token units: words (WER, MER, WIL, WIP) or characters (CER).
UNITS = ("word", "char")
#: Text transforms: jiwer's defaults, ``wer_standardize``, or none at all.
TRANSFORMS = ("default", "standardize", "none")
#: Whose alignment rules: jiwer's (RapidFuzz) or kaldialign 0.12.0's.
ALIGNERS = ("rapidfuzz", "kaldialign")
#: The measures a :class:`WERScore` can report as its ``score``.
MEASURES = ("wer", "mer", "wil", "wip")
#: A kernel per rule for segments without reference words: bleuprint's (``ratio``: WER 1.0
#: with errors, else 0.0) and jiwer's (``jiwer``: WER is the insertion count).
_MEASURES_KERNELS = {rule: _core.WerKernel(empty_reference=rule) for rule in ("ratio", "jiwer")}
#: The statistics columns.
COLUMNS: tuple[str, ...] = tuple(_MEASURES_KERNELS["ratio"].column_names)


def row_measures(
    rows: Any, empty_reference: str = "ratio"
) -> list[tuple[float, float, float, float]]:
    """``(wer, mer, wil, wip)`` of every statistics row as fractions, by the core (jiwer's
    formulas; ``empty_reference`` names the rule for rows without reference words)."""
    import numpy as np

    rows = np.ascontiguousarray(np.asarray(rows, dtype=np.int64).reshape(-1, len(COLUMNS)))
    details = _core.details(_MEASURES_KERNELS[empty_reference], rows)
    return list(zip(*(details[m] for m in MEASURES)))


def _normalized_texts(texts: list[str], normalizer: str) -> list[str]:
    """``texts`` normalized in the core, on every thread. Where one holds a lone surrogate they
    stay as they are, so that the core's check names its place in the caller's stream; any
    other error (a number openai-whisper cannot read) is raised."""
    try:
        return normalized(texts, normalizer)
    except InvalidInputError:
        if not holds_lone_surrogate(texts):
            raise
        return texts


@register_config
@dataclass(frozen=True)
class WERConfig(KernelConfig):
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
    normalizer: Optional[str] = None
    aligner: Optional[str] = None
    sclite_mode: bool = False
    merge_compounds: bool = False
    compound_pairs: bool = False

    metric = "WER"
    higher_is_better = False  # an error rate
    resample_float32 = False  # no sacrebleu counterpart: resampled sums stay exact integers
    counts_sentences = False  # an edit distance has no counted-sentence shortcut
    aggregates_references = False  # no n-gram statistics to average

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
        check_normalization(self.normalizer)
        self._check_bool("sclite_mode")
        self._check_bool("merge_compounds")
        self._check_bool("compound_pairs")
        kaldi = self.sclite_mode or self.merge_compounds or self.compound_pairs
        if self.aligner is None:  # resolved here, so equal settings compare equal
            object.__setattr__(self, "aligner", "kaldialign" if kaldi else "rapidfuzz")
        if self.aligner not in ALIGNERS:
            raise InvalidOptionError(
                f"unknown aligner {self.aligner!r}; expected one of {', '.join(ALIGNERS)}"
            )
        if kaldi and self.aligner != "kaldialign":
            raise InvalidOptionError(
                "sclite_mode, merge_compounds and compound_pairs are kaldialign's alignment "
                "options: use aligner='kaldialign' (or leave aligner unset)"
            )
        if self.merge_compounds and self.unit == "char":
            raise InvalidOptionError(
                "merge_compounds joins adjacent words; CER compares characters, where there is "
                "nothing to join: use it with WER, or drop it"
            )
        if self.compound_pairs and self.unit == "char":
            raise InvalidOptionError(
                "compound_pairs joins words; CER compares characters, where there is nothing "
                "to join: use it with WER, or drop it"
            )
        if self.transform == "standardize":
            for name in ("lowercase", "expand_contractions", "remove_kaldi_non_words"):
                object.__setattr__(self, name, True)

    def _check_bool(self, name: str) -> None:
        if not isinstance(getattr(self, name), bool):
            raise InvalidOptionError(f"{name} must be True or False, got {getattr(self, name)!r}")

    @property
    def name(self) -> str:
        """``WER`` for words, ``CER`` for characters."""
        return "WER" if self.unit == "word" else "CER"

    @property
    def raw(self) -> bool:
        """True when the core splits without jiwer's whitespace cleanup (``transform="none"``)."""
        return self.transform == "none"

    @property
    def normalizes_in_core(self) -> bool:
        """True when the normalizer is the only text step: the core applies it (file blocks
        and Arrow columns then never become Python strings)."""
        return self.normalizer is not None and not self._python_text_options

    @property
    def _python_text_options(self) -> bool:
        return (
            self.lowercase
            or self.remove_punctuation
            or self.expand_contractions
            or self.remove_kaldi_non_words
            or self.transform == "standardize"
        )

    @property
    def rewrites_text(self) -> bool:
        """True when text is rewritten in Python before the core splits it (the normalizer
        runs there first when other text options follow it)."""
        return self._python_text_options

    def prepare(self, stream: Sequence[Any]) -> Sequence[Any]:
        """Applies the text options to a stream; non-str items pass through for the core to
        report, ``None`` stays ``None``."""
        if not self.rewrites_text:
            return stream
        if self.normalizer is not None:
            # The normalizer first, as speech evaluation applies it to the raw transcripts.
            texts = iter(
                _normalized_texts([s for s in stream if isinstance(s, str)], self.normalizer)
            )
            stream = [next(texts) if isinstance(s, str) else s for s in stream]
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

    def _make_kernel(self) -> Any:
        return _core.WerKernel(
            unit=self.unit,
            raw=self.raw,
            aligner=self.aligner or "rapidfuzz",  # resolved in __post_init__
            sclite=self.sclite_mode,
            merge_compounds=self.merge_compounds,
            compound_pairs=self.compound_pairs,
            normalize=self.normalizer if self.normalizes_in_core else None,
        )

    def _results(self, rows: Any, details: dict[str, Any]) -> list[WERScore]:
        measures = zip(*(details[m] for m in MEASURES))
        return [
            WERScore(self.name, s, d, i, h, ref_words, hyp_words, measures=m)
            for (s, d, i, h, ref_words, hyp_words), m in zip(rows, measures)
        ]

    def _broken_rows(self, rows: np.ndarray) -> tuple[Any, str]:
        s, d, i, h, ref_words, hyp_words = rows.T
        if self.merge_compounds or self.compound_pairs:
            # A merged compound is k words against one: its hits count the reference's words,
            # so only the reference side adds up.
            return s + d + h != ref_words, "substitutions + deletions + hits == ref_words"
        bad = (s + d + h != ref_words) | (s + i + h != hyp_words)
        rule = (
            "substitutions + deletions + hits == ref_words and "
            "substitutions + insertions + hits == hyp_words"
        )
        return bad, rule

    def score_row(self, row: Any, measure: str = "wer") -> WERScore:
        """Scores one (summed) statistics row; ``measure`` picks what ``.score`` reports."""
        values = [int(v) for v in row]
        if len(values) != self.width:
            raise InvalidOptionError(f"a WER statistics row has 6 columns, got {len(values)}")
        name = self.name if measure == "wer" else measure.upper()
        s, d, i, h, ref_words, hyp_words = values
        return WERScore(name, s, d, i, h, ref_words, hyp_words, measure=measure)

    def signature(self, nrefs: int) -> WERSignature:
        """The signature for statistics made with ``nrefs`` references per segment."""
        return WERSignature(self, nrefs)

    # jiwer's layout: one reference per hypothesis, as text or as token lists.

    def pair_rows(self, hypotheses: Sequence[Any], references: Sequence[Any]) -> np.ndarray:
        """Statistics rows of text pairs, split by the core (no Python text step)."""
        return _core.stats(self.kernel, hypotheses, [references])[0]

    def token_rows(
        self, hypotheses: Sequence[Sequence[str]], references: Sequence[Sequence[str]]
    ) -> np.ndarray:
        """Statistics rows of pairs already split into tokens."""
        return _core.grouped_stats(self.kernel, hypotheses, [[r] for r in references])

    def pair_alignments(
        self, hypotheses: Sequence[Any], references: Sequence[Any], *, tokens: bool = False
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The core's alignment arrays of pairs (text, or token lists with ``tokens``):
        ``(rows, stream, opcodes, offsets)`` as ``_core.alignments`` returns them."""
        if tokens:
            return _core.alignments(self.kernel, hypotheses, references, tokens=True)
        return _core.alignments(self.kernel, hypotheses, [references])

    def split(self, lines: Sequence[Any]) -> list[list[str]]:
        """Every line's tokens, split as the core splits them."""
        return _core.tokenize(self.kernel, lines)


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
        *,
        measures: Optional[tuple[float, float, float, float]] = None,
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
        if measures is None:
            (measures,) = row_measures(
                [(substitutions, deletions, insertions, hits, ref_words, hyp_words)]
            )
        self.wer, self.mer, self.wil, self.wip = measures
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

    ``punct:removed``, ``contractions:expanded``, ``kaldi:removed`` and the normalizer with its
    upstream's version (``norm:whisper-english@20250625``) come before the version when those
    options are on.
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
                "norm": "nm",
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
        if config.normalizer is not None:
            self.info["norm"] = normalization_signature(config.normalizer)
        if config.aligner != "rapidfuzz":
            self.abbreviations.update({"align": "al", "costs": "cs", "compounds": "cp"})
            self.info["align"] = f"{config.aligner}@0.12.0"
            if config.sclite_mode:
                self.info["costs"] = "sclite"
            if config.merge_compounds:
                self.info["compounds"] = "merged"
            if config.compound_pairs:
                self.abbreviations["pairs"] = "pr"
                self.info["pairs"] = f"open-asr@{OPEN_ASR_REVISION[:7]}"


class WER(Metric[WERScore]):
    """Word error rate (and MER, WIL, WIP) with jiwer's numbers and bleuprint's layout.

    Hypotheses come first and references are streams, as in :class:`~bleuprint.BLEU`:
    ``references[k][i]`` is reference ``k`` of segment ``i`` (``None`` skips it). With several
    references a segment is scored against the one with the fewest edits (the first on ties).
    ``references`` and ``workers`` are as for every :class:`~bleuprint.metrics.Metric`.

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
    normalizer
        A text normalizer applied to hypotheses and references before the options above:
        ``"whisper-english"`` or ``"whisper-basic"`` (openai-whisper 20250625's
        ``EnglishTextNormalizer``/``BasicTextNormalizer``, exact to upstream), the
        ``whisper-normalizer`` 0.1.15 package's variants (``"whisper-normalizer-english"``,
        ``"whisper-normalizer-basic-marks"``), or a Unicode form (``"nfc"``, ``"nfkc"``). The
        signature records it with its upstream's version.
    aligner
        Whose choice among the cheapest alignments splits the errors into substitutions,
        deletions and insertions: ``"rapidfuzz"`` (jiwer's, the default) or ``"kaldialign"``
        (kaldialign 0.12.0's ``edit_distance``, which the Open ASR Leaderboard scores with).
        Unset, it is ``"kaldialign"`` when one of the two options below is on.
    sclite_mode
        kaldialign's sclite costs (insertion 3, deletion 3, substitution 4): the cheapest
        alignment may then hold more errors than the fewest possible.
    merge_compounds
        kaldialign's compounds: adjacent words of either side concatenated match one word of
        the other at no cost (``white paper`` against ``whitepaper``: no error). Words only.
        The hits then count the reference's words, so ``substitutions + insertions + hits``
        no longer equals the hypothesis' words, and MER, WIL and WIP lose their meaning.
    compound_pairs
        The Open ASR Leaderboard's compound-pair pass (``normalize_compound_pairs``, which its
        multilingual scoring runs before kaldialign): each pair is aligned word by word as
        Python's ``difflib.SequenceMatcher`` aligns it, and a differing region that spells
        the same characters on both sides once joined (``Haus tür`` against ``Haustür``)
        becomes the joined word on both. Words only; with kaldialign; the aligned lengths
        are the rows' ``ref_words`` and ``hyp_words``. :meth:`align` refuses it (its view
        shows the words as written).
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
        normalizer: Optional[str] = None,
        aligner: Optional[str] = None,
        sclite_mode: bool = False,
        merge_compounds: bool = False,
        compound_pairs: bool = False,
        workers: int = -1,
    ) -> None:
        text = (lowercase, remove_punctuation, expand_contractions, remove_kaldi_non_words)
        alignment = (aligner, sclite_mode, merge_compounds, compound_pairs)
        config = shared_config(WERConfig, unit, transform, *text, normalizer, *alignment)
        super().__init__(config, references, workers)

    def _prepare_stream(self, stream: Sequence[Any]) -> Sequence[Any]:
        return self.config.prepare(stream)

    def _takes_blocks(self) -> bool:
        return not self.config.rewrites_text

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
        kernel, workers = self.config.kernel, self.workers
        with naming_lone_surrogates(named), gc_paused():
            rows, chosen, ops, offsets = _core.alignments(kernel, hyps, streams, workers=workers)
            chosen_list = chosen.tolist()
            best_refs = [streams[k][i] for i, k in enumerate(chosen_list)]
            segments = segments_from_arrays(
                rows,
                chosen_list,
                ops,
                offsets,
                _core.tokenize(kernel, best_refs, workers=workers),
                _core.tokenize(kernel, hyps, workers=workers),
                self.config.unit,
            )
        self.num_refs = count_references(streams)
        return Alignments(segments, self.config.score_corpus(rows), self.config.unit)


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
        normalizer: Optional[str] = None,
        aligner: Optional[str] = None,
        sclite_mode: bool = False,
        merge_compounds: bool = False,  # refused with a message: characters have no compounds
        compound_pairs: bool = False,  # refused likewise
        workers: int = -1,
    ) -> None:
        text = (lowercase, remove_punctuation, expand_contractions, remove_kaldi_non_words)
        super().__init__(
            "char", transform, *text, references, normalizer=normalizer, aligner=aligner,
            sclite_mode=sclite_mode, merge_compounds=merge_compounds,
            compound_pairs=compound_pairs, workers=workers,
        )  # fmt: skip


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
