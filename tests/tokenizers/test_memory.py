"""Memory stays flat across 10,000 repeated ``sentence_bleu`` calls with every tokenizer.

sacrebleu's SentencePiece tokenizers reload the model on every call and keep up to 65,536
tokenizer instances alive through a class-level lru_cache (sacrebleu #264). bleuprint shares
one tokenizer (and model) per process. Each tokenizer runs in a fresh interpreter, which
measures its resident set size after a warm-up and again after 10,000 more calls.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

CALLS = 10_000
#: Generous: a leak of one model or tokenizer per call would be hundreds of MB.
MAX_GROWTH_MB = 8.0

WORKER = textwrap.dedent(
    """
    import json, sys, warnings
    import bleuprint

    tokenize, spm_model, calls = sys.argv[1], sys.argv[2] or None, int(sys.argv[3])
    pairs = [(f"Dies ist Satz {i}: 今日は良い天気, 안녕하세요 {i % 7}.",
              f"Dies ist der Satz {i}: 今日は天気, 안녕 {i % 5}.") for i in range(200)]

    def rss_mb():
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024

    def run(n):
        for i in range(n):
            hyp, ref = pairs[i % len(pairs)]
            bleuprint.sentence_bleu(hyp, [ref], tokenize=tokenize, spm_model=spm_model)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the text is mixed-script on purpose
        run(1000)
        before = rss_mb()
        run(calls)
        after = rss_mb()
    print(json.dumps({"before": before, "after": after}))
    """
)


@pytest.fixture(scope="module")
def spm_model(tmp_path_factory: pytest.TempPathFactory) -> str:
    sentencepiece = pytest.importorskip("sentencepiece")
    root = tmp_path_factory.mktemp("memory-spm")
    lines = [f"Dies ist Satz {i}: 今日は良い天気, 안녕하세요 {i}." for i in range(300)]
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(lines),
        model_prefix=str(root / "m"),
        vocab_size=120,
        minloglevel=2,
    )
    return str(root / "m.model")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize(
    "tokenize",
    ["none", "13a", "intl", "char", "zh", "ja-mecab", "ko-mecab", "flores200", "flores101"],
)
def test_repeated_sentence_bleu_keeps_memory_flat(tokenize: str, request) -> None:
    model = ""
    if tokenize == "ja-mecab":
        pytest.importorskip("MeCab")
    elif tokenize == "ko-mecab":
        pytest.importorskip("mecab_ko")
    elif tokenize.startswith("flores"):
        model = request.getfixturevalue("spm_model")
    result = subprocess.run(
        [sys.executable, "-c", WORKER, tokenize, model, str(CALLS)],
        capture_output=True,
        check=True,
        timeout=300,
    )
    rss = json.loads(result.stdout)
    growth = rss["after"] - rss["before"]
    assert growth < MAX_GROWTH_MB, f"{tokenize}: RSS grew {growth:.1f} MB over {CALLS} calls"
