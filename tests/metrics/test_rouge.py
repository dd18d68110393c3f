"""ROUGE against Google's rouge-score 0.1.2: every (precision, recall, fmeasure) of every segment
and type equal (``==``) to ``RougeScorer.score`` (one reference) or ``score_multi`` (several),
on WMT22 English text, multi-line documents, several references, custom tokenizers, odd and
non-Latin strings and very long lines; then property tests on random text and the laws of the
statistics (merging, workers, pairwise cells, the corpus mean, the bootstrap, saved files).

rouge-score's argument order is ``score(target, prediction)``: the reference first.

Each differential check records how many segments (hypothesis with its references) it compared
in ``COMPARED``; ``pytest -s`` prints the counts.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from typing import Any, Optional

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleuprint
from bleuprint import _core
from bleuprint.errors import InvalidOptionError, StatsMismatchError
from tests.support.data import read_lines, wmt22_references, wmt22_systems
from tests.support.strategies import free_text

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
rouge_tokenizers = pytest.importorskip("rouge_score.tokenizers")
rouge_scoring = pytest.importorskip("rouge_score.scoring")

pytestmark = pytest.mark.differential

NGRAM_TYPES = [f"rouge{n}" for n in range(1, 10)]
ALL_TYPES = [*NGRAM_TYPES, "rougeL", "rougeLsum"]
HF_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Segments compared with rouge-score, per check (``pytest -s`` prints them).
COMPARED: dict[str, int] = {}

Streams = list[list[Optional[str]]]


# --- rouge-score and bleuprint, side by side ----------------------------------------------------


class CallableTokenizer(rouge_tokenizers.Tokenizer):
    """A rouge-score ``Tokenizer`` running ``function`` (rouge-score then neither lowercases nor
    stems: that is the tokenizer's business)."""

    def __init__(self, function: Callable[[str], Sequence[Hashable]]) -> None:
        self.function = function

    def tokenize(self, text: str) -> Sequence[Hashable]:
        return self.function(text)


@functools.cache
def scorer(types: tuple[str, ...], stem: bool = False, tokenizer: Any = None) -> Any:
    return rouge_scorer.RougeScorer(list(types), use_stemmer=stem, tokenizer=tokenizer)


def theirs(rouge: Any, hyps: Sequence[str], streams: Streams) -> list[dict[str, tuple]]:
    """rouge-score's scores per segment: ``score`` with one reference stream, ``score_multi``
    over the segment's references that are not None with several."""
    out = []
    for i, hyp in enumerate(hyps):
        refs = [s[i] for s in streams if s[i] is not None]
        result = rouge.score(refs[0], hyp) if len(streams) == 1 else rouge.score_multi(refs, hyp)
        out.append({t: tuple(s) for t, s in result.items()})
    return out


def ours(metric: bleuprint.ROUGE, hyps: Sequence[str], streams: Streams) -> list[dict[str, tuple]]:
    rows = metric.stats(hyps, streams).rows
    return [
        {t: tuple(s) for t, s in result.scores.items()}
        for result in metric.config.score_rows_detailed(rows)
    ]


def assert_same(
    case: str,
    metric: bleuprint.ROUGE,
    rouge: Any,
    hyps: Sequence[str],
    streams: Streams,
    record: bool = True,
) -> int:
    """Every type's (precision, recall, fmeasure) of every segment ``==`` rouge-score's; the
    number of segments compared."""
    got, expected = ours(metric, hyps, streams), theirs(rouge, hyps, streams)
    assert len(got) == len(expected) == len(hyps)
    bad = []
    for i, (g, e) in enumerate(zip(got, expected)):
        assert list(g) == list(metric.config.rouge_types)
        for t in g:
            if g[t] != e[t]:
                refs = [s[i] for s in streams]
                bad.append(f"segment {i} {t}: ours {g[t]} rouge-score {e[t]}; {hyps[i]!r} {refs!r}")
    assert not bad, f"{case}: {len(bad)} mismatches, e.g.\n" + "\n".join(bad[:5])
    if record:
        COMPARED[case] = COMPARED.get(case, 0) + len(hyps)
        print(f"compared {case}: {len(hyps)} segments")
    return len(hyps)


# --- WMT22 ----------------------------------------------------------------------------------


@dataclasses.dataclass
class Pool:
    """Into-English system outputs (each against reference A) and the lines by pair."""

    hyps: list[str]
    refs: list[str]
    #: pair -> reference name -> lines; pair -> system -> lines.
    references: dict[str, dict[str, list[str]]]
    systems: dict[str, dict[str, list[str]]]


@pytest.fixture(scope="module")
def pool(wmt22: Path) -> Pool:
    hyps: list[str] = []
    refs: list[str] = []
    references: dict[str, dict[str, list[str]]] = {}
    systems: dict[str, dict[str, list[str]]] = {}
    for pair, system, path in wmt22_systems(wmt22):
        if pair not in references:
            references[pair] = {n: read_lines(p) for n, p in wmt22_references(wmt22, pair).items()}
        lines = read_lines(path)
        systems.setdefault(pair, {})[system] = lines
        ref_a = references[pair].get("A")
        if pair.endswith("-en") and ref_a is not None and len(ref_a) == len(lines):
            hyps += lines
            refs += ref_a
    assert len(hyps) > 50_000
    return Pool(hyps, refs, references, systems)


def sample(pool: Pool, n: int, seed: int) -> tuple[list[str], list[str]]:
    idx = random.Random(seed).sample(range(len(pool.hyps)), n)
    return [pool.hyps[i] for i in idx], [pool.refs[i] for i in idx]


#: Lines that documents get between their sentences: empty, blank, without alphanumerics.
FILLERS = ["", "", " ", "...", "— !", "«»", "\t", "***"]


def documents(pool: Pool, n: int, seed: int, lines: tuple[int, int] = (2, 12)):
    """``n`` pairs of multi-line documents: consecutive WMT22 lines (a system's and the
    reference's, each of its own length) joined with "\\n", with empty lines, lines without
    alphanumerics, leading and trailing newlines mixed in."""
    rng = random.Random(seed)

    def one(source: list[str], start: int) -> str:
        chunk = source[start : start + rng.randint(*lines)]
        chunk = [rng.choice(FILLERS) if rng.random() < 0.12 else line for line in chunk]
        text = "\n".join(chunk)
        if rng.random() < 0.3:
            text += "\n" * rng.randint(1, 2)
        if rng.random() < 0.1:
            text = "\n" + text
        return text

    hyps, refs = [], []
    for _ in range(n):
        start = rng.randrange(len(pool.hyps) - lines[1])
        hyps.append(one(pool.hyps, start))
        refs.append(one(pool.refs, start))
    return hyps, refs


@pytest.mark.slow
@pytest.mark.parametrize("stem", [False, True])
def test_wmt22_segments_every_type(pool, stem):
    hyps, refs = sample(pool, 3000, seed=1)
    metric = bleuprint.ROUGE(ALL_TYPES, use_stemmer=stem)
    assert_same(f"wmt22 segments, rouge1-9+L+Lsum, stem={stem}", metric,
                scorer(tuple(ALL_TYPES), stem), hyps, [refs])  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("types", [HF_TYPES, ["rougeLsum"], ["rougeLsum", "rouge3", "rougeL"]])
def test_wmt22_multi_line_documents(pool, stem, types):
    hyps, refs = documents(pool, 1000 if len(types) > 1 else 600, seed=2)
    assert any(h.endswith("\n") for h in hyps)
    assert any("\n\n" in r for r in refs)
    metric = bleuprint.ROUGE(types, use_stemmer=stem)
    assert_same(f"wmt22 documents, {'+'.join(types)}, stem={stem}", metric,
                scorer(tuple(types), stem), hyps, [refs])  # fmt: skip


def multi_reference(pool: Pool, nrefs: int, n: int, seed: int) -> tuple[list[str], Streams]:
    """Segments of the pairs with two references (cs-en, de-en, zh-en), each with ``nrefs``
    reference streams: the human references, then other systems' outputs; about one
    reference in eight is None (every segment keeps one)."""
    rng = random.Random(seed)
    hyps: list[str] = []
    streams: Streams = [[] for _ in range(nrefs)]
    pairs = [p for p in sorted(pool.references) if p.endswith("-en")]
    pairs = [p for p in pairs if len(pool.references[p]) >= 2]
    assert pairs
    for k in range(n):
        pair = pairs[k % len(pairs)]
        systems = sorted(pool.systems[pair])
        system, *others = rng.sample(systems, min(len(systems), 1 + nrefs))
        humans = [lines for _, lines in sorted(pool.references[pair].items())]
        candidates = humans + [pool.systems[pair][o] for o in others]
        i = rng.randrange(len(humans[0]))
        hyps.append(pool.systems[pair][system][i])
        row: list[Optional[str]] = [c[i] for c in candidates[:nrefs]]
        for j in range(nrefs):
            if rng.random() < 0.125:
                row[j] = None
        if all(r is None for r in row):
            row[rng.randrange(nrefs)] = candidates[0][i]
        for stream, ref in zip(streams, row):
            stream.append(ref)
    return hyps, streams


@pytest.mark.slow
@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("nrefs", [2, 3, 4])
def test_wmt22_multi_reference_is_score_multi(pool, nrefs, stem):
    hyps, streams = multi_reference(pool, nrefs, 1500, seed=nrefs)
    assert any(s[i] is None for s in streams for i in range(len(hyps)))
    types = ["rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum"]
    metric = bleuprint.ROUGE(types, use_stemmer=stem)
    assert_same(f"wmt22 {nrefs} references (None in streams), stem={stem}", metric,
                scorer(tuple(types), stem), hyps, streams)  # fmt: skip


@pytest.mark.slow
def test_wmt22_multi_line_multi_reference(pool):
    hyps, refs_a = documents(pool, 400, seed=7)
    _, refs_b = documents(pool, 400, seed=8)
    refs_b = [None if i % 9 == 0 else r for i, r in enumerate(refs_b)]
    streams: Streams = [list(refs_a), refs_b, list(reversed(refs_a))]
    metric = bleuprint.ROUGE(HF_TYPES)
    assert_same("wmt22 documents, 3 references", metric, scorer(tuple(HF_TYPES)), hyps, streams)


def _lengths(text: str) -> list[int]:
    return [len(w) for w in text.split()]


#: Callable tokenizers: name -> (the callable given to bleuprint, rouge-score's tokenizer object).
def _callables() -> dict[str, tuple[Callable[[str], Sequence[Hashable]], Any]]:
    stemmed = rouge_tokenizers.DefaultTokenizer(use_stemmer=True)
    plain = rouge_tokenizers.DefaultTokenizer(use_stemmer=False)
    return {
        "str.split": (str.split, CallableTokenizer(str.split)),
        "DefaultTokenizer(stem).tokenize": (stemmed.tokenize, stemmed),
        "DefaultTokenizer().tokenize": (plain.tokenize, plain),
        # Tokens that are not strings (ints) and words that hold spaces for the core's encoding.
        "word lengths": (_lengths, CallableTokenizer(_lengths)),
        "characters": (list, CallableTokenizer(list)),
    }


CALLABLES = _callables()


@pytest.mark.slow
@pytest.mark.parametrize("types", [HF_TYPES, ["rougeLsum"]])
@pytest.mark.parametrize("name", [n for n in CALLABLES if n != "characters"])
def test_wmt22_callable_tokenizers(pool, name, types):
    function, obj = CALLABLES[name]
    hyps, refs = documents(pool, 600, seed=3)
    metric = bleuprint.ROUGE(types, tokenizer=function)
    assert not metric.config.lowercases
    rouge = rouge_scorer.RougeScorer(types, tokenizer=obj)
    assert_same(f"wmt22 documents, callable {name}, {'+'.join(types)}", metric, rouge, hyps,
                [refs])  # fmt: skip


def name_tokenizer(name: str, lowercase: bool = True, rstrip: bool = True) -> CallableTokenizer:
    """rouge-score's tokenizer for ``ROUGE(tokenizer=name)``: ``bleuprint.tokenize`` of the
    lowercased text. ``rstrip``: of ``text.rstrip()``, as bleuprint.ROUGE tokenizes today (see
    ``test_name_tokenizers_keep_trailing_whitespace``)."""

    def tokenize(text: str) -> list[str]:
        text = text.lower() if lowercase else text
        return bleuprint.tokenize(text.rstrip() if rstrip else text, name).split()

    return CallableTokenizer(tokenize)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["13a", "intl", "zh", "char", "none"])
