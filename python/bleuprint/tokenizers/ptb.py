"""``ptb``: Stanford CoreNLP 3.4.1's Penn Treebank tokenizer as pycocoevalcap 1.2 runs it
(``PTBTokenizer -preserveLines -lowerCase``, then its punctuation list dropped), without Java.

The core runs the jar's own scanner tables. CoreNLP is GPL-licensed and bleuprint Apache-2.0,
so bleuprint ships no copy of them: it reads them from the ``stanford-corenlp-3.4.1.jar`` you
already have (pycocoevalcap's wheel ships it), and refuses any other jar by a checksum of the
tables. It looks for the jar, in order:

1. the ``jar=`` argument of :func:`ptb_tokenizer`;
2. the ``BLEUPRINT_CORENLP_JAR`` environment variable;
3. ``pycocoevalcap/tokenizer/stanford-corenlp-3.4.1.jar`` in the installed pycocoevalcap.

No JVM runs: the jar is only read as a zip file.
"""

from __future__ import annotations

import importlib.machinery
import os
import re
import zipfile
from collections.abc import Callable, Hashable
from pathlib import Path
from threading import Lock
from typing import Union

from bleuprint._core import PtbTokenizer
from bleuprint.errors import InvalidInputError, ModelUnavailableError
from bleuprint.tokenizers.base import ExternalTokenizer

#: The jar's file name, as pycocoevalcap names it.
JAR_NAME = "stanford-corenlp-3.4.1.jar"
#: The scanner's class inside the jar.
LEXER_CLASS = "edu/stanford/nlp/process/PTBLexer.class"
#: The environment variable that names the jar.
JAR_ENV = "BLEUPRINT_CORENLP_JAR"
#: The ``tok:`` value signatures record.
SIGNATURE = "ptb-corenlp-3.4.1"

_loaded: dict[str, PtbTokenizer] = {}
_loaded_lock = Lock()


def find_jar(jar: Union[str, os.PathLike[str], None] = None) -> Path:
    """The CoreNLP 3.4.1 jar to read: ``jar``, ``$BLEUPRINT_CORENLP_JAR`` or pycocoevalcap's.

    Raises :class:`ModelUnavailableError` naming what to install when there is none.
    """
    if jar is not None:
        path = Path(jar)
        where = f"jar={str(jar)!r}"
    elif os.environ.get(JAR_ENV):
        path = Path(os.environ[JAR_ENV])
        where = f"{JAR_ENV}={str(path)!r}"
    else:
        # The path finder, not sys.modules: after the drop-in's install(), `pycocoevalcap`
        # there is bleuprint's package.
        spec = importlib.machinery.PathFinder.find_spec("pycocoevalcap")
        locations = list(spec.submodule_search_locations or []) if spec is not None else []
        for folder in locations:
            path = Path(folder) / "tokenizer" / JAR_NAME
            if path.is_file():
                return path
        raise ModelUnavailableError(
            "the 'ptb' tokenizer reads its tables from Stanford CoreNLP 3.4.1's jar (GPL, so "
            "bleuprint does not ship them), and found none: pip install pycocoevalcap (its "
            f"wheel ships {JAR_NAME}; no Java is needed), or set {JAR_ENV} to the jar's path"
        )
    if not path.is_file():
        raise ModelUnavailableError(f"no CoreNLP jar at {where}: the file does not exist")
    return path


def ptb_tokenizer(jar: Union[str, os.PathLike[str], None] = None) -> PtbTokenizer:
    """The core's PTB tokenizer built from the jar :func:`find_jar` finds, once per jar."""
    path = find_jar(jar)
    key = str(path.resolve())
    with _loaded_lock:
        tokenizer = _loaded.get(key)
        if tokenizer is None:
            try:
                with zipfile.ZipFile(path) as archive:
                    class_file = archive.read(LEXER_CLASS)
            except (OSError, zipfile.BadZipFile, KeyError) as error:
                raise ModelUnavailableError(
                    f"{str(path)!r} is not Stanford CoreNLP 3.4.1's jar: cannot read "
                    f"{LEXER_CLASS} from it ({error})"
                ) from error
            tokenizer = _loaded[key] = PtbTokenizer(class_file)
    return tokenizer


class PTBTokenizer(ExternalTokenizer):
    """``tokenize="ptb"``: each line as pycocoevalcap tokenizes a caption (lowercased, its
    punctuation tokens dropped), on its own (as the jar reads a line followed by a line break;
    :func:`tokenize_captions` reproduces pycocoevalcap's batches, where a rule may read into the
    next caption); signature ``ptb-corenlp-3.4.1``."""

    name = "ptb"

    def __init__(self, jar: Union[str, os.PathLike[str], None] = None) -> None:
        super().__init__()
        self.core = ptb_tokenizer(jar)

    def signature(self) -> str:
        return SIGNATURE

    def _tokenize_uncached(self, lines: list[str], workers: int = -1) -> list[str]:
        return self.core.tokenize(lines, workers=workers)


#: What ``line_breaks=`` accepts: refuse a caption holding a character the jar reads as a line
#: end; replace ``\n`` by a space as pycocoevalcap does and refuse the others; replace all.
LINE_BREAKS = ("error", "newline-space", "space")


def tokenize_captions(
    captions: list[str],
    *,
    line_breaks: str = "error",
    jar: Union[str, os.PathLike[str], None] = None,
    workers: int = -1,
) -> list[str]:
    """The captions as pycocoevalcap's one call of the jar tokenizes them: joined by ``\\n``,
    so that a rule may read past the end of a caption into the next. ``line_breaks``: one of
    :data:`LINE_BREAKS`."""
    return ptb_tokenizer(jar).tokenize_batch(captions, line_breaks=line_breaks, workers=workers)


def caption_error(
    error: InvalidInputError, image_of: Callable[[int], Hashable], fix: str
) -> InvalidInputError:
    """The core's error about ``caption i`` of a :func:`tokenize_captions` call, naming the
    image ``image_of(i)`` instead and ``fix`` as the option that replaces line breaks; ``error``
    itself when it names no caption."""
    found = re.match(r"caption (\d+) ", str(error))
    if found is None:
        return error
    image = image_of(int(found.group(1)))
    message = str(error).replace(found.group(0), f"a caption of image {image!r} ", 1)
    return InvalidInputError(message.replace('line_breaks="space"', fix))


__all__ = [
    "JAR_ENV",
    "JAR_NAME",
    "LINE_BREAKS",
    "PTBTokenizer",
    "SIGNATURE",
    "caption_error",
    "find_jar",
    "ptb_tokenizer",
    "tokenize_captions",
]
