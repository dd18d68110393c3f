"""bleuprint's tokenizers against sacrebleu 2.6.0's, string for string.

- every line of the WMT22 sources, references and system outputs;
- every Unicode code point in a few contexts (checks the generated `intl` tables against
  the `regex` module they must reproduce, and `zh`'s effective character ranges);
- hypothesis-generated text aimed at the corner cases (entities, `<skipped>`, hyphenated
  line ends, digits next to `.`/`,`/`-`, every P*, S* and N* category).
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("sacrebleu")
pytest.importorskip("hypothesis")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a  # noqa: E402
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar  # noqa: E402
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International  # noqa: E402
from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer  # noqa: E402
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh  # noqa: E402

from bleuprint import _core  # noqa: E402
from tests.support.checks import assert_same_lines
from tests.support.data import REPO, WMT22
from tests.support.strategies import arbitrary, digits

TABLES = REPO / "src" / "tokenize" / "unicode_tables.rs"

REFERENCE = {
    "none": NoneTokenizer,
    "13a": Tokenizer13a,
    "intl": TokenizerV14International,
    "char": TokenizerChar,
    "zh": TokenizerZh,
}
NAMES = list(REFERENCE)
SURROGATES = range(0xD800, 0xE000)


def assert_same(lines: list[str], name: str, where: str = "") -> None:
    """`_core.tokenize(name, lines)` equals sacrebleu's tokenizer applied line by line."""
    got = _core.tokenize(name, lines)
    tokenizer = REFERENCE[name]()
    expected = [tokenizer(line) for line in lines]
    assert_same_lines(f"{name}{where}", lines, expected, got)


# --- WMT22 -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def wmt22_files() -> list[tuple[str, list[str]]]:
    """(relative path, lines) of every data file, split on "\\n" only as sacrebleu reads
    them (`open(newline="\\n")`: no universal newlines, U+2028 and friends stay in-line)."""
    dirs = [WMT22 / d for d in ("sources", "references", "system-outputs")]
    if not all(d.is_dir() for d in dirs):
        pytest.skip(f"{WMT22} is not available")
    files = sorted(p for d in dirs for p in d.rglob("*") if p.is_file())
    return [(str(p.relative_to(WMT22)), p.read_bytes().decode("utf-8").split("\n")) for p in files]


@pytest.mark.differential
@pytest.mark.parametrize("name", NAMES)
def test_wmt22_every_line(name: str, wmt22_files: list[tuple[str, list[str]]]) -> None:
    compared = 0
    for path, lines in wmt22_files:
        assert_same(lines, name, f" in {path}")
        compared += len(lines)
    print(f"tok:{name}: {compared} WMT22 lines from {len(wmt22_files)} files, all identical")
    assert compared > len(wmt22_files) > 0


# --- every code point --------------------------------------------------------------------


def code_point_lines() -> list[str]:
    """Each code point `c` in contexts telling P, S, N, whitespace and the rest apart for
    both 13a and intl: `a c b` (P and S split), `1c2` (only S splits), `1.c` (splits unless c
    is N), `c-1` and `1-c`. 64 code points per line keeps sacrebleu's per-call cost low."""
    chars = [chr(cp) for cp in range(0x110000) if cp not in SURROGATES]
    lines = []
    for start in range(0, len(chars), 64):
        lines.append(" ".join(f"a{c}b 1{c}2 1.{c} {c}-1 1-{c}" for c in chars[start : start + 64]))
    return lines


@pytest.mark.differential
@pytest.mark.parametrize("name", NAMES)
def test_every_code_point(name: str) -> None:
    assert_same(code_point_lines(), name)


# --- hypothesis ----------------------------------------------------------------------------


def table_ranges(const: str) -> list[tuple[int, int]]:
    """The inclusive ranges of one table in the generated Rust file."""
    text = TABLES.read_text(encoding="utf-8")
    body = re.search(rf"const {const}: &\[\(u32, u32\)\] = &\[(.*?)\];", text, re.S)
    assert body is not None, const
    return [(int(a, 16), int(b, 16)) for a, b in re.findall(r"\(0x(\w+), 0x(\w+)\)", body[1])]


