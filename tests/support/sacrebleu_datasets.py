"""sacrebleu's own dataset objects on a cache folder of the test's choosing, and the text files
a dataset's processing writes (to compare sacrebleu's with bleuprint's byte for byte)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import sacrebleu.dataset
import sacrebleu.dataset.base


def sacrebleu_dataset(name: str, root: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A fresh sacrebleu Dataset for ``name`` whose cache is ``root``."""
    monkeypatch.setattr(sacrebleu.dataset.base, "SACREBLEU_DIR", str(root))
    original = sacrebleu.dataset.DATASETS[name]
    return type(original)(
        original.name,
        data=original.data,
        description=original.description,
        citation=original.citation,
        md5=original.md5,
        langpairs=original.langpairs,
        **original.kwargs,
    )


def text_files(outdir: Path) -> dict[str, bytes]:
    """Every processed text file under ``outdir`` (not raw data, not bleuprint's records)."""
    found = {}
    for folder, dirs, files in os.walk(outdir):
        dirs[:] = [d for d in dirs if d != "raw"]
        for name in files:
            if not name.endswith(".bleuprint.json"):
                path = Path(folder, name)
                found[str(path.relative_to(outdir))] = path.read_bytes()
    return found
