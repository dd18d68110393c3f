#!/usr/bin/env python3
"""Write tests/data/golden_whisper_normalizers.jsonl: openai-whisper 20250625's own text
normalizers run on a few hundred awkward inputs (hand-written, plus seeded random mixes); and
tests/data/golden_whisper_normalizer_package.jsonl: the whisper-normalizer 0.1.15 package's
(its ``english`` and ``basic`` modules, imported from its wheel) on the same inputs.

Each record holds one `input` and, in `expected`, what each named normalizer makes of it
(`whisper-english`, `whisper-basic(remove_diacritics=True)`, ...: the upstream class or
function and its options), or `{"error": ...}` where upstream raised. The Rust tests
(`src/text/whisper/golden.rs`) assert that bleuprint's normalizers give every one. Every
line names the upstream, its version and the Python; the first (no `input`) also the
`unicodedata` and `regex` versions the outputs were computed with (they decide the Unicode
behaviour).

Upstream is loaded without torch: the sdist's `whisper/normalizers/` package is imported
under a stub `whisper` package. Run it in a scratch environment, never the project's:

    python3.11 -m venv /tmp/wv && /tmp/wv/bin/pip install regex==2026.5.9 more-itertools
    /tmp/wv/bin/python tools/gen_whisper_golden.py [--sdist openai_whisper-20250625.tar.gz]

With ``--lines FILE... --out OUT [--package-out OUT2]`` it writes the same records for every
line of the files instead (the live comparison on WMT22's English lines; run the Rust test
with ``BLEUPRINT_WHISPER_COMPARE=OUT:OUT2``). The sdist and the wheel are downloaded with pip
when not given (or ``WHISPER_SDIST``, ``WHISPER_NORMALIZER_WHEEL``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tarfile
import tempfile
import types
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gen_whisper_tables import PACKAGE, PACKAGE_VERSION, UPSTREAM, sdist_path, wheel_path
from gen_whisper_tables import UPSTREAM_VERSION as VERSION

KEEP = ".%$¢€£"  # what EnglishTextNormalizer keeps
DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
OUT = DATA / "golden_whisper_normalizers.jsonl"
PACKAGE_OUT = DATA / "golden_whisper_normalizer_package.jsonl"


def load_upstream(sdist: Path, tmp: str) -> dict[str, Any]:
    prefix = f"openai_whisper-{VERSION}/whisper/normalizers/"
    root = Path(tmp) / "whisper"
    (root / "normalizers").mkdir(parents=True)
    with tarfile.open(sdist) as tar:
        for name in ("__init__.py", "basic.py", "english.py", "english.json"):
            member = tar.extractfile(prefix + name)
            assert member is not None, name
            (root / "normalizers" / name).write_bytes(member.read())
    package = types.ModuleType("whisper")
    package.__path__ = [str(root)]  # the real whisper/__init__.py imports torch
    sys.modules["whisper"] = package
    from whisper.normalizers import basic, english  # type: ignore[import-not-found]

    return {"basic": basic, "english": english}


def load_package(wheel: Path, tmp: str) -> dict[str, Any]:
    """whisper-normalizer's ``basic`` and ``english`` modules, imported from its wheel (its
    ``__init__`` holds only the version; ``english`` reads ``normalizers/english.json``)."""
    import zipfile

    root = Path(tmp) / "package"
    with zipfile.ZipFile(wheel) as whl:
        for name in ("__init__.py", "basic.py", "english.py", "normalizers/english.json"):
            target = root / "whisper_normalizer" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(whl.read(f"whisper_normalizer/{name}"))
    sys.path.insert(0, str(root))
    import whisper_normalizer  # type: ignore[import-not-found]
    from whisper_normalizer import basic, english  # type: ignore[import-not-found]

    assert whisper_normalizer.__version__ == PACKAGE_VERSION, whisper_normalizer.__version__
    assert Path(whisper_normalizer.__file__).parent == root / "whisper_normalizer"
    return {"basic": basic, "english": english}


# --- inputs ---------------------------------------------------------------------------------

# fmt: off
NUMBERS = [
    # openai-whisper's tests/test_normalizer.py
    "two", "thirty one", "five twenty four", "nineteen ninety nine", "twenty nineteen",
    "two point five million", "four point two billions", "200 thousand", "200 thousand dollars",
    "$20 million", "€52.4 million", "£77 thousands", "two double o eight",
    "three thousand twenty nine", "forty three thousand two hundred sixty",
    "forty three thousand two hundred and sixty", "nineteen fifties", "thirty first",
    "thirty three thousand and three hundred and thirty third", "three billion", "millions",
    "july third twenty twenty", "august twenty sixth twenty twenty one", "3 14", "3.14",
    "3 point 2", "3 point 14", "fourteen point 4", "two point two five dollars",
    "two hundred million dollars", "$20.1 million", "ninety percent", "seventy six per cent",
    "double oh seven", "double zero seven", "nine one one", "nine double one",
    "one triple oh one", "two thousandth", "thirty two thousandth", "minus 500",
    "positive twenty thousand", "two dollars and seventy cents", "3 cents", "$0.36",
    "three euros and sixty five cents", "three and a half million",
    "forty eight and a half dollars", "b747", "10 th", "10th",
    # more
    "one oh five", "one o five", "oh oh seven", "zero", "zero zero", "o", "oh", "oh no",
    "one", "ones", "the one", "1", "1s", "1.5", "1.0", "1.50", "0.5", "0.05", "007", "00",
    "1,000", "1,000,000", "1,2,3", "12,345.67", "3,14", "1, 2", "1 ,2",
    "$1", "$1.", "$1.5", "$1.05", "$0.5", "$0.05", "$0.5 million", "$0", "$00.5", "$0x5",
    "$5 and ¢7", "$5 ¢7", "$5 and ¢123", "£3 and 5 cents", "€3 and 50 cents", "5$", "$$5",
    "$", "$a", "€", "£", "¢", "5 cents", "five cents", "a cent", "per cent", "ten per cent",
    "ten per", "per", "percent", "ten percent", "100%", "100 %", "%", "a%", "5%%",
    "first", "second", "third", "fourth", "fifth", "ninth", "nineth", "twelfth", "zeroth",
    "twentieth", "hundredth", "thousandths", "twenties", "the nineteen nineties",
    "eighteen hundreds", "one hundred and one", "one hundred one", "hundred",
    "a hundred", "a thousand and one nights", "one thousand two hundred thirty four",
    "twenty twenty two", "nineteen oh five", "two thousand and five",
    "one million two hundred thousand", "five hundred thousand million",
    "one decillion", "one decillion decillion", "nine hundred ninety nine decillion",
    "twelve hundred", "eleven hundred eleven", "thirteen thirteen", "twenty one twenty two",
    "sixty sixes", "sixes and sevens", "seventy sevens", "forty fourth street",
    "minus", "minus five", "minus minus five", "negative twenty", "plus two", "plus",
    "positive", "minus and", "the minus sign", "point", "point five", "point point five",
    "five point", "five point oh", "zero point five", "point five million", "1.5 million",
    "1.55 thousand", "1.5555 thousand", "0 million", "0 thousands", "0 double five",
    "double", "double double", "double trouble", "triple five", "triple oh",
    "double twenty", "and", "and and", "one and", "one and two", "hundred and",
    "two and a half", "and a half", "x and a half and a half", "a half", "one and a halfs",
    "one and a half and", "twenty and a half", "hundred and a half", "and  a\thalf",
    "three and a half and a half", "it's one and a half", "one half",
    "1st", "2nd", "3rd", "4th", "21st", "1 st", "2 nd", "3 rd", "4 th", "5 s", "5s",
    "5 sth", "5 stuff", "a1", "a1b2c3", "1a1a", "rc232", "10km", "10mm", "km10",
    "5 dollars", "5 dollar", "dollars", "dollar five", "five pounds", "five euros and",
    "ten pound note", "£5 million", "€1,5", "two point two five", "1.2.3", "192.168.0.1",
    "one point two point three", "5. 5", "5 . 5", "1.5.", "version 2.0",
    "12:30", "9/11", "1/2", "3/4 cup", "50-50", "24-7", "-5", "+5", "- 5", "+-5", "5-",
    "٣", "١٢٣", "١.٥", "١,٢", "three ٣", "٣ million", "１２３", "２.５", "²", "x²", "½",
    "one two three four five six seven eight nine ten",
    "eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen",
    "twenty thirty forty fifty sixty seventy eighty ninety",
    "o one", "one o", "two o'clock", "oh one two", "twenty o five",
    "1 2 3", "1 2", "12 34", "1 million 2", "$ 5", "5 $", "the 1990s", "1990 s",
    "4 th of july", "the 4th of july", "july 4", "july fourth", "5 per cent",
    "nine one one one", "one oh one oh one", "double o seven", "oh seven",
]

ENGLISH = [
    "", " ", "   ", "\t\n", "a", "A", "Hello World", "HELLO, WORLD!", "Hello,world.",
    "Let's go", "let's", "LET'S", "he's like", "she's been like", "he'd been there",
    "she'd gone", "it's gone", "i'd done it", "he's done it", "he's got it", "won't", "can't",
    "ain't", "y'all", "wanna", "gotta", "gonna", "i'ma", "imma", "woulda", "coulda",
    "shoulda", "ma'am", "don't", "isn't", "we're", "you'll", "they've", "i'm", "he'd",
    "'t", "n't", "can't've", "won'tx", "xwon't", "a won't-b", "o'clock", "rock 'n' roll",
    "i 'm here", "i   've", "dogs ' tails", "'s", "it 's", "the cat's", "cats'",
    "Mr. Park visited Assoc. Prof. Kim Jr.", "mr smith", "mrs. smith", "Mrs Robinson",
    "st. louis", "1st st.", "Dr. Who", "dr.who", "prof", "capt. hook", "gov", "ald", "gen",
    "sen", "rep", "pres", "rev", "hon", "asst", "assoc", "lt", "col", "jr", "sr", "esq",
    "mr", "mrs", "mr's", "mrs'", "st", "saint st", "mr.mrs.", "mister mr", "mr-mrs",
    "hmm", "um", "uh", "mm", "mhm", "mmm", "hmm, yes", "umm", "uhh", "um-hmm", "uh-huh",
    "_um", "um_", "ummm uh um", "Hmm. Um, I think, uh, yes.",
    "[noise]", "<unk>", "[laughter] yes", "yes [laughter]", "a [b] c", "a <b> c", "a [b> c",
    "a <b] c", "a [b c", "a b] c", "[[a]]", "<<a>>", "[a [b] c]", "[]", "<>", "[ ]",
    "(laughs)", "(a) b (c)", "()", "( )", "((a))", "(a", "a)", "(a (b) c)", "(a)(b)",
    "hello (world", "[a\nb]", "(a\nb)", "<a>b<c>d", "a>b", "a]b",
    "colour", "Colour", "colours", "behaviour", "organise", "organisation", "mobilisation",
    "the theatre centre", "aluminium", "grey", "catalogue", "programme", "travelled",
    "analyse", "defence", "licence", "practise", "judgement", "manoeuvre", "aeroplane",
    "flyer / flier", "flyer", "colour.", "(colour)", "colour's",
    "Crème brûlée", "naïve café", "Straße", "STRASSE", "ẞ", "Œuvre", "æther", "Ærø",
    "Łódź", "đ Đ ð Ð þ Þ", "øre", "Ångström", "İstanbul", "ΣΑΣ", "ΟΔΥΣΣΕΥΣ", "Σ",
    "ΣΑΣ.", "άσσος Σ.", "Привет, мир!", "Ёлка", "日本語のテキスト", "中文，标点。", "한국어",
    "العربية", "עברית", "हिन्दी", "ภาษาไทย", "👍 emoji 🎉", "👨‍👩‍👧", "🇫🇷🇩🇪", "e\u0301",
    "a\u0308", "\u0301", "ﬁ ﬂ", "ｆｕｌｌ ｗｉｄｔｈ", "Ⅻ", "℃", "™", "©", "®", "…", "–—",
    "“quoted”", "‘single’", "«guillemets»", "¿qué?", "¡hola!", "a·b", "a\u00a0b",
    "a\u2028b", "a\u200bb", "a\ufeffb", "a\u3000b", "\u1e9e", "ǅ", "ﬀ", "Å", "Ω", "K",
    "\U0001fae0", "\U0001fa75", "\ua7cb", "\U00016d67\U00016d67", "\u0345", "ß",
    "hello...world", "end.", "...", "a.b.c", "3.14.", ".5", "5.", "e.g. this", "i.e.",
    "U.S.A.", "u.s.", "www.example.com", "a..b", ". .", "..5", "5..", ". 5",
    "it costs $5.", "it costs $5.50.", "pay £3.20 now", "€10,50", "$1,000,000",
    "50% off", "50 % off", "100%.", "%5", "a%b", "5%5",
    "a_b", "snake_case_word", "CamelCase", "x-ray", "well-known", "twenty-one",
    "forty-two", "one-oh-five", "e-mail", "a--b", "a—b", "re-enter", "co-operate",
    "tab\tseparated", "new\nline", "carriage\r\nreturn", "  leading and trailing  ",
    "multiple     spaces", "\x0b\x0c", "\x1c\x1d\x1e\x1f", "\x85", "a\x00b", "a\x7fb",
    "I have 2 cats and 3 dogs.", "In 1999, we paid $1.5 million.",
    "The 3rd time's the charm.", "It was the 1st of May, 2020.", "Call 911!",
    "I'm 6'2\"", "4'11", "rock'n'roll", "'quoted'", "' leading", "trailing '",
    "he said 'hello'", "'tis", "'twas", "y' know", "ya'll", "o'neil", "d'artagnan",
    "one fish two fish", "A Tale of Two Cities", "Catch-22", "Ocean's Eleven",
    "Apollo 13", "Boeing 747-400", "COVID-19", "H2O", "CO2", "mp3", "4k", "5G", "3D",
    "Windows 95", "iPhone 12 Pro", "B2B", "24/7", "9-5", "1-800-FLOWERS", "A1 sauce",
    # whisper-normalizer 0.1.15's four more replacements
    "I dunno, kinda", "'cause I said so", "because cause", "sorta kinda sort of", "Dunno.",
    "kindaa", "xcause", "cause's", "KINDA SORTA", "dunno-kinda", "it's 'cause ten dollars",
]

BASIC_EXTRA = [
    "Hello, World!", "l'été", "façade", "résumé", "Zürich", "São Paulo", "Ærøskøbing",
    "ŁÓDŹ", "Œ", "Ǆ", "ǉ", "ǋ", "ᾈ", "ﬃ", "Ⓐ", "㍿", "㈱", "①②③", "¼", "ｶﾀｶﾅ",
    "क्षत्रिय", "নমস্কার", "ক্ষ", "ន្ត", "ஸ்ரீ", "한글", "\u1100\u1161\u11a8", "각",
    "🏳️‍🌈", "👋🏽", "🇺🇳🇺", "\r\n", "a\r\nb", "a\u200db", "e\u0301\u0302", "\u0915\u094d",
    "\u0915\u094d\u0937", "\u0600\u0661", "\U0001f1e6\U0001f1e8\U0001f1e6",
    # marks that whisper-normalizer's preserve_marks keeps (Indic vowel signs, viramas)
    "हिन्दी, नमस्ते!", "தமிழ் (மொழி)", "বাংলা [ভাষা]", "ಕನ್ನಡ", "ગુજરાતી", "ไทย", "Crèmé brûlée",
]

TOKENS = [
    "one", "two", "three", "eleven", "twenty", "ninety", "hundred", "thousand", "million",
    "billion", "first", "second", "twentieth", "millionth", "ones", "twenties", "thousands",
    "oh", "o", "zero", "point", "and", "a", "half", "double", "triple", "minus", "plus",
    "dollars", "dollar", "cents", "cent", "pounds", "euro", "per", "percent", "1", "12",
    "1.5", "0.25", "007", "1,000", "3,5", "$", "$5", "£12", "€0.5", "¢3", "5%", "%", ".",
    ",", "'s", "n't", "'d", "mr", "mrs.", "dr", "st", "hmm", "um", "uh", "[x]", "(y)",
    "<z>", "colour", "organise", "theatre", "café", "naïve", "Straße", "ΣΑΣ", "٣", "١.٥",
    "２", "½", "²", "-", "+", "—", "…", "'", "\"", "!", "?", "st", "nd", "th", "s", "x",
    "and a half", "1st", "21st", "b747", "rc", "km", "😀", "\u0301", "e\u0301", "İ",
]
SEPARATORS = [" ", " ", " ", " ", "", "  ", "\t", "-", ", ", ". ", "\u00a0"]
# fmt: on


def random_inputs(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.randint(1, 9)
        parts = []
        for i in range(n):
            if i:
                parts.append(rng.choice(SEPARATORS))
            tok = rng.choice(TOKENS)
            if rng.random() < 0.15:
                tok = tok.upper()
            parts.append(tok)
        out.append("".join(parts))
    return out


def random_unicode(seed: int, count: int) -> list[str]:
    """Strings of random code points from the blocks where normalizers disagree most."""
    rng = random.Random(seed)
    # fmt: off
    pools = [
        (0x20, 0x7F), (0xA0, 0x250), (0x300, 0x370), (0x370, 0x400), (0x400, 0x530),
        (0x900, 0x980), (0x1100, 0x1200), (0x1E00, 0x2000), (0x2000, 0x2BFF), (0x3000, 0x3100),
        (0xAC00, 0xAC40), (0xFB00, 0xFB50), (0xFF00, 0xFFF0), (0x1D400, 0x1D800),
        (0x1F000, 0x1FB00), (0x10000, 0x10FFFF),
    ]
    # fmt: on
    out = []
    for _ in range(count):
        chars = []
        for _ in range(rng.randint(1, 12)):
            lo, hi = rng.choice(pools)
            cp = rng.randrange(lo, hi)
            if 0xD800 <= cp < 0xE000:
                continue
            chars.append(chr(cp))
        out.append("".join(chars))
    return out


# --- records --------------------------------------------------------------------------------


def normalizers(up: dict[str, Any]) -> dict[str, Callable[[str], str]]:
    """Every normalizer by the name the records give it (options in parentheses)."""
    basic, english = up["basic"], up["english"]
    named: dict[str, Callable[[str], str]] = {"whisper-english": english.EnglishTextNormalizer()}
    for remove_diacritics in (False, True):
        for split_letters in (False, True):
            options = ", ".join(
                f"{name}=True"
                for name, on in (
                    ("remove_diacritics", remove_diacritics),
                    ("split_letters", split_letters),
                )
                if on
            )
            name = f"whisper-basic({options})" if options else "whisper-basic"
            named[name] = basic.BasicTextNormalizer(remove_diacritics, split_letters)
    named["whisper-english-numbers"] = english.EnglishNumberNormalizer()
    named["whisper-english-spelling"] = english.EnglishSpellingNormalizer()
    named["remove_symbols"] = basic.remove_symbols
    named[f"remove_symbols_and_diacritics(keep={KEEP!r})"] = lambda s: (
        basic.remove_symbols_and_diacritics(s, keep=KEEP)
    )
    return named


def package_normalizers(pkg: dict[str, Any]) -> dict[str, Callable[[str], str]]:
    """whisper-normalizer's, named as ``normalizers`` names openai-whisper's."""
    basic, english = pkg["basic"], pkg["english"]
    return {
        "whisper-normalizer-english": english.EnglishTextNormalizer(),
        "whisper-normalizer-basic": basic.BasicTextNormalizer(),
        "whisper-normalizer-basic(remove_diacritics=True)": basic.BasicTextNormalizer(True),
        "whisper-normalizer-basic(preserve_marks=True)": basic.BasicTextNormalizer(
            preserve_marks=True
        ),
        "whisper-normalizer-basic(split_letters=True, preserve_marks=True)": (
            basic.BasicTextNormalizer(split_letters=True, preserve_marks=True)
        ),
        "remove_symbols(preserve_marks=True)": lambda s: basic.remove_symbols(
            s, preserve_marks=True
        ),
    }


PACKAGE_NAMES = [
    "whisper-normalizer-english",
    "whisper-normalizer-basic",
    "whisper-normalizer-basic(remove_diacritics=True)",
    "whisper-normalizer-basic(preserve_marks=True)",
    "whisper-normalizer-basic(split_letters=True, preserve_marks=True)",
    "remove_symbols(preserve_marks=True)",
]
PACKAGE_MAIN = ["whisper-normalizer-english", "whisper-normalizer-basic(preserve_marks=True)"]

MAIN = [
    "whisper-english",
    "whisper-basic",
    "whisper-basic(remove_diacritics=True)",
    "whisper-basic(split_letters=True)",
    "whisper-basic(remove_diacritics=True, split_letters=True)",
]
PARTS = [
    "whisper-english-numbers",
    "whisper-english-spelling",
    "remove_symbols",
    f"remove_symbols_and_diacritics(keep={KEEP!r})",
]


def record(named: dict[str, Callable[[str], str]], names: list[str], text: str) -> dict[str, Any]:
    """One input and what each named normalizer makes of it (or the exception it raises)."""
    expected: dict[str, Any] = {}
    for name in names:
        try:
            expected[name] = named[name](text)
        except (ValueError, AssertionError) as e:
            expected[name] = {"error": type(e).__name__}
    return {"input": text, "expected": expected}


def header(what: str) -> dict[str, Any]:
    import regex

    return {
        "unicodedata": unicodedata.unidata_version,
        "regex": regex.__version__,
        "what": what,
    }


def write(
    path: Path, rows: list[dict[str, Any]], upstream: tuple[str, str] = (UPSTREAM, VERSION)
) -> None:
    """Every line names the upstream, its version, the Python and the source, with a unique
    id, as every golden file of tests/data does (tests/metrics/test_golden.py checks it)."""
    common = {
        "upstream": upstream[0],
        "version": upstream[1],
        "python": sys.version.split()[0],
        "source": "tools/gen_whisper_golden.py",
    }
    prefix = "whisper" if upstream[0] == UPSTREAM else upstream[0]
    with path.open("w", encoding="utf-8") as f:
        for i, row in enumerate(rows):
            row = {"id": f"{prefix}-{i:05d}", **common, **row}
            f.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")
    strings = sum(len(row["expected"]) for row in rows[1:])
    print(f"wrote {path}: {len(rows) - 1} inputs, {strings} normalizer outputs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sdist", help=f"openai_whisper-{VERSION}.tar.gz (default: pip download)")
    parser.add_argument("--wheel", help=f"{PACKAGE} {PACKAGE_VERSION}'s wheel (default: pip)")
    parser.add_argument("--lines", nargs="*", help="text files: one record set per line")
    parser.add_argument("--out", type=Path, help="output of --lines (openai-whisper's)")
    parser.add_argument("--package-out", type=Path, help=f"output of --lines ({PACKAGE}'s)")
    args = parser.parse_args()
    if sys.version_info[:2] != (3, 11):
        sys.exit("run on CPython 3.11 (unicodedata 14.0.0), as the tables are")
    with tempfile.TemporaryDirectory() as tmp:
        up = load_upstream(sdist_path(args.sdist, tmp), tmp)
        named = normalizers(up)
        package = package_normalizers(load_package(wheel_path(args.wheel, tmp), tmp))
        if args.lines:
            lines = []
            for name in args.lines:
                with open(name, encoding="utf-8", newline="") as f:
                    lines += f.read().split("\n")
            unique = list(dict.fromkeys(s for s in lines if s))
            what = (
                f"{sum(1 for s in lines if s)} lines ({len(unique)} distinct) of "
                f"{len(args.lines)} files: " + " ".join(Path(n).name for n in args.lines)
            )
            rows = [record(named, MAIN + ["whisper-english-numbers"], s) for s in unique]
            write(args.out, [header(what), *rows])
            if args.package_out:
                rows = [record(package, PACKAGE_MAIN, s) for s in unique]
                write(args.package_out, [header(what), *rows], (PACKAGE, PACKAGE_VERSION))
            return
        hand = NUMBERS + ENGLISH + BASIC_EXTRA
        mixed = random_inputs(29, 150) + random_unicode(2025, 100)
        # Past CPython's 4300-digit int/str limit upstream raises (ValueError, AssertionError).
        long_numbers = [
            "1" * 4300,
            "1" * 4301,
            "0" * 4301,
            "1." + "0" * 4301,
            "9" * 4297 + " thousand",
            "9" * 4298 + " thousand",
            "one " + "decillion " * 3,
        ]
        rows = [record(named, MAIN + PARTS, s) for s in hand]
        rows += [record(named, MAIN + ["whisper-english-numbers"], s) for s in mixed]
        rows += [record(named, ["whisper-english-numbers"], s) for s in random_inputs(7, 150)]
        rows += [
            record(named, ["whisper-english", "whisper-english-numbers"], s) for s in long_numbers
        ]
        what = "hand-written awkward inputs and seeded random mixes (tools/gen_whisper_golden.py)"
        write(OUT, [header(what), *rows])
        # The package's variants on the same inputs.
        rows = [record(package, PACKAGE_NAMES, s) for s in hand + mixed]
        rows += [record(package, ["whisper-normalizer-english"], s) for s in long_numbers]
        write(PACKAGE_OUT, [header(what), *rows], (PACKAGE, PACKAGE_VERSION))


if __name__ == "__main__":
    main()
