"""The test-set functions: bleuprint's ``get``/``list_testsets`` and sacrebleu 2.6.0's utils.

The sacrebleu functions keep its signatures and return values; where sacrebleu fails (an
unknown name, ``download_test_set`` without a pair, a WMT22 pair with an overridden
reference) these raise an :class:`~bleuprint.errors.InvalidOptionError` or work instead.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from bleuprint.errors import InputTypeError, InvalidOptionError
from bleuprint.testsets import cache, fields, readers
from bleuprint.testsets.datasets import DATASETS
from bleuprint.testsets.registry import Entry, lookup, subsets

T = TypeVar("T")
METADATA_FIELDS = ("docid", "origlang", "domain", "genre")


@dataclass(frozen=True)
class TestSet:
    """A test set's text for one language pair, ready for ``corpus_score``.

    ``references`` are streams (``references[k][i]`` is reference ``k`` of segment ``i``).
    Lines are read as sacrebleu's command line reads references: split at ``\\n`` and
    stripped of trailing whitespace. Metadata lists are None where the format has none.
    """

    __test__ = False  # not a pytest test class

    name: str
    langpair: str
    sources: list[str]
    references: list[list[str]]
    reference_fields: tuple[str, ...]
    fields: tuple[str, ...]
    docids: list[str] | None = None
    origlangs: list[str] | None = None
    domains: list[str] | None = None
    genres: list[str] | None = None

    def __len__(self) -> int:
        return len(self.sources)


@dataclass(frozen=True)
class TestSetInfo:
    """One line of ``sacrebleu --list``: a test set's name, description and pairs."""

    __test__ = False

    name: str
    description: str
    langpairs: tuple[str, ...]


def _names(test_sets: str) -> list[str]:
    if not isinstance(test_sets, str):
        lookup(test_sets)  # its message names the expected type
    names = test_sets.split(",")
    for name in names:
        lookup(name)
    return names


def _read_lines(path: str) -> list[str]:
    text = Path(path).read_bytes().decode("utf-8")
    return [line.rstrip() for line in readers.lines(text)]


def _get_one(name: str, langpair: str, progress: bool | None) -> TestSet:
    entry = lookup(name)
    names = cache.prepare(entry, langpair, progress=progress)
    refs = fields.reference_names(entry, langpair, names)
    text = {n: _read_lines(str(cache.text_path(entry, langpair, n))) for n in names}
    return TestSet(
        name=name,
        langpair=langpair,
        sources=text["src"],
        references=[text[r] for r in refs],
        reference_fields=tuple(refs),
        fields=tuple(names),
        docids=text.get("docid"),
        origlangs=text.get("origlang"),
        domains=text.get("domain"),
        genres=text.get("genre"),
    )


def _concat(parts: Sequence[list[T] | None]) -> list[T] | None:
    if any(p is None for p in parts):
        return None
    return [x for p in parts if p is not None for x in p]


def get(name: str, langpair: str, *, progress: bool | None = None) -> TestSet:
    """The test set ``name`` (comma-separated names are concatenated, as sacrebleu's ``-t``
    does) for ``langpair``, downloaded and processed on first use."""
    parts = [_get_one(n, langpair, progress) for n in _names(name)]
    if len(parts) == 1:
        return parts[0]
    counts = {len(p.references) for p in parts}
    if len(counts) != 1:
        listing = ", ".join(f"{p.name}: {len(p.references)}" for p in parts)
        raise InvalidOptionError(
            f"cannot concatenate test sets with different numbers of references ({listing}); "
            "score them separately"
        )
    return TestSet(
        name=name,
        langpair=langpair,
        sources=[s for p in parts for s in p.sources],
        references=[[r for p in parts for r in p.references[k]] for k in range(counts.pop())],
        reference_fields=parts[0].reference_fields,
        fields=parts[0].fields,
        docids=_concat([p.docids for p in parts]),
        origlangs=_concat([p.origlangs for p in parts]),
        domains=_concat([p.domains for p in parts]),
        genres=_concat([p.genres for p in parts]),
    )


def list_testsets(langpair: str | None = None) -> list[TestSetInfo]:
    """Every test set (those with ``langpair`` either way round, when given), by name, as
    ``sacrebleu --list [-l PAIR]`` shows them."""
    names = (
        get_available_testsets()
        if langpair is None
        else (get_available_testsets_for_langpair(langpair))
    )
    return [
        TestSetInfo(
            name=n,
            description=(DATASETS[n].description or "").strip(),
            langpairs=tuple(DATASETS[n].langpairs),
        )
        for n in sorted(names)
    ]


