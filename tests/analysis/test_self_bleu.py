"""self_bleu: each variant equals its upstream on the same tokens (Texygen's SelfBleu, fast-bleu
0.0.90's SelfBLEU, sacrebleu's sentence_bleu against the others) on WMT22 English outputs and
on generated sets; the linear-time rows equal the quadratic definition; sampling, workers and
order; bad input; the ``self-bleu`` command."""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

import bleuprint
from bleuprint.cli import main
from bleuprint.errors import InputTypeError, InvalidInputError, InvalidOptionError
from tests.support.data import read_lines, wmt22_systems

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    with warnings.catch_warnings():  # nltk's "0 counts of n-gram overlaps" advice
        warnings.simplefilter("ignore")
        yield


def texygen(reference: list[list[str]], gram: int, include_self: bool = False) -> float:
    """geek-ai/Texygen (commit 3104e22) utils/metrics/SelfBleu.py, its arithmetic as is:
    ``get_bleu_parallel`` (the pool only spreads the calls; it sums the results in order) and,
    with ``include_self``, ``get_bleu``, on tokens given instead of nltk.word_tokenize's."""
    weight = tuple(1.0 / gram for _ in range(gram))
    if include_self:
        bleu = [
            sentence_bleu(reference, h, weight, smoothing_function=SmoothingFunction().method1)
            for h in reference
        ]
        return sum(bleu) / len(bleu)
    score, cnt = 0.0, 0
    for index in range(len(reference)):
        hypothesis = reference[index]
        other = reference[:index] + reference[index + 1 :]
        score += sentence_bleu(
            other, hypothesis, weight, smoothing_function=SmoothingFunction().method1
        )
        cnt += 1
    return score / cnt


def texygen_sentences(reference: list[list[str]], gram: int) -> list[float]:
    weight = tuple(1.0 / gram for _ in range(gram))
    return [
        float(
            sentence_bleu(
                reference[:i] + reference[i + 1 :],
                h,
                weight,
                smoothing_function=SmoothingFunction().method1,
            )
        )
        for i, h in enumerate(reference)
    ]


@pytest.fixture(scope="module")
def english(wmt22: Path) -> list[str]:
    """Every into-English WMT22 output's lines, one system per pair, in name order."""
    lines: list[str] = []
    seen = set()
    for pair, _, path in wmt22_systems(wmt22):
        if pair.endswith("-en") and pair not in seen:
            seen.add(pair)
            lines += read_lines(path)
    return lines


EDGES = ["", "a", "a", "the the the", "the cat", "cat the", "x y z w v u t s", "Hello , world ."]


@pytest.mark.parametrize("gram", [1, 2, 3, 4, 5])
def test_texygen_on_wmt22(english: list[str], gram: int) -> None:
    rng = random.Random(gram)
    lines = rng.sample(english, 150) + EDGES
    tokens = [line.split() for line in lines]
    ours = bleuprint.self_bleu(lines, max_order=gram)
    assert ours.score == texygen(tokens, gram)
    assert ours.sentence_scores.tolist() == texygen_sentences(tokens, gram)
    itself = bleuprint.self_bleu(tokens, max_order=gram, include_self=True)
    assert itself.score == texygen(tokens, gram, include_self=True)


@settings(max_examples=150, deadline=None)
@given(
    sentences=st.lists(
        st.lists(st.sampled_from(["a", "b", "c", "d", "é", "a b"]), max_size=7),
        min_size=2,
        max_size=9,
    ),
    gram=st.integers(1, 5),
    include_self=st.booleans(),
)
def test_texygen_on_generated_sets(
    sentences: list[list[str]], gram: int, include_self: bool
) -> None:
    """Few words, so n-grams repeat, sentences tie for the highest count and lengths tie."""
    ours = bleuprint.self_bleu(sentences, max_order=gram, include_self=include_self)
    assert ours.score == texygen(sentences, gram, include_self)
    if not include_self:
        assert ours.sentence_scores.tolist() == texygen_sentences(sentences, gram)


