"""How the command fails: exit statuses, the expected-failure exception, the library's errors
as the command's, and stderr messages."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

from bleuprint.errors import BleuprintError

PROG = "bleuprint"

# Exit statuses.
EXIT_ERROR = 1  # unreadable input, line count mismatch, empty system
EXIT_USAGE = 2  # bad or unsupported options (argparse uses 2 as well)
EXIT_FIELDS = 17  # a tab-separated line with the wrong number of fields (as sacrebleu)
EXIT_INTERRUPTED = 130  # Ctrl-C: 128 + SIGINT, as shells report it


class CliError(Exception):
    """An expected failure: one line on stderr, then ``sys.exit(code)``."""

    def __init__(self, message: str, code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class Reporter:
    """Messages on stderr, prefixed ``bleuprint:`` (sacrebleu's are ``sacreBLEU:``)."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet

    def info(self, message: str) -> None:
        if not self.quiet:
            self.write(message)

    @staticmethod
    def warning(message: str) -> None:
        Reporter.write(message)

    @staticmethod
    def write(message: str) -> None:
        if sys.stderr is not None:
            sys.stderr.write(f"{PROG}: {message}\n")
            sys.stderr.flush()


@contextmanager
def library_errors() -> Iterator[None]:
    """The library's errors and unreadable files as the command's one-line messages (status
    1), for the subcommands that fail only that way (``explain``, ``mbr``, ``report``, ...)."""
    try:
        yield
    except (BleuprintError, OSError) as e:
        raise CliError(str(e)) from None


@contextmanager
def catching_test_set_errors() -> Iterator[None]:
    """The test sets' errors (an unknown pair, a failed download, a damaged archive) as the
    command's one-line messages."""
    try:
        yield
    except BleuprintError as e:
        raise CliError(str(e)) from None
    except OSError as e:
        raise CliError(f"test set: {e.strerror or e}") from None


def fail(message: str, code: int) -> NoReturn:
    """One line on stderr, then exit with ``code``."""
    Reporter.warning(message)
    sys.exit(code)
