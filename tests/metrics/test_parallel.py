"""Threads: identical results for every `workers` value, and no deadlock after fork()."""

from __future__ import annotations

import os
import sys

import pytest

from bleuprint import BLEU

HYPS = [f"the cat {i % 13} sat on the mat number {i % 7}." for i in range(500)]
REFS = [[f"the cat {i % 11} is on the mat number {i % 5}." for i in range(500)]]


def test_worker_counts_agree():
    expected = BLEU(workers=1).stats(HYPS, REFS)
    for workers in (-1, 2, 4):
        assert BLEU(workers=workers).stats(HYPS, REFS) == expected


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_child_after_fork_scores_without_deadlock():
    # The parent's thread pool does not survive fork(); the child must fall back to serial
    # work instead of waiting forever on threads that no longer exist.
    expected = BLEU(workers=-1).stats(HYPS, REFS).score().score  # pool now exists in the parent
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read_end)
        try:
            import signal

            signal.alarm(20)  # a deadlock ends the child instead of hanging the suite
            score = BLEU(workers=-1).stats(HYPS, REFS).score().score
            os.write(write_end, repr(score).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        got = pipe.read().decode()
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status), f"child ended abnormally: {status}"
    assert got == repr(expected), f"child printed {got!r} ({sys.platform})"
