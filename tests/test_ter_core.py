"""TER in the core (`_core.ter_stats`, `_core.ter_tokenize`): sacrebleu 2.6.0's published and
verified vectors as exact tests, and the binding's contract. No sacrebleu needed."""

from __future__ import annotations

import numpy as np
import pytest

from bleuprint import _core
from bleuprint.errors import InvalidInputError, InvalidOptionError


def rows(hyps, streams, case_sensitive=False, **flags):
    """sacrebleu's per-segment `[best_edits, ref_lengths / len(refs)]`."""

    def prepare(s):
        return s if case_sensitive or s is None else s.lower()

    stats, _ = _core.ter_stats(
        [prepare(h) for h in hyps], [[prepare(r) for r in s] for s in streams], **flags
    )
    return [[edits, total / k] for edits, total, k in stats.tolist()]


def score(hyps, streams, **kwargs):
    """sacrebleu's corpus TER (×100) from the rows."""
    per_segment = rows(hyps, streams, **kwargs)
    edits = sum(r[0] for r in per_segment)
    length = sum(r[1] for r in per_segment)
    if length > 0:
        return 100 * edits / length
    return 100.0 if edits > 0 else 0.0


# sacrebleu.md §3.2: (hypothesis, reference, edits, reference length)
PAIRS = [
    ("d e f g h a b c", "a b c d e f g h", 1, 8),
    (
        "the quick brown fox jumps over the lazy dog",
        "the lazy dog jumps over the quick brown fox",
        2,
        9,
    ),
    ("one two three four five six seven", "four five six seven one two three", 1, 7),
    ("A B C", "c b a", 2, 3),
    ("x y z", "a b c d e f g h", 8, 8),
    ("", "", 0, 0),
    ("a", "", 1, 0),
    ("", "a b", 2, 2),
    # §7.3
    ("aaaa bbbb cccc dddd", "aaaa bbbb cccc dddd", 0, 4),
    ("dddd eeee ffff", "aaaa bbbb cccc", 3, 3),
    ("", "a", 1, 1),
]


@pytest.mark.parametrize(("hyp", "ref", "edits", "length"), PAIRS)
def test_published_pairs(hyp, ref, edits, length):
    assert rows([hyp], [[ref]]) == [[edits, float(length)]]


def test_published_scores():
    assert f"{score(['d e f g h a b c'], [['a b c d e f g h']]):.2f}" == "12.50"
    assert f"{score(['x y z'], [['a b c d e f g h']]):.2f}" == "100.00"
    assert score([""], [[""]]) == 0.0
    assert score(["a"], [[""]]) == 100.0
    assert score([""], [["a b"]]) == 100.0
    # Two references: min edits (2 against the first), average length 3.0.
    assert rows(["a b c"], [["a b c d e"], ["x"]]) == [[2, 3.0]]
    assert f"{score(['a b c'], [['a b c d e'], ['x']]):.2f}" == "66.67"


def test_case_sensitivity():
    assert score(["The Cat"], [["the cat"]]) == 0.0
    assert score(["The Cat"], [["the cat"]], case_sensitive=True) == 100.0


WMT19_HYPS = [
    'wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen oder zu '
    "entfernen , damit das Bild ungefähr dieselbe Größe aufweist wie die andere Größe .",
    "wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im Menü des "
    'Aufgabenbedienfelds die Option " Alle Aufgaben aktualisieren . "',
    'klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert " und '
    'geben Sie Werte für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " ein .',
    "Sie können beispielsweise ein Dokument erstellen , das ein Auto über die Bühne enthält .",
    'wählen Sie im Dialogfeld " Neu aus Vorlage " eine Vorlage aus und klicken Sie auf " Neu . "',
]
WMT19_REFS = [
    'wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen oder zu '
    "entfernen , damit die Darstellung des Bildes in einer anderen Größe beibehalten wird .",
    WMT19_HYPS[1],
    'klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert " und '
    'geben Sie für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " niedrigere Werte ein .',
    "Sie können beispielsweise ein Dokument erstellen , das ein Auto enthalt , das sich über die "
    "Bühne bewegt .",
    WMT19_HYPS[4],
]


def test_wmt19_dev_example():
    """sacrebleu's test_ter.py realistic example: 0.136 (17 edits over 125 words)."""
    assert rows(WMT19_HYPS, [WMT19_REFS]) == [
        [10, 31.0],
        [0, 24.0],
        [2, 31.0],
        [5, 19.0],
        [0, 20.0],
    ]
    assert abs(score(WMT19_HYPS, [WMT19_REFS]) - 13.6) < 1e-3


