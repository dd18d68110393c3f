"""Hostile input to every public function and every ``bleuprint._core`` function: only
:class:`bleuprint.BleuprintError` may come out (or a normal result), never a
``PanicException``, a bare ``TypeError``/``ValueError``/``IndexError``/``AttributeError``,
a crash or a hang.

The inputs are empty, ragged, non-string, nested the wrong way, huge ints, NaN and inf, NUL,
lone surrogates and every core tokenizer; the containers include sets, dicts, iterators and
numpy arrays. Each target gets its own budget of examples (the module stays under a minute);
``EXAMPLES_RUN`` counts them, and the last test prints the total.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from typing import Any, Optional

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleuprint
from bleuprint import _core
from bleuprint.compat import evaluate, jiwer, moses, mteval, nlgmetricverse, nltk, torchmetrics
from bleuprint.errors import BleuprintError, InputTypeError, InvalidInputError
from bleuprint.metrics.bleu.config import BLEUConfig

EXAMPLES = 60  # per target
EXAMPLES_RUN: dict[str, int] = {}

# --- values ---------------------------------------------------------------------------------

ODD_TEXT = ["", " ", "\x00", "a\x00b", "\ud800", "x \udfff y", "\u2028", "a" * 5000, "日本語"]
text = st.one_of(st.sampled_from(ODD_TEXT), st.text(max_size=12))
huge_ints = st.sampled_from([0, -1, -(2**63), 2**31, 2**62, 2**63, 2**64, 10**30])
numbers = st.one_of(
    huge_ints,
    st.integers(-3, 6),
    st.sampled_from([float("nan"), float("inf"), -float("inf"), -0.5, 1e300, 2.5]),
)
scalar = st.one_of(text, numbers, st.none(), st.booleans(), st.just(b"bytes"))
item = st.one_of(text, text, text, scalar, st.lists(text, max_size=2))


def _object_array(items: list[Any]) -> np.ndarray:
    """``np.array(items, dtype=object)`` (2-D where the items stack), or a 1-D object array
    of them where numpy cannot stack them (ragged nesting such as ``[[None], array([])]``,
    for which ``np.array`` itself raises)."""
    try:
        return np.array(items, dtype=object)
    except ValueError:
        pass
    array = np.empty(len(items), dtype=object)
    for i, x in enumerate(items):
        array[i] = x
    return array


def _containers(elements: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Sequences and the containers that must be refused, holding ``elements``."""
    lists = st.lists(elements, max_size=4)
    return st.one_of(
        lists,
        lists.map(tuple),
        lists.map(_object_array),
        lists.map(lambda xs: iter(xs)),
        st.sets(st.text(max_size=3), max_size=3),
        st.dictionaries(st.text(max_size=3), st.text(max_size=3), max_size=3),
        scalar,
    )


lines = _containers(item)
streams = st.one_of(
    _containers(lines), st.lists(st.lists(text, min_size=2, max_size=2), max_size=3)
)
option = st.one_of(numbers, text, st.none(), st.booleans(), st.sampled_from(list(_core.TOKENIZERS)))
tokenizer = st.sampled_from([*_core.TOKENIZERS, "nope", "", 3])


def _call(target: str, function: Callable[..., Any], /, *args: Any, **kwargs: Any) -> None:
    """Calls ``function``; anything but a result or a BleuprintError fails the test.
    (Positional-only, so a ``name=`` keyword reaches ``function``.)"""
    EXAMPLES_RUN[target] = EXAMPLES_RUN.get(target, 0) + 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            function(*args, **kwargs)
        except BleuprintError:
            pass


def _hostile(name: str, strategy: st.SearchStrategy[Any], run: Callable[[Any], None]) -> Any:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def test(args: Any) -> None:
        _call(name, run, args)

    test.__name__ = f"test_hostile_{name}"
    return test


# --- the public API -------------------------------------------------------------------------

hyps_refs = st.tuples(lines, streams)
hyps_refs_option = st.tuples(lines, streams, option)
sentence = st.tuples(item, lines)

