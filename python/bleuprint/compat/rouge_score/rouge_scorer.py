"""rouge-score 0.1.2's ``rouge_score.rouge_scorer``: ``RougeScorer``, computed by
:class:`bleuprint.ROUGE`.

Each ``score``/``score_multi`` call is one statistics call of a ROUGE metric the scorer keeps
(one per set of types), and :meth:`RougeScorer.score_batch` scores many segments in one call.
The results are rouge-score's: dicts of ``scoring.Score`` whose floats equal rouge-score's with
``==``; where rouge-score's LCS scores return the int ``0`` (rougeL or rougeLsum with no token,
or no sentence, on either side) they are ``Score(0, 0, 0)`` here too. Several targets
(``score_multi``) take, per type, the target with the best F-measure, the first on ties.

As in rouge-score, the types are checked when scoring, in their order: a bad one raises
``ValueError("Invalid rouge type: ...")`` (``rougen requires positive n: ...`` for
``rouge0``), and ``score_multi`` with no target raises numpy's ``argmax`` error. Texts must be
``str`` (bytes are decoded as rouge-score decodes them); with rouge-score's tokenizer anything
else raises what rouge-score raises (``AttributeError: ... has no attribute 'lower'``).

Tokenizers: ``None`` (or ``tokenizers.DefaultTokenizer``) tokenizes and stems in the core; any
other object's ``tokenize(text)`` is called on every text (and every ``rougeLsum`` sentence),
and its tokens (hashable, compared with ``==``) are matched by the core, as rouge-score
matches them. ``split_summaries=True`` splits sentences with nltk's ``sent_tokenize`` (a
missing ``punkt_tab`` model raises ``LookupError``, as in rouge-score).
"""

from __future__ import annotations

import collections
import re
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Optional, Union

from bleuprint.compat.rouge_score import scoring, tokenizers
from bleuprint.compat.rouge_score.tokenize import ensure_str, stems_in_core, text_of_bytes
from bleuprint.errors import InvalidInputError, InvalidOptionError
from bleuprint.metrics.rouge import ROUGE

#: rouge-score's test of an n-gram type (``re.match``: a trailing newline passes, as there).
_NGRAM_TYPE = re.compile(r"rouge[0-9]$")
#: The characters whose str.lower() holds ASCII letters (see tokenize.text_of_bytes).
_LOWERING_TO_ASCII = ("\u0130", "\u212a")
#: The types whose empty input rouge-score scores as the int 0.
_LCS_TYPES = ("rougeL", "rougeLsum")

#: A tokenizer setting of bleuprint.ROUGE: ("rouge", stem) or (callable, False).
_Tokenizing = tuple[Union[str, Callable[[str], Sequence[Hashable]]], bool]


def _plan(rouge_types: Any) -> tuple[list[tuple[Any, str]], Optional[Exception]]:
    """``(type as given, bleuprint's name)`` for each type up to the first bad one, and the
    error rouge-score raises there (``None`` if every type is good)."""
    plan: list[tuple[Any, str]] = []
    for rouge_type in rouge_types:
        if rouge_type == "rougeL" or rouge_type == "rougeLsum":
            plan.append((rouge_type, rouge_type))
            continue
        try:
            is_ngram = _NGRAM_TYPE.match(ensure_str(rouge_type)) is not None
        except TypeError as e:
            return plan, e
        if not is_ngram:
            return plan, ValueError(f"Invalid rouge type: {rouge_type}")
        n = int(rouge_type[5:])
        if n <= 0:
            return plan, ValueError(f"rougen requires positive n: {rouge_type}")
        plan.append((rouge_type, f"rouge{n}"))
    return plan, None


def _is_default_tokenizer(tokenizer: Any) -> bool:
    """rouge-score's ``DefaultTokenizer`` (this package's or the real one), its ``tokenize``
    not overridden."""
    cls = type(tokenizer)
    ours_or_theirs = cls is tokenizers.DefaultTokenizer or (
        cls.__module__ == "rouge_score.tokenizers" and cls.__qualname__ == "DefaultTokenizer"
    )
    return (
        ours_or_theirs
        and hasattr(tokenizer, "_stemmer")
        and "tokenize" not in getattr(tokenizer, "__dict__", {})
    )


def _argmax_of_nothing() -> None:
    """Raises what ``score_multi`` raises for no targets: numpy's own error for
    ``np.argmax([])`` (its message differs between numpy versions)."""
    # Start-up time: numpy loads only on this error's path.
    import numpy as np

    np.argmax([])


