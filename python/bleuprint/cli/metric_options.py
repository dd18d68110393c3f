"""The metrics' option groups of the ``bleuprint`` parser: BLEU, chrF, TER, the WER family,
ROUGE and CIDEr-D."""

from __future__ import annotations

import argparse

from bleuprint.cli.actions import add_flags
from bleuprint.metrics.bleu import SMOOTH_DEFAULTS
from bleuprint.metrics.chrf import CHRF
from bleuprint.metrics.chrf import MAX_ORDER as MAX_CHRF_ORDER
from bleuprint.metrics.cider import DEFAULT_TOKENIZER as CIDER_TOKENIZER
from bleuprint.metrics.rouge import DEFAULT_TOKENIZER, ROUGE_TYPES
from bleuprint.tokenizers import ALL_TOKENIZERS, NORMALIZATIONS
from bleuprint.tokenizers.whisper import OPEN_ASR_LANGUAGES as NUMBER_LANGUAGES


def add_bleu_options(parser: argparse.ArgumentParser) -> None:
    bleu = parser.add_argument_group("BLEU related arguments")
    bleu.add_argument(
        "--smooth-method", "-s", choices=list(SMOOTH_DEFAULTS), default="exp",
        dest="bleu_smooth_method",
        help="Smoothing method: exponential decay (exp), floor (increment zero counts), add-k "
        "(increment numerators and denominators by k for n > 1), or none "
        "(default: %(default)s).",
    )  # fmt: skip
    bleu.add_argument(
        "--smooth-value", "-sv", type=float, default=None, dest="bleu_smooth_value",
        help="The smoothing value; only used by floor and add-k (defaults: floor "
        f"{SMOOTH_DEFAULTS['floor']}, add-k {SMOOTH_DEFAULTS['add-k']}).",
    )  # fmt: skip
    bleu.add_argument(
        "--tokenize", "-tok", choices=list(ALL_TOKENIZERS), default=None,
        dest="bleu_tokenize",
        help="Tokenizer: 13a (mteval-v13a; the default, except that -l picks zh, ja-mecab or "
        "ko-mecab for those targets), intl (mteval-v14 international), char, none, zh "
        "(Chinese), ja-mecab (Japanese; pip install 'bleuprint[ja]'), ko-mecab (Korean; "
        "'bleuprint[ko]'), flores200, flores101, spBLEU-1K, spm (SentencePiece; "
        "'bleuprint[spm]'), ptb (pycocoevalcap's Stanford PTB tokenizer, lowercased, "
        "punctuation dropped; reads the jar pycocoevalcap ships, no Java). With the default "
        "tokenizer, text that looks Chinese, Japanese or Korean gets a warning.",
    )  # fmt: skip
    bleu.add_argument(
        "--spm-model", default=None, dest="bleu_spm_model", metavar="PATH",
        help="SentencePiece model file for spm/flores101/flores200/spBLEU-1K. Default: the "
        "published model, downloaded once into the cache directory ($BLEUPRINT_CACHE, else "
        "~/.cache/bleuprint).",
    )  # fmt: skip
    bleu.add_argument(
        "--normalize", choices=NORMALIZATIONS, default=None, dest="bleu_normalize",
        help="Normalize hypotheses and references first, for BLEU, WER and CER (off by default, "
        "as in sacrebleu): nfc or nfkc (Unicode), whisper-basic or whisper-english "
        "(openai-whisper 20250625's text normalizers, as speech evaluation applies them), "
        "whisper-normalizer-english or whisper-normalizer-basic-marks (the whisper-normalizer "
        "0.1.15 package's variants: four more contractions; marks kept, for Indic scripts), "
        "open-asr-en or open-asr-multilingual (the Open ASR Leaderboard's, at its git "
        "revision; with --language XX, digits spelled in that language). Recorded in the "
        "signature, with the upstream's version: norm:whisper-english@20250625.",
    )  # fmt: skip
    bleu.add_argument(
        "--lowercase", "-lc", action="store_true", dest="bleu_lowercase",
        help="Case-insensitive BLEU: lowercase hypotheses and references.",
    )  # fmt: skip
    bleu.add_argument(
        "--force", action="store_true", dest="bleu_force",
        help="Do not warn when the system output looks tokenized already.",
    )  # fmt: skip


def add_chrf_options(parser: argparse.ArgumentParser) -> None:
    chrf = parser.add_argument_group("chrF related arguments")
    chrf.add_argument(
        "--chrf-char-order", "-cc", type=int, default=CHRF.CHAR_ORDER,
        help=f"Character n-gram order, 0 to {MAX_CHRF_ORDER} (default: %(default)s).",
    )  # fmt: skip
    chrf.add_argument(
        "--chrf-word-order", "-cw", type=int, default=CHRF.WORD_ORDER,
        help=f"Word n-gram order, 0 to {MAX_CHRF_ORDER} (default: %(default)s); 2 gives chrF++.",
    )  # fmt: skip
    chrf.add_argument(
        "--chrf-beta", type=int, default=CHRF.BETA,
        help="Weight of recall against precision (default: %(default)s).",
    )  # fmt: skip
    add_flags(
        chrf.add_argument,
        ("--chrf-whitespace", "Include whitespace in character n-grams."),
        ("--chrf-lowercase", "Case-insensitive chrF."),
        (
            "--chrf-eps-smoothing",
            "Average per-order F-scores with eps smoothing (chrF++.py, NLTK, Moses) instead of "
            "the effective-order average.",
        ),
    )


