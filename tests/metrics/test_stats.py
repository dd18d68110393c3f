"""Statistics: merging, indexing, pickling, saving and scoring."""

from __future__ import annotations

import pickle
import subprocess
import sys

import numpy as np
import pytest

import bleuprint
from bleuprint import BLEU, Stats, StatsMismatchError
from bleuprint.metrics.gleu import GLEUConfig

HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
]


@pytest.fixture
def stats() -> Stats:
    return BLEU().stats(HYPS, REFS)


def test_rows_are_int64_with_published_columns(stats):
    assert stats.rows.dtype == np.int64
    assert stats.rows.shape == (3, 10)
    assert stats.column_names[:3] == ("hyp_len", "ref_len", "correct_1")
    assert len(stats) == 3
    assert stats.nrefs == 2
    assert np.asarray(stats).shape == (3, 10)


def test_score_equals_corpus_score(stats):
    assert stats.score().score == bleuprint.corpus_bleu(HYPS, REFS).score
    assert stats.sum().tolist() == [17, 18, 14, 7, 5, 3, 17, 14, 11, 8]


def test_shards_merge_with_plus(stats):
    a = BLEU().stats(HYPS[:1], [r[:1] for r in REFS])
    b = BLEU().stats(HYPS[1:], [r[1:] for r in REFS])
    assert (a + b) == stats
    assert Stats.concatenate([a, b]) == stats
    assert (a + b).score().score == stats.score().score


def test_row_indexing_keeps_config(stats):
    first = stats[0]
    assert len(first) == 1
    assert first.config == stats.config
    assert stats[[2, 0]].rows.tolist() == [stats.rows[2].tolist(), stats.rows[0].tolist()]
    assert len(stats[np.array([True, False, True])]) == 2


def test_sentence_scores_equal_each_row(stats):
    bleu = BLEU(effective_order=True)
    scores = bleu.sentence_scores(HYPS, REFS)
    assert scores.dtype == np.float64
    for i, (hyp, *refs) in enumerate(zip(HYPS, *REFS)):
        assert scores[i] == bleu.sentence_score(hyp, refs).score


def test_different_configs_are_refused(stats):
    other = BLEU(tokenize="char").stats(HYPS, REFS)
    with pytest.raises(StatsMismatchError, match="different configurations"):
        stats + other
    smoothed = BLEU(smooth_method="floor").stats(HYPS, REFS)
    with pytest.raises(StatsMismatchError):
        Stats.concatenate([stats, smoothed])


def test_nrefs_becomes_var_when_shards_differ(stats):
    one = BLEU().stats(HYPS, REFS[:1])
    assert (stats + one).nrefs == -1
    assert (stats + one).signature().format().startswith("nrefs:var|")


def test_pickle_round_trip(stats):
    back = pickle.loads(pickle.dumps(stats))
    assert back == stats
    assert back.score().score == stats.score().score


def test_save_and_load(stats, tmp_path):
    path = tmp_path / "shard.npz"
    stats.save(path)
    back = Stats.load(path)
    assert back == stats
    assert back.score().format() == stats.score().format()


def test_shape_and_dtype_are_checked(stats):
    with pytest.raises(StatsMismatchError, match=r"shape \(n, 10\)"):
        Stats(np.zeros((2, 7), dtype=np.int64), stats.config, 1)
    with pytest.raises(StatsMismatchError, match="integers"):
        Stats(np.zeros((2, 10)), stats.config, 1)
    assert Stats(np.zeros((2, 10), dtype=np.int32), stats.config, 1).rows.dtype == np.int64


def test_saved_statistics_of_a_metric_loaded_on_first_use_restore(tmp_path):
    """GLEU's module is not loaded by ``import bleuprint`` (start-up time); loading its saved
    statistics in a fresh interpreter loads it and restores the same scores."""
    stats = GLEUConfig("13a", 1, 4).stats(["the cat sat on the mat"], [["the cat is on the mat"]])
    stats.save(tmp_path / "gleu.npz")
    code = (
        "import sys, bleuprint\n"
        "assert 'bleuprint.metrics.gleu' not in sys.modules\n"
        f"print(repr(bleuprint.Stats.load({str(tmp_path / 'gleu.npz')!r}).score().score))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == repr(stats.score().score)


def test_metric_objects_made_alike_share_their_configuration() -> None:
    # sentence_bleu in a loop builds its kernel once; arguments equal in value but not in type
    # (0 and 0.0) keep configurations of their own, so each keeps the values it was given.
    assert BLEU().config is BLEU().config
    assert bleuprint.CHRF().config is bleuprint.CHRF().config
    assert bleuprint.TER().config is bleuprint.TER().config
    assert bleuprint.WER().config is bleuprint.WER().config
    as_int = BLEU(smooth_method="floor", smooth_value=1).config
    as_float = BLEU(smooth_method="floor", smooth_value=1.0).config
    assert as_int is not as_float
    assert type(as_int.smooth_value) is int
    assert type(as_float.smooth_value) is float
    assert BLEU(tokenize="char").config is not BLEU().config


@pytest.mark.parametrize(
    "metric",
    [BLEU(), bleuprint.CHRF(), bleuprint.TER(), bleuprint.ROUGE(["rouge1", "rougeL"])],
    ids=["bleu", "chrf", "ter", "rouge"],
)
def test_sentence_results_leave_the_garbage_collector_as_it_was(metric):
    # The results are built with the collector paused (they are many small objects), then
    # it is as the caller had it, enabled or not.
    import gc

    stats = metric.stats(["a b c d", "e f", ""], [["a b c", "e f g", "h"]])
    assert gc.isenabled()
    results = stats.sentence_results()
    assert gc.isenabled()
    assert [r.score for r in results] == stats.sentence_scores().tolist()
    gc.disable()
    try:
        assert [r.score for r in stats.sentence_results()] == [r.score for r in results]
        assert not gc.isenabled()
    finally:
        gc.enable()
