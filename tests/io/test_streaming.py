"""Streaming: ``stats_stream``/``score_stream`` over files, open files and generators, chunk by
chunk, equal (``==``) to the in-memory ``stats``/``corpus_score`` for every metric, chunk size
and reference layout; lazy reading; errors."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import random
import sys
import tracemalloc
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

import bleuprint
from bleuprint.errors import InputDecodeError, InputTypeError, InvalidInputError, InvalidOptionError
from bleuprint.io import line_reader
from bleuprint.io.files import read_lines
from bleuprint.io.streaming import lines_of
from tests.support.data import SAMPLE, wmt22_references
from tests.support.data import read_lines as read_test_lines
from tests.support.laziness import ReadCounter

METRICS = {
    "BLEU": lambda: bleuprint.BLEU(),
    "BLEU-char": lambda: bleuprint.BLEU(tokenize="char", lowercase=True),
    "chrF++": lambda: bleuprint.CHRF(word_order=2),
    "TER": lambda: bleuprint.TER(),
    "WER": lambda: bleuprint.WER(),
}


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


segment = st.text(st.sampled_from("ab c.,é\t"), max_size=12)


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(sorted(METRICS)),
    rows=st.lists(
        st.tuples(segment, segment, st.one_of(st.none(), segment)), min_size=1, max_size=30
    ),
    chunk_size=st.integers(1, 9),
)
def test_streams_equal_the_in_memory_path(name: str, rows: list[Any], chunk_size: int) -> None:
    """Any chunk size, a second reference stream with gaps (None): the same rows and score."""
    hyps = [h for h, _, _ in rows]
    refs = [[r for _, r, _ in rows], [r2 for _, _, r2 in rows]]
    metric = METRICS[name]()
    whole = metric.stats(hyps, refs)
    streamed = metric.stats_stream(iter(hyps), [iter(r) for r in refs], chunk_size=chunk_size)
    assert (streamed.rows == whole.rows).all()
    assert streamed.nrefs == whole.nrefs
    expected = metric.corpus_score(hyps, refs)
    got = metric.score_stream((h for h in hyps), refs, chunk_size=chunk_size)
    assert got.score == expected.score
    assert str(got) == str(expected)


def test_files_are_read_as_the_command_line_reads_them(tmp_path: Path) -> None:
    """Paths (plain and .gz) and open files: lines split on \\n and right-stripped."""
    hyps = read_test_lines(SAMPLE / "sys.fair.en")
    refs = read_test_lines(SAMPLE / "ref.A.en")
    raw = "".join(f"{h}  \r\n" if k % 2 else f"{h}\n" for k, h in enumerate(hyps))
    plain = tmp_path / "hyp.txt"
    plain.write_bytes(raw.encode())
    packed = tmp_path / "ref.txt.gz"
    with gzip.open(packed, "wt", encoding="utf-8") as f:
        f.write("\n".join(refs))  # no final newline
    bleu = bleuprint.BLEU()
    expected = bleu.corpus_score(read_lines(plain), [read_lines(packed)])
    assert read_lines(plain) == hyps
    assert bleu.score_stream(plain, [packed], chunk_size=7).score == expected.score
    assert bleu.score_stream(str(plain), [str(packed)]).score == expected.score
    with open(plain, "rb") as binary, open(SAMPLE / "ref.A.en", encoding="utf-8") as text:
        assert bleu.score_stream(binary, [text], chunk_size=11).score == expected.score
    assert bleu.score_stream(io.StringIO(raw), [refs]).score == expected.score


def test_keep_sum_holds_one_row() -> None:
    hyps = read_test_lines(SAMPLE / "sys.poor.en")
    refs = [read_test_lines(SAMPLE / "ref.A.en"), read_test_lines(SAMPLE / "ref.B.en")]
    for metric in (bleuprint.BLEU(), bleuprint.CHRF(), bleuprint.WER()):
        summed = metric.stats_stream(hyps, refs, chunk_size=8, keep="sum")
        assert summed.rows.shape == (1, metric.stats(hyps, refs).rows.shape[1])
        assert (summed.rows[0] == metric.stats(hyps, refs).sum()).all()
        assert summed.score().score == metric.corpus_score(hyps, refs).score
    with pytest.raises(InvalidOptionError, match="keep='sum' needs"):
        bleuprint.TER().stats_stream(hyps, refs, keep="sum")


def test_reading_is_lazy() -> None:
    """Each chunk is counted before the next is read: at most one chunk of text is held."""
    read = ReadCounter()
    lines = read.counted(f"segment {k} of a long stream" for k in range(1000))
    bleu = bleuprint.BLEU()
    read.watch(bleu)
    bleu.stats_stream(lines, [(f"segment {k}" for k in range(1000))], chunk_size=100)
    assert read.seen == [100 * (k + 1) for k in range(10)]


def test_progress_counts_lines() -> None:
    calls: list[tuple[int, Any]] = []
    hyps = ["a b"] * 25
    bleuprint.BLEU().score_stream(
        hyps, [hyps], chunk_size=10, progress=lambda d, t: calls.append((d, t))
    )
    assert calls == [(10, None), (20, None), (25, None)]


def test_errors_name_the_stream() -> None:
    bleu = bleuprint.BLEU()
    with pytest.raises(InvalidInputError, match="hypotheses 3, references\\[0\\] 2 lines"):
        bleu.score_stream(["a", "b", "c"], [["a", "b"]], chunk_size=2)
    with pytest.raises(InvalidOptionError, match="chunk_size must be an int >= 1"):
        bleu.score_stream(["a"], [["a"]], chunk_size=0)
    with pytest.raises(InvalidOptionError, match="keep must be"):
        bleu.stats_stream(["a"], [["a"]], keep="all")
    with pytest.raises(InputTypeError, match="hypotheses must be a file path"):
        bleu.score_stream(3, [["a"]])  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match="references must be a list of reference streams"):
        bleu.score_stream(["a"], "ref.txt")
    with pytest.raises(InvalidInputError, match="references is empty"):
        bleu.score_stream(["a"], [])


def test_other_encodings_are_split_after_decoding(tmp_path: Path) -> None:
    """UTF-16 has zero bytes beside every "\\n": its lines are split as text, not as bytes."""
    hyps = read_test_lines(SAMPLE / "sys.good.en")
    refs = read_test_lines(SAMPLE / "ref.A.en")
    wide = tmp_path / "hyp.utf16"
    wide.write_text("\n".join(hyps) + "\n", encoding="utf-16")
    bleu = bleuprint.BLEU()
    assert read_lines(wide, "utf-16") == hyps
    expected = bleu.corpus_score(hyps, [refs]).score
    assert bleu.score_stream(wide, [refs], chunk_size=9, encoding="utf-16").score == expected


def test_undecodable_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"fine\n\xff broken\n")
    with pytest.raises(
        InputDecodeError, match=r"bad.txt: invalid UTF-8 at byte offset 5 \(line 2\)"
    ):
        bleuprint.BLEU().score_stream(bad, [["a", "b"]])


@pytest.mark.differential
def test_a_wmt22_system_streamed_equals_sacrebleu(wmt22: Path) -> None:
    hyp = wmt22 / "system-outputs" / "generaltest2022.en-de.hyp.Online-B.de"
    refs = wmt22_references(wmt22, "en-de")
    streams = [refs["A"], refs["B"]] if "B" in refs else [refs["A"]]
    expected = sacrebleu.corpus_bleu(read_lines(hyp), [read_lines(r) for r in streams])
    got = bleuprint.BLEU().score_stream(hyp, streams, chunk_size=500)
    assert got.score == expected.score
    chrf = sacrebleu.corpus_chrf(read_lines(hyp), [read_lines(r) for r in streams], word_order=2)
    assert bleuprint.CHRF(word_order=2).score_stream(hyp, streams).score == chrf.score


# --- compressed files --------------------------------------------------------------------------


def _compress(kind: str, data: bytes, small_window: bool = False) -> bytes:
    """``data`` compressed; ``small_window``: with the smallest history the format allows, as
    a decompressor holds one window (xz: the dictionary, zstd: the window) whatever the size
    of the file, and the defaults' windows are larger than these test files."""
    if kind == "gz":
        return gzip.compress(data)
    if kind == "bz2":
        return bz2.compress(data)
    if kind == "xz":
        return lzma.compress(data, preset=0 if small_window else 6)
    zstandard = pytest.importorskip("zstandard")
    if small_window:  # streamed, as zstd writes a pipe: no single-segment frame
        params = zstandard.ZstdCompressionParameters.from_level(3, window_log=17)
        writer = zstandard.ZstdCompressor(compression_params=params).compressobj()
        return writer.compress(data) + writer.flush()
    # Two frames, as zstd writes when appending: both are read.
    cut = len(data) // 3
    compressor = zstandard.ZstdCompressor()
    return compressor.compress(data[:cut]) + compressor.compress(data[cut:])


