"""``bleuprint.compat.sacrebleu`` against the real sacrebleu 2.6.0: the version checks client
code makes (fairseq, HF evaluate), the private names mbrs uses, every tokenizer class on WMT22
text, module-by-module name parity, ``install()`` and the ``python -m`` runner."""

from __future__ import annotations

import importlib
import os
import pkgutil
import subprocess
import sys
import textwrap
import types
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from packaging import version as pep440

import bleuprint
import bleuprint.compat.sacrebleu as compat
import bleuprint.testsets
from bleuprint.compat.sacrebleu import significance
from bleuprint.compat.sacrebleu import version as compat_version
from bleuprint.compat.sacrebleu.metrics import helpers
from bleuprint.compat.sacrebleu.metrics.lib_ter import translation_edit_rate
from bleuprint.errors import BleuprintError, InvalidInputError
from tests.support.data import read_lines, wmt22_references

sacrebleu = pytest.importorskip("sacrebleu")
pytestmark = pytest.mark.differential

# WMT22 files whose lines the tokenizers are compared on: every script the tokenizers treat
# differently (Latin, Cyrillic, CJK, Japanese kana, Korean Hangul).
TEXT_FILES = (
    "references/generaltest2022.en-de.ref.A.de",
    "references/generaltest2022.en-ru.ref.A.ru",
    "references/generaltest2022.en-zh.ref.A.zh",
    "references/generaltest2022.en-ja.ref.A.ja",
    "sources/generaltest2022.cs-en.src.cs",
    "sources/generaltest2022.ja-en.src.ja",
)
LINES_PER_FILE = 400


@pytest.fixture(scope="module")
def wmt22_lines(wmt22: Path) -> list[str]:
    lines: list[str] = []
    for name in TEXT_FILES:
        path = wmt22 / name
        if path.exists():
            lines += read_lines(path)[:LINES_PER_FILE]
    if not lines:
        pytest.skip("none of the WMT22 text files is there")
    return lines


def run_python(code: str, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter (sys.modules untouched by this test process)."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env={**os.environ, "PYTHONWARNINGS": "error"},
    )


# --- version ---------------------------------------------------------------------------------


def test_version_is_sacrebleu_2_6_0_with_a_bleuprint_label() -> None:
    parsed = pep440.Version(compat.__version__)
    assert parsed.release == (2, 6, 0)
    assert parsed.public == "2.6.0"
    assert parsed.local == compat_version.local_label(bleuprint.__version__)[0:].lower()
    assert compat.__version__ == f"2.6.0+bleuprint.{bleuprint.__version__}"
    # bleuprint's own version stays its own.
    assert not bleuprint.__version__.startswith("2.6.0")


def test_fairseq_version_check() -> None:
    # fairseq/scoring/bleu.py: `int(sacrebleu.__version__[0]) >= 2` picks the 2.x API.
    assert int(compat.__version__[0]) >= 2


def test_hf_evaluate_version_check() -> None:
    # evaluate's sacrebleu metric raises when `version.parse(__version__) < version.parse(...)`.
    assert not pep440.parse(compat.__version__) < pep440.parse("1.4.12")
    assert pep440.parse(compat.__version__) >= pep440.parse(sacrebleu.__version__)


@pytest.mark.parametrize("raw", ["0.1.0", "1.2.0.dev3", "1.2.0+g1a2b", "2.0.0rc1-x"])
def test_local_label_is_always_valid_pep_440(raw: str) -> None:
    parsed = pep440.Version(f"2.6.0+{compat_version.local_label(raw)}")
    assert parsed.release == (2, 6, 0)
    assert parsed.local is not None
    assert parsed.local.startswith("bleuprint.")


# --- tokenizers ------------------------------------------------------------------------------

