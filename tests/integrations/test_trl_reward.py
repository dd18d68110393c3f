"""TRL reward functions: called the way TRL's trainers call them (keyword arguments, dataset
columns, string or chat-message completions), they return what a hand-written reward around
sacrebleu returns, one float per completion."""

from __future__ import annotations

import subprocess
import sys
import warnings
from typing import Any

import pytest
import sacrebleu

from bleuprint.errors import InputTypeError, InvalidInputError, InvalidOptionError
from bleuprint.integrations.trl import bleu_reward, chrf_reward
from tests.support.data import SAMPLE, read_lines


def _batch() -> tuple[list[str], list[Any]]:
    """Completions and a reference column: one reference, or two, per row."""
    hyps = read_lines(SAMPLE / "sys.fair.en") + read_lines(SAMPLE / "sys.poor.en")
    a, b = read_lines(SAMPLE / "ref.A.en"), read_lines(SAMPLE / "ref.B.en")
    n = len(a)
    refs: list[Any] = [a[i] if i % 3 else [a[i], b[i]] for i in range(n)] * 2
    return hyps, refs


def _as_lists(refs: list[Any]) -> list[list[str]]:
    return [[r] if isinstance(r, str) else r for r in refs]


def _call_like_trl(reward: Any, completions: list[Any], **columns: Any) -> list[float]:
    """GRPOTrainer's call: prompts, completions, completion_ids, the dataset's columns and
    the trainer's helpers, all as keywords."""
    n = len(completions)
    return reward(  # type: ignore[no-any-return]
        prompts=[f"Translate: {k}" for k in range(n)],
        completions=completions,
        completion_ids=[[1, 2, 3]] * n,
        trainer_state=object(),
        log_extra=lambda column, values: None,
        log_metric=lambda name, value: None,
        step=7,  # passed by some TRL releases
        run_name="out",
        **columns,
    )


@pytest.mark.differential
def test_sentence_bleu_reward_equals_sacrebleu() -> None:
    hyps, refs = _batch()
    expected = [sacrebleu.sentence_bleu(h, r).score / 100 for h, r in zip(hyps, _as_lists(refs))]
    rewards = _call_like_trl(bleu_reward("reference"), hyps, reference=refs, source=hyps)
    assert rewards == expected
    assert all(type(r) is float for r in rewards)
    percent = _call_like_trl(bleu_reward("reference", scale=100), hyps, reference=refs)
    assert percent == [sacrebleu.sentence_bleu(h, r).score for h, r in zip(hyps, _as_lists(refs))]


@pytest.mark.differential
def test_bleu_reward_options_equal_sacrebleu() -> None:
    hyps, refs = _batch()
    reward = bleu_reward("ref", tokenize="char", lowercase=True, smooth_method="floor")
    metric = sacrebleu.BLEU(tokenize="char", lowercase=True, smooth_method="floor",
                            effective_order=True)  # fmt: skip
    expected = [metric.sentence_score(h, r).score / 100 for h, r in zip(hyps, _as_lists(refs))]
    assert _call_like_trl(reward, hyps, ref=refs) == expected


@pytest.mark.differential
@pytest.mark.parametrize("word_order", [0, 2])
def test_chrf_reward_equals_sacrebleu(word_order: int) -> None:
    hyps, refs = _batch()
    metric = sacrebleu.CHRF(word_order=word_order)
    expected = [metric.sentence_score(h, r).score / 100 for h, r in zip(hyps, _as_lists(refs))]
    reward = chrf_reward("reference", word_order=word_order)
    assert _call_like_trl(reward, hyps, reference=refs) == expected
    assert reward.__name__ == ("chrf++" if word_order else "chrf")


def test_conversational_completions() -> None:
    """Chat completions: the last message's content (text parts joined) is scored."""
    hyps, refs = _batch()
    chats: list[Any] = [[{"role": "assistant", "content": h}] for h in hyps[:5]]
    chats[1] = [{"role": "assistant", "content": [{"type": "text", "text": hyps[1]}]}]
    chats[2] = [
        {"role": "assistant", "content": "thinking"},
        {"role": "assistant", "content": hyps[2]},
    ]  # noqa: E501
    reward = bleu_reward("reference")
    assert _call_like_trl(reward, chats, reference=refs[:5]) == _call_like_trl(
        reward, hyps[:5], reference=refs[:5]
    )


@pytest.mark.differential
@pytest.mark.parametrize("make", [bleu_reward, chrf_reward])
def test_corpus_level_is_each_completions_leave_one_out_share(make: Any) -> None:
    hyps, refs = _batch()
    hyps, refs = hyps[:20], refs[:20]
    metric = sacrebleu.BLEU() if make is bleu_reward else sacrebleu.CHRF()
    lists = _as_lists(refs)
    width = max(map(len, lists))

    def streams(idx: Any) -> list[list[Any]]:
        return [[lists[i][k] if k < len(lists[i]) else None for i in idx] for k in range(width)]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        whole = metric.corpus_score(hyps, streams(range(20))).score
        expected = []
        for i in range(20):
            rest = [j for j in range(20) if j != i]
            expected.append(
                whole - metric.corpus_score([hyps[j] for j in rest], streams(rest)).score
            )
    rewards = _call_like_trl(make("reference", level="corpus", scale=100), hyps, reference=refs)
    assert rewards == expected
    assert len(set(rewards)) > 10  # the rewards tell the completions apart


def test_reward_errors_name_the_fix() -> None:
    reward = bleu_reward("reference")
    with pytest.raises(
        InvalidInputError, match="column 'reference'; the batch has the columns solution"
    ):
        _call_like_trl(reward, ["a"], solution=["a"])
    with pytest.raises(InvalidInputError, match="one entry per completion"):
        _call_like_trl(reward, ["a", "b"], reference=["a"])
    with pytest.raises(InputTypeError, match=r"column 'reference'\[1\] must be a reference string"):
        _call_like_trl(reward, ["a", "b"], reference=["a", None])
    with pytest.raises(InputTypeError, match=r"completions\[0\] must be a string"):
        _call_like_trl(reward, [3], reference=["a"])
    with pytest.raises(InvalidOptionError, match="scale must be 1"):
        bleu_reward(scale=10)
    with pytest.raises(InvalidOptionError, match="level must be"):
        chrf_reward(level="document")


def test_loads_without_trl_or_torch() -> None:
    code = (
        "import sys; import bleuprint.integrations.trl; "
        "print(sorted(m for m in ('trl', 'torch', 'transformers') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