CORPUS = [
    "corpus_bleu", "raw_corpus_bleu", "corpus_chrf", "corpus_ter", "corpus_wer", "corpus_cer",
    "corpus_mer", "corpus_wil", "corpus_wip",
]  # fmt: skip
SENTENCE = ["sentence_bleu", "sentence_chrf", "sentence_ter", "sentence_wer", "sentence_cer"]
# Each metric class with the options it validates.
METRIC_OPTIONS = {
    "BLEU": ["max_ngram_order", "smooth_value", "tokenize", "workers", "smooth_method"],
    "CHRF": ["char_order", "word_order", "beta", "workers"],
    "TER": ["normalized", "workers", "asian_support"],
    "WER": ["workers", "transform", "unit"],
}


@pytest.mark.parametrize("name", CORPUS)
def test_corpus_functions(name: str) -> None:
    function = getattr(bleuprint, name)
    _hostile(name, hyps_refs, lambda a: function(*a))()


@pytest.mark.parametrize("name", SENTENCE)
def test_sentence_functions(name: str) -> None:
    function = getattr(bleuprint, name)
    _hostile(name, sentence, lambda a: function(*a))()


@pytest.mark.parametrize(
    ("metric", "option"), [(m, o) for m, options in METRIC_OPTIONS.items() for o in options]
)
def test_metric_classes(metric: str, option: str) -> None:
    cls = getattr(bleuprint, metric)

    def run(args: Any) -> None:
        hyps, refs, value = args
        scorer = cls(**{option: value})
        scorer.corpus_score(hyps, refs)

    _hostile(f"{metric}({option}=...)", hyps_refs_option, run)()


big_numbers = st.one_of(
    numbers,
    st.sampled_from([1e36, 1.0000001e36, 3.5e36, 1e306, 1e307, 1e308, 10**36, 10**400]),
)


@pytest.mark.parametrize("method", ["floor", "add-k"])
def test_smooth_values_never_overflow(method: str) -> None:
    """Any smooth_value is refused or gives finite scores: sacrebleu's inf for floor and
    add-k values whose 100 * smooth_value overflows is an InvalidOptionError here."""

    def run(args: Any) -> None:
        hyps, refs, value = args
        score = bleuprint.BLEU(smooth_method=method, smooth_value=value).corpus_score(hyps, refs)
        assert np.isfinite(score.score), (value, score)

    _hostile(f"BLEU(smooth_method={method!r})", st.tuples(lines, streams, big_numbers), run)()


@pytest.mark.parametrize("method", ["stats", "sentence_scores", "constructor references"])
def test_metric_methods(method: str) -> None:
    def run(args: Any) -> None:
        hyps, refs = args
        if method == "constructor references":
            bleuprint.CHRF(references=refs).corpus_score(hyps)
        else:
            getattr(bleuprint.BLEU(effective_order=True), method)(hyps, refs)

    _hostile(f"Metric.{method}", hyps_refs, run)()


@pytest.mark.parametrize("method", ["pairwise", "expected_utility", "aggregate_utility"])
def test_pairwise_methods(method: str) -> None:
    def run(args: Any) -> None:
        hyps, refs, weights = args
        for metric in (bleuprint.BLEU(effective_order=True), bleuprint.CHRF(), bleuprint.TER()):
            if method == "pairwise":
                metric.pairwise(hyps, refs, exclude_self=weights is None)
            else:
                try:
                    getattr(metric, method)(hyps, refs, weights=weights)
                except BleuprintError:
                    pass

    extra = st.one_of(st.none(), st.lists(numbers, max_size=4), scalar)
    _hostile(f"Metric.{method}", st.tuples(lines, st.one_of(st.none(), lines), extra), run)()


@pytest.mark.parametrize("method", ["stats_stream", "score_stream"])
def test_stream_methods(method: str) -> None:
    def run(args: Any) -> None:
        hyps, refs, chunk_size = args
        for metric in (bleuprint.BLEU(), bleuprint.CHRF(), bleuprint.TER(), bleuprint.WER()):
            try:  # a str is a path: one that cannot be opened stays an OSError, as with open()
                getattr(metric, method)(hyps, refs, chunk_size=chunk_size)
            except OSError:
                pass

    sizes = st.one_of(st.integers(-1, 4), scalar)
    _hostile(f"Metric.{method}", st.tuples(lines, streams, sizes), run)()


