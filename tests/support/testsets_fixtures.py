"""Synthetic raw downloads for every registered test set, in each upstream format.

``downloads(name)`` returns, for each of the test set's URLs, the bytes a server would send:
a tar.gz/tgz/zip archive holding every raw file the registry names, or the raw file itself
(``.ref``, ``.gz``). The files are small but awkward: entities, CDATA, comments, empty and
whitespace-only segments, ``\\r``, tabs, Unicode whitespace, non-ASCII, segments without a
reference, several translators and systems, documents with and without domains, documents
missing attributes, and (WMT18/19) document ids that carry subset annotations.

``place(name, root)`` puts them in a sacrebleu-style cache under ``root`` as sacrebleu's own
download would (downloads in ``NAME/raw/``, archives extracted there), so nothing is fetched.

``carriage_returns=False``: no carriage return inside any segment (line ends may still be
CRLF), for readers that take ``\\r`` for a line end or delete it, as sacrebleu's ``test.sh``
does (``tr -d '\\015'``).

``planted=``: sentence pairs to put at given lines of a language pair's source and first
reference (a :class:`Planted` each), so that a test can check real text at a real position
(sacrebleu's ``test_api.py`` does). Supported where a line is one segment of one raw file:
fake SGML, IWSLT XML, plain text and TSV, not WMT XML.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import tarfile
import zipfile
from functools import cache
from pathlib import Path
from typing import NamedTuple
from xml.sax.saxutils import escape, quoteattr

from bleuprint.testsets.registry import Entry, entries, subsets

N_TSV_ROWS = 7
N_PLAIN_LINES = 9


class Planted(NamedTuple):
    """A sentence pair to put at 1-based line ``line`` of ``langpair``'s source and first
    reference. The other segments of a file with planted lines have no carriage return inside
    (universal-newline reading, as sacrebleu's tests do, would split them and shift lines)."""

    langpair: str
    line: int
    source: str
    reference: str


# Per raw file (its registry spec: a path, or ``COLUMN:path`` for TSV): line -> text.
PlantedLines = dict[str, dict[int, str]]


def _planted_lines(entry: Entry, planted: tuple[Planted, ...]) -> PlantedLines:
    if planted and entry.format == "wmt_xml":
        raise ValueError(f"{entry.name}: planting segments in WMT XML is not supported")
    lines: PlantedLines = {}
    for segment in planted:
        specs = entry.raw_paths(segment.langpair)
        for spec, text in zip(specs[:2], (segment.source, segment.reference)):
            if segment.line < 1 or any(c in text for c in "\t\r\n<&"):
                raise ValueError(f"cannot plant {text!r} at line {segment.line} of {spec}")
            if lines.setdefault(spec, {}).setdefault(segment.line, text) != text:
                raise ValueError(f"two texts planted at line {segment.line} of {spec}")
    return lines


def _sentence(
    tag: str, i: int, *, xml: bool = False, tsv: bool = False, carriage_returns: bool = True
) -> str:
    """Segment ``i`` of file ``tag``: every kind of awkward text, in turn."""
    kinds = [
        f"plain words {tag} {i}",
        f"  leading and\ttabs\t\tand  runs   {i}  ",
        "",
        f"Grüße – 中文 العربية {i} ✓",
        f"a & b < c > d \"quoted\" 'apos' {i}",
        f"carriage\rreturn inside {i}\r",
        f"nbsp\xa0nel\x85ls\u2028ideographic\u3000space {i}",
        f"form\x0cfeed\x0bvertical\x1cfs {i}",
        "   ",
    ]
    text = kinds[i % len(kinds)]
    if xml:  # XML 1.0 forbids these control characters
        text = text.replace("\x0c", " ").replace("\x0b", " ").replace("\x1c", " ")
    if tsv:
        text = text.replace("\t", " ")
    if not carriage_returns:
        text = text.replace("\r", " ")
    return text


# -- fake SGML and IWSLT XML (line-oriented) -------------------------------------------------


def _docids(entry: Entry) -> list[str]:
    annotated = sorted(subsets().get(entry.name, {}))
    return (annotated + ["doc.a", "doc.b", "doc.c", "doc.d"])[:4]


def _sgml(
    entry: Entry, path: str, planted: dict[int, str] | None = None, carriage_returns: bool = True
) -> bytes:
    """One side of a fake-SGML (or IWSLT) test set; every file of an entry has the same
    segment layout, so any two of them pair up. ``planted``: segment number -> its text."""
    tag = os.path.basename(path)
    d = _docids(entry)
    t = [_sentence(tag, i, carriage_returns=carriage_returns and not planted) for i in range(20)]
    wrapper = "refset" if "-ref" in tag or "ref." in tag else "srcset"
    lines = [
        f'<{wrapper} setid="{entry.file_stem}" srclang="any" trglang="any">\n',
        f'<doc sysid="ref" docid="{d[0]}" genre="news" origlang="de">\n',
        "<p>\n",
        f'<seg id="1">{t[0]}</seg>\n',
        f'<seg id="2">{t[1]}</seg>\r\n',
        '<seg id="3"></seg>\n',
        f'  <seg id="4">indented, so not a segment {t[3]}</seg>\n',
        f'<seg id="5">{t[3]} &amp; &lt;kept&gt; &#x4E2D;</seg>\n',
        "</p>\n",
        "</doc>\n",
        f'<doc docid="{d[1]}" genre="speech">\n',
        f'<seg id="6">two <seg id="x">nested</seg> in {t[4]}</seg> trailing text\n',
        f'<seg id="7">unclosed segment {t[5]}\n',
        f'<seg id="8">{t[6]}</seg>\n',
        "</doc>\n",
        f'<doc docid="{d[2]}" origlang="en" genre="g3" origlang="fr">\n',
        f'<seg id="9">{t[7]}</seg>\n',
        f'<seg  id="10">{t[8]}</seg>\n',
        f'<seg id="11" >{t[9]}<b>bold</b></seg><!-- comment -->\n',
        "</doc>\n",
        f'<doc docid="{d[3]}" xoriglang="zz" genre="">\n',
        f'<seg id="12">{t[10]}\t</seg>\n',
        f'<seg id="13">{t[11]}</seg>',  # the last segment line has no newline
    ]
    _plant_segments(lines, planted or {}, path)
    text = "".join(lines)
    if entry.format == "iwslt_xml":
        text = '<?xml version="1.0" encoding="UTF-8"?>\n<mteval>\n' + text + "\n</mteval>\n"
    return text.encode("utf-8")


def _plant_segments(lines: list[str], planted: dict[int, str], path: str) -> None:
    """Replaces the n-th segment line by a plain one holding ``planted[n]``."""
    segment_lines = [i for i, line in enumerate(lines) if line.startswith("<seg ")]
    for number, text in planted.items():
        if number > len(segment_lines):
            raise ValueError(f"{path} has {len(segment_lines)} segments, not {number}")
        i = segment_lines[number - 1]
        end = "\n" if lines[i].endswith("\n") else ""
        lines[i] = f'<seg id="{number}">{text}</seg>{end}'


def _sgml_segment_count(entry: Entry) -> int:
    any_path = entry.raw_paths(next(iter(entry.langpairs)))[0]
    return sum(line.startswith(b"<seg ") for line in _sgml(entry, any_path).split(b"\n"))


# -- plain text and TSV ----------------------------------------------------------------------


def _plain(
    tag: str, n: int, planted: dict[int, str] | None = None, carriage_returns: bool = True
) -> bytes:
    carriage_returns = carriage_returns and not planted
    lines = [_sentence(tag, i, carriage_returns=carriage_returns) for i in range(n)]
    lines[1] += "\r"  # a CRLF line
    for number, text in (planted or {}).items():
        if number > n:
            raise ValueError(f"{tag} has {n} lines, not {number}")
        lines[number - 1] = text
    text = "\n".join(lines)
    if len(tag) % 2:  # some files end without a newline
        text += "\n"
    return text.encode("utf-8")


def _tsv(entry: Entry, path: str, planted: PlantedLines, carriage_returns: bool) -> bytes:
    columns = 1 + max(
        int(spec.split(":")[0]) for lp in entry.langpairs for spec in lp_specs(entry, lp)
    )
    # column -> line -> text, for this file
    in_file = {
        int(spec.split(":")[0]): lines
        for spec, lines in planted.items()
        if spec.split(":", 1)[1] == path
    }
    n_rows = max([N_TSV_ROWS, *(n for lines in in_file.values() for n in lines)])
    table = []
    for i in range(n_rows):
        cells = [str(1000 + i)] * columns
        cr = carriage_returns and not in_file
        cells[-2] = _sentence(f"{path}-src", i, tsv=True, carriage_returns=cr)
        cells[-1] = _sentence(f"{path}-ref", i + 1, tsv=True, carriage_returns=cr)
        table.append(cells)
    table[5][-2:] = ["", ""]  # empty source and reference
    for column, lines in in_file.items():
        for number, text in lines.items():
            table[number - 1][column] = text
    rows = ["\t".join(cells) + ("\r" if i == 3 else "") for i, cells in enumerate(table)]
    return ("\n".join(rows) + "\n").encode("utf-8")


def lp_specs(entry: Entry, langpair: str) -> list[str]:
    return entry.raw_paths(langpair)


# -- WMT XML ---------------------------------------------------------------------------------


def _xml_seg(seg_id: int | str, text: str | None) -> str:
    if text is None:
        return f"<seg id={quoteattr(str(seg_id))}/>"
    return f"<seg id={quoteattr(str(seg_id))}>{escape(text)}</seg>"


def _wmt_xml(entry: Entry, langpair: str, pair_index: int, carriage_returns: bool) -> bytes:
    src_lang, tgt_lang = langpair.split("-")
    refs = entry.default_refs(langpair) or []
    named = sorted(r for r in refs if r)
    translators = list(refs) + ([named[-1][:-1] + chr(ord(named[-1][-1]) + 1)] if named else [])
    systems = ["sysOne", "sys-Two"]
    # domains: on every document, on none, or on all but the last (then sacrebleu omits them)
    domain_mode = pair_index % 3

    def ref_block(translator: str, texts: dict[int, str | None]) -> str:
        attr = f" translator={quoteattr(translator)}" if translator else ""
        segs = "".join(_xml_seg(k, v) for k, v in texts.items())
        return f'<ref lang="{tgt_lang}"{attr}><p>{segs}</p></ref>\n'

    docs = []
    for d in range(3):
        tag = f"{langpair}-doc{d}"
        ids = [3, 1, 2, 4, 5, 6, 7]  # out of order: segments are sorted by id
        src = {
            i: _sentence(tag + "src", i + d, xml=True, carriage_returns=carriage_returns)
            or f"source {i}"
            for i in ids
        }
        src[6] = f"{src[6]} <cdata> & {d}"
        src_segs = "".join(
            f'<seg id="{i}"><![CDATA[{text}]]></seg>' if i == 6 else _xml_seg(i, text)
            for i, text in src.items()
        )
        src_segs += '<seg id="8">before<!-- a comment -->after <b>bold</b> tail</seg>'
        blocks = [f'<src lang="{src_lang}"><p>{src_segs}</p></src>\n']
        for t_index, translator in enumerate(translators):
            if d == 1 and t_index == len(translators) - 1 and len(translators) > 1:
                continue  # a document without the last translator's reference
            texts: dict[int, str | None] = {
                i: _sentence(
                    f"{tag}ref{translator}",
                    i + t_index,
                    xml=True,
                    carriage_returns=carriage_returns,
                )
                for i in ids
            }
            texts[4] = None  # an empty reference: <seg id="4"/>
            texts[5] = "" if t_index else "   "  # whitespace-only for the first translator
            texts[8] = f"ref &amp; {translator}"
            if t_index == 0:
                texts.pop(7)  # segment 7 has a reference from the others only
            blocks.append(ref_block(translator, texts))
        for system in systems:
            segs = "".join(_xml_seg(i, f"{system} says {i}\t{d}") for i in [*ids, 8])
            blocks.append(f'<hyp system="{system}" language="{tgt_lang}"><p>{segs}</p></hyp>\n')
        attrs = f'id="{entry.file_stem}.{d}" origlang="{(src_lang, tgt_lang, "xx")[d]}"'
        if domain_mode == 0 or (domain_mode == 2 and d < 2):
            attrs += f' domain="{("news", "speech", "social")[d]}"'
        docs.append(f"<doc {attrs}>\n{''.join(blocks)}</doc>\n")
    testsuite = (
        f'<doc id="ts" origlang="{src_lang}" testsuite="chall">\n'
        f'<src lang="{src_lang}"><p>{_xml_seg(1, "suite")}</p></src>\n'
        f"{ref_block(translators[0], {1: 'suite ref'})}</doc>\n"
    )
    text = (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<dataset id="{entry.name}">\n<collection id="general">\n'
        + "".join(docs[:2])
        + testsuite
        + docs[2]
        + "</collection>\n</dataset>\n"
    )
    return text.replace("\n", "\r\n").encode("utf-8")


# -- assembling the downloads ----------------------------------------------------------------


def _direct_name(entry: Entry, url: str) -> str:
    return f"{entry.file_stem}.{os.path.basename(url)}"


@cache
def raw_files(
    name: str, planted: tuple[Planted, ...] = (), carriage_returns: bool = True
) -> dict[str, bytes]:
    """Every raw file the registry names for ``name``, by path under the raw folder."""
    entry = entries()[name]
    lines = _planted_lines(entry, planted)
    plain_lines = max([N_PLAIN_LINES, *(n for by_line in lines.values() for n in by_line)])
    files: dict[str, bytes] = {}
    for index, langpair in enumerate(entry.langpairs):
        paths = entry.raw_paths(langpair)
        if entry.format == "wmt_xml":
            files[paths[0]] = _wmt_xml(entry, langpair, index, carriage_returns)
            continue
        for spec in paths:
            if entry.format == "tsv":
                path = spec.split(":", 1)[1]
                files[path] = _tsv(entry, path, lines, carriage_returns)
            elif path_is_sgml(spec, entry):
                files[spec] = _sgml(entry, spec, lines.get(spec), carriage_returns)
            else:  # plain text: alone, or extra references beside SGML
                n = plain_lines if entry.format == "plain_text" else _sgml_segment_count(entry)
                data = _plain(os.path.basename(spec), n, lines.get(spec), carriage_returns)
                files[spec] = gzip.compress(data, mtime=0) if spec.endswith(".gz") else data
    return files


def path_is_sgml(path: str, entry: Entry) -> bool:
    return entry.format in ("fake_sgml", "iwslt_xml") or path.endswith(".sgm")


def _tar_gz(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as gz:
        with tarfile.open(fileobj=gz, mode="w") as tar:
            for path, data in sorted(files.items()):
                info = tarfile.TarInfo(path)
                info.size = len(data)
                info.mode = 0o644
                tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zipped:
        for path, data in sorted(files.items()):
            zipped.writestr(zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0)), data)
    return buffer.getvalue()