# -- sacrebleu.utils ------------------------------------------------------------------------


def download_test_set(test_set: str, langpair: str | None = None) -> list[str]:
    """Download and process a test set; returns its text files (every pair's when
    ``langpair`` is None)."""
    dataset = DATASETS[lookup(test_set).name]
    pairs = list(dataset.langpairs) if langpair is None else [langpair]
    return [f for pair in pairs for f in dataset.get_files(pair)]


def get_source_file(test_set: str, langpair: str) -> str:
    return DATASETS[lookup(test_set).name].get_source_file(langpair)


def get_reference_files(test_set: str, langpair: str) -> list[str]:
    return DATASETS[lookup(test_set).name].get_reference_files(langpair)


def get_files(test_set: str, langpair: str) -> list[str]:
    return DATASETS[lookup(test_set).name].get_files(langpair)


def get_langpairs_for_testset(testset: str) -> list[str]:
    """The test set's pairs; [] for an unknown name."""
    dataset = DATASETS.get(testset)
    return [] if dataset is None else list(dataset.langpairs)


def get_available_testsets() -> list[str]:
    """Every test set name, in reverse alphabetical order."""
    return sorted(DATASETS, reverse=True)


def get_available_testsets_for_langpair(langpair: str) -> list[str]:
    """The test sets that have ``langpair`` in either direction, in registry order."""
    if not isinstance(langpair, str):
        raise InputTypeError(
            f"a language pair is a str such as 'de-en', not {type(langpair).__name__}"
        )
    parts = langpair.split("-")
    if len(parts) < 2:
        raise InvalidOptionError(f"a language pair looks like 'de-en', not {langpair!r}")
    forward, backward = f"{parts[0]}-{parts[1]}", f"{parts[1]}-{parts[0]}"
    return [n for n, d in DATASETS.items() if forward in d.langpairs or backward in d.langpairs]


def _raw_file(entry: Entry, langpair: str) -> Path:
    cache.ensure_raw(entry, [langpair])
    return fields.raw_file(entry, langpair, cache.rawdir(entry))


def _doc_lines(path: Path) -> list[str]:
    return readers.lines_with_ends(readers.read_text(path))


def get_available_origlangs(test_sets: str | None, langpair: str) -> list[str]:
    """The ``origlang`` values of the test sets' documents (WMT XML and SGML), sorted."""
    if test_sets is None:
        return []
    found: set[str] = set()
    for name in test_sets.split(","):
        entry = lookup(name)
        raw = _raw_file(entry, langpair)
        if entry.format == "wmt_xml":
            found |= set(readers.wmt_xml_fields(raw, clean=False)["origlang"])
        elif raw.name.endswith(".sgm"):
            for line in _doc_lines(raw):
                if line.startswith("<doc "):
                    found.add(readers.doc_line_attribute(line, "origlang"))
    return sorted(found)


def get_available_subsets(test_sets: str | None, langpair: str) -> list[str]:
    """The domains (WMT XML) or ``country:XX`` and domain annotations (WMT18/19)."""
    if test_sets is None:
        return []
    found: set[str] = set()
    annotated = subsets()
    for name in test_sets.split(","):
        entry = lookup(name)
        if entry.format == "wmt_xml":
            xml = readers.wmt_xml_fields(_raw_file(entry, langpair), clean=False)
            found |= set(xml.get("domain", []))
        elif name in annotated:
            tags = annotated[name].values()
            found |= {"country:" + t.split("-")[0] for t in tags}
            found |= {t.split("-")[1] for t in tags}
    return sorted(found)


def _origlang_matches(doc_origlang: str, origlang: str | None) -> bool:
    if origlang is None:
        return True
    if origlang.startswith("non-"):
        return doc_origlang != origlang[4:]
    return doc_origlang == origlang


def _keep_flags(name: str, langpair: str, origlang: str | None, subset: str | None) -> list[bool]:
    entry = lookup(name)
    raw = _raw_file(entry, langpair)
    if entry.format == "wmt_xml":
        xml = readers.wmt_xml_fields(raw, clean=False)
        domains: Sequence[str | None] = xml.get("domain") or [None] * len(xml["origlang"])
        flags = []
        for doc_origlang, domain in zip(xml["origlang"], domains):
            keep = _origlang_matches(doc_origlang, origlang)
            if subset is not None and (domain is None or not re.search(subset, domain)):
                keep = False
            flags.append(keep)
        return flags
    if not raw.name.endswith(".sgm"):
        raise InvalidOptionError(
            f"--origlang and --subset need WMT *.xml or *.sgm files; {name} has {raw.name}"
        )
    tags: dict[str, str] = {}
    if subset is not None:
        if name not in subsets():
            raise InvalidOptionError(f"no subset annotation is available for test set {name}")
        tags = subsets()[name]
    flags, keep = [], False
    for line in _doc_lines(raw):
        if line.startswith("<doc "):
            keep = _origlang_matches(readers.doc_line_attribute(line, "origlang"), origlang)
            if subset is not None:
                docid = readers.doc_line_attribute(line, "docid")
                if not re.search(subset, tags.get(docid, "")):
                    keep = False
        if line.startswith("<seg "):
            flags.append(keep)
    return flags