COMPRESSED = ["gz", "bz2", "xz", "zst", "zstd"]


@pytest.mark.parametrize("kind", COMPRESSED)
def test_compressed_files_round_trip(kind: str, tmp_path: Path) -> None:
    """Every format gives read_lines' lines of the plain file, streamed or read whole."""
    hyps = read_test_lines(SAMPLE / "sys.good.en")
    refs = read_test_lines(SAMPLE / "ref.A.en")
    raw = ("\ufeff" + "".join(f"{h}  \r\n" for h in hyps)).encode("utf-8")
    plain = tmp_path / "hyp.txt"
    plain.write_bytes(raw)
    packed = tmp_path / f"hyp.txt.{kind}"
    packed.write_bytes(_compress(kind, raw))
    assert read_lines(packed) == read_lines(plain) == hyps
    assert list(lines_of(packed, "hypotheses")) == hyps  # the mark removed, as read_lines does
    chrf = bleuprint.CHRF()
    expected = chrf.corpus_score(hyps, [refs])
    assert chrf.score_stream(packed, [refs], chunk_size=5).score == expected.score
    packed_refs = tmp_path / f"ref.{kind}"
    packed_refs.write_bytes(_compress(kind, "\n".join(refs).encode("utf-16")))
    assert read_lines(packed_refs, "utf-16") == refs
    assert chrf.score_stream(hyps, [packed_refs], encoding="utf-16").score == expected.score


