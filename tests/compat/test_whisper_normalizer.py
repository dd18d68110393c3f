"""``bleuprint.compat.whisper_normalizer`` against the real whisper-normalizer 0.1.15 (the
test extra): its attributes, every golden input, hypothesis-generated text and a sample of
WMT22, errors included; ``install()``; and openai-whisper 20250625's own
``tests/test_normalizer.py`` (from its sdist) run through the drop-in."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleuprint.compat.whisper_normalizer import basic as ours_basic
from bleuprint.compat.whisper_normalizer import english as ours_english
from tests.support.upstream import read_member, run_pytest, sdist, suite_environment

wn = pytest.importorskip("whisper_normalizer")
from whisper_normalizer import basic, english  # noqa: E402

GOLDEN = Path(__file__).parents[1] / "data" / "golden_whisper_normalizer_package.jsonl"


def pairs() -> list[tuple[str, Callable[[str], str], Callable[[str], str]]]:
    """(name, ours, the package's) for every class and function, with each option."""
    out: list[tuple[str, Callable[[str], str], Callable[[str], str]]] = [
        ("english", ours_english.EnglishTextNormalizer(), english.EnglishTextNormalizer()),
        ("numbers", ours_english.EnglishNumberNormalizer(), english.EnglishNumberNormalizer()),
        ("spelling", ours_english.EnglishSpellingNormalizer(),
         english.EnglishSpellingNormalizer()),
    ]  # fmt: skip
    options_tried: list[dict[str, bool]] = [
        {}, {"remove_diacritics": True}, {"split_letters": True}, {"preserve_marks": True},
        {"split_letters": True, "preserve_marks": True},
    ]  # fmt: skip
    for options in options_tried:
        out.append((f"basic{options}", ours_basic.BasicTextNormalizer(**options),
                    basic.BasicTextNormalizer(**options)))  # fmt: skip
    for marks in (False, True):
        out.append((f"remove_symbols(preserve_marks={marks})",
                    lambda s, m=marks: ours_basic.remove_symbols(s, m),
                    lambda s, m=marks: basic.remove_symbols(s, preserve_marks=m)))  # fmt: skip
    out.append(("remove_symbols_and_diacritics(keep='.%$')",
                lambda s: ours_basic.remove_symbols_and_diacritics(s, ".%$"),
                lambda s: basic.remove_symbols_and_diacritics(s, keep=".%$")))  # fmt: skip
    return out


PAIRS = pairs()


def outcome(f: Callable[[str], str], s: str) -> Any:
    """The string, or the type of the exception (the package raises ValueError or
    AssertionError for numbers past CPython's 4,300-digit limit)."""
    try:
        return f(s)
    except (ValueError, AssertionError) as e:
        return type(e).__name__


def differences(texts: list[str]) -> list[tuple[str, str, Any, Any]]:
    return [
        (name, s, outcome(ours, s), outcome(theirs, s))
        for name, ours, theirs in PAIRS
        for s in texts
        if outcome(ours, s) != outcome(theirs, s)
    ]


def test_version_and_attributes() -> None:
    import bleuprint.compat.whisper_normalizer as compat

    assert wn.__version__ == compat.__version__ == "0.1.15"
    ours, theirs = ours_english.EnglishTextNormalizer(), english.EnglishTextNormalizer()
    assert ours.replacers == theirs.replacers  # same patterns, same order
    assert list(ours.replacers) == list(theirs.replacers)
    assert ours.ignore_patterns == theirs.ignore_patterns
    assert ours.standardize_spellings.mapping == theirs.standardize_spellings.mapping
    assert ours_basic.ADDITIONAL_DIACRITICS == basic.ADDITIONAL_DIACRITICS
    assert set(ours_english.__all__) == set(english.__all__)
    assert set(ours_basic.__all__) == set(basic.__all__)


def test_every_golden_input() -> None:
    records = [json.loads(line) for line in GOLDEN.read_text("utf-8").split("\n") if line]
    texts = [r["input"] for r in records[1:]]
    assert len(texts) > 900
    wrong = differences(texts)
    assert not wrong, f"{len(wrong)} differ, e.g. {wrong[:3]}"


def test_a_sample_of_wmt22(wmt22: Path) -> None:
    lines = [line for f in sorted(wmt22.glob("*/*.en"))
             for line in f.read_text("utf-8").split("\n")[::40] if line]  # fmt: skip
    assert len(lines) > 3500
    wrong = differences(lines)
    assert not wrong, f"{len(wrong)} differ, e.g. {wrong[:3]}"


PIECES = ["one", "two", "twenty", "hundred", "thousand", "million", "first", "point",
          "oh", "double", "and", "a", "half", "dollars", "cents", "percent", "minus", "mr",
          "st", "dunno", "kinda", "cause", "'s", "n't", "colour", "1", "1.5", "12,345", "$", "£",
          "€", "¢", "%", ".", ",", "-", "[x]", "(y)", "हिन्दी", "é", "ß", "ﬁ", "①",
          "😀"]  # fmt: skip


@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=12),
       st.lists(st.sampled_from([" ", "", "  ", "\t", "-"]), min_size=12, max_size=12))  # fmt: skip
