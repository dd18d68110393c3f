"""The parser's own ``argparse`` actions: flags, and options that store their value as
``store`` does and also note how they were given, for the checks and messages after parsing."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any, Optional, Union

from bleuprint.significance.promotion import installed_numpy_line

#: Where a repeated ``-i`` is recorded (see :class:`InputFiles`).
REPEATED_INPUT = "_repeated_input"
#: Where the deprecated option spellings used are recorded (see :class:`DeprecatedAlias`).
DEPRECATED_USED = "_deprecated_used"


def add_flags(add: Callable[..., Any], *flags: tuple[str, ...]) -> None:
    """Options that are off unless given (``store_true``), added in order with ``add`` (a
    parser's or a group's ``add_argument``): each flag is its option strings, then its help."""
    for *names, help in flags:
        add(*names, action="store_true", help=help)


class _NotingAction(argparse.Action):
    """Stores the option's values in its ``dest`` after :meth:`note` has seen the namespace
    as it was before them."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Optional[Union[str, Sequence[Any]]],
        option_string: Optional[str] = None,
    ) -> None:
        self.note(namespace, option_string)
        setattr(namespace, self.dest, values)

    def note(self, namespace: argparse.Namespace, option_string: Optional[str]) -> None:
        raise NotImplementedError


class InputFiles(_NotingAction):
    """``-i/--input``: takes every file after it. A second ``-i`` would silently replace the
    first one's files (argparse's ``store``), so it is recorded and refused by the checks."""

    def note(self, namespace: argparse.Namespace, option_string: Optional[str]) -> None:
        if getattr(namespace, self.dest) is not None:
            setattr(namespace, REPEATED_INPUT, True)


class DeprecatedAlias(_NotingAction):
    """An old option name (``--compat``) that stores into its new option's ``dest`` and is
    recorded, so that the command notes it on stderr once parsing is done."""

    def note(self, namespace: argparse.Namespace, option_string: Optional[str]) -> None:
        used = getattr(namespace, DEPRECATED_USED, None) or []
        if option_string not in used:
            used.append(option_string)
        setattr(namespace, DEPRECATED_USED, used)


__all__ = ["DEPRECATED_USED", "REPEATED_INPUT", "DeprecatedAlias", "InputFiles", "add_flags"]


class VersionInfo(argparse.Action):
    """``--version``: the version, then what the installed build's figures depend on: the
    core's build and the numpy whose scalar promotion the bootstrap replays. numpy is not
    imported for it (start-up time): its version comes from its installed metadata."""

    def __init__(self, option_strings: Sequence[str], version: str, dest: str) -> None:
        help = "show the version and build information and exit"
        super().__init__(option_strings, dest, default=argparse.SUPPRESS, nargs=0, help=help)
        self.version = version

    def __call__(self, parser: argparse.ArgumentParser, *_: Any, **__: Any) -> None:
        sys.stdout.write("\n".join([self.version, CORE_BUILD, installed_numpy_line()]) + "\n")
        parser.exit()


#: ``--version``'s line on the compiled core.
CORE_BUILD = (
    "core: Rust (PyO3), one abi3 build for CPython 3.10 and later; numpy's C API is found at "
    "run time (rust-numpy), so the build is tied to no numpy version (1.24 to 2.x load it)"
)
