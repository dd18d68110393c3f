"""Shared fixtures: the WMT22 data in ../shared (skipped cleanly when absent); shared checks."""

from __future__ import annotations

import os
import signal
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from bleuprint.metrics.functional_wer import corpus_cer, corpus_wer

# CI draws the same examples on every run, so a red build is reproducible rather than a coin
# toss; on a developer's machine hypothesis explores new examples each time.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# A suite started in the background by a script (`make check &`) inherits SIGINT ignored, and
# so would every process the Ctrl-C tests start (an ignored signal stays ignored across exec):
# give this process Python's handler back, which exec resets to the default for the children.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

WMT22 = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wmt22"


def read_lines(path: Path) -> list[str]:
    """Lines as sacrebleu's file reader sees them: split on "\\n" only (data holds U+2028)."""
    with path.open(encoding="utf-8", newline="") as f:  # no newline translation, like sacrebleu
        text = f.read()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


@pytest.fixture(scope="session")
def wmt22() -> Path:
    if not (WMT22 / "system-outputs").is_dir():
        pytest.skip("../shared/data/wmt22 is not available")
    return WMT22


def wmt22_systems(root: Path) -> list[tuple[str, str, Path]]:
    """(pair, system, path) for every system output, sorted."""
    out = []
    for path in sorted((root / "system-outputs").iterdir()):
        # generaltest2022.<pair>.hyp.<system>.<lang>
        stem = path.name[len("generaltest2022.") :]
        pair, rest = stem.split(".hyp.", 1)
        system = rest.rsplit(".", 1)[0]
        out.append((pair, system, path))
    return out


def wmt22_references(root: Path, pair: str) -> dict[str, Path]:
    """Reference name (A, B, C, stud) -> path, for one language pair."""
    refs = {}
    for path in sorted((root / "references").glob(f"generaltest2022.{pair}.ref.*")):
        name = path.name.split(".ref.", 1)[1].rsplit(".", 1)[0]
        refs[name] = path
    return refs


def assert_native_wer_equals_jiwer(
    hypothesis: list[str], reference: list[str], words: Any, chars: Any
) -> None:
    """The native ``corpus_wer``/``corpus_cer`` equal jiwer's ``process_words`` (``words``) and
    ``process_characters`` (``chars``) output: every measure and count."""
    native = corpus_wer(hypothesis, [reference])
    assert (native.wer, native.mer, native.wil, native.wip) == (
        words.wer,
        words.mer,
        words.wil,
        words.wip,
    )
    assert (native.hits, native.substitutions, native.deletions, native.insertions) == (
        words.hits,
        words.substitutions,
        words.deletions,
        words.insertions,
    )
    assert corpus_cer(hypothesis, [reference]).cer == chars.cer


def outcome(
    fn: Callable[..., Any], *args: Any, **kwargs: Any
) -> tuple[Any, list[tuple[type[Warning], str]]]:
    """The value (or the exception) and the warnings of one call, for comparing two tools."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = fn(*args, **kwargs)
        except Exception as error:
            value = error
    return value, [(w.category, str(w.message)) for w in caught]


def run_cli_in_process(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``bleuprint`` run in this process: (exit status, stdout, stderr)."""
    from bleuprint.cli import main

    try:
        code = main(argv)
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
