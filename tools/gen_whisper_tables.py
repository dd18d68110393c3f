#!/usr/bin/env python3
"""Generate the data tables of the Whisper text normalizers (src/text/whisper/).

Two files, both facts read from their sources, never typed by hand:

- ``src/text/whisper/tables.rs``: the data of openai-whisper 20250625's
  ``whisper/normalizers/`` (PyPI sdist ``openai_whisper-20250625.tar.gz``): the British ->
  American spelling map of ``english.json``, ``ADDITIONAL_DIACRITICS`` of ``basic.py``, and
  the filler words and the contraction/title replacements of ``english.py``'s
  ``EnglishTextNormalizer`` (read with ``ast`` from the source; each pattern is checked to be
  a literal with optional ``\\b`` at its ends, the only form the Rust scanner implements).
  Also the replacements of whisper-normalizer 0.1.15's ``EnglishTextNormalizer`` (PyPI wheel
  ``whisper_normalizer-0.1.15-py3-none-any.whl``, a copy of openai-whisper's normalizers with
  four more replacements), after checking that the rest of its data is openai-whisper's.
- ``src/text/whisper/unicode_tables.rs``: the Unicode properties the normalizers read, as
  Python 3.11 sees them (``unicodedata`` 14.0.0: general categories, ``str.isalnum``,
  ``str.lower``, decimal digits, the Final_Sigma context of ``str.lower``) and as the
  ``regex`` module 2026.5.9 sees them (``\\X`` grapheme clusters: Grapheme_Cluster_Break,
  Indic_Conjunct_Break, Extended_Pictographic). Every code point is asked.

Usage (deterministic; needs CPython 3.11 and regex==2026.5.9, pyproject's `test` extra):

    python tools/gen_whisper_tables.py                      # downloads the sdist with pip
    python tools/gen_whisper_tables.py --sdist PATH.tar.gz  # or reads a downloaded one
    python tools/gen_whisper_tables.py --check              # exits 1 if a file is out of date

The sdist comes from ``pip download --no-deps --no-binary :all: openai-whisper==20250625``
(set ``WHISPER_SDIST`` to its path to skip the download); its ``english.json`` must have the
SHA-256 below. The wheel comes from ``pip download --no-deps whisper-normalizer==0.1.15``
(or ``--wheel PATH`` / ``WHISPER_NORMALIZER_WHEEL``).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import textwrap
import unicodedata
import zipfile
from pathlib import Path

import regex

# The generators' shared helpers, found beside this file also when it is loaded by path.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from generated import fill_rows  # noqa: E402

UPSTREAM = "openai-whisper"
UPSTREAM_VERSION = "20250625"
SDIST_NAME = f"openai_whisper-{UPSTREAM_VERSION}.tar.gz"
PACKAGE = "whisper-normalizer"
PACKAGE_VERSION = "0.1.15"
WHEEL_NAME = f"whisper_normalizer-{PACKAGE_VERSION}-py3-none-any.whl"
ENGLISH_JSON_SHA256 = "6607f948be9824d2e1b2fa2223cd94c06c45afa4e05ea0e3d5e1f2bdffde2465"
EXPECTED_UNIDATA = "14.0.0"
EXPECTED_REGEX_VERSION = "2026.5.9"
ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "src" / "text" / "whisper"
DATA_OUT = OUT_DIR / "tables.rs"
UNICODE_OUT = OUT_DIR / "unicode_tables.rs"
MAX_CP = 0x110000


# --- the upstream's data -------------------------------------------------------------------


def sdist_path(given: str | None, tmp: str) -> Path:
    if given:
        return Path(given)
    if os.environ.get("WHISPER_SDIST"):
        return Path(os.environ["WHISPER_SDIST"])
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:"]
        + [f"{UPSTREAM}=={UPSTREAM_VERSION}", "-d", tmp],
        check=True,
    )
    return Path(tmp) / SDIST_NAME


def read_sdist(path: Path) -> dict[str, bytes]:
    prefix = f"openai_whisper-{UPSTREAM_VERSION}/whisper/normalizers/"
    files: dict[str, bytes] = {}
    with tarfile.open(path) as tar:
        for name in ("basic.py", "english.py", "english.json"):
            member = tar.extractfile(prefix + name)
            if member is None:
                sys.exit(f"{path} has no {prefix + name}")
            files[name] = member.read()
    return files


def wheel_path(given: str | None, tmp: str) -> Path:
    if given:
        return Path(given)
    if os.environ.get("WHISPER_NORMALIZER_WHEEL"):
        return Path(os.environ["WHISPER_NORMALIZER_WHEEL"])
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:"]
        + [f"{PACKAGE}=={PACKAGE_VERSION}", "-d", tmp],
        check=True,
    )
    return Path(tmp) / WHEEL_NAME


def read_wheel(path: Path) -> dict[str, bytes]:
    """whisper-normalizer's copies of the three files, under the sdist's names."""
    names = {
        "basic.py": "whisper_normalizer/basic.py",
        "english.py": "whisper_normalizer/english.py",
        "english.json": "whisper_normalizer/normalizers/english.json",
    }
    with zipfile.ZipFile(path) as wheel:
        return {name: wheel.read(member) for name, member in names.items()}


def assigned_value(tree: ast.AST, target: str) -> ast.expr:
    """The expression assigned to ``target`` (a name or ``self.attr``) in a module's source."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            t = node.targets[0]
            name = (
                t.id
                if isinstance(t, ast.Name)
                else f"self.{t.attr}"
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                else None
            )
            if name == target:
                found.append(node.value)
    if len(found) != 1:
        sys.exit(f"expected one assignment to {target} upstream, found {len(found)}")
    return found[0]