class RougeScorer(scoring.BaseScorer):
    """Calculate rouges scores between two blobs of text.

    Sample usage::

        scorer = RougeScorer(['rouge1', 'rougeL'], use_stemmer=True)
        scores = scorer.score('The quick brown fox jumps over the lazy dog',
                              'The quick brown dog jumps on the log.')
    """

    def __init__(
        self,
        rouge_types: Any,
        use_stemmer: bool = False,
        split_summaries: bool = False,
        tokenizer: Any = None,
    ) -> None:
        """Initializes a new RougeScorer.

        Valid rouge types that can be computed are:
          rougen (e.g. rouge1, rouge2): n-gram based scoring.
          rougeL: Longest common subsequence based scoring.
          rougeLsum: rougeL over the union of the LCS of newline-separated sentences.

        Args:
          rouge_types: A list of rouge types to calculate.
          use_stemmer: Bool indicating whether Porter stemmer should be used to strip word
            suffixes to improve matching. This arg is used in the DefaultTokenizer, but other
            tokenizers might or might not choose to use this.
          split_summaries: whether to add newlines between sentences for rougeLsum
          tokenizer: Tokenizer object which has a tokenize() method.
        """
        self.rouge_types = rouge_types
        if tokenizer:
            self._tokenizer = tokenizer
        else:
            self._tokenizer = tokenizers.DefaultTokenizer(use_stemmer)
        self._split_summaries = split_summaries
        #: bleuprint.ROUGE metrics by (types, tokenizer, stemming, sentence splitting).
        self._metrics: dict[tuple[Any, ...], tuple[Any, ROUGE]] = {}

    def score_multi(self, targets: Iterable[Any], prediction: Any) -> dict[Any, scoring.Score]:
        """Calculates rouge scores between targets and prediction.

        The target with the maximum f-measure is used for the final score for each score
        type.

        Args:
          targets: list of texts containing the targets
          prediction: Text containing the predicted text.
        Returns:
          A dict mapping each rouge type to a Score object.
        Raises:
          ValueError: If an invalid rouge type is encountered.
        """
        return self.score_batch([targets], [prediction], multi=True)[0]

    def score(self, target: Any, prediction: Any) -> dict[Any, scoring.Score]:
        """Calculates rouge scores between the target and prediction.

        Args:
          target: Text containing the target (ground truth) text.
          prediction: Text containing the predicted text.
        Returns:
          A dict mapping each rouge type to a Score object.
        Raises:
          ValueError: If an invalid rouge type is encountered.
        """
        return self.score_batch([target], [prediction])[0]

    # --- bleuprint's batch ----------------------------------------------------------------

    def score_batch(
        self, targets: Sequence[Any], predictions: Sequence[Any], multi: bool = False
    ) -> list[dict[Any, scoring.Score]]:
        """``[score(t, p) for t, p in zip(targets, predictions)]`` (``score_multi`` with
        ``multi=True``, each target then a list of texts) in one core call; the same results
        and the same first error as that loop. A bleuprint addition."""
        if len(targets) != len(predictions):
            raise ValueError(
                f"score_batch takes one target per prediction: got {len(targets)} targets and "
                f"{len(predictions)} predictions"
            )
        types = self.rouge_types
        # rouge-score tokenizes each whole text unless rougeLsum is the only type.
        whole = not (len(types) == 1 and types[0] == "rougeLsum")
        plan, error = _plan(types)
        default = _is_default_tokenizer(self._tokenizer)
        segments = []
        for target, prediction in zip(targets, predictions):
            if multi:
                # rouge-score's score_multi: the targets scored in order, then the argmax.
                texts = list(target)
                if not texts and types:
                    _argmax_of_nothing()
                order = [*texts[:1], prediction, *texts[1:]]
            else:
                texts, order = [target], [target, prediction]
            for text in order:  # the first text rouge-score would fail on, failing alike
                self._check_text(text, whole, default)
            segments.append((texts, prediction))
            if error is not None:
                if plan:  # rouge-score scores the types before the bad one first
                    self._compute(plan, [segments[-1]], default)
                raise error
        return self._compute(plan, segments, default)

    def _scores_of_nothing(self, n: int) -> list[dict[Any, scoring.Score]]:
        return [{} for _ in range(n)]

    def _check_text(self, text: Any, whole: bool, default: bool) -> None:
        """Raises rouge-score's error for a text it cannot tokenize."""
        if isinstance(text, (str, bytes)):
            return
        if not default:
            raise TypeError(
                "bleuprint's RougeScorer scores str texts (its tokenizer's tokenize() is "
                f"called on each), got {type(text).__name__}"
            )
        # rouge-score's tokenizer calls text.lower(), then six.ensure_str; rougeLsum alone
        # goes straight to six.ensure_str.
        ensure_str(text.lower() if whole else text)
        raise TypeError(f"bleuprint's RougeScorer scores str texts, got {type(text).__name__}")

    def _tokenizing(self) -> _Tokenizing:
        """bleuprint.ROUGE's tokenizer for this scorer's: rouge-score's own in the core (with
        the core's stemmer for nltk's), or the object's ``tokenize``."""
        tokenizer = self._tokenizer
        if _is_default_tokenizer(tokenizer):
            stemmer = tokenizer._stemmer
            if not stemmer:
                return ("rouge", False)
            if stems_in_core(stemmer):
                return ("rouge", True)
        return (tokenizer.tokenize, False)

    def _metric(self, types: tuple[str, ...]) -> ROUGE:
        """The scorer's bleuprint.ROUGE for ``types``, made on first use."""
        name, stem = self._tokenizing()
        split = bool(self._split_summaries)
        # A tokenizer object by identity; the cache holds it, so its id is not reused.
        which = name if isinstance(name, str) else id(self._tokenizer)
        key = (types, which, stem, split)
        cached = self._metrics.get(key)
        if cached is None:
            metric = ROUGE(types, use_stemmer=stem, tokenizer=name, split_summaries=split)
            cached = self._metrics[key] = (self._tokenizer, metric)
        return cached[1]

    def _compute(
        self, plan: list[tuple[Any, str]], segments: list[tuple[list[Any], Any]], default: bool
    ) -> list[dict[Any, scoring.Score]]:
        """Scores of the planned types for each ``(targets, prediction)``."""
        if not plan or not segments:
            return self._scores_of_nothing(len(segments))
        types = tuple(dict.fromkeys(name for _, name in plan))
        # Texts given as bytes are decoded (six.ensure_str). rouge-score's own tokenizer
        # lowercases a whole text given as bytes before decoding it, which tokenizes apart
        # from the decoded text for two characters only (İ, the Kelvin sign): texts holding
        # them score their whole-text types on text_of_bytes, rougeLsum on the decoded text.
        by_variant = [(types, False)]
        if default and any(
            isinstance(t, bytes) and any(c in ensure_str(t) for c in _LOWERING_TO_ASCII)
            for texts, prediction in segments
            for t in (*texts, prediction)
        ):
            whole_types = tuple(t for t in types if t != "rougeLsum")
            by_variant = [(whole_types, True)] if whole_types else []
            if "rougeLsum" in types:
                by_variant.append((("rougeLsum",), False))
        found: dict[str, list[scoring.Score]] = {}
        for variant_types, bytes_lowered in by_variant:
            found.update(self._scores(variant_types, segments, bytes_lowered))
        return [{key: found[name][i] for key, name in plan} for i in range(len(segments))]

    def _scores(
        self, types: tuple[str, ...], segments: list[tuple[list[Any], Any]], bytes_lowered: bool
    ) -> dict[str, list[scoring.Score]]:
        """Per type, each segment's ``Score``, from one statistics call."""

        def text(t: Any) -> Any:
            if isinstance(t, bytes):
                return text_of_bytes(t) if bytes_lowered else ensure_str(t)
            return t

        metric = self._metric(types)
        width = max(len(texts) for texts, _ in segments)
        hypotheses = [text(prediction) for _, prediction in segments]
        streams = [
            [text(texts[k]) if k < len(texts) else None for texts, _ in segments]
            for k in range(width)
        ]
        try:
            try:
                stats = metric.stats(hypotheses, streams)
            except InvalidInputError as e:
                # rouge-score's tokenizer separates at a lone surrogate, as at any character
                # outside [a-z0-9]: a space stands for it (bleuprint.ROUGE refuses them).
                if metric.config.tokenizer != "rouge" or "lone surrogate" not in str(e):
                    raise
                hypotheses = [_without_surrogates(h) for h in hypotheses]
                streams = [[_without_surrogates(t) for t in stream] for stream in streams]
                stats = metric.stats(hypotheses, streams)
        except InvalidOptionError as e:
            if "punkt" in str(e):  # nltk's missing sentence model: rouge-score's LookupError
                raise LookupError(str(e)) from e
            raise
        rows = stats.rows.tolist()
        results = metric.config.score_rows_detailed(stats.rows)
        columns = stats.column_names
        out: dict[str, list[scoring.Score]] = {}
        for name in types:
            lcs = name in _LCS_TYPES
            hyp, ref = columns.index(f"{name}_hyp"), columns.index(f"{name}_ref")
            column = []
            for row, result in zip(rows, results):
                # rouge-score's LCS scores of no token (or no sentence) are the int 0.
                if lcs and (row[hyp] == 0 or row[ref] == 0):
                    column.append(scoring.Score(precision=0, recall=0, fmeasure=0))
                else:
                    column.append(scoring.Score(*result.scores[name]))
            out[name] = column
        return out