def add_ter_options(parser: argparse.ArgumentParser) -> None:
    add_flags(
        parser.add_argument_group("TER related arguments").add_argument,
        ("--ter-case-sensitive", "Case-sensitive TER (TER lowercases by default)."),
        (
            "--ter-asian-support",
            "With --ter-normalized, split CJK characters; with --ter-no-punct, also remove CJK "
            "and full-width punctuation.",
        ),
        ("--ter-no-punct", "Remove punctuation."),
        ("--ter-normalized", "Tercom normalization: split punctuation, unescape XML entities."),
    )


def add_wer_options(parser: argparse.ArgumentParser) -> None:
    wer = parser.add_argument_group(
        "WER and CER related arguments (bleuprint only; jiwer's numbers, see docs/wer.md)"
    )
    wer.add_argument(
        "--wer-transform", choices=["default", "standardize", "none"], default="default",
        help="Text clean-up, the same on both sides: default (the default; jiwer's "
        "wer_default/cer_default: strip, split on spaces and whitespace runs), standardize "
        "(jiwer's wer_standardize: also lowercase, expand contractions, drop Kaldi non-words) "
        "or none (no clean-up).",
    )  # fmt: skip
    add_flags(
        wer.add_argument,
        ("--wer-lowercase", "Case-insensitive WER/CER."),
        ("--wer-remove-punctuation", "Delete Unicode punctuation (categories P*) before scoring."),
        ("--wer-expand-contractions", "Expand English contractions (won't -> will not)."),
        ("--wer-remove-kaldi-non-words", "Drop Kaldi non-words such as [noise] and <unk>."),
    )
    wer.add_argument(
        "--merge-compounds", action="store_true", dest="wer_merge_compounds",
        help="kaldialign's merge_compounds: adjacent words of either side, joined, match one "
        "word of the other at no cost (white paper / whitepaper). Words only; aligns with "
        "kaldialign 0.12.0. The Open ASR Leaderboard's WER: --normalize open-asr-en "
        "--merge-compounds.",
    )  # fmt: skip
    wer.add_argument(
        "--sclite-mode", action="store_true", dest="wer_sclite_mode",
        help="kaldialign's sclite costs (insertion 3, deletion 3, substitution 4).",
    )  # fmt: skip
    wer.add_argument(
        "--compound-pairs", action="store_true", dest="wer_compound_pairs",
        help="The Open ASR Leaderboard's compound-pair pass (its multilingual scoring): where "
        "a pair differs in a region that spells the same characters once joined, both sides "
        "get the joined word. With kaldialign. The leaderboard's multilingual WER: --normalize "
        "open-asr-multilingual --language XX --merge-compounds --compound-pairs.",
    )  # fmt: skip
    wer.add_argument(
        "--language", default=None, metavar="XX", choices=NUMBER_LANGUAGES,
        dest="normalize_language",
        help="With --normalize open-asr-multilingual: the language its digits are spelled in "
        "(num2words 0.5.14), as the leaderboard's MultilingualNormalizer(lang=XX): "
        + ", ".join(NUMBER_LANGUAGES) + ". Without it, digits stay digits.",
    )  # fmt: skip


def add_rouge_options(parser: argparse.ArgumentParser) -> None:
    rouge = parser.add_argument_group(
        "ROUGE related arguments (rouge-score 0.1.2's numbers, see docs/rouge.md)"
    )
    rouge.add_argument(
        "--rouge-types", nargs="+", default=list(ROUGE_TYPES), dest="rouge_rouge_types",
        metavar="TYPE",
        help="rouge1 ... rouge9 (n-grams), rougeL (longest common subsequence), rougeLsum (the "
        "same over newline-separated sentences); the score is the first type's F-measure x 100 "
        "(default: %(default)s).",
    )  # fmt: skip
    rouge.add_argument(
        "--rouge-tokenize", choices=[DEFAULT_TOKENIZER, *ALL_TOKENIZERS], default=DEFAULT_TOKENIZER,
        dest="rouge_tokenizer",
        help="rouge (rouge-score's: lowercase, runs of a-z and 0-9, so other scripts score 0) or "
        "a bleuprint tokenizer, after lowercasing (default: %(default)s).",
    )  # fmt: skip
    rouge.add_argument(
        "--stem", "--rouge-stem", action="store_true", dest="rouge_use_stemmer",
        help="nltk's Porter stemmer on tokens longer than 3 characters (rouge-score's "
        "use_stemmer).",
    )  # fmt: skip


def add_cider_options(parser: argparse.ArgumentParser) -> None:
    cider = parser.add_argument_group(
        "CIDEr-D related arguments (pycocoevalcap 1.2's numbers, see docs/captioning.md)"
    )
    cider.add_argument(
        "--cider-tokenize", choices=[CIDER_TOKENIZER, *ALL_TOKENIZERS], default=CIDER_TOKENIZER,
        dest="cider_tokenize",
        help="none (split on whitespace, as pycocoevalcap's scorers read captions its tokenizer "
        "has tokenized), ptb (that tokenizer first: the Stanford jar's rules, read from a "
        "stanford-corenlp-3.4.1.jar) or another bleuprint tokenizer (default: %(default)s).",
    )  # fmt: skip
    cider.add_argument(
        "--cider-lowercase", action="store_true", dest="cider_lowercase",
        help="Lowercase captions and references first (the ptb tokenizer lowercases anyway).",
    )  # fmt: skip
    cider.add_argument(
        "--cider-sigma", type=float, default=6.0, dest="cider_sigma", metavar="SIGMA",
        help="The length penalty's standard deviation (default: %(default)s).",
    )  # fmt: skip
    cider.add_argument(
        "--cider-ngram-order", type=int, default=4, dest="cider_max_ngram_order", metavar="N",
        help="N-gram orders 1..N (default: %(default)s).",
    )  # fmt: skip
