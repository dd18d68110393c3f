"""Progress of long jobs: a tqdm bar on stderr, or the caller's own callback.

A ``progress=`` argument takes ``True`` (a bar), ``False`` or ``None`` (nothing), or a callable
``progress(done, total)``. The command line asks for a bar only when stderr is a terminal and
neither ``-q`` nor ``BLEUPRINT_NO_PROGRESS`` says otherwise. The bar has no colour, so
``NO_COLOR`` holds, and it erases itself when the job ends.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Optional, Union

from bleuprint.errors import InputTypeError

#: ``progress(done, total)``, called as work completes (``total`` is None when unknown).
ProgressCallback = Callable[[int, Optional[int]], None]
#: What ``progress=`` arguments take.
Progress = Union[bool, None, ProgressCallback]

#: Set (to anything but an empty string) to turn every bar off.
NO_PROGRESS_ENV = "BLEUPRINT_NO_PROGRESS"


def disabled_by_environment() -> bool:
    return bool(os.environ.get(NO_PROGRESS_ENV))


def wanted_on_terminal(quiet: bool = False) -> bool:
    """Whether the command line shows a bar: stderr is a terminal, and neither ``quiet`` nor
    ``BLEUPRINT_NO_PROGRESS`` turns it off."""
    try:
        tty = sys.stderr is not None and sys.stderr.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        tty = False
    return tty and not quiet and not disabled_by_environment()


def reporter(
    progress: Progress, *, total: Optional[int], what: str, unit: str
) -> Optional[ProgressCallback]:
    """The callback for a ``progress=`` value: ``None`` for no progress, the caller's own
    callable, or for ``True`` a bar of ``total`` ``unit``s (a counter with a rate when the total
    is unknown) headed ``bleuprint: what``."""
    if progress is None or progress is False:
        return None
    if progress is True:
        return None if disabled_by_environment() else _bar(total, what, unit)
    if callable(progress):
        return progress
    raise InputTypeError(
        f"progress must be True, False, None or a callable progress(done, total), got "
        f"{type(progress).__name__}"
    )


#: Seconds a job runs before its bar appears: loading tqdm takes tens of milliseconds, so a
#: bar that appears only after this keeps its cost under 1% of any job that shows one.
BAR_DELAY = 4.0


def _bar(total: Optional[int], what: str, unit: str) -> ProgressCallback:
    started = time.monotonic()
    shown: list[ProgressCallback] = []

    def update(done: int, total: Optional[int]) -> None:
        if not shown:
            if time.monotonic() - started < BAR_DELAY:
                return
            shown.append(_tqdm_bar(total, what, unit))
        shown[0](done, total)

    return update


def _tqdm_bar(total: Optional[int], what: str, unit: str) -> ProgressCallback:
    from tqdm import tqdm

    bar = tqdm(
        total=total, desc=f"bleuprint: {what}", unit=f" {unit}", file=sys.stderr,
        leave=False, dynamic_ncols=True,
    )  # fmt: skip

    def update(done: int, total: Optional[int]) -> None:
        bar.update(done - bar.n)
        if total is not None and done >= total:
            bar.close()

    return update


__all__ = [
    "NO_PROGRESS_ENV",
    "Progress",
    "ProgressCallback",
    "disabled_by_environment",
    "reporter",
    "wanted_on_terminal",
]
