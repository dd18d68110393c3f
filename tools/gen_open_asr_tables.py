#!/usr/bin/env python3
"""Generate the data tables of the Open ASR Leaderboard's normalizers (src/text/whisper/).

``src/text/whisper/open_asr_tables.rs`` holds facts read from their sources, never typed by
hand:

- from huggingface/open_asr_leaderboard at revision ``REVISION`` (its ``normalizer/``
  package, which is not on PyPI): ``EnglishTextNormalizer``'s filler words and contraction /
  title replacements (``normalizer.py``, read with ``ast``), and the spelling (as its
  differences from openai-whisper's ``english.json``), name and compound-word tables of
  ``english_abbreviations.py``. Its ``ADDITIONAL_DIACRITICS`` are
  checked to be openai-whisper's (the core uses those);
- from num2words 0.5.14 (PyPI, which the leaderboard's ``MultilingualNormalizer`` calls for
  digits): the number words of its German, French, Spanish, Portuguese and Italian
  converters (``cards``, ``MAXVAL``; Italian's module tables).

Usage (deterministic; needs num2words==0.5.14, pyproject's `test` extra):

    python tools/gen_open_asr_tables.py --source DIR      # DIR: a checkout of the leaderboard
    python tools/gen_open_asr_tables.py --source DIR --check
    python tools/gen_open_asr_tables.py --check           # without the leaderboard's source

The leaderboard's repository is not a package index, so ``--check`` without ``--source``
regenerates the num2words tables and checks the leaderboard's part against the SHA-256 of
its sources and of the generated rows, recorded in the file: a hand edit fails either way.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

# The generators' shared helpers, found beside this file also when it is loaded by path.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_whisper_tables import assigned_value as assigned  # noqa: E402
from gen_whisper_tables import literal, rust_str  # noqa: E402

UPSTREAM = "huggingface/open_asr_leaderboard"
REVISION = "d1e99b25524814332d6868a5645e568670834cfb"
NUM2WORDS_VERSION = "0.5.14"
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "text" / "whisper" / "open_asr_tables.rs"
SOURCES = ("normalizer/normalizer.py", "normalizer/english_abbreviations.py")
SPLIT_MARK = "\n// --- num2words ---\n"


def word_map(node: ast.expr, what: str) -> dict[str, str]:
    keys = [ast.literal_eval(k) for k in node.keys]  # type: ignore[attr-defined]
    if len(keys) != len(set(keys)):
        sys.exit(f"{what} repeats a key")
    mapping: dict[str, str] = ast.literal_eval(node)
    for k, v in mapping.items():
        if not re.fullmatch(r"[a-z]+", k) or not re.fullmatch(r"[a-z]+", v):
            sys.exit(f"{what}: {k!r} -> {v!r} is not one lowercase ASCII word to another")
    return mapping


# `\b(it|he|...)'s\b` -> `\1 is`: one alternation, expanded to one literal row per word.
# The rows are equivalent to the alternation applied once: each needs the apostrophe that
# its replacement removes, and no two can match at one place.
GROUP_PATTERN = re.compile(r"\\b\(([a-z|]+)\)('[a-z]+)\\b")


def leaderboard_part(source: Path) -> str:
    texts = {name: (source / name).read_bytes() for name in SOURCES}
    digest = hashlib.sha256(b"".join(texts[n] for n in SOURCES)).hexdigest()
    normalizer = ast.parse(texts["normalizer/normalizer.py"])
    tables = ast.parse(texts["normalizer/english_abbreviations.py"])

    whisper = __import__("gen_whisper_tables")
    with whisper.tempfile.TemporaryDirectory() as tmp:
        files = whisper.read_sdist(whisper.sdist_path(None, tmp))
    _, _, whisper_diacritics = whisper.english_data(files)
    whisper_spelling: dict[str, str] = json.loads(files["english.json"].decode("utf-8"))
    if ast.literal_eval(assigned(normalizer, "ADDITIONAL_DIACRITICS")) != whisper_diacritics:
        sys.exit("the leaderboard's ADDITIONAL_DIACRITICS are not openai-whisper's")

    fillers_pattern = ast.literal_eval(assigned(normalizer, "self.ignore_patterns"))
    m = re.fullmatch(r"\\b\(([a-z|]+)\)\\b", fillers_pattern)
    if m is None:
        sys.exit(f"unexpected ignore_patterns {fillers_pattern!r}")
    fillers = m.group(1).split("|")

    replacers = ast.literal_eval(assigned(normalizer, "self.replacers"))
    rows = []
    for pattern, replacement in replacers.items():
        group = GROUP_PATTERN.fullmatch(pattern)
        if group is not None:
            if not replacement.startswith("\\1"):
                sys.exit(f"unexpected replacement {replacement!r} of {pattern!r}")
            for word in group.group(1).split("|"):
                text = word + group.group(2)
                rows.append((True, text, True, word + replacement[2:]))
            continue
        before, text, after = literal(pattern)
        if "\\" in replacement:
            sys.exit(f"unexpected replacement {replacement!r} of {pattern!r}")
        rows.append((before, text, after, replacement))

    compounds = []
    for pattern, replacement in ast.literal_eval(
        assigned(tables, "english_compound_normalizer")
    ).items():
        c = re.fullmatch(r"\\b([a-z]+)\\s\+([a-z]+)\\b", pattern)
        if c is None or not re.fullmatch(r"[a-z]+", replacement):
            sys.exit(f"compound pattern {pattern!r} -> {replacement!r} is not \\ba\\s+b\\b")
        compounds.append((c.group(1), c.group(2), replacement))
    spelling = word_map(assigned(tables, "english_spelling_normalizer"), "spelling")
    # Stored as its differences from openai-whisper's english.json (tables.rs has that one).
    removed = sorted(k for k in whisper_spelling if k not in spelling)
    changed = {k: v for k, v in spelling.items() if whisper_spelling.get(k) != v}
    removed_items = ", ".join(rust_str(k) for k in removed)
    names = word_map(assigned(tables, "english_name_normalizer"), "names")

    def pairs(items: dict[str, str]) -> str:
        return "\n".join(f"    ({rust_str(k)}, {rust_str(v)})," for k, v in sorted(items.items()))

    replacer_rows = "\n".join(
        f"    ({str(b).lower()}, {rust_str(t)}, {str(a).lower()}, {rust_str(r)}),"
        for b, t, a, r in rows
    )
    compound_rows = "\n".join(
        f"    ({rust_str(a)}, {rust_str(b)}, {rust_str(r)})," for a, b, r in compounds
    )
    body = f"""
