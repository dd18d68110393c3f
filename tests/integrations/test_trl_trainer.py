"""The TRL rewards inside TRL's real ``GRPOTrainer``: a one-layer GPT-2 built from a config and
a word-level tokenizer built offline train for one step on the CPU, and every reward TRL asks
for is checked against sacrebleu on the completions TRL generated and passed."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sacrebleu

from bleuprint.integrations.trl import bleu_reward, chrf_reward

pytest.importorskip("torch")
trl = pytest.importorskip("trl")
transformers = pytest.importorskip("transformers")
datasets = pytest.importorskip("datasets")
tokenizers = pytest.importorskip("tokenizers")

WORDS = "the a cat dog sat on mat rug saw ran and big small red house".split()
SOURCES = ["die Katze", "der Hund", "das Haus", "ein roter Teppich"]
REFERENCES = ["the cat sat on the mat", "a dog ran", "the big red house", "a red rug"]
PROMPTS = [f"translate: {s}" for s in SOURCES]
NUM_GENERATIONS = 2


class Recorder:
    """A reward function that records what TRL passed and what it returned, under the
    wrapped function's ``__name__`` (TRL logs each reward under it)."""

    def __init__(self, reward: Callable[..., list[float]]) -> None:
        self.reward = reward
        self.__name__ = reward.__name__
        self.calls: list[tuple[dict[str, Any], list[float]]] = []

    def __call__(self, **kwargs: Any) -> list[float]:
        rewards = self.reward(**kwargs)
        self.calls.append((kwargs, rewards))
        return rewards


def _tokenizer() -> Any:
    """A word-level tokenizer over WORDS (prompt words map to [UNK]); decoding joins words
    with spaces."""
    special = ["[PAD]", "[UNK]", "[EOS]"]
    vocab = {w: i for i, w in enumerate(special + WORDS)}
    model = tokenizers.models.WordLevel(vocab, unk_token="[UNK]")
    backend = tokenizers.Tokenizer(model)
    backend.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=backend, pad_token="[PAD]", unk_token="[UNK]", eos_token="[EOS]"
    )


def _model(tokenizer: Any) -> Any:
    config = transformers.GPT2Config(
        vocab_size=len(tokenizer), n_positions=64, n_embd=16, n_layer=1, n_head=2,
        bos_token_id=tokenizer.eos_token_id, eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )  # fmt: skip
    return transformers.GPT2LMHeadModel(config)


def _train(tmp_path: Path, rewards: list[Recorder]) -> Any:
    import torch

    torch.manual_seed(0)
    tokenizer = _tokenizer()
    dataset = datasets.Dataset.from_dict({"prompt": PROMPTS, "reference": REFERENCES})
    with warnings.catch_warnings():
        # TRL's and transformers' deprecation notes and advice on a tiny CPU run
        warnings.simplefilter("ignore")
        args = trl.GRPOConfig(
            output_dir=str(tmp_path), max_steps=1, per_device_train_batch_size=4,
            num_generations=NUM_GENERATIONS, max_completion_length=8, use_cpu=True,
            report_to=[], logging_steps=1, save_strategy="no", bf16=False, seed=0,
            dataloader_num_workers=0, disable_tqdm=True,
        )  # fmt: skip
        trainer = trl.GRPOTrainer(
            model=_model(tokenizer), reward_funcs=rewards, args=args, train_dataset=dataset,
            processing_class=tokenizer,
        )  # fmt: skip
        trainer.train()
    return trainer


def _references(kwargs: dict[str, Any]) -> list[str]:
    refs = kwargs["reference"]
    assert all(isinstance(r, str) for r in refs)
    return list(refs)


def _sentence(metric: Any, completions: list[str], refs: list[str]) -> list[float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # sacrebleu's effective-order advice
        return [metric.sentence_score(c, [r]).score / 100 for c, r in zip(completions, refs)]


def _leave_one_out(metric: Any, completions: list[str], refs: list[str]) -> list[float]:
    n = len(completions)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        whole = metric.corpus_score(completions, [refs]).score
        rest = [[j for j in range(n) if j != i] for i in range(n)]
        return [
            (whole - metric.corpus_score([completions[j] for j in r], [[refs[j] for j in r]]).score)
            / 100
            for r in rest
        ]


@pytest.mark.differential
def test_rewards_inside_grpo_trainer_equal_sacrebleu_on_its_completions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    bleu, chrf = Recorder(bleu_reward("reference")), Recorder(chrf_reward("reference"))
    corpus = Recorder(bleu_reward("reference", level="corpus", name="bleu_corpus"))
    recorders = [bleu, chrf, corpus]
    trainer = _train(tmp_path, recorders)
    tokenizer = trainer.processing_class

    assert trainer.state.global_step == 1
    expected_scores = {
        "bleu": lambda c, r: _sentence(sacrebleu.BLEU(effective_order=True), c, r),
        "chrf": lambda c, r: _sentence(sacrebleu.CHRF(), c, r),
        "bleu_corpus": lambda c, r: _leave_one_out(sacrebleu.BLEU(), c, r),
    }
    logged = {k: v for entry in trainer.state.log_history for k, v in entry.items()}
    for recorder in recorders:
        assert recorder.calls, f"TRL never called {recorder.__name__}"
        returned: list[float] = []
        for kwargs, rewards in recorder.calls:
            completions = kwargs["completions"]
            assert len(completions) == 4
            assert set(kwargs) >= {"prompts", "completions", "completion_ids", "reference"}
            # The completions are the decoded ids TRL generated, for prompts of the dataset.
            decoded = tokenizer.batch_decode(kwargs["completion_ids"], skip_special_tokens=True)
            assert completions == decoded
            refs = _references(kwargs)
            # Each completion comes with its own prompt's dataset row.
            rows = [PROMPTS.index(p) for p in kwargs["prompts"]]
            assert refs == [REFERENCES[i] for i in rows]
            assert rewards == expected_scores[recorder.__name__](completions, refs)
            returned += rewards
        # TRL logs each reward's batch mean under the function's name.
        mean = logged[f"rewards/{recorder.__name__}/mean"]
        assert mean == pytest.approx(math.fsum(returned) / len(returned), rel=1e-6, abs=1e-7)
    # ... and their sum per completion (every weight is 1) as the reward GRPO optimises.
    per_function = [[r for _, rewards in x.calls for r in rewards] for x in recorders]
    sums = [math.fsum(rewards) for rewards in zip(*per_function)]
    assert logged["reward"] == pytest.approx(math.fsum(sums) / len(sums), rel=1e-6, abs=1e-7)
    assert any(any(r > 0 for r in rewards) for _, rewards in chrf.calls)
    assert "loss" in logged
