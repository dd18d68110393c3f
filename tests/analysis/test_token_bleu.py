"""token_bleu: BLEU of token-ID sequences equals nltk's sentence_bleu and corpus_bleu on the
same integer tokens (every smoothing method, several weight sets), sacrebleu's sentence BLEU
of the tokens joined as words, for lists, numpy arrays and DLPack tensors; bad input."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate import bleu_score as nltk_bleu

import bleuprint
from bleuprint.errors import InputTypeError, InvalidInputError, InvalidOptionError

SMOOTHING = nltk_bleu.SmoothingFunction(epsilon=0.2, alpha=4, k=3)
# What nltk raises for some inputs (method 6: no bigram matches, or fewer than 3 orders).
NLTK_ERRORS = (AssertionError, IndexError, ZeroDivisionError)
WEIGHTS = [(0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (0.2, 0.3, 0.5), [(1.0,), (0.5, 0.25, 0.25)]]


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    with warnings.catch_warnings():  # nltk's "0 counts of n-gram overlaps" advice
        warnings.simplefilter("ignore")
        yield


def _batch(rng: random.Random, b: int, vocab: int) -> tuple[list[list[int]], list[list[list[int]]]]:
    cands = [[rng.randrange(vocab) for _ in range(rng.randrange(0, 12))] for _ in range(b)]
    refs = [
        [
            [rng.randrange(vocab) for _ in range(rng.randrange(0, 12))]
            for _ in range(rng.randrange(1, 4))
        ]
        for _ in range(b)
    ]
    return cands, refs


@pytest.mark.parametrize("method", range(8))
@pytest.mark.parametrize("weights", WEIGHTS)
def test_equals_nltk_sentence_bleu(method: int, weights: Any) -> None:
    rng = random.Random(method)
    cands, refs = _batch(rng, 60, 6)  # short sequences over few IDs: matches and misses
    fn = getattr(SMOOTHING, f"method{method}")
    expected, kept = [], []
    for c, r in zip(cands, refs):
        try:
            value = nltk_bleu.sentence_bleu(r, c, weights=weights, smoothing_function=fn)
        except NLTK_ERRORS as e:  # e.g. method 6 without bigram matches: nltk refuses, as we do
            with pytest.raises(type(e)):
                bleuprint.token_bleu([c], [r], smoothing=fn, weights=weights)
            continue
        expected.append(value)
        kept.append((c, r))
    cands, refs = [c for c, _ in kept], [r for _, r in kept]
    ours = bleuprint.token_bleu(cands, refs, smoothing=fn, weights=weights)
    assert ours.tolist() == expected
    try:
        corpus_expected = nltk_bleu.corpus_bleu(refs, cands, weights=weights, smoothing_function=fn)
    except NLTK_ERRORS as e:
        with pytest.raises(type(e)):
            bleuprint.token_bleu(cands, refs, smoothing=fn, weights=weights, corpus=True)
        return
    corpus = bleuprint.token_bleu(cands, refs, smoothing=fn, weights=weights, corpus=True)
    assert corpus == corpus_expected


def test_layouts_pads_and_eos() -> None:
    rng = np.random.default_rng(0)
    cands = rng.integers(3, 30, size=(16, 20))  # 0 is padding, 2 is eos
    refs = rng.integers(3, 30, size=(16, 2, 24))
    cands[:, 15:] = 0  # right padding
    refs[::2, :, 18:] = 0
    expected = bleuprint.token_bleu(
        [list(c[c != 0]) for c in cands],
        [[list(r[r != 0]) for r in rs] for rs in refs],
        smoothing=1,
    )
    assert np.array_equal(bleuprint.token_bleu(cands, refs, pad_id=0, smoothing=1), expected)
    # eos: it and what follows are ignored, wherever the padding is.
    with_eos = cands.copy()
    with_eos[:, 15] = 2
    with_eos[:, 16:] = rng.integers(1, 30, size=(16, 4))
    with_eos[3, 4] = 2  # an early eos
    cut = [list(c[: list(c).index(2)]) for c in with_eos]
    got = bleuprint.token_bleu(with_eos, refs, pad_id=0, eos_id=2, smoothing=1)
    assert np.array_equal(
        got,
        bleuprint.token_bleu(cut, [[list(r[r != 0]) for r in rs] for rs in refs], smoothing=1),
    )
    # Ragged lists take the same path: pads dropped and each row cut at its own eos.
    as_lists = bleuprint.token_bleu(
        [list(c[: 10 + i % 7]) for i, c in enumerate(with_eos)],
        [[list(r) for r in rs] for rs in refs],
        pad_id=0,
        eos_id=2,
        smoothing=1,
    )
    expected_lists = bleuprint.token_bleu(
        [list(c[: 10 + i % 7])[: list(c[: 10 + i % 7]).index(2)] if 2 in c[: 10 + i % 7]
         else list(c[: 10 + i % 7]) for i, c in enumerate(with_eos)],
        [[list(r[r != 0]) for r in rs] for rs in refs],
        smoothing=1,
    )  # fmt: skip
    assert np.array_equal(as_lists, expected_lists)
    one_ref = bleuprint.token_bleu(cands, refs[:, 0], pad_id=0, smoothing="method1")
    assert one_ref.shape == (16,)


class _Tensor:
    """A DLPack producer that is not a numpy array (as torch and jax tensors are)."""

    def __init__(self, array: np.ndarray) -> None:
        self.array = array

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.array.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> Any:
        return self.array.__dlpack_device__()


def test_dlpack_producer() -> None:
    rng = np.random.default_rng(1)
    cands, refs = rng.integers(1, 9, size=(6, 10)), rng.integers(1, 9, size=(6, 3, 10))
    assert np.array_equal(
        bleuprint.token_bleu(_Tensor(cands), _Tensor(refs), smoothing=2),
        bleuprint.token_bleu(cands.tolist(), refs.tolist(), smoothing=2),
    )
    with pytest.raises(InputTypeError, match="dtype"):
        bleuprint.token_bleu(_Tensor(cands.astype(np.float32)), refs)


def test_dlpack_tensor() -> None:
    torch = pytest.importorskip("torch")
    cands = torch.randint(1, 20, (8, 12))
    refs = torch.randint(1, 20, (8, 1, 12))
    assert np.array_equal(
        bleuprint.token_bleu(cands, refs, smoothing=1),
        bleuprint.token_bleu(cands.numpy(), refs.numpy(), smoothing=1),
    )


def test_sacrebleu_preset() -> None:
    rng = random.Random(7)
    cands, refs = _batch(rng, 40, 5)
    ours = bleuprint.token_bleu(cands, refs, preset="sacrebleu")
    words = lambda seq: " ".join(map(str, seq))  # noqa: E731
    for i, (c, r) in enumerate(zip(cands, refs)):
        expected = sacrebleu.sentence_bleu(words(c), [words(x) for x in r], tokenize="none")
        assert ours[i] == expected.score


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 4), max_size=7), min_size=1, max_size=6),
    st.integers(0, 7),
)
def test_property_against_nltk(cands: list[list[int]], method: int) -> None:
    refs = [[c[::-1], c[1:]] for c in cands]
    fn = getattr(SMOOTHING, f"method{method}")
    try:
        expected = [
            nltk_bleu.sentence_bleu(r, c, smoothing_function=fn) for c, r in zip(cands, refs)
        ]
    except NLTK_ERRORS as e:  # method 6 without bigram matches
        with pytest.raises(type(e)):
            bleuprint.token_bleu(cands, refs, smoothing=fn)
        return
    assert bleuprint.token_bleu(cands, refs, smoothing=fn).tolist() == expected


@pytest.mark.parametrize(
    ("cands", "refs", "kwargs", "error", "message"),
    [
        (np.zeros((2, 3), dtype=float), np.zeros((2, 3), dtype=int), {}, InputTypeError, "dtype"),
        (np.array([[1, -1]]), np.array([[1, 2]]), {}, InvalidInputError, "pad_id"),
        (np.array([[1, 2]]), np.array([[1], [2]]), {}, InvalidInputError, "1 candidates"),
        ([[1, 2]], [[]], {}, InvalidInputError, "at least one"),
        ([], [], {}, InvalidInputError, "empty"),
        # With eos_id, the empty batch raised numpy's broadcasting ValueError.
        ([], [], {"eos_id": 2}, InvalidInputError, "empty"),
        ([[1, 2]], [[[1]]], {"preset": "hf"}, InvalidOptionError, "preset"),
        ([[1, 2]], [[[1]]], {"smoothing": 9}, InvalidOptionError, "method0"),
        ([["a"]], [[[1]]], {}, InputTypeError, "int"),
        # A float among ints is refused, not truncated to an ID.
        ([[1, 2.5]], [[[1]]], {}, InputTypeError, "float 2.5"),
        # An int beyond 64 bits raised a bare StopIteration (found by the hostile-input test).
        ([[1], [2**70]], [[[1]], [[1]]], {}, InvalidInputError, r"candidates\[1\] holds 1180"),
        # Lists one level too deep raised numpy's ValueError (or an IndexError under fairseq).
        ([[[3, 4]]], [[[3, 4]]], {}, InputTypeError, r"candidates\[0\] must hold int token IDs"),
        ([[[3]]], [[[3]]], {"preset": "fairseq"}, InputTypeError, "got list"),
        ([[1], [2, -3]], [[[1]], [[2]]], {}, InvalidInputError, r"candidates\[1\]\[1\] is -3"),
        ([[1]], [[[1]]], {"pad_id": 1.5}, InputTypeError, "pad_id"),
    ],
)
def test_bad_input(cands: Any, refs: Any, kwargs: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        bleuprint.token_bleu(cands, refs, **kwargs)
