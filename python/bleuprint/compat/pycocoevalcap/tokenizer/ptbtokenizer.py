"""pycocoevalcap 1.2's ``tokenizer/ptbtokenizer.py``: :class:`PTBTokenizer`, without Java.

Upstream writes every caption (``\\n`` replaced by a space) to one file, runs Stanford CoreNLP
3.4.1's ``PTBTokenizer -preserveLines -lowerCase`` on it in a JVM, and drops its list of
punctuation tokens from each output line. bleuprint's core runs the same scanner
(:mod:`bleuprint.tokenizers.ptb`, which reads its tables from the jar pycocoevalcap ships) on
the same text, so the captions come back identical, including where a rule reads past the end
of a caption into the next one.

One difference, on purpose: the scanner also ends a line at CR, U+2028, U+2029, vertical tab
and form feed, which upstream leaves in place, so one caption becomes two lines and every
later caption is given to the wrong image without a word. Such a caption raises
:class:`~bleuprint.errors.InvalidInputError` naming its image, unless
``PTBTokenizer(line_breaks="space")`` replaces those characters with spaces.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bleuprint.errors import InvalidInputError, InvalidOptionError
from bleuprint.metrics.scores import gc_paused
from bleuprint.tokenizers.ptb import caption_error, ptb_tokenizer

#: The jar upstream runs (bleuprint reads its scanner tables from it; no JVM starts).
STANFORD_CORENLP_3_4_1_JAR = "stanford-corenlp-3.4.1.jar"

#: The tokens upstream removes from the lowercased output (its bracket names are upper case,
#: so ``-lrb-`` and the others stay, as upstream leaves them).
PUNCTUATIONS = [
    "''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-",
    ".", "?", "!", ",", ":", "-", "--", "...", ";",
]  # fmt: skip

#: Characters the scanner reads as a line end besides ``\\n`` (which upstream replaces).
LINE_BREAKS = "\r\x0b\x0c\u2028\u2029"
#: What ``line_breaks=`` accepts.
LINE_BREAK_CHOICES = ("error", "space")


class PTBTokenizer:
    """Python wrapper of Stanford PTBTokenizer (pycocoevalcap's), run by bleuprint's core."""

    def __init__(self, *, line_breaks: str = "error") -> None:
        if line_breaks not in LINE_BREAK_CHOICES:
            raise InvalidOptionError(
                f"unknown line_breaks {line_breaks!r}; expected 'error' (refuse a caption "
                "holding CR, U+2028, U+2029, vertical tab or form feed) or 'space' (replace "
                "them with spaces)"
            )
        self.line_breaks = line_breaks

    def tokenize(self, captions_for_image: Mapping[Any, Sequence[Any]]) -> dict[Any, list[str]]:
        """Image id to its captions tokenized: ``{id: [{"caption": str}, ...]}`` in,
        ``{id: [str, ...]}`` out, in the same order."""
        # Upstream's `c["caption"].replace("\n", " ")` is the core's `newline-space`.
        mode = "space" if self.line_breaks == "space" else "newline-space"
        try:
            # The core reads the dicts and makes one list per image, none of them cyclic: the
            # collector's passes over every live object while they are made would take longer
            # than making them.
            with gc_paused():
                return ptb_tokenizer().tokenize_images(captions_for_image, line_breaks=mode)
        except InvalidInputError as error:
            fix = "PTBTokenizer(line_breaks='space')"
            raise caption_error(error, _image_of(captions_for_image), fix) from error


def _image_of(captions_for_image: Mapping[Any, Any]) -> Callable[[int], Any]:
    """The image of the ``i``-th caption of the call."""

    def image_of(index: int) -> Any:
        for image, captions in captions_for_image.items():
            if index < len(captions):
                return image
            index -= len(captions)
        return None

    return image_of
