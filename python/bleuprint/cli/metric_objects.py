"""The metric objects the command's options describe, one per ``-m`` name."""

from __future__ import annotations

import argparse
import warnings
from typing import Any

from bleuprint.cli.errors import EXIT_USAGE, CliError, Reporter
from bleuprint.errors import BleuprintError, BleuprintWarning, InvalidOptionError
from bleuprint.metrics.bleu import BLEU
from bleuprint.metrics.chrf import CHRF
from bleuprint.metrics.ter import TER
from bleuprint.metrics.wer import WER


def core_workers(args: argparse.Namespace) -> int:
    """Core threads from -j: 0 or unset means every core (``-1``)."""
    return -1 if not args.paired_jobs else int(args.paired_jobs)


def _metric_objects(args: argparse.Namespace, references: Any) -> dict[str, Any]:
    """One metric object per ``-m`` name (upper-case keys, first occurrence first)."""
    trg_lang = args.langpair.split("-")[1] if args.langpair else ""
    workers = core_workers(args)
    metrics: dict[str, Any] = {}
    for name in dict.fromkeys(args.metrics):
        if name == "bleu":
            metrics["BLEU"] = BLEU(
                lowercase=args.bleu_lowercase,
                force=args.bleu_force,
                tokenize=args.bleu_tokenize,
                smooth_method=args.bleu_smooth_method,
                smooth_value=args.bleu_smooth_value,
                effective_order=args.sentence_level,
                trg_lang=trg_lang,
                references=references,
                workers=workers,
                normalize=args.bleu_normalize,
                spm_model=args.bleu_spm_model,
            )
        elif name == "chrf":
            metrics["CHRF"] = CHRF(
                char_order=args.chrf_char_order,
                word_order=args.chrf_word_order,
                beta=args.chrf_beta,
                lowercase=args.chrf_lowercase,
                whitespace=args.chrf_whitespace,
                eps_smoothing=args.chrf_eps_smoothing,
                references=references,
                workers=workers,
            )
        elif name in ("wer", "cer"):
            metrics[name.upper()] = WER(
                unit="word" if name == "wer" else "char",
                transform=args.wer_transform,
                lowercase=args.wer_lowercase,
                remove_punctuation=args.wer_remove_punctuation,
                expand_contractions=args.wer_expand_contractions,
                remove_kaldi_non_words=args.wer_remove_kaldi_non_words,
                references=references,
                workers=workers,
            )
        elif name == "ter":
            metrics["TER"] = TER(
                normalized=args.ter_normalized,
                no_punct=args.ter_no_punct,
                asian_support=args.ter_asian_support,
                case_sensitive=args.ter_case_sensitive,
                references=references,
                workers=workers,
            )
    return metrics


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
