"""The SentencePiece tokenizers (spm, flores101, flores200, spBLEU-1K) against sacrebleu.

The published models are never downloaded: a tiny model is trained here, and every test
runs with empty caches and a ``urlopen`` that fails unless the test serves the bytes.
"""

from __future__ import annotations

import io
import os
import pickle
import random
import shutil
import stat
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuprint import BLEU
from bleuprint.errors import (
    BleuprintError,
    BleuprintWarning,
    InvalidOptionError,
    ModelUnavailableError,
)
from bleuprint.tokenizers import spm as bspm
from bleuprint.tokenizers.spm import (
    SPM_MODELS,
    SPM_RENAMED_MESSAGE,
    SentencePieceTokenizer,
    cache_dir,
    get_spm_tokenizer,
    model_cache_path,
    resolve_model_path,
)
from tests.support.data import WMT22, read_lines

sentencepiece = pytest.importorskip("sentencepiece")

#: Serves bytes to urlopen for one destination: (payload, dest, fail_after) -> what it saw.
Serve = Callable[..., dict[str, object]]

KEYS = ["flores101", "flores200", "spBLEU-1K"]  # "spm" warns; it has its own tests
FLORES101_FILE = "sacrebleu_tokenizer_spm.model"

SCRIPTS = [
    "abcdefghijklmnopqrstuvwxyzéèàüöäßñçø",
    "абвгдежзийклмнопрстуфхцчшщыэюяё",
    "αβγδεζηθικλμνξοπρστυφχψω",
    "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年",
    "あいうえおかきくけこさしすせそアイウエオカキクケコ",
    "ابتثجحخدذرزسشصضطظعغفقكلمنهوي",
    "कखगघङचछजझञटठडढणतथदधनपफबभमयरलवशषसह",
    "가나다라마바사아자차카타파하",
]


def multilingual_lines(n: int, seed: int) -> list[str]:
    """Random "sentences" of words from one script each, with punctuation and numbers."""
    rng = random.Random(seed)
    lines = []
    for _ in range(n):
        script = rng.choice(SCRIPTS)
        words = []
        for _ in range(rng.randint(3, 20)):
            word = "".join(rng.choice(script) for _ in range(rng.randint(1, 8)))
            if rng.random() < 0.1:
                word = word.capitalize()
            if rng.random() < 0.1:
                word += rng.choice(",.!?;:")
            if rng.random() < 0.05:
                word = str(rng.randint(0, 10_000))
            words.append(word)
        lines.append(" ".join(words))
    return lines


@pytest.fixture(scope="session")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Tiny unigram and BPE models (well under a second each); the default character
    coverage leaves rare characters to <unk>, which sacrebleu must treat alike."""
    root = tmp_path_factory.mktemp("spm-models")
    corpus = multilingual_lines(600, seed=0)
    out = {}
    for model_type in ("unigram", "bpe"):
        sentencepiece.SentencePieceTrainer.train(
            sentence_iterator=iter(corpus),
            model_prefix=str(root / model_type),
            model_type=model_type,
            vocab_size=500,
            minloglevel=2,
        )
        out[model_type] = root / f"{model_type}.model"
    return out


@pytest.fixture(scope="session")
def model(models: dict[str, Path]) -> Path:
    return models["unigram"]


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Empty bleuprint and sacrebleu caches, and no network."""
    monkeypatch.setenv("BLEUPRINT_CACHE", str(tmp_path / "bleuprint-cache"))
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "sacrebleu-home"))

    def offline(url: str, *args: object, **kwargs: object) -> None:
        raise urllib.error.URLError("network disabled in tests")

    monkeypatch.setattr(urllib.request, "urlopen", offline)


def fresh_copy(model: Path, directory: Path, name: str = "model.model") -> Path:
    """A copy at a new path, so the per-process model cache has not seen it."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    shutil.copyfile(model, path)
    return path


# ---------------------------------------------------------------- sacrebleu equivalence


def sacrebleu_tokenizer(model: Path, key: str, root: Path) -> Any:
    """sacrebleu's TokenizerSPM on ``model``: its SACREBLEU_DIR pointed at ``root``."""
    tokenizer_spm = pytest.importorskip("sacrebleu.tokenizers.tokenizer_spm")
    fresh_copy(model, root / "models", os.path.basename(SPM_MODELS[key]["url"]))
    with pytest.MonkeyPatch.context() as mp:  # read only while constructing
        mp.setattr(tokenizer_spm, "SACREBLEU_DIR", str(root))
        return tokenizer_spm.TokenizerSPM(key)


