"""``bleuprint caption``: COCO JSON in, pycocoevalcap's scores out (equal to the real
pycocoevalcap 1.2 run step by step: its PTB tokenizer in Java, its Bleu, Rouge and Cider),
confidence intervals, paired tests, the skipped Java metrics, and every malformed input named."""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bleuprint.compat.pycocoevalcap.eval import close_scorer, upstream_scorer
from tests.support.cli import run_cli_in_process
from tests.support.data import read_lines
from tests.support.java import require_java

upstream_tokenizer = pytest.importorskip("pycocoevalcap.tokenizer.ptbtokenizer")
upstream_bleu = pytest.importorskip("pycocoevalcap.bleu.bleu")
upstream_rouge = pytest.importorskip("pycocoevalcap.rouge.rouge")
upstream_cider = pytest.importorskip("pycocoevalcap.cider.cider")

pytestmark = pytest.mark.differential


def _write(path: Path, data: Any) -> str:
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.fixture(name="coco")
def coco_fixture(wmt22: Path, tmp_path: Path) -> dict[str, Any]:
    """Annotations for 80 images (1 to 5 references, in a shuffled image order) and two
    results files from WMT22 outputs."""
    require_java()  # the oracle's tokenizer
    refs = read_lines(wmt22 / "references" / "generaltest2022.de-en.ref.A.en")
    outputs = [read_lines(p) for p in sorted(wmt22.glob("system-outputs/*de-en.hyp.*"))[:7]]
    ids = list(range(500, 580))
    random.Random(1).shuffle(ids)
    annotations = []
    for i, image in enumerate(ids):
        for text in [refs[i], *(o[i] for o in outputs[2 : 2 + i % 5])]:
            annotations.append({"image_id": image, "id": len(annotations), "caption": text})
    gts = _write(
        tmp_path / "ann.json", {"images": [{"id": i} for i in ids], "annotations": annotations}
    )
    res = []
    for k in range(2):
        results = [{"image_id": image, "caption": outputs[k][i]} for i, image in enumerate(ids)]
        res.append(_write(tmp_path / f"res{k}.json", results[::-1]))
    return {"gts": gts, "res": res, "ids": ids, "annotations": annotations, "tmp": tmp_path}


def _upstream(coco: dict[str, Any], k: int) -> dict[str, Any]:
    """pycocoevalcap's scores of results file ``k``: its tokenizer, then its scorers."""
    gts: dict[int, list[dict[str, str]]] = {}
    for a in coco["annotations"]:
        gts.setdefault(a["image_id"], []).append({"caption": a["caption"]})
    results = {r["image_id"]: r["caption"] for r in json.loads(Path(coco["res"][k]).read_text())}
    gts = {i: gts[i] for i in coco["ids"]}
    res = {i: [{"caption": results[i]}] for i in coco["ids"]}
    tokenizer = upstream_tokenizer.PTBTokenizer()
    gts, res = tokenizer.tokenize(gts), tokenizer.tokenize(res)
    with contextlib.redirect_stdout(io.StringIO()):
        bleu, _ = upstream_bleu.Bleu(4).compute_score(gts, res)
    scores = dict(zip(["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4"], bleu))
    scores["ROUGE_L"] = upstream_rouge.Rouge().compute_score(gts, res)[0]
    scores["CIDEr"] = upstream_cider.Cider().compute_score(gts, res)[0]
    return {k: float(v) for k, v in scores.items()}


