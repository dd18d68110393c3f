"""Test-set objects with sacrebleu 2.6.0's ``Dataset`` interface, over bleuprint's cache.

``DATASETS`` maps each registry name to one of these; the class of each entry carries
sacrebleu's class name for its raw format. Unlike sacrebleu, ``get_files`` checks cached text
files before trusting them (see :mod:`bleuprint.testsets.cache`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bleuprint.testsets import cache, fields, readers
from bleuprint.testsets.registry import Entry, PairFiles, entries


class Dataset:
    """One registered test set (sacrebleu's ``sacrebleu.dataset.base.Dataset``)."""

    def __init__(self, entry: Entry) -> None:
        self.entry = entry
        self.name = entry.name
        self.data = list(entry.data)
        self.description = entry.description
        self.citation = entry.citation
        self.md5 = None if entry.md5 is None else list(entry.md5)
        self.langpairs: dict[str, PairFiles] = entry.langpairs
        self.kwargs: dict[str, Any] = entry.kwargs

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    @property
    def _outdir(self) -> str:
        return str(cache.outdir(self.entry))

    @property
    def _rawdir(self) -> str:
        return str(cache.rawdir(self.entry))

    def maybe_download(self) -> None:
        """Download and extract the raw data unless it is already in the cache."""
        cache.ensure_raw(self.entry, list(self.langpairs))

    @staticmethod
    def _clean(s: str) -> str:
        return readers.collapse_whitespace(s)

    def _get_tarball_filename(self, url: str) -> str:
        return cache.download_name(self.entry, url)

    def _get_txt_file_path(self, langpair: str, fieldname: str) -> str:
        return str(cache.text_path(self.entry, langpair, fieldname))

    def _get_langpair_metadata(self, langpair: str | None) -> dict[str, PairFiles]:
        if langpair is None:
            return dict(self.langpairs)
        return {langpair: self.entry.pair_files(langpair)}

    def process_to_text(self, langpair: str | None = None) -> None:
        """Write the text files of ``langpair`` (all pairs when None) from the raw files."""
        for pair in self._get_langpair_metadata(langpair):
            cache.rebuild(self.entry, pair)

    def fieldnames(self, langpair: str) -> list[str]:
        return cache.field_names(self.entry, langpair)

    def get_files(self, langpair: str) -> list[str]:
        """The text file of every field, built or rebuilt first where needed."""
        names = cache.prepare(self.entry, langpair)
        return [self._get_txt_file_path(langpair, name) for name in names]

    def get_source_file(self, langpair: str) -> str:
        return self._get_txt_file_path(langpair, cache.prepare(self.entry, langpair)[0])

    def get_reference_files(self, langpair: str) -> list[str]:
        names = cache.prepare(self.entry, langpair)
        refs = fields.reference_names(self.entry, langpair, names)
        return [self._get_txt_file_path(langpair, name) for name in refs]

    def source(self, langpair: str) -> Iterator[str]:
        """The source lines, stripped."""
        for line in _file_lines(Path(self.get_source_file(langpair))):
            yield line.strip()

    def references(self, langpair: str) -> Iterator[tuple[str, ...]]:
        """One tuple per segment: each reference's line, newline included (as sacrebleu)."""
        streams = [_file_lines(Path(f), keep_ends=True) for f in self.get_reference_files(langpair)]
        yield from zip(*streams)


def _file_lines(path: Path, *, keep_ends: bool = False) -> list[str]:
    text = path.read_bytes().decode("utf-8")
    return readers.lines_with_ends(text) if keep_ends else list(readers.lines(text))


class WMTXMLDataset(Dataset):
    """WMT21 and later: one XML file per pair holding source, references and systems."""

    @staticmethod
    def _unwrap_wmt21_or_later(raw_file: str | os.PathLike[str]) -> dict[str, list[str]]:
        return readers.wmt_xml_fields(Path(raw_file), clean=False)

    def _get_langpair_path(self, langpair: str) -> str:
        return str(fields.raw_file(self.entry, langpair, cache.rawdir(self.entry)))

    def _get_langpair_allowed_refs(self, langpair: str) -> list[str]:
        refs = self.entry.default_refs(langpair) or []
        return [f"ref:{r}" if r else "ref" for r in refs]


class FakeSGMLDataset(Dataset):
    """WMT08-WMT20: line-oriented SGML, one file per side."""


class WMTAdditionDataset(FakeSGMLDataset):
    """Extra references for a WMT test set, as SGML or plain text."""


class IWSLTXMLDataset(FakeSGMLDataset):
    """IWSLT17: read like fake SGML."""


class PlainTextDataset(Dataset):
    """Aligned plain-text source and reference files."""


class TSVDataset(Dataset):
    """MTNT: source and reference are columns of one TSV file."""


CLASSES: dict[str, type[Dataset]] = {
    "wmt_xml": WMTXMLDataset,
    "fake_sgml": FakeSGMLDataset,
    "wmt_addition": WMTAdditionDataset,
    "iwslt_xml": IWSLTXMLDataset,
    "plain_text": PlainTextDataset,
    "tsv": TSVDataset,
}

DATASETS: dict[str, Dataset] = {
    name: CLASSES[entry.format](entry) for name, entry in entries().items()
}
