"""The COCO caption metrics against the real pycocoevalcap 1.2: ``BLEU(preset="coco")`` and
``bleuprint.compat.pycocoevalcap.bleu.bleu.Bleu`` equal (``==``, and the same types) to
pycocoevalcap's ``Bleu`` (``bleu_scorer.py``) for the corpus and every image, with its printed
lines; ``ROUGE(preset="coco")`` and the drop-in's ``rouge.rouge.Rouge`` equal to its ``Rouge``
(``rouge/rouge.py``); on caption sets built from WMT22 outputs (1 to 5 references, empty
captions, duplicates) and on generated text; their assertions; ``install()``.

pycocoevalcap's scorers take captions as its PTB tokenizer leaves them (words joined by
spaces); they are pure Python, so no Java is needed here.
"""

from __future__ import annotations

import contextlib
import io
import random
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleuprint
from bleuprint.compat.pycocoevalcap.bleu.bleu import Bleu
from bleuprint.compat.pycocoevalcap.cider.cider import Cider
from bleuprint.compat.pycocoevalcap.rouge.rouge import Rouge
from bleuprint.errors import InvalidOptionError
from tests.support.data import read_lines, wmt22_references, wmt22_systems
from tests.support.strategies import text
from tests.support.upstream import suite_environment

upstream_bleu = pytest.importorskip("pycocoevalcap.bleu.bleu")
upstream_rouge = pytest.importorskip("pycocoevalcap.rouge.rouge")
upstream_cider = pytest.importorskip("pycocoevalcap.cider.cider")

pytestmark = pytest.mark.differential

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Captions = dict[Any, list[str]]


def _run(scorer: Any, gts: Captions, res: Captions, verbose: int) -> tuple[Any, str]:
    """``scorer.compute_score(gts, res, verbose)`` and what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = scorer.compute_score(gts, res, verbose=verbose)
    return result, out.getvalue()


def _types(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_types(v) for v in value]
    return type(value)


def check_bleu(gts: Captions, res: Captions, n: int = 4, verbose: int = 1) -> None:
    """Upstream's ``Bleu(n)`` and the drop-in: the same scores, types and printed lines; and
    ``BLEU(preset="coco")``'s corpus score and per-image lists are the same floats."""
    expected, printed = _run(upstream_bleu.Bleu(n), gts, res, verbose)
    got, ours = _run(Bleu(n), gts, res, verbose)
    assert got == expected
    assert _types(got) == _types(expected)
    assert ours == printed
    images = list(gts)
    metric = bleuprint.BLEU(preset=bleuprint.BLEUConfig.from_preset("coco", max_ngram_order=n))
    stats = metric.item_stats([res[i][0] for i in images], [gts[i] for i in images])
    assert stats.score().score == expected[0]
    assert [r.score for r in stats.sentence_results()] == [list(s) for s in zip(*expected[1])]
    # The one number of MBR, pairwise matrices and sentence score arrays: Bleu_n.
    assert stats.sentence_scores().tolist() == expected[1][-1]


def check_rouge(gts: Captions, res: Captions) -> None:
    """Upstream's ``Rouge`` and the drop-in: the same mean (a numpy float) and per-image array;
    ``ROUGE(preset="coco")``'s sentence and corpus scores are the same floats."""
    expected = upstream_rouge.Rouge().compute_score(gts, res)
    got = Rouge().compute_score(gts, res)
    assert type(got[0]) is type(expected[0])
    assert got[0] == expected[0] or (np.isnan(got[0]) and np.isnan(expected[0]))
    assert got[1].dtype == expected[1].dtype
    assert got[1].tolist() == expected[1].tolist()
    if not gts:
        return
    images = list(gts)
    most = max(len(r) for r in gts.values())
    streams = [[gts[i][k] if k < len(gts[i]) else None for i in images] for k in range(most)]
    stats = bleuprint.ROUGE(preset="coco").stats([res[i][0] for i in images], streams)
    assert stats.score().scores["rougeL"].fmeasure == expected[0]
    results = stats.sentence_results()
    assert [r.scores["rougeL"].fmeasure for r in results] == expected[1].tolist()
    for image, result in zip(images, results):  # calc_score, one image at a time
        assert upstream_rouge.Rouge().calc_score(res[image], gts[image]) == (
            result.scores["rougeL"].fmeasure
        )


