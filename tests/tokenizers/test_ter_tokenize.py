"""`_core.tokenize` with a `TerKernel` against sacrebleu 2.6.0's `TercomTokenizer`, string for
string, for all 8 combinations of `normalized`, `no_punct` and `asian_support`.

TER tokenizes `line.rstrip()`; lowercasing (TER's default) is Python's `str.lower()`, applied
before the core sees the text. Both case settings are checked.

- every line of the WMT22 sources, references and system outputs;
- every Unicode code point in contexts that tell the tokenizer's character classes apart;
- random text aimed at its corner cases (hypothesis).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("sacrebleu")
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer  # noqa: E402

from bleuprint import _core  # noqa: E402
from tests.support.checks import assert_same_lines  # noqa: E402
from tests.support.data import WMT22  # noqa: E402
from tests.support.strategies import tercom_text  # noqa: E402

pytestmark = pytest.mark.differential

FLAGS = [
    {"normalized": n, "no_punct": p, "asian_support": a}
    for n, p, a in itertools.product((False, True), repeat=3)
]
FLAG_IDS = ["-".join(k for k, v in f.items() if v) or "default" for f in FLAGS]
SURROGATES = range(0xD800, 0xE000)


def assert_same(lines: list[str], flags: dict, case_sensitive: bool, where: str = "") -> None:
    """`_core.tokenize(TerKernel(**flags), ...)` equals what sacrebleu's TER feeds to its edit
    distance."""
    tokenizer = TercomTokenizer(**flags, case_sensitive=case_sensitive)
    expected = [tokenizer(line.rstrip()) for line in lines]
    inputs = lines if case_sensitive else [line.lower() for line in lines]
    got = _core.tokenize(_core.TerKernel(**flags), inputs)
    assert_same_lines(f"{flags}{where}", lines, expected, got)


# --- WMT22 -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def wmt22_lines() -> list[str]:
    """Every distinct line of every data file, split on "\\n" only as sacrebleu reads them."""
    dirs = [WMT22 / d for d in ("sources", "references", "system-outputs")]
    if not all(d.is_dir() for d in dirs):
        pytest.skip(f"{WMT22} is not available")
    files = sorted(p for d in dirs for p in d.rglob("*") if p.is_file())
    lines = {line for p in files for line in p.read_bytes().decode("utf-8").split("\n")}
    return sorted(lines)


@pytest.mark.slow
@pytest.mark.parametrize("flags", FLAGS, ids=FLAG_IDS)
def test_wmt22_every_line(flags: dict, wmt22_lines: list[str]) -> None:
    assert_same(wmt22_lines, flags, case_sensitive=False)
    print(f"ter tokenizer {flags}: {len(wmt22_lines)} distinct WMT22 lines, all identical")
    assert len(wmt22_lines) > 100_000


@pytest.mark.slow
def test_wmt22_case_sensitive(wmt22_lines: list[str]) -> None:
    for flags in FLAGS:
        assert_same(wmt22_lines[::10], flags, case_sensitive=True)


# --- every code point --------------------------------------------------------------------


def code_point_lines() -> list[str]:
    """Each code point `c` next to letters, digits, `.`, `,`, `-`, `'s` and spaces, 64 code
    points per line."""
    chars = [chr(cp) for cp in range(0x110000) if cp not in SURROGATES]
    contexts = "a{c}b 1{c}2 1.{c} {c}.1 {c},x {c}-1 1-{c} {c}'s {c}{c}あ{c}"
    return [
        " ".join(contexts.format(c=c) for c in chars[start : start + 64])
        for start in range(0, len(chars), 64)
    ]


@pytest.mark.slow
@pytest.mark.parametrize("flags", FLAGS, ids=FLAG_IDS)
def test_every_code_point(flags: dict) -> None:
    assert_same(code_point_lines(), flags, case_sensitive=True)


# --- random text -----------------------------------------------------------------------------


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(tercom_text, min_size=1, max_size=8))
def test_tokenizer_matches_sacrebleu(lines: list[str]) -> None:
    for flags in FLAGS:
        for case_sensitive in (False, True):
            tokenizer = TercomTokenizer(**flags, case_sensitive=case_sensitive)
            expected = [tokenizer(line.rstrip()) for line in lines]
            inputs = lines if case_sensitive else [line.lower() for line in lines]
            got = _core.tokenize(_core.TerKernel(**flags), inputs)
            assert got == expected, (flags, case_sensitive)