def test_generated_text(pieces: list[str], gaps: list[str]) -> None:
    text = "".join(p + g for p, g in zip(pieces, gaps))
    assert not differences([text])


def test_errors() -> None:
    with pytest.raises(ValueError, match="preserve_marks cannot be used"):
        ours_basic.BasicTextNormalizer(remove_diacritics=True, preserve_marks=True)
    with pytest.raises(ValueError, match="preserve_marks cannot be used"):
        basic.BasicTextNormalizer(remove_diacritics=True, preserve_marks=True)
    for bad in (None, 3, b"two"):
        with pytest.raises(TypeError):
            ours_english.EnglishTextNormalizer()(bad)  # type: ignore[arg-type]
    big = "1" * 4301
    assert outcome(ours_english.EnglishNumberNormalizer(), big) == outcome(
        english.EnglishNumberNormalizer(), big)  # fmt: skip


def test_install_serves_the_package_name() -> None:
    code = (
        "import bleuprint.compat.whisper_normalizer as c; c.install()\n"
        "from whisper_normalizer.english import EnglishTextNormalizer\n"
        "from whisper_normalizer.basic import BasicTextNormalizer\n"
        "import whisper_normalizer\n"
        "assert EnglishTextNormalizer.__module__.startswith('bleuprint'), "
        "EnglishTextNormalizer.__module__\n"
        "assert whisper_normalizer.__version__ == '0.1.15'\n"
        "print(EnglishTextNormalizer()('I dunno, ten dollars'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, env=suite_environment({}))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == "i do not know $10\n"


def test_openai_whispers_own_tests(tmp_path: Path) -> None:
    """openai-whisper 20250625's ``tests/test_normalizer.py``, unmodified but for its imports
    (``whisper.normalizers`` -> ``whisper_normalizer``, the package that copies it), run on
    the drop-in after ``install()``: every test passes."""
    archive = sdist("openai_whisper", "20250625")
    source = read_member(archive, "openai_whisper-20250625/tests/test_normalizer.py").decode()
    imports = {
        "from whisper.normalizers import EnglishTextNormalizer":
            "from whisper_normalizer.english import EnglishTextNormalizer",
        "from whisper.normalizers.english import": "from whisper_normalizer.english import",
    }  # fmt: skip
    for old, new in imports.items():
        assert old in source
        source = source.replace(old, new)
    assert "whisper.normalizers" not in source
    (tmp_path / "test_normalizer.py").write_text(source, "utf-8")
    (tmp_path / "conftest.py").write_text(
        "import bleuprint.compat.whisper_normalizer as c\nc.install()\n"
        "import whisper_normalizer.english as e\n"
        "assert e.EnglishTextNormalizer.__module__.startswith('bleuprint'), 'not installed'\n",
        "utf-8",
    )
    done = run_pytest(tmp_path, ["-q", "test_normalizer.py"], suite_environment({}), 300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    # test_number_normalizer (on two normalizers), test_spelling_normalizer,
    # test_text_normalizer.
    assert "4 passed" in done.stdout, done.stdout[-500:]
    assert "failed" not in done.stdout, done.stdout[-500:]