def test_token_bleu() -> None:
    sequences = st.one_of(
        st.lists(st.lists(numbers, max_size=4), max_size=3),
        st.lists(st.lists(st.lists(numbers, max_size=3), max_size=2), max_size=3),
        st.sampled_from([np.zeros((2, 3), dtype=np.int64), np.full((2, 2, 3), -1), np.ones(3)]),
        lines,
    )
    choice = st.one_of(st.none(), huge_ints, st.integers(-1, 9), text)

    presets = st.sampled_from([None, "nltk", "sacrebleu", "fairseq", "nope"])

    def run(args: Any) -> None:
        candidates, references, pad_id, unk_id, smoothing, preset = args
        bleuprint.token_bleu(
            candidates, references, pad_id=pad_id, unk_id=unk_id, smoothing=smoothing,
            preset=preset,
        )  # fmt: skip

    strategy = st.tuples(sequences, sequences, choice, choice, choice, presets)
    _hostile("token_bleu", strategy, run)()


def test_mbr_select() -> None:
    metrics = st.sampled_from(["bleu", "chrf", "chrf++", "ter", "nope", 3, None])
    run = lambda a: bleuprint.mbr.select(a[0], a[1], n=a[2])  # noqa: E731
    _hostile("mbr.select", st.tuples(streams, metrics, st.one_of(st.none(), ints)), run)()


def test_report() -> None:
    pytest.importorskip("matplotlib")
    run = lambda a: bleuprint.report({"a": a[0]}, a[1], n_bootstrap=5)  # noqa: E731
    _hostile("report", hyps_refs, run)()


rows = st.one_of(
    st.lists(st.lists(numbers, max_size=10), max_size=3),
    st.just(np.full((2, 10), -1)),
    st.just(np.zeros((2, 10), dtype=np.float64)),
    st.just(np.array([[2**62] * 10])),
    scalar,
)


def test_stats() -> None:
    configs = [m().stats(["a b"], [["a c"]]).config for m in (bleuprint.BLEU, bleuprint.CHRF,
               bleuprint.TER, bleuprint.WER)]  # fmt: skip

    def run(args: Any) -> None:
        matrix, k, nrefs = args
        stats = bleuprint.Stats(matrix, configs[k], nrefs)
        stats.score()
        stats.sentence_scores()
        (stats + stats)[0]

    _hostile("Stats", st.tuples(rows, st.integers(0, 3), option), run)()


def test_tokenize() -> None:
    _hostile("tokenize", st.tuples(lines, tokenizer), lambda a: bleuprint.tokenize(*a))()


def test_explain() -> None:
    presets = st.sampled_from(["sacrebleu", "nltk", "hf", "moses", "torchmetrics", "nope", 3])
    run = lambda a: str(bleuprint.explain(a[0], a[1], compat=a[2]))  # noqa: E731
    _hostile("explain", st.tuples(item, lines, presets), run)()


def test_paired_test_and_bootstrap() -> None:
    def run(args: Any) -> None:
        hyps, refs, n = args
        stats = bleuprint.BLEU().stats(["a b", "c"], [["a b", "d"]])
        bleuprint.bootstrap_ci(stats, n_samples=n)
        bleuprint.paired_test({"a": hyps, "b": hyps}, refs, n_samples=n)

    _hostile("paired_test", hyps_refs_option, run)()


# --- compat modules -------------------------------------------------------------------------

grouped = st.one_of(_containers(lines), st.lists(st.lists(text, max_size=2), max_size=3))


def _compat_calls() -> dict[str, Callable[[Any], Any]]:
    return {
        "nltk.corpus_bleu": lambda a: nltk.corpus_bleu(a[1], a[0]),
        "nltk.sentence_bleu": lambda a: nltk.sentence_bleu(a[1], a[0]),
        "evaluate.bleu": lambda a: evaluate.load("bleu").compute(predictions=a[0], references=a[1],
                                                                 max_order=a[2]),
        "evaluate.google_bleu": lambda a: evaluate.load("google_bleu").compute(
            predictions=a[0], references=a[1], max_len=a[2]),
        "evaluate.sacrebleu": lambda a: evaluate.load("sacrebleu").compute(
            predictions=a[0], references=a[1]),
        "evaluate.chrf": lambda a: evaluate.load("chrf").compute(predictions=a[0], references=a[1],
                                                                 char_order=a[2]),
        "evaluate.ter": lambda a: evaluate.load("ter").compute(predictions=a[0], references=a[1],
                                                               normalized=a[2]),
        "torchmetrics.bleu_score": lambda a: torchmetrics.bleu_score(a[0], a[1], n_gram=a[2]),
        "torchmetrics.sacre_bleu_score": lambda a: torchmetrics.sacre_bleu_score(a[0], a[1]),
        "moses.multi_bleu": lambda a: moses.multi_bleu(a[0], a[1]),
        "moses.multi_bleu_detok": lambda a: moses.multi_bleu_detok(a[0], a[1], mismatched="perl"),
        "mteval.mteval_v13a": lambda a: mteval.mteval_v13a(a[0], a[1]),
        "mteval.mteval_v14": lambda a: mteval.mteval_v14(a[0], a[1]),
        "nlgmetricverse": lambda a: nlgmetricverse.NLGMetricverse()(predictions=a[0],
                                                                    references=a[1]),
        "BLEUConfig.item_score": lambda a: BLEUConfig(max_ngram_order=a[2]).item_score(a[0], a[1]),
    }  # fmt: skip