def from_ranges(ranges: list[tuple[int, int]]) -> st.SearchStrategy[str]:
    return st.sampled_from(ranges).flatmap(lambda r: st.integers(r[0], r[1])).map(chr)


CATEGORIES = ["Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"]
CATEGORIES += ["Sm", "Sc", "Sk", "So", "Nd", "Nl", "No"]

# Code points in each class as the `regex` module (Unicode 17.0) sees them, and in each
# P*/S*/N* general category as hypothesis (Python's unicodedata) sees them.
class_chars = st.one_of(
    from_ranges(table_ranges("PUNCT")),
    from_ranges(table_ranges("SYMBOL")),
    from_ranges(table_ranges("NUMBER")),
    *(st.characters(categories=[cat]) for cat in CATEGORIES),
)
pieces = st.sampled_from(
    [
        "&quot;",
        "&amp;",
        "&lt;",
        "&gt;",
        "&apos;",
        "&amp;lt;",
        "&amp;amp;",
        "&",
        ";",
        "amp;",
        "<skipped>",
        "<",
        ">",
        "skipped",
        "-\n",
        "\n",
        "\r\n",
        "\r",
        " ",
        "  ",
        "\t",
        "\u00a0",
        "\u3000",
        "\u2028",
        "\x85",
        "\x1c",
        "\u200b",
        "-",
        "--",
        ".",
        ",",
        "...",
        "'",
        "$",
        "a",
        "Z",
        "é",
        "中",
        "。",
        "，",
        "²",
        "٣",
        "０",
    ]  # fmt: skip
)
numberish = st.builds(
    lambda a, sep, b: a + sep + b,
    st.one_of(digits, st.just(""), class_chars),
    st.text(alphabet=".,-", min_size=1, max_size=3),
    st.one_of(digits, st.just(""), class_chars),
)
structured = st.lists(
    st.one_of(pieces, digits, numberish, class_chars, st.characters(exclude_categories=["Cs"])),
    max_size=24,
).map("".join)

HYPOTHESIS = settings(
    max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@HYPOTHESIS
@given(lines=st.lists(arbitrary, min_size=1, max_size=8))
def test_arbitrary_text(lines: list[str]) -> None:
    for name in NAMES:
        assert_same(lines, name)


@HYPOTHESIS
@given(lines=st.lists(structured, min_size=1, max_size=8))
def test_structured_text(lines: list[str]) -> None:
    for name in NAMES:
        assert_same(lines, name)


@pytest.mark.parametrize(
    ("line", "name", "expected"),
    [
        ("It costs $3.50, i.e. 3,000 yen.", "13a", "It costs $ 3.50 , i . e . 3,000 yen ."),
        ("&amp;lt; &apos;", "13a", "< & apos ;"),
        ("word-\nnext<skipped>", "13a", "wordnext"),
        ("The year was 2017.", "intl", "The year was 2017."),
        ("中文English混合，测试！2017年。", "intl", "中文English混合 ， 测试 ！ 2017年 。"),
        ("a\u20c1b", "intl", "a \u20c1 b"),  # SAUDI RIYAL SIGN, new in Unicode 17.0: a symbol
        # zh (sacrebleu.md §2.4): its malformed ranges take in quotes, dashes and the euro
        # sign, but not kana; no 13a padding, so a final "2017." stays whole.
        ("“Smart quotes” — dash… and €5", "zh", "“ Smart quotes ” — dash … and € 5"),
        ("中文English混合，测试！2017年。", "zh", "中 文 English 混 合 ， 测 试 ！ 2017 年 。"),
        ("日本語のテキストです。カタカナ", "zh", "日 本 語 のテキストです 。 カタカナ"),
        ("The year was 2017.", "zh", "The year was 2017."),
        ("&amp; 𠀀", "zh", "& amp ; 𠀀"),
    ],
)
def test_examples(line: str, name: str, expected: str) -> None:
    assert _core.tokenize(name, [line]) == [expected]
    assert REFERENCE[name]()(line) == expected
