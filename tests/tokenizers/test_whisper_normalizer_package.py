"""The whisper-normalizer 0.1.15 package's variants of openai-whisper's normalizers
(``whisper-normalizer-english``, ``whisper-normalizer-basic-marks``): every golden output of
``tests/data/golden_whisper_normalizer_package.jsonl`` (recorded from the package's wheel by
``tools/gen_whisper_golden.py``), and the installed package itself (the test extra) on the
golden inputs and on every English line of WMT22."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import bleuprint
from bleuprint.tokenizers import NORMALIZATIONS, normalization_signature, normalized

GOLDEN = Path(__file__).parents[1] / "data" / "golden_whisper_normalizer_package.jsonl"
# Our name -> the name of the package's normalizer in the golden records.
NAMES = {
    "whisper-normalizer-english": "whisper-normalizer-english",
    "whisper-normalizer-basic-marks": "whisper-normalizer-basic(preserve_marks=True)",
}


def golden() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    # One record per "\n" (the texts hold other line breaks, which str.splitlines cuts at).
    records = [json.loads(line) for line in GOLDEN.read_text("utf-8").split("\n") if line]
    return records[0], records[1:]


def package(name: str) -> Any:
    """The installed package's normalizer that ``name`` reproduces."""
    wn = pytest.importorskip("whisper_normalizer")
    assert wn.__version__ == "0.1.15"
    from whisper_normalizer.basic import BasicTextNormalizer
    from whisper_normalizer.english import EnglishTextNormalizer

    if name == "whisper-normalizer-english":
        return EnglishTextNormalizer()
    return BasicTextNormalizer(preserve_marks=True)


def test_names_and_signatures() -> None:
    assert set(NAMES) < set(NORMALIZATIONS)
    for name in NAMES:
        assert normalization_signature(name) == f"{name}@0.1.15"
    wer = bleuprint.WER(normalizer="whisper-normalizer-english")
    assert wer.corpus_score(["I dunno, kinda"], [["i do not know kind of"]]).score == 0
    assert "|norm:whisper-normalizer-english@0.1.15|" in str(wer.get_signature())


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("workers", [1, -1])
def test_every_golden_output(name: str, workers: int) -> None:
    header, records = golden()
    assert (header["upstream"], header["version"]) == ("whisper-normalizer", "0.1.15")
    pairs = [(r["input"], r["expected"][NAMES[name]]) for r in records
             if isinstance(r["expected"].get(NAMES[name]), str)]  # fmt: skip
    assert len(pairs) > 850
    inputs = [p[0] for p in pairs]
    out = normalized(inputs, name, workers=workers)
    wrong = [(i, o, e) for (i, e), o in zip(pairs, out) if o != e]
    assert not wrong, f"{len(wrong)} of {len(pairs)} differ, e.g. {wrong[:3]}"


def test_where_the_variants_differ() -> None:
    """What the package changes, and nothing more: four contractions, and marks kept."""
    said = "I dunno, kinda 'cause sorta Mr. Park's colour, ten dollars"
    assert normalized([said], "whisper-english") == [
        "i dunno kinda cause sorta mister park is color $10"]  # fmt: skip
    assert normalized([said], "whisper-normalizer-english") == [
        "i do not know kind of because sort of mister park is color $10"]  # fmt: skip
    hindi = "हिन्दी, नमस्ते! [laughs]"
    assert normalized([hindi], "whisper-basic") == ["ह न द नमस त "]
    assert normalized([hindi], "whisper-normalizer-basic-marks") == ["हिन्दी नमस्ते "]


@pytest.mark.parametrize("name", NAMES)
def test_the_installed_package_on_golden_inputs(name: str) -> None:
    upstream = package(name)
    _, records = golden()
    inputs = [r["input"] for r in records if isinstance(r["expected"].get(NAMES[name]), str)]
    assert normalized(inputs, name) == [upstream(s) for s in inputs]


@pytest.mark.parametrize("name", NAMES)
def test_the_installed_package_on_wmt22(wmt22: Path, name: str) -> None:
    """Every English line of WMT22 (sources, references and system outputs)."""
    upstream = package(name)
    files = sorted(wmt22.glob("*/*.en"))
    lines = list(dict.fromkeys(
        line for f in files for line in f.read_text("utf-8").split("\n") if line))  # fmt: skip
    if name == "whisper-normalizer-basic-marks":
        lines = lines[::4]  # the basic normalizer is the slower one upstream; a quarter will do
    assert len(lines) > 25_000
    ours = normalized(lines, name)
    wrong = [(s, o, upstream(s)) for s, o in zip(lines, ours) if o != upstream(s)]
    assert not wrong, f"{len(wrong)} of {len(lines)} differ, e.g. {wrong[:3]}"