def test_wmt22_bleuprint_tokenizers(pool, name):
    # Character tokens make rouge-score's Python LCS slow: fewer, shorter documents.
    n, lines = (150, (1, 3)) if name == "char" else (500, (2, 8))
    hyps, refs = documents(pool, n, seed=4, lines=lines)
    metric = bleuprint.ROUGE(HF_TYPES, tokenizer=name)
    rouge = rouge_scorer.RougeScorer(HF_TYPES, tokenizer=name_tokenizer(name))
    assert_same(f"wmt22 documents, tokenizer={name}", metric, rouge, hyps, [refs])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("pair", "tokenizer"),
    [("en-zh", "zh"), ("en-zh", "char"), ("en-ja", "char"), ("en-ru", "intl"), ("en-uk", "13a")],
)
def test_wmt22_other_scripts(pool, pair, tokenizer):
    """Non-Latin references: rouge-score's tokenizer keeps only their Latin letters and digits
    (most segments score 0), a bleuprint tokenizer scores the script."""
    system = sorted(pool.systems[pair])[0]
    hyps = pool.systems[pair][system][:300]
    refs = pool.references[pair]["A"][:300]
    default = bleuprint.ROUGE(HF_TYPES)
    assert_same(f"wmt22 {pair}, default tokenizer", default, scorer(tuple(HF_TYPES)), hyps,
                [refs])  # fmt: skip
    zeros = sum(s.score == 0 for s in default.config.score_rows_detailed(default.stats(
        hyps, [refs]).rows))  # fmt: skip
    assert zeros > len(hyps) // 3
    metric = bleuprint.ROUGE(HF_TYPES, tokenizer=tokenizer)
    rouge = rouge_scorer.RougeScorer(HF_TYPES, tokenizer=name_tokenizer(tokenizer))
    assert_same(f"wmt22 {pair}, tokenizer={tokenizer}", metric, rouge, hyps, [refs])
    assert metric.corpus_score(hyps, [refs]).score > 10


