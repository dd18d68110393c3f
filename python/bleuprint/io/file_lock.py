"""An exclusive lock across processes on a file beside what a download writes (SentencePiece
models, test sets): two runs never download the same file at once."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Optional


@contextmanager
def file_lock(path: Path, on_wait: Optional[Callable[[], None]] = None) -> Iterator[None]:
    """Holds an exclusive ``flock`` on ``path`` (created if missing) while the block runs;
    ``on_wait()`` runs first when another process holds it. flock locks belong to the open
    file, so threads exclude each other too. The lock file stays: unlinking it would let two
    processes lock different inodes. Without fcntl (Windows) nothing is locked, and only the
    callers' atomic renames protect concurrent downloads."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait is not None:
                on_wait()
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


__all__ = ["file_lock"]