TOKENIZER_CLASSES = [
    ("tokenizer_13a", "Tokenizer13a"),
    ("tokenizer_intl", "TokenizerV14International"),
    ("tokenizer_zh", "TokenizerZh"),
    ("tokenizer_char", "TokenizerChar"),
    ("tokenizer_none", "NoneTokenizer"),
    ("tokenizer_ja_mecab", "TokenizerJaMecab"),
    ("tokenizer_ko_mecab", "TokenizerKoMecab"),
]


def _both(module: str, cls: str, *args: Any) -> tuple[Any, Any]:
    ours = getattr(importlib.import_module(f"bleuprint.compat.sacrebleu.tokenizers.{module}"), cls)
    try:
        theirs = getattr(importlib.import_module(f"sacrebleu.tokenizers.{module}"), cls)(*args)
    except (ImportError, RuntimeError) as e:  # MeCab missing for the real one
        pytest.skip(f"sacrebleu's {cls} cannot load: {e}")
    return ours(*args), theirs


@pytest.mark.parametrize(("module", "cls"), TOKENIZER_CLASSES)
def test_tokenizer_class_equals_sacrebleu(wmt22_lines: list[str], module: str, cls: str) -> None:
    ours, theirs = _both(module, cls)
    assert ours.signature() == theirs.signature()
    extra = ["", "  padded  ", "a-\nb <skipped> &quot;x&amp;y&lt;z&gt;", "3.5, 4-5 (x)."]
    lines = [*wmt22_lines, *extra]
    differing = [line for line in lines if ours(line) != theirs(line)]
    assert differing == []
    assert len(lines) > 1000


@pytest.mark.parametrize("flags", range(16))
def test_tercom_tokenizer_equals_sacrebleu(wmt22_lines: list[str], flags: int) -> None:
    options = [bool(flags & bit) for bit in (1, 2, 4, 8)]
    ours, theirs = _both("tokenizer_ter", "TercomTokenizer", *options)
    assert ours.signature() == theirs.signature()
    lines = [*wmt22_lines, "", "A ; B ) C : D.", "Jim's car.", "4.2", "りの拳銃を持 ", "x\n"]
    assert [ours(line) for line in lines] == [theirs(line) for line in lines]


def test_spm_tokenizer_classes_exist_with_sacrebleu_models() -> None:
    from sacrebleu.tokenizers import tokenizer_spm as theirs

    from bleuprint.compat.sacrebleu.tokenizers import tokenizer_spm as ours

    assert {k: v["signature"] for k, v in ours.SPM_MODELS.items()} == {
        k: v["signature"] for k, v in theirs.SPM_MODELS.items()
    }
    for name in ("TokenizerSPM", "Flores101Tokenizer", "Flores200Tokenizer", "spBLEU1KTokenizer"):
        assert issubclass(getattr(ours, name), ours.BleuprintTokenizer)


def test_regexp_tokenizer_equals_sacrebleu(wmt22_lines: list[str]) -> None:
    from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp as Theirs

    from bleuprint.compat.sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp

    ours, theirs = TokenizerRegexp(), Theirs()
    assert ours.signature() == theirs.signature() == "re"
    lines = [*wmt22_lines, "", " a.b,c ", "x-1 -2 9-", "1...2", "tab\there\nnew", "a\u00a0b"]
    assert [ours(line) for line in lines] == [theirs(line) for line in lines]


@pytest.mark.parametrize("tokenize", ["13a", "intl", "zh", "char", "none"])
def test_bleu_tokenizer_attribute_equals_sacrebleu(wmt22_lines: list[str], tokenize: str) -> None:
    # fairseq: `BLEU(tokenize="13a").tokenizer(line)`.
    ours, theirs = compat.BLEU(tokenize=tokenize), sacrebleu.BLEU(tokenize=tokenize)
    assert ours.tokenizer_signature == theirs.tokenizer_signature
    assert [ours.tokenizer(s) for s in wmt22_lines] == [theirs.tokenizer(s) for s in wmt22_lines]


# --- helpers and the private names mbrs uses -------------------------------------------------


