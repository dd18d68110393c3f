"""The Open ASR Leaderboard's scoring (huggingface/open_asr_leaderboard at the revision
``bleuprint.asr.OPEN_ASR_REVISION``): its normalizers (``open-asr-en``,
``open-asr-multilingual[-XX]``), its compound-pair pass (WER's ``compound_pairs``) and the
whole number (``bleuprint.asr.leaderboard_wer`` and the command line).

The leaderboard is not on PyPI: its outputs are recorded in ``tests/data/golden_open_asr_*``
by ``tools/gen_open_asr_golden.py``. What it calls is installed by the test extra and
compared live: num2words 0.5.14 (the multilingual normalizer's number words) and kaldialign
0.12.0. With ``BLEUPRINT_OPEN_ASR_SOURCE`` set to a checkout of the leaderboard at that
revision, the leaderboard itself is run on WMT22 too.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleuprint
from bleuprint.asr import LANGUAGES, OPEN_ASR_REVISION, leaderboard_config, leaderboard_wer
from bleuprint.errors import InputTypeError, InvalidInputError, InvalidOptionError
from bleuprint.tokenizers import NORMALIZATIONS, normalization_signature, normalized

DATA = Path(__file__).parents[1] / "data"
NAMES = ["open-asr-en", "open-asr-multilingual", *(f"open-asr-multilingual-{x}" for x in LANGUAGES)]


def records(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    # One record per "\n" (the texts hold other line breaks, which str.splitlines cuts at).
    rows = [json.loads(line) for line in (DATA / name).read_text("utf-8").split("\n") if line]
    assert (rows[0]["upstream"], rows[0]["version"]) == (
        "huggingface/open_asr_leaderboard",
        OPEN_ASR_REVISION,
    )
    return rows[0], rows[1:]


def test_names_and_signatures() -> None:
    assert set(NAMES) <= set(NORMALIZATIONS)
    assert LANGUAGES == ("de", "fr", "it", "es", "pt")
    short = OPEN_ASR_REVISION[:7]
    assert normalization_signature("open-asr-en") == f"open-asr-en@{short}"
    assert normalization_signature("open-asr-multilingual-de") == (
        f"open-asr-multilingual-de@{short}+num2words-0.5.14"
    )
    wer = bleuprint.WER(**leaderboard_config("fr"))
    wer.corpus_score(["a"], [["a"]])
    signature = str(wer.get_signature())
    assert f"|norm:open-asr-multilingual-fr@{short}+num2words-0.5.14|" in signature
    assert f"|compounds:merged|pairs:open-asr@{short}|" in signature


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("workers", [1, -1])
def test_every_golden_output(name: str, workers: int) -> None:
    _, rows = records("golden_open_asr_normalizers.jsonl")
    pairs = [
        (r["input"], r["expected"][name]) for r in rows if isinstance(r["expected"][name], str)
    ]
    assert len(pairs) > 1700
    out = normalized([p[0] for p in pairs], name, workers=workers)
    wrong = [(i, o, e) for (i, e), o in zip(pairs, out) if o != e]
    assert not wrong, f"{len(wrong)} of {len(pairs)} differ, e.g. {wrong[:3]}"


def test_where_upstream_raises() -> None:
    """The English normalizer raises past CPython's 4300-digit limit, as openai-whisper's."""
    _, rows = records("golden_open_asr_normalizers.jsonl")
    raising = [r["input"] for r in rows if isinstance(r["expected"]["open-asr-en"], dict)]
    assert raising
    for text in raising:
        with pytest.raises(InvalidInputError, match="4300"):
            normalized([text], "open-asr-en")


def test_the_leaderboards_own_steps() -> None:
    en = normalized(
        [
            "It's the B B C wi-fi, al right?",
            "Mr. Smith's colour, one hundred [laughs], uh huh",
            "Alan met Allan at 6 p m, o k",
        ],
        "open-asr-en",
    )
    assert en == [
        "it is the bbc wifi alright",
        "mister smith s color 100",
        "allen met allen at 6 pm okay",
    ]
    de = normalized(["Es kostet 10 000 Euro (ca.) und 21 Cent!"], "open-asr-multilingual-de")
    assert de == ["es kostet zehntausend euro und einundzwanzig cent"]
    assert normalized(["Es kostet 10 000 Euro."], "open-asr-multilingual") == [
        "es kostet 10 000 euro"
    ]


@given(st.integers(min_value=0, max_value=10**70), st.sampled_from(LANGUAGES))
@settings(max_examples=400, deadline=None)
def test_number_words_equal_num2words(n: int, language: str) -> None:
    """num2words 0.5.14 itself (the test extra), where the leaderboard calls it: every
    number, its refusals (too large) keeping the digits."""
    num2words = pytest.importorskip("num2words").num2words
    try:
        expected = num2words(n, lang=language)
    except Exception:  # noqa: BLE001 - the leaderboard keeps the digits on any exception
        expected = str(n)
    assert normalized([str(n)], f"open-asr-multilingual-{language}") == [expected]


def test_number_words_of_every_size() -> None:
    num2words = pytest.importorskip("num2words").num2words
    numbers = list(range(0, 2500)) + [10**k + d for k in range(3, 70) for d in (-1, 0, 1, 7)]
    numbers += [10**605, 10**606 - 1, 10**606]
    for language in LANGUAGES:
        out = normalized([str(n) for n in numbers], f"open-asr-multilingual-{language}")
        for n, ours in zip(numbers, out):
            try:
                expected = num2words(n, lang=language)
            except Exception:  # noqa: BLE001
                expected = str(n)
            assert ours == expected, (language, n)


@pytest.mark.parametrize("merge", [False, True])
def test_compound_pairs_golden(merge: bool) -> None:
    """WER's compound_pairs against the leaderboard's recorded ``normalize_compound_pairs``,
    counted by the installed kaldialign."""
    kaldialign = pytest.importorskip("kaldialign")
    _, rows = records("golden_open_asr_pairs.jsonl")
    assert len(rows) == 400
    assert sum(len(r["hyp"].split()) >= 200 for r in rows) > 50
    config = bleuprint.WER(compound_pairs=True, merge_compounds=merge).config
    ours = config.pair_rows([r["hyp"] for r in rows], [r["ref"] for r in rows]).tolist()
    for row, r in zip(ours, rows):
        ref, hyp = r["expected"]["ref"].split(), r["expected"]["hyp"].split()
        e = kaldialign.edit_distance(ref, hyp, merge_compounds=merge)
        assert (row[0], row[1], row[2], row[4]) == (e["sub"], e["del"], e["ins"], len(ref))


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_leaderboard_wer_equals_its_steps(language: str) -> None:
    """leaderboard_wer on raw text = kaldialign's batch_error_rate(merge_compounds=True) on
    the leaderboard's recorded normalizer outputs (and, multilingual, the recorded pairs)."""
    kaldialign = pytest.importorskip("kaldialign")
    _, rows = records("golden_open_asr_normalizers.jsonl")
    name = "open-asr-en" if language == "en" else f"open-asr-multilingual-{language}"
    usable = [r for r in rows if isinstance(r["expected"][name], str)]
    refs, preds = [r["input"] for r in usable[1:]], [r["input"] for r in usable[:-1]]
    expected_refs = [r["expected"][name] for r in usable[1:]]
    expected_preds = [r["expected"][name] for r in usable[:-1]]
    if language == "en":
        got = leaderboard_wer(refs, preds, language)
        want = kaldialign.batch_error_rate(
            [tuple(x.split()) for x in expected_refs],
            [tuple(x.split()) for x in expected_preds],
            merge_compounds=True,
        )
        assert got.wer == round(100 * want["err_rate"], 2)
        assert (got.err_rate, got.ins, got.deletions, got.sub, got.ref_len) == (
            want["err_rate"], want["ins"], want["del"], want["sub"], want["ref_len"]
        )  # fmt: skip
    _, pair_rows = records("golden_open_asr_pairs.jsonl")
    if language != "en":
        got = leaderboard_wer(
            [r["ref"] for r in pair_rows], [r["hyp"] for r in pair_rows], language
        )
        want = kaldialign.batch_error_rate(
            [tuple(r["expected"]["ref"].split()) for r in pair_rows],
            [tuple(r["expected"]["hyp"].split()) for r in pair_rows],
            merge_compounds=True,
        )
        assert (got.err_rate, got.ins, got.deletions, got.sub, got.ref_len) == (
            want["err_rate"], want["ins"], want["del"], want["sub"], want["ref_len"]
        )  # fmt: skip