@pytest.mark.parametrize("name", list(_compat_calls()))
def test_compat(name: str) -> None:
    _hostile(name, st.tuples(lines, grouped, option), _compat_calls()[name])()


JIWER_CALLS = ("wer", "cer", "process_words", "process_characters", "mer")


@pytest.mark.parametrize("name", JIWER_CALLS)
def test_compat_jiwer(name: str) -> None:
    """bleuprint.compat.jiwer mirrors jiwer: where it does not raise a BleuprintError, it
    raises exactly what jiwer 4.0 raises on the same input (built-in class and message), so
    code written against jiwer keeps catching it; never anything else."""
    upstream = pytest.importorskip("jiwer")
    ours, theirs = getattr(jiwer, name), getattr(upstream, name)

    def run(args: Any) -> None:
        hypotheses, references, _ = args
        raised: Optional[BaseException] = None
        try:
            ours(references, hypotheses)
        except BleuprintError:
            return
        except (TypeError, ValueError, AttributeError) as error:
            raised = error
        if raised is not None:
            with pytest.raises(type(raised)) as expected:
                theirs(references, hypotheses)
            assert str(expected.value) == str(raised)

    # Iterators would be consumed by the first call: compare on lists only.
    sized = st.one_of(st.lists(item, max_size=4), scalar)
    _hostile(f"jiwer.{name}", st.tuples(sized, sized, st.none()), run)()


# --- every _core function -------------------------------------------------------------------

