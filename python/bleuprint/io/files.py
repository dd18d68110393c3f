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
without the GIL). Other encodings (``-e``) and compressed files are decoded by Python with the
same rules.

Compressed files are recognised by their name, as sacrebleu's ``smart_open`` recognises
``.gz``: ``.gz`` (gzip), ``.bz2``, ``.xz`` and ``.zst``/``.zstd`` (Zstandard, with the
``zstandard`` package: ``pip install 'bleuprint[zstd]'``; Python 3.14's ``compression.zstd``
where it exists). :func:`open_binary` opens every input this way, decompressing as it is read,
for the command line, the streams and the tables alike.
"""

from __future__ import annotations

import codecs
import io
import os
import sys
from typing import Any, BinaryIO, Optional, Protocol, Union

from bleuprint import _core
from bleuprint.errors import InputDecodeError, InvalidInputError

__all__ = [
    "COMPRESSIONS",
    "BinaryReader",
    "compression_of",
    "decode_bytes",
    "decode_message",
    "is_utf8",
    "open_binary",
    "read_lines",
    "read_stream_lines",
    "split_lines",
]

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
        raise InputDecodeError(decode_message(data, encoding, name, e)) from None
    return text[1:] if text.startswith(_BOM) else text


def decode_message(
    data: bytes,
    encoding: str,
    name: str,
    e: UnicodeDecodeError,
    *,
    offset: int = 0,
    lines: int = 0,
) -> str:
    """The message for an undecodable byte in ``data``, which starts at byte ``offset`` and
    after ``lines`` newlines of the whole input (a block of a file read in blocks)."""
    where = f"byte offset {offset + e.start}"
    if "\n".encode(encoding) == b"\n":  # line numbers only where b"\n" is the newline
        try:
            where += f" (line {lines + data[: e.start].decode(encoding).count(chr(10)) + 1})"
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


#: File name endings that mean a compressed file, and the format each names.
COMPRESSIONS = {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz", ".zst": "zstd", ".zstd": "zstd"}


def compression_of(path: Union[str, os.PathLike]) -> Optional[str]:
    """The compression format named by ``path``'s ending (``"gzip"``, ``"bzip2"``, ``"xz"``,
    ``"zstd"``), or None for a plain file. Case-sensitive, as sacrebleu's ``.gz`` test is."""
    name = os.fspath(path)
    for suffix, kind in COMPRESSIONS.items():
        if name.endswith(suffix):
            return kind
    return None


class BinaryReader(Protocol):
    """What :func:`open_binary` returns: a binary file open for reading (a context manager)."""

    def read(self, size: int = -1, /) -> bytes: ...

    def readline(self, size: int = -1, /) -> bytes: ...

    def __iter__(self) -> Any: ...

    def close(self) -> None: ...

    def __enter__(self) -> Any: ...

    def __exit__(self, *args: Any) -> Any: ...


def open_binary(path: Union[str, os.PathLike]) -> BinaryReader:
    """``path`` opened for reading bytes, decompressed as it is read when its name ends in
    ``.gz``, ``.bz2``, ``.xz``, ``.zst`` or ``.zstd``: memory stays bounded whatever the size.

    Raises
    ------
    OSError
        When the file cannot be opened; while reading, when its compressed data is corrupt or
        truncated (the message names the file and the format).
    ImportError
        For ``.zst``/``.zstd`` without the ``zstandard`` package (before Python 3.14).
    InvalidInputError
        For a name no file can have (a NUL byte, a lone surrogate), where ``open`` raises a
        bare ``ValueError``.
    """
    name = os.fspath(path)
    kind = compression_of(name)
    try:
        if kind is None:
            return open(name, "rb")
        inner, errors = _open_compressed(name, kind)
    except ValueError as error:
        raise InvalidInputError(
            f"{name!r:.60} is not a file name ({error}); pass the file's path, or the lines "
            f"themselves as a list of str"
        ) from None
    raw = _Decompressed(inner, name, kind, errors)
    return io.BufferedReader(raw, buffer_size=1 << 16)


def _open_compressed(path: str, kind: str) -> tuple[Any, tuple[type[BaseException], ...]]:
    """The decompressing file, and the exceptions its corrupt data raises."""
    if kind == "gzip":
        import gzip
        import zlib

        return gzip.open(path, "rb"), (EOFError, gzip.BadGzipFile, zlib.error)
    if kind == "bzip2":
        import bz2

        # bz2 reports corrupt data as a bare OSError ("Invalid data stream").
        return bz2.open(path, "rb"), (EOFError, OSError)
    if kind == "xz":
        import lzma

        return lzma.open(path, "rb"), (EOFError, lzma.LZMAError)
    if sys.version_info >= (3, 14):
        try:
            from compression import zstd  # type: ignore[import-not-found,unused-ignore]
        except ImportError:  # an interpreter built without libzstd
            pass
        else:
            return zstd.open(path, "rb"), (EOFError, zstd.ZstdError)
    try:
        import zstandard
    except ImportError:
        raise ImportError(
            f"{path}: reading Zstandard files (.zst) needs the 'zstandard' package: "
            f"pip install 'bleuprint[zstd]'"
        ) from None
    return _ZstdFrames(open(path, "rb"), zstandard), (EOFError, zstandard.ZstdError)