def rust_str(s: str) -> str:
    """A Rust string literal; non-ASCII as \\u{...} escapes so the file stays ASCII."""
    out = []
    for c in s:
        if c in '"\\':
            out.append("\\" + c)
        elif " " <= c <= "~":
            out.append(c)
        else:
            out.append(f"\\u{{{ord(c):X}}}")
    return '"' + "".join(out) + '"'


# `\bword\b`, `'s been\b` ...: a literal (no regex metacharacters) with optional \b at its ends.
LITERAL_PATTERN = re.compile(r"(\\b)?([a-z' ]+)(\\b)?")


def literal(pattern: str) -> tuple[bool, str, bool]:
    m = LITERAL_PATTERN.fullmatch(pattern)
    if m is None:
        sys.exit(f"upstream pattern {pattern!r} is not a literal with optional \\b ends")
    return m.group(1) is not None, m.group(2), m.group(3) is not None


def english_data(files: dict[str, bytes]) -> tuple[list[str], list[str], dict[str, str]]:
    """``english.py``'s fillers and replacement rows, and ``basic.py``'s diacritics."""
    basic = ast.parse(files["basic.py"])
    diacritics = ast.literal_eval(assigned_value(basic, "ADDITIONAL_DIACRITICS"))
    assert all(len(k) == 1 for k in diacritics), diacritics
    english = ast.parse(files["english.py"])
    fillers_pattern = ast.literal_eval(assigned_value(english, "self.ignore_patterns"))
    m = re.fullmatch(r"\\b\(([a-z|]+)\)\\b", fillers_pattern)
    if m is None:
        sys.exit(f"unexpected ignore_patterns {fillers_pattern!r}")
    fillers = m.group(1).split("|")
    replacers = ast.literal_eval(assigned_value(english, "self.replacers"))
    rows = []
    for pattern, replacement in replacers.items():
        before, text, after = literal(pattern)
        # The scanner assumes the \b sits next to a word character of the literal.
        assert not before or text[0].isalnum(), pattern
        assert not after or text[-1].isalnum(), pattern
        rows.append(
            f"    ({str(before).lower()}, {rust_str(text)}, {str(after).lower()}, "
            f"{rust_str(replacement)}),"
        )
    return fillers, rows, diacritics