_SURROGATE = re.compile("[\ud800-\udfff]")


def _without_surrogates(text: Any) -> Any:
    """``text`` with each lone surrogate a space (other items as they are)."""
    return _SURROGATE.sub(" ", text) if isinstance(text, str) else text


# --- rouge-score's module-level helpers that score tokens, on bleuprint.ROUGE ----------------


def _create_ngrams(tokens: Sequence[Any], n: int) -> collections.Counter[tuple[Any, ...]]:
    """Creates ngrams from the given list of tokens.

    Args:
      tokens: A list of tokens from which ngrams are created.
      n: Number of tokens to use, e.g. 2 for bigrams.
    Returns:
      A dictionary mapping each bigram to the number of occurrences.
    """
    ngrams: collections.Counter[tuple[Any, ...]] = collections.Counter()
    for ngram in (tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)):
        ngrams[ngram] += 1
    return ngrams


def _score_tokens(
    rouge_type: str, target: list[list[Any]], prediction: list[list[Any]]
) -> scoring.Score:
    """One ``Score`` of token lists (one list per sentence for rougeLsum, one list
    otherwise), from bleuprint.ROUGE with a tokenizer that looks the lists up."""
    lists = {str(k): tokens for k, tokens in enumerate([*target, *prediction])}
    keys = iter(lists)
    target_text = "\n".join(next(keys) for _ in target)
    prediction_text = "\n".join(keys)
    scorer = RougeScorer([rouge_type], tokenizer=_Lookup(lists))
    return scorer.score(target_text, prediction_text)[rouge_type]