# MetricKernel is the kernels' base class, which Python cannot construct (no constructor).
CORE = sorted(
    n
    for n in dir(_core)
    if not n.startswith("_") and callable(getattr(_core, n)) and n != "MetricKernel"
)
int_arrays = st.sampled_from(
    [
        np.zeros((2, 10), dtype=np.int64),
        np.full((3, 3), -5, dtype=np.int64),
        np.zeros((0, 6), dtype=np.int64),
        np.zeros((2, 0), dtype=np.int64),
        np.array([[2**62, 2**62, 1]], dtype=np.int64),
        np.array([[-(2**63), 7, 1, 0, 0, 0]], dtype=np.int64),
        np.array([[3, 3, 5, 0, 0, 0, 3, 2, 1, 0]], dtype=np.int64),
        np.full((2, 18), 2**40, dtype=np.int64),
    ]
)
float_arrays = st.sampled_from(
    [
        np.zeros((2, 10), dtype=np.float32),
        np.full((2, 10), np.nan, dtype=np.float32),
        np.full((1, 3), np.inf, dtype=np.float32),
        np.zeros((0, 2), dtype=np.float32),
        np.full((2, 6), -1, dtype=np.float32),
    ]
)
byte_arrays = st.sampled_from(
    [
        np.zeros((2, 1), dtype=np.uint8),
        np.full((3, 4), 255, dtype=np.uint8),
        np.zeros((0, 0), np.uint8),
    ]
)
arrays = st.one_of(int_arrays, float_arrays, byte_arrays)
# Lone surrogates are tested on their own below (test_core_with_lone_surrogates).
core_text = st.one_of(
    st.sampled_from([t for t in ODD_TEXT if "\ud800" not in t and "\udfff" not in t]),
    st.text(st.characters(exclude_categories=["Cs"]), max_size=12),
)
text_lists = st.lists(core_text, max_size=4)
text_streams = st.lists(
    st.lists(st.one_of(core_text, st.none()), min_size=2, max_size=2), max_size=3
)
names = st.one_of(
    st.sampled_from([*_core.TOKENIZERS, *_core.REF_LENGTHS, *_core.NORMALIZATIONS]),
    st.sampled_from(_core.ARITHMETICS),
    st.sampled_from([*_core.SMOOTH_METHODS, *_core.EMPTY_REFERENCE_RULES, "word", "char"]),
    st.sampled_from(["weak", "legacy"]),
    st.sampled_from(["", "nope", "\x00", "/nonexistent", "/dev/null", "/"]),
)
ints = st.one_of(huge_ints, st.integers(-2, 6))
floats = st.sampled_from([float("nan"), float("inf"), -1.0, 0.0, 0.1, 1e308, -0.0])
# The strategy for each parameter name, values of the right type (a wrong type is tested
# separately below).
TYPED = {
    **dict.fromkeys(("hypotheses", "lines", "hypothesis", "args", "captions"), text_lists),
    # PtbTokenizer.jar_output: one text.
    "text": st.one_of(st.sampled_from([*ODD_TEXT, "a\rb", "<a b='x\ny'>"]), scalar),
    "references": text_streams,
    **dict.fromkeys(("stats", "rows", "baseline", "system", "indices"), int_arrays),
    "sums": float_arrays,
    "packed_swaps": byte_arrays,
    **dict.fromkeys(
        (
            "tokenizer",
            "form",
            "unit",
            "smooth_method",
            "ref_length",
            "normalize",
            "name",
            "empty_reference",
            "arithmetic",
            "promotion",
            "library_path",
            "path",
            "line_breaks",
        ),
        names,
    ),  # fmt: skip
    **dict.fromkeys(
        (
            "max_order",
            "char_order",
            "word_order",
            "min_len",
            "max_len",
            "max_lines",
            "workers",
            "orders",
            "columns",
        ),
        ints,
    ),
    **dict.fromkeys(
        (
            "smooth_value",
            "factor",
            "one_plus_factor",
            "hyp_len",
            "ref_len",
            "beta",
            "two_sigma_squared",
        ),
        floats,
    ),
    **dict.fromkeys(
        ("correct", "total", "smoothed"), st.one_of(st.none(), st.lists(floats, max_size=6))
    ),
    "weights": st.lists(st.lists(floats, max_size=5), max_size=3),
    # ROUGE's types: good, unknown and repeated names, and non-str items.
    "types": st.lists(
        st.one_of(
            st.sampled_from(["rouge1", "rouge9", "rougeL", "rougeLsum", "rouge0", "x"]), scalar
        ),
        max_size=4,
    ),
    "positive": st.one_of(st.none(), st.lists(st.booleans(), max_size=6)),
    "item_lengths": st.one_of(st.none(), st.tuples(floats, floats)),
    "scale": ints,
    **dict.fromkeys(
        (
            "effective_order",
            "compensated_sum",
            "corpus",
            "uniform_weights",
            "auto_reweigh",
            "eps_smoothing",
            "whitespace",
            "normalized",
            "no_punct",
            "asian_support",
            "raw",
            "stem",
            "sclite",
            "merge_compounds",
            "compound_pairs",
            "package",
            "remove_diacritics",
            "split_letters",
            "preserve_marks",
            "include_self",
        ),
        st.booleans(),
    ),  # fmt: skip
    # WerKernel's aligner and WhisperStage's stage and kept characters: good and bad names.
    "aligner": st.one_of(st.sampled_from(["rapidfuzz", "kaldialign", "sclite"]), names),
    "stage": st.one_of(
        st.sampled_from(
            [
                "english",
                "numbers",
                "spelling",
                "basic",
                "remove_symbols",
                "remove_symbols_and_diacritics",
            ]
        ),  # fmt: skip
        names,
    ),
    "keep": st.one_of(st.sampled_from(["", ".%$", "\x00"]), names),
    # RougeKernel's multi_reference: good and bad names.
    "multi_reference": st.one_of(st.sampled_from(["best-f", "max-precision-recall"]), names),
}
# A kernel of each metric, as the functions that take one are given it.
BLEU_KERNEL = _core.BleuKernel(tokenizer="13a", max_order=4)
CHRF_KERNEL = _core.ChrfKernel(char_order=6, word_order=2, whitespace=False)
TER_KERNEL = _core.TerKernel(normalized=True, asian_support=True)
WER_KERNEL = _core.WerKernel()
GLEU_KERNEL = _core.GleuKernel(tokenizer="13a")
ROUGE_KERNEL = _core.RougeKernel(types=["rouge2", "rougeLsum"])
KERNEL_CLASSES = [_core.BleuKernel, _core.ChrfKernel, _core.TerKernel, _core.WerKernel,
                  _core.GleuKernel, _core.RougeKernel]  # fmt: skip