README_HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
README_REF1 = ["The dog bit the man.", "It was not unexpected.", "The man bit him first."]
README_REF2 = ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]


def test_readme_example():
    streams = [README_REF1, README_REF2]
    assert rows(README_HYPS, streams) == [[0, 5.5], [3, 4.0], [3, 5.5]]
    assert f"{score(README_HYPS, streams):.2f}" == "40.00"
    assert rows(README_HYPS, streams, normalized=True) == [[0, 6.5], [3, 5.0], [3, 6.5]]
    assert f"{score(README_HYPS, streams, normalized=True):.2f}" == "33.33"
    assert f"{score(README_HYPS, [README_REF1]):.2f}" == "50.00"


def test_empty_reference_is_kept_and_none_is_dropped():
    empty = ["", *README_REF1[1:]]
    dropped = [None, *README_REF1[1:]]
    assert rows(README_HYPS, [empty, README_REF2]) == [[1, 3.0], [3, 4.0], [3, 5.5]]
    assert f"{score(README_HYPS, [empty, README_REF2]):.2f}" == "56.00"
    assert rows(README_HYPS, [dropped, README_REF2]) == [[1, 6.0], [3, 4.0], [3, 5.5]]
    assert f"{score(README_HYPS, [dropped, README_REF2]):.2f}" == "45.16"


def test_references_are_tokenized_twice():
    """sacrebleu normalizes references twice (and "it's's" is not stable), hypotheses once."""
    assert _core.ter_tokenize(["it's's"], normalized=True) == ["it's 's"]
    assert rows(["it's's"], [["it's's"]], normalized=True) == [[2, 3.0]]


def test_tokenizer_vectors():
    cases = [
        ({}, "A B C D.", "a b c d."),
        ({"no_punct": True}, "A ; B ) C : D.", "a b c d"),
        ({"normalized": True}, "a b (c) d.", "a b ( c ) d ."),
        ({"normalized": True}, "Jim's car.", "jim 's car ."),
        ({"normalized": True}, "4.2", "4.2"),
        ({"normalized": True, "asian_support": True}, "美众院公布对特", "美 众 院 公 布 对 特"),
        ({"normalized": True, "asian_support": True}, "りの拳銃を持", "りの 拳 銃 を 持"),
        ({"no_punct": True}, "It's 4.2 and 1,000.", "it's 42 and 1000"),
        ({"no_punct": True}, "&quot;x&quot;", "&quotx&quot"),
        ({"normalized": True}, "Hello\n-World", "helloworld"),
        (
            {"normalized": True, "asian_support": True},
            "日本語、テスト。「引用」！？",
            "日 本 語 、 テスト 。 「 引 用 」 ！ ？",
        ),
        (
            {"no_punct": True, "asian_support": True},
            "日本語、テスト。「引用」！？",
            "日本語テスト引用",
        ),
    ]
    for flags, line, expected in cases:
        assert _core.ter_tokenize([line.lower()], **flags) == [expected], (flags, line)


def test_binding_contract():
    stats, nrefs = _core.ter_stats(["a b", "c"], [["a b", "c d"], ["b", None]])
    assert stats.dtype == np.int64
    assert stats.shape == (2, 3)
    assert stats.tolist() == [[0, 3, 2], [1, 2, 1]]
    assert nrefs == -1
    stats, nrefs = _core.ter_stats([], [[], []])
    assert stats.shape == (0, 3)
    assert nrefs == 2
    for workers in (1, 2, -1):
        again, _ = _core.ter_stats(["a b", "c"], [["a b", "c d"], ["b", None]], workers=workers)
        assert again.tolist() == [[0, 3, 2], [1, 2, 1]]


def test_binding_errors():
    with pytest.raises(InvalidInputError, match="no references"):
        _core.ter_stats(["a"], [[None]])
    with pytest.raises(InvalidInputError, match="reference stream 0"):
        _core.ter_stats(["a", "b"], [["a"]])
    with pytest.raises(InvalidInputError, match="no reference streams"):
        _core.ter_stats(["a"], [])
    with pytest.raises(InvalidOptionError):
        _core.ter_stats(["a"], [["a"]], workers=0)
    with pytest.raises(TypeError):
        _core.ter_stats("a", [["a"]])
    with pytest.raises(TypeError):
        _core.ter_stats([1], [["a"]])
    with pytest.raises(TypeError):
        _core.ter_tokenize("a b")