def test_the_command_line(tmp_path: Path) -> None:
    refs = ["The white paper is out.", "Mr. Smith paid $20 million", "wi-fi, o k"]
    hyps = ["the whitepaper is out", "mister smith paid twenty million dollars", "wifi okay"]
    (tmp_path / "ref").write_text("\n".join(refs) + "\n", "utf-8")
    (tmp_path / "hyp").write_text("\n".join(hyps) + "\n", "utf-8")
    run = [sys.executable, "-m", "bleuprint", str(tmp_path / "ref"), "-i", str(tmp_path / "hyp")]
    args = ["-m", "wer", "-w", "2", "-b", "--normalize", "open-asr-en", "--merge-compounds"]
    out = subprocess.run([*run, *args], capture_output=True, text=True, check=True).stdout
    assert float(out) == leaderboard_wer(refs, hyps).wer
    de = ["Die Haustür kostet 21 Euro", "Das Whitepaper"]
    de_hyps = ["die haus tür kostet einundzwanzig euro", "das white paper"]
    (tmp_path / "ref").write_text("\n".join(de) + "\n", "utf-8")
    (tmp_path / "hyp").write_text("\n".join(de_hyps) + "\n", "utf-8")
    ml = ["-m", "wer", "-w", "2", "-b", "--normalize", "open-asr-multilingual", "--language", "de"]
    ml += ["--merge-compounds", "--compound-pairs"]
    out = subprocess.run([*run, *ml], capture_output=True, text=True, check=True).stdout
    assert float(out) == leaderboard_wer(de, de_hyps, "de").wer == 0.0
    bad = subprocess.run([*run, "-m", "wer", "--language", "de"], capture_output=True, text=True)
    assert bad.returncode != 0
    assert "--normalize open-asr-multilingual" in bad.stderr