def check_cider(gts: Captions, res: Captions, n: int = 4, sigma: float = 6.0) -> None:
    """Upstream's ``Cider`` and the drop-in: the same corpus score (a numpy float) and per-image
    array; :class:`bleuprint.CIDEr`'s, and its statistics merged from two shards, the same."""
    expected = upstream_cider.Cider(n=n, sigma=sigma).compute_score(gts, res)
    got = Cider(n=n, sigma=sigma).compute_score(gts, res)
    assert type(got[0]) is type(expected[0])
    assert got[0] == expected[0]
    assert got[1].dtype == expected[1].dtype
    assert got[1].tolist() == expected[1].tolist()
    if n != 4:
        return
    images = list(gts)
    most = max(len(r) for r in gts.values())
    streams = [[gts[i][k] if k < len(gts[i]) else None for i in images] for k in range(most)]
    hypotheses = [res[i][0] for i in images]
    metric = bleuprint.CIDEr(sigma=sigma)
    score = metric.corpus_score(hypotheses, streams)
    assert score.numpy_score == expected[0]
    assert score.score == float(expected[0])
    assert score.sentence_scores.tolist() == expected[1].tolist()
    # Two shards counted apart, merged: their token tables and document frequencies add up.
    half = len(images) // 2
    shards = [
        metric.stats(hypotheses[part], [stream[part] for stream in streams])
        for part in (slice(0, half), slice(half, None))
    ]
    merged = shards[0] + shards[1]
    assert merged.score().numpy_score == expected[0]
    assert merged.sentence_scores().tolist() == expected[1].tolist()


def wmt22_captions(root: Path, pair: str, seed: int, images: int) -> tuple[Captions, Captions]:
    """COCO-shaped captions from one WMT22 pair: one system's line as the caption of segment
    i, 1 to 5 other systems' (or references') lines of segment i as its references; some
    captions empty, some references duplicated."""
    rng = random.Random(seed)
    outputs = [path for p, _, path in wmt22_systems(root) if p == pair]
    sources = [read_lines(path) for path in rng.sample(outputs, 5)]
    sources += [read_lines(path) for path in wmt22_references(root, pair).values()]
    length = min(len(s) for s in sources)
    gts: Captions = {}
    res: Captions = {}
    for i in rng.sample(range(length), min(images, length)):
        caption, *others = rng.sample(sources, len(sources))
        refs = [lines[i] for lines in others[: rng.randint(1, 5)]]
        if rng.random() < 0.05:
            refs.append(refs[0])  # a duplicated reference
        gts[i] = refs
        res[i] = ["" if rng.random() < 0.02 else caption[i]]
    return gts, res


@pytest.mark.parametrize("pair", ["de-en", "zh-en", "en-de", "cs-uk"])
def test_wmt22_captions_score_as_pycocoevalcap(wmt22: Path, pair: str) -> None:
    gts, res = wmt22_captions(wmt22, pair, seed=len(pair) + ord(pair[0]), images=1500)
    check_bleu(gts, res)
    check_rouge(gts, res)
    check_cider(gts, res)


def test_every_order_and_verbosity(wmt22: Path) -> None:
    gts, res = wmt22_captions(wmt22, "ja-en", seed=3, images=300)
    for n in (1, 2, 3):
        check_bleu(gts, res, n=n, verbose=0)
    check_bleu(gts, res, verbose=2)  # every image's statistics printed
    # Upstream counts 4-grams whatever n is, then reads order 5: an IndexError.
    for scorer in (upstream_bleu.Bleu(5), Bleu(5)):
        with pytest.raises(IndexError):
            scorer.compute_score(gts, res, verbose=0)
    # Cider counts 4-grams whatever n is: n=5 and 6 average four orders and zeros; n=3 fails
    # on the first 4-gram, as upstream does.
    for n in (5, 6):
        check_cider(gts, res, n=n)
    for sigma in (1.5, 6, 10.0):
        check_cider(gts, res, sigma=sigma)
    for scorer in (upstream_cider.Cider(n=3), Cider(n=3)):
        with pytest.raises(IndexError):
            scorer.compute_score(gts, res)
    short = ({1: ["a b", "c"], 2: ["a b c"]}, {1: ["a"], 2: ["b c a"]})
    for n in (1, 2, 3):
        if n >= 3:
            check_cider(*short, n=n)
        else:
            for scorer in (upstream_cider.Cider(n=n), Cider(n=n)):
                with pytest.raises(IndexError):
                    scorer.compute_score(*short)


@pytest.mark.parametrize(
    ("caption", "references"),
    [
        ("", [""]),
        ("", ["a man rides a horse"]),
        ("a man rides a horse", [""]),
        ("a", ["a"]),
        ("a man", ["a man rides", "a man"]),  # the closest length, exact
        ("a b c d", ["a b c", "a b c d e"]),  # a tie: the shorter reference
        ("dog dog dog dog", ["dog", "the dog"]),  # clipping
        ("x\u2009y\u00a0z  w", ["x y z w"]),  # str.split(): Unicode whitespace splits
        ("a  b ", ["a b", " a  b"]),  # str.split(" "): empty tokens count in ROUGE-L
        (" ", ["", "  "]),
        ("a b c", ["a", "a b c d e f g h"]),  # precision and recall from different references
    ],
)
def test_edge_captions(caption: str, references: list[str]) -> None:
    gts = {"a": references, "b": ["a man rides a horse"]}
    res = {"a": [caption], "b": ["a man rides a horse"]}
    check_bleu(gts, res)
    check_rouge(gts, res)
    check_bleu({7: references}, {7: [caption]}, verbose=2)
    check_rouge({7: references}, {7: [caption]})
    check_cider(gts, res)
    if any(r.split() for r in references):  # else upstream's max() of no df raises
        check_cider({7: references}, {7: [caption]})