EDGE_LINES = [
    "",
    " ",
    "   \t  ",
    "\n",
    "  leading and trailing  ",
    "multiple   inner    spaces",
    "Hello, world! It's 3.5 e-mail.",
    "Straße naïve café",
    "日本語のテキストと中文文本",
    "한국어 문장입니다",
    "emoji 😀👍🏽 🇫🇷 family 👨‍👩‍👧",
    "\u2028line\u2029separators\u0085",
    "\u00a0nbsp\u3000ideographic space",
    "e\u0301 combining, \ufb01 ligature, \uff21 fullwidth",
    "\ufeffbyte order mark",
    "\x00nul\x00 and \x07 controls",
    "<unk> <s> </s> ▁ pieces",
    "\U0010ffff \U00020000 astral",
    "x" * 50_000,
    "word " * 5_000,
    "".join(SCRIPTS) * 20,
]


def wmt22_sample() -> list[str]:
    """A few thousand real lines when ../shared is there (optional: not needed)."""
    refs = WMT22 / "references"
    if not refs.is_dir():
        return []
    lines: list[str] = []
    for path in sorted(refs.iterdir())[:12]:
        lines += read_lines(path)[:300]
    return lines


@pytest.mark.differential
def test_models_table_matches_sacrebleu() -> None:
    tokenizer_spm = pytest.importorskip("sacrebleu.tokenizers.tokenizer_spm")
    assert tokenizer_spm.SPM_MODELS == SPM_MODELS


@pytest.mark.differential
@pytest.mark.parametrize("model_type", ["unigram", "bpe"])
@pytest.mark.parametrize("key", KEYS)
def test_identical_to_sacrebleu(
    models: dict[str, Path], model_type: str, key: str, tmp_path: Path
) -> None:
    model = models[model_type]
    theirs = sacrebleu_tokenizer(model, key, tmp_path / "sb")
    ours = SentencePieceTokenizer(key, model)
    lines = EDGE_LINES + multilingual_lines(500, seed=1) + wmt22_sample()
    expected = [theirs(line) for line in lines]
    assert ours.tokenize_stream(lines) == expected
    assert ours.tokenize_stream(lines) == expected  # again, now from the line cache
    assert [ours(line) for line in lines[:50]] == expected[:50]
    assert ours.signature() == theirs.signature()


@pytest.fixture(scope="session")
def pair(
    models: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> tuple[SentencePieceTokenizer, Any]:
    model = models["unigram"]
    theirs = sacrebleu_tokenizer(model, "flores200", tmp_path_factory.mktemp("sb"))
    return SentencePieceTokenizer("flores200", model), theirs


text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=80)


@pytest.mark.differential
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(st.one_of(text, st.sampled_from(EDGE_LINES[:18])), max_size=8))
def test_identical_to_sacrebleu_generated(
    pair: tuple[SentencePieceTokenizer, Any], lines: list[str]
) -> None:
    ours, theirs = pair
    assert ours.tokenize_stream(lines) == [theirs(line) for line in lines]


def test_lone_surrogate_is_not_text(model: Path) -> None:
    # As for the Rust tokenizers (sentencepiece itself raises an opaque RuntimeError).
    with pytest.raises(UnicodeEncodeError):
        SentencePieceTokenizer("flores101", model).tokenize_stream(["fine", "bad \ud800"])


# ----------------------------------------------------------------------- names & errors


@pytest.mark.parametrize(
    ("key", "signature"),
    [("flores101", "flores101"), ("flores200", "flores200"), ("spBLEU-1K", "spBLEU-1K")],
)
def test_name_and_signature(model: Path, key: str, signature: str) -> None:
    tok = SentencePieceTokenizer(key, model)
    assert (tok.name, tok.key, tok.signature()) == (key, key, signature)
    assert repr(tok) == f"SentencePieceTokenizer({signature!r})"
    assert tok.model_path == Path(os.path.realpath(model))


