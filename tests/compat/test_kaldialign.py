"""``bleuprint.compat.kaldialign`` and WER's kaldialign knobs against the real kaldialign
0.12.0 (the test extra): every function under every option on random and WMT22 pairs, the
bootstrap with several seeds, errors, ``install()``, and kaldialign's own
``tests/test_align.py`` (from its sdist) run through the drop-in."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import bleuprint
import bleuprint.compat.kaldialign as compat
from bleuprint.errors import InvalidOptionError
from tests.support.upstream import read_member, run_pytest, sdist, suite_environment

kaldialign = pytest.importorskip("kaldialign")

OPTIONS = [(s, m) for s in (False, True) for m in (False, True)]
VOCABULARY = ["a", "b", "ab", "ba", "c", "abc", "new", "york", "newyork", "city", "white",
              "paper", "whitepaper"]  # fmt: skip


def random_pairs(seed: int, count: int) -> list[tuple[list[str], list[str]]]:
    rng = random.Random(seed)
    return [([rng.choice(VOCABULARY) for _ in range(rng.randint(0, 10))],
             [rng.choice(VOCABULARY) for _ in range(rng.randint(0, 10))])
            for _ in range(count)]  # fmt: skip


def wmt22_pairs(wmt22: Path, count: int) -> list[tuple[list[str], list[str]]]:
    """Reference and system words of into-English WMT22, every other hypothesis with two of
    its words joined (a compound for merge_compounds to find)."""
    refs = sorted(wmt22.glob("references/*-en.ref.A.en"))
    pairs = []
    rng = random.Random(1)
    for ref_file in refs:
        pair = ref_file.name.split(".")[1]
        systems = sorted(wmt22.glob(f"system-outputs/*{pair}.hyp.*.en"))
        if not systems:
            continue
        for r, h in zip(ref_file.read_text("utf-8").split("\n"),
                        systems[0].read_text("utf-8").split("\n")):  # fmt: skip
            words = h.split()
            if len(words) > 2 and rng.random() < 0.5:
                k = rng.randrange(len(words) - 1)
                words[k : k + 2] = [words[k] + words[k + 1]]
            pairs.append((r.split(), words))
    return pairs[:count]


def same_everywhere(pairs: list[tuple[list[str], list[str]]]) -> list[Any]:
    wrong = []
    for r, h in pairs:
        for s, m in OPTIONS:
            if compat.edit_distance(r, h, s, m) != kaldialign.edit_distance(r, h, s, m):
                wrong.append(("edit_distance", r, h, s, m))
            if compat.align(r, h, "*", s, m) != kaldialign.align(r, h, "*", s, m):
                wrong.append(("align", r, h, s, m))
    return wrong


def test_random_pairs() -> None:
    assert not same_everywhere(random_pairs(0, 500))


def test_wmt22_pairs(wmt22: Path) -> None:
    pairs = wmt22_pairs(wmt22, 1500)
    assert len(pairs) == 1500
    assert not same_everywhere(pairs)
    refs, hyps = [p[0] for p in pairs], [p[1] for p in pairs]
    for s, m in OPTIONS:
        assert compat.batch_error_rate(refs, hyps, s, m) == kaldialign.batch_error_rate(
            refs, hyps, s, m)  # fmt: skip


@pytest.mark.parametrize("seed", [0, 1, 12345])
@pytest.mark.parametrize("merge_compounds", [False, True])
def test_bootstrap(seed: int, merge_compounds: bool) -> None:
    pairs = random_pairs(seed + 7, 60)
    refs, hyps = [p[0] for p in pairs], [p[1] for p in pairs]
    hyps2 = [p[1] for p in random_pairs(seed + 8, 60)]
    for args in ((refs, hyps), (refs, hyps, hyps2)):
        ours = compat.bootstrap_wer_ci(*args, replications=300, seed=seed,
                                       merge_compounds=merge_compounds)  # fmt: skip
        theirs = kaldialign.bootstrap_wer_ci(*args, replications=300, seed=seed,
                                             merge_compounds=merge_compounds)  # fmt: skip
        assert ours == theirs


def test_other_symbols() -> None:
    """Strings are sequences of characters, ints compare as ints, as in kaldialign."""
    cases: list[tuple[Any, Any, Any]] = [
        ("abcd", "abed", "*"), ([1, 2, 3], [1, 3, 4], 0), ((2.0, 1), [2, 1, 1], -1)]  # fmt: skip
    for r, h, eps in cases:
        for s, m in OPTIONS:
            assert compat.edit_distance(r, h, s, m) == kaldialign.edit_distance(r, h, s, m)
            assert compat.align(r, h, eps, s, m) == kaldialign.align(r, h, eps, s, m)


def test_errors() -> None:
    with pytest.raises(AssertionError, match="Inconsistent number of reference"):
        compat.batch_error_rate([["a"]], [])
    with pytest.raises(AssertionError, match="must be an iterable"):
        compat.batch_error_rate("ab", "ab")
    with pytest.raises(AssertionError, match="replications must be greater than 0"):
        compat.bootstrap_wer_ci([["a"]], [["a"]], replications=0)
    with pytest.raises(TypeError):
        compat.edit_distance(["a", 1], ["b"])  # symbols that do not order, as in kaldialign
    with pytest.raises(TypeError):
        kaldialign.edit_distance(["a", 1], ["b"])


def test_wer_knobs() -> None:
    """WER(aligner="kaldialign", sclite_mode=, merge_compounds=): kaldialign's counts, the
    signature says so, and the options that cannot be are refused."""
    pairs = random_pairs(3, 200)
    refs = [" ".join(p[0]) for p in pairs]
    hyps = [" ".join(p[1]) for p in pairs]
    for s, m in OPTIONS:
        wer = bleuprint.WER(aligner="kaldialign", sclite_mode=s, merge_compounds=m)
        sums = wer.stats(hyps, [refs]).rows.sum(axis=0)
        theirs = kaldialign.batch_error_rate([r.split() for r in refs],
                                             [h.split() for h in hyps], s, m)  # fmt: skip
        assert [int(v) for v in sums[:3]] == [theirs["sub"], theirs["del"], theirs["ins"]]
        score = wer.corpus_score(hyps, [refs])
        assert score.score == pytest.approx(100 * theirs["err_rate"])
        signature = str(wer.get_signature())
        assert "align:kaldialign@0.12.0" in signature
        assert ("costs:sclite" in signature) == s
        assert ("compounds:merged" in signature) == m
    plain = bleuprint.WER()
    plain.corpus_score(hyps, [refs])
    assert "align" not in str(plain.get_signature())
    assert bleuprint.WER(merge_compounds=True).config.aligner == "kaldialign"
    with pytest.raises(InvalidOptionError, match="CER compares characters"):
        bleuprint.CER(merge_compounds=True)
    with pytest.raises(InvalidOptionError, match="aligner='kaldialign'"):
        bleuprint.WER(aligner="rapidfuzz", sclite_mode=True)
    with pytest.raises(InvalidOptionError, match="unknown aligner"):
        bleuprint.WER(aligner="sclite")
    drawn = bleuprint.WER(merge_compounds=True).align(["the whitepaper is new"],
                                                      [["the white paper is new"]])  # fmt: skip
    assert drawn[0].visualize().startswith("REF: the white paper is new\nHYP: the  whitepaper")


def test_install_serves_the_package_name() -> None:
    code = (
        "import bleuprint.compat.kaldialign as c; c.install()\n"
        "import kaldialign\n"
        "from kaldialign import align\n"
        "assert kaldialign.edit_distance.__module__.startswith('bleuprint')\n"
        "print(align(['white', 'paper'], ['whitepaper'], '*', merge_compounds=True))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, env=suite_environment({}))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[('white paper', 'whitepaper')]\n"


def test_kaldialigns_own_tests(tmp_path: Path) -> None:
    """kaldialign 0.12.0's ``tests/test_align.py``, unmodified, on the drop-in: all pass."""
    archive = sdist("kaldialign", "0.12.0")
    source = read_member(archive, "kaldialign-0.12.0/tests/test_align.py")
    (tmp_path / "test_align.py").write_bytes(source)
    (tmp_path / "conftest.py").write_text(
        "import bleuprint.compat.kaldialign as c\nc.install()\nimport kaldialign\n"
        "assert kaldialign.align.__module__.startswith('bleuprint'), 'not installed'\n",
        "utf-8",
    )
    done = run_pytest(tmp_path, ["-q", "test_align.py"], suite_environment({}), 300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "failed" not in done.stdout, done.stdout[-500:]
    assert "23 passed" in done.stdout, done.stdout[-500:]  # every test of the file
