"""bleuprint equals the installed sacrebleu 2.6.0 and jiwer 4.0.0 exactly (`==`) on the sample in
tests/data/sample/ (written for this repository), so these differential tests run without
../shared: BLEU with several tokenizers and smoothings, chrF, chrF++ and TER, corpus and
sentence scores, their text forms and signatures; WER, CER, MER, WIL and WIP."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

import bleuprint
import bleuprint.compat.jiwer as bj
from tests.support.checks import assert_native_wer_equals_jiwer
from tests.support.data import SAMPLE, read_lines

pytestmark = pytest.mark.differential

SYSTEMS = ("good", "fair", "poor")
REFS = [read_lines(SAMPLE / "ref.A.en"), read_lines(SAMPLE / "ref.B.en")]
HYPS = {name: read_lines(SAMPLE / f"sys.{name}.en") for name in SYSTEMS}


def test_sample_shape() -> None:
    lengths = {len(lines) for lines in [*REFS, *HYPS.values()]}
    assert lengths == {len(read_lines(SAMPLE / "source.de"))} == {60}
    assert "" in REFS[0]
    assert "" in HYPS["poor"]


def _without_version(signature: str) -> str:
    # Only the version item differs: sacrebleu's own against bleuprint-<version>.
    return "|".join(item for item in signature.split("|") if not item.startswith("version:"))


def _same_metric(ours: Any, theirs: Any, hyps: list[str], refs: list[list[str]]) -> None:
    """Corpus score (every field, the text form), signature and each sentence score."""
    a, b = ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs)
    for field in ("score", "counts", "totals", "precisions", "bp", "sys_len", "ref_len"):
        if hasattr(b, field):
            assert getattr(a, field) == getattr(b, field), field
    for field in ("num_edits", "ref_length"):
        if hasattr(b, field):
            assert getattr(a, field) == getattr(b, field), field
    assert a.format(width=4) == b.format(width=4)
    assert str(a) == str(b)
    assert _without_version(str(ours.get_signature())) == _without_version(
        str(theirs.get_signature())
    )
    with warnings.catch_warnings():
        # Sentence BLEU without effective order warns (sacrebleu logs the same advice).
        warnings.simplefilter("ignore", bleuprint.BleuprintWarning)
        for i, hyp in enumerate(hyps):
            segment_refs = [stream[i] for stream in refs]
            assert ours.sentence_score(hyp, segment_refs).score == (
                theirs.sentence_score(hyp, segment_refs).score
            ), i
        assert ours.sentence_scores(hyps, refs).tolist() == [
            theirs.sentence_score(h, [s[i] for s in refs]).score for i, h in enumerate(hyps)
        ]


BLEU_OPTIONS = [
    {},
    {"tokenize": "none"},
    {"tokenize": "intl"},
    {"tokenize": "char"},
    {"tokenize": "zh"},
    {"lowercase": True},
    {"smooth_method": "none"},
    {"smooth_method": "floor"},
    {"smooth_method": "floor", "smooth_value": 0.3},
    {"smooth_method": "add-k"},
    {"smooth_method": "add-k", "smooth_value": 2},
    {"effective_order": True},
    {"max_ngram_order": 2},
    {"max_ngram_order": 6, "tokenize": "intl", "lowercase": True},
]


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("options", BLEU_OPTIONS, ids=str)
def test_bleu(system: str, options: dict[str, Any]) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    ours, theirs = bleuprint.BLEU(**options), sacrebleu.BLEU(**options)
    _same_metric(ours, theirs, HYPS[system], REFS)
    _same_metric(bleuprint.BLEU(**options), sacrebleu.BLEU(**options), HYPS[system], REFS[1:])


CHRF_OPTIONS = [
    {},
    {"word_order": 2},
    {"word_order": 2, "beta": 3},
    {"eps_smoothing": True},
    {"whitespace": True},
    {"lowercase": True, "word_order": 1},
    {"char_order": 4, "word_order": 2, "beta": 1},
]


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("options", CHRF_OPTIONS, ids=str)
def test_chrf(system: str, options: dict[str, Any]) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    _same_metric(bleuprint.CHRF(**options), sacrebleu.CHRF(**options), HYPS[system], REFS)


TER_OPTIONS = [
    {},
    {"normalized": True},
    {"no_punct": True},
    {"case_sensitive": True},
    {"asian_support": True, "normalized": True},
]


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("options", TER_OPTIONS, ids=str)
def test_ter(system: str, options: dict[str, Any]) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    _same_metric(bleuprint.TER(**options), sacrebleu.TER(**options), HYPS[system], REFS)


def test_functional_forms() -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    hyps = HYPS["fair"]
    assert str(bleuprint.corpus_bleu(hyps, REFS)) == str(sacrebleu.corpus_bleu(hyps, REFS))
    assert bleuprint.corpus_chrf(hyps, REFS).score == sacrebleu.corpus_chrf(hyps, REFS).score
    assert bleuprint.corpus_ter(hyps, REFS).score == sacrebleu.corpus_ter(hyps, REFS).score
    assert (
        bleuprint.raw_corpus_bleu(hyps, REFS).score == sacrebleu.raw_corpus_bleu(hyps, REFS).score
    )
    for i, hyp in enumerate(hyps):
        refs = [s[i] for s in REFS]
        assert bleuprint.sentence_bleu(hyp, refs).score == sacrebleu.sentence_bleu(hyp, refs).score
        assert bleuprint.sentence_chrf(hyp, refs).score == sacrebleu.sentence_chrf(hyp, refs).score
        assert bleuprint.sentence_ter(hyp, refs).score == sacrebleu.sentence_ter(hyp, refs).score


@pytest.mark.parametrize("system", SYSTEMS)
def test_wer_family(system: str) -> None:
    jiwer = pytest.importorskip("jiwer")
    # jiwer scores one reference; segments empty in every file are left out, as jiwer
    # refuses an empty reference while the hypothesis is not empty.
    pairs = [(r, h) for r, h in zip(REFS[0], HYPS[system]) if r]
    reference, hypothesis = [r for r, _ in pairs], [h for _, h in pairs]
    words = jiwer.process_words(reference, hypothesis)
    chars = jiwer.process_characters(reference, hypothesis)
    for name in ("wer", "mer", "wil", "wip"):
        ours = getattr(bj, name)(reference, hypothesis)
        assert ours == getattr(words, name)
        assert type(ours) is type(getattr(words, name))
    assert bj.cer(reference, hypothesis) == chars.cer
    assert_native_wer_equals_jiwer(hypothesis, reference, words, chars)
    ours_words = bj.process_words(reference, hypothesis)
    assert [
        [(c.type, c.ref_start_idx, c.ref_end_idx) for c in s] for s in ours_words.alignments
    ] == [[(c.type, c.ref_start_idx, c.ref_end_idx) for c in s] for s in words.alignments]
