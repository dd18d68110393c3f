"""The parser's own ``argparse`` actions: flags, and options that store their value as
``store`` does and also note how they were given, for the checks and messages after parsing."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any, Optional, Union

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