def filter_subset(
    systems: Sequence[Sequence[T]],
    test_sets: str | None,
    langpair: str | None,
    origlang: str | None,
    subset: str | None = None,
) -> Sequence[Sequence[T]] | list[list[T]]:
    """Keep the segments whose document has ``origlang`` ("non-xx" negates) and whose
    domain/annotation matches the regex ``subset`` ("country:XX" for a country)."""
    if origlang is None and subset is None:
        return systems
    if test_sets is None or langpair is None:
        raise ValueError(
            "Filtering for --origlang or --subset needs a test (-t) and a language pair (-l)."
        )
    keep = keep_flags(test_sets, langpair, origlang, subset)
    return [[s for s, k in zip(system, keep) if k] for system in systems]


def keep_flags(
    test_sets: str, langpair: str, origlang: str | None, subset: str | None = None
) -> list[bool]:
    """Per segment of the (concatenated) test sets: whether :func:`filter_subset` keeps it."""
    if subset is not None and subset.startswith("country:"):
        subset = subset[8:]
    return list(
        itertools.chain.from_iterable(
            _keep_flags(n, langpair, origlang, subset) for n in test_sets.split(",")
        )
    )


def print_test_set(
    test_set: str,
    langpair: str,
    requested_fields: Sequence[str],
    origlang: str | None = None,
    subset: str | None = None,
) -> None:
    """Print the requested fields of a test set, tab-separated (``sacrebleu --echo``)."""
    for line in echo_lines(test_set, langpair, requested_fields, origlang, subset):
        print(line)


def echo_lines(
    test_set: str,
    langpair: str,
    requested_fields: Sequence[str],
    origlang: str | None = None,
    subset: str | None = None,
) -> list[str]:
    """The lines :func:`print_test_set` prints: the fields' segments, tab-separated."""
    dataset = DATASETS[lookup(test_set).name]
    names = dataset.fieldnames(langpair)
    files = dataset.get_files(langpair)
    wanted = list(requested_fields)
    if "all" in wanted:
        if len(wanted) != 1:
            raise InvalidOptionError("--echo all cannot be combined with other fields")
        wanted = names
    if "ref" in wanted and "ref" not in names:  # "ref" means the first reference field
        first = min(n for n in names if n.startswith("ref"))
        wanted = [first if w == "ref" else w for w in wanted]
    for w in wanted:
        if w not in names:
            raise InvalidOptionError(
                f"no field {w!r} in test set {test_set} for {langpair}; "
                f"available: {', '.join(names)}"
            )
    columns = [_raw_lines(files[names.index(w)]) for w in wanted]
    rows = filter_subset(columns, test_set, langpair, origlang, subset)
    return ["\t".join(x.rstrip() for x in row) for row in zip(*rows)]


def _raw_lines(path: str) -> list[str]:
    return readers.lines_with_ends(Path(path).read_bytes().decode("utf-8"))


def get_md5sum(dest_path: str) -> str:
    """The MD5 sum of a file, in hex."""
    digest = hashlib.md5()
    with open(dest_path, "rb") as infile:
        for block in iter(lambda: infile.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def extract_tarball(filepath: str, destdir: str) -> None:
    """Unpack a ``.tar.gz``/``.tgz``/``.zip`` file into ``destdir`` (other files: nothing)."""
    if filepath.endswith((".tar.gz", ".tgz", ".zip")):
        cache.extract(Path(filepath), Path(destdir))


def download_file(
    source_path: str,
    dest_path: str,
    extract_to: str | None = None,
    expected_md5: str | None = None,
) -> None:
    """Download ``source_path`` to ``dest_path`` unless it is there already, checking its
    MD5 sum, then unpack it into ``extract_to`` when given."""
    dest = Path(dest_path)
    if dest.is_file() and dest.stat().st_size > 0:
        return
    testset = os.path.relpath(dest.parent.parent, cache.cache_root())
    cache.fetch_function()(source_path, dest, md5=expected_md5, testset=testset, progress=None)
    if extract_to is not None:
        extract_tarball(dest_path, extract_to)
