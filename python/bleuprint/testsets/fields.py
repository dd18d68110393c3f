"""A registry entry's language pair -> its field names and their lines, per raw format."""

from __future__ import annotations

from pathlib import Path

from bleuprint.testsets import readers
from bleuprint.testsets.registry import Entry

# fake SGML documents carry these attributes; sacrebleu projects them onto segments (not WMT08)
SGML_META_FIELDS = ("docid", "genre", "origlang")


def raw_file(entry: Entry, langpair: str, rawdir: Path) -> Path:
    """The pair's main raw file: the WMT XML file, or the source file of the other formats."""
    first = entry.raw_paths(langpair)[0]
    if entry.format == "tsv":
        first = readers.tsv_spec(first, "src")[1]
    return rawdir / first


def raw_files(entry: Entry, langpair: str, rawdir: Path) -> list[Path]:
    """Every raw file the pair is read from."""
    paths = entry.raw_paths(langpair)
    if entry.format == "tsv":
        paths = [readers.tsv_spec(p, "src")[1] for p in paths]
    return [rawdir / p for p in dict.fromkeys(paths)]


def _sgml_names(entry: Entry, langpair: str) -> list[str]:
    n_refs = len(entry.raw_paths(langpair)) - 1
    if n_refs < 1:
        raise readers.RawFormatError(f"{entry.name}/{langpair} needs a source and a reference")
    names = ["src", *(["ref"] if n_refs == 1 else [f"ref:{i}" for i in range(n_refs)])]
    if not entry.name.startswith("wmt08"):
        names += SGML_META_FIELDS
    return names


def static_names(entry: Entry, langpair: str) -> list[str] | None:
    """The field names when the registry alone determines them (all but WMT XML), else None."""
    if entry.format == "wmt_xml":
        entry.pair_files(langpair)  # an unknown pair is an error here too
        return None
    if entry.format in ("plain_text", "tsv"):
        entry.pair_files(langpair)
        return ["src", "ref"]
    return _sgml_names(entry, langpair)


def build(entry: Entry, langpair: str, rawdir: Path) -> dict[str, list[str]]:
    """Every field of the pair, in sacrebleu's field order, read from the raw files."""
    paths = entry.raw_paths(langpair)
    if entry.format == "wmt_xml":
        return readers.wmt_xml_fields(rawdir / paths[0])
    if entry.format == "tsv":
        out: dict[str, list[str]] = {}
        for name, spec in zip(("src", "ref"), paths):
            column, path = readers.tsv_spec(spec, name)
            out[name] = readers.tsv_column(rawdir / path, column)
        return out
    if entry.format == "plain_text":
        return {name: readers.plain_lines(rawdir / p) for name, p in zip(("src", "ref"), paths)}
    convert = readers.addition_lines if entry.format == "wmt_addition" else readers.sgml_segments
    names = _sgml_names(entry, langpair)
    text_names = [n for n in names if n not in SGML_META_FIELDS]
    fields = {name: convert(rawdir / p) for name, p in zip(text_names, paths)}
    for name in names[len(text_names) :]:
        fields[name] = readers.sgml_doc_attribute(rawdir / paths[0], name)
    return fields


def reference_names(entry: Entry, langpair: str, names: list[str]) -> list[str]:
    """The fields used as references by default.

    WMT XML: the registry's translators for the pair (in registry order) that the file has;
    other formats: every ``ref`` field.
    """
    allowed = entry.default_refs(langpair)
    if allowed is None:
        return [n for n in names if n.startswith("ref")]
    wanted = [f"ref:{t}" if t else "ref" for t in allowed]
    return [n for n in wanted if n in names]
