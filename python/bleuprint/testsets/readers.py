"""Raw test-set files -> the lines of each text field, as sacrebleu 2.6.0 writes them.

Each reader returns the final lines (no newline), ready to be written one per line. The
rules below reproduce sacrebleu's output byte for byte, quirks included, because a cache
made by either tool must serve the other: WMT XML keeps only segments with a non-empty
reference; fake SGML reads ``<seg`` lines textually (entities stay escaped) and projects
``<doc`` attributes onto segments; plain text and TSV keep lines as they are, minus
trailing whitespace (TSV: minus the newline).
"""

from __future__ import annotations

import gzip
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

from bleuprint.testsets.errors import RawFormatError

_SEG_OPEN = "<seg"
_SEG_CLOSE = "</seg>"


def read_text(path: Path) -> str:
    """A raw file's text: UTF-8, gzip-compressed when its name ends in ``.gz``."""
    data = path.read_bytes()
    if path.name.endswith(".gz"):
        data = gzip.decompress(data)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RawFormatError(
            f"{path} is not valid UTF-8 ({e}); delete it so that it is downloaded again"
        ) from None


def lines(text: str) -> Iterator[str]:
    """Lines split at ``\\n`` only (``\\r`` and other breaks stay inside a line)."""
    parts = text.split("\n")
    if parts[-1] == "":
        parts.pop()
    yield from parts


def collapse_whitespace(text: str) -> str:
    """Strip both ends and turn each whitespace run into one space (Unicode whitespace)."""
    return " ".join(text.split())


# -- fake SGML (WMT08-WMT20) and IWSLT XML: line-based, never parsed as markup ---------------


def _seg_content(line: str) -> str:
    """A ``<seg ...>`` line without its tags: text between the first ``>`` and the last
    ``</seg>``, followed by whatever trails that ``</seg>``; the line unchanged when the
    segment does not close on it."""
    close = line.rfind(_SEG_CLOSE)
    open_end = line.find(">", len(_SEG_OPEN))
    if close < 0 or open_end < 0 or open_end >= close:
        return line
    return line[open_end + 1 : close] + line[close + len(_SEG_CLOSE) :]


def sgml_segments(path: Path) -> list[str]:
    """The segments of a fake-SGML/IWSLT file: one per line that starts with ``<seg ``."""
    return [
        collapse_whitespace(_seg_content(line))
        for line in lines(read_text(path))
        if line.startswith("<seg ")
    ]


def sgml_doc_attribute(path: Path, attribute: str) -> list[str]:
    """A ``<doc>`` attribute repeated for each of the document's segments.

    The value is that of the first ``attribute="..."`` on the ``<doc `` line; a document
    without one inherits the previous document's value ("" before the first).
    """
    pattern = re.compile(re.escape(attribute) + '="([^"\n]*)"')
    value = ""
    values: list[str] = []
    for line in lines(read_text(path)):
        if line.startswith("<doc "):
            found = pattern.search(line)
            if found is not None:
                value = found.group(1)
        elif line.startswith("<seg "):
            values.append(value)
    return values


def lines_with_ends(text: str) -> list[str]:
    """Lines split at ``\\n`` only, each keeping its ``\\n`` (the last may have none)."""
    parts = text.split("\n")
    out = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def doc_line_attribute(line: str, attribute: str) -> str:
    """sacrebleu's ``--origlang``/``--subset`` lookup on a ``<doc`` line (newline included):
    the last non-empty ``attribute="..."``, or the whole line when there is none or when
    the line has no newline."""
    if not line.endswith("\n"):
        return line
    found = re.findall(" " + re.escape(attribute) + '="([^"]+)"', line[:-1])
    return found[-1] if found else line


# -- plain text and TSV --------------------------------------------------------------------


def plain_lines(path: Path) -> list[str]:
    """Each line without trailing whitespace."""
    return [line.rstrip() for line in lines(read_text(path))]


def addition_lines(path: Path) -> list[str]:
    """WMT "addition" references: fake SGML for ``.sgm`` files, plain text otherwise."""
    if path.name.endswith(".sgm"):
        return sgml_segments(path)
    return plain_lines(path)


def tsv_column(path: Path, column: int) -> list[str]:
    """Column ``column`` (0-based) of a tab-separated file, kept verbatim (``\\r`` too)."""
    out: list[str] = []
    for number, line in enumerate(lines(read_text(path)), 1):
        cells = line.split("\t")
        if column >= len(cells):
            raise RawFormatError(
                f"{path}:{number} has {len(cells)} tab-separated columns, need column {column}"
            )
        out.append(cells[column])
    return out


