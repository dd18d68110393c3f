"""Language-aware defaults: ``trg_lang=`` / ``-l`` pick sacrebleu's tokenizer, and CJK text
scored with the default tokenizer draws a warning that names the right one."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import bleuprint
from bleuprint import BLEU, BleuprintWarning
from bleuprint.tokenizers.language import guess_cjk_language, tokenizer_for_language

ZH = ["这是一个测试句子，用来检查分词器是否正确。", "今天天气很好，我们去公园散步吧。"] * 3
JA = ["今日は良い天気ですね。東京タワーに行きました！", "これはテストの文です。"] * 3
KO = ["안녕하세요. 저는 학생입니다!", "오늘은 날씨가 좋네요."] * 3
EN = ["The cat sat on the mat.", "It costs 5 € in 東京."] * 3


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("zh", "zh"), ("ja", "ja-mecab"), ("ko", "ko-mecab"), ("de", "13a"), ("", "13a")],
)
def test_trg_lang_picks_sacrebleus_tokenizer(lang: str, expected: str) -> None:
    assert tokenizer_for_language(lang) == expected
    if expected == "ja-mecab":
        pytest.importorskip("MeCab")
    if expected == "ko-mecab":
        pytest.importorskip("mecab_ko")
    assert BLEU(trg_lang=lang).tokenize == expected
    sacrebleu = pytest.importorskip("sacrebleu")
    theirs = sacrebleu.BLEU(trg_lang=lang).tokenizer.signature()
    ours = BLEU(trg_lang=lang)
    ours.corpus_score(["a"], [["a"]])
    assert f"|tok:{theirs}|" in str(ours.get_signature())


@pytest.mark.parametrize(
    ("lines", "language"), [(ZH, "zh"), (JA, "ja"), (KO, "ko"), (EN, None), ([], None)]
)
def test_guess_cjk_language(lines: list[str], language: str) -> None:
    assert guess_cjk_language([lines]) == language
    assert guess_cjk_language([lines, [None] * len(lines)]) == language


def test_a_few_cjk_words_in_english_are_not_cjk() -> None:
    mixed = ["The 東京 office and the 北京 office met in 大阪 on Monday."] * 10
    assert guess_cjk_language([mixed]) is None


@pytest.mark.parametrize(("lines", "expected"), [(ZH, "zh"), (JA, "ja-mecab"), (KO, "ko-mecab")])
def test_default_tokenizer_on_cjk_text_warns(lines: list[str], expected: str) -> None:
    with pytest.warns(BleuprintWarning, match=f"tokenize={expected!r}") as record:
        bleuprint.corpus_bleu(lines, [lines])
    # Attributed to the caller's line, not to bleuprint's internals.
    assert record[0].filename == __file__
    with pytest.warns(BleuprintWarning, match=f"tokenize={expected!r}"):
        bleuprint.sentence_bleu(lines[0], [lines[1]])
    with pytest.warns(BleuprintWarning, match=f"-tok {expected}"):
        BLEU().corpus_score(lines, [lines])


@pytest.mark.parametrize(
    "kwargs",
    [{"tokenize": "13a"}, {"tokenize": "zh"}, {"tokenize": "char"}, {"trg_lang": "zh"}],
)
def test_a_chosen_tokenizer_is_not_second_guessed(kwargs: dict[str, str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        BLEU(**kwargs).corpus_score(ZH, [ZH])
        bleuprint.corpus_bleu(EN, [EN])


def test_trg_lang_mismatch_warns_as_sacrebleu() -> None:
    with pytest.warns(BleuprintWarning, match="Consider using the 'ja-mecab' or 'spm' tokenizer"):
        BLEU(tokenize="13a", trg_lang="ja")


def _cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bleuprint", *args], cwd=cwd, capture_output=True, check=False
    )


@pytest.fixture
def cjk_files(tmp_path: Path) -> Path:
    for name, lines in {"zh": ZH, "ja": JA, "ko": KO}.items():
        (tmp_path / f"ref.{name}").write_text("\n".join(lines) + "\n", encoding="utf-8")
        hyp = [line[:-2] + line[-1] for line in lines]  # drop one character per line
        (tmp_path / f"hyp.{name}").write_text("\n".join(hyp) + "\n", encoding="utf-8")
    return tmp_path


def test_cli_warns_once_for_several_systems(cjk_files: Path) -> None:
    result = _cli(["ref.zh", "-i", "hyp.zh", "ref.zh", "-b"], cjk_files)
    assert result.returncode == 0, result.stderr
    stderr = result.stderr.decode()
    assert stderr.count("The text looks Chinese") == 1
    assert "-tok zh, or -l xx-zh" in stderr
    quiet = _cli(["ref.zh", "-i", "hyp.zh", "-b", "-q"], cjk_files)
    assert "The text looks Chinese" in quiet.stderr.decode()


@pytest.mark.parametrize("lang", ["zh", "ja", "ko"])
def test_cli_language_pair_matches_sacrebleu(cjk_files: Path, lang: str) -> None:
    pytest.importorskip("sacrebleu")
    if lang == "ja":
        pytest.importorskip("MeCab")
    if lang == "ko":
        pytest.importorskip("mecab_ko")
    args = [f"ref.{lang}", "-i", f"hyp.{lang}", "-l", f"en-{lang}", "-f", "text", "-w", "4"]
    ours = _cli(args, cjk_files)
    theirs = subprocess.run(
        [sys.executable, "-m", "sacrebleu", *args], cwd=cjk_files, capture_output=True, check=True
    )
    assert ours.returncode == 0, ours.stderr
    assert ours.stderr == b""  # the language's own tokenizer: nothing to warn about
    assert (
        ours.stdout.decode().rsplit("version:", 1)[0]
        == theirs.stdout.decode().rsplit("version:", 1)[0]
    )