def long_documents(pool: Pool, n: int, seed: int) -> tuple[list[str], list[str]]:
    """Documents of many consecutive segments: one long line (hundreds of tokens), or a few
    lines of several segments each (over 64 and over 128 tokens per line)."""
    rng = random.Random(seed)

    def one(source: list[str], start: int, groups: list[int]) -> str:
        out, at = [], start
        for size in groups:
            out.append(" ".join(source[at : at + size]))
            at += size
        return "\n".join(out)

    hyps, refs = [], []
    for k in range(n):
        groups = [rng.randint(8, 22)] if k % 2 else [rng.randint(3, 9) for _ in range(3)]
        start = rng.randrange(len(pool.hyps) - sum(groups))
        hyps.append(one(pool.hyps, start, groups))
        refs.append(one(pool.refs, start, groups))
    return hyps, refs


@pytest.mark.slow
@pytest.mark.parametrize("stem", [False, True])
def test_wmt22_long_documents(pool, stem):
    hyps, refs = long_documents(pool, 30, seed=5)
    tokens = [len(rouge_tokenizers.DefaultTokenizer().tokenize(line)) for d in hyps
              for line in d.split("\n")]  # fmt: skip
    assert max(tokens) > 300
    assert sum(64 < t <= 128 for t in tokens) > 3
    assert sum(t > 128 for t in tokens) > 3
    types = ["rouge1", "rouge2", "rouge5", "rougeL", "rougeLsum"]
    metric = bleuprint.ROUGE(types, use_stemmer=stem)
    assert_same(f"wmt22 long documents (lines up to {max(tokens)} tokens), stem={stem}", metric,
                scorer(tuple(types), stem), hyps, [refs])  # fmt: skip