def render_data(files: dict[str, bytes], package: dict[str, bytes]) -> str:
    english_json = files["english.json"]
    digest = hashlib.sha256(english_json).hexdigest()
    if ENGLISH_JSON_SHA256 != digest:
        sys.exit(f"english.json has SHA-256 {digest}; expected {ENGLISH_JSON_SHA256}")
    # json.load's own semantics (a repeated key keeps its last value), as upstream reads it.
    spelling: dict[str, str] = json.loads(english_json.decode("utf-8"))
    fillers, rows, diacritics = english_data(files)
    # whisper-normalizer's data must be openai-whisper's but for the replacements: the core
    # implements only that difference (and `preserve_marks`, which is code).
    package_fillers, package_rows, package_diacritics = english_data(package)
    if hashlib.sha256(package["english.json"]).hexdigest() != digest:
        sys.exit(f"{PACKAGE} {PACKAGE_VERSION}'s english.json is not {UPSTREAM}'s")
    if (package_fillers, package_diacritics) != (fillers, diacritics):
        sys.exit(f"{PACKAGE} {PACKAGE_VERSION}'s fillers or diacritics differ from {UPSTREAM}'s")

    spelling_rows = [f"    ({rust_str(k)}, {rust_str(v)})," for k, v in sorted(spelling.items())]
    diacritic_rows = [f"    ({rust_str(k)}, {rust_str(v)})," for k, v in diacritics.items()]
    filler_items = ", ".join(rust_str(f) for f in fillers)
    header = f"""\
//! GENERATED by `python tools/gen_whisper_tables.py`; do not edit by hand.
//!
//! Data of {UPSTREAM} {UPSTREAM_VERSION}'s `whisper/normalizers/` (PyPI sdist
//! `{SDIST_NAME}`): `english.json` (SHA-256 `{digest[:16]}...`, {len(spelling)}
//! entries), `ADDITIONAL_DIACRITICS` of `basic.py`, and `EnglishTextNormalizer`'s
//! `ignore_patterns` and `replacers` of `english.py`, read from the source with `ast`. The
//! replacers keep upstream's order, which is the order they are applied in.
//!
//! And `EnglishTextNormalizer`'s replacers of {PACKAGE} {PACKAGE_VERSION} (PyPI wheel
//! `{WHEEL_NAME}`), whose other data equals the above (checked).
"""
    body = f"""
/// `EnglishTextNormalizer.replacers`, in upstream's order: `re.sub(pattern, replacement, s)`
/// for a pattern that is a literal with optional `\\b` ends, as (pattern starts with `\\b`,
/// the literal, pattern ends with `\\b`, replacement).
pub(super) const REPLACERS: [(bool, &str, bool, &str); {len(rows)}] = [
{chr(10).join(rows)}
];

/// {PACKAGE} {PACKAGE_VERSION}'s `EnglishTextNormalizer.replacers`, as [`REPLACERS`].
pub(super) const PACKAGE_REPLACERS: [(bool, &str, bool, &str); {len(package_rows)}] = [
{chr(10).join(package_rows)}
];

/// The alternatives of `EnglishTextNormalizer.ignore_patterns`, `\\b(...)\\b`, in order.
pub(super) const FILLERS: [&str; {len(fillers)}] = [{filler_items}];

/// `basic.ADDITIONAL_DIACRITICS`: letters NFKD does not decompose, and their replacements.
pub(super) const ADDITIONAL_DIACRITICS: [(&str, &str); {len(diacritic_rows)}] = [
{chr(10).join(diacritic_rows)}
];

/// `english.json`, British spelling -> American, sorted by key.
pub(super) static SPELLING: [(&str, &str); {len(spelling_rows)}] = [
{chr(10).join(spelling_rows)}
];
"""
    return header + body


# --- Unicode, as Python 3.11 and regex 2026.5.9 see it ---------------------------------------

# Bits of CHAR_PROPS (see the Rust docs in the header).
MARK, MN, SYMBOL, PUNCT, WORD, UNASSIGNED, DECIMAL, CASE_IGNORABLE, CASED = (
    1 << i for i in range(9)
)
GCB = [
    "Other",
    "CR",
    "LF",
    "Control",
    "Extend",
    "ZWJ",
    "Regional_Indicator",
    "Prepend",
    "SpacingMark",
    "L",
    "V",
    "T",
    "LV",
    "LVT",
]
INCB = ["None", "Linker", "Consonant", "Extend"]


