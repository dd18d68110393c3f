"""Where the repository's files and the test data are, and how the tests read them.

The WMT22 release lives in ``../shared/data/wmt22`` beside the repository; tests that need it
take the ``wmt22`` fixture (tests/conftest.py), which skips cleanly where it is absent.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

#: The repository's root (tests/ is inside it).
REPO = Path(__file__).resolve().parents[2]
#: tests/data: the golden vectors and the sample.
DATA = REPO / "tests" / "data"
#: tests/data/sample: 60 German-English segments written for this repository.
SAMPLE = DATA / "sample"
#: The repository's docs/ and examples/.
DOCS = REPO / "docs"
EXAMPLES = REPO / "examples"
#: The WMT22 general-task release in ../shared.
WMT22 = REPO.parent / "shared" / "data" / "wmt22"
#: Comma-separated language pairs that limit the WMT22 differential tests parametrized by
#: pair (:func:`selected_pairs`). ``make test-numpy1`` sets it: its run re-checks the Python
#: paths under numpy 1 on a few pairs, since the counts come from the Rust core either way.
PAIRS_VARIABLE = "BLEUPRINT_TEST_PAIRS"


def read_lines(path: Path) -> list[str]:
    """Lines as sacrebleu's file reader sees them: split on "\\n" only (data holds U+2028)."""
    with path.open(encoding="utf-8", newline="") as f:  # no newline translation, like sacrebleu
        text = f.read()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def wmt22_systems(root: Path) -> list[tuple[str, str, Path]]:
    """(pair, system, path) for every system output, sorted."""
    out = []
    for path in sorted((root / "system-outputs").iterdir()):
        # generaltest2022.<pair>.hyp.<system>.<lang>
        stem = path.name[len("generaltest2022.") :]
        pair, rest = stem.split(".hyp.", 1)
        system = rest.rsplit(".", 1)[0]
        out.append((pair, system, path))
    return out


def wmt22_references(root: Path, pair: str) -> dict[str, Path]:
    """Reference name (A, B, C, stud) -> path, for one language pair."""
    refs = {}
    for path in sorted((root / "references").glob(f"generaltest2022.{pair}.ref.*")):
        name = path.name.split(".ref.", 1)[1].rsplit(".", 1)[0]
        refs[name] = path
    return refs


def pair_selected(pair: str) -> bool:
    """Whether ``$BLEUPRINT_TEST_PAIRS`` is unset or names ``pair``."""
    chosen = {p.strip() for p in os.environ.get(PAIRS_VARIABLE, "").split(",") if p.strip()}
    return not chosen or pair in chosen


def selected_pairs(pairs: Iterable[str]) -> list[str]:
    """``pairs`` in order, less those :func:`pair_selected` leaves out."""
    return [p for p in pairs if pair_selected(p)]
