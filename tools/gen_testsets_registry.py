#!/usr/bin/env python3
"""Generate python/bleuprint/testsets/registry.json from the installed sacrebleu's DATASETS.

The registry holds facts that test-set handling needs to work: each test set's download URLs
and MD5 sums, its language pairs with their raw file paths, its default references, its
description and citation, and the document annotations (``SUBSETS``) that ``--subset`` reads.
They are read here from sacrebleu itself, so the shipped file agrees with it by construction.

Usage (deterministic; needs the pinned sacrebleu==2.6.0 of pyproject's `test` extra):

    python tools/gen_testsets_registry.py            # writes the JSON file
    python tools/gen_testsets_registry.py --check    # exits 1 if the file is out of date
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import sacrebleu
import sacrebleu.dataset

# The generators' shared command line, found beside this file also when it is loaded by path.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from generated import write_or_check  # noqa: E402

EXPECTED_SACREBLEU_VERSION = "2.6.0"
OUT = Path(__file__).resolve().parents[1] / "python" / "bleuprint" / "testsets" / "registry.json"
# sacrebleu's class name -> the reader that turns that format's raw files into text files
FORMATS = {
    "WMTXMLDataset": "wmt_xml",
    "FakeSGMLDataset": "fake_sgml",
    "WMTAdditionDataset": "wmt_addition",
    "IWSLTXMLDataset": "iwslt_xml",
    "PlainTextDataset": "plain_text",
    "TSVDataset": "tsv",
}


def entry(dataset: Any) -> dict[str, Any]:
    """One registry entry: every attribute sacrebleu's Dataset constructor stores."""
    kind = type(dataset).__name__
    if kind not in FORMATS:
        sys.exit(f"sacrebleu has a dataset class this generator does not know: {kind}")
    return {
        "name": dataset.name,
        "format": FORMATS[kind],
        "data": list(dataset.data),
        "md5": None if dataset.md5 is None else list(dataset.md5),
        "description": dataset.description,
        "citation": dataset.citation,
        "langpairs": dataset.langpairs,
        "kwargs": dataset.kwargs,
    }


def render() -> str:
    if sacrebleu.__version__ != EXPECTED_SACREBLEU_VERSION:
        sys.exit(f"need sacrebleu=={EXPECTED_SACREBLEU_VERSION}, found {sacrebleu.__version__}")
    document = {
        "generated_by": "tools/gen_testsets_registry.py",
        "sacrebleu_version": sacrebleu.__version__,
        "datasets": [entry(d) for d in sacrebleu.dataset.DATASETS.values()],
        "subsets": sacrebleu.dataset.SUBSETS,
    }
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def main() -> None:
    write_or_check(render, OUT, __doc__, Path(__file__).name)


if __name__ == "__main__":
    main()