class _Decompressed(io.RawIOBase):
    """A decompressing file whose corrupt or truncated data raises an ``OSError`` naming the
    file and its format (each library raises its own exception types)."""

    def __init__(
        self, inner: Any, path: str, kind: str, errors: tuple[type[BaseException], ...]
    ) -> None:
        self._inner, self._path, self._kind, self._errors = inner, path, kind, errors

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        try:
            return int(self._inner.readinto(buffer))
        except self._errors as e:
            raise OSError(
                f"{self._path}: not a valid {self._kind} file ({e}); it is truncated or "
                f"corrupt, or its name's ending does not match its format"
            ) from None

    def close(self) -> None:
        if not self.closed:
            self._inner.close()
        super().close()


class _ZstdFrames(io.RawIOBase):
    """Zstandard frames one after another, as ``zstd -d`` reads them, decompressed a bounded
    piece at a time by zstandard's ``stream_reader`` (a step's output is bounded by the read
    size, whatever the compression ratio). That reader ends silently inside a truncated
    frame, so the frames' headers are walked first (:func:`_check_zstd_frames`): a file that
    ends inside a frame is an ``EOFError``, before any line is read."""

    def __init__(self, file: BinaryIO, zstandard: Any) -> None:
        self._file = file
        self._reader = zstandard.ZstdDecompressor().stream_reader(file, read_across_frames=True)
        self._checked = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if not self._checked:
            self._checked = True
            with open(self._file.name, "rb") as headers:
                _check_zstd_frames(headers)
        return int(self._reader.readinto(buffer))

    def close(self) -> None:
        if not self.closed:
            self._reader.close()
            self._file.close()
        super().close()


_ZSTD_MAGIC = 0xFD2FB528
_SKIPPABLE = range(0x184D2A50, 0x184D2A60)


def _check_zstd_frames(f: BinaryIO) -> None:
    """Walks the frame and block headers of a Zstandard file (RFC 8878, sections 3.1.1 and
    3.1.2) without decompressing: ``EOFError`` when the file ends inside a frame. Data that is
    not a frame is left to the decompressor, which reports it."""
    size = os.fstat(f.fileno()).st_size

    def exact(at: int, n: int) -> bytes:
        f.seek(at)
        data = f.read(n)
        if len(data) < n:
            raise EOFError("the file ends inside a Zstandard frame")
        return data

    pos = 0
    while pos < size:
        magic = int.from_bytes(exact(pos, 4), "little")
        if magic in _SKIPPABLE:
            pos += 8 + int.from_bytes(exact(pos + 4, 4), "little")
            continue
        if magic != _ZSTD_MAGIC:
            return
        descriptor = exact(pos + 4, 1)[0]
        single_segment = (descriptor >> 5) & 1
        content_size = (single_segment, 2, 4, 8)[descriptor >> 6]
        pos += 5 + (1 - single_segment) + (0, 1, 2, 4)[descriptor & 3] + content_size
        last = 0
        while not last:
            header = int.from_bytes(exact(pos, 3), "little")
            last, kind, length = header & 1, (header >> 1) & 3, header >> 3
            pos += 3 + (1 if kind == 1 else length)  # an RLE block holds one byte
        pos += 4 * ((descriptor >> 2) & 1)  # the content checksum
    if pos > size:
        raise EOFError("the file ends inside a Zstandard frame")


def read_lines(path: Union[str, os.PathLike], encoding: str = "utf-8") -> list[str]:
    """The right-stripped lines of a text file, as sacrebleu's command line reads them.

    Parameters
    ----------
    path
        The file; a name ending in ``.gz``, ``.bz2``, ``.xz``, ``.zst`` or ``.zstd`` is
        decompressed (sacrebleu reads ``.gz`` the same way, and no other).
    encoding
        Its text encoding (default UTF-8, which takes the fast Rust path).

    Raises
    ------
    OSError
        When the file cannot be read (including corrupt compressed data).
    ImportError
        For a ``.zst`` file without the ``zstandard`` package.
    InputDecodeError
        When it is not valid text in ``encoding``; the message names the file and byte offset.
    LookupError
        For an unknown encoding name.
    """
    path = os.fspath(path)
    if compression_of(path) is None and is_utf8(encoding):
        return _core.read_lines(path)
    with open_binary(path) as f:
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
