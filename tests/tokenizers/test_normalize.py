"""Unicode normalization (``normalize="nfc"|"nfkc"``): off by default, applied in the core
before tokenizing, recorded in the signature only when on."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleuprint
from bleuprint import BLEU, StatsMismatchError, _core
from tests.support.data import WMT22, read_lines

FORMS = ("nfc", "nfkc")

# Spellings that differ before normalization: decomposed accents, full-width Latin and
# digits, ligatures, compatibility spaces, Hangul jamo, half-width katakana.
HYPS = [
    "Cafe\u0301 au lait, s'il vous plai\u0302t.",
    "ｆｕｌｌ－ｗｉｄｔｈ ＡＢＣ １２３ and ﬁne ﬂow.",
    "\u1100\u1161\u11a8 \uff76\uff9e\uff72\uff7c\uff6c",
    "plain ASCII stays as it is.",
]
REFS = [
    "Café au lait, s'il vous plaît.",
    "full-width ABC 123 and fine flow.",
    "각 ガイシャ",
    "plain ASCII stays as it is.",
]


def python_normalize(form: str, lines: list[str]) -> list[str]:
    return [unicodedata.normalize(form.upper(), line) for line in lines]


def core_normalize(lines: list[str | None], form: str) -> list[str | None]:
    """The core's normalization alone (the old ``_core.normalize``): the ``none`` tokenizer
    after ``normalize=form``, as ``bleuprint.tokenizers.normalized`` calls it."""
    return _core.tokenize("none", lines, normalize=form)


def known_to_python(line: str) -> bool:
    # The core's tables may be a newer Unicode version than this Python's unicodedata: only
    # text assigned in both can be compared.
    return all(unicodedata.category(c) != "Cn" for c in line)


@pytest.mark.parametrize("form", FORMS)
def test_core_normalize_equals_unicodedata(form: str) -> None:
    assert core_normalize(HYPS + [None], form) == python_normalize(form, HYPS) + [None]


@pytest.mark.differential
@pytest.mark.parametrize("form", FORMS)
def test_wmt22_lines_equal_unicodedata(form: str) -> None:
    if not (WMT22 / "references").is_dir():
        pytest.skip("../shared/data/wmt22 is not available")
    compared = 0
    for path in sorted((WMT22 / "references").iterdir()) + sorted((WMT22 / "sources").iterdir()):
        lines = [line for line in read_lines(path) if known_to_python(line)]
        assert core_normalize(lines, form) == python_normalize(form, lines), path.name
        compared += len(lines)
    assert compared > 10_000


assigned_text = st.text(
    st.characters(exclude_categories=["Cs", "Cn"]).filter(known_to_python), max_size=40
)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(assigned_text, max_size=6))
def test_generated_text_equals_unicodedata(lines: list[str]) -> None:
    for form in FORMS:
        assert core_normalize(lines, form) == python_normalize(form, lines)


def test_off_by_default_and_signature() -> None:
    plain = BLEU()
    assert plain.normalize is None
    plain.corpus_score(HYPS, [REFS])
    assert "norm" not in str(plain.get_signature())
    for form in FORMS:
        metric = BLEU(normalize=form)
        metric.corpus_score(HYPS, [REFS])
        assert f"|smooth:exp|norm:{form}|version:" in metric.get_signature().format()
        assert f"|s:exp|nm:{form}|v:" in metric.get_signature().format(short=True)


@pytest.mark.differential
@pytest.mark.parametrize("tokenize", ["13a", "intl", "char", "zh", "none", "ja-mecab"])
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("lowercase", [False, True])
def test_equals_sacrebleu_on_normalized_text(tokenize: str, form: str, lowercase: bool) -> None:
    """Normalizing in the core gives the score sacrebleu gives on text normalized (after
    lowercasing) beforehand, for native and MeCab tokenizers alike."""
    sacrebleu = pytest.importorskip("sacrebleu")
    if tokenize == "ja-mecab":
        pytest.importorskip("MeCab")

    def prepare(lines: list[str]) -> list[str]:
        return python_normalize(form, [s.lower() for s in lines] if lowercase else lines)

    ours = BLEU(tokenize=tokenize, normalize=form, lowercase=lowercase).corpus_score(HYPS, [REFS])
    theirs = sacrebleu.corpus_bleu(prepare(HYPS), [prepare(REFS)], tokenize=tokenize)
    assert (ours.score, ours.counts, ours.totals) == (theirs.score, theirs.counts, theirs.totals)
    assert (
        ours.score > BLEU(tokenize=tokenize, lowercase=lowercase).corpus_score(HYPS, [REFS]).score
    )


def test_normalized_statistics_do_not_mix() -> None:
    nfc = BLEU(normalize="nfc").stats(HYPS, [REFS])
    plain = BLEU().stats(HYPS, [REFS])
    with pytest.raises(StatsMismatchError, match="different configurations"):
        nfc + plain
    assert np.array_equal(
        nfc.sentence_scores(), BLEU(normalize="nfc").stats(HYPS, [REFS]).sentence_scores()
    )


def test_tokenize_function_normalizes_first() -> None:
    assert bleuprint.tokenize("ｆｕｌｌ，ｗｉｄｔｈ", "13a", normalize="nfkc") == "full , width"
    assert bleuprint.tokenize(["e\u0301,"], "intl", normalize="nfc") == ["é ,"]
    assert bleuprint.tokenize("ｆｕｌｌ", "13a") == "ｆｕｌｌ"


def test_cli_normalize(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    (tmp_path / "hyp").write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    (tmp_path / "ref").write_text("\n".join(REFS) + "\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "bleuprint", "ref", "-i", "hyp", "--normalize", "nfkc"],
        cwd=tmp_path,
        capture_output=True,
        check=True,
    )
    out = json.loads(result.stdout)
    expected = BLEU(normalize="nfkc").corpus_score(HYPS, [REFS])
    assert out["score"] == round(expected.score, 1)
    assert "norm:nfkc" in out["signature"]