@st.composite
def kernels(draw: Any) -> Any:
    """A kernel of any metric with options drawn as the constructors' own test draws them
    (each option given or left at its default), so every operation meets every arithmetic,
    smoothing, order and tokenizer the old per-metric functions took as arguments; options a
    constructor refuses (its own hostile test) leave that kernel at its defaults."""
    cls = draw(st.sampled_from(KERNEL_CLASSES))
    parameters = _parameters(cls)
    # Options without a default (ROUGE's types) are always given.
    required = {p.name for p in parameters if p.default is inspect.Parameter.empty}
    options = {
        p.name: draw(TYPED[p.name]) for p in parameters if p.name in required or draw(st.booleans())
    }
    try:
        return cls(**options)
    except BleuprintError:
        return cls(**{name: TYPED_DEFAULTS[name] for name in required})


# Counted sentences for the pairwise functions (ranges come from text_lists, so they are
# refused, and from the range strategies below).
BAGS = [
    _core.bags(BLEU_KERNEL, ["a b c", "", "a b"]),
    _core.bags(CHRF_KERNEL, ["a b c", "", "\x00"]),
]
TER_SENTENCES = _core.bags(TER_KERNEL, ["a b c", "", "\x00 b"])
ROUGE_SENTENCES = _core.bags(ROUGE_KERNEL, ["a b c", "", "a\nb\n\nc"])
ranges = st.one_of(
    st.tuples(st.integers(0, 4), st.integers(0, 4)), st.tuples(huge_ints, huge_ints), text_lists
)
int_vectors = st.sampled_from(
    [
        np.zeros(0, dtype=np.int64),
        np.array([0, 1, 2], dtype=np.int64),
        np.array([-1, 2**62], dtype=np.int64),
        np.array([3, 1, 5], dtype=np.int64),
        np.zeros((2, 2), dtype=np.int64),
        np.zeros(3, dtype=np.float64),
    ]
)
TYPED.update(
    {
        "kernel": st.one_of(kernels(), scalar),
        # A BleuKernel's MeCab model: only ja-mecab and ko-mecab take one.
        "tagger": st.one_of(st.none(), scalar),
        "sentences": st.one_of(st.sampled_from([*BAGS, TER_SENTENCES, ROUGE_SENTENCES]), scalar),
        "log_weights": st.lists(floats, max_size=4),
        # line_end: a block of a file's bytes, an offset into it and a line count.
        "data": st.one_of(st.binary(max_size=40), scalar),
        # TextColumn: int64 offsets and validity bytes, as bytes.
        "offsets": st.one_of(st.binary(max_size=40), scalar),
        "valid": st.one_of(st.none(), st.binary(max_size=8), scalar),
        "start": ints,
        "n": ints,
        # PtbTokenizer: a class file's bytes (any bytes are refused, never a panic).
        "class_file": st.one_of(st.binary(max_size=64), scalar),
        **dict.fromkeys(
            ("tokens", "ends", "reference_counts", "caption_ends", "image_ends"), int_vectors
        ),
        # CIDEr-D's logs: any float64 vector (NaN and negative logs give NaN scores, no error).
        "log_table": st.sampled_from(
            [np.zeros(0), np.log(np.arange(1, 6, dtype=np.float64)), np.full(4, np.nan)]
        ),
    }
)
PAIRWISE = {"sentences"}  # functions with these parameters take ranges, not text
# Parameters whose name means another type in one function.
OVERRIDES: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    # int64 or float32 statistics: the sums follow the dtype (bootstrap_sums_int64 and
    # bootstrap_sums_float32 before).
    "bootstrap_sums": {"stats": st.one_of(int_arrays, float_arrays)},
    # A tokenizer name or a kernel's tokenizer (ter_tokenize and wer_tokens before).
    "tokenize": {"tokenizer": st.one_of(names, kernels())},
    # Token lists instead of text (wer_token_alignments before).
    "alignments": {"tokens": st.booleans()},
    # Each cell's statistics row instead of its score (pairwise_rows before).
    "pairwise": {"rows": st.booleans()},
    # Self-BLEU's sentences are token lists (of str, or anything else), not Sentences.
    "BleuKernel.self_stats": {
        "sentences": st.one_of(
            st.lists(st.lists(core_text, max_size=4), max_size=4),
            text_lists,
            st.lists(st.lists(scalar, max_size=2), max_size=3),
            scalar,
        )
    },
}

