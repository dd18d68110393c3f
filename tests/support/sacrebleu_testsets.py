"""Test sets for sacrebleu's own suite: the synthetic downloads of every registry entry,
served by a local HTTP server under the mirror's names, and the MD5 substitution that the
suite's subprocesses make so that ``download.fetch`` accepts them.

``python -m tests.support.sacrebleu_testsets ARGS`` is sacrebleu's command line on
``bleuprint.compat.sacrebleu`` with that substitution made first (for ``test.sh``).
"""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import sys
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING

from tests.support.testsets_fixtures import Planted, downloads, md5s

if TYPE_CHECKING:
    from tests.support.http_server import FileServer

#: The JSON file (test set -> MD5 sums of its synthetic downloads) the subprocesses read.
MD5_TABLE_ENV = "BLEUPRINT_SYNTHETIC_MD5S"


def planted_segments(test_api_source: str) -> dict[str, tuple[Planted, ...]]:
    """The sentence pairs that sacrebleu's ``test_api.py`` expects at given lines
    (``test_api_get_data``: test set, pair, line, source, reference), per test set."""
    for node in ast.parse(test_api_source).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [
            "test_api_get_data"
        ]:
            rows = ast.literal_eval(node.value)
            break
    else:
        raise ValueError("test_api.py has no test_api_get_data")
    planted: dict[str, list[Planted]] = {}
    for name, langpair, line, source, reference in rows:
        planted.setdefault(name, []).append(Planted(langpair, line, source, reference))
    return {name: tuple(segments) for name, segments in planted.items()}


def serve_test_sets(
    server: FileServer,
    names: list[str],
    planted: dict[str, tuple[Planted, ...]],
    without_carriage_returns: set[str],
) -> dict[str, list[str]]:
    """Serves each test set's synthetic downloads where ``$BLEUPRINT_TESTSET_MIRROR`` =
    ``server.url`` looks for them, with ``planted`` segments, and with no carriage return
    inside segments for the test sets in ``without_carriage_returns``; returns the MD5 sums
    of what it serves, per test set."""
    from bleuprint.testsets.download import mirror_location

    table = {}
    for name in names:
        variant = (planted.get(name, ()), name not in without_carriage_returns)
        for url, body in downloads(name, *variant).items():
            server.serve(urllib.parse.urlsplit(mirror_location(server.url, name, url)).path, body)
        table[name] = md5s(name, *variant)
    return table


def use_synthetic_md5s() -> None:
    """Replaces the registry's MD5 sums by those in ``$BLEUPRINT_SYNTHETIC_MD5S``: in the
    cached ``registry.entries()`` and in the ``DATASETS`` objects built from it (importing
    the registry imports the package, which builds them)."""
    from bleuprint.testsets.datasets import DATASETS
    from bleuprint.testsets.registry import entries

    table = json.loads(Path(os.environ[MD5_TABLE_ENV]).read_text(encoding="utf-8"))
    registry = entries()
    for name, sums in table.items():
        if len(sums) != len(registry[name].data):
            raise ValueError(f"{name}: {len(sums)} MD5 sums for {len(registry[name].data)} URLs")
        registry[name] = dataclasses.replace(registry[name], md5=tuple(sums))
        DATASETS[name].entry = registry[name]
        DATASETS[name].md5 = list(sums)


def main() -> int:
    use_synthetic_md5s()
    from bleuprint.compat.sacrebleu.__main__ import run

    return run(["-m", "sacrebleu", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