class _Lookup:
    """A tokenizer whose texts are keys of token lists."""

    def __init__(self, lists: dict[str, list[Any]]) -> None:
        self.lists = lists

    def tokenize(self, text: str) -> list[Any]:
        return self.lists[text]


def _score_lcs(target_tokens: Sequence[Any], prediction_tokens: Sequence[Any]) -> scoring.Score:
    """Computes LCS (Longest Common Subsequence) rouge scores.

    Args:
      target_tokens: Tokens from the target text.
      prediction_tokens: Tokens from the predicted text.
    Returns:
      A Score object containing computed scores.
    """
    return _score_tokens("rougeL", [list(target_tokens)], [list(prediction_tokens)])


def _summary_level_lcs(
    ref_sent: Sequence[Sequence[Any]], can_sent: Sequence[Sequence[Any]]
) -> scoring.Score:
    """ROUGE: Summary-level LCS, section 3.2 in ROUGE paper.

    Args:
      ref_sent: list of tokenized reference sentences
      can_sent: list of tokenized candidate sentences

    Returns:
      summary level ROUGE score
    """
    return _score_tokens("rougeLsum", [list(s) for s in ref_sent], [list(s) for s in can_sent])


def _score_ngrams(target_ngrams: Any, prediction_ngrams: Any) -> scoring.Score:
    """Compute n-gram based rouge scores.

    Args:
      target_ngrams: A Counter object mapping each ngram to number of occurrences for the
        target text.
      prediction_ngrams: A Counter object mapping each ngram to number of occurrences for
        the prediction text.
    Returns:
      A Score object containing computed scores.
    """

    def tokens(ngrams: Any) -> list[Any]:  # each n-gram, as often as counted, is one token
        return [ngram for ngram, count in ngrams.items() for _ in range(count)]

    return _score_tokens("rouge1", [tokens(target_ngrams)], [tokens(prediction_ngrams)])