/// `EnglishTextNormalizer.replacers`, in upstream's order, as `whisper::tables::REPLACERS`
/// (its `\\b(it|he|...)'s\\b` -> `\\1 is` is one row per word).
pub(super) const REPLACERS: [(bool, &str, bool, &str); {len(rows)}] = [
{replacer_rows}
];

/// The alternatives of `EnglishTextNormalizer.ignore_patterns`, `\\b(...)\\b`, in order.
pub(super) const FILLERS: [&str; {len(fillers)}] = [{", ".join(rust_str(f) for f in fillers)}];

/// `english_compound_normalizer`: `re.sub(r"\\ba\\s+b\\b", replacement, s)` as (a, b,
/// replacement), in order.
pub(super) const COMPOUNDS: [(&str, &str, &str); {len(compounds)}] = [
{compound_rows}
];

/// `english_spelling_normalizer` ({len(spelling)} entries), British spelling -> American, as
/// its differences from openai-whisper's `english.json` (`tables::SPELLING`): the keys it
/// does not have, then the entries it adds or changes, sorted by key.
pub(super) const SPELLING_REMOVED: [&str; {len(removed)}] = [{removed_items}];
pub(super) const SPELLING_CHANGED: [(&str, &str); {len(changed)}] = [
{pairs(changed)}
];

/// `english_name_normalizer`: spelling variants of names -> one form, sorted by key.
pub(super) const NAMES: [(&str, &str); {len(names)}] = [
{pairs(names)}
];
"""
    body = rustfmt(body)
    body_digest = hashlib.sha256(body.encode()).hexdigest()
    return f"""\