def tsv_spec(spec: str, field: str) -> tuple[int, str]:
    """A registry TSV spec "COLUMN:PATH" -> (column, path); a bare path is src=0, ref=1."""
    head, sep, tail = spec.partition(":")
    if sep and ":" not in tail:
        try:
            return int(head), tail
        except ValueError:
            raise RawFormatError(f"invalid TSV column in registry spec {spec!r}") from None
    return (0 if field == "src" else 1), spec


# -- WMT XML (WMT21 on) -------------------------------------------------------------------


def _ref_field(translator: str | None) -> str:
    return f"ref:{translator}" if translator else "ref"


def _parse_xml(path: Path) -> ET.Element:
    # Comments and processing instructions stay in the tree, so an element's `.text` ends
    # where one starts, as it does with lxml.
    parser = ET.XMLParser(target=ET.TreeBuilder(insert_comments=True, insert_pis=True))
    try:
        parser.feed(read_text(path))
        return parser.close()
    except ET.ParseError as e:
        raise RawFormatError(f"{path} is not well-formed XML ({e})") from None


def _segments(element: ET.Element, path: Path, pattern: str = ".//seg") -> dict[int, str]:
    out: dict[int, str] = {}
    for seg in element.findall(pattern):
        seg_id = seg.get("id")
        try:
            number = int(seg_id)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise RawFormatError(f"{path}: a <seg> has id {seg_id!r}, not a number") from None
        out[number] = seg.text or ""
    return out


def _doc_attribute(doc: ET.Element, name: str, path: Path) -> str:
    value = doc.get(name)
    if value is None:
        raise RawFormatError(f"{path}: a <doc> has no {name!r} attribute")
    return value


def wmt_xml_fields(path: Path, *, clean: bool = True) -> dict[str, list[str]]:
    """Every field of a WMT XML file: src, ref[:TRANSLATOR]..., docid, origlang, one field per
    system output, and domain when the documents carry one.

    A segment is kept when at least one translator's reference for it is non-empty; other
    translators contribute "" there. Documents marked ``testsuite`` are skipped.
    """
    root = _parse_xml(path)
    src_langs = {element.get("lang") for element in root.findall(".//src")}
    ref_elements = root.findall(".//ref")
    ref_langs = {element.get("lang") for element in ref_elements}
    if len(src_langs) != 1 or len(ref_langs) != 1:
        raise RawFormatError(
            f"{path} must have one source and one reference language, "
            f"found {len(src_langs)} and {len(ref_langs)}"
        )
    # sacrebleu orders translators as a set iterates (it varies between runs); sorted is stable
    translators = sorted({e.get("translator") or "" for e in ref_elements})
    ref_fields: dict[str, list[str]] = {_ref_field(t): [] for t in translators}
    src: list[str] = []
    docids: list[str] = []
    origlangs: list[str] = []
    domains: list[str | None] = []
    systems: dict[str, list[str]] = {}

    for doc in root.findall(".//doc"):
        if "testsuite" in doc.attrib:
            continue
        sources = _segments(doc, path, ".//src//seg")
        by_translator: dict[str, dict[int, str]] = {}
        for ref in doc.findall(".//ref"):
            by_translator[ref.get("translator") or ""] = _segments(ref, path)
        outputs: dict[str, dict[int, str]] = {}
        for hyp in doc.findall(".//hyp"):
            outputs[hyp.get("system") or ""] = _segments(hyp, path)
        docid = _doc_attribute(doc, "id", path)
        origlang = _doc_attribute(doc, "origlang", path)
        domain = doc.get("domain")

        for seg_id in sorted(sources):
            if not any(segments.get(seg_id, "") for segments in by_translator.values()):
                continue  # no reference for this segment
            for translator in translators:
                text = by_translator.get(translator, {}).get(seg_id, "")
                ref_fields[_ref_field(translator)].append(text)
            src.append(sources[seg_id])
            for system, segments in outputs.items():
                systems.setdefault(system, []).append(segments.get(seg_id, ""))
            docids.append(docid)
            origlangs.append(origlang)
            domains.append(domain)

    fields: dict[str, list[str]] = {"src": src, **ref_fields, "docid": docids}
    fields["origlang"] = origlangs
    fields.update(systems)
    # sacrebleu writes a domain field when the last kept segment's document has a domain
    if domains and domains[-1] is not None:
        fields["domain"] = [d or "" for d in domains]
    if not clean:  # the attribute values as they are, for --origlang/--subset matching
        return fields
    return {name: [collapse_whitespace(v) for v in values] for name, values in fields.items()}
