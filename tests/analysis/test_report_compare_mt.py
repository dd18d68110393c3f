"""The report's bucket tables, word accuracies and characteristic n-grams against the
installed compare-mt package's own functions, on WMT22 en-de text tokenized as the report
tokenizes it (13a). Skips without ../shared or compare-mt."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
import pytest

from bleuprint.analysis.report import buckets as bk
from bleuprint.analysis.report.ngrams import KINDS, NgramTable, salient
from bleuprint.tokenizers import tokenize
from tests.support.data import WMT22, read_lines

compare_mt = pytest.importorskip("compare_mt")
from compare_mt import bucketers, ngram_utils, stat_utils  # noqa: E402

SYSTEMS = ("Online-B", "JDExploreAcademy", "PROMT")


@pytest.fixture(scope="module")
def wmt() -> tuple[list[list[str]], dict[str, list[list[str]]]]:
    ref_path = WMT22 / "references" / "generaltest2022.en-de.ref.A.de"
    if not ref_path.exists():
        pytest.skip("WMT22 data (../shared) is absent")
    ref = [line.split() for line in tokenize(read_lines(ref_path), "13a")]
    outs = {
        name: [
            line.split()
            for line in tokenize(
                read_lines(WMT22 / "system-outputs" / f"generaltest2022.en-de.hyp.{name}.de"), "13a"
            )
        ]
        for name in SYSTEMS
    }
    return ref, outs


def test_length_bucket_tables(wmt: Any) -> None:
    ref, outs = wmt
    ref_len = np.array([len(r) for r in ref])
    compared = 0
    for bucketer, cutoffs, values in (
        (bucketers.LengthSentenceBucketer(), bk.LENGTH_CUTOFFS, lambda out: ref_len),
        (
            bucketers.LengthDiffSentenceBucketer(),
            bk.LENGTH_DIFF_CUTOFFS,
            lambda out: np.array([len(o) for o in out]) - ref_len,
        ),
    ):
        assert bk.bucket_labels(cutoffs) == bucketer.bucket_strs
        for out in outs.values():
            theirs = [len(b[0]) for b in bucketer.create_bucketed_corpus(out, ref=ref)]
            ours = np.bincount(bk.bucket_of(values(out), cutoffs), minlength=len(cutoffs) + 1)
            assert ours.tolist() == theirs
            compared += len(theirs)
    assert compared == 3 * (7 + 17)


def test_word_accuracy_by_frequency(wmt: Any) -> None:
    ref, outs = wmt
    names = list(outs)
    bucketer = bucketers.FreqWordBucketer(freq_data=ref)
    theirs, *_ = bucketer.calc_statistics(ref, [outs[n] for n in names])
    table = NgramTable(ref, outs, max_order=1)
    _, _, _, _, _, word_r, ref_counts = table.unigram_segments[names[0]]
    counts = np.bincount(word_r, weights=ref_counts, minlength=len(table.words))
    mapping = bk.frequency_buckets(counts)
    labels = bk.bucket_labels(bk.FREQ_CUTOFFS)
    assert labels == bucketer.bucket_strs
    weights = bk.Resampler(10, 1).weights(len(ref))
    compared = 0
    for k, name in enumerate(names):
        per_segment = bk.word_counts_per_segment(
            table.unigram_segments[name], mapping, len(ref), len(labels)
        )
        ours = bk.word_accuracy(per_segment, weights, labels)
        for row, (mcnt, rcnt, ocnt, rec, prec, fmeas) in zip(ours, theirs[k]):
            assert (row["matches"], row["ref_words"], row["out_words"]) == (mcnt, rcnt, ocnt)
            assert row["fmeasure"] == pytest.approx(fmeas, rel=1e-12)
            assert row["recall"] == pytest.approx(rec, rel=1e-12)
            assert row["precision"] == pytest.approx(prec, rel=1e-12)
            compared += 1
    assert compared == 3 * 9


def test_ngram_counts_and_characteristic_ngrams(wmt: Any) -> None:
    ref, outs = wmt
    names = list(outs)
    table = NgramTable(ref, outs)
    theirs = {
        n: dict(zip(("total", *KINDS), ngram_utils.compare_ngrams(ref, outs[n]))) for n in names
    }
    for name in names:
        for kind in KINDS:
            ids, counts = table.sparse[name][kind]
            ours = {tuple(table.text(int(i)).split(" ")): int(c) for i, c in zip(ids, counts)}
            assert ours == {k: v for k, v in theirs[name][kind].items() if v}
    ranked = 0
    for a, b in ((names[0], names[1]), (names[0], names[2])):
        for kind in KINDS:
            scores = stat_utils.extract_salient_features(
                theirs[a][kind], theirs[b][kind], alpha=1.0
            )
            order = sorted(scores.items(), key=operator.itemgetter(1), reverse=True)
            ours = salient(table, a, b, kind, alpha=1.0, top=10)
            # The same top shares (compare-mt orders ties by set iteration, so compare values,
            # and each listed n-gram's share).
            assert [r["score"] for r in ours["left"]] == pytest.approx([s for _, s in order[:10]])
            bottom = sorted(scores.values())[:10]
            assert [1 - r["score"] for r in ours["right"]] == pytest.approx(bottom)
            for r in ours["left"]:
                assert scores[tuple(r["ngram"].split(" "))] == pytest.approx(r["score"])
            ranked += 20
    assert ranked == 120