# --- odd, non-Latin and long text -------------------------------------------------------------

ODD = [
    "", " ", "\n", "\n\n", "\t \n ", "...", "!?", "—", ".\n,\n;", "-- -- --", "a.b.c",
    "日本語", "Привет мир", "مرحبا", "Γειά σου", "İstanbul İİ", "İ", "\u0130\u0130x", "i\u0307",
    "\u212aelvin 5\u212a", "\u212a", "k", "ıi", "ǅ", "ẞ", "ß", "Ⅻ ①", "² ٣", "ﬁne", "A\u030a",
    "\u212b", "café naïve", "The THE the", "x\ny\n\nz\n", "\n\nfoo bar", "foo\u2028bar",
    "foo\r\nbar", "running runs ran", "Generalizations happily agreed",
]  # fmt: skip


@pytest.mark.parametrize("stem", [False, True])
def test_odd_strings_every_pair(stem):
    """Empty, blank and punctuation-only strings, other scripts, the two non-ASCII characters
    Python lowercases to ASCII (U+0130, U+212A), newlines: every ordered pair, every type."""
    hyps = [a for a in ODD for _ in ODD]
    refs = [b for _ in ODD for b in ODD]
    metric = bleuprint.ROUGE(ALL_TYPES, use_stemmer=stem)
    assert_same(f"odd strings x odd strings, stem={stem}", metric,
                scorer(tuple(ALL_TYPES), stem), hyps, [refs])  # fmt: skip
    lsum = bleuprint.ROUGE(["rougeLsum"], use_stemmer=stem)
    assert_same(f"odd strings x odd strings, rougeLsum alone, stem={stem}", lsum,
                scorer(("rougeLsum",), stem), hyps, [refs])  # fmt: skip


NON_LATIN = ["日本語の文章です。", "Привет, мир!", "مرحبا بالعالم", "Γειά σου κόσμε", "안녕하세요",
             "नमस्ते दुनिया", "שלום עולם", "ẞÆŒ"]  # fmt: skip


