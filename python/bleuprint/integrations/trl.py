"""BLEU and chrF rewards for TRL's trainers (``GRPOTrainer``, ``RLOOTrainer``, ...).

TRL calls a reward function with keyword arguments: ``prompts``, ``completions`` (strings, or
lists of chat messages), ``completion_ids``, ``trainer_state`` and every dataset column, one
value per completion, and takes one float per completion back. :func:`bleu_reward` and
:func:`chrf_reward` build such functions; they score every completion against its row of a
reference column in one batch call, and import nothing from TRL::

    from bleuprint.integrations.trl import bleu_reward
    trainer = GRPOTrainer(model=..., reward_funcs=[bleu_reward("reference")], ...)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Optional

from bleuprint.errors import InputTypeError, InvalidInputError, InvalidOptionError
from bleuprint.metrics import BLEU, CHRF
from bleuprint.metrics.metric import Metric

#: What TRL calls: keyword arguments in, one reward per completion out.
RewardFunction = Callable[..., list[float]]

LEVELS = ("sentence", "corpus")

# The keywords TRL's trainers pass besides the dataset's columns (some releases pass step
# and run_name).
_TRAINER_KEYWORDS = {
    "prompts", "completion_ids", "trainer_state", "log_extra", "log_metric", "environments",
    "step", "run_name",
}  # fmt: skip
SCALES = (1, 100)


def bleu_reward(
    reference_column: str = "reference",
    *,
    scale: int = 1,
    level: str = "sentence",
    tokenize: Optional[str] = None,
    lowercase: bool = False,
    smooth_method: str = "exp",
    effective_order: Optional[bool] = None,
    name: str = "bleu",
) -> RewardFunction:
    """A TRL reward function: each completion's BLEU against ``reference_column``.

    Parameters
    ----------
    reference_column
        The dataset column holding each row's reference: a string, or a list of strings.
    scale
        1: rewards in 0..1 (``score / 100``, what RL training is usually given); 100: BLEU's
        own 0..100.
    level
        ``"sentence"``: sacrebleu's ``sentence_bleu`` of each completion (exp smoothing and
        effective order by default). ``"corpus"``: each completion's share of the batch's
        corpus BLEU, ``corpus(batch) - corpus(batch without it)`` (leave one out), from the
        batch's statistics.
    tokenize, lowercase, smooth_method, effective_order
        sacrebleu's BLEU options (``effective_order`` defaults to True for sentences, False
        for the corpus).
    name
        The function's ``__name__``: TRL logs each reward under it.
    """
    _check_level(level)
    if effective_order is None:
        effective_order = level == "sentence"
    options: dict[str, Any] = {
        "lowercase": lowercase, "smooth_method": smooth_method, "effective_order": effective_order
    }  # fmt: skip
    if tokenize is not None:
        options["tokenize"] = tokenize
    return _reward(BLEU(**options), reference_column, scale, level, name)


def chrf_reward(
    reference_column: str = "reference",
    *,
    scale: int = 1,
    level: str = "sentence",
    word_order: int = 0,
    char_order: int = 6,
    beta: int = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    name: Optional[str] = None,
) -> RewardFunction:
    """A TRL reward function: each completion's chrF (``word_order=2``: chrF++) against
    ``reference_column``; ``scale``, ``level`` and ``name`` as in :func:`bleu_reward` (the
    name defaults to ``"chrf"`` or ``"chrf++"``)."""
    _check_level(level)
    metric = CHRF(
        char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase,
        whitespace=whitespace,
    )  # fmt: skip
    if name is None:
        name = "chrf" + "+" * word_order
    return _reward(metric, reference_column, scale, level, name)


def _check_level(level: str) -> None:
    if level not in LEVELS:
        raise InvalidOptionError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")


def _reward(metric: Metric[Any], column: str, scale: int, level: str, name: str) -> RewardFunction:
    if not isinstance(column, str):
        raise InputTypeError(f"reference_column must be a str, got {type(column).__name__}")
    if scale not in SCALES or isinstance(scale, bool):
        raise InvalidOptionError(f"scale must be 1 (0..1) or 100 (0..100), got {scale!r}")
    divisor = 100 // scale

    def reward(completions: Sequence[Any], **kwargs: Any) -> list[float]:
        if column not in kwargs:
            columns = sorted(set(kwargs) - _TRAINER_KEYWORDS)
            raise InvalidInputError(
                f"the reward needs the dataset column {column!r}; the batch has "
                f"{'the columns ' + ', '.join(columns) if columns else 'no dataset columns'} "
                "(pass reference_column=...)"
            )
        hypotheses = [completion_text(c, k) for k, c in enumerate(completions)]
        streams = reference_streams(kwargs[column], len(hypotheses), column)
        if level == "sentence":
            scores = metric.sentence_scores(hypotheses, streams)
        else:
            scores = leave_one_out(metric, hypotheses, streams)
        return (scores / divisor).tolist() if divisor != 1 else scores.tolist()

    reward.__name__ = reward.__qualname__ = name
    return reward


def completion_text(completion: Any, index: int) -> str:
    """A completion's text: the string itself, or the content of a conversational
    completion's last message (text parts joined, for multimodal content)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Sequence) and completion and isinstance(completion[-1], dict):
        content = completion[-1].get("content")
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    raise InputTypeError(
        f"completions[{index}] must be a string or a list of chat messages with "
        f"'content', got {type(completion).__name__}"
    )


def reference_streams(column: Any, n: int, name: str) -> list[list[Optional[str]]]:
    """A column of references (a string or a list of strings per row) as reference streams;
    rows with fewer references get ``None`` in the later streams."""
    if isinstance(column, str) or not isinstance(column, Sequence) or len(column) != n:
        got = len(column) if isinstance(column, Sequence) else type(column).__name__
        raise InvalidInputError(
            f"column {name!r} must hold one entry per completion ({n}), got {got}"
        )
    rows = []
    for k, cell in enumerate(column):
        if isinstance(cell, str):
            rows.append([cell])
        elif isinstance(cell, Sequence) and all(isinstance(r, str) for r in cell):
            rows.append(list(cell))
        else:
            raise InputTypeError(
                f"column {name!r}[{k}] must be a reference string or a list of them, got "
                f"{type(cell).__name__}"
            )
    width = max((len(r) for r in rows), default=1)
    return [[r[k] if k < len(r) else None for r in rows] for k in range(width)]


def leave_one_out(metric: Metric[Any], hypotheses: list[str], streams: Any) -> Any:
    """``corpus(all) - corpus(all but i)`` for every i, from the batch's statistics."""
    stats = metric.stats(hypotheses, streams)
    total = stats.sum()
    whole = stats.config.score_sums(total[None, :])[0]
    return whole - stats.config.score_sums(total[None, :] - stats.rows)


__all__ = ["LEVELS", "RewardFunction", "bleu_reward", "chrf_reward"]
