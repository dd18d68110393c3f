"""Every sacrebleu tokenizer, identical string for string to sacrebleu 2.6.0's.

- Run by the Rust core: ``13a`` (the WMT default), ``intl`` (mteval-v14, Unicode punctuation
  and symbols), ``none`` (pre-tokenized text), ``char`` (one token per character) and ``zh``
  (Chinese).
- Added by bleuprint: ``ptb``, Stanford CoreNLP 3.4.1's Penn Treebank tokenizer as
  pycocoevalcap runs it (lowercased, its punctuation dropped), read from the jar pycocoevalcap
  ships, without Java (:mod:`bleuprint.tokenizers.ptb`).
- Run here, then handed to the core: ``ja-mecab`` (Japanese, ``bleuprint[ja]``),
  ``ko-mecab`` (Korean, ``bleuprint[ko]``), and the SentencePiece ``flores200``,
  ``flores101``, ``spBLEU-1K`` and ``spm`` (``bleuprint[spm]``).

docs/tokenizers.md says which to use for which language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional, Union, cast, overload

from bleuprint import _core
from bleuprint.errors import InvalidOptionError
from bleuprint.io.layout import as_text_sequence, naming_lone_surrogates
from bleuprint.tokenizers.base import ExternalTokenizer
from bleuprint.tokenizers.spm_models import SPM_MODELS

#: Tokenizers the Rust core runs itself.
NATIVE_TOKENIZERS: tuple[str, ...] = tuple(_core.TOKENIZERS)
#: Tokenizers that wrap MeCab.
MECAB_TOKENIZERS = ("ja-mecab", "ko-mecab")
#: Tokenizers that wrap SentencePiece, one per published model.
SPM_TOKENIZERS: tuple[str, ...] = tuple(SPM_MODELS)
#: Every tokenizer name (sacrebleu 2.6.0's list).
TOKENIZERS: tuple[str, ...] = (
    "none", "zh", "13a", "intl", "char", "ja-mecab", "ko-mecab",
    "spm", "flores101", "flores200", "spBLEU-1K",
)  # fmt: skip
#: Tokenizers bleuprint adds to sacrebleu's list (not accepted by the sacrebleu drop-in).
EXTRA_TOKENIZERS: tuple[str, ...] = ("ptb",)
#: Every name :func:`get_tokenizer` and :func:`tokenize` accept.
ALL_TOKENIZERS: tuple[str, ...] = TOKENIZERS + EXTRA_TOKENIZERS
#: Normalizations for ``normalize=``: Unicode's forms (``nfc``, ``nfkc``), openai-whisper
#: 20250625's text normalizers (``whisper-basic``, ``whisper-english``) and the variants of the
#: ``whisper-normalizer`` 0.1.15 package (``whisper-normalizer-english``,
#: ``whisper-normalizer-basic-marks``).
NORMALIZATIONS: tuple[str, ...] = tuple(_core.NORMALIZATIONS)


def check_tokenizer(name: str) -> None:
    """Raises :class:`InvalidOptionError` for an unknown tokenizer name."""
    if name not in TOKENIZERS:
        raise InvalidOptionError(
            f"unknown tokenizer {name!r}; expected one of {', '.join(TOKENIZERS)}"
        )


def check_normalization(form: Optional[str]) -> None:
    """Raises :class:`InvalidOptionError` unless ``form`` is ``None`` or in
    :data:`NORMALIZATIONS`."""
    if form is not None and form not in NORMALIZATIONS:
        raise InvalidOptionError(
            f"unknown normalization {form!r}; expected None or one of {', '.join(NORMALIZATIONS)}"
        )


def normalization_signature(form: str) -> str:
    """``form`` as a signature records it: an upstream's normalizer with the upstream's version
    (``whisper-english@20250625``), a Unicode form by its name."""
    return _core.NORMALIZATION_SIGNATURES[form]


def check_spm_model(name: str, spm_model: Optional[str]) -> None:
    """Raises :class:`InvalidOptionError` for a model file given to a tokenizer that takes none."""
    if spm_model is not None and name not in SPM_TOKENIZERS:
        raise InvalidOptionError(
            f"spm_model is for the {', '.join(SPM_TOKENIZERS)} tokenizers, not {name!r}"
        )


def get_tokenizer(name: str, spm_model: Optional[str] = None) -> Optional[ExternalTokenizer]:
    """The process-wide tokenizer object for ``name``; ``None`` when the Rust core runs it.

    MeCab taggers and SentencePiece models load once per process, on first use.
    """
    if name not in EXTRA_TOKENIZERS:
        check_tokenizer(name)
    check_spm_model(name, spm_model)
    if name in NATIVE_TOKENIZERS:
        return None
    # Start-up time: MeCab's and SentencePiece's modules (and HTTP, for model downloads) load
    # with the first such tokenizer, not with `import bleuprint`.
    from bleuprint.tokenizers.external import external_tokenizer

    return external_tokenizer(name, spm_model)


def tokenizer_signature(name: str, spm_model: Optional[str] = None) -> str:
    """The ``tok:`` value of signatures, as sacrebleu writes it (``ja-mecab-0.996-IPA``)."""
    if name in SPM_TOKENIZERS:
        # Fixed per key, so a signature needs no model (and repeats no rename warning).
        return SPM_MODELS[name]["signature"]
    tokenizer = get_tokenizer(name, spm_model)
    return name if tokenizer is None else tokenizer.signature()


def tokenize_regexp(line: str) -> str:
    """sacrebleu's ``TokenizerRegexp`` on its own: the punctuation passes ``13a`` and ``zh``
    end with, then ``' '.join(line.split())``."""
    (tokenized,) = _core.tokenize("regexp", [line], name="line", workers=1)
    return str(tokenized)


def normalized(
    lines: Sequence[Any], form: str, name: str = "lines", workers: int = -1
) -> list[Any]:
    """Every line normalized by ``form`` (any of :data:`NORMALIZATIONS`); None stays None."""
    return _core.tokenize("none", lines, normalize=form, name=name, workers=workers)


def pretokenize(
    stream: Sequence[Any],
    tokenizer: ExternalTokenizer,
    normalize: Optional[str] = None,
    name: str = "lines",
    workers: int = -1,
) -> list[Any]:
    """``tokenizer(line.rstrip())`` for every line (None passes through), after the optional
    normalization: what BLEU counts for tokenizers that run outside the core. ``name`` names
    the stream in errors."""
    lines = stream
    if normalize is not None:
        lines = normalized(lines, normalize, name, workers)
    if not tokenizer.strips_input:
        lines = [s.rstrip() if isinstance(s, str) else s for s in lines]
    return tokenizer.tokenize_stream(lines, workers)


# A str is itself a Sequence[str]; this first overload wins for it, as at run time.
@overload
def tokenize(  # type: ignore[overload-overlap]
    text: str,
    tokenizer: str = "13a",
    *,
    normalize: Optional[str] = None,
    spm_model: Optional[str] = None,
    workers: int = -1,
) -> str: ...
@overload
def tokenize(
    text: Sequence[str],
    tokenizer: str = "13a",
    *,
    normalize: Optional[str] = None,
    spm_model: Optional[str] = None,
    workers: int = -1,
) -> list[str]: ...
def tokenize(
    text: Union[str, Sequence[str]],
    tokenizer: str = "13a",
    *,
    normalize: Optional[str] = None,
    spm_model: Optional[str] = None,
    workers: int = -1,
) -> Union[str, list[str]]:
    """Tokenizes one string, or a batch of strings in one call.

    Parameters
    ----------
    text
        A string or a sequence of strings.
    tokenizer
        Any name in :data:`ALL_TOKENIZERS` (sacrebleu's, and ``ptb``).
    normalize
        Any of :data:`NORMALIZATIONS` to normalize the text first (``"nfc"``, ``"nfkc"``,
        ``"whisper-basic"``, ``"whisper-english"``, ...); ``None`` (default) leaves it.
    spm_model
        A SentencePiece model file for ``spm``/``flores*``/``spBLEU-1K`` (default: the
        published model, downloaded once and cached).
    workers
        Threads for the Rust tokenizers (``-1``: every core).

    >>> tokenize("Hello, world!")
    'Hello , world !'
    >>> tokenize("中文English混合，测试！", "zh")
    '中 文 English 混 合 ， 测 试 ！'
    """
    check_normalization(normalize)
    external = get_tokenizer(tokenizer, spm_model)
    single = isinstance(text, str)
    lines: Sequence[str] = [text] if isinstance(text, str) else as_text_sequence(text, "text")
    with naming_lone_surrogates([("text", lines)]):
        if external is not None:
            if normalize is not None:
                # Strings in, strings out: only a None passes through as None.
                lines = cast("list[str]", normalized(lines, normalize, "text", workers))
            out = external.tokenize_stream(lines, 1 if single else workers)
        else:
            out = _core.tokenize(
                tokenizer, lines, normalize=normalize, name="text", workers=1 if single else workers
            )
    return out[0] if single else out


__all__ = [
    "ALL_TOKENIZERS",
    "EXTRA_TOKENIZERS",
    "MECAB_TOKENIZERS",
    "NATIVE_TOKENIZERS",
    "NORMALIZATIONS",
    "SPM_TOKENIZERS",
    "TOKENIZERS",
    "ExternalTokenizer",
    "check_normalization",
    "check_spm_model",
    "check_tokenizer",
    "get_tokenizer",
    "normalization_signature",
    "normalized",
    "pretokenize",
    "tokenize",
    "tokenize_regexp",
    "tokenizer_signature",
]