@SETTINGS
@given(
    data=st.lists(st.tuples(text, st.lists(text, min_size=1, max_size=5)), min_size=1, max_size=12),
    n=st.integers(1, 4),
)
def test_generated_captions(data: list[tuple[str, list[str]]], n: int) -> None:
    gts = {i: refs for i, (_, refs) in enumerate(data)}
    res = {i: [caption] for i, (caption, _) in enumerate(data)}
    check_bleu(gts, res, n=n)
    check_rouge(gts, res)
    gts[len(data)] = ["a reference with words"]  # so that the document frequencies are not empty
    res[len(data)] = ["a caption"]
    check_cider(gts, res)


def test_scorers_leave_the_garbage_collector_as_it_was() -> None:
    # compute_score builds its per-image lists with the collector paused, then restores it,
    # also when upstream's assertions refuse the input.
    import gc

    gts = {1: ["a b c", "a b"], 2: ["c d"]}
    res = {1: ["a b"], 2: ["c e"]}
    for scorer in (Bleu(), Rouge(), Cider()):
        with contextlib.redirect_stdout(io.StringIO()):
            scorer.compute_score(gts, res)
        assert gc.isenabled()
        with pytest.raises(AssertionError):
            scorer.compute_score(gts, {1: ["a b"]})
        assert gc.isenabled()
        gc.disable()
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                scorer.compute_score(gts, res)
            assert not gc.isenabled()
        finally:
            gc.enable()
        assert "``gts``'" in (scorer.compute_score.__doc__ or "")  # the docstring kept


def test_upstreams_assertions() -> None:
    good = ({1: ["a b"]}, {1: ["a b"]})
    for gts, res in [
        ({1: ["a b"]}, {2: ["a b"]}),  # other image ids
        ({1: ["a b"]}, {1: "a b"}),  # a caption not in a list
        ({1: ["a b"]}, {1: ["a b", "a c"]}),  # two captions
        ({1: ("a b",)}, {1: ["a b"]}),  # references not in a list
        ({1: []}, {1: ["a b"]}),  # no reference
    ]:
        scorers = (upstream_bleu.Bleu(), Bleu(), upstream_rouge.Rouge(), Rouge())
        for scorer in (*scorers, upstream_cider.Cider(), Cider()):
            with pytest.raises(AssertionError), contextlib.redirect_stdout(io.StringIO()):
                scorer.compute_score(gts, res)
    for candidate, refs in [(["a", "b"], ["a"]), (["a"], [])]:
        for rouge in (upstream_rouge.Rouge(), Rouge()):
            with pytest.raises(AssertionError):
                rouge.calc_score(candidate, refs)
    assert _run(Bleu(), *good, 1) == _run(upstream_bleu.Bleu(), *good, 1)
    assert Bleu().method() == upstream_bleu.Bleu().method() == "Bleu"
    # No image at all: upstream's guards give 0.0 for every order and empty lists; ROUGE-L's
    # mean of nothing is numpy's nan, with its warning.
    assert _run(Bleu(), {}, {}, 1) == _run(upstream_bleu.Bleu(), {}, {}, 1)
    said = []
    for rouge in (upstream_rouge.Rouge(), Rouge()):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            mean, scores = rouge.compute_score({}, {})
        assert np.isnan(mean)
        assert scores.tolist() == []
        said.append([(w.category, str(w.message)) for w in caught])
    assert said[0] == said[1]
    assert "Mean of empty slice" in str(said[0])
    assert Rouge().method() == upstream_rouge.Rouge().method() == "Rouge"
    assert Cider().method() == upstream_cider.Cider().method() == "CIDEr"
    # No image, or references without a word: upstream's max() of no document frequency.
    for gts, res in [({}, {}), ({1: ["", " "]}, {1: ["a"]})]:
        for cider in (upstream_cider.Cider(), Cider()):
            with pytest.raises(ValueError, match="empty"):
                cider.compute_score(gts, res)
    for cider in (upstream_cider.Cider(sigma=0), Cider(sigma=0)):
        with pytest.raises(ZeroDivisionError):
            cider.compute_score(*good)
    assert Rouge().beta == upstream_rouge.Rouge().beta == 1.2


