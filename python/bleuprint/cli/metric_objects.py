"""The metric objects the command's options describe, one per ``-m`` name."""

from __future__ import annotations

import argparse
import warnings
from typing import Any

from bleuprint.cli.errors import EXIT_USAGE, CliError, Reporter
from bleuprint.errors import BleuprintError, BleuprintWarning, InvalidOptionError
from bleuprint.metrics.bleu import BLEU
from bleuprint.metrics.chrf import CHRF
from bleuprint.metrics.cider import CIDEr
from bleuprint.metrics.rouge import ROUGE
from bleuprint.metrics.ter import TER
from bleuprint.metrics.wer import WER


def core_workers(args: argparse.Namespace) -> int:
    """Core threads from -j: 0 or unset means every core (``-1``)."""
    return -1 if not args.paired_jobs else int(args.paired_jobs)


def _metric_objects(args: argparse.Namespace, references: Any) -> dict[str, Any]:
    """One metric object per ``-m`` name (upper-case keys, first occurrence first)."""
    trg_lang = args.langpair.split("-")[1] if args.langpair else ""
    common = {"references": references, "workers": core_workers(args)}
    metrics: dict[str, Any] = {}
    for name in dict.fromkeys(args.metrics):
        metric: Any
        if name == "bleu":
            metric = BLEU(
                effective_order=args.sentence_level,
                trg_lang=trg_lang,
                **_options(args, "bleu"),
                **common,
            )
        elif name == "chrf":
            metric = CHRF(**_options(args, "chrf"), **common)
        elif name == "ter":
            metric = TER(**_options(args, "ter"), **common)
        elif name == "rouge":
            metric = ROUGE(**_options(args, "rouge"), **common)
        elif name == "cider":
            metric = CIDEr(**_options(args, "cider"), workers=common["workers"])
        else:  # wer, cer
            unit = "word" if name == "wer" else "char"
            # --normalize is one option for every metric that takes it.
            normalizer = _wer_normalizer(args)
            metric = WER(unit=unit, normalizer=normalizer, **_options(args, "wer"), **common)
        metrics[name.upper()] = metric
    return metrics


def _wer_normalizer(args: argparse.Namespace) -> Any:
    """``--normalize``, with ``--language`` naming the leaderboard's multilingual normalizer
    for that language (``open-asr-multilingual`` + ``de``: ``open-asr-multilingual-de``)."""
    normalizer = getattr(args, "bleu_normalize", None)
    language = getattr(args, "normalize_language", None)
    if language is None:
        return normalizer
    if normalizer != "open-asr-multilingual":
        raise InvalidOptionError(
            f"--language {language} picks the language of the Open ASR Leaderboard's "
            "multilingual normalizer: add --normalize open-asr-multilingual"
        )
    return f"{normalizer}-{language}"


def _options(args: argparse.Namespace, metric: str) -> dict[str, Any]:
    """A metric's options: the parser stores its constructor's argument ``NAME`` as
    ``{metric}_NAME`` (``--chrf-beta``: ``chrf_beta``, ``-lc``: ``bleu_lowercase``)."""
    prefix = metric + "_"
    return {k[len(prefix) :]: v for k, v in vars(args).items() if k.startswith(prefix)}


def make_metrics(
    args: argparse.Namespace, reporter: Reporter, references: Any = None, report: bool = True
) -> dict[str, Any]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", BleuprintWarning)
        try:
            metrics = _metric_objects(args, references)
        except InvalidOptionError as e:
            raise CliError(str(e), EXIT_USAGE) from None
        except (ImportError, BleuprintError) as e:
            # A missing optional package (MeCab, SentencePiece), or an unavailable model.
            raise CliError(str(e)) from None
    if report:
        report_warnings(reporter, caught)
    return metrics


def report_warnings(reporter: Reporter, caught: list[Any]) -> None:
    # Each system is scored separately; say each distinct thing once.
    for message in dict.fromkeys(str(w.message) for w in caught):
        reporter.warning(message)
