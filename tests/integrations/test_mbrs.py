"""bleuprint's mbrs metrics (``bleuprint.integrations.mbrs``) against mbrs 0.1.8's own
``MetricBLEU`` and ``MetricChrF``: the same float32 tensors (``torch.equal``) from every method
on WMT22 system outputs and on generated text, and the same selections from a real
``mbrs-decode`` run with the plugin directory. mbrs needs unbabel-comet (numpy<2), so the
comparisons run in the numpy-1 environment (``make test-numpy1``) and skip elsewhere; the
import checks run everywhere."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.data import read_lines, wmt22_references, wmt22_systems

# (kind, config overrides): mbrs' defaults, and settings that change every step.
CONFIGS = [
    ("bleu", {}),
    (
        "bleu",
        {"tokenize": "intl", "lowercase": True, "smooth_method": "floor", "smooth_value": 0.2},
    ),
    ("bleu", {"tokenize": "char", "smooth_method": "add-k", "max_ngram_order": 3}),
    ("chrf", {}),
    ("chrf", {"word_order": 2}),  # chrF++
    ("chrf", {"char_order": 4, "beta": 1, "whitespace": True, "eps_smoothing": True}),
]
IDS = ["bleu", "bleu-intl-floor", "bleu-char-addk", "chrf", "chrf++", "chrf-c4-b1-ws-eps"]


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=300
    )


# --- anywhere: the import contract ----------------------------------------------------------


def test_bleuprint_and_the_plugin_directory_import_neither_mbrs_nor_torch() -> None:
    done = _python(
        "import sys, bleuprint, bleuprint.integrations, bleuprint.integrations.mbrs_plugin as p\n"
        "print([m for m in ('mbrs', 'torch') if m in sys.modules]); print(p.PLUGIN_DIR)"
    )
    assert done.returncode == 0, done.stderr
    loaded, plugin_dir = done.stdout.splitlines()
    assert loaded == "[]"
    # mbrs puts the directory's parent first on sys.path: it must hold nothing but the plugin.
    assert os.path.basename(plugin_dir) == "bleuprint_mbrs"
    assert sorted(p for p in os.listdir(os.path.dirname(plugin_dir)) if p != "__pycache__") == [
        "__init__.py",
        "bleuprint_mbrs",
    ]


def test_without_mbrs_the_module_names_what_to_install() -> None:
    done = _python(
        "import sys; sys.modules['mbrs'] = None\n"
        "try:\n    import bleuprint.integrations.mbrs\n"
        "except ModuleNotFoundError as e:\n    print(e.name, '|', e)\n"
    )
    assert done.returncode == 0, done.stderr
    name, message = done.stdout.split(" | ", 1)
    assert name == "mbrs"
    assert "pip install mbrs" in message
    assert "numpy" in message


# --- with mbrs ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def m() -> SimpleNamespace:
    """mbrs' metrics, the plugin module and torch (mbrs' dependencies warn on import)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pytest.importorskip("mbrs", reason="mbrs (unbabel-comet, numpy<2): numpy-1 env only")
        torch = pytest.importorskip("torch")
        import mbrs.functional
        import mbrs.metrics

        import bleuprint.integrations.mbrs as plugin
    functional = mbrs.functional
    return SimpleNamespace(mbrs=mbrs.metrics, functional=functional, plugin=plugin, torch=torch)


def _pair(m: SimpleNamespace, kind: str, options: dict[str, Any], workers: int = 2) -> tuple:
    """(bleuprint's metric, mbrs' metric) of the same configuration."""
    ours_type = m.plugin.MetricBLEU if kind == "bleu" else m.plugin.MetricChrF
    theirs_type = m.mbrs.MetricBLEU if kind == "bleu" else m.mbrs.MetricChrF
    ours = ours_type(ours_type.Config(**options))
    theirs = theirs_type(theirs_type.Config(**options, num_workers=workers))
    return ours, theirs