def test_scores_as_pycocoevalcap(coco: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli_in_process(
        ["caption", "--gts", coco["gts"], "--res", coco["res"][0]], capsys
    )
    assert code == 0, err
    expected = _upstream(coco, 0)
    assert out.splitlines() == [f"{name}: {value:0.3f}" for name, value in expected.items()]
    assert "METEOR and SPICE skipped" in err
    code, out, err = run_cli_in_process(
        ["caption", "--gts", coco["gts"], "--res", *coco["res"], "--json"], capsys
    )
    record = json.loads(out)
    assert record["images"] == 80
    assert record["references"] == len(coco["annotations"])
    assert record["skipped"] == ["METEOR", "SPICE"]
    assert record["systems"][0]["scores"] == expected
    assert record["systems"][1]["scores"] == _upstream(coco, 1)


def test_confidence_and_paired_tests(
    coco: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    systems = [coco["res"][0], coco["res"][0], coco["res"][1]]
    argv = ["caption", "--gts", coco["gts"], "--res", *systems,
            "-ci", "--paired-bs", "--n-samples", "200", "--json"]  # fmt: skip
    code, out, err = run_cli_in_process(argv, capsys)
    assert code == 0, err
    record = json.loads(out)
    assert (record["n_samples"], record["seed"]) == (200, 12345)
    first, same, other = record["systems"]
    for name, score in first["scores"].items():
        interval = first["confidence"][name]
        assert interval["ci"] > 0
        assert abs(interval["mean"] - score) < 3 * interval["ci"]
        assert same["p_values"][name] == 1.0  # a system against itself
        assert 0 < other["p_values"][name] <= 1
    assert "p_values" not in first
    code, again, _ = run_cli_in_process(argv, capsys)
    assert again == out  # the seed fixes the resamples
    code, text, _ = run_cli_in_process(argv[:-1], capsys)
    assert "== " + coco["res"][1] in text
    assert "(p = 1.0000)" in text


def test_line_breaks(coco: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    results = json.loads(Path(coco["res"][0]).read_text())
    results[5]["caption"] = "a cat\u2028on a mat"
    path = _write(coco["tmp"] / "breaks.json", results)
    code, _, err = run_cli_in_process(["caption", "--gts", coco["gts"], "--res", path], capsys)
    assert code != 0
    assert f"image {results[5]['image_id']!r} contains U+2028" in err
    assert "(--line-breaks space)" in err
    code, out, err = run_cli_in_process(
        ["caption", "--gts", coco["gts"], "--res", path, "--line-breaks", "space"], capsys
    )
    assert code == 0, err


@pytest.mark.parametrize(
    ("annotations", "results", "message"),
    [
        ("not json", [], "is not JSON"),
        ({"images": []}, [], "an object with an 'annotations' list"),
        ({"annotations": [{"caption": "x"}]}, [], "entry 0 has no image_id"),
        ({"annotations": [{"image_id": 1, "caption": 3}]}, [], "caption 3; a caption is a str"),
        ({"annotations": []}, [], "no annotations"),
        ({"images": [{"id": 1}], "annotations": [{"image_id": 2, "caption": "x"}]}, [],
         "annotation 0 is for image 2, which 'images' does not list"),
        ({"annotations": [{"image_id": 1, "caption": "x"}]}, [], "no results"),
        ({"annotations": [{"image_id": 1, "caption": "x"}]}, {"image_id": 1},
         "a list of objects"),
        ({"annotations": [{"image_id": 1, "caption": "x"}]},
         [{"image_id": 1, "caption": "a"}, {"image_id": 1, "caption": "b"}],
         "image 1 has more than one result"),
        ({"annotations": [{"image_id": 1, "caption": "x"}]}, [{"image_id": 9, "caption": "a"}],
         "image 9 has no references"),
        ({"images": [{"id": 1}, {"id": 2}], "annotations": [{"image_id": 1, "caption": "x"}]},
         [{"image_id": 2, "caption": "a"}], "image 2 has results but no reference captions"),
        ({"annotations": [{"image_id": 1, "caption": "x"}]}, [{"image_id": [1], "caption": "a"}],
         "an image id is an int or a str"),
        ({"annotations": [{"image_id": 1, "caption": "x"}]}, [{"image_id": 1, "caption": None}],
         "caption None; a caption is a str"),
    ],
)  # fmt: skip
def test_malformed_files_are_named(
    tmp_path: Path, annotations: Any, results: Any, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    gts = tmp_path / "ann.json"
    if isinstance(annotations, str):
        gts.write_text(annotations)
    else:
        _write(gts, annotations)
    res = _write(tmp_path / "res.json", results)
    code, _, err = run_cli_in_process(["caption", "--gts", str(gts), "--res", res], capsys)
    assert code != 0
    assert message in err
    assert "Traceback" not in err


def test_results_must_caption_the_same_images(
    coco: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    fewer = json.loads(Path(coco["res"][1]).read_text())[1:]
    path = _write(coco["tmp"] / "fewer.json", fewer)
    code, _, err = run_cli_in_process(
        ["caption", "--gts", coco["gts"], "--res", coco["res"][0], path], capsys
    )
    assert code != 0
    assert "every results file must caption the same images" in err


def test_java_metrics_run_pycocoevalcaps_own(
    coco: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["caption", "--gts", coco["gts"], "--res", coco["res"][0], "--json",
            "--java-metrics", "METEOR"]  # fmt: skip
    code, out, err = run_cli_in_process(argv, capsys)
    assert code == 0, err
    record = json.loads(out)
    assert record["skipped"] == ["SPICE"]
    assert "SPICE skipped" in err
    # pycocoevalcap's METEOR on its own tokenizer's output.
    gts: dict[int, list[dict[str, str]]] = {}
    for a in coco["annotations"]:
        gts.setdefault(a["image_id"], []).append({"caption": a["caption"]})
    results = {r["image_id"]: r["caption"] for r in json.loads(Path(coco["res"][0]).read_text())}
    tokenizer = upstream_tokenizer.PTBTokenizer()
    refs = tokenizer.tokenize({i: gts[i] for i in coco["ids"]})
    hyps = tokenizer.tokenize({i: [{"caption": results[i]}] for i in coco["ids"]})
    meteor = upstream_scorer("METEOR")
    expected = meteor.compute_score(refs, hyps)[0]
    close_scorer(meteor)
    assert record["systems"][0]["scores"]["METEOR"] == expected