@pytest.mark.parametrize(("low", "high"), [(1, 4), (2, 3), (1, 1), (3, 2), (1, 6)])
def test_extract_all_word_ngrams_equals_sacrebleu(
    wmt22_lines: list[str], low: int, high: int
) -> None:
    from sacrebleu.metrics.helpers import extract_all_word_ngrams

    for line in wmt22_lines[::7]:
        ours = helpers.extract_all_word_ngrams(line, low, high)
        theirs = extract_all_word_ngrams(line, low, high)
        assert ours == theirs
        assert list(ours[0]) == list(theirs[0])  # the same key order, too


@pytest.mark.parametrize("n", [1, 2, 3, 6])
def test_char_and_word_ngrams_equal_sacrebleu(wmt22_lines: list[str], n: int) -> None:
    from sacrebleu.metrics import helpers as theirs

    for line in wmt22_lines[::11]:
        tokens = line.split()
        assert helpers.extract_word_ngrams(tokens, n) == theirs.extract_word_ngrams(tokens, n)
        for ws in (False, True):
            assert helpers.extract_char_ngrams(line, n, ws) == theirs.extract_char_ngrams(
                line, n, ws
            )
            assert helpers.extract_all_char_ngrams(line, n, ws) == theirs.extract_all_char_ngrams(
                line, n, ws
            )
    assert compat.extract_word_ngrams is helpers.extract_word_ngrams


@pytest.fixture(scope="module")
def en_de(wmt22: Path) -> tuple[list[str], list[list[str]]]:
    refs = wmt22_references(wmt22, "en-de")
    hyps = sorted((wmt22 / "system-outputs").glob("generaltest2022.en-de.hyp.*"))
    if not refs or not hyps:
        pytest.skip("no WMT22 en-de files")
    streams = [read_lines(path)[:300] for path in list(refs.values())[:2]]
    return read_lines(hyps[0])[:300], streams


@pytest.mark.parametrize("options", [{}, {"lowercase": True}, {"tokenize": "intl"}])
def test_mbrs_private_bleu_methods_equal_sacrebleu(
    en_de: tuple[list[str], list[list[str]]], options: dict[str, Any]
) -> None:
    hyps, refs = en_de
    refs = [refs[0], [None if i % 5 == 0 else r for i, r in enumerate(refs[1])]]
    ours, theirs = compat.BLEU(**options), sacrebleu.BLEU(**options)
    assert [ours._preprocess_segment(h) for h in hyps] == [
        theirs._preprocess_segment(h) for h in hyps
    ]
    our_cache, their_cache = ours._cache_references(refs), theirs._cache_references(refs)
    assert our_cache == their_cache
    assert ours.num_refs == theirs.num_refs == -1
    for hyp, our_info, their_info in zip(hyps, our_cache, their_cache):
        our_stats = ours._compute_segment_statistics(ours._preprocess_segment(hyp), our_info)
        assert our_stats == theirs._compute_segment_statistics(
            theirs._preprocess_segment(hyp), their_info
        )
    stats = ours._extract_corpus_statistics(hyps, refs)
    assert stats == theirs._extract_corpus_statistics(hyps, refs)
    assert str(ours._aggregate_and_compute(stats)) == str(theirs._aggregate_and_compute(stats))


def test_compute_segment_statistics_needs_our_cache() -> None:
    with pytest.raises(InvalidInputError, match="_cache_references"):
        compat.BLEU()._compute_segment_statistics("a b", {"ref_ngrams": {}, "ref_lens": [2]})


