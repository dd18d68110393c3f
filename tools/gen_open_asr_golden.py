#!/usr/bin/env python3
"""Write the Open ASR Leaderboard's golden files: its own normalizers and compound-pair pass,
run from a checkout of huggingface/open_asr_leaderboard (its ``normalizer/`` package is not
on PyPI), at the revision ``tools/gen_open_asr_tables.py`` names.

- ``tests/data/golden_open_asr_normalizers.jsonl``: one record per input with what
  ``EnglishTextNormalizer()`` (``open-asr-en``) and ``MultilingualNormalizer(
  remove_diacritics=False)`` (``open-asr-multilingual``, and with ``lang=de|fr|it|es|pt``:
  ``open-asr-multilingual-XX``) make of it, or ``{"error": ...}`` where it raises. Inputs:
  the awkward ones of ``tools/gen_whisper_golden.py``, the leaderboard's own cases
  (compounds, acronyms, names, fillers, ``'s``), numbers in every form num2words reads, and
  seeded random mixes.
- ``tests/data/golden_open_asr_pairs.jsonl``: seeded (reference, hypothesis) pairs of
  words, split and joined at random, some longer than 200 words (``SequenceMatcher``'s
  autojunk), with ``normalize_compound_pairs``' output.

The Rust tests (``src/text/whisper/golden.rs``) and ``tests/tokenizers/test_open_asr.py``
read them. Run with the test extra installed (num2words 0.5.14, regex), on CPython 3.11:

    git clone https://github.com/huggingface/open_asr_leaderboard /tmp/oal
    git -C /tmp/oal checkout <REVISION>
    python tools/gen_open_asr_golden.py --source /tmp/oal

``--lines FILE... --out OUT`` writes the normalizer records for every line of the files
instead (the live comparison on WMT22; ``BLEUPRINT_WHISPER_COMPARE=OUT cargo test --lib
text::whisper`` checks it).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_open_asr_tables import NUM2WORDS_VERSION, REVISION, UPSTREAM  # noqa: E402
from gen_whisper_golden import (  # noqa: E402
    BASIC_EXTRA,
    ENGLISH,
    NUMBERS,
    header,
    random_inputs,
    random_unicode,
)

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
OUT = DATA / "golden_open_asr_normalizers.jsonl"
PAIRS_OUT = DATA / "golden_open_asr_pairs.jsonl"
LANGUAGES = ("de", "fr", "it", "es", "pt")

# fmt: off
LEADERBOARD = [
    # EnglishTextNormalizer's own steps
    "It's the B B C wi-fi, al right?", "all right, how ever", "et cetera et  cetera",
    "e-mail me the e book", "x ray, T-shirt, sci fi, hi-fi, lo fi", "6 a m to 9 p.m.",
    "o k, O.K., ok, okay", "a b c", "a b", "i b m", "5 g", "a i", "a big cat", "u s a",
    "the u n and the e u", "1 2 3", "x y", "é è", "_ a", "a _ b", "ß s", "mr. b. b. king",
    "ah, aha, ahh, ahm, eh, ehehe, em, hm, huh, hum, mhum, uhm, umm, uhuh", "mm hmm",
    "he's here, she's there, it's that, what's this, who's who, how's it, why's that",
    "john's car, the dog's bone, here's where's when's", "this's, there's, that's",
    "Alan and Allan met Allen", "Jon, John, Jonathan", "Stephen Steven Stefan",
    "gregg garry jacky joann", "yoghurts and cancellations", "colour flyer kay ok mm",
    "archaeological travelogue pummelling", "Mac Donald McDonald", "catherine katherine",
    "twenty one oh five", "twenty five o", "twenty seven fifties",
    "Gov. Smith and Rev. Jones, Jr. and Sr. Esq.", "Lt. Col. Gen. Capt. Asst. Assoc.",
    # MultilingualNormalizer's
    "Es kostet 10 000 Euro.", "J'ai 21 ans", "1 000 000 y 5", "1 000 000", "12 345 678",
    "1\u00a0000", "1\u202f000", "1 0000", "1  000", "10 00", "1 000a", "1 000_", "1 000.5",
    "Él dijo: «¡Hola!» (risas)", "¿Qué? ¡Sí!", "l'été à Paris", "Straße, Größe, Übermaß",
    "C'est 80 % de 1 000 €", "Il a 71, 81, 91 et 99 ans", "n.º 5", "3ª", "2º", "1.º",
    "über 1914–1918", "Tel. +49 (0)30 1234-567", "12:30 Uhr", "1,5 Liter", "3.000 Meter",
    "𝟏𝟐𝟑", "١٢٣", "١ ٠٠٠", "٣ ٤٥٦", "²³", "½ ¼", "Ⅻ", "a\u200bb", "a\u200db", "\u00ad",
    "x\u0301", "Crème brûlée", "ΣΑΣ σας", "Ǆ ǅ ǆ", "İstanbul", "ﬁ ﬂ", "ｆｕｌｌ",
    "[música] <unk> (aplausos) texto", "a (b) c [d] e <f> g", "((a))", "(", ")", "[", "<>",
    "0", "00", "007", "0 000", "100 000 000 000", "999 999", "1 000 001",
]
# fmt: on


def load(source: Path) -> dict[str, Any]:
    """The leaderboard's normalizers and ``normalize_compound_pairs``, imported from the
    checkout (``data_utils`` imports ``datasets`` and ``huggingface_hub`` for other jobs:
    stubbed)."""
    for name in ("datasets", "huggingface_hub"):
        sys.modules[name] = types.ModuleType(name)
    datasets = sys.modules["datasets"]
    datasets.Audio = datasets.IterableDataset = object  # type: ignore[attr-defined]
    datasets.load_dataset = None  # type: ignore[attr-defined]
    sys.modules["huggingface_hub"].snapshot_download = None  # type: ignore[attr-defined]
    sys.path.insert(0, str(source))
    from importlib.metadata import version

    import num2words  # noqa: F401 - the leaderboard's dependency, pinned by the test extra
    from normalizer import data_utils  # type: ignore[import-not-found]
    from normalizer.eval_utils import normalize_compound_pairs  # type: ignore[import-not-found]

    if version("num2words") != NUM2WORDS_VERSION:
        sys.exit(f"num2words {version('num2words')} is installed; expected {NUM2WORDS_VERSION}")
    named: dict[str, Callable[[str], str]] = {
        "open-asr-en": data_utils.normalizer,
        "open-asr-multilingual": data_utils.ml_normalizer,
    }
    for lang in LANGUAGES:
        named[f"open-asr-multilingual-{lang}"] = lambda s, lang=lang: data_utils.ml_normalizer(
            s, lang=lang
        )
    return {"named": named, "pairs": normalize_compound_pairs}


def record(named: dict[str, Callable[[str], str]], text: str) -> dict[str, Any]:
    expected: dict[str, Any] = {}
    for name, normalize in named.items():
        try:
            expected[name] = normalize(text)
        except (ValueError, AssertionError) as e:
            expected[name] = {"error": type(e).__name__}
    return {"input": text, "expected": expected}


def numbers(seed: int) -> list[str]:
    """Digits as num2words reads them: every size up to past its limits, in text."""
    rng = random.Random(seed)
    out = [str(n) for n in range(0, 130)] + [str(n) for n in range(130, 2200, 7)]
    out += [str(10**k) for k in range(3, 70, 3)] + [str(10**k + 1) for k in range(3, 40)]
    out += ["1" + "0" * 26, "9" * 27, "1" + "0" * 65, "9" * 66, "9" * 606, "1" + "0" * 606]
    out += ["1" * 4300, "1" * 4301, "0" * 4301 + "1"]
    for _ in range(200):
        digits = str(rng.randrange(1, 10)) + "".join(
            rng.choice("0000123456789") for _ in range(rng.randrange(0, 30))
        )
        out.append(f"{rng.choice(['', 'x ', 'Preis '])}{digits}{rng.choice(['', ' €', '%'])}")
    return out


def pairs(seed: int, count: int) -> list[tuple[str, str]]:
    """Reference/hypothesis pairs whose hypothesis joins, splits, drops and adds words."""
    rng = random.Random(seed)
    vocab = [
        "haus", "tür", "haustür", "der", "die", "und", "white", "paper", "whitepaper",
        "wi", "fi", "wifi", "a", "b", "ab", "the", "of", "x", "nord", "see", "nordsee",
    ]  # fmt: skip
    out = []
    for _ in range(count):
        n = rng.choice([1, 3, 8, 20, 60, 210, 320])
        ref = [rng.choice(vocab) for _ in range(n)]
        hyp: list[str] = []
        i = 0
        while i < len(ref):
            r = rng.random()
            if r < 0.12 and i + 1 < len(ref):
                hyp.append(ref[i] + ref[i + 1])
                i += 2
                continue
            if r < 0.24 and len(ref[i]) > 2:
                k = rng.randrange(1, len(ref[i]))
                hyp += [ref[i][:k], ref[i][k:]]
            elif r < 0.3:
                pass
            elif r < 0.36:
                hyp += [rng.choice(vocab), ref[i]]
            else:
                hyp.append(ref[i])
            i += 1
        out.append((" ".join(ref), " ".join(hyp)))
    return out


def write(path: Path, rows: list[dict[str, Any]], prefix: str) -> None:
    common = {
        "upstream": UPSTREAM,
        "version": REVISION,
        "python": sys.version.split()[0],
        "source": "tools/gen_open_asr_golden.py",
    }
    with path.open("w", encoding="utf-8") as f:
        for i, row in enumerate(rows):
            row = {"id": f"{prefix}-{i:05d}", **common, **row}
            f.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"wrote {path}: {len(rows) - 1} records")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, required=True, help="a leaderboard checkout")
    parser.add_argument("--lines", nargs="*", help="text files: one record per line")
    parser.add_argument("--out", type=Path, help="output of --lines")
    args = parser.parse_args()
    if sys.version_info[:2] != (3, 11):
        sys.exit("run on CPython 3.11 (unicodedata 14.0.0), as the tables are")
    up = load(args.source)
    named = up["named"]
    if args.lines:
        lines: list[str] = []
        for name in args.lines:
            with open(name, encoding="utf-8", newline="") as f:
                lines += f.read().split("\n")
        unique = list(dict.fromkeys(s for s in lines if s))
        what = f"{len(unique)} distinct lines of {len(args.lines)} files"
        write(args.out, [header(what), *(record(named, s) for s in unique)], "open-asr-lines")
        return
    inputs = list(
        dict.fromkeys(
            LEADERBOARD + NUMBERS + ENGLISH + BASIC_EXTRA + numbers(11)
            + random_inputs(29, 200) + random_unicode(2025, 150)
        )
    )  # fmt: skip
    what = "hand-written awkward inputs and seeded random mixes (tools/gen_open_asr_golden.py)"
    write(OUT, [header(what), *(record(named, s) for s in inputs)], "open-asr")
    made = pairs(17, 400)
    refs, hyps = up["pairs"]([r for r, _ in made], [h for _, h in made])
    rows = [
        {"ref": r, "hyp": h, "expected": {"ref": nr, "hyp": nh}}
        for (r, h), nr, nh in zip(made, refs, hyps)
    ]
    what = "seeded word pairs with joins and splits (tools/gen_open_asr_golden.py)"
    write(PAIRS_OUT, [header(what), *rows], "open-asr-pairs")


if __name__ == "__main__":
    main()
