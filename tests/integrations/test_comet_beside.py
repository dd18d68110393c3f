"""bleuprint beside COMET: in the numpy-1 environment (``make test-numpy1``), where
unbabel-comet 2.2.7 pins numpy<2, pip resolves both, both import in one process and both
score: bleuprint bit-identical to sacrebleu under numpy 1, COMET with a small model built
here (the hub is not reachable in tests: a randomly initialised two-layer encoder with a
word-level tokenizer, which exercises COMET's whole predict path). Skipped where COMET is
not installed (the main environment, numpy 2)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import bleuprint
from bleuprint.significance.promotion import LEGACY, numpy_promotion
from tests.support.data import REPO, SAMPLE, read_lines

comet = pytest.importorskip("comet", reason="unbabel-comet is in the numpy-1 environment only")
sacrebleu = pytest.importorskip("sacrebleu")


def test_numpy_1_is_what_runs_and_what_is_replayed() -> None:
    assert np.__version__.startswith("1.")
    assert numpy_promotion() == LEGACY


def test_pip_resolves_bleuprint_beside_comet(tmp_path: Path) -> None:
    # The source tree (the wheel's metadata is the same) with COMET's pin: no
    # ResolutionImpossible, and nothing would replace the installed numpy 1 or COMET.
    report = tmp_path / "report.json"
    command = [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet"]
    done = subprocess.run(
        [
            *command,
            "--disable-pip-version-check",
            "--report",
            str(report),
            str(REPO),
            "unbabel-comet==2.2.7",
        ],  # fmt: skip
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    installs = {i["metadata"]["name"] for i in json.loads(report.read_text())["install"]}
    assert installs == {"bleuprint"}


def _tiny_comet_model(directory: Path) -> object:
    """A COMET regression metric on a random two-layer XLM-R encoder saved to ``directory``."""
    import torch
    from comet.models import RegressionMetric
    from tokenizers import Tokenizer, models, pre_tokenizers, processors
    from transformers import XLMRobertaConfig, XLMRobertaTokenizerFast

    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    words = sorted({w for line in read_lines(SAMPLE / "ref.A.en") for w in line.split()})
    vocab = {token: i for i, token in enumerate(specials + words)}
    tokenizer = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer.post_processor = processors.RobertaProcessing(("</s>", 2), ("<s>", 0))
    XLMRobertaTokenizerFast(
        tokenizer_object=tokenizer,
        **{
            f"{name}_token": token
            for name, token in [
                ("bos", "<s>"),
                ("eos", "</s>"),
                ("sep", "</s>"),
                ("cls", "<s>"),
                ("unk", "<unk>"),
                ("pad", "<pad>"),
                ("mask", "<mask>"),
            ]
        },  # fmt: skip
    ).save_pretrained(directory)
    XLMRobertaConfig(
        vocab_size=len(vocab), hidden_size=16, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=32, max_position_embeddings=256, pad_token_id=1,
    ).save_pretrained(directory)  # fmt: skip
    torch.manual_seed(0)
    return RegressionMetric(
        pretrained_model=str(directory),
        load_pretrained_weights=False,
        local_files_only=True,
        hidden_sizes=[16],
    )


# pytorch-lightning and transformers warn about their own APIs' deprecations.
@pytest.mark.filterwarnings("ignore::FutureWarning", "ignore::DeprecationWarning")
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_comet_and_bleuprint_score_in_one_process(tmp_path: Path) -> None:
    hyps = read_lines(SAMPLE / "sys.fair.en")[:8]
    refs = read_lines(SAMPLE / "ref.A.en")[:8]
    model = _tiny_comet_model(tmp_path / "encoder")
    data = [{"src": r, "mt": h, "ref": r} for h, r in zip(hyps, refs)]
    predicted = model.predict(data, batch_size=4, gpus=0, progress_bar=False)  # type: ignore[attr-defined]
    assert len(predicted.scores) == len(hyps)
    assert all(np.isfinite(predicted.scores))
    again = model.predict(data, batch_size=8, gpus=0, progress_bar=False)  # type: ignore[attr-defined]
    assert np.allclose(predicted.scores, again.scores)
    # bleuprint in the same process: sacrebleu's figures under numpy 1, bootstrap included.
    for name in ("BLEU", "CHRF", "TER"):
        ours = getattr(bleuprint, name)().corpus_score(hyps, [refs], n_bootstrap=100)
        theirs = getattr(sacrebleu, name)().corpus_score(hyps, [refs], n_bootstrap=100)
        assert (ours.score, ours.mean, ours.ci) == (theirs.score, theirs._mean, theirs._ci)
        assert type(ours.mean) is type(theirs._mean)