def char_props(cp: int) -> int:
    c = chr(cp)
    cat = unicodedata.category(c)
    bits = 0
    if cat[0] == "M":
        bits |= MARK
    if cat == "Mn":
        bits |= MN
    if cat[0] == "S":
        bits |= SYMBOL
    if cat[0] == "P":
        bits |= PUNCT
    if c.isalnum() or c == "_":  # re's \w for str patterns
        bits |= WORD
    if cat == "Cn":
        bits |= UNASSIGNED
    if c.isdecimal():  # re's \d for str patterns; int() reads these digits
        bits |= DECIMAL
    # str.lower()'s Final_Sigma context (Python does not expose Cased or Case_Ignorable):
    # a case-ignorable character is skipped by the context search, so only three classes
    # matter: skipped, cased (and not skipped), neither.
    cased_not_ignorable = (c + "\u03a3").lower()[-1] == "\u03c2"
    ignorable_or_cased = ("A" + c + "\u03a3").lower()[-1] == "\u03c2"
    if cased_not_ignorable:
        bits |= CASED
    elif ignorable_or_cased:
        bits |= CASE_IGNORABLE
    return bits


def runs(values: list[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for cp, v in enumerate(values):
        if not out or out[-1][1] != v:
            out.append((cp, v))
    return out


def lower_runs() -> list[tuple[int, int, int, int]]:
    """`str.lower()`'s one-to-one mappings as (first, last, step, delta) runs: every `step`-th
    code point from `first` to `last` maps to itself + delta."""
    pairs = []
    for cp in range(MAX_CP):
        low = chr(cp).lower()
        if low == chr(cp):
            continue
        if len(low) != 1:
            # the only special case
            assert cp == 0x130, hex(cp)
            assert low == "i\u0307", low
            continue
        pairs.append((cp, ord(low) - cp))
    out: list[list[int]] = []
    for cp, delta in pairs:
        if out:
            first, last, step, d = out[-1]
            if d == delta and (last == first and cp - last in (1, 2) or cp - last == step):
                out[-1] = [first, cp, cp - first if last == first else step, d]
                continue
        out.append([cp, cp, 1, delta])
    return [tuple(r) for r in out]  # type: ignore[misc]


def grapheme_props() -> list[int]:
    gcb = [0] * MAX_CP
    for i, name in enumerate(GCB):
        if i == 0:
            continue
        pat = regex.compile(rf"\p{{Grapheme_Cluster_Break={name}}}")
        for cp in range(MAX_CP):
            if pat.fullmatch(chr(cp)):
                assert gcb[cp] == 0, (hex(cp), name)
                gcb[cp] = i
    for i, name in enumerate(INCB):
        if i == 0:
            continue
        pat = regex.compile(rf"\p{{Indic_Conjunct_Break={name}}}")
        for cp in range(MAX_CP):
            if pat.fullmatch(chr(cp)):
                assert gcb[cp] >> 4 == 0
                gcb[cp] |= i << 4
    pict = regex.compile(r"\p{Extended_Pictographic}")
    for cp in range(MAX_CP):
        if pict.fullmatch(chr(cp)):
            gcb[cp] |= 1 << 6
    return gcb


def render_unicode() -> str:
    if unicodedata.unidata_version != EXPECTED_UNIDATA:
        sys.exit(
            f"unicodedata is {unicodedata.unidata_version}; run CPython 3.11 ({EXPECTED_UNIDATA})"
        )
    if regex.__version__ != EXPECTED_REGEX_VERSION:
        sys.exit(f"regex {regex.__version__} is installed; expected {EXPECTED_REGEX_VERSION}")
    props = [char_props(cp) for cp in range(MAX_CP)]
    prop_runs = runs(props)
    assert all(v < (1 << 11) for _, v in prop_runs)
    prop_items = [f"0x{(cp << 11) | v:08X}," for cp, v in prop_runs]

    # Decimal digits come in runs of ten, 0..9 in order: the value is the distance to the run's
    # zero, the greatest zero at or below the digit.
    zeros = [cp for cp in range(MAX_CP) if unicodedata.decimal(chr(cp), None) == 0]
    for cp in range(MAX_CP):
        value = unicodedata.decimal(chr(cp), None)
        assert (value is not None) == bool(props[cp] & DECIMAL)
        if value is not None:
            zero = max(z for z in zeros if z <= cp)
            assert cp - zero == value, hex(cp)
    zero_items = [f"0x{z:05X}," for z in zeros]

    lows = lower_runs()
    low_items = [f"    (0x{a:05X}, 0x{b:05X}, {s}, {d})," for a, b, s, d in lows]
    # Checked: the runs reproduce str.lower() for every code point but U+0130.
    table = {}
    for a, b, s, d in lows:
        for cp in range(a, b + 1, s):
            table[cp] = cp + d
    for cp in range(MAX_CP):
        if cp != 0x130:
            assert chr(table.get(cp, cp)) == chr(cp).lower(), hex(cp)

    gcb_runs = runs(grapheme_props())
    gcb_items = [f"0x{(cp << 8) | v:08X}," for cp, v in gcb_runs]
    gcb_doc = "\n".join(
        textwrap.wrap(
            "Runs of `\\X` properties: `start << 8 | bits`, sorted; bits 0..4 "
            "Grapheme_Cluster_Break ("
            + ", ".join(f"{i} {n}" for i, n in enumerate(GCB))
            + "), bits 4..6 Indic_Conjunct_Break ("
            + ", ".join(f"{i} {n}" for i, n in enumerate(INCB))
            + "), bit 6 Extended_Pictographic.",
            width=96,
            initial_indent="/// ",
            subsequent_indent="/// ",
            break_on_hyphens=False,
        )
    )
    header = f"""\
//! GENERATED by `python tools/gen_whisper_tables.py`; do not edit by hand.
//!
//! The Unicode properties the Whisper normalizers read, as their upstream's Python sees them.
//! Asked of every code point 0..=0x10FFFF:
//!
//! - CPython 3.11's `unicodedata` (Unicode {EXPECTED_UNIDATA}): [`CHAR_PROPS`] (general
//!   category M/Mn/S/P, unassigned, `re`'s `\\w` (`str.isalnum()` or `_`) and `\\d`
//!   (`str.isdecimal()`), and the two classes of `str.lower()`'s Final_Sigma context),
//!   [`DIGIT_ZEROS`] (digit values), [`LOWER`] (`str.lower()`, but U+0130, which lowers to
//!   `i` + U+0307);
//! - the `regex` module {EXPECTED_REGEX_VERSION} (its own, newer, Unicode tables):
//!   [`GRAPHEME_PROPS`] for `\\X`: Grapheme_Cluster_Break, Indic_Conjunct_Break and
//!   Extended_Pictographic.
"""
    body = f"""
/// Runs of equal properties: `start << 11 | bits`, sorted; a run lasts until the next one's
/// start. Bits: 1 M*, 2 Mn, 4 S*, 8 P*, 16 `\\w`, 32 Cn (unassigned in Unicode {EXPECTED_UNIDATA}),
/// 64 `\\d` (Nd), 128 skipped by the Final_Sigma context (case-ignorable), 256 cased and not
/// case-ignorable.
pub(super) const CHAR_PROPS: [u32; {len(prop_items)}] = [
{chr(10).join(fill_rows(prop_items))}
];

/// The zero of every run of decimal digits (`unicodedata.decimal(c) == 0`); a digit's value
/// is its distance to the greatest zero at or below it.
pub(super) const DIGIT_ZEROS: [u32; {len(zero_items)}] = [
{chr(10).join(fill_rows(zero_items))}
];

/// `str.lower()` for single code points as runs `(first, last, step, delta)`: the code points
/// `first, first + step, ..., last` lower to themselves + `delta`. U+0130 is not here.
pub(super) const LOWER: [(u32, u32, u32, i32); {len(low_items)}] = [
{chr(10).join(low_items)}
];

{gcb_doc}
pub(super) const GRAPHEME_PROPS: [u32; {len(gcb_items)}] = [
{chr(10).join(fill_rows(gcb_items))}
];
"""
    return header + body


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if a file is stale")
    parser.add_argument("--sdist", help=f"path of {SDIST_NAME} (default: download it with pip)")
    parser.add_argument("--wheel", help=f"path of {WHEEL_NAME} (default: download it with pip)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        files = read_sdist(sdist_path(args.sdist, tmp))
        package = read_wheel(wheel_path(args.wheel, tmp))
    outputs = {DATA_OUT: render_data(files, package), UNICODE_OUT: render_unicode()}
    for out, text in outputs.items():
        if args.check:
            if not out.exists() or out.read_text(encoding="utf-8") != text:
                sys.exit(f"{out} is out of date; rerun tools/{Path(__file__).name}")
        else:
            out.write_text(text, encoding="utf-8")
            print(f"wrote {out}")


if __name__ == "__main__":
    main()