def _same(m: SimpleNamespace, ours: Any, theirs: Any) -> None:
    assert isinstance(ours, m.torch.Tensor)
    assert ours.dtype == theirs.dtype == m.torch.float32
    assert ours.shape == theirs.shape
    if not m.torch.equal(ours, theirs):
        bad = (ours != theirs).nonzero()[:5].tolist()
        raise AssertionError(f"{int((ours != theirs).sum())} cells differ, e.g. at {bad}")


def test_registered_under_their_own_names(m: SimpleNamespace) -> None:
    assert m.mbrs.get_metric("bleuprint_bleu") is m.plugin.MetricBLEU
    assert m.mbrs.get_metric("bleuprint_chrf") is m.plugin.MetricChrF
    assert m.mbrs.get_metric("bleu") is m.mbrs.MetricBLEU  # mbrs' own untouched
    assert m.mbrs.get_metric("chrf") is m.mbrs.MetricChrF
    assert m.plugin.METRICS == {
        "bleuprint_bleu": m.plugin.MetricBLEU,
        "bleuprint_chrf": m.plugin.MetricChrF,
    }
    for ours, theirs in [
        (m.plugin.MetricBLEU, m.mbrs.MetricBLEU),
        (m.plugin.MetricChrF, m.mbrs.MetricChrF),
    ]:
        assert issubclass(ours, m.mbrs.MetricAggregatable)
        assert not issubclass(ours, m.mbrs.MetricCacheable)
        assert ours.HIGHER_IS_BETTER is True
        # mbrs' own configuration: the same fields, types and defaults.
        fields = [(f.name, f.type, f.default) for f in dataclasses.fields(ours.Config)]
        assert fields == [(f.name, f.type, f.default) for f in dataclasses.fields(theirs.Config)]
        assert dataclasses.asdict(ours.Config()) == dataclasses.asdict(theirs.Config())
        assert ours().cfg == ours.Config()  # the default configuration when none is given
    with pytest.raises(ValueError, match="fastchrf"):  # mbrs' own check, kept
        m.plugin.MetricChrF.Config(fastchrf=True, word_order=2)


def test_fields_that_tune_mbrs_alone_change_nothing(m: SimpleNamespace) -> None:
    hyps = ["The cat sat on the mat.", "A cat sat on a mat.", "The dog ran away."]
    chrf = m.plugin.MetricChrF
    plain = chrf().pairwise_scores(hyps, hyps)
    tuned = chrf(chrf.Config(fastchrf=True, num_workers=1)).pairwise_scores(hyps, hyps)
    assert m.torch.equal(plain, tuned)
    assert m.torch.equal(
        plain, m.mbrs.MetricChrF(m.mbrs.MetricChrF.Config()).pairwise_scores(hyps, hyps)
    )
    # Empty lists give empty tensors (mbrs' process pools fail on them).
    assert chrf().pairwise_scores([], hyps).shape == (0, 3)
    assert chrf().expected_scores_reference_aggregation([], hyps).shape == (0,)
    assert chrf().scores([], []).shape == (0,)


