"""Reading the command line's inputs: files and standard input, line by line as sacrebleu does.

Files are read like sacrebleu's ``open(path, encoding=..., newline="\\n")``: only ``\\n`` ends a
line (``\\r``, U+2028 and other separators stay inside it), a final newline does not add an
empty line, and every line is ``rstrip()``-ed, which also removes the ``\\r`` of CRLF files.
Standard input is read with universal newlines (``\\r``, ``\\r\\n`` and ``\\n`` all end a line)
like sacrebleu's ``io.TextIOWrapper(sys.stdin.buffer)``.

One deliberate difference from sacrebleu: a leading byte order mark (U+FEFF) is removed from
every input. sacrebleu keeps it as part of the first segment, which changes that segment's
tokens and therefore the score.

UTF-8 files take the fast path, :func:`bleuprint._core.read_lines` (Rust; the parse runs
without the GIL). Other encodings (``-e``) and gzip-compressed files (``*.gz``) are decoded by
Python with the same rules.
"""

from __future__ import annotations

import codecs
import os
from typing import BinaryIO, Union

from bleuprint import _core
from bleuprint.errors import InputDecodeError

__all__ = ["decode_bytes", "is_utf8", "read_lines", "read_stream_lines", "split_lines"]

_BOM = "\ufeff"


def is_utf8(encoding: str) -> bool:
    """True when ``encoding`` names plain UTF-8 (``utf-8``, ``UTF8``, ``utf_8``, ...).

    Raises
    ------
    LookupError
        For an unknown encoding name.
    """
    return codecs.lookup(encoding).name == "utf-8"


def decode_bytes(data: bytes, encoding: str, name: str) -> str:
    """Decodes ``data`` strictly and drops a leading byte order mark.

    Raises
    ------
    InputDecodeError
        Naming ``name``, the byte offset and line of the first undecodable byte.
    """
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        raise InputDecodeError(_decode_message(data, encoding, name, e)) from None
    return text[1:] if text.startswith(_BOM) else text


def _decode_message(data: bytes, encoding: str, name: str, e: UnicodeDecodeError) -> str:
    where = f"byte offset {e.start}"
    if "\n".encode(encoding) == b"\n":  # line numbers only where b"\n" is the newline
        try:
            where += f" (line {data[: e.start].decode(encoding).count(chr(10)) + 1})"
        except UnicodeDecodeError:
            pass
    bad = " ".join(f"0x{b:02x}" for b in data[e.start : min(e.end, e.start + 4)])
    what = "UTF-8" if is_utf8(encoding) else encoding
    return f"{name}: invalid {what} at {where}: {bad}"


def split_lines(text: str) -> list[str]:
    """Splits on ``\\n`` only, drops the empty piece after a final newline, rstrips each line."""
    if not text:
        return []
    if text.endswith("\n"):
        text = text[:-1]
    return [line.rstrip() for line in text.split("\n")]


def read_lines(path: Union[str, os.PathLike], encoding: str = "utf-8") -> list[str]:
    """The right-stripped lines of a text file, as sacrebleu's command line reads them.

    Parameters
    ----------
    path
        The file; a name ending in ``.gz`` is decompressed.
    encoding
        Its text encoding (default UTF-8, which takes the fast Rust path).

    Raises
    ------
    OSError
        When the file cannot be read (including a corrupt ``.gz``).
    InputDecodeError
        When it is not valid text in ``encoding``; the message names the file and byte offset.
    LookupError
        For an unknown encoding name.
    """
    path = os.fspath(path)
    gz = str(path).endswith(".gz")
    if not gz and is_utf8(encoding):
        return _core.read_lines(path)
    if gz:
        import gzip

        try:
            with gzip.open(path, "rb") as f:
                data = f.read()
        except (EOFError, gzip.BadGzipFile) as e:
            raise OSError(f"{path}: not a valid gzip file ({e})") from None
    else:
        with open(path, "rb") as f:
            data = f.read()
    return split_lines(decode_bytes(data, encoding, str(path)))


def read_stream_lines(
    stream: BinaryIO, encoding: str = "utf-8", name: str = "<stdin>"
) -> list[str]:
    """The lines of a binary stream with universal newlines, neither stripped nor split on tabs.

    ``\\r\\n``, ``\\r`` and ``\\n`` each end a line, as in ``io.TextIOWrapper`` with its
    default ``newline=None``; a final line ending does not add an empty line.
    """
    text = decode_bytes(stream.read(), encoding, name)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text:
        return []
    if text.endswith("\n"):
        text = text[:-1]
    return text.split("\n")
