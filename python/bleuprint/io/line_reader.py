"""Lines of files and standard input read a block at a time, by the rules of
:mod:`bleuprint.io.files`: the same lines, byte-order-mark removal and decode errors as
``read_lines`` / ``read_stream_lines``, in memory bounded by one block, whatever the file size.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager as ContextManager
from contextlib import nullcontext
from itertools import chain
from typing import Any, BinaryIO, Optional, Union

from bleuprint import _core
from bleuprint.errors import InputDecodeError
from bleuprint.io.files import BinaryReader, decode_message, open_binary, split_lines

#: Bytes read at a time: large enough that per-block costs vanish, small enough that a block's
#: bytes, text and lines (about 10x the block) stay a small part of a run's memory.
BLOCK_SIZE = 1 << 20

_BOM = "\ufeff"


def file_lines(
    path: Union[str, os.PathLike],
    encoding: str = "utf-8",
    *,
    skip: int = 0,
    block_size: Optional[int] = None,
) -> Iterator[str]:
    """The lines of a file as ``read_lines`` gives them (split on ``\\n`` only, right-stripped;
    compressed files decompressed), read ``block_size`` bytes at a time. The first ``skip``
    lines are passed over without being decoded (a shard's start).

    Raises
    ------
    OSError
        When the file cannot be opened or read (a corrupt archive included).
    InputDecodeError
        As ``read_lines``: naming the file, the byte offset and the line.
    """
    return _lines(file_blocks(path, encoding, skip=skip, block_size=block_size))


def _lines(blocks: Iterator[list[str]]) -> Iterator[str]:
    # A generator, not a chain: closing it (or its collection) closes the file at once.
    try:
        for block in blocks:
            yield from block
    finally:
        close = getattr(blocks, "close", None)
        if close is not None:
            close()


def file_blocks(
    path: Union[str, os.PathLike],
    encoding: str = "utf-8",
    *,
    skip: int = 0,
    block_size: Optional[int] = None,
) -> Iterator[list[str]]:
    """:func:`file_lines` as one list of lines per block read (cheaper to pass along than
    line by line)."""
    name = str(os.fspath(path))
    open_binary(name).close()  # a missing file fails now, before any line is asked for
    return _file_blocks(name, encoding, skip, block_size)


def count_lines(path: Union[str, os.PathLike], encoding: str = "utf-8") -> int:
    """How many lines :func:`file_lines` gives for ``path``, counted without decoding where
    the encoding's newline is the byte ``b"\\n"``."""
    name = str(os.fspath(path))
    if "\n".encode(encoding) != b"\n":
        return sum(1 for _ in file_lines(name, encoding))
    count, last, head = 0, b"\n", b""
    with open_binary(name) as f:
        while block := f.read(BLOCK_SIZE):
            count += block.count(b"\n")
            last, head = block[-1:], head or block[:8]
    if count == 0 and head == _bom_bytes(encoding):
        return 0  # a byte order mark alone is no line
    return count + (last != b"\n")  # a last line without a newline counts


def _file_blocks(
    name: str, encoding: str, skip: int, block_size: Optional[int]
) -> Iterator[list[str]]:
    # Opened when the first line is asked for, and closed when the lines end or are dropped.
    with open_binary(name) as f:
        yield from line_blocks(
            f.read, encoding, name, universal=False, skip=skip, block_size=block_size
        )


def stream_lines(
    stream: BinaryIO,
    encoding: str = "utf-8",
    name: str = "<stdin>",
    *,
    block_size: Optional[int] = None,
) -> Iterator[str]:
    """The lines of a binary stream as ``read_stream_lines`` gives them (universal newlines,
    not stripped), read a block at a time."""
    return chain.from_iterable(stream_blocks(stream, encoding, name, block_size=block_size))


def stream_blocks(
    stream: BinaryIO,
    encoding: str = "utf-8",
    name: str = "<stdin>",
    *,
    block_size: Optional[int] = None,
) -> Iterator[list[str]]:
    """:func:`stream_lines` as one list of lines per block read."""
    read = getattr(stream, "read1", stream.read)  # a pipe's read1 returns what has arrived
    return line_blocks(read, encoding, name, universal=True, block_size=block_size)


def line_blocks(
    read: Callable[[int], bytes],
    encoding: str,
    name: str,
    *,
    universal: bool,
    skip: int = 0,
    block_size: Optional[int] = None,
) -> Iterator[list[str]]:
    """Lists of lines, one per block read. ``universal`` ends lines at ``\\r``, ``\\r\\n`` and
    ``\\n`` and keeps them unstripped (standard input); otherwise only ``\\n`` ends a line and
    each line is right-stripped (files). The first ``skip`` lines (of a file) are left out.
    ``block_size`` defaults to :data:`BLOCK_SIZE`."""
    block_size = BLOCK_SIZE if block_size is None else block_size
    if "\n".encode(encoding) == b"\n":
        texts = _ascii_compatible_texts(read, encoding, name, block_size, skip)
    elif skip:  # UTF-16 and the like: lines are found by decoding, so decode and drop them
        blocks = line_blocks(read, encoding, name, universal=universal, block_size=block_size)
        yield from _after(blocks, skip)
        return
    else:
        texts = _decoded_texts(read, encoding, name, block_size)
    first = not skip  # a byte order mark can only begin the first line
    carry = ""  # the unfinished last line of the text so far
    for text, final in texts:
        if first and text:
            text = text[1:] if text.startswith(_BOM) else text
            first = False
        text = carry + text
        if universal and "\r" in text:
            # A "\r" at the end may be the first half of a "\r\n" the next block completes.
            held = "\r" if text.endswith("\r") and not final else ""
            text = text[: len(text) - len(held)].replace("\r\n", "\n").replace("\r", "\n")
            text += held
        parts = text.split("\n")
        carry = "" if final else parts.pop()
        if final and parts[-1] == "":
            parts.pop()  # a final newline does not add an empty line
        if not universal:
            parts = [line.rstrip() for line in parts]
        if parts:
            yield parts
        if final:
            return


def _bom_bytes(encoding: str) -> Optional[bytes]:
    try:
        return _BOM.encode(encoding)
    except UnicodeEncodeError:  # Latin-1 and the like have none
        return None


def _after(blocks: Iterator[list[str]], skip: int) -> Iterator[list[str]]:
    for lines in blocks:
        if skip >= len(lines):
            skip -= len(lines)
            continue
        yield lines[skip:]
        skip = 0


def _ascii_compatible_texts(
    read: Callable[[int], bytes], encoding: str, name: str, block_size: int, skip: int = 0
) -> Iterator[tuple[str, bool]]:
    """Decoded text that ends at a ``b"\\n"`` (or the end), so no character is cut in two;
    decode errors name the byte offset and line in the whole input. The first ``skip`` lines
    are passed over as bytes."""
    pending = b""
    offset = 0  # bytes before `pending`
    newlines = 0  # b"\n" before `pending`
    while skip:
        block = read(block_size)
        if not block:
            return
        found = block.count(b"\n")
        if found < skip:
            skip -= found
            offset += len(block)
            newlines += found
            continue
        cut = 0
        for _ in range(skip):
            cut = block.index(b"\n", cut) + 1
        pending, offset, newlines, skip = block[cut:], offset + cut, newlines + skip, 0
    while True:
        block = read(block_size)
        final = not block
        data = pending + block
        cut = len(data) if final else data.rfind(b"\n") + 1
        if not final and cut == 0:
            pending = data  # no line ends yet: read on
            continue
        whole, pending = data[:cut], data[cut:]
        try:
            text = whole.decode(encoding)
        except UnicodeDecodeError as e:
            raise InputDecodeError(
                decode_message(whole, encoding, name, e, offset=offset, lines=newlines)
            ) from None
        offset += cut
        newlines += whole.count(b"\n")
        yield text, final
        if final:
            return


def _decoded_texts(
    read: Callable[[int], bytes], encoding: str, name: str, block_size: int
) -> Iterator[tuple[str, bool]]:
    """Text of encodings whose newline is not the byte ``b"\\n"`` (UTF-16, UTF-32), decoded
    incrementally so a character cut by a block boundary is completed by the next block."""
    decoder: Any = codecs.getincrementaldecoder(encoding)("strict")
    offset = 0  # bytes before the decoder's buffer
    while True:
        block = read(block_size)
        final = not block
        buffered = decoder.getstate()[0]
        try:
            text = decoder.decode(block, final)
        except UnicodeDecodeError as e:
            data = buffered + block
            raise InputDecodeError(
                decode_message(data, encoding, name, e, offset=offset - len(buffered))
            ) from None
        offset += len(block)
        yield text, final
        if final:
            return


class LineBlock:
    """Whole lines of a UTF-8 file as its bytes: the core splits and strips them itself
    (``metric.stats`` takes blocks in place of lists), so the text never becomes Python
    strings. ``offset`` and ``line`` place the block in its file, for error messages."""

    __slots__ = ("count", "data", "line", "name", "offset")

    def __init__(self, data: bytes, count: int, name: str, offset: int, line: int) -> None:
        self.data, self.count, self.name, self.offset, self.line = data, count, name, offset, line

    def __len__(self) -> int:
        return self.count

    def lines(self) -> list[str]:
        """The block's lines as strings, as :func:`file_lines` gives them; invalid UTF-8
        raises ``InputDecodeError`` naming the file, byte offset and line."""
        try:
            text = self.data.decode("utf-8")
        except UnicodeDecodeError as e:
            message = decode_message(
                self.data, "utf-8", self.name, e, offset=self.offset, lines=self.line
            )
            raise InputDecodeError(message) from None
        return split_lines(text)


class BlockReader:
    """A UTF-8 file (plain or compressed) read as :class:`LineBlock` s of a given number of
    lines (or of about a given number of bytes); a leading byte order mark is dropped, as the
    file readers drop it."""

    def __init__(self, path: Union[str, os.PathLike], skip: int = 0) -> None:
        self.name = str(os.fspath(path))
        open_binary(self.name).close()  # a missing file fails now; it is opened when read
        self._file: Optional[BinaryReader] = None
        self._skip = skip
        # The block read last and where its untaken bytes start; the start of a line that
        # began in earlier blocks is carried as views into those blocks. Lines are cut by
        # offset and joined once per block taken: the bytes are copied once after reading.
        self._buffer = b""
        self._start = 0
        self._carry: list[memoryview] = []
        # Whole lines given back (`give_back`): taken again before any other.
        self._returned = b""
        self._offset = 0  # bytes of the file before the next line taken
        self._line = 0  # lines of the file before the next line taken
        self._done = False
        self._first = True

    @property
    def ended(self) -> bool:
        """Whether every line has been taken."""
        untaken = self._returned or self._carry or self._start < len(self._buffer)
        return self._done and not untaken

    def take(self, n: int, max_bytes: Optional[int] = None) -> LineBlock:
        """The next ``n`` lines (fewer at the end of the file), or fewer once their bytes reach
        about ``max_bytes`` (always at least one line)."""
        if self._first:
            self._read()  # a byte order mark moves the first line's offset
        if self._skip:  # a shard's start, passed over when first read
            skip, self._skip = self._skip, 0
            self._take(skip, None)
        offset, line = self._offset, self._line
        parts: list[memoryview] = []
        count = self._take(n, parts, max_bytes)
        return LineBlock(b"".join(parts), count, self.name, offset, line)

    def give_back(self, block: LineBlock, keep: int) -> LineBlock:
        """``block`` (the block taken last) cut to its first ``keep`` lines; the rest are
        taken again next."""
        if keep >= block.count:
            return block
        cut, _ = _core.line_end(block.data, 0, keep)
        self._returned = block.data[cut:] + self._returned
        self._offset -= len(block.data) - cut
        self._line -= block.count - keep
        return LineBlock(block.data[:cut], keep, self.name, block.offset, block.line)

    def _take(
        self, n: int, parts: Optional[list[memoryview]], max_bytes: Optional[int] = None
    ) -> int:
        """Moves past the next ``n`` lines, adding views of their bytes to ``parts`` (if
        given); stops early once the lines taken hold ``max_bytes``."""
        count, start = 0, self._offset
        if self._returned:
            end, count = _core.line_end(self._returned, 0, n)
            if count < n and end < len(self._returned):  # the file's last line, without \n
                end, count = len(self._returned), count + 1
            self._keep([memoryview(self._returned)[:end]], parts)
            self._returned = self._returned[end:]
            self._line += count
        while count < n:
            room = None if max_bytes is None else max_bytes - (self._offset - start)
            if room is not None and room <= 0 and count:
                break
            end, found = _core.line_end(self._buffer, self._start, n - count)
            if found > 1 and room is not None and end - self._start > room:
                # More bytes than the budget: as many lines as fit at their mean length.
                fit = max(1, found * room // (end - self._start))
                end, found = _core.line_end(self._buffer, self._start, fit)
            if found:
                self._keep([*self._carry, memoryview(self._buffer)[self._start : end]], parts)
                self._carry.clear()
                self._start = end
                self._line += found
                count += found
                continue
            if self._start < len(self._buffer):  # a line that goes on in the next block
                self._carry.append(memoryview(self._buffer)[self._start :])
                self._start = len(self._buffer)
            if self._done:  # a last line without a newline, or nothing
                if self._carry:
                    self._keep(self._carry, parts)
                    self._carry = []
                    self._line += 1
                    count += 1
                break
            self._read()
        return count

    def _keep(self, pieces: list[memoryview], parts: Optional[list[memoryview]]) -> None:
        """Counts ``pieces`` (whole lines) as taken, adding them to ``parts`` (if given)."""
        for piece in pieces:
            self._offset += len(piece)
            if parts is not None:
                parts.append(piece)

    def _read(self) -> None:
        if self._file is None:
            self._file = open_binary(self.name)
        block = self._file.read(BLOCK_SIZE)
        if not block:
            self._done = True
            self._file.close()
        elif self._first and block.startswith(_BOM_UTF8):
            block, self._offset = block[len(_BOM_UTF8) :], self._offset + len(_BOM_UTF8)
        self._first = False
        self._buffer, self._start = block, 0

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


def take_together(
    readers: list[BlockReader],
    n: int,
    max_bytes: int,
    reading: Callable[[str], ContextManager[Any]] = lambda name: nullcontext(),
) -> list[LineBlock]:
    """The next lines of files read in step: as many from each, at most ``n`` and no more
    than fit in about ``max_bytes`` of any one file (lines of many bytes make a chunk of fewer
    lines, so the text held stays bounded whatever its lines' lengths). A file that ends first
    gives fewer, for the caller's length check. Each file is read inside ``reading(name)``
    (the command's messages for read errors)."""
    blocks: list[LineBlock] = []
    for reader in readers:
        with reading(reader.name):
            block = reader.take(n, max_bytes)
        if len(block) < n and not reader.ended:  # cut by the budget: the others follow
            n = len(block)
            blocks = [r.give_back(b, n) for r, b in zip(readers, blocks)]
        blocks.append(block)
    return blocks


_BOM_UTF8 = _BOM.encode()


__all__ = [
    "BLOCK_SIZE",
    "BlockReader",
    "LineBlock",
    "count_lines",
    "file_blocks",
    "file_lines",
    "line_blocks",
    "stream_blocks",
    "stream_lines",
    "take_together",
]