def test_non_latin_scripts_score_zero():
    hyps = [a for a in NON_LATIN for _ in NON_LATIN]
    refs = [b for _ in NON_LATIN for b in NON_LATIN]
    metric = bleuprint.ROUGE(ALL_TYPES)
    assert_same("non-Latin x non-Latin", metric, scorer(tuple(ALL_TYPES)), hyps, [refs])
    for result in ours(metric, hyps, [refs]):
        assert all(s == (0, 0, 0) for s in result.values())
    # A bleuprint tokenizer scores them: identical texts are 1.
    char = bleuprint.ROUGE(["rouge1"], tokenizer="char")
    assert char.sentence_scores(NON_LATIN, [NON_LATIN]).tolist() == [100.0] * len(NON_LATIN)


def test_dotted_capital_i_and_kelvin_sign_lowercase_to_ascii():
    # "İ".lower() is "i" + U+0307 (which then separates), the Kelvin sign's is "k".
    metric = bleuprint.ROUGE(["rouge1", "rouge2", "rougeL"], use_stemmer=True)
    hyp, ref = "i stanbul kelvin 5k", "İstanbul \u212aelvin 5\u212a"
    result = metric.sentence_score(hyp, [ref])
    assert all(s == (1.0, 1.0, 1.0) for s in result.scores.values())
    expected = scorer(("rouge1", "rouge2", "rougeL"), True).score(ref, hyp)
    assert {t: tuple(s) for t, s in expected.items()} == {
        t: tuple(s) for t, s in result.scores.items()
    }


def test_several_references_take_the_first_best_f_measure():
    # Two references with the same F-measure but different precision and recall: score_multi
    # (np.argmax) keeps the first; a later, strictly better one wins.
    hyp, short, long = "a b", "a", "a b c d"
    types = ["rouge1", "rougeL", "rougeLsum"]
    rouge = scorer(tuple(types))
    for refs in ([short, long], [long, short], [long, short, "a b"], ["x", short, long]):
        expected = {t: tuple(s) for t, s in rouge.score_multi(refs, hyp).items()}
        got = bleuprint.ROUGE(types).sentence_score(hyp, refs).scores
        assert {t: tuple(s) for t, s in got.items()} == expected
        streams = [[r] for r in refs]
        assert_same("ties between references", bleuprint.ROUGE(types), rouge, [hyp], streams)
    assert expected["rouge1"] == (0.5, 1.0, 2 * 0.5 * 1.0 / 1.5)


#: Suffixes of the Porter stemmer's rules, for made-up words that reach every step.
SUFFIXES = [
    "ational", "tional", "enci", "anci", "izer", "bli", "alli", "entli", "eli", "ousli",
    "ization", "ation", "ator", "alism", "iveness", "fulness", "ousness", "aliti", "iviti",
    "biliti", "logi", "icate", "ative", "alize", "iciti", "ical", "ful", "ness", "al", "ance",
    "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism",
    "ate", "iti", "ous", "ive", "ize", "e", "ll", "sses", "ies", "ied", "ss", "s", "eed", "ed",
    "ing", "y", "at", "bl", "iz", "ly", "dying", "skies", "news",
]  # fmt: skip


@pytest.mark.slow
def test_stemmed_tokens_equal_rouge_scores(wmt22):
    """Every distinct token of the WMT22 English files and 40,000 made-up words, through the
    core's tokenizer with the stemmer and through rouge-score's DefaultTokenizer(True)."""
    words = set()
    for folder in ("system-outputs", "references", "sources"):
        for path in sorted((wmt22 / folder).glob("*.en")):
            for line in read_lines(path):
                words.update(rouge_tokenizers.DefaultTokenizer().tokenize(line))
    rng = random.Random(9)
    for _ in range(40_000):
        stem = "".join(rng.choice("aeiouybcdlmnrstwxz") for _ in range(rng.randint(1, 7)))
        words.add(stem + "".join(rng.choice(SUFFIXES) for _ in range(rng.randint(0, 3))))
    texts = sorted(words)
    kernel = bleuprint.ROUGE(use_stemmer=True).config.token_kernel()
    got = [list(t) for t in _core.tokenize(kernel, texts)]
    expected = [rouge_tokenizers.DefaultTokenizer(use_stemmer=True).tokenize(w) for w in texts]
    bad = [(w, g, e) for w, g, e in zip(texts, got, expected) if g != e]
    assert not bad, bad[:10]
    assert len(texts) > 50_000
    COMPARED["stemmed tokens"] = len(texts)
    print(f"compared stemmed tokens: {len(texts)} words")


def _long_text(rng: random.Random, sizes: list[int]) -> str:
    words = ["the", "cat", "sat", "on", "mat", "dog", "a", "running", "runs", "ran",
             "generalization", "happily", ".", "Cat", "THE"]  # fmt: skip
    return "\n".join(" ".join(rng.choice(words) for _ in range(n)) for n in sizes)


