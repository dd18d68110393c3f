#!/usr/bin/env python3
"""Generate src/tokenize/unicode_tables.rs from the Python `regex` module.

sacrebleu's `intl` tokenizer matches `\\p{P}`, `\\p{S}` and `\\P{N}` with the third-party
`regex` module, so its output depends on the Unicode tables compiled into that module,
not on Python's `unicodedata`. This script asks `regex` itself about every code point
0..0x10FFFF, so the Rust tables agree with it by construction.

Usage (deterministic; needs the pinned regex==2026.5.9 of pyproject's `test` extra):

    python tools/gen_unicode_tables.py            # writes src/tokenize/unicode_tables.rs
    python tools/gen_unicode_tables.py --check    # exits 1 if the file is out of date
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import regex

# The generators' shared command line, found beside this file also when it is loaded by path.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from generated import fill_rows, write_or_check  # noqa: E402

EXPECTED_REGEX_VERSION = "2026.5.9"
OUT = Path(__file__).resolve().parents[1] / "src" / "tokenize" / "unicode_tables.rs"
MAX_CP = 0x110000
SURROGATES = range(0xD800, 0xE000)

# Characters whose Age pins down the Unicode version (regex has no `\p{Age=...}`). Each was
# first assigned in the version given; the highest version whose probe is assigned wins.
AGE_PROBES = [
    ("14.0", 0x1FAE0, "MELTING FACE"),
    ("15.0", 0x1FA75, "LIGHT BLUE HEART"),
    ("15.1", 0x2FFC, "IDEOGRAPHIC DESCRIPTION CHARACTER SURROUND FROM RIGHT"),
    ("16.0", 0x1CC00, "UP-POINTING GO-KART"),
    ("17.0", 0x20C1, "SAUDI RIYAL SIGN"),
]
# Total of assigned characters (graphic + format, i.e. excluding Cc, Cs, Co and Cn) as the
# Unicode Consortium announces it per version.
ANNOUNCED_TOTALS = {
    "14.0": 144_697,
    "15.0": 149_186,
    "15.1": 149_813,
    "16.0": 154_998,
    "17.0": 159_801,
}


def matching(pattern: str) -> list[bool]:
    """For every code point (lone surrogates included), whether `pattern` matches it."""
    compiled = regex.compile(pattern)
    return [compiled.fullmatch(chr(cp)) is not None for cp in range(MAX_CP)]


def to_ranges(flags: list[bool]) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    start = None
    for cp, hit in enumerate(flags + [False]):
        if hit and start is None:
            start = cp
        elif not hit and start is not None:
            ranges.append((start, cp - 1))
            start = None
    return ranges


def unicode_version() -> tuple[str, str]:
    """The Unicode version of regex's tables, and a sentence saying how it was determined."""
    cn = regex.compile(r"\p{Cn}")
    version = None
    for ver, cp, _name in AGE_PROBES:
        if cn.fullmatch(chr(cp)) is None:
            version = ver
    assert version is not None
    other = regex.compile(r"[\p{Cn}\p{Cs}\p{Co}\p{Cc}]")
    total = sum(1 for cp in range(MAX_CP) if other.fullmatch(chr(cp)) is None)
    assert total == ANNOUNCED_TOTALS[version], (version, total)
    probes = ", ".join(f"U+{cp:04X} {name} ({ver})" for ver, cp, name in AGE_PROBES)
    how = (
        f"the newest of these probes that regex treats as assigned (not \\p{{Cn}}) is the "
        f"{version} one: {probes}; and regex's count of assigned characters outside "
        f"Cc/Cs/Co, {total}, equals the total the Unicode Consortium announced for {version}"
    )
    return version, how


def rust_ranges(name: str, doc: str, ranges: list[tuple[int, int]]) -> str:
    lines = [f"/// {doc}", f"pub(super) const {name}: &[(u32, u32)] = &["]
    lines += [f"    (0x{lo:04X}, 0x{hi:04X})," for lo, hi in ranges]
    lines.append("];")
    return "\n".join(lines)


