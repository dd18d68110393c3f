"""The block-at-a-time line reader gives exactly the lines, byte-order-mark handling and
decode errors of the whole-file readers in ``bleuprint.io.files``, for every block size, encoding,
compression and starting line."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuprint.errors import InputDecodeError
from bleuprint.io.files import read_lines, read_stream_lines
from bleuprint.io.line_reader import count_lines, file_lines, stream_lines

# Characters that matter to line splitting and stripping: every newline Python knows, tabs,
# spaces, a byte order mark, multi-byte characters.
PIECES = [
    "a",
    "b",
    " ",
    "\t",
    "\n",
    "\r",
    "\r\n",
    "é",
    "€",
    "😀",
    "\ufeff",
    "\u2028",
    "\x85",
    "\x0b",
]
ENCODINGS = ["utf-8", "utf-16", "utf-16-le", "utf-32", "latin-1", "cp1252"]
COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "": lambda b: b,
    ".gz": gzip.compress,
    ".bz2": bz2.compress,
    ".xz": lzma.compress,
}

texts = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


def _outcome(read: Callable[[], list[str]]) -> Any:
    try:
        return read()
    except InputDecodeError as e:
        return ("InputDecodeError", str(e))


def _encoded(text: str, encoding: str) -> bytes:
    return text.encode(encoding, errors="replace")


@settings(max_examples=300, deadline=None)
@given(
    text=texts,
    bom=st.booleans(),
    encoding=st.sampled_from(ENCODINGS),
    suffix=st.sampled_from(sorted(COMPRESSORS)),
    block=st.integers(1, 9),
    corrupt=st.one_of(st.none(), st.integers(0, 200)),
)
def test_file_lines_equal_read_lines(
    tmp_path_factory: pytest.TempPathFactory,
    text: str,
    bom: bool,
    encoding: str,
    suffix: str,
    block: int,
    corrupt: Any,
) -> None:
    data = _encoded(("\ufeff" if bom else "") + text, encoding)
    if corrupt is not None and encoding in ("utf-8", "utf-16-le"):
        at = corrupt % (len(data) + 1)
        data = data[:at] + b"\xff\xfe\xff" + data[at:]  # invalid in both
    path = tmp_path_factory.mktemp("lines") / f"f.txt{suffix}"
    path.write_bytes(COMPRESSORS[suffix](data))
    whole = _outcome(lambda: read_lines(path, encoding))
    assert _outcome(lambda: list(file_lines(path, encoding, block_size=block))) == whole
    if isinstance(whole, list):
        assert count_lines(path, encoding) == len(whole)
        for skip in range(len(whole) + 2):
            got = list(file_lines(path, encoding, skip=skip, block_size=block))
            assert got == whole[skip:]


@settings(max_examples=300, deadline=None)
@given(
    text=texts,
    bom=st.booleans(),
    encoding=st.sampled_from(ENCODINGS),
    block=st.integers(1, 9),
    corrupt=st.one_of(st.none(), st.integers(0, 200)),
)
def test_stream_lines_equal_read_stream_lines(
    text: str, bom: bool, encoding: str, block: int, corrupt: Any
) -> None:
    data = _encoded(("\ufeff" if bom else "") + text, encoding)
    if corrupt is not None and encoding == "utf-8":
        at = corrupt % (len(data) + 1)
        data = data[:at] + b"\xff" + data[at:]
    whole = _outcome(lambda: read_stream_lines(io.BytesIO(data), encoding))
    got = _outcome(lambda: list(stream_lines(io.BytesIO(data), encoding, block_size=block)))
    assert got == whole


def test_skipping_does_not_decode_the_skipped_lines(tmp_path: Path) -> None:
    # A shard starts after an undecodable line it does not own: no error, right lines; the
    # error of a later line still names its place in the whole file.
    path = tmp_path / "f.txt"
    path.write_bytes(b"ok\n\xff bad\nthird\nfourth \xfe\n")
    lines = file_lines(path, skip=2, block_size=3)
    assert next(lines) == "third"
    with pytest.raises(InputDecodeError, match=r"byte offset 22 \(line 4\)"):
        list(lines)
    assert count_lines(path) == 4


def test_a_missing_file_fails_when_opened(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        file_lines(tmp_path / "missing.txt")  # before any line is asked for


def test_a_truncated_archive_is_an_oserror_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "f.txt.gz"
    path.write_bytes(gzip.compress(b"a\nb\n" * 1000)[:-20])
    with pytest.raises(OSError, match="f.txt.gz"):
        list(file_lines(path))


def test_lines_are_read_a_block_at_a_time(tmp_path: Path) -> None:
    # Only about one block is read ahead of the lines handed out.
    path = tmp_path / "f.txt"
    path.write_bytes(b"".join(b"line %d\n" % i for i in range(100_000)))
    reads: list[int] = []

    class Counting(io.BytesIO):
        def read1(self, size: int = -1, /) -> bytes:
            data = super().read(size)
            reads.append(len(data))
            return data

    lines = stream_lines(Counting(path.read_bytes()), block_size=4096)
    first = [next(lines) for _ in range(10)]
    assert first == [f"line {i}" for i in range(10)]
    assert sum(reads) <= 2 * 4096


@settings(max_examples=200, deadline=None)
@given(
    text=texts,
    bom=st.booleans(),
    take=st.integers(1, 7),
    skip=st.integers(0, 3),
    corrupt=st.one_of(st.none(), st.integers(0, 200)),
)
def test_line_blocks_give_the_lines_and_statistics_of_read_lines(
    tmp_path_factory: pytest.TempPathFactory,
    text: str,
    bom: bool,
    take: int,
    skip: int,
    corrupt: Any,
) -> None:
    """The command line's UTF-8 files go to the core as blocks of bytes: the same lines, the
    same decode errors and the same statistics as the lines read_lines gives."""
    import bleuprint
    from bleuprint.io.line_reader import BlockReader

    data = (("\ufeff" if bom else "") + text).encode()
    if corrupt is not None:
        at = corrupt % (len(data) + 1)
        data = data[:at] + b"\xff" + data[at:]
    path = tmp_path_factory.mktemp("blocks") / "f.txt"
    path.write_bytes(data)
    whole = _outcome(lambda: read_lines(path))
    reader = BlockReader(path, skip=skip)
    blocks = []
    while block := reader.take(take):
        blocks.append(block)
    reader.close()

    def lines() -> list[str]:
        return [line for block in blocks for line in block.lines()]

    if isinstance(whole, list):
        assert lines() == whole[skip:]
        assert [len(b) for b in blocks] == [len(b.lines()) for b in blocks]
        for metric in (bleuprint.BLEU(force=True), bleuprint.CHRF(), bleuprint.TER()):
            for block in blocks:
                assert metric.stats(block, [block]) == metric.stats(block.lines(), [block.lines()])
    elif skip == 0:
        assert _outcome(lines) == whole


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(
        st.text(st.sampled_from(PIECES[:4] + PIECES[7:10] + PIECES[11:]), max_size=6), max_size=14
    ),
    widths=st.lists(st.integers(1, 4), min_size=1, max_size=3),
    take=st.integers(1, 6),
    budget=st.integers(1, 30),
    block_size=st.integers(3, 9),  # the first read holds a byte order mark whole
    newline_at_end=st.booleans(),
    bom=st.booleans(),
    corrupt=st.one_of(st.none(), st.integers(0, 100)),
)
def test_files_taken_together_stay_in_step_within_the_byte_budget(
    tmp_path_factory: pytest.TempPathFactory,
    lines: list[str],
    widths: list[int],
    take: int,
    budget: int,
    block_size: int,
    newline_at_end: bool,
    bom: bool,
    corrupt: Any,
) -> None:
    """``take_together`` (the chunks of ``score_stream`` on files and of the command): files
    with the same number of lines but lines of different lengths give blocks of as many lines
    each round, cut where any file's text reaches the budget; lines given back come again
    first, so every file's lines, line numbers, offsets and decode errors are read_lines'."""
    from bleuprint.io import line_reader

    folder = tmp_path_factory.mktemp("together")
    paths = []
    for k, width in enumerate(widths):  # file k repeats each line `width` times
        text = "\n".join(line * width for line in lines) + ("\n" if newline_at_end else "")
        data = (("\ufeff" if bom else "") + text).encode()
        start = 3 if bom else 0  # a broken byte order mark would be a line of its own
        kept = [i for i, byte in enumerate(data) if i >= start and byte != ord("\n")]
        if corrupt is not None and k == len(widths) - 1 and kept:
            at = kept[corrupt % len(kept)]
            data = data[:at] + b"\xff" + data[at + 1 :]
        paths.append(folder / f"f{k}.txt")
        paths[-1].write_bytes(data)
    wholes = [_outcome(lambda p=p: read_lines(p)) for p in paths]
    longest = max((len(line.encode()) * w + 1 for line in lines for w in widths), default=1)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(line_reader, "BLOCK_SIZE", block_size)
        readers = [line_reader.BlockReader(p) for p in paths]
        got: list[list[Any]] = [[] for _ in paths]
        while True:
            blocks = line_reader.take_together(readers, take, budget)
            assert len({len(b) for b in blocks}) == 1, [len(b) for b in blocks]
            if not blocks[0]:
                break
            assert len(blocks[0]) <= take
            for k, block in enumerate(blocks):
                assert len(block.data) <= budget + block_size + longest
                assert block.line == sum(len(b) for b in got[k])
                got[k].append(block)
        for reader in readers:
            assert reader.ended
            reader.close()
    for k, whole in enumerate(wholes):
        read = _outcome(lambda k=k: [line for b in got[k] for line in b.lines()])
        assert read == whole
