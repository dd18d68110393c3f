"""Golden vectors: tests/data/golden_*.jsonl, one vector per line.

Each line names its upstream package and version, the Python it ran on (`python`: sum() of
floats is compensated from 3.12 on, and the upstreams' float results follow it), where the
vector is documented (`source`),
the metric and how it is called, the inputs and the upstream's exact result (`expected`,
computed with the installed upstream). `published` is the figure as the source prints it
(often rounded) and `published_tolerance` the upstream test's tolerance for it, if any.
Calls: `corpus_score`, `sentence_score` (the first segment of each stream), `stats` (rows),
`raw_corpus_bleu`, `compute_bleu` (arguments in `args`), `bootstrap` (`args`: n_bootstrap and
the seed) and `tokenize` (the Tercom tokenizer on `hypotheses[0]`).
tests/golden.rs reads the same files.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from tests.support.data import DATA

Vector = dict[str, Any]


def load(name: str) -> list[Vector]:
    """Every vector of tests/data/golden_<name>.jsonl, in file order."""
    path = DATA / f"golden_{name}.jsonl"
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def params(name: str, **where: Any) -> list[Any]:
    """The vectors of one file whose fields equal `where`, as pytest params named by id."""
    return [
        pytest.param(v, id=v["id"])
        for v in load(name)
        if all(v.get(key) == value for key, value in where.items())
    ]


def same_float_sums(vector: Vector) -> bool:
    """Whether this interpreter's sum() of floats is the one the vector was computed with."""
    major, minor = (int(x) for x in vector["python"].split("."))
    return ((major, minor) >= (3, 12)) == (sys.version_info >= (3, 12))


def sentence_references(vector: Vector) -> list[str | None]:
    """A sentence vector's references: the first segment of every stream."""
    return [stream[0] for stream in vector["references"]]
