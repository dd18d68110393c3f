"""rouge-score 0.1.2's ``rouge_score.tokenize``: ``tokenize(text, stemmer)``.

The text is lowercased and split into runs of ``[a-z0-9]`` by bleuprint's core (the tokenizer
of :class:`bleuprint.ROUGE`), token for token rouge-score's. A stemmer that is nltk's
``PorterStemmer`` (its default ``NLTK_EXTENSIONS`` mode) or this package's
(``tokenizers.DefaultTokenizer(use_stemmer=True)``) stems in the core too; any other object
with a ``stem(word)`` method is called on every token longer than 3 characters, as
rouge-score calls it.
"""

from __future__ import annotations

import re
from typing import Any, Optional, cast

from bleuprint.errors import InvalidOptionError
from bleuprint.metrics.rouge import ROUGE

NON_ALPHANUM_PATTERN = r"[^a-z0-9]+"
NON_ALPHANUM_RE = re.compile(NON_ALPHANUM_PATTERN)
SPACES_PATTERN = r"\s+"
SPACES_RE = re.compile(SPACES_PATTERN)
VALID_TOKEN_PATTERN = r"^[a-z0-9]+$"
VALID_TOKEN_RE = re.compile(VALID_TOKEN_PATTERN)

# The only characters outside ASCII whose str.lower() holds an ASCII letter or digit
# ("İ" -> "i̇", the Kelvin sign -> "k"). rouge-score lowercases bytes as bytes (ASCII only)
# before decoding them, so in text given as bytes they separate tokens.
_LOWERING_TO_ASCII = str.maketrans({"\u0130": " ", "\u212a": " "})

#: One tokenizing metric per stemming setting, made on first use.
_METRICS: dict[bool, ROUGE] = {}


def ensure_str(s: Any) -> str:
    """``six.ensure_str`` (as rouge-score calls it): a str as it is, bytes decoded as UTF-8,
    anything else a ``TypeError``."""
    if isinstance(s, str):
        return s
    if isinstance(s, bytes):
        return s.decode("utf-8", "strict")
    raise TypeError(f"not expecting type '{type(s)}'")


def text_of_bytes(text: bytes) -> str:
    """What rouge-score tokenizes for ``text`` given as bytes (lowercased as bytes, then
    decoded), as a str that bleuprint's tokenizer splits the same way."""
    return ensure_str(text.lower()).translate(_LOWERING_TO_ASCII)


def core_tokens(texts: list[str], stem: bool) -> list[list[str]]:
    """rouge-score's tokens of each text, from the core: lowercased, runs of ``[a-z0-9]``,
    and with ``stem`` nltk's Porter stemmer on tokens longer than 3 characters."""
    metric = _METRICS.get(stem)
    if metric is None:
        metric = _METRICS[stem] = ROUGE(["rouge1"], use_stemmer=stem)
    return [cast("list[str]", list(tokens)) for tokens in metric.tokenize(texts)]


def stems_in_core(stemmer: Any) -> bool:
    """Whether ``stemmer`` is nltk's Porter stemmer in its default mode (or this package's,
    which stands for it): the core's stemmer gives its stems."""
    if type(stemmer) is CorePorterStemmer:
        return True
    cls = type(stemmer)
    return (
        cls.__module__ == "nltk.stem.porter"
        and cls.__name__ == "PorterStemmer"
        and getattr(stemmer, "mode", None) == "NLTK_EXTENSIONS"
        and "stem" not in getattr(stemmer, "__dict__", {})
    )


class CorePorterStemmer:
    """nltk's ``PorterStemmer()`` as ``tokenizers.DefaultTokenizer(use_stemmer=True)`` holds
    it: tokenizing with it stems in the core. Its own ``stem(word)`` is nltk's, for callers
    that stem words themselves (it needs nltk)."""

    mode = "NLTK_EXTENSIONS"

    def __init__(self) -> None:
        self._nltk: Optional[Any] = None

    def stem(self, word: str, to_lowercase: bool = True) -> str:
        if self._nltk is None:
            try:
                from nltk.stem import porter  # type: ignore[import-untyped, unused-ignore]
            except ImportError:
                raise InvalidOptionError(
                    "stem() of a single word is nltk's PorterStemmer.stem: pip install nltk "
                    "(tokenizing with this stemmer needs no nltk)"
                ) from None
            self._nltk = porter.PorterStemmer()
        return str(self._nltk.stem(word, to_lowercase=to_lowercase))

    def __repr__(self) -> str:
        return "<PorterStemmer>"


def tokenize(text: Any, stemmer: Any) -> list[str]:
    """Tokenize input text into a list of tokens.

    This approach aims to replicate the approach taken by Chin-Yew Lin in the original ROUGE
    implementation.

    Args:
      text: A text blob to tokenize.
      stemmer: An optional stemmer.

    Returns:
      A list of string tokens extracted from input text.
    """
    if isinstance(text, bytes):
        text = text_of_bytes(text)
    elif not isinstance(text, str):
        text = ensure_str(text.lower())  # rouge-score's errors for what is not text
    if not stemmer:
        return core_tokens([text], False)[0]
    if stems_in_core(stemmer):
        return core_tokens([text], True)[0]
    # Another stemmer: rouge-score's loop on the core's tokens (every run of [a-z0-9], as
    # rouge-score's split leaves them).
    tokens = [
        ensure_str(stemmer.stem(x)) if len(x) > 3 else x for x in core_tokens([text], False)[0]
    ]
    # One final check to drop any empty or invalid tokens.
    return [x for x in tokens if VALID_TOKEN_RE.match(x)]