@pytest.mark.parametrize("stem", [False, True])
def test_long_lines_cross_machine_words(stem):
    """Lines of 63 to 700 tokens over a small vocabulary (long common subsequences): the
    bit-parallel LCS on one, two, three and more 64-bit words, and rougeLsum's backtrack."""
    rng = random.Random(11)
    sizes = [1, 63, 64, 65, 127, 128, 129, 130, 192, 200, 257, 400, 700]
    hyps, refs = [], []
    for _ in range(60):
        lines = rng.choice([1, 1, 2, 3])
        hyps.append(_long_text(rng, [rng.choice(sizes) for _ in range(lines)]))
        refs.append(_long_text(rng, [rng.choice(sizes) for _ in range(rng.choice([1, 2, 3]))]))
    types = ["rouge1", "rouge3", "rougeL", "rougeLsum"]
    metric = bleuprint.ROUGE(types, use_stemmer=stem)
    assert_same(f"synthetic long lines (63-700 tokens), stem={stem}", metric,
                scorer(tuple(types), stem), hyps, [refs])  # fmt: skip


# --- property tests -------------------------------------------------------------------------

PIECES = [
    "the", "The", "THE", "cat", "cats", "Cat", "sat", "on", "mat", "a", "running", "runs",
    "ran", "generalization", "happily", "agreed", "ponies", "it's", "3.5", "1.", "e-mail",
    "a-", "Straße", "İstanbul", "İ", "\u212aelvin", "5\u212a", "日本", "ß", "naïve", "Привет",
    ".", ",", "!", "?", "...", "#", "&quot;", "-", "\n", "\n", "\n\n", " \n", "\t", "\u00a0",
    "\u2028", "\r",
]  # fmt: skip
_pieces = st.lists(st.sampled_from(PIECES), max_size=25)
texts = st.one_of(
    _pieces.map(" ".join), _pieces.map(" ".join), _pieces.map("".join), free_text,
    st.sampled_from(["", " ", "\n", "...", "\n\nthe cat\n"]),
)  # fmt: skip
type_lists = st.one_of(
    st.just(ALL_TYPES),
    st.just(["rougeLsum"]),
    st.lists(st.sampled_from(ALL_TYPES), min_size=1, max_size=4, unique=True),
)


@st.composite
def corpora(draw, min_segments=1, max_segments=8, max_streams=3):
    """Hypotheses and 1 to ``max_streams`` reference streams holding None in places; every
    segment keeps a reference."""
    n = draw(st.integers(min_segments, max_segments))
    hyps = draw(st.lists(texts, min_size=n, max_size=n))
    k = draw(st.integers(1, max_streams))
    refs = st.one_of(texts, st.none()) if k > 1 else texts
    streams = [draw(st.lists(refs, min_size=n, max_size=n)) for _ in range(k)]
    for i in range(n):
        if all(s[i] is None for s in streams):
            streams[0][i] = draw(texts)
    return hyps, streams


@SETTINGS
@given(corpus=corpora(), types=type_lists, stem=st.booleans())
def test_random_text_matches_rouge_score(corpus, types, stem):
    hyps, streams = corpus
    metric = bleuprint.ROUGE(types, use_stemmer=stem)
    assert_same("random text", metric, scorer(tuple(types), stem), hyps, streams)


@SETTINGS
@given(
    corpus=corpora(),
    types=type_lists,
    name=st.sampled_from(sorted(CALLABLES)),
    lowercase=st.sampled_from([None, True]),
)
def test_random_text_callable_tokenizers(corpus, types, name, lowercase):
    hyps, streams = corpus
    function, obj = CALLABLES[name]
    metric = bleuprint.ROUGE(types, tokenizer=function, lowercase=lowercase)
    if lowercase:
        obj = CallableTokenizer(lambda text: function(text.lower()))
    rouge = rouge_scorer.RougeScorer(types, tokenizer=obj)
    assert_same("random text, callable tokenizers", metric, rouge, hyps, streams)


@SETTINGS
@given(
    corpus=corpora(),
    types=type_lists,
    name=st.sampled_from(["13a", "intl", "zh", "char", "none"]),
    lowercase=st.sampled_from([None, True, False]),
)
def test_random_text_bleuprint_tokenizers(corpus, types, name, lowercase):
    hyps, streams = corpus
    metric = bleuprint.ROUGE(types, tokenizer=name, lowercase=lowercase)
    tokenizer = name_tokenizer(name, lowercase=lowercase is not False)
    rouge = rouge_scorer.RougeScorer(types, tokenizer=tokenizer)
    assert_same("random text, bleuprint tokenizers", metric, rouge, hyps, streams)