@cache
def downloads(
    name: str, planted: tuple[Planted, ...] = (), carriage_returns: bool = True
) -> dict[str, bytes]:
    """URL -> the bytes served for it, for every URL of test set ``name``."""
    entry = entries()[name]
    files = raw_files(name, planted, carriage_returns)
    direct = {_direct_name(entry, url) for url in entry.data}
    members = {p: d for p, d in files.items() if p not in direct}
    out: dict[str, bytes] = {}
    for url in entry.data:
        base = os.path.basename(url)
        if base.endswith((".tar.gz", ".tgz")):
            out[url] = _tar_gz(members)
        elif base.endswith(".zip"):
            out[url] = _zip(members)
        else:
            data = files.get(_direct_name(entry, url))
            if data is None:  # a download no pair reads
                data = _plain(base, 3)
                data = gzip.compress(data, mtime=0) if base.endswith(".gz") else data
            out[url] = data
    return out


def md5s(name: str, planted: tuple[Planted, ...] = (), carriage_returns: bool = True) -> list[str]:
    """The MD5 sums of the synthetic downloads, in URL order."""
    served = downloads(name, planted, carriage_returns)
    return [hashlib.md5(data).hexdigest() for data in served.values()]


def place(
    name: str,
    root: Path,
    *,
    extract: bool = True,
    planted: tuple[Planted, ...] = (),
    carriage_returns: bool = True,
) -> Path:
    """Write ``name``'s downloads into ``root/NAME/raw`` and extract the archives, as a
    finished sacrebleu download leaves them; returns the raw folder."""
    entry = entries()[name]
    raw = root / entry.name / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    for url, data in downloads(name, planted, carriage_returns).items():
        target = raw / _direct_name(entry, url)
        target.write_bytes(data)
        if not extract:
            continue
        if target.name.endswith((".tar.gz", ".tgz")):
            with tarfile.open(target) as tar:
                tar.extractall(raw, filter="data")
        elif target.name.endswith(".zip"):
            with zipfile.ZipFile(target) as zipped:
                zipped.extractall(raw)
    return raw