# A valid value of each keyword-only option without a default, for the surrogate test.
TYPED_DEFAULTS = {
    "tokenizer": "13a", "max_order": 4, "char_order": 6, "word_order": 0, "factor": 4.0,
    "one_plus_factor": 5.0, "whitespace": False, "eps_smoothing": False, "unit": "word",
    "form": "nfc", "types": ["rouge1"], "promotion": "weak",
}  # fmt: skip


def _parameters(function: Any) -> list[inspect.Parameter]:
    return list(inspect.signature(function).parameters.values())


def _core_test(name: str, function: Any = None) -> None:
    function = function or getattr(_core, name)
    parameters = _parameters(function)
    typed_for = {**TYPED, **OVERRIDES.get(name, {})}
    if PAIRWISE & {p.name for p in parameters}:
        typed_for = {**typed_for, "hypotheses": ranges, "references": ranges}
    strategies = [typed_for[p.name] for p in parameters]

    def run(values: list[Any]) -> None:
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        for p, value in zip(parameters, values):
            if p.kind is inspect.Parameter.KEYWORD_ONLY:
                kwargs[p.name] = value
            else:
                args.append(value)
        if "workers" in kwargs and isinstance(kwargs["workers"], int) and kwargs["workers"] > 1:
            kwargs["workers"] = 2  # an accepted count: keep the threads few
        if name == "read_lines":
            try:  # a path that cannot be opened stays an OSError, as with open()
                function(*args, **kwargs)
            except OSError:
                pass
            return
        function(*args, **kwargs)

    _hostile(f"_core.{name}", st.tuples(*strategies), run)()


@pytest.mark.parametrize("name", CORE)
def test_core_with_hostile_values(name: str) -> None:
    _core_test(name)


# CiderKernel's own operations (its statistics are token ids, not rows), on a kernel of drawn
# settings and on hand-made arrays.
@pytest.mark.parametrize("method", ["count", "order_sums"])
def test_cider_kernel_with_hostile_values(method: str) -> None:
    _core_test(f"CiderKernel.{method}", getattr(_core.CiderKernel(orders=2, columns=3), method))


# The PTB tokenizer's methods on captions of every kind (its tables come from pycocoevalcap's
# jar, so this skips without it).
@pytest.mark.parametrize("method", ["tokenize", "tokenize_batch", "jar_output"])
def test_ptb_tokenizer_with_hostile_values(method: str) -> None:
    from bleuprint.errors import ModelUnavailableError
    from bleuprint.tokenizers.ptb import ptb_tokenizer

    try:
        tokenizer = ptb_tokenizer()
    except ModelUnavailableError:
        pytest.skip("pycocoevalcap's CoreNLP jar is not installed")
    _core_test(f"PtbTokenizer.{method}", getattr(tokenizer, method))


# Self-BLEU's rows, a BleuKernel method: token lists of every kind, one sentence or none.
def test_self_bleu_stats_with_hostile_values() -> None:
    kernel = _core.BleuKernel(tokenizer=None, max_order=3)
    _core_test("BleuKernel.self_stats", kernel.self_stats)


TEXT_FUNCTIONS = [
    name for name in CORE
    if {"hypotheses", "lines"} & {p.name for p in _parameters(getattr(_core, name))}
    and not PAIRWISE & {p.name for p in _parameters(getattr(_core, name))}
    and "token_" not in name  # these take token lists
]  # fmt: skip


