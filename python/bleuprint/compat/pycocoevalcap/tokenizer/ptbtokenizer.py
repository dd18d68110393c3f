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

import re
from collections.abc import Mapping, Sequence
from typing import Any

from bleuprint.errors import InvalidInputError, InvalidOptionError
from bleuprint.tokenizers.ptb import tokenize_captions

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
_LINE_BREAK = re.compile(f"[{LINE_BREAKS}]")
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
        image_id = [k for k, v in captions_for_image.items() for _ in range(len(v))]
        sentences = [
            c["caption"].replace("\n", " ") for k, v in captions_for_image.items() for c in v
        ]
        if _LINE_BREAK.search("".join(sentences)):
            sentences = self._without_line_breaks(image_id, sentences)
        final_tokenized_captions_for_image: dict[Any, list[str]] = {}
        for k, caption in zip(image_id, tokenize_captions(sentences)):
            final_tokenized_captions_for_image.setdefault(k, []).append(caption)
        return final_tokenized_captions_for_image

    def _without_line_breaks(self, image_id: list[Any], sentences: list[str]) -> list[str]:
        """The captions with line breaks replaced by spaces (``line_breaks="space"``), or an
        error naming the first image with one."""
        for i, sentence in enumerate(sentences):
            found = _LINE_BREAK.search(sentence)
            if found is not None and self.line_breaks == "error":
                raise InvalidInputError(
                    f"a caption of image {image_id[i]!r} contains U+{ord(found.group()):04X}, "
                    "which the Stanford PTB tokenizer reads as a line end: pycocoevalcap would "
                    "split the caption there and give every later caption to the wrong image. "
                    "Use PTBTokenizer(line_breaks='space') to replace such characters with spaces"
                )
        return [_LINE_BREAK.sub(" ", sentence) for sentence in sentences]