def render() -> str:
    if regex.__version__ != EXPECTED_REGEX_VERSION:
        sys.exit(f"regex {regex.__version__} is installed; expected {EXPECTED_REGEX_VERSION}")
    punct = matching(r"\p{P}")
    symbol = matching(r"\p{S}")
    number = matching(r"\p{N}")
    not_number = matching(r"\P{N}")
    # The tokenizer relies on these facts; fail loudly if a regex release changes them.
    assert all(n != nn for n, nn in zip(number, not_number)), r"\P{N} is not the complement"
    assert not any(p and s for p, s in zip(punct, symbol)), "P and S overlap"
    assert not any((p or s) and n for p, s, n in zip(punct, symbol, number)), "N overlaps"
    assert not any(punct[cp] or symbol[cp] or number[cp] for cp in SURROGATES)
    categories = {
        "P": regex.compile(r"[\p{Pc}\p{Pd}\p{Ps}\p{Pe}\p{Pi}\p{Pf}\p{Po}]"),
        "S": regex.compile(r"[\p{Sm}\p{Sc}\p{Sk}\p{So}]"),
        "N": regex.compile(r"[\p{Nd}\p{Nl}\p{No}]"),
    }
    for flags, (_cat, union) in zip((punct, symbol, number), categories.items()):
        assert all(flags[cp] == (union.fullmatch(chr(cp)) is not None) for cp in range(MAX_CP))

    version, how = unicode_version()
    doc = "`\\p{%s}` as inclusive code point ranges."
    punct_table = rust_ranges("PUNCT", doc % "P", to_ranges(punct))
    symbol_table = rust_ranges("SYMBOL", doc % "S", to_ranges(symbol))
    number_table = rust_ranges("NUMBER", doc % "N", to_ranges(number))

    # The BMP as a two-level table: each 64-code-point block packed into a u128 (2 bits per
    # code point: 0 other, 1 P, 2 S, 3 N); identical blocks are stored once.
    patterns: list[int] = []
    index: list[int] = []
    for block in range(0x10000 // 64):
        bits = 0
        for k in range(64):
            cp = block * 64 + k
            code = 1 if punct[cp] else 2 if symbol[cp] else 3 if number[cp] else 0
            bits |= code << (2 * k)
        if bits not in patterns:
            patterns.append(bits)
        index.append(patterns.index(bits))
    assert len(patterns) <= 256
    # The index repeats blocks for long stretches (letters, CJK): written as runs.
    runs: list[list[int]] = []
    for i in index:
        if runs and runs[-1][1] == i:
            runs[-1][0] += 1
        else:
            runs.append([1, i])
    index_rows = fill_rows([f"{n}," for run in runs for n in run])
    pattern_rows = [f"    0x{p:032X}," for p in patterns]

    ascii_class = []
    for cp in range(128):
        if punct[cp]:
            ascii_class.append("P")
        elif symbol[cp]:
            ascii_class.append("S")
        elif number[cp]:
            ascii_class.append("N")
        else:
            ascii_class.append("O")
    ascii_rows = [
        "    " + " ".join(f"{c}," for c in ascii_class[row : row + 32]) for row in range(0, 128, 32)
    ]

    how_doc = "\n".join(
        textwrap.wrap(
            f"regex {EXPECTED_REGEX_VERSION} implements Unicode {version}. "
            f"Determined empirically: {how}.",
            width=92,
            initial_indent="//! ",
            subsequent_indent="//! ",
            break_on_hyphens=False,
        )
    )
    header = f"""\
//! GENERATED by `python tools/gen_unicode_tables.py`; do not edit by hand.
//!
//! The code points that the Python `regex` module, version {EXPECTED_REGEX_VERSION} (the one
//! sacrebleu's `intl` tokenizer runs on, pinned in pyproject.toml), matches with `\\p{{P}}`
//! ({sum(punct)} code points), `\\p{{S}}` ({sum(symbol)}) and `\\p{{N}}` ({sum(number)}).
//! The generator runs `regex.fullmatch` on every code point 0..=0x10FFFF, so these tables
//! are regex's own, not Python's `unicodedata` (which is older).
//!
{how_doc}
//!
//! The generator also checks that `\\P{{N}}` is exactly the complement of `\\p{{N}}` (it matches
//! newline, unassigned code points and lone surrogates), that the three sets are disjoint
//! and equal the unions of their general categories (P = Pc|Pd|Ps|Pe|Pi|Pf|Po,
//! S = Sm|Sc|Sk|So, N = Nd|Nl|No). Lone surrogates (U+D800..=U+DFFF) are in none of the
//! sets; Python strings can hold them but Rust `char`s cannot, so they never reach us.
//!
//! Layout: [`PUNCT`], [`SYMBOL`] and [`NUMBER`] are the sets as sorted inclusive ranges. For
//! speed, ASCII also has a flat table and the BMP a two-level one (64-code-point blocks, 2 bits
//! per code point, identical blocks shared); `unicode_class.rs` reads them."""

    body = f"""
use super::unicode_class::{{expand_runs, Class}};
use Class::{{Number as N, Other as O, Punct as P, Symbol as S}};

/// The class of every ASCII character, so the common case needs no search.
pub(super) const ASCII: [Class; 128] = [
{chr(10).join(ascii_rows)}
];

/// For each 64-code-point block of the BMP, its entry in [`BMP_PATTERNS`], as runs: a count,
/// then the entry that many blocks have.
pub(super) const BMP_INDEX: [u8; 1024] = expand_runs(&[
{chr(10).join(index_rows)}
]);

/// The classes of a 64-code-point block, code point `k` in bits `2k..2k + 2`
/// (0: other, 1: `\\p{{P}}`, 2: `\\p{{S}}`, 3: `\\p{{N}}`).
pub(super) const BMP_PATTERNS: [u128; {len(patterns)}] = [
{chr(10).join(pattern_rows)}
];

{punct_table}

{symbol_table}

{number_table}
"""
    return header + "\n" + body


def main() -> None:
    write_or_check(render, OUT, __doc__, Path(__file__).name)


if __name__ == "__main__":
    main()
