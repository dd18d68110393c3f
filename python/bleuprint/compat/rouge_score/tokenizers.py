"""rouge-score 0.1.2's ``rouge_score.tokenizers``: the ``Tokenizer`` base class and
``DefaultTokenizer``, whose tokens the core makes.

The RougeScorer class can be instantiated with the tokenizers defined here. New tokenizers
can be defined by creating a subclass of the Tokenizer abstract class and overriding the
tokenize() method.
"""

from __future__ import annotations

import abc
from typing import Any

from bleuprint.compat.rouge_score import tokenize as _tokenize


class Tokenizer(abc.ABC):
    """Abstract base class for a tokenizer.

    Subclasses of Tokenizer must implement the tokenize() method.
    """

    @abc.abstractmethod
    def tokenize(self, text: Any) -> Any:
        raise NotImplementedError("Tokenizer must override tokenize() method")


class DefaultTokenizer(Tokenizer):
    """Default tokenizer which tokenizes on whitespace."""

    def __init__(self, use_stemmer: bool = False) -> None:
        """Constructor for DefaultTokenizer.

        Args:
          use_stemmer: boolean, indicating whether Porter stemmer should be used to strip
            word suffixes to improve matching.
        """
        # rouge-score holds nltk's PorterStemmer(); this one stems in the core.
        self._stemmer = _tokenize.CorePorterStemmer() if use_stemmer else None

    def tokenize(self, text: Any) -> list[str]:
        return _tokenize.tokenize(text, self._stemmer)