@pytest.mark.parametrize(("name", "hyp", "ref"), [("intl", "1.", "1.\n"), ("13a", "a", "a-\n")])
def test_name_tokenizers_strip_trailing_whitespace_as_bleu_does(name, hyp, ref):
    """A bleuprint tokenizer runs on ``text.rstrip()``, as BLEU runs it (sacrebleu's
    ``line.rstrip()``; docs/rouge.md): rouge-score with a tokenizer doing the same agrees."""
    rouge = rouge_scorer.RougeScorer(["rouge1"], tokenizer=name_tokenizer(name, rstrip=True))
    expected = tuple(rouge.score(ref, hyp)["rouge1"])
    got = bleuprint.ROUGE(["rouge1"], tokenizer=name).sentence_score(hyp, [ref]).scores["rouge1"]
    assert tuple(got) == expected


@SETTINGS
@given(corpus=corpora(min_segments=2), cut=st.integers(1, 7), types=type_lists,
       workers=st.sampled_from([1, 2, -1]))  # fmt: skip
def test_merge_is_concatenation(corpus, cut, types, workers):
    hyps, streams = corpus
    cut = min(cut, len(hyps) - 1)
    whole = bleuprint.ROUGE(types).stats(hyps, streams)
    metric = bleuprint.ROUGE(types, workers=workers)
    left = metric.stats(hyps[:cut], [s[:cut] for s in streams])
    right = metric.stats(hyps[cut:], [s[cut:] for s in streams])
    for merged in (left + right, bleuprint.Stats.concatenate([left, right])):
        assert np.array_equal(merged.rows, whole.rows)
        a, b = merged.score(), whole.score()
        assert (a.score, a.scores, a.micro) == (b.score, b.scores, b.micro)


@SETTINGS
@given(corpus=corpora(), types=type_lists, stem=st.booleans())
def test_workers_give_identical_results(corpus, types, stem):
    hyps, streams = corpus
    metrics = [bleuprint.ROUGE(types, use_stemmer=stem, workers=w) for w in (1, 2, -1)]
    rows = [m.stats(hyps, streams).rows for m in metrics]
    assert all(np.array_equal(rows[0], r) for r in rows[1:])
    scores = [m.sentence_scores(hyps, streams).tolist() for m in metrics]
    assert scores[0] == scores[1] == scores[2]
    flat = [r for s in streams for r in s if r is not None]
    pairwise = [m.pairwise(hyps, flat) for m in metrics]
    assert all(np.array_equal(pairwise[0], p) for p in pairwise[1:])


@SETTINGS
@given(
    hyps=st.lists(texts, min_size=1, max_size=6),
    refs=st.lists(texts, min_size=1, max_size=6),
    types=type_lists,
    stem=st.booleans(),
)
def test_pairwise_cell_is_the_sentence_score(hyps, refs, types, stem):
    metric = bleuprint.ROUGE(types, use_stemmer=stem)
    matrix = metric.pairwise(hyps, refs)
    assert matrix.shape == (len(hyps), len(refs))
    rouge = scorer(tuple(types), stem)
    first = types[0]
    for i, h in enumerate(hyps):
        for j, r in enumerate(refs):
            assert matrix[i, j] == metric.sentence_score(h, [r]).score
            assert matrix[i, j] == 100 * rouge.score(r, h)[first].fmeasure
    COMPARED["pairwise cells"] = COMPARED.get("pairwise cells", 0) + matrix.size


def _micro(rows: np.ndarray, k: int) -> tuple[float, float, float]:
    """rouge-score's floats of type ``k``'s summed [match, hyp, ref]."""
    match, hyp, ref = (int(v) for v in rows[:, 3 * k : 3 * k + 3].sum(axis=0))
    p, r = match / max(hyp, 1), match / max(ref, 1)
    return (p, r, rouge_scoring.fmeasure(p, r))


@SETTINGS
@given(corpus=corpora(), types=type_lists, stem=st.booleans())
def test_corpus_score_is_the_fsum_mean_and_micro_the_summed_rows(corpus, types, stem):
    hyps, streams = corpus
    metric = bleuprint.ROUGE(types, use_stemmer=stem)
    stats = metric.stats(hyps, streams)
    expected = theirs(scorer(tuple(types), stem), hyps, streams)
    score = metric.corpus_score(hyps, streams)
    assert score.score == stats.score().score
    n = len(hyps)
    for k, t in enumerate(types):
        mean = tuple(math.fsum(e[t][part] for e in expected) / n for part in range(3))
        assert tuple(score.scores[t]) == mean
        assert tuple(score.micro[t]) == _micro(stats.rows, k)
    assert score.score == 100 * score.scores[types[0]].fmeasure
    sentence = [100 * e[types[0]][2] for e in expected]
    assert metric.sentence_scores(hyps, streams).tolist() == sentence
    assert stats.sentence_scores().tolist() == sentence