def test_spm_is_renamed_flores101(model: Path) -> None:
    with pytest.warns(BleuprintWarning, match="changed to 'flores101'") as record:
        tok = SentencePieceTokenizer("spm", model)
    assert len(record) == 1
    assert str(record[0].message) == SPM_RENAMED_MESSAGE
    assert record[0].filename == __file__  # points at the caller
    assert tok.signature() == "flores101"
    assert tok.name == "spm"
    # The shared tokenizer warns on every request, whether it builds one or not.
    for _ in range(2):
        with pytest.warns(BleuprintWarning, match="changed to 'flores101'") as record:
            get_spm_tokenizer("spm", model)
        assert len(record) == 1
        assert record[0].filename == __file__

    # Through BLEU: one warning, attributed to the user's line, not to bleuprint's internals.
    with pytest.warns(BleuprintWarning) as record:
        bleu = BLEU(tokenize="spm", spm_model=str(model))
    assert len(record) == 1
    assert (record[0].filename, record[0].lineno) == (__file__, sys._getframe().f_lineno - 2)
    assert bleu.corpus_score(["a b"], [["a b"]]).counts == [4, 3, 2, 1]
    assert "tok:flores101" in str(bleu.get_signature())


@pytest.mark.parametrize(
    "call",
    [SentencePieceTokenizer, get_spm_tokenizer, resolve_model_path, model_cache_path],
)
@pytest.mark.parametrize("key", ["flores", "FLORES200", "spbleu-1k", "", None])
def test_unknown_key(call: Callable[[Any], object], key: object) -> None:
    with pytest.raises(InvalidOptionError, match="flores101, flores200, spBLEU-1K"):
        call(key)