# The kernel (or tokenizer) each text function reads text under: every one it was a function
# of its own for before (bleu_stats, chrf_stats, ter_stats, wer_stats; bleu_grouped_stats,
# gleu_stats; bleu_bags, chrf_bags, ter_sentences; wer_alignments; tokenize,
# tokenize_regexp, normalize, ter_tokenize, wer_tokens), with the options that made it so.
TEXT_KERNELS: dict[str, list[tuple[str, Any, dict[str, Any]]]] = {
    "stats": [("bleu", BLEU_KERNEL, {}), ("chrf", CHRF_KERNEL, {}), ("ter", TER_KERNEL, {}),
              ("wer", WER_KERNEL, {})],
    "grouped_stats": [("bleu", BLEU_KERNEL, {}), ("gleu", GLEU_KERNEL, {})],
    "bags": [("bleu", BLEU_KERNEL, {}), ("chrf", CHRF_KERNEL, {}), ("ter", TER_KERNEL, {})],
    "alignments": [("wer", WER_KERNEL, {})],
    "tokenize": [("13a", "13a", {}), ("regexp", "regexp", {}),
                 ("normalize", "none", {"normalize": "nfc"}), ("ter", TER_KERNEL, {}),
                 ("wer", WER_KERNEL, {})],
}  # fmt: skip
TEXT_CASES = [
    pytest.param(name, first, options, id=f"{name}-{label}" if label else name)
    for name in TEXT_FUNCTIONS
    for label, first, options in TEXT_KERNELS.get(name, [("", None, {})])
]


@pytest.mark.parametrize(("name", "first", "options"), TEXT_CASES)
def test_core_with_lone_surrogates(name: str, first: Any, options: dict[str, Any]) -> None:
    function = getattr(_core, name)
    text_args = {"hypotheses": ["a", "b \ud800"], "lines": ["\udfff"], "references": [["a", "b"]]}
    defaults = {**TYPED_DEFAULTS, "kernel": first, "tokenizer": first}
    args, kwargs = [], {}
    for p in _parameters(function):
        if p.name in text_args:
            value = text_args[p.name]
        elif p.name in options:
            value = options[p.name]
        elif p.default is inspect.Parameter.empty:
            value = defaults[p.name]
        else:
            continue
        if p.kind is inspect.Parameter.KEYWORD_ONLY:
            kwargs[p.name] = value
        else:
            args.append(value)
    # The core names the item, the code point and its position.
    where = r"lines\[0\] holds a lone surrogate '\\udfff' at character 0"
    if any(p.name == "hypotheses" for p in _parameters(function)):
        where = r"hypotheses\[1\] holds a lone surrogate '\\ud800' at character 2"
    with pytest.raises(InvalidInputError, match=where):
        function(*args, **kwargs)


@pytest.mark.parametrize("name", [n for n in CORE if _parameters(getattr(_core, n))])
def test_core_with_wrong_types(name: str) -> None:
    function = getattr(_core, name)
    args, kwargs = [], {}
    for p in _parameters(function):
        if p.kind is inspect.Parameter.KEYWORD_ONLY:
            kwargs[p.name] = object()
        else:
            args.append(object())
    _call(f"_core.{name} (wrong types)", function, *args, **kwargs)


@pytest.mark.parametrize("ids", [[-1], [2**32], [2**70]])
def test_core_levenshtein_ids_out_of_range(ids: list[int]) -> None:
    # levenshtein_opcodes (u32 token ids) went in the one-metric refactor; its alignments are
    # _core.alignments(kernel, ..., tokens=True), whose tokens are str: a token that is not
    # one is refused with its position named.
    with pytest.raises(InputTypeError, match=r"references\[0\]\[1\] must be str, got int"):
        _core.alignments(WER_KERNEL, [["1"]], [["2", *ids]], tokens=True)
    with pytest.raises(InputTypeError, match=r"hypotheses\[0\]\[0\] must be str, got int"):
        _core.alignments(WER_KERNEL, [[1]], [["a"]], tokens=True)


def test_examples_were_run() -> None:
    # Under xdist this process may have run only the one-call wrong-type tests: count the
    # hypothesis targets alone.
    drawn = {k: v for k, v in EXAMPLES_RUN.items() if not k.endswith("(wrong types)")}
    total = sum(drawn.values())
    print(f"\nhostile inputs: {total} examples over {len(drawn)} targets")
    assert total >= len(drawn) * 10 or not drawn