@pytest.mark.parametrize("kind", COMPRESSED)
def test_corrupt_compressed_files_name_file_and_format(kind: str, tmp_path: Path) -> None:
    data = _compress(kind, "".join(f"line {k}\n" for k in range(5000)).encode())
    truncated = tmp_path / f"cut.{kind}"
    truncated.write_bytes(data[: len(data) // 2])
    garbage = tmp_path / f"garbage.{kind}"
    garbage.write_bytes(b"plain text, not compressed\n" * 10)
    for path in (truncated, garbage):
        with pytest.raises(
            OSError, match=f"{path.name}: not a valid .* file .*truncated or corrupt"
        ):
            read_lines(path)
        with pytest.raises(OSError, match=f"{path.name}: not a valid"):
            bleuprint.BLEU().score_stream(path, [["x"] * 5000])


def test_zstd_without_zstandard_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if sys.version_info >= (3, 14):
        pytest.skip("Python 3.14 reads .zst with its own compression.zstd")
    path = tmp_path / "hyp.zst"
    path.write_bytes(b"\x28\xb5\x2f\xfd")
    monkeypatch.setitem(sys.modules, "zstandard", None)  # import zstandard raises ImportError
    with pytest.raises(
        ImportError, match=r"hyp.zst: .*'zstandard' package: pip install 'bleuprint\[zstd\]'"
    ):
        read_lines(path)


@pytest.mark.parametrize("kind", COMPRESSED)
def test_compressed_streams_are_decompressed_incrementally(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Streaming a compressed file takes memory that does not grow with its size: it is
    decompressed as it is read, never whole. Four times the lines, about the same peak."""
    # Files are read a block at a time; small blocks let small files show the bound.
    monkeypatch.setattr(line_reader, "BLOCK_SIZE", 1 << 14)
    words = [f"w{k}" for k in range(3000)]
    draw = random.Random(0)
    bleu = bleuprint.BLEU()

    def peak(n: int) -> int:
        lines = [" ".join(draw.choices(words, k=12)) for _ in range(n)]
        path = tmp_path / f"{n}.{kind}"
        path.write_bytes(_compress(kind, ("\n".join(lines) + "\n").encode(), small_window=True))
        tracemalloc.start()
        try:
            stats = bleu.stats_stream(path, [iter(lines)], chunk_size=500, keep="sum")
            _, top = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert (stats.rows[0] == bleu.stats(lines, [lines]).sum()).all()
        return top

    peak(1000)  # imports and first-call caches, which would count against the first size
    small, large = peak(10000), peak(40000)
    assert large < 2 * small, (small, large)


def test_type_errors_in_long_streams_name_the_position_in_the_stream() -> None:
    """The core counts positions within a chunk; the error names the whole stream's."""
    hyps: list[Any] = [f"h {k}" for k in range(100)]
    hyps[70] = 7
    refs: list[Any] = [f"r {k}" for k in range(100)]
    with pytest.raises(InputTypeError, match=r"hypotheses\[70\] must be str, got int"):
        bleuprint.BLEU().score_stream(hyps, [refs], chunk_size=32)
    hyps[70] = "h"
    refs[45] = None
    with pytest.raises(InvalidInputError, match="segment 45 has no references"):
        bleuprint.TER().score_stream(hyps, [refs], chunk_size=32)


def test_zstd_truncated_in_a_later_frame_or_very_repetitive(tmp_path: Path) -> None:
    """Frames are checked to the end: a cut in the second of two frames is an error, not a
    stream that ends early; and text that compresses ten-thousandfold is still read a bounded
    piece at a time."""
    zstandard = pytest.importorskip("zstandard")
    text = "".join(f"line {k} of a file\n" for k in range(2000)).encode()
    frame = zstandard.ZstdCompressor().compress(text)
    two = tmp_path / "two.zst"
    two.write_bytes(frame + frame[:-7])
    with pytest.raises(OSError, match="two.zst: not a valid zstd file .*ends inside"):
        bleuprint.BLEU().score_stream(two, [[""] * 4000])
    repetitive = tmp_path / "repetitive.zst"
    with open(repetitive, "wb") as raw:
        writer = zstandard.ZstdCompressor(level=3).stream_writer(raw)
        for _ in range(3000):
            writer.write(text)
        writer.close()
    assert repetitive.stat().st_size * 1000 < 3000 * len(text)
    tracemalloc.start()
    try:
        with bleuprint.io.files.open_binary(repetitive) as f:
            while f.read(1 << 20):
                pass
        _, top = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert top < 16 << 20, top


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 300), chunk=st.integers(1, 64))
def test_rows_written_to_an_npy_file_as_they_come(
    tmp_path_factory: pytest.TempPathFactory, n: int, chunk: int
) -> None:
    """rows_file= writes each chunk's rows to an .npy file and returns them memory-mapped:
    equal to the in-memory rows, readable by numpy alone, and a bootstrap on them equals the
    in-memory one."""
    import numpy as np

    hyps = [f"the {k % 7} cat sat {k % 3} on the mat" for k in range(n)]
    refs = [f"the {k % 5} cat sat on {k % 2} mats" for k in range(n)]
    path = tmp_path_factory.mktemp("rows") / "rows.npy"
    bleu = bleuprint.BLEU()
    stats = bleu.stats_stream(hyps, [refs], chunk_size=chunk, rows_file=path)
    expected = bleu.stats(hyps, [refs])
    assert isinstance(stats.rows, np.memmap)
    assert stats == expected
    assert np.array_equal(np.load(path), expected.rows)
    assert stats.score().score == expected.score().score
    table = {"hyp": hyps, "ref": refs}
    assert bleu.stats_table(table, chunk_size=chunk, rows_file=path) == expected


def test_rows_file_needs_rows() -> None:
    with pytest.raises(InvalidInputError, match="rows_file= writes rows: it needs keep='rows'"):
        bleuprint.BLEU().stats_stream(["a"], [["a"]], keep="sum", rows_file="x.npy")


@pytest.mark.parametrize("bad", [3, True, b"rows.npy", None.__class__])
def test_rows_file_must_be_a_path(bad: Any) -> None:
    # open() would take an int as a file descriptor (True is 1: stdout) and write over it.
    with pytest.raises(InputTypeError, match="rows_file must be a file path"):
        bleuprint.BLEU().stats_stream(["a"], [["a"]], rows_file=bad)


def test_a_name_no_file_can_have_is_refused() -> None:
    """A str input is a path; one holding a NUL byte or a lone surrogate gets a bleuprint
    error, not the bare ValueError of open()."""
    with pytest.raises(InvalidInputError, match="is not a file name .*null byte"):
        bleuprint.BLEU().score_stream("hyp\x00.txt", ["ref.txt"])
    with pytest.raises(InvalidInputError, match="is not a file name .*surrogate"):
        bleuprint.CHRF().stats_stream(["a"], ["ref\ud800.txt.gz"])


def test_files_of_long_lines_are_cut_at_the_byte_budget(tmp_path: Path) -> None:
    """Chunks of UTF-8 files hold about ``CHUNK_BYTES`` of text, not ``chunk_size`` lines,
    when lines are long (document-level text): the memory of a stream stays bounded whatever
    its lines' lengths, and the score is the in-memory one."""
    from bleuprint.io.streaming import CHUNK_BYTES, file_chunks

    rng = random.Random(7)
    words = "the cat sat on a mat while dogs ran far away".split()
    # References twice the hypotheses' length: the hypotheses' cut is given back to match.
    hyps = [" ".join(rng.choices(words, k=rng.randint(500, 1500))) for _ in range(600)]
    refs = [" ".join(rng.choices(words, k=rng.randint(1000, 3000))) for _ in range(600)]
    (tmp_path / "hyp").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "ref").write_text("\n".join(refs) + "\n", encoding="utf-8")
    paths = str(tmp_path / "hyp"), [str(tmp_path / "ref")]
    chunks = list(file_chunks(*paths, 65536, "utf-8") or [])
    assert len(chunks) > 3
    for chunk in chunks:
        (ref,) = chunk.references
        assert len(chunk.hypotheses) == len(ref)
        longest = max(len(line) + 1 for line in ref.lines())
        assert len(ref.data) <= CHUNK_BYTES // 2 + line_reader.BLOCK_SIZE + longest
    assert [line for c in chunks for line in c.hypotheses.lines()] == hyps
    for metric in (bleuprint.BLEU(), bleuprint.CHRF(), bleuprint.WER()):
        assert metric.score_stream(*paths).score == metric.corpus_score(hyps, [refs]).score