@pytest.mark.parametrize(
    ("metric", "options"),
    [
        ("CHRF", {}),
        ("CHRF", {"word_order": 2, "lowercase": True}),
        ("TER", {}),
        ("TER", {"normalized": True, "asian_support": True}),
    ],
)
def test_chrf_and_ter_private_methods_equal_sacrebleu(
    en_de: tuple[list[str], list[list[str]]], metric: str, options: dict[str, Any]
) -> None:
    hyps, refs = en_de
    our_metric = getattr(compat, metric)(**options)
    their_metric = getattr(sacrebleu, metric)(**options)
    assert [our_metric._preprocess_segment(h) for h in hyps] == [
        their_metric._preprocess_segment(h) for h in hyps
    ]
    stats = our_metric._extract_corpus_statistics(hyps, refs)
    assert stats == their_metric._extract_corpus_statistics(hyps, refs)
    score = our_metric._aggregate_and_compute(stats)
    assert score.score == their_metric._aggregate_and_compute(stats).score
    assert our_metric._SIGNATURE_TYPE.__name__ == their_metric._SIGNATURE_TYPE.__name__


def test_translation_edit_rate_equals_sacrebleu(en_de: tuple[list[str], list[list[str]]]) -> None:
    from sacrebleu.metrics.lib_ter import translation_edit_rate as theirs

    hyps, refs = en_de
    pairs = [(h.split(), r.split()) for h, r in zip(hyps, refs[0])] + [(["a"], []), ([], [])]
    assert [translation_edit_rate(h, r) for h, r in pairs] == [theirs(h, r) for h, r in pairs]
    with pytest.raises(InvalidInputError, match="whitespace"):
        translation_edit_rate(["a b"], ["a"])