@SETTINGS
@given(corpus=corpora(), types=type_lists)
def test_every_way_to_a_segment_score_agrees(corpus, types):
    """sentence_score, score_rows_detailed and the core's details give the same floats."""
    hyps, streams = corpus
    metric = bleuprint.ROUGE(types)
    rows = metric.stats(hyps, streams).rows
    details = _core.details(metric.config.kernel, rows)
    detailed = metric.config.score_rows_detailed(rows)
    for i, h in enumerate(hyps):
        refs = [s[i] for s in streams if s[i] is not None]
        one = metric.sentence_score(h, refs)
        assert one.scores == detailed[i].scores
        for k, t in enumerate(types):
            core = (details["precision"][i][k], details["recall"][i][k], details["fmeasure"][i][k])
            assert tuple(one.scores[t]) == core


def test_bootstrap_runs_and_is_deterministic(monkeypatch):
    monkeypatch.delenv("BLEUPRINT_SEED", raising=False)
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    rng = random.Random(3)
    hyps = [_long_text(rng, [rng.randint(1, 30)]) for _ in range(200)]
    refs = [_long_text(rng, [rng.randint(1, 30)]) for _ in range(200)]
    metric = bleuprint.ROUGE(["rougeL", "rouge1"])
    plain = metric.corpus_score(hyps, [refs])
    runs = [metric.corpus_score(hyps, [refs], n_bootstrap=100) for _ in range(2)]
    for run in runs:
        assert run.score == plain.score
        assert run.scores == plain.scores
        assert run.mean is not None
        assert run.ci is not None
        assert run.ci > 0
        assert abs(run.mean - plain.score) < 3 * run.ci
    assert (runs[0].mean, runs[0].ci) == (runs[1].mean, runs[1].ci)
    again = bleuprint.ROUGE(["rougeL", "rouge1"], workers=1).corpus_score(
        hyps, [refs], n_bootstrap=100
    )
    assert (again.mean, again.ci) == (runs[0].mean, runs[0].ci)


def test_saved_statistics_with_a_callable_tokenizer(tmp_path):
    hyps = ["the cat sat\non the mat", "A dog.", ""]
    refs = ["the cat is on the mat", "a dog barks", "x"]
    metric = bleuprint.ROUGE(["rouge1", "rougeLsum"], tokenizer=str.split)
    stats = metric.stats(hyps, [refs])
    stats.save(tmp_path / "rouge.npz")
    loaded = bleuprint.Stats.load(tmp_path / "rouge.npz")
    assert np.array_equal(loaded.rows, stats.rows)
    a, b = loaded.score(), stats.score()
    assert (a.score, a.scores, a.micro) == (b.score, b.scores, b.micro)
    assert loaded.sentence_scores().tolist() == stats.sentence_scores().tolist()
    assert loaded.signature().format() == stats.signature().format()
    config = loaded.config
    assert config.tokenizer.name == "str.split"
    again = bleuprint.ROUGE(**{f.name: getattr(config, f.name) for f in dataclasses.fields(config)})
    with pytest.raises(InvalidOptionError, match="callable tokenizer 'str.split'.*tokenizer="):
        again.stats(["the cat"], [["the cat"]])
    with pytest.raises(InvalidOptionError, match="callable tokenizer"):
        again.sentence_score("the cat", ["the cat"])
    # Rows of a named tokenizer load whole, and count new text the same.
    named = bleuprint.ROUGE(["rouge2", "rougeL"], use_stemmer=True).stats(hyps, [refs])
    named.save(tmp_path / "named.npz")
    back = bleuprint.Stats.load(tmp_path / "named.npz")
    assert back == named
    more = bleuprint.ROUGE(**{f.name: getattr(back.config, f.name)
                              for f in dataclasses.fields(back.config)})  # fmt: skip
    assert (back + more.stats(hyps, [refs])).rows.tolist() == named.rows.tolist() * 2
    with pytest.raises(StatsMismatchError):
        back + bleuprint.ROUGE(["rouge2", "rougeL"]).stats(hyps, [refs])


def test_split_summaries_needs_punkt_or_matches_rouge_score():
    nltk = pytest.importorskip("nltk")
    hyps, refs = ["The cat sat. It was on the mat."], ["A cat sat on the mat. It slept."]
    metric = bleuprint.ROUGE(["rougeLsum"], split_summaries=True)
    try:
        nltk.sent_tokenize("A b. C d.")
    except LookupError:
        with pytest.raises(InvalidOptionError, match="punkt_tab"):
            metric.stats(hyps, [refs])
        return
    rouge = rouge_scorer.RougeScorer(["rougeLsum"], split_summaries=True)
    assert_same("split_summaries", metric, rouge, hyps, [refs])