def test_missing_model_file(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such.model"
    with pytest.raises(InvalidOptionError, match="such.model"):
        SentencePieceTokenizer("flores200", missing)
    with pytest.raises(InvalidOptionError, match="directory"):
        get_spm_tokenizer("flores200", tmp_path)


def test_invalid_model_file(tmp_path: Path, model: Path) -> None:
    bad = tmp_path / "bad.model"
    bad.write_bytes(b"not a model")
    with pytest.raises(InvalidOptionError, match="not a SentencePiece model"):
        SentencePieceTokenizer("flores101", bad)
    # The same junk in the cache is a corrupt download, not a bad option.
    cached = model_cache_path("flores101")
    cached.parent.mkdir(parents=True)
    shutil.copyfile(bad, cached)
    with pytest.raises(ModelUnavailableError, match="delete it"):
        get_spm_tokenizer("flores101")


def test_missing_package(monkeypatch: pytest.MonkeyPatch, model: Path) -> None:
    monkeypatch.setitem(sys.modules, "sentencepiece", None)
    for call in (SentencePieceTokenizer, get_spm_tokenizer):
        with pytest.raises(ImportError, match=r"pip install 'bleuprint\[spm\]'"):
            call("flores200", model)
    # Checked before the model is looked for, so nothing is downloaded in vain.
    with pytest.raises(ImportError, match="'flores200'"):
        get_spm_tokenizer("flores200")


def test_import_is_lazy() -> None:
    code = (
        "import sys, bleuprint, bleuprint.tokenizers.spm; "
        "assert 'sentencepiece' not in sys.modules, 'sentencepiece imported eagerly'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# ------------------------------------------------------------------- model resolution


def test_cache_dir_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BLEUPRINT_CACHE", str(tmp_path / "explicit"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "explicit"
    monkeypatch.setenv("BLEUPRINT_CACHE", "")  # empty counts as unset
    assert cache_dir() == tmp_path / "xdg" / "bleuprint"
    monkeypatch.delenv("BLEUPRINT_CACHE")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "bleuprint"
    assert model_cache_path("flores200") == cache_dir() / "models" / "flores200sacrebleuspm"
    assert model_cache_path("spm") == cache_dir() / "models" / FLORES101_FILE


def test_resolution_order(monkeypatch: pytest.MonkeyPatch, model: Path, tmp_path: Path) -> None:
    ours = fresh_copy(model, cache_dir() / "models", FLORES101_FILE)
    theirs = fresh_copy(model, tmp_path / "sacrebleu-home" / "models", FLORES101_FILE)
    explicit = fresh_copy(model, tmp_path / "elsewhere")
    # 1. an explicit path wins over both caches
    assert resolve_model_path("flores101", explicit) == explicit
    assert resolve_model_path("flores101", str(explicit)) == explicit
    # 2. then bleuprint's cache ("spm" and "flores101" share the file)
    assert resolve_model_path("flores101") == ours
    assert resolve_model_path("spm") == ours
    # 3. then sacrebleu's cache, which is only read
    ours.unlink()
    assert resolve_model_path("flores101") == theirs
    assert get_spm_tokenizer("flores101").model_path == Path(os.path.realpath(theirs))
    assert not ours.exists()
    # 4. an empty file (an interrupted sacrebleu download) does not count
    theirs.write_bytes(b"")
    with pytest.raises(ModelUnavailableError):
        resolve_model_path("flores101")
    # sacrebleu's default home is ~/.sacrebleu
    monkeypatch.delenv("SACREBLEU")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    sb = fresh_copy(model, tmp_path / "home" / ".sacrebleu" / "models", FLORES101_FILE)
    assert resolve_model_path("flores101") == sb


@pytest.fixture
def serve(monkeypatch: pytest.MonkeyPatch) -> Serve:
    """Serves bytes to urlopen; records what each read saw on disk."""
    seen: dict[str, object] = {"urls": []}

    class Response(io.BytesIO):
        def __init__(self, payload: bytes, fail_after: int | None) -> None:
            super().__init__(payload)
            self.fail_after = fail_after

        def read(self, size: int | None = -1) -> bytes:
            dest = seen["dest"]
            assert isinstance(dest, Path)
            seen["dest_existed"] = dest.exists()
            seen["locked"] = is_locked(dest.with_name(dest.name + ".lock"))
            seen["parts"] = sorted(p.name for p in dest.parent.glob("*.part"))
            if self.fail_after is not None and self.tell() >= self.fail_after:
                raise ConnectionResetError("connection reset mid-download")
            return super().read(min(size, 1000) if size and size > 0 else 1000)

    def start(payload: bytes, dest: Path, fail_after: int | None = None) -> dict[str, object]:
        seen["dest"] = dest

        def urlopen(url: str, *args: object, **kwargs: object) -> Response:
            seen["urls"].append(url)  # type: ignore[union-attr]
            return Response(payload, fail_after)

        monkeypatch.setattr(urllib.request, "urlopen", urlopen)
        return seen

    return start


def is_locked(lock: Path) -> bool:
    fcntl = pytest.importorskip("fcntl")
    fd = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_download(serve: Serve, model: Path) -> None:
    dest = model_cache_path("flores200")
    seen = serve(model.read_bytes(), dest)
    tok = get_spm_tokenizer("flores200")
    assert seen["urls"] == [SPM_MODELS["flores200"]["url"]]
    # written to a temporary file beside it under the lock, then renamed into place
    assert seen["dest_existed"] is False
    assert seen["locked"] is True
    assert len(seen["parts"]) == 1  # type: ignore[arg-type]
    assert dest.read_bytes() == model.read_bytes()
    assert stat.S_IMODE(dest.stat().st_mode) == 0o644
    assert sorted(p.name for p in dest.parent.iterdir()) == [dest.name, dest.name + ".lock"]
    assert tok.model_path == Path(os.path.realpath(dest))
    assert tok("Straße") == SentencePieceTokenizer("flores200", model)("Straße")
    # now cached: no second download
    assert get_spm_tokenizer("flores200") is tok
    assert resolve_model_path("flores200") == dest
    assert len(seen["urls"]) == 1  # type: ignore[arg-type]


def test_download_not_needed_when_sacrebleu_has_it(
    serve: Serve, model: Path, tmp_path: Path
) -> None:
    seen = serve(b"unused", model_cache_path("spBLEU-1K"))
    fresh_copy(model, tmp_path / "sacrebleu-home" / "models", "spbleu-1k_tokenizer_spm.model")
    get_spm_tokenizer("spBLEU-1K")
    assert seen["urls"] == []


def check_download_error(excinfo: pytest.ExceptionInfo[ModelUnavailableError], key: str) -> None:
    dest = model_cache_path(key)
    message = str(excinfo.value)
    assert SPM_MODELS[key]["url"] in message
    assert str(dest) in message
    assert "spm_model=PATH" in message
    assert "--spm-model PATH" in message
    assert isinstance(excinfo.value, BleuprintError)
    assert isinstance(excinfo.value, OSError)
    assert not dest.exists()
    assert list(dest.parent.glob("*.part")) == []  # no partial file left behind


def test_download_offline() -> None:
    with pytest.raises(ModelUnavailableError, match="network disabled in tests") as excinfo:
        SentencePieceTokenizer("flores200")
    check_download_error(excinfo, "flores200")


def test_download_interrupted(serve: Serve, model: Path) -> None:
    seen = serve(model.read_bytes(), model_cache_path("flores101"), fail_after=3000)
    with pytest.raises(ModelUnavailableError, match="connection reset") as excinfo:
        get_spm_tokenizer("flores101")
    assert seen["parts"]  # a partial file existed, and was removed
    check_download_error(excinfo, "flores101")


def test_download_http_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def urlopen(url: str, *args: object, **kwargs: object) -> None:
        raise urllib.error.HTTPError(url, 404, "Not Found", {}, None)  # type: ignore[arg-type]

    monkeypatch.setattr(urllib.request, "urlopen", urlopen)
    with pytest.raises(ModelUnavailableError, match="404") as excinfo:
        get_spm_tokenizer("spBLEU-1K")
    check_download_error(excinfo, "spBLEU-1K")


def test_download_empty(serve: Serve) -> None:
    serve(b"", model_cache_path("flores200"))
    with pytest.raises(ModelUnavailableError, match="empty") as excinfo:
        get_spm_tokenizer("flores200")
    check_download_error(excinfo, "flores200")


def test_cache_dir_not_writable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("BLEUPRINT_CACHE", str(blocker))
    with pytest.raises(ModelUnavailableError, match="cannot create"):
        get_spm_tokenizer("flores200")


# ----------------------------------------------------------- loading once, sharing, cache


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every SentencePieceProcessor.Load call."""
    calls: list[str] = []
    original = sentencepiece.SentencePieceProcessor.Load

    def load(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(str(args[0] if args else kwargs))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(sentencepiece.SentencePieceProcessor, "Load", load)
    return calls


def test_model_loaded_once(loads: list[str], model: Path, tmp_path: Path) -> None:
    path = fresh_copy(model, tmp_path / "once")
    link = tmp_path / "link.model"
    link.symlink_to(path)
    first = SentencePieceTokenizer("flores200", path)
    second = SentencePieceTokenizer("flores101", link)  # same file through a symlink
    assert first is not second
    assert first.sp is second.sp
    shared = get_spm_tokenizer("flores200", path)
    for _ in range(1000):  # a sentence_bleu loop: no reload, no new tokenizer
        assert get_spm_tokenizer("flores200", str(link)) is shared
    assert get_spm_tokenizer("flores101", path) is not shared  # one per (key, file)
    assert loads == [os.path.realpath(path)]


def test_model_replaced_in_place_reloads(loads: list[str], model: Path, tmp_path: Path) -> None:
    path = fresh_copy(model, tmp_path / "swap")
    before = get_spm_tokenizer("flores200", path)
    os.replace(fresh_copy(model, tmp_path / "new"), path)  # new inode: as if retrained
    after = get_spm_tokenizer("flores200", path)
    assert after is not before
    assert len(loads) == 2


def test_concurrent_first_use(loads: list[str], model: Path, tmp_path: Path) -> None:
    path = fresh_copy(model, tmp_path / "threads")
    results: list[SentencePieceTokenizer] = []
    barrier = threading.Barrier(8)

    def work() -> None:
        barrier.wait()
        results.append(get_spm_tokenizer("flores200", path))

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 8
    assert all(r is results[0] for r in results)
    assert len(loads) == 1


def test_pickle_gives_the_shared_tokenizer(model: Path) -> None:
    tok = get_spm_tokenizer("flores200", model)
    assert pickle.loads(pickle.dumps(tok)) is tok
    own = SentencePieceTokenizer("flores101", model)
    restored = pickle.loads(pickle.dumps(own))
    assert restored.signature() == "flores101"
    assert restored("abc") == own("abc")


def test_cache_is_bounded(model: Path) -> None:
    tok = SentencePieceTokenizer("flores200", model)
    tok._cache_size = 10  # the real bound is 2**16 lines
    lines = multilingual_lines(100, seed=2)
    expected = [" ".join(tok.sp.EncodeAsPieces(line)) for line in lines]
    assert tok.tokenize_stream(lines) == expected
    assert tok.cache_info() == {"size": 10, "max_size": 10}
    assert tok.tokenize_stream(lines) == expected  # evicted lines come back right
    assert SentencePieceTokenizer("flores200", model).cache_info()["max_size"] == 2**16


def test_none_passes_through(model: Path) -> None:
    tok = SentencePieceTokenizer("flores200", model)
    out = tok.tokenize_stream(["a b", None, "", None, "a b"])
    assert out == [tok("a b"), None, "", None, tok("a b")]


def test_clear_model_cache(loads: list[str], model: Path, tmp_path: Path) -> None:
    path = fresh_copy(model, tmp_path / "clear")
    first = get_spm_tokenizer("flores200", path)
    bspm.clear_model_cache()
    assert get_spm_tokenizer("flores200", path) is not first
    assert len(loads) == 2