def test_paired_test_equals_sacrebleu(
    en_de: tuple[list[str], list[list[str]]], wmt22: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sacrebleu.significance import PairedTest as TheirPairedTest

    _, refs = en_de
    paths = sorted((wmt22 / "system-outputs").glob("generaltest2022.en-de.hyp.*"))[:3]
    systems = [(p.name, read_lines(p)[:300]) for p in paths]
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    for test_type, n in (("bs", 200), ("ar", 300)):
        ours = significance.PairedTest(
            systems, {"BLEU": compat.BLEU(), "chrF": compat.CHRF()}, refs, test_type, n, 100
        )()
        theirs = TheirPairedTest(
            systems, {"BLEU": sacrebleu.BLEU(), "chrF": sacrebleu.CHRF()}, refs, test_type, n, 100
        )()
        assert list(ours[1]) == list(theirs[1])
        for metric in ours[1]:
            assert [repr(r) for r in ours[1][metric]] == [repr(r) for r in theirs[1][metric]]
        assert {k: str(s).split("|version:")[0] for k, s in ours[0].items()} == {
            k: str(s).split("|version:")[0] for k, s in theirs[0].items()
        }


# --- module-by-module name parity ------------------------------------------------------------

# Not provided, on purpose: sacrebleu's TER internals (see docs/compat.md).
NOT_PROVIDED = {
    ("sacrebleu.metrics.lib_ter", "trace_to_alignment"),
    ("sacrebleu.metrics.lib_ter", "BeamEditDistance"),
}
DATASET_PACKAGE = Path(compat.__file__).parent / "dataset"


def public_names(module: types.ModuleType) -> set[str]:
    """The public names ``module`` defines (classes, functions, constants) and its ``__all__``;
    not what it imports from elsewhere (typing, logging, signal, other sacrebleu modules)."""
    if hasattr(module, "__all__"):
        names = set(module.__all__)
    else:
        names = set()
    for name, value in vars(module).items():
        if name.startswith("_") or isinstance(value, types.ModuleType):
            continue
        owner = getattr(value, "__module__", None)
        if owner is not None and owner != module.__name__:
            continue
        names.add(name)
    return names


def real_modules() -> list[str]:
    names = ["sacrebleu"] + [
        m.name for m in pkgutil.walk_packages(sacrebleu.__path__, "sacrebleu.")
    ]
    return [n for n in names if not n.startswith("sacrebleu.dataset")]


DATASET_NAMES = set(compat._DATASET_NAMES) | set(compat.utils.DATASET_NAMES)


def missing_names(name: str) -> list[str]:
    theirs = importlib.import_module(name)
    ours = importlib.import_module("bleuprint.compat." + name)
    return sorted(
        n for n in public_names(theirs) if (name, n) not in NOT_PROVIDED and not hasattr(ours, n)
    )


@pytest.mark.parametrize("name", real_modules())
def test_every_public_name_of_sacrebleu_exists(name: str) -> None:
    assert [n for n in missing_names(name) if n not in DATASET_NAMES] == []


@pytest.mark.parametrize("name", ["sacrebleu", "sacrebleu.utils", "sacrebleu.sacrebleu"])
def test_test_set_names_are_served(name: str) -> None:
    """The test-set names come from bleuprint.testsets (built with the dataset package)."""
    if not DATASET_PACKAGE.is_dir():
        pytest.skip("bleuprint.compat.sacrebleu.dataset is not there")
    assert missing_names(name) == []


def test_all_is_sacrebleus() -> None:
    assert compat.__all__ == sacrebleu.__all__


# --- install() and the runner ----------------------------------------------------------------


def test_install_registers_every_submodule_and_uninstall_restores() -> None:
    result = run_python(
        """
        import sys
        import bleuprint.compat.sacrebleu as compat
        compat.install()
        compat.install()  # idempotent
        import sacrebleu
        import sacrebleu.metrics.bleu
        from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer
        from sacrebleu.significance import PairedTest
        from sacrebleu.metrics.helpers import extract_all_word_ngrams
        assert sacrebleu is compat
        assert sacrebleu.metrics.bleu.BLEU is compat.metrics.bleu.BLEU
        assert sys.modules["sacrebleu.significance"] is compat.significance
        assert compat.installed()
        try:
            import sacrebleu.no_such_module
        except ModuleNotFoundError as e:
            assert e.name == "sacrebleu.no_such_module", e.name
        else:
            raise AssertionError("imported a module that does not exist")
        compat.uninstall()
        assert not compat.installed()
        assert not any(n == "sacrebleu" or n.startswith("sacrebleu.") for n in sys.modules)
        import sacrebleu as real
        assert "bleuprint" not in real.__file__, real.__file__
        print(real.__version__)
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == sacrebleu.__version__


def test_install_refuses_after_the_real_sacrebleu() -> None:
    result = run_python(
        """
        import sacrebleu
        import bleuprint.compat.sacrebleu as compat
        try:
            compat.install()
        except compat._install.SacrebleuAlreadyImportedError as e:
            print(e)
        """
    )
    assert result.returncode == 0, result.stderr
    assert "call install() first" in result.stdout


def test_runner_runs_a_script_with_the_compat_installed(tmp_path: Path) -> None:
    script = tmp_path / "client.py"
    script.write_text(
        "import sys\nimport sacrebleu\nfrom sacrebleu.metrics import BLEU\n"
        "print(__name__, sacrebleu.__version__, sys.argv[1:], sys.argv[0].endswith('client.py'))\n"
        "print(BLEU(tokenize='13a').tokenizer('Hi, there!'))\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, "-m", "bleuprint.compat.sacrebleu", str(script), "a", "--b"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"__main__ {compat.__version__} ['a', '--b'] True",
        "Hi , there !",
    ]


def test_runner_without_a_script_prints_usage() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bleuprint.compat.sacrebleu"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert "usage:" in result.stderr


@pytest.mark.parametrize(
    "args",
    [["-b"], [], ["-m", "bleu", "chrf", "ter", "-w", "3"], ["--format", "json", "-lc"]],
)
def test_cli_output_is_bleuprints_bytes(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "ref").write_text("The cat sat on the mat.\nA dog barked.\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("The cat sat on a mat.\nThe dog barked.\n", encoding="utf-8")
    common = ["ref", "-i", "hyp", *args]
    env = {**os.environ, "NO_COLOR": "1"}
    compat_cli = subprocess.run(
        [sys.executable, "-m", "bleuprint.compat.sacrebleu", "-m", "sacrebleu", *common],
        capture_output=True, cwd=tmp_path, env=env, timeout=120,
    )  # fmt: skip
    direct = subprocess.run(
        [sys.executable, "-m", "bleuprint.compat.sacrebleu.sacrebleu", *common],
        capture_output=True, cwd=tmp_path, env=env, timeout=120,
    )  # fmt: skip
    own = subprocess.run(
        [sys.executable, "-m", "bleuprint", *common],
        capture_output=True, cwd=tmp_path, env=env, timeout=120,
    )  # fmt: skip
    assert own.returncode == 0, own.stderr
    assert compat_cli.stdout == own.stdout
    assert direct.stdout == own.stdout
    assert compat_cli.returncode == direct.returncode == 0


def _table_args(**overrides: Any) -> Any:
    import argparse

    options = {"format": "text", "width": 1, "paired_bs": False, "paired_ar": False}
    return argparse.Namespace(**{**options, "paired_bs_n": 1000, "paired_ar_n": 10000, **overrides})


@pytest.mark.parametrize("colors", [False, True])
@pytest.mark.parametrize("fmt", ["text", "latex", "json"])
@pytest.mark.parametrize("paired", ["paired_bs", "paired_ar", None])
def test_results_tables_equal_sacrebleu(
    capsys: pytest.CaptureFixture[str], fmt: str, paired: str | None, colors: bool
) -> None:
    from sacrebleu import utils as their_utils
    from sacrebleu.significance import Result as TheirResult

    def results(cls: Any) -> dict[str, list[Any]]:
        if paired is None:
            return {"System": ["a", "b"], "BLEU": ["30.1", "31.5"], "chrF2": ["55.0", "56.2"]}
        mean = (30.2, 0.9) if paired == "paired_bs" else (None, None)
        return {
            "System": ["Baseline: a", "b"],
            "BLEU": [cls(30.1, None, *mean), cls(31.5, 0.03, *mean)],
            "chrF2": [cls(55.0, None, *mean), cls(56.2, 0.2, *mean)],
        }

    signatures = {"BLEU": "nrefs:1|tok:13a", "chrF2": "nrefs:1|nc:6"}
    args = _table_args(format=fmt, **({paired: True} if paired else {}))
    for utils_module in (compat.utils, their_utils):
        utils_module.Color.ENABLE_COLORS = colors
    try:
        compat.utils.print_results_table(results(significance.Result), signatures, args)
        ours = capsys.readouterr().out
        their_utils.print_results_table(results(TheirResult), signatures, args)
        theirs = capsys.readouterr().out
    finally:
        compat.utils.Color.ENABLE_COLORS = their_utils.Color.ENABLE_COLORS = True
    assert ours == theirs


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_single_results_equal_sacrebleu(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    from sacrebleu import utils as their_utils

    lines = ["BLEU = 30.10 60/35/22/14 (BP = 1.000)", "chrF2 = 55.00", '{"name": "x"}']
    for results in (lines[:1], lines[:2], lines[1:]):
        compat.utils.print_single_results(list(results), _table_args(format=fmt))
        ours = capsys.readouterr().out
        their_utils.print_single_results(list(results), _table_args(format=fmt))
        assert ours == capsys.readouterr().out


def test_small_utils_equal_sacrebleu(tmp_path: Path) -> None:
    from sacrebleu import utils as their_utils

    rows = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert compat.utils.sum_of_lists(rows) == their_utils.sum_of_lists(rows)
    floats = [[0.1, 0.7], [0.2, 1e-17], [0.3, 3.0]]
    assert compat.utils.sum_of_lists(floats) == their_utils.sum_of_lists(floats)
    for x in (0.0, 1e-300, 0.5, 2.0):
        assert compat.utils.my_log(x) == their_utils.my_log(x)
    path = tmp_path / "a.gz"
    with compat.utils.smart_open(str(path), "wt") as f:
        f.write("é\r\nx\n")
    with their_utils.smart_open(str(path)) as f:
        assert f.read() == "é\r\nx\n"
    assert compat.utils.Color.format("x", "red") == their_utils.Color.format("x", "red")
    assert compat.utils.Color.format("x", "nope") == their_utils.Color.format("x", "nope")


@pytest.mark.parametrize(
    ("name", "pair", "origlang", "subset"),
    [
        ("wmt22", "en-de", None, None),  # WMT XML: origlangs, no domains here
        ("wmt19", "de-en", None, None),  # SGML with WMT19's country and domain annotations
        ("wmt19", "de-en", ["de"], None),  # sacrebleu iterates args.origlang: a list
        ("wmt19", "de-en", None, "politics"),
    ],
)
def test_subset_results_equal_sacrebleu(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    name: str,
    pair: str,
    origlang: Any,
    subset: Any,
) -> None:
    """``--detail``'s lines on one cache of synthetic archives (read by both packages): the
    subsets, their segment counts and every metric's score."""
    from sacrebleu import utils as their_utils

    from tests.support.testsets_fixtures import place

    place(name, tmp_path)
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    monkeypatch.setattr(their_utils, "SACREBLEU_DIR", str(tmp_path))
    monkeypatch.setattr(compat.utils.Color, "ENABLE_COLORS", False)
    monkeypatch.setattr(their_utils.Color, "ENABLE_COLORS", False)
    test_set = bleuprint.testsets.get(name, pair)
    system, refs = test_set.sources, test_set.references
    args = _table_args(test_set=name, langpair=pair, origlang=origlang, subset=subset)
    compat.utils.print_subset_results(
        {"BLEU": compat.BLEU(), "chrF": compat.CHRF()}, system, refs, args
    )
    ours = capsys.readouterr().out
    their_utils.print_subset_results(
        {"BLEU": sacrebleu.BLEU(), "chrF": sacrebleu.CHRF()}, system, refs, args
    )
    assert ours == capsys.readouterr().out
    assert "origlang=" in ours


# --- properties ------------------------------------------------------------------------------

words = st.text(alphabet=st.sampled_from("ab c\t\u3000.,-'日"), max_size=30)


@settings(max_examples=200, deadline=None)
@given(line=words, low=st.integers(1, 4), high=st.integers(0, 6))
def test_helpers_equal_sacrebleu_on_any_text(line: str, low: int, high: int) -> None:
    from sacrebleu.metrics import helpers as theirs

    assert helpers.extract_all_word_ngrams(line, low, high) == theirs.extract_all_word_ngrams(
        line, low, high
    )
    tokens = line.split()
    n = max(high, 1)
    assert helpers.extract_word_ngrams(tokens, n) == theirs.extract_word_ngrams(tokens, n)
    for ws in (False, True):
        assert helpers.extract_char_ngrams(line, n, ws) == theirs.extract_char_ngrams(line, n, ws)
        assert helpers.extract_all_char_ngrams(line, high, ws) == theirs.extract_all_char_ngrams(
            line, high, ws
        )


odd = st.one_of(
    st.none(), st.integers(-3, 10**20), st.floats(), st.text(max_size=5), st.binary(max_size=3),
    st.lists(st.one_of(st.text(max_size=3), st.integers(), st.none()), max_size=3),
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(a=odd, b=odd, c=odd)
def test_hostile_input_raises_only_bleuprint_errors(a: Any, b: Any, c: Any) -> None:
    from bleuprint.compat.sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from bleuprint.compat.sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

    calls = [
        lambda: helpers.extract_all_word_ngrams(a, b, c),
        lambda: helpers.extract_word_ngrams(a, b),
        lambda: helpers.extract_char_ngrams(a, b),
        lambda: helpers.extract_all_char_ngrams(a, b),
        lambda: translation_edit_rate(a, b),
        lambda: Tokenizer13a()(a),
        lambda: TercomTokenizer()(a),
        lambda: compat.BLEU()._cache_references([a, b]),
    ]
    for call in calls:
        try:
            call()
        except BleuprintError:
            pass
