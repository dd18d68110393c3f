#!/usr/bin/env python3
"""Write tests/data/golden_kaldialign.jsonl: kaldialign 0.12.0's ``edit_distance`` and
``align`` (with ``eps_symbol="*"``) on hand-written pairs (its README's and tests' examples,
compounds, empty sides, ties) and seeded random pairs over small vocabularies whose words
concatenate into one another, under every combination of ``sclite_mode`` and
``merge_compounds``. ``tests/golden.rs`` checks bleuprint's ``metrics::wer::kaldi`` against
every record.

Needs the installed kaldialign 0.12.0 (the project's test extra)::

    python tools/gen_kaldialign_golden.py
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import kaldialign

VERSION = "0.12.0"
OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "golden_kaldialign.jsonl"
OPTIONS = {
    "plain": {},
    "sclite": {"sclite_mode": True},
    "compounds": {"merge_compounds": True},
    "sclite+compounds": {"sclite_mode": True, "merge_compounds": True},
}

HAND = [
    ("a b c", "a s x c"),
    ("a b", "b c"),
    ("the white paper is new", "the whitepaper is new"),
    ("newyork city", "new york city"),
    ("a white paper", "a whitepaper"),
    ("new york new york", "newyork newyork"),
    ("ice cream", "icecream cream"),
    ("a b c d", "abcd"),
    ("abcd", "a b c d"),
    ("ab c", "a bc"),
    ("a b", "ab ab"),
    ("", ""),
    ("", "a b"),
    ("a b", ""),
    ("a a a", "a"),
    ("a", "a a a"),
    ("x y z", "z y x"),
    ("one two three four", "one too three for"),
    ("hello world", "helloworld world"),
    ("data base management", "database management"),
]  # fmt: skip


def random_pairs(seed: int, count: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    vocabularies = [
        ["a", "b", "ab", "ba", "c", "abc", "bc"],
        ["new", "york", "newyork", "city", "the", "white", "paper", "whitepaper"],
        ["x", "y", "xy", "yx", "xyx", "z"],
    ]
    out = []
    for _ in range(count):
        words = rng.choice(vocabularies)
        ref = " ".join(rng.choice(words) for _ in range(rng.randint(0, 9)))
        hyp = " ".join(rng.choice(words) for _ in range(rng.randint(0, 9)))
        out.append((ref, hyp))
    return out


def record(i: int, ref: str, hyp: str) -> dict[str, Any]:
    r, h = ref.split(), hyp.split()
    expected = {}
    for name, options in OPTIONS.items():
        d = kaldialign.edit_distance(r, h, **options)
        aligned = kaldialign.align(r, h, "*", **options)
        expected[name] = {
            "ins": d["ins"],
            "del": d["del"],
            "sub": d["sub"],
            "total": d["total"],
            "align": [list(pair) for pair in aligned],
        }
    return {
        "id": f"kaldialign-{i:05d}",
        "upstream": "kaldialign",
        "version": VERSION,
        "python": sys.version.split()[0],
        "source": "tools/gen_kaldialign_golden.py",
        "reference": r,
        "hypothesis": h,
        "expected": expected,
    }


def main() -> None:
    assert kaldialign.__version__ == VERSION, kaldialign.__version__
    pairs = HAND + random_pairs(12, 600)
    with OUT.open("w", encoding="utf-8") as f:
        for i, (ref, hyp) in enumerate(pairs):
            f.write(json.dumps(record(i, ref, hyp), separators=(",", ":")) + "\n")
    print(f"wrote {OUT}: {len(pairs)} pairs, {len(pairs) * len(OPTIONS)} results")


if __name__ == "__main__":
    main()
