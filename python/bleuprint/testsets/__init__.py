"""Built-in test sets: sacrebleu 2.6.0's registry, downloads, cache and functions.

- :func:`get` returns a test set's sources, references and document metadata for one
  language pair; :func:`list` lists the test sets (``sacrebleu --list``).
- The sacrebleu functions (``get_source_file``, ``get_reference_files``, ``filter_subset``,
  ...) keep sacrebleu's signatures and return values.
- The cache is sacrebleu's (``$SACREBLEU``, else ``~/.sacrebleu``), so either tool can use
  what the other downloaded; see ``docs/testsets.md``.
"""

from __future__ import annotations

from bleuprint.testsets.api import (
    TestSet,
    TestSetInfo,
    download_file,
    download_test_set,
    echo_lines,
    extract_tarball,
    filter_subset,
    get,
    get_available_origlangs,
    get_available_subsets,
    get_available_testsets,
    get_available_testsets_for_langpair,
    get_files,
    get_langpairs_for_testset,
    get_md5sum,
    get_reference_files,
    get_source_file,
    keep_flags,
    print_test_set,
)
from bleuprint.testsets.api import list_testsets as list  # noqa: A004 (mirrors `--list`)
from bleuprint.testsets.cache import cache_root
from bleuprint.testsets.datasets import (
    DATASETS,
    Dataset,
    FakeSGMLDataset,
    IWSLTXMLDataset,
    PlainTextDataset,
    TSVDataset,
    WMTAdditionDataset,
    WMTXMLDataset,
)
from bleuprint.testsets.errors import RawFormatError, TestSetError
from bleuprint.testsets.registry import subsets as _subsets

# The cache folder when this module was imported (as sacrebleu's constant); the functions
# read $SACREBLEU at each call.
SACREBLEU_DIR = str(cache_root())
SUBSETS = _subsets()
COUNTRIES = sorted({v.split("-")[0] for v in SUBSETS["wmt19"].values()})
DOMAINS = sorted({v.split("-")[1] for v in SUBSETS["wmt19"].values()})

__all__ = [
    "COUNTRIES",
    "DATASETS",
    "DOMAINS",
    "SACREBLEU_DIR",
    "SUBSETS",
    "Dataset",
    "FakeSGMLDataset",
    "IWSLTXMLDataset",
    "PlainTextDataset",
    "RawFormatError",
    "TSVDataset",
    "TestSet",
    "TestSetError",
    "TestSetInfo",
    "WMTAdditionDataset",
    "WMTXMLDataset",
    "cache_root",
    "download_file",
    "download_test_set",
    "echo_lines",
    "extract_tarball",
    "filter_subset",
    "get",
    "get_available_origlangs",
    "get_available_subsets",
    "get_available_testsets",
    "get_available_testsets_for_langpair",
    "get_files",
    "get_langpairs_for_testset",
    "get_md5sum",
    "get_reference_files",
    "get_source_file",
    "keep_flags",
    "list",
    "print_test_set",
]