def _fast_bleu(tokens: list[list[str]], n: int) -> list[float]:
    from fast_bleu import SelfBLEU

    result: list[float] = SelfBLEU(tokens, {n: tuple(1.0 / n for _ in range(n))}).get_score()[n]
    return result


def _lengths_repeat(tokens: list[list[str]]) -> list[list[str]]:
    """The sentences whose length another sentence shares. fast-bleu 0.0.90 reads one length
    past the end of its array of the others' lengths (``corpus_bleu(number_of_refs, ...)`` over
    ``number_of_refs - 1`` lengths), so whatever lies there in memory may be taken as the
    closest reference length; with another sentence of the same length, it never is."""
    counts: dict[int, int] = {}
    for t in tokens:
        counts[len(t)] = counts.get(len(t), 0) + 1
    return [t for t in tokens if counts[len(t)] > 1]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_fast_bleu_on_wmt22(english: list[str], n: int) -> None:
    pytest.importorskip("fast_bleu")
    tokens = _lengths_repeat([line.split() for line in english[n * 1000 : n * 1000 + 2000]])
    tokens += [["a"], ["a"], ["the", "the", "the"], ["the", "the", "the"]]
    ours = bleuprint.self_bleu(tokens, variant="fast-bleu", max_order=n)
    theirs = _fast_bleu(tokens, n)
    assert ours.sentence_scores.tolist() == theirs
    assert ours.score == np.cumsum(theirs)[-1] / len(theirs)


@settings(max_examples=60, deadline=None)
@given(
    sentences=st.lists(
        st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=6),
        min_size=3,
        max_size=10,
    ),
    n=st.integers(2, 4),
)
def test_fast_bleu_on_generated_sets(sentences: list[list[str]], n: int) -> None:
    pytest.importorskip("fast_bleu")
    sentences = _lengths_repeat(sentences)
    if len(sentences) < 2:
        return
    ours = bleuprint.self_bleu(sentences, variant="fast-bleu", max_order=n)
    assert ours.sentence_scores.tolist() == _fast_bleu(sentences, n)


def test_sacrebleu_on_wmt22(english: list[str]) -> None:
    lines = english[::97][:120] + ["", "Hello, world.", "Hello, world."]
    ours = bleuprint.self_bleu(lines, variant="sacrebleu")
    theirs = [
        sacrebleu.sentence_bleu(h, lines[:i] + lines[i + 1 :]).score for i, h in enumerate(lines)
    ]
    assert ours.sentence_scores.tolist() == theirs
    assert ours.score == np.cumsum(theirs)[-1] / len(theirs)
    intl = bleuprint.self_bleu(lines, variant="sacrebleu", tokenizer="intl")
    theirs = [
        sacrebleu.sentence_bleu(h, lines[:i] + lines[i + 1 :], tokenize="intl").score
        for i, h in enumerate(lines)
    ]
    assert intl.sentence_scores.tolist() == theirs


def test_tokenizers_and_token_lists() -> None:
    lines = ["The cat, the hat.", "A cat; a hat!", "the cat"]
    split = bleuprint.self_bleu(lines)
    assert split.score == bleuprint.self_bleu([s.split() for s in lines]).score
    named = bleuprint.self_bleu(lines, tokenizer="13a")
    tokens = [bleuprint.tokenize(s, "13a").split() for s in lines]
    assert named.score == bleuprint.self_bleu(tokens).score == texygen(tokens, 3)
    lower = bleuprint.self_bleu(lines, tokenizer=lambda s: s.lower().split())
    assert lower.score == texygen([s.lower().split() for s in lines], 3)


def test_workers_order_and_sample(english: list[str]) -> None:
    lines = english[:3000]
    one = bleuprint.self_bleu(lines, max_order=4, workers=1)
    assert np.array_equal(
        bleuprint.self_bleu(lines, max_order=4).sentence_scores, one.sentence_scores
    )
    order = np.random.default_rng(0).permutation(len(lines))
    shuffled = bleuprint.self_bleu([lines[i] for i in order], max_order=4)
    assert np.array_equal(shuffled.sentence_scores, one.sentence_scores[order])
    drawn = bleuprint.self_bleu(lines, sample=200, seed=7)
    assert drawn.indices is not None
    assert len(drawn.sentence_scores) == 200
    assert np.all(np.diff(drawn.indices) > 0)
    alone = bleuprint.self_bleu([lines[i] for i in drawn.indices.tolist()])
    assert drawn.score == alone.score
    assert np.array_equal(bleuprint.self_bleu(lines, sample=200, seed=7).indices, drawn.indices)
    whole = bleuprint.self_bleu(lines[:50], sample=80)
    assert whole.indices is None
    assert len(whole.sentence_scores) == 50