//! GENERATED by `python tools/gen_open_asr_tables.py`; do not edit by hand.
//!
//! Data of {UPSTREAM}'s `normalizer/` at revision
//! `{REVISION}`: `EnglishTextNormalizer`'s `ignore_patterns` and
//! `replacers` (`normalizer.py`) and the tables of `english_abbreviations.py`, read with
//! `ast`; its `ADDITIONAL_DIACRITICS` are openai-whisper's (checked). And the number words of
//! num2words {NUM2WORDS_VERSION}'s converters for de, fr, es, pt and it.
//!
//! Sources' SHA-256: {digest}
//! Leaderboard rows' SHA-256: {body_digest}
{body}"""


def num2words_part() -> str:
    import num2words  # the test extra pins it

    version = getattr(num2words, "__version__", None)
    try:
        from importlib.metadata import version as dist_version

        version = dist_version("num2words")
    except Exception:  # noqa: BLE001 - the metadata is the one source of the version
        pass
    if version != NUM2WORDS_VERSION:
        sys.exit(f"num2words {version} is installed; expected {NUM2WORDS_VERSION}")
    from num2words import CONVERTER_CLASSES, lang_IT

    out = []
    for lang in ("de", "fr", "es", "pt"):
        conv = CONVERTER_CLASSES[lang]
        rows = []
        for key, word in conv.cards.items():
            mantissa, exponent = key, 0
            while mantissa >= 10 and mantissa % 10 == 0:
                mantissa //= 10
                exponent += 1
            if mantissa >= 1000:
                sys.exit(f"{lang}: card {key} is not small nor a power of ten")
            rows.append(f"    ({mantissa}, {exponent}, {rust_str(word)}),")
        maxval = conv.MAXVAL
        max_exp = len(str(maxval)) - 1
        if maxval != 10**max_exp:
            sys.exit(f"{lang}: MAXVAL {maxval} is not a power of ten")
        out.append(
            f"""
/// num2words' `Num2Word_{lang.upper()}().cards`, in its order: (m, e, word) for the number
/// m * 10^e. Numbers from 10^{max_exp} (`MAXVAL`) up raise `OverflowError`.
pub(super) const CARDS_{lang.upper()}: [(u32, u32, &str); {len(rows)}] = [
{chr(10).join(rows)}
];
/// `Num2Word_{lang.upper()}().MAXVAL` is 10 to this power.
pub(super) const MAX_EXPONENT_{lang.upper()}: usize = {max_exp};"""
        )
    pt_hundreds = CONVERTER_CLASSES["pt"].hundreds
    hundreds = ", ".join(rust_str(pt_hundreds[i]) for i in range(1, 10))
    if sorted(pt_hundreds) != list(range(1, 10)):
        sys.exit("num2words pt: hundreds are not 1..9")
    out.append(
        f"""
/// `Num2Word_PT().hundreds`: 100 to 900, by their first digit - 1.
pub(super) const PT_HUNDREDS: [&str; 9] = [{hundreds}];"""
    )
    it_cardinal = ", ".join(rust_str(w) for w in lang_IT.CARDINAL_WORDS)
    it_tens = ", ".join(f"({k}, {rust_str(v)})" for k, v in sorted(lang_IT.STR_TENS.items()))
    it_prefixes = ", ".join(rust_str(w) for w in lang_IT.EXPONENT_PREFIXES)
    out.append(
        f"""
/// num2words' `lang_IT.CARDINAL_WORDS`: 0 to 19.
pub(super) const IT_CARDINAL: [&str; {len(lang_IT.CARDINAL_WORDS)}] = [{it_cardinal}];
/// `lang_IT.STR_TENS`: the tens not spelled as the unit's word + "anta".
pub(super) const IT_TENS: [(u32, &str); {len(lang_IT.STR_TENS)}] = [{it_tens}];
/// `lang_IT.EXPONENT_PREFIXES`, by a number's length in digits (after the first group) / 6.
pub(super) const IT_EXPONENT_PREFIXES: [&str; {len(lang_IT.EXPONENT_PREFIXES)}] = [{it_prefixes}];
"""
    )
    return rustfmt("\n".join(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, help="a checkout of the leaderboard")
    parser.add_argument("--check", action="store_true", help="fail if the file is stale")
    args = parser.parse_args()
    numbers = num2words_part()
    current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
    if args.source is not None:
        text = leaderboard_part(args.source) + SPLIT_MARK + numbers
    else:
        if not args.check:
            sys.exit("--source DIR (a checkout of the leaderboard) is needed to write the file")
        head, _, _ = current.partition(SPLIT_MARK)
        m = re.search(r"Leaderboard rows' SHA-256: ([0-9a-f]{64})\n", head)
        body = head[m.end() :] if m else ""
        if m is None or hashlib.sha256(body.encode()).hexdigest() != m.group(1):
            sys.exit(f"{OUT}'s leaderboard rows do not match their recorded SHA-256")
        text = head + SPLIT_MARK + numbers
    if args.check:
        if current != text:
            sys.exit(f"{OUT} is out of date; rerun tools/gen_open_asr_tables.py")
        return
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")


def rustfmt(text: str) -> str:
    """The file as `cargo fmt` leaves it, so the format gate and `--check` agree."""
    done = subprocess.run(
        ["rustfmt", "--edition", "2021", "--emit", "stdout"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


if __name__ == "__main__":
    main()