def test_bad_input() -> None:
    with pytest.raises(InvalidOptionError, match="'en' or one of de, fr, it, es, pt"):
        leaderboard_wer(["a"], ["a"], language="nl")
    with pytest.raises(InvalidOptionError, match="one prediction per reference"):
        leaderboard_wer(["a", "b"], ["a"])
    with pytest.raises(InvalidOptionError, match="CER compares characters"):
        bleuprint.CER(compound_pairs=True)
    with pytest.raises(InvalidOptionError, match="aligner='kaldialign'"):
        bleuprint.WER(aligner="rapidfuzz", compound_pairs=True)
    with pytest.raises(InvalidOptionError, match="compound_pairs must be True or False"):
        bleuprint.WER(compound_pairs="yes")  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="align without compound_pairs"):
        bleuprint.WER(compound_pairs=True).align(["a b"], [["ab"]])
    with pytest.raises(InvalidOptionError, match="unknown normalization"):
        bleuprint.WER(normalizer="open-asr-multilingual-nl")
    with pytest.raises(InputTypeError, match=r"\[0\] must be str, got NoneType"):
        leaderboard_wer(["a"], [None])  # type: ignore[list-item]
    with pytest.raises(InvalidInputError):
        leaderboard_wer(["a\ud800"], ["a"])


def _leaderboard(source: str) -> Any:
    """The leaderboard's ``normalizer`` package from a checkout (``datasets`` and
    ``huggingface_hub``, which it imports for other jobs, stubbed)."""
    for name in ("datasets", "huggingface_hub"):
        sys.modules.setdefault(name, types.ModuleType(name))
    datasets = sys.modules["datasets"]
    datasets.Audio = datasets.IterableDataset = object  # type: ignore[attr-defined]
    datasets.load_dataset = None  # type: ignore[attr-defined]
    sys.modules["huggingface_hub"].snapshot_download = None  # type: ignore[attr-defined]
    sys.path.insert(0, source)
    from normalizer import data_utils, eval_utils  # type: ignore[import-not-found]

    return data_utils, eval_utils


@pytest.mark.skipif(
    not os.environ.get("BLEUPRINT_OPEN_ASR_SOURCE"),
    reason="BLEUPRINT_OPEN_ASR_SOURCE (a checkout of the leaderboard) is not set",
)
def test_the_leaderboard_itself_on_wmt22(wmt22: Path) -> None:
    kaldialign = pytest.importorskip("kaldialign")
    data_utils, eval_utils = _leaderboard(os.environ["BLEUPRINT_OPEN_ASR_SOURCE"])
    for pair, language in [("de-en", "en"), ("en-de", "de"), ("de-fr", "fr")]:
        refs = (
            (wmt22 / "references" / f"generaltest2022.{pair}.ref.A.{pair[-2:]}")
            .read_text("utf-8")
            .split("\n")[:-1]
        )
        for system in sorted((wmt22 / "system-outputs").glob(f"generaltest2022.{pair}.hyp.*"))[:2]:
            hyps = system.read_text("utf-8").split("\n")[:-1]
            if language == "en":
                norm = data_utils.normalizer
            else:
                norm = functools.partial(data_utils.ml_normalizer, lang=language)
            r, h = [norm(x) for x in refs], [norm(x) for x in hyps]
            name = "open-asr-en" if language == "en" else f"open-asr-multilingual-{language}"
            assert normalized(refs, name) == r
            assert normalized(hyps, name) == h
            if language != "en":
                r, h = eval_utils.normalize_compound_pairs(r, h)
            want = kaldialign.batch_error_rate(
                [tuple(x.split()) for x in r], [tuple(x.split()) for x in h], merge_compounds=True
            )
            got = leaderboard_wer(refs, hyps, language)
            assert got.wer == round(100 * want["err_rate"], 2)
            assert got.err_rate == want["err_rate"]
