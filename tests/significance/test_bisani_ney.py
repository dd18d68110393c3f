"""Bisani and Ney's bootstrap WER interval (``bleuprint.significance.bisani_ney_ci``) against
kaldialign 0.12.0's ``bootstrap_wer_ci``, installed by the test extra: the same dicts, to the
last bit, for the same seed, on random symbol sequences (many sizes, seeds and replication
counts, one and two systems) and on WMT22 system outputs split into words."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import bleuprint
from bleuprint.errors import InvalidInputError, InvalidOptionError
from bleuprint.significance import bisani_ney_ci
from tests.support.data import WMT22, read_lines, wmt22_references, wmt22_systems

kaldialign = pytest.importorskip("kaldialign")

WER_CONFIG = bleuprint.WER().config


def rows(hyps: list[list[str]], refs: list[list[str]]) -> Any:
    return WER_CONFIG.token_rows(hyps, refs)


def random_case(rnd: random.Random) -> tuple[list[list[str]], list[list[str]], list[list[str]]]:
    n = rnd.choice([1, 2, 3, 7, 50, 333])
    alphabet = "abcdefgh"[: rnd.randint(1, 8)]

    def seq() -> list[str]:
        return [rnd.choice(alphabet) for _ in range(rnd.randint(0, 15))]

    refs = [seq() for _ in range(n)]
    refs[0] = refs[0] or ["a"]  # a reference word somewhere, or every rate divides by zero
    return refs, [seq() for _ in range(n)], [seq() for _ in range(n)]


@pytest.mark.parametrize("case", range(40))
def test_random_sequences_equal_kaldialign(case: int) -> None:
    rnd = random.Random(case)
    refs, hyps, hyps2 = random_case(rnd)
    seed = rnd.choice([0, 1, 42, 2**31 - 1, 2**32 - 1, rnd.randrange(2**32)])
    replications = rnd.choice([1, 2, 10, 1000])
    one = kaldialign.bootstrap_wer_ci(refs, hyps, replications=replications, seed=seed)
    assert bisani_ney_ci(rows(hyps, refs), replications=replications, seed=seed) == one
    two = kaldialign.bootstrap_wer_ci(refs, hyps, hyps2, replications=replications, seed=seed)
    ours = bisani_ney_ci(rows(hyps, refs), rows(hyps2, refs), replications=replications, seed=seed)
    assert ours == two


def test_defaults_and_stats_objects_equal_kaldialign() -> None:
    """The default 10,000 replications and seed 0, on a Stats object of text."""
    refs = ["the cat sat on the mat", "a dog barked", "hello world", "good morning to you"]
    hyps = ["the cat sat on mat", "a dog parked", "hello word", "good morning you"]
    hyps2 = ["the cat sat on the mat", "dog barked", "hello world", "good morning to you"]
    wer = bleuprint.WER()
    split = [[s.split() for s in texts] for texts in (refs, hyps, hyps2)]
    theirs = kaldialign.bootstrap_wer_ci(split[0], split[1], split[2])
    assert bisani_ney_ci(wer.stats(hyps, [refs]), wer.stats(hyps2, [refs])) == theirs
    assert theirs["p_s2_improv_over_s1"] > 0.5


@pytest.mark.slow
def test_wmt22_systems_equal_kaldialign() -> None:
    if not (WMT22 / "system-outputs").is_dir():
        pytest.skip("../shared/data/wmt22 is absent")
    refs = wmt22_references(WMT22, "de-en")
    reference = read_lines(refs["A"] if "A" in refs else refs[sorted(refs)[0]])
    systems = [read_lines(p) for pair, _, p in wmt22_systems(WMT22) if pair == "de-en"][:2]
    assert len(systems) == 2
    # jiwer's default split equals str.split() on text without lone tabs between words.
    ref_words = [line.split() for line in reference]
    sys_words = [[line.split() for line in system] for system in systems]
    ours = bisani_ney_ci(
        rows(sys_words[0], ref_words), rows(sys_words[1], ref_words), replications=2000, seed=3
    )
    theirs = kaldialign.bootstrap_wer_ci(
        ref_words, sys_words[0], sys_words[1], replications=2000, seed=3
    )
    assert ours == theirs


def test_bad_input() -> None:
    good = rows([["a"]], [["a"]])
    for replications in (0, -1, 1.5, True):
        with pytest.raises(InvalidOptionError, match="replications"):
            bisani_ney_ci(good, replications=replications)  # type: ignore[arg-type]
    for seed in (-1, 2**32, "1", None):
        with pytest.raises(InvalidOptionError, match="seed"):
            bisani_ney_ci(good, seed=seed)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="WER statistics"):
        bisani_ney_ci(np.zeros((0, 6)))
    with pytest.raises(InvalidInputError, match="WER statistics"):
        bisani_ney_ci(bleuprint.BLEU().stats(["a"], [["a"]]))
    # Six columns, as WER's, but BLEU's counts.
    with pytest.raises(InvalidInputError, match="got BLEU statistics"):
        bisani_ney_ci(bleuprint.BLEU(max_ngram_order=2).stats(["a b"], [["a b"]]))
    with pytest.raises(InvalidInputError, match="same utterances"):
        bisani_ney_ci(good, rows([["a"], ["b"]], [["a"], ["b"]]))
    with pytest.raises(InvalidInputError, match="same utterances"):
        bisani_ney_ci(good, rows([["a"]], [["a", "b"]]))
