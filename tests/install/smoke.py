"""Smoke tests of an installed bleuprint, such as a wheel in a fresh venv. Run them with that
environment's interpreter, from any directory::

    VENV/bin/python tests/install/smoke.py

They check that bleuprint and its compiled core load from that environment's site-packages (not
from a repository's editable install), score the README's three segments with every metric
family against the figures the README prints, run the metrics serially and in parallel, and run
the ``bleuprint`` console script. Then they print the figures as JSON, which
tests/install/test_wheel.py compares with the development build's (``==``: floats round-trip
through JSON exactly). A failed check exits non-zero with its message.

Only bleuprint and its own dependencies are imported: no test package is beside it there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

import bleuprint
from bleuprint._core import _ext

# The README's example (its Python API section).
HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
]

# The figures the README prints for them (tests/test_docs.py checks those on the development
# build), and the BLEU statistics' rows.
PRINTED = {
    "bleu": "BLEU = 48.53 82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)",
    "chrf": "chrF2 = 59.73",
    "chrf++": "chrF2++ = 59.15",
    "ter": "TER = 40.00",
    "wer": "WER = 40.00",
    "sentence_bleu": 100.00000000000004,
    "rougeL": 0.6388888888888888,
    "bleu_stats": [
        [6, 6, 6, 5, 4, 3, 6, 5, 4, 3],
        [4, 5, 2, 0, 0, 0, 4, 3, 2, 1],
        [7, 7, 6, 2, 1, 0, 7, 6, 5, 4],
    ],
}


def scores() -> dict[str, Any]:
    """Every figure the smoke tests check, as JSON values."""
    bleu = bleuprint.BLEU()
    bleu_score = bleu.corpus_score(HYPS, REFS)
    rouge = bleuprint.ROUGE(["rouge1", "rouge2", "rougeL"], use_stemmer=True)
    rouge_score = rouge.corpus_score(HYPS, REFS)
    return {
        "bleu": str(bleu_score),
        "bleu_score": bleu_score.score,
        "bleu_signature": str(bleu.get_signature()),
        "bleu_intl": bleuprint.corpus_bleu(HYPS, REFS, tokenize="intl").score,
        "bleu_zh": bleuprint.corpus_bleu(HYPS, REFS, tokenize="zh").score,
        "bleu_stats": np.asarray(bleu.stats(HYPS, REFS)).tolist(),
        "sentence_bleu": bleuprint.sentence_bleu(HYPS[0], ["The dog bit the man."]).score,
        "sentence_bleus": bleuprint.BLEU(effective_order=True).sentence_scores(HYPS, REFS).tolist(),
        "chrf": str(bleuprint.corpus_chrf(HYPS, REFS)),
        "chrf_score": bleuprint.corpus_chrf(HYPS, REFS).score,
        "chrf++": str(bleuprint.corpus_chrf(HYPS, REFS, word_order=2)),
        "sentence_chrfs": bleuprint.CHRF().sentence_scores(HYPS, REFS).tolist(),
        "ter": str(bleuprint.corpus_ter(HYPS, REFS)),
        "ter_score": bleuprint.corpus_ter(HYPS, REFS).score,
        "wer": str(bleuprint.corpus_wer(HYPS, REFS)),
        "wer_score": bleuprint.corpus_wer(HYPS, REFS).score,
        "cer_score": bleuprint.corpus_cer(HYPS, REFS).score,
        "rouge": {
            name: [s.precision, s.recall, s.fmeasure] for name, s in rouge_score.scores.items()
        },
        "rougeL": rouge_score.scores["rougeL"].fmeasure,
    }


def _check(ok: bool, message: str) -> None:
    if not ok:  # not `assert`: the checks hold under `python -O` too
        raise SystemExit(f"smoke test failed: {message}")


def _check_loaded_from_site_packages() -> None:
    site = {Path(sysconfig.get_path(key)).resolve() for key in ("purelib", "platlib")}
    package = Path(bleuprint.__file__).resolve().parent
    _check(package.parent in site, f"bleuprint is imported from {package}, not {sorted(site)}")
    core = Path(_ext.__file__).resolve()
    _check(core.parent == package / "_core", f"the compiled core is {core}, outside {package}")


def _check_figures(figures: dict[str, Any]) -> None:
    for key, printed in PRINTED.items():
        _check(figures[key] == printed, f"{key} is {figures[key]!r}, the README prints {printed!r}")
    metrics = {
        "BLEU": partial(bleuprint.BLEU, effective_order=True),
        "chrF": bleuprint.CHRF,
        "TER": bleuprint.TER,
        "WER": bleuprint.WER,
    }
    for name, metric in metrics.items():
        serial = metric(workers=1).sentence_scores(HYPS, REFS).tolist()
        parallel = metric(workers=-1).sentence_scores(HYPS * 50, [r * 50 for r in REFS])
        _check(parallel.tolist() == serial * 50, f"{name}: the number of workers changes scores")


def _check_console_script() -> None:
    name = "bleuprint.exe" if os.name == "nt" else "bleuprint"
    script = Path(sysconfig.get_path("scripts")) / name
    _check(script.is_file(), f"no console script at {script}")
    out = subprocess.run(
        [str(script), "--version"], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    first = out.splitlines()[0] if out else ""
    _check(first == f"bleuprint {bleuprint.__version__}", f"`bleuprint --version` printed {out!r}")


def main() -> None:
    _check_loaded_from_site_packages()
    figures = scores()
    _check_figures(figures)
    _check_console_script()
    report = {"version": bleuprint.__version__, "numpy": np.__version__, "scores": figures}
    json.dump(report, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
