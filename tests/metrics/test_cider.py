"""CIDEr-D's own laws (pycocoevalcap's figures are in tests/compat/test_pycocoevalcap.py):
merged shards score as one pass (the document frequencies add up), selecting images equals
counting them alone, workers and saving change nothing, a permutation of the images permutes
their scores; settings and inputs that are wrong are errors that name them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuprint import CIDEr, CIDErStats
from bleuprint.errors import (
    InputTypeError,
    InvalidInputError,
    InvalidOptionError,
    StatsFormatError,
    StatsMismatchError,
)
from tests.support.strategies import corpora

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _part(corpus: tuple[list[str], list[list[str | None]]], part: slice) -> tuple:
    hyps, streams = corpus
    return hyps[part], [s[part] for s in streams]


@SETTINGS
@given(corpus=corpora(min_segments=2), cut=st.integers(0, 12), order=st.integers(1, 5))
def test_merged_shards_score_as_one_pass(corpus: tuple, cut: int, order: int) -> None:
    metric = CIDEr(max_ngram_order=order)
    whole = metric.stats(*corpus)
    cut = min(cut, len(corpus[0]))
    a = metric.stats(*_part(corpus, slice(0, cut)))
    b = metric.stats(*_part(corpus, slice(cut, None)))
    merged = a + b
    assert merged == whole
    assert merged.sentence_scores().tolist() == whole.sentence_scores().tolist()
    assert merged.score().numpy_score == whole.score().numpy_score
    assert CIDErStats.concatenate([a, b, a[:0]]) == whole


@SETTINGS
@given(corpus=corpora(min_segments=1), data=st.data())
def test_selected_images_equal_those_counted_alone(corpus: tuple, data: st.DataObject) -> None:
    metric = CIDEr()
    stats = metric.stats(*corpus)
    n = len(stats)
    chosen = data.draw(st.lists(st.integers(0, n - 1), max_size=2 * n))
    hyps, streams = corpus
    alone = metric.stats([hyps[i] for i in chosen], [[s[i] for i in chosen] for s in streams])
    assert stats[np.array(chosen, dtype=np.int64)] == alone
    if chosen:
        assert stats[chosen[0]] == metric.stats(
            [hyps[chosen[0]]], [[s[chosen[0]]] for s in streams]
        )


@SETTINGS
@given(corpus=corpora(min_segments=1), seed=st.integers(0, 2**32 - 1))
def test_a_permutation_permutes_the_scores(corpus: tuple, seed: int) -> None:
    hyps, streams = corpus
    order = np.random.default_rng(seed).permutation(len(hyps))
    metric = CIDEr()
    scores = metric.sentence_scores(hyps, streams)
    permuted = metric.sentence_scores(
        [hyps[i] for i in order], [[s[i] for i in order] for s in streams]
    )
    assert permuted.tolist() == scores[order].tolist()


@SETTINGS
@given(corpus=corpora(min_segments=1))
def test_workers_and_saving_change_nothing(
    corpus: tuple, tmp_path_factory: pytest.TempPathFactory
) -> None:
    stats = CIDEr(workers=1).stats(*corpus)
    expected = stats.sentence_scores(workers=1).tolist()
    assert stats.sentence_scores(workers=2).tolist() == expected
    path = tmp_path_factory.mktemp("cider") / "stats.npz"
    stats.save(path)
    loaded = CIDErStats.load(path)
    assert loaded == stats
    assert loaded.sentence_scores().tolist() == expected


def test_scores_and_signature() -> None:
    hyps = ["a man rides a horse", "two dogs play", "a cat"]
    refs = [["a man is riding a horse", "two dogs are playing", "a cat sleeps"],
            ["a person on a horse", None, "the cat"]]  # fmt: skip
    metric = CIDEr()
    score = metric.corpus_score(hyps, refs)
    assert score.name == "CIDEr-D"
    assert score.score == float(np.mean(score.sentence_scores))
    assert 0 < score.score < 10
    assert str(score).startswith("CIDEr-D = ")
    stats = metric.stats(hyps, refs)
    assert stats.references_per_image.tolist() == [2, 1, 2]
    assert stats.nrefs == -1
    signature = str(stats.signature())
    assert signature.startswith("nrefs:var|case:mixed|tok:none|n:4|sigma:6.0|version:")
    assert "c:lc" in CIDEr(lowercase=True).get_signature().format(short=True)
    # Lowercasing: the same as lowercased text.
    upper = CIDEr(lowercase=True).sentence_scores([h.upper() for h in hyps], refs)
    assert upper.tolist() == metric.sentence_scores(hyps, refs).tolist()
    # A perfect caption of an image whose n-grams no other image has: 10 per order's cosine.
    perfect = metric.sentence_scores(["x y z w v", "a b"], [["x y z w v", "c d"]])
    assert perfect[0] == pytest.approx(10.0)
    assert perfect[1] == 0.0


def test_bad_settings_and_inputs_are_named() -> None:
    for kwargs, error, match in [
        ({"max_ngram_order": 0}, InvalidOptionError, "max_ngram_order must be an integer"),
        ({"max_ngram_order": True}, InvalidOptionError, "max_ngram_order"),
        ({"sigma": 0.0}, InvalidOptionError, "sigma must be a nonzero finite number"),
        ({"sigma": "6"}, InputTypeError, "sigma must be a float"),
        ({"tokenize": "nope"}, InvalidOptionError, "nope"),
        ({"mean_orders": 2}, InvalidOptionError, "mean_orders"),
        ({"lowercase": 1}, InputTypeError, "lowercase must be a bool"),
    ]:
        with pytest.raises(error, match=match):
            CIDEr(**kwargs)
    metric = CIDEr()
    with pytest.raises(InvalidInputError, match="segment 1 has no references"):
        metric.stats(["a", "b"], [["a", None]])
    with pytest.raises(InvalidInputError):
        metric.stats(["a", "b"], [["a"]])
    with pytest.raises(InputTypeError):
        metric.stats("a b", [["a b"]])
    with pytest.raises(InvalidInputError, match=r"hypotheses\[0\] holds a lone surrogate"):
        metric.stats(["a \ud800"], [["a"]])
    with pytest.raises(InvalidInputError, match="no image"):
        metric.stats([], [[]]).score()
    with pytest.raises(StatsMismatchError, match="different configurations"):
        _ = metric.stats(["a"], [["a"]]) + CIDEr(sigma=2.0).stats(["a"], [["a"]])


def test_hand_made_or_foreign_files_are_refused(tmp_path: Path) -> None:
    stats = CIDEr().stats(["a b", "c"], [["a b c", "c d"]])
    broken = CIDErStats(
        stats.config, stats.tokens, stats.ids, stats.caption_ends[:-1], stats.image_ends
    )
    with pytest.raises(InvalidInputError, match="CIDEr-D statistics"):
        broken.sentence_scores()
    lonely = CIDErStats(
        stats.config, stats.tokens, stats.ids[:2], np.array([2, 2]), np.array([1, 2])
    )
    with pytest.raises(InvalidInputError, match="image 0 needs its caption and at least one"):
        lonely.sentence_scores()
    negative = CIDErStats(
        stats.config, stats.tokens, -stats.ids - 1, stats.caption_ends, stats.image_ends
    )
    with pytest.raises(InvalidInputError, match="tokens holds -1"):
        negative.sentence_scores()
    path = tmp_path / "not.npz"
    path.write_bytes(b"not a zip")
    with pytest.raises(StatsFormatError, match="not bleuprint CIDEr-D statistics"):
        CIDErStats.load(path)
    np.savez(path, rows=np.zeros((1, 3)))
    with pytest.raises(StatsFormatError):
        CIDErStats.load(path)


def test_saved_tokens_keep_every_character(tmp_path: Path) -> None:
    # numpy's str arrays drop trailing NULs: the tokens are saved as UTF-8 bytes instead.
    stats = CIDEr(workers=1).stats(["a\x00 \x00", "\u00e9t\u00e9"], [["\x00 b", "\u00e9t\u00e9 x"]])
    path = tmp_path / "stats.npz"
    stats.save(path)
    loaded = CIDErStats.load(path)
    assert "\x00" in stats.tokens
    assert loaded.tokens == stats.tokens
    assert loaded == stats
    # A file written before keeps loading (its tokens as a str array).
    with np.load(path) as data:
        arrays = {k: data[k] for k in ("ids", "caption_ends", "image_ends", "meta")}
    np.savez(path, tokens=np.array(stats.tokens), **arrays)
    assert list(CIDErStats.load(path).tokens) == [t.rstrip("\x00") for t in stats.tokens]
    np.savez(path, token_bytes=np.zeros(3, np.uint8), token_lengths=np.array([2]), **arrays)
    with pytest.raises(StatsFormatError, match="do not add up"):
        CIDErStats.load(path)
