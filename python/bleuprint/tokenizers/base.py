"""Tokenizers that run in Python (MeCab, SentencePiece): batched, cached, one per process.

The Rust core tokenizes ``none``, ``13a``, ``intl``, ``char`` and ``zh`` itself. The others
wrap a third-party library; they tokenize whole streams here, remember recent lines in a
bounded cache, and hand the tokenized text to the core, which then only splits on spaces.
MeCab is the exception where its bundled ``libmecab`` loads: the core runs it (``core_tagger``)
and remembers recent lines itself.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Sequence
from threading import Lock
from typing import Any

#: Lines remembered per tokenizer (sacrebleu's lru_cache size), so memory stays bounded.
CACHE_SIZE = 2**16


class ExternalTokenizer(ABC):
    """Base class: ``tokenize_stream`` tokenizes a stream, parsing only lines not in the cache.

    Subclasses set :attr:`name` (the ``tokenize=`` value) and implement
    :meth:`_tokenize_uncached` (a batch of lines, each exactly as sacrebleu's tokenizer
    ``__call__`` returns it) and :meth:`signature`.
    """

    name: str = ""
    #: The tokenizer strips each line itself, so BLEU's ``rstrip()`` before it can be skipped.
    strips_input: bool = False
    #: The model the core runs itself (``_core.MecabTagger``), so that a BLEU kernel made with
    #: it tokenizes and counts in one call; ``None``: the tokens are made here, before the core.
    core_tagger: Any = None

    def __init__(self, cache_size: int = CACHE_SIZE) -> None:
        self._cache: dict[str, str] = {}
        self._cache_size = cache_size
        self._lock = Lock()

    @abstractmethod
    def signature(self) -> str:
        """The ``tok:`` value in signatures (sacrebleu's ``signature()``)."""

    @abstractmethod
    def _tokenize_uncached(self, lines: list[str], workers: int = -1) -> list[str]:
        """Tokenizes lines missing from the cache (``workers`` threads at most)."""

    def __call__(self, line: str) -> str:
        """Tokenizes one line (sacrebleu's tokenizer ``__call__``)."""
        return self.tokenize_stream([line], workers=1)[0]

    def tokenize_stream(self, stream: Sequence[Any], workers: int = -1) -> list[Any]:
        """Tokenizes every ``str`` in ``stream``; other items (``None``) pass through.

        ``workers`` bounds the threads of tokenizers that run in parallel (MeCab).
        """
        if self.core_tagger is not None:  # the core remembers the lines itself
            lines = [item for item in stream if isinstance(item, str)]
            tokens = iter(self.core_tagger.tokenize(lines, workers=workers))
            return [next(tokens) if isinstance(item, str) else item for item in stream]
        with self._lock:
            # Dict lookups at C speed; the rare miss (or non-str item) is sorted out below.
            out: list[Any] = list(map(self._cache.get, stream))
        missing: dict[str, list[int]] = {}
        for i, tokens in enumerate(out):
            if tokens is None:
                line = stream[i]
                if isinstance(line, str):
                    missing.setdefault(line, []).append(i)
                else:
                    out[i] = line
        if not missing:
            return out
        lines = list(missing)
        tokenized = self._tokenize_uncached(lines, workers)
        with self._lock:
            cache = self._cache
            for line, tokens in zip(lines, tokenized):
                for i in missing[line]:
                    out[i] = tokens
                cache[line] = tokens
            # Bounded: drop the oldest entries (dicts keep insertion order).
            excess = len(cache) - self._cache_size
            if excess > 0:
                for line in list(itertools.islice(cache, excess)):
                    del cache[line]
        return out

    def clear_cache(self) -> None:
        """Forgets every remembered line (the next call tokenizes from scratch)."""
        with self._lock:
            self._cache.clear()
        if self.core_tagger is not None:
            self.core_tagger.clear_cache()

    def cache_info(self) -> dict[str, int]:
        """Lines held in the cache and its bound: the core's cache where the core runs the
        tokenizer (BLEU's statistics read it, not this one)."""
        if self.core_tagger is not None:
            info: dict[str, int] = self.core_tagger.cache_info()
            return info
        return {"size": len(self._cache), "max_size": self._cache_size}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.signature()!r})"


def missing_package_error(package: str, extra: str, tokenizer: str) -> ImportError:
    """The ImportError for a tokenizer whose optional package is not installed."""
    return ImportError(
        f"the {tokenizer!r} tokenizer needs the {package!r} package: "
        f"pip install 'bleuprint[{extra}]'"
    )


__all__ = ["CACHE_SIZE", "ExternalTokenizer", "missing_package_error"]
