"""jiwer 4.0's ``jiwer.transforms``: the transform classes, with jiwer's behaviour and errors.

Construction is as cheap as jiwer's: ``RemovePunctuation`` takes the Unicode punctuation set
from a per-process cache (jiwer memoizes the same scan), so building one per call costs
microseconds after the first.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping
from typing import Any, Union

from bleuprint.tokenizers import wer_text as _wer_text

__all__ = [
    "AbstractTransform",
    "Compose",
    "ExpandCommonEnglishContractions",
    "ReduceToListOfListOfChars",
    "ReduceToListOfListOfWords",
    "ReduceToSingleSentence",
    "RemoveEmptyStrings",
    "RemoveKaldiNonWords",
    "RemoveMultipleSpaces",
    "RemovePunctuation",
    "RemoveSpecificWords",
    "RemoveWhiteSpace",
    "Strip",
    "SubstituteRegexes",
    "SubstituteWords",
    "ToLowerCase",
    "ToUpperCase",
]

#: One sentence or a list of them, as every transform takes them.
Sentences = Union[str, list[str]]


class AbstractTransform:
    """Base class of a transform: a str goes to ``process_string``, a list to
    ``process_list``; anything else is a ``ValueError``. Not an ``ABC``, as in jiwer: a
    subclass that only overrides ``process_list`` can be instantiated."""

    def __call__(self, sentences: Sentences) -> Any:
        if isinstance(sentences, str):
            return self.process_string(sentences)
        if isinstance(sentences, list):
            return self.process_list(sentences)
        raise ValueError(f"input {sentences} was expected to be a string or list of strings")

    def process_string(self, s: str) -> Any:
        """The transform of one sentence (every transform defines it)."""
        raise NotImplementedError()

    def process_list(self, inp: list[str]) -> Any:
        return [self.process_string(s) for s in inp]


class Compose:
    """Chains transforms; a WER pipeline ends with :class:`ReduceToListOfListOfWords`, a CER
    pipeline with :class:`ReduceToListOfListOfChars`."""

    def __init__(self, transforms: list[Any]) -> None:
        self.transforms = transforms

    def __call__(self, text: Any) -> Any:
        for transform in self.transforms:
            text = transform(text)
        return text


class BaseRemoveTransform(AbstractTransform):
    """Replaces each of ``tokens_to_remove`` by ``replace_token``, one after the other."""

    def __init__(self, tokens_to_remove: Iterable[str], replace_token: str = "") -> None:
        self.tokens_to_remove = tokens_to_remove
        self.replace_token = replace_token

    def process_string(self, s: str) -> str:
        for w in self.tokens_to_remove:
            s = s.replace(w, self.replace_token)
        return s


class ReduceToListOfListOfWords(AbstractTransform):
    """Splits each sentence on ``word_delimiter`` (a space), dropping empty strings; an empty
    list of sentences becomes ``[[]]``."""

    def __init__(self, word_delimiter: str = " ") -> None:
        self.word_delimiter = word_delimiter

    def process_string(self, s: str) -> list[list[str]]:
        return [[w for w in s.split(self.word_delimiter) if len(w) >= 1]]

    def process_list(self, inp: list[str]) -> list[list[str]]:
        out = [self.process_string(sentence)[0] for sentence in inp]
        return out if out else [[]]


class ReduceToListOfListOfChars(AbstractTransform):
    """Splits each sentence into its characters; an empty list becomes ``[[]]``."""

    def process_string(self, s: str) -> list[list[str]]:
        return [list(s)]

    def process_list(self, inp: list[str]) -> list[list[str]]:
        out = [self.process_string(sentence)[0] for sentence in inp]
        return out if out else [[]]


class ReduceToSingleSentence(AbstractTransform):
    """Joins the non-empty sentences with ``word_delimiter`` into one."""

    def __init__(self, word_delimiter: str = " ") -> None:
        self.word_delimiter = word_delimiter

    def process_string(self, s: str) -> str:
        return s

    def process_list(self, inp: list[str]) -> list[str]:
        filtered = [i for i in inp if len(i) >= 1]
        if len(filtered) == 0:
            return []
        return [f"{self.word_delimiter}".join(filtered)]


class SubstituteRegexes(AbstractTransform):
    """``re.sub(pattern, replacement, s)`` for each item of ``substitutions``, in order."""

    def __init__(self, substitutions: Mapping[str, str]) -> None:
        self.substitutions = substitutions

    def process_string(self, s: str) -> str:
        for key, value in self.substitutions.items():
            s = re.sub(key, value, s)
        return s


class SubstituteWords(AbstractTransform):
    """Replaces whole words (``\\b`` boundaries) by other words."""

    def __init__(self, substitutions: Mapping[str, str]) -> None:
        self.substitutions = substitutions

    def process_string(self, s: str) -> str:
        for key, value in self.substitutions.items():
            s = re.sub(rf"\b{re.escape(key)}\b", value, s)
        return s


class RemoveSpecificWords(SubstituteWords):
    """Replaces each of ``words_to_remove`` (whole words) by a space."""

    def __init__(self, words_to_remove: list[str]) -> None:
        super().__init__({word: " " for word in words_to_remove})


class RemoveWhiteSpace(BaseRemoveTransform):
    """Removes ``string.whitespace`` characters, or replaces them by spaces."""

    def __init__(self, replace_by_space: bool = False) -> None:
        super().__init__(list(string.whitespace), replace_token=" " if replace_by_space else "")


class RemovePunctuation(BaseRemoveTransform):
    """Removes every character whose Unicode category starts with ``P``."""

    def __init__(self) -> None:
        super().__init__(_wer_text.punctuation_characters())

    def process_string(self, s: str) -> str:
        if self.tokens_to_remove is _wer_text.punctuation_characters() and not self.replace_token:
            # Deleting each character in turn is deleting them all at once.
            return _wer_text.remove_punctuation(s)
        return super().process_string(s)  # attributes changed after construction


class RemoveMultipleSpaces(AbstractTransform):
    """``re.sub(r"\\s\\s+", " ", s)``: runs of whitespace become one space."""

    def process_string(self, s: str) -> str:
        return _wer_text.remove_multiple_spaces(s)


class Strip(AbstractTransform):
    """``s.strip()``."""

    def process_string(self, s: str) -> str:
        return s.strip()


class RemoveEmptyStrings(AbstractTransform):
    """Drops sentences that are empty after stripping."""

    def process_string(self, s: str) -> str:
        return s.strip()

    def process_list(self, inp: list[str]) -> list[str]:
        return [s for s in inp if self.process_string(s) != ""]


class ExpandCommonEnglishContractions(AbstractTransform):
    """``won't`` → ``will not``, ``can't`` → ``can not``, ``let's`` → ``let us``, then
    ``n't``, ``'re``, ``'s``, ``'d``, ``'ll``, ``'t``, ``'ve``, ``'m`` → `` not``, `` are``..."""

    def process_string(self, s: str) -> str:
        return _wer_text.expand_contractions(s)


class ToLowerCase(AbstractTransform):
    """``s.lower()``."""

    def process_string(self, s: str) -> str:
        return s.lower()


class ToUpperCase(AbstractTransform):
    """``s.upper()``."""

    def process_string(self, s: str) -> str:
        return s.upper()


class RemoveKaldiNonWords(AbstractTransform):
    """Removes anything between ``[]`` or ``<>``, brackets included."""

    def process_string(self, s: str) -> str:
        return _wer_text.remove_kaldi_non_words(s)
