"""Ctrl-C and raising signal handlers interrupt a long core call within about a second, as the
exception they raise, never as a PanicException. Each case runs in a fresh subprocess, so the
interrupted call is also the process's first core call, the one that loads numpy and
rust-numpy's array API (``import bleuprint`` loads neither)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or not hasattr(signal, "SIGALRM"), reason="needs POSIX signals"
)

# A call that takes far longer than the test waits: TER of many 100-word segments (on all cores
# or on the calling thread alone), or one very long line for TER or WER (a single long kernel
# call, which polls the flag itself).
_SETUP = """
import random, sys, time
import bleuprint
rng = random.Random(0)
words = [f"w{i}" for i in range(50)]
def line(n):
    return " ".join(rng.choice(words) for _ in range(n))
kind = sys.argv[1]
if kind == "ter":
    hyps = [line(100) for _ in range(20000)]
    refs = [[line(100) for _ in range(20000)]]
    call = lambda: bleuprint.corpus_ter(hyps, refs)
elif kind == "ter-rows":
    hyps = [line(100) for _ in range(20000)]
    refs = [[line(100) for _ in range(20000)]]
    call = lambda: bleuprint.TER(workers=1).corpus_score(hyps, refs)
elif kind == "ter-line":
    hyps = [line(100000)]
    refs = [[line(100000)]]
    call = lambda: bleuprint.TER(workers=1).corpus_score(hyps, refs)
else:
    hyps = [line(200000)]
    refs = [[line(200000)]]
    call = lambda: bleuprint.corpus_wer(hyps, refs, workers=1)
"""

_ON_SIGINT = (
    _SETUP
    + """
print("ready", flush=True)
try:
    call()
    print("finished", flush=True)
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
"""
)

_ON_ALARM = (
    _SETUP
    + """
import signal
class Timeout(Exception):
    pass
def on_alarm(signum, frame):
    raise Timeout()
signal.signal(signal.SIGALRM, on_alarm)
start = time.monotonic()
signal.alarm(1)
try:
    call()
    print("finished", flush=True)
except Timeout:
    print(f"Timeout after {time.monotonic() - start:.3f}", flush=True)
"""
)

# A parallel loop (the calling thread waits), a serial row loop, and single long lines.
KINDS = ["ter", "ter-rows", "ter-line", "wer"]


def _run(script: str, kind: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", script, kind],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONFAULTHANDLER": "1"},
    )


@pytest.mark.parametrize("kind", KINDS)
def test_sigint_raises_keyboard_interrupt_promptly(kind: str) -> None:
    child = _run(_ON_SIGINT, kind)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        line = child.stdout.readline().strip()
        latency = time.monotonic() - sent
        _, stderr = child.communicate(timeout=60)
    finally:
        child.kill()
    assert line == "KeyboardInterrupt", stderr
    assert latency < 1.5, f"KeyboardInterrupt {latency:.2f} s after SIGINT"
    assert "PanicException" not in stderr
    assert child.returncode == 0, stderr


@pytest.mark.parametrize("kind", KINDS)
def test_raising_alarm_handler_comes_out_as_its_exception(kind: str) -> None:
    child = _run(_ON_ALARM, kind)
    try:
        stdout, stderr = child.communicate(timeout=120)
    finally:
        child.kill()
    assert stdout.startswith("Timeout after "), stdout + stderr
    elapsed = float(stdout.split()[-1])
    assert elapsed < 2.5, f"alarm after 1 s surfaced after {elapsed:.2f} s"
    assert "PanicException" not in stderr


# A KeyboardInterrupt already pending when a core call makes or reads the process's first numpy
# array, with numpy not yet loaded (the call imports it) or loaded by the caller (then only
# rust-numpy's own set-up, which runs numpy's version check in Python, is left). map() calls
# interrupt_main and the core function from C, so no Python code runs between the two.
_PENDING = """
import _thread, operator, sys
from functools import partial
import bleuprint
from bleuprint import _core
# The kernels make no array: numpy stays unloaded until the core call below.
bleu = _core.BleuKernel(tokenizer="13a", max_order=4)
wer = _core.WerKernel(unit="word")
ter = _core.TerKernel()
assert "numpy" not in sys.modules
if sys.argv[1] == "numpy-loaded":
    import numpy as np
    rows = np.zeros((3, 10), dtype=np.int64)
kind = sys.argv[2]
if kind == "stats-bleu":
    call = partial(_core.stats, bleu, ["a b c"], [["a b d"]])
elif kind == "stats-wer":
    call = partial(_core.stats, wer, ["a b c"], [["a b d"]])
elif kind == "scores-bleu":
    call = partial(_core.scores, bleu, rows)
elif kind == "bootstrap_sums-int64":
    call = partial(_core.bootstrap_sums, rows, np.zeros((2, 3), dtype=np.int64))
elif kind == "resampled_scores-ter":
    call = partial(_core.resampled_scores, ter, np.ones((2, 2), dtype=np.float32), promotion="weak")
try:
    list(map(operator.methodcaller("__call__"), [_thread.interrupt_main, call]))
    print("finished")
except KeyboardInterrupt:
    print("KeyboardInterrupt")
"""

PENDING_CASES = [
    ("numpy-unloaded", "stats-bleu"),
    ("numpy-unloaded", "stats-wer"),
    ("numpy-loaded", "stats-bleu"),
    ("numpy-loaded", "scores-bleu"),
    ("numpy-loaded", "bootstrap_sums-int64"),
    ("numpy-loaded", "resampled_scores-ter"),
]


@pytest.mark.parametrize(("numpy", "call"), PENDING_CASES)
def test_interrupt_pending_at_the_first_array_is_keyboard_interrupt(numpy: str, call: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PENDING, numpy, call],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "PanicException" not in done.stderr, done.stderr
    assert done.stdout.strip() == "KeyboardInterrupt", done.stdout + done.stderr
    assert done.returncode == 0, done.stderr
