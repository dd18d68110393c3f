"""jiwer 4.0's ``jiwer.transformations``: the standard compositions of transforms."""

from __future__ import annotations

from bleuprint.compat.jiwer.transforms import (
    Compose,
    ExpandCommonEnglishContractions,
    ReduceToListOfListOfChars,
    ReduceToListOfListOfWords,
    ReduceToSingleSentence,
    RemoveKaldiNonWords,
    RemoveMultipleSpaces,
    RemoveWhiteSpace,
    Strip,
    ToLowerCase,
)

__all__ = [
    "cer_contiguous",
    "cer_default",
    "wer_contiguous",
    "wer_default",
    "wer_standardize",
    "wer_standardize_contiguous",
]

wer_default = Compose([RemoveMultipleSpaces(), Strip(), ReduceToListOfListOfWords()])
wer_contiguous = Compose(
    [RemoveMultipleSpaces(), Strip(), ReduceToSingleSentence(), ReduceToListOfListOfWords()]
)
# wer_standardize's clean-up, before the text is split (jiwer lists it twice).
_STANDARDIZE = [
    ToLowerCase(),
    ExpandCommonEnglishContractions(),
    RemoveKaldiNonWords(),
    RemoveWhiteSpace(replace_by_space=True),
    RemoveMultipleSpaces(),
    Strip(),
]
wer_standardize = Compose([*_STANDARDIZE, ReduceToListOfListOfWords()])
wer_standardize_contiguous = Compose(
    [*_STANDARDIZE, ReduceToSingleSentence(), ReduceToListOfListOfWords()]
)
cer_default = Compose([Strip(), ReduceToListOfListOfChars()])
cer_contiguous = Compose([Strip(), ReduceToSingleSentence(), ReduceToListOfListOfChars()])