def test_errors() -> None:
    with pytest.raises(InvalidInputError, match="at least 2 sentences"):
        bleuprint.self_bleu(["only one"])
    with pytest.raises(InvalidInputError, match="at least 2 sentences"):
        bleuprint.self_bleu([])
    alone = bleuprint.self_bleu(["only one"], include_self=True).score
    assert alone == texygen([["only", "one"]], 3, include_self=True)
    with pytest.raises(InvalidOptionError, match="unknown Self-BLEU variant"):
        bleuprint.self_bleu(["a", "b"], variant="nltk")
    with pytest.raises(InvalidOptionError, match="fast-bleu refuses order 1"):
        bleuprint.self_bleu(["a", "b"], variant="fast-bleu", max_order=1)
    for bad in (0, 256, True, 2.0):  # BLEU counts orders 1 to 255
        with pytest.raises(InvalidOptionError, match="max_order"):
            bleuprint.self_bleu(["a", "b"], max_order=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="include_self is Texygen"):
        bleuprint.self_bleu(["a", "b"], variant="sacrebleu", include_self=True)
    with pytest.raises(InputTypeError, match="sequence of str"):
        bleuprint.self_bleu("a b c")
    with pytest.raises(InputTypeError, match=r"texts\[1\]"):
        bleuprint.self_bleu([["a"], 3])
    with pytest.raises(InvalidOptionError, match="token lists already"):
        bleuprint.self_bleu([["a"], ["b"]], tokenizer="13a")
    with pytest.raises(InputTypeError, match="str tokens"):
        bleuprint.self_bleu(["a", "b"], tokenizer=lambda s: [1, 2])
    with pytest.raises(InvalidOptionError, match="sample"):
        bleuprint.self_bleu(["a", "b"], sample=0)
    with pytest.raises(InvalidOptionError, match="unknown tokenizer"):
        bleuprint.self_bleu(["a", "b"], tokenizer="nope")


def _run(capsys: pytest.CaptureFixture[str], args: Sequence[str]) -> tuple[int, str, str]:
    try:
        status = main(list(args))
    except SystemExit as e:
        status = int(e.code or 0)
    out = capsys.readouterr()
    return status, out.out, out.err


def test_command(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any) -> None:
    lines = ["the cat sat on the mat", "the cat sat on a hat", "a dog ran"]
    path = tmp_path / "samples.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    expected = bleuprint.self_bleu(lines)
    status, out, _ = _run(capsys, ["self-bleu", str(path)])
    assert (status, out) == (0, str(expected) + "\n")
    status, out, _ = _run(capsys, ["self-bleu", str(path), "--json", "-n", "2"])
    record = json.loads(out)
    assert record["score"] == bleuprint.self_bleu(lines, max_order=2).score
    assert (record["sentences"], record["variant"], record["max_order"]) == (3, "texygen", 2)
    status, out, _ = _run(capsys, ["self-bleu", str(path), "--sentences", "--variant", "sacrebleu"])
    scores = bleuprint.self_bleu(lines, variant="sacrebleu").sentence_scores.tolist()
    assert out.splitlines() == [f"{i}\t{s!r}" for i, s in enumerate(scores)]
    monkeypatch.setattr("sys.stdin", open(path, encoding="utf-8"))  # noqa: SIM115
    status, out, _ = _run(capsys, ["self-bleu", "-"])
    assert out == str(expected) + "\n"
    one = tmp_path / "one.txt"
    one.write_text("alone\n", encoding="utf-8")
    status, out, err = _run(capsys, ["self-bleu", str(one)])
    assert status == 1
    assert "at least 2 sentences" in err