def _ja_en(root: Path, segments: int, first: int = 0) -> list[list[str]]:
    """Per segment, every ja-en system's output and reference A (MBR-like samples: the same
    source translated many ways)."""
    systems = [p for pair, _, p in wmt22_systems(root) if pair == "ja-en"]
    outputs = [read_lines(p) for p in systems]
    outputs.append(read_lines(wmt22_references(root, "ja-en")["A"]))
    n = min(len(o) for o in outputs)
    step = max(1, (n - first) // segments)
    return [[o[first + k * step] for o in outputs] for k in range(segments)]


@pytest.fixture(scope="module")
def samples(wmt22: Path) -> tuple[list[str], list[str]]:
    """64 hypotheses (4-5 ja-en segments, every system) and 48 references drawn elsewhere in
    the same test set (other segments, other systems first)."""
    hyps = [s for group in _ja_en(wmt22, 5) for s in group][:64]
    refs = [s for group in _ja_en(wmt22, 4, first=7) for s in reversed(group)][:48]
    refs[5] = hyps[3]  # a reference equal to a hypothesis
    return hyps, refs


@pytest.mark.parametrize(("kind", "options"), CONFIGS, ids=IDS)
def test_every_method_equals_mbrs_on_wmt22(
    m: SimpleNamespace, samples: tuple[list[str], list[str]], kind: str, options: dict[str, Any]
) -> None:
    hyps, refs = samples
    torch = m.torch
    ours, theirs = _pair(m, kind, options)
    gen = torch.Generator().manual_seed(len(options))
    for h, r in [(hyps, hyps), (hyps, refs)]:  # MBR's square matrix, and pseudo-references
        matrix = ours.pairwise_scores(h, r)
        _same(m, matrix, theirs.pairwise_scores(h, r))
        assert matrix.std() > 1  # real spread of scores, not a matrix of zeros
        # log-probabilities over a wide range, float32 as mbrs-decode makes them
        lprobs = (torch.randn(len(r), generator=gen) * 8).to(torch.float32)
        for lp in (None, lprobs):
            for method in ("expected_scores", "expected_scores_reference_aggregation"):
                a = getattr(ours, method)(h, r, reference_lprobs=lp)
                _same(m, a, getattr(theirs, method)(h, r, reference_lprobs=lp))
    paired = refs + hyps[: len(hyps) - len(refs)]
    _same(m, ours.scores(hyps, paired), theirs.scores(hyps, paired))
    for i in (0, 3, 17, 40):
        a, b = ours.score(hyps[i], refs[i]), theirs.score(hyps[i], refs[i])
        assert type(a) is float
        assert a == b
    streams = [paired, hyps[::-1]]
    a, b = ours.corpus_score(hyps, streams), theirs.corpus_score(hyps, streams)
    assert type(a) is float
    assert a == b


def test_float64_lprobs_keep_mbrs_dtype_rules(m: SimpleNamespace, samples: tuple) -> None:
    # mbrs' BLEU normalises the log-probabilities in float32, its chrF in their own dtype.
    hyps, refs = samples
    lprobs = m.torch.linspace(-40.0, 3.0, len(refs), dtype=m.torch.float64)
    for kind in ("bleu", "chrf"):
        ours, theirs = _pair(m, kind, {})
        _same(
            m,
            ours.expected_scores_reference_aggregation(hyps, refs, reference_lprobs=lprobs),
            theirs.expected_scores_reference_aggregation(hyps, refs, reference_lprobs=lprobs),
        )
        with pytest.raises(ValueError, match="one log-probability per reference"):
            ours.expected_scores_reference_aggregation(hyps, refs, reference_lprobs=lprobs[1:])


def test_the_default_dtype_is_followed_as_mbrs_follows_it(m: SimpleNamespace) -> None:
    hyps = ["The cat sat on the mat.", "A cat sat on a mat.", "The dog ran."]
    ours, theirs = _pair(m, "chrf", {})
    previous = m.torch.get_default_dtype()
    m.torch.set_default_dtype(m.torch.float64)
    try:
        a = ours.expected_scores_reference_aggregation(hyps, hyps)
        b = theirs.expected_scores_reference_aggregation(hyps, hyps)
    finally:
        m.torch.set_default_dtype(previous)
    assert a.dtype == b.dtype == m.torch.float64
    assert m.torch.equal(a, b)


TEXT = st.text(alphabet="aAb c.,-1éß\u3000の", max_size=14)
REFERENCES = st.lists(st.tuples(TEXT, st.floats(-30, 5, width=32)), min_size=1, max_size=6)


@pytest.mark.parametrize(("kind", "options"), [CONFIGS[0], CONFIGS[1], CONFIGS[4]],
                         ids=["bleu", "bleu-intl-floor", "chrf++"])  # fmt: skip
@settings(max_examples=40, deadline=None)
@given(hyps=st.lists(TEXT, min_size=1, max_size=6), refs=REFERENCES)
def test_generated_text(
    m: SimpleNamespace,
    kind: str,
    options: dict[str, Any],
    hyps: list[str],
    refs: list[tuple[str, float]],
) -> None:
    torch = m.torch
    ours, theirs = _pair(m, kind, options)
    references = [r for r, _ in refs]
    lprobs = torch.tensor([lp for _, lp in refs], dtype=torch.float32)
    # mbrs' own pairwise loop (Metric.pairwise_scores: Tensor of score() per cell), in-process.
    expected = m.mbrs.Metric.pairwise_scores(theirs, hyps, references)
    _same(m, ours.pairwise_scores(hyps, references), expected)
    _same(m, ours.expected_scores(hyps, references, reference_lprobs=lprobs),
          m.functional.expectation(expected, lprobs=lprobs))  # fmt: skip
    for lp in (None, lprobs):
        a = ours.expected_scores_reference_aggregation(hyps, references, reference_lprobs=lp)
        b = theirs.expected_scores_reference_aggregation(hyps, references, reference_lprobs=lp)
        _same(m, a, b)


# --- mbrs-decode ----------------------------------------------------------------------------


def test_mbrs_decode_selects_the_same_with_the_plugin(
    m: SimpleNamespace, wmt22: Path, tmp_path: Path
) -> None:
    from bleuprint.integrations.mbrs_plugin import PLUGIN_DIR

    groups = _ja_en(wmt22, 8, first=3)
    n = len(groups[0])
    hyps_file = tmp_path / "hyps.txt"
    lines = [" ".join(s.splitlines()) + "\n" for g in groups for s in g]
    hyps_file.write_text("".join(lines), encoding="utf-8")
    lprobs_file = tmp_path / "lprobs.txt"
    gen = m.torch.Generator().manual_seed(0)
    lprobs = (m.torch.randn(8 * n, generator=gen) * 3 - 20).tolist()
    lprobs_file.write_text("".join(f"{x!r}\n" for x in lprobs), encoding="utf-8")
    runs = {
        "bleu (mbr)": ["--metric", "{}bleu"],
        "chrf (mbr)": ["--metric", "{}chrf"],
        "chrf++ (aggregate_mbr, lprobs)": [
            "--metric", "{}chrf", "--metric.word_order", "2", "--decoder", "aggregate_mbr",
            "--reference_lprobs", str(lprobs_file),
        ],
    }  # fmt: skip
    procs = {}
    for name, extra in runs.items():
        for prefix in ("", "bleuprint_"):
            out = tmp_path / f"{prefix}{len(procs)}.jsonl"
            args = [a.format(prefix) for a in extra]
            if prefix:
                args += ["--plugin_dir", PLUGIN_DIR]
            # One process in mbrs' pools (ours take num_workers and use bleuprint's threads).
            command = [sys.executable, "-m", "mbrs.cli.decode", str(hyps_file), "-n", str(n),
                       "--format", "json", "--quiet", "-o", str(out), *args,
                       "--metric.num_workers", "1"]  # fmt: skip
            proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            procs[name, prefix] = (proc, out)
    outputs = {}
    for key, (proc, out) in procs.items():
        _, stderr = proc.communicate(timeout=300)
        assert proc.returncode == 0, stderr.decode()[-2000:]
        outputs[key] = [json.loads(line) for line in out.read_text().splitlines()]
    for name in runs:
        theirs, ours = outputs[name, ""], outputs[name, "bleuprint_"]
        assert len(theirs) == 8
        assert ours == theirs  # selected index, sentence and expected score (float32)
        assert len({o["selected_idx"] for o in ours}) > 1