def test_install_serves_the_package_name() -> None:
    code = (
        "import bleuprint.compat.pycocoevalcap as c; c.install()\n"
        "from pycocoevalcap.bleu.bleu import Bleu\n"
        "from pycocoevalcap.rouge.rouge import Rouge\n"
        "from pycocoevalcap.cider.cider import Cider\n"
        "assert Cider.__module__.startswith('bleuprint'), Cider.__module__\n"
        "assert Bleu.__module__.startswith('bleuprint'), Bleu.__module__\n"
        "assert Rouge.__module__.startswith('bleuprint'), Rouge.__module__\n"
        "print(Bleu(2).compute_score({1: ['a b c']}, {1: ['a b d']}, verbose=0)[0])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, env=suite_environment({}))  # fmt: skip
    assert done.returncode == 0, done.stderr
    expected = upstream_bleu.Bleu(2).compute_score({1: ["a b c"]}, {1: ["a b d"]}, verbose=0)
    assert done.stdout == f"{expected[0]}\n"


def test_the_command_prints_what_cocoevalcap_prints_for_bleu(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``bleuprint REF -i HYP --preset coco``: COCOEvalCap.evaluate()'s lines for its Bleu
    scorer (``computing Bleu score...``, the scorer's two lines, ``Bleu_k: %0.3f``), line i of
    the files being image i."""
    from bleuprint.cli import main
    from tests.support.data import EXAMPLES

    refs = [str(EXAMPLES / "ref.en"), str(EXAMPLES / "ref2.en")]
    hyps = read_lines(EXAMPLES / "hyp.en")
    streams = [read_lines(Path(r)) for r in refs]
    gts = {i: [s[i] for s in streams] for i in range(len(hyps))}
    res = {i: [h] for i, h in enumerate(hyps)}
    (scores, _), printed = _run(upstream_bleu.Bleu(4), gts, res, 1)
    expected = ["computing Bleu score...", *printed.splitlines()]
    expected += ["%s: %0.3f" % (f"Bleu_{k}", s) for k, s in enumerate(scores, 1)]  # noqa: UP031
    assert main([*refs, "-i", str(EXAMPLES / "hyp.en"), "--preset", "coco"]) == 0
    assert capsys.readouterr().out.splitlines() == expected


def test_the_coco_rouge_settings() -> None:
    """ROUGE(preset="coco")'s tokens are str.split(" ")'s; its corpus mean needs row order;
    a preset refuses other settings beside it, and bad values are named."""
    coco = bleuprint.ROUGE(preset="coco")
    texts = ["a  b", "", " A b ", "x\u00a0y"]
    assert coco.tokenize(texts) == [t.split(" ") for t in texts]
    assert coco.config.corpus_order_free is False
    assert bleuprint.ROUGE().config.corpus_order_free is True
    signature = str(coco.config.signature(1))
    assert "refs:max-precision-recall|beta:1.2" in signature
    assert "agg:numpy-mean" in signature
    with pytest.raises(InvalidOptionError, match="leave beta, mean at the default"):
        bleuprint.ROUGE(preset="coco", beta=2.0, mean="numpy")
    with pytest.raises(InvalidOptionError, match="unknown ROUGE preset 'cider'"):
        bleuprint.ROUGE(preset="cider")
    for bad, match in [
        ({"multi_reference": "max"}, "unknown multi_reference 'max'"),
        ({"mean": "median"}, "unknown mean 'median'"),
        ({"beta": 0}, "beta must be a positive number"),
        ({"beta": True}, "beta must be a positive number"),
    ]:
        with pytest.raises(InvalidOptionError, match=match):
            bleuprint.ROUGE(**bad)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(
        st.lists(st.integers(-(2**45), 2**45), min_size=10, max_size=10), min_size=1, max_size=6
    )
)
def test_coco_rows_score_in_one_call_as_one_by_one(rows: list[list[int]]) -> None:
    """COCO BLEU's per-image results come from one core call; each equals the row scored alone
    (every attribute and its type), and a row whose arithmetic raises in pycocoevalcap's
    Python raises the same exception either way. Counted rows are covered above; these are
    any rows, the hand-made and hostile included."""
    config = bleuprint.BLEUConfig.from_preset("coco")
    array = np.array(rows, dtype=np.int64)

    def outcome(call: Any) -> Any:
        try:
            # repr: a NaN (hostile rows only) equals itself there.
            return [
                {k: (repr(v), type(v)) for k, v in vars(s).items() if k != "config"} for s in call()
            ]
        except (OverflowError, ValueError, ZeroDivisionError) as e:
            return type(e), str(e)

    one_call = outcome(lambda: config.score_rows_detailed(array))
    one_by_one = outcome(lambda: [config.score_corpus(row) for row in array])
    assert one_call == one_by_one
