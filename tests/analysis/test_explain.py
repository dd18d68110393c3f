"""``bleuprint.explain``, ``bleuprint explain``, ``compare-presets`` and ``--preset`` (and their
deprecated spellings ``compare-implementations`` and ``--compat``)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

import bleuprint
from bleuprint import BLEUConfig
from bleuprint.analysis.explanation import knob_effects
from bleuprint.cli import main
from bleuprint.cli.compat import PRESET_NAMES
from bleuprint.compat import evaluate
from bleuprint.compat.moses import multi_bleu, multi_bleu_detok
from bleuprint.compat.mteval import mteval_v13a, mteval_v14
from bleuprint.compat.nlgmetricverse import NLGMetricverse
from bleuprint.compat.nltk import corpus_bleu
from bleuprint.compat.torchmetrics import bleu_score, sacre_bleu_score
from bleuprint.presets import PRESETS
from tests.support.data import EXAMPLES

GUARD = (
    "The guard arrived late because of the rain",
    "The guard arrived late because it was raining",
)
PICTURE = (
    "the picture the picture by me",
    ["this picture is clicked by me", "the picture was clicked by me"],
)


def test_issue_explain_guard() -> None:
    result = bleuprint.explain(*GUARD)
    assert [o.fraction for o in result.orders] == ["5/8", "4/7", "3/6", "2/5"]
    assert result.brevity_penalty == 1.0
    assert result.score == bleuprint.sentence_bleu(GUARD[0], [GUARD[1]]).score
    text = str(result)
    for line in (
        "p_1 = 5/8 = 0.6250",
        "p_2 = 4/7 = 0.5714",
        "p_3 = 3/6 = 0.5000",
        "p_4 = 2/5 = 0.4000",
    ):
        assert line in text
    assert "ties go to the shorter" in text


def test_issue_explain_picture_clipping() -> None:
    result = bleuprint.explain(*PICTURE)
    assert [o.fraction for o in result.orders[:2]] == ["4/6", "2/5"]
    unigrams = {" ".join(g): (c, k) for g, c, _, k in result.orders[0].ngrams}
    bigrams = {" ".join(g): (c, k) for g, c, _, k in result.orders[1].ngrams}
    assert (unigrams["the"], unigrams["picture"]) == ((2, 1), (2, 1))
    assert (bigrams["the picture"], bigrams["picture the"]) == ((2, 1), (1, 0))
    html = result._repr_html_()
    assert "<table>" in html
    assert "picture the" in html


def test_explain_compat_lists_knob_effects_that_add_up() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nltk's method0 warns about the zero orders
        result = bleuprint.explain(*PICTURE, preset="nltk")
    names = [e.knob for e in result.effects]
    assert names == ["arithmetic", "tokenizer", "aggregation", "smoothing", "scale"]
    sacre = BLEUConfig.from_preset("sacrebleu").item_score([PICTURE[0]], [PICTURE[1]]).score
    total = sum(e.delta for e in result.effects)
    # A tolerance is right here: the deltas are differences of floats, and their float sum
    # telescopes to the end-to-end difference only up to rounding.
    assert total == pytest.approx(100 * result.score - sacre, abs=1e-9)
    assert "knobs that differ from sacrebleu's" in str(result)


@pytest.mark.parametrize("name", [n for n in PRESETS if n != "sacrebleu"])
def test_knob_walk_reaches_every_preset(name: str) -> None:
    hyps = ["The dog bit the man.", "It wasn't surprising."]
    refs = [["The dog bit the man.", "The dog had bit the man."], ["It was not unexpected."]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        effects = knob_effects(hyps, refs, BLEUConfig.from_preset(name))
        target = BLEUConfig.from_preset(name).item_score(hyps, refs).number
        start = BLEUConfig.from_preset("sacrebleu").item_score(hyps, refs).score
    scale = 1 if BLEUConfig.from_preset(name).scale == 100 else 100
    # Float differences summed: equal to the end-to-end difference up to rounding only.
    assert sum(e.delta for e in effects) == pytest.approx(scale * target - start, abs=1e-6)


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


def test_cli_explain(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    html = tmp_path / "explain.html"
    code, out = _cli(
        capsys, "explain", "--hyp", PICTURE[0], "--ref", PICTURE[1][0], "--ref", PICTURE[1][1],
        "--html", str(html),
    )  # fmt: skip
    assert code == 0
    assert out == str(bleuprint.explain(*PICTURE))
    assert "<table>" in html.read_text(encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code, out = _cli(capsys, "explain", "--hyp", GUARD[0], "--ref", GUARD[1], "--preset", "hf")
    assert "reference length r = 8: the shortest reference" in out
    assert "ref_length" in out
    assert "score change" in out


def test_cli_compare_presets(capsys: pytest.CaptureFixture[str]) -> None:
    refs = [str(EXAMPLES / "ref.en"), str(EXAMPLES / "ref2.en")]
    code, out = _cli(capsys, "compare-presets", *refs, "-i", str(EXAMPLES / "hyp.en"))
    assert code == 0
    hyps = (EXAMPLES / "hyp.en").read_text(encoding="utf-8").splitlines()
    streams = [Path(r).read_text(encoding="utf-8").splitlines() for r in refs]
    grouped = [list(pair) for pair in zip(*streams)]
    for name in PRESETS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            score = BLEUConfig.from_preset(name).item_score(hyps, grouped).number
        row = next(line for line in out.splitlines() if line.startswith(name + " "))
        assert f"{score:.4f}" in row
    assert "  hf: ref_length=shortest, smoothing=none, arithmetic=nmt, scale=1" in out
    assert out.splitlines()[0].split()[0] == "preset"


def test_cli_compat_modes_print_upstream_output(capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyp = str(EXAMPLES / "ref.en"), str(EXAMPLES / "hyp.en")
    hyps = (EXAMPLES / "hyp.en").read_text(encoding="utf-8").splitlines()
    refs = (EXAMPLES / "ref.en").read_text(encoding="utf-8").splitlines()
    expected = {
        "moses": str(multi_bleu(hyps, [refs])),
        "moses-detok": str(multi_bleu_detok(hyps, [refs])),
        "mteval-v13a": str(mteval_v13a(hyps, [refs])),
        "nltk": repr(corpus_bleu([[r.split()] for r in refs], [h.split() for h in hyps])),
        "hf": json.dumps(evaluate.load("bleu").compute(predictions=hyps, references=refs)),
        "mteval-v14": str(mteval_v14(hyps, [refs])),
        "torchmetrics": repr(float(bleu_score(hyps, [[r] for r in refs]))),
        "torchmetrics-sacrebleu": repr(float(sacre_bleu_score(hyps, [[r] for r in refs]))),
    }
    for mode, line in expected.items():
        code, out = _cli(capsys, ref, "-i", hyp, "--preset", mode)
        assert (code, out) == (0, line + "\n"), mode
    assert expected["moses"].startswith("BLEU = ")
    code, out = _cli(capsys, ref, "-i", hyp, "--preset", "nlgmetricverse")
    printed = json.loads(out)
    upstream = NLGMetricverse()(predictions=hyps, references=refs)
    assert printed["bleu"]["score"] == upstream["bleu"]["score"]
    assert printed["total_items"] == upstream["total_items"] == len(hyps)


def test_cli_preset_needs_one_system(capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyp = str(EXAMPLES / "ref.en"), str(EXAMPLES / "hyp.en")
    with pytest.raises(SystemExit) as exit_:
        main([ref, "-i", hyp, str(EXAMPLES / "hyp2.en"), "--preset", "moses"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err == "bleuprint: --preset scores one system\n"


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (["-m", "chrf"], "-m/--metrics"),
        (["-m", "bleu", "ter"], "-m/--metrics"),
        (["-sl"], "-sl/--sentence-level"),
        (["-ci"], "-ci/--confidence"),
        (["-tok", "intl"], "-tok/--tokenize"),
        (["-s", "floor"], "-s/--smooth-method"),
        (["-sv", "0.2"], "-sv/--smooth-value"),
        (["-lc"], "-lc/--lowercase"),
        (["--normalize", "nfc"], "--normalize"),
    ],
)
def test_cli_preset_refuses_options_its_tool_would_ignore(
    capsys: pytest.CaptureFixture[str], options: list[str], named: str
) -> None:
    ref, hyp = str(EXAMPLES / "ref.en"), str(EXAMPLES / "hyp.en")
    with pytest.raises(SystemExit) as exit_:
        main([ref, "-i", hyp, "--preset", "nltk", *options])
    assert exit_.value.code == 2
    assert capsys.readouterr().err == (
        f"bleuprint: --preset nltk prints that tool's own corpus BLEU, with its own settings: "
        f"{named} cannot be combined with it (drop one of them)\n"
    )
    # The defaults spelled out are not a conflict.
    assert _cli(capsys, ref, "-i", hyp, "--preset", "nltk", "-m", "bleu", "-s", "exp")[0] == 0


def test_cli_preset_sacrebleu_is_the_ordinary_output(capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyps = str(EXAMPLES / "ref.en"), [str(EXAMPLES / "hyp.en"), str(EXAMPLES / "hyp2.en")]
    for systems in ([hyps[0]], hyps):
        code, plain = _cli(capsys, ref, "-i", *systems, "-f", "text", "-nc")
        assert code == 0
        assert _cli(capsys, ref, "-i", *systems, "-f", "text", "-nc", "--preset", "sacrebleu") == (
            0,
            plain,
        )


def test_cli_preset_names_are_the_presets() -> None:
    # The parser keeps its own copy so that building it does not load the presets.
    assert PRESET_NAMES == tuple(PRESETS)


@pytest.mark.parametrize("option", ["--preset", "--compat"])
@pytest.mark.parametrize("command", [[], ["explain", "--hyp", "a b", "--ref", "a b"]])
def test_cli_unknown_preset_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], command: list[str], option: str
) -> None:
    args = command or [str(EXAMPLES / "ref.en"), "-i", str(EXAMPLES / "hyp.en")]
    with pytest.raises(SystemExit) as exit_:
        main([*args, option, "bleu"])
    assert exit_.value.code == 2
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.endswith(
        f"error: argument {option}: unknown preset 'bleu'; expected one of " + ", ".join(PRESETS)
    )


DEPRECATED = "bleuprint: {} is deprecated, use {}\n"


def _cli_err(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nltk's zero-count warnings are not the point here
        code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    "command",
    [
        [str(EXAMPLES / "ref.en"), "-i", str(EXAMPLES / "hyp.en"), "{}", "moses"],
        [str(EXAMPLES / "ref.en"), "-i", str(EXAMPLES / "hyp.en"), "{}", "hf", "-q"],
        ["explain", "--hyp", GUARD[0], "--ref", GUARD[1], "{}", "nltk"],
    ],
)
def test_cli_deprecated_compat_option(
    capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    new = _cli_err(capsys, *[a.format("--preset") for a in command])
    old = _cli_err(capsys, *[a.format("--compat") for a in command])
    assert new[:2] == old[:2]  # status and stdout, byte for byte
    assert new[0] == 0
    assert new[1]
    assert new[2] == ""
    assert old[2] == DEPRECATED.format("--compat", "--preset")


def test_cli_deprecated_compare_implementations(capsys: pytest.CaptureFixture[str]) -> None:
    args = [str(EXAMPLES / "ref.en"), "-i", str(EXAMPLES / "hyp.en")]
    new = _cli_err(capsys, "compare-presets", *args)
    old = _cli_err(capsys, "compare-implementations", *args)
    assert new[:2] == old[:2]
    assert new[2] == ""
    assert old[2] == DEPRECATED.format("compare-implementations", "compare-presets")


# One sentence of the compat table (V1): nltk scores it without a zero precision.
V1 = (
    ["It is a guide to action which ensures that the military always obeys the commands of "
     "the party"],
    [["It is a guide to action that ensures that the military will forever heed Party commands"]],
)  # fmt: skip


def test_explain_compat_keyword_is_deprecated() -> None:
    hyps, refs = V1
    with pytest.warns(DeprecationWarning, match="compat= is deprecated; use preset="):
        old = bleuprint.explain(hyps[0], refs[0], compat="nltk")
    new = bleuprint.explain(hyps[0], refs[0], preset="nltk")
    assert str(old) == str(new)
    assert new.preset.startswith("nltk: ")
    with pytest.warns(DeprecationWarning, match="implementation is deprecated; use .preset"):
        assert new.implementation == new.preset
