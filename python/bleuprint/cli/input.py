"""The command's input: reference files (or one file with -nr tab-separated references),
system outputs from files or standard input, and the checks that they line up.

Files follow sacrebleu's line rules (see :func:`bleuprint.io.read_lines`); a failure is one
line naming the file, never a traceback.
"""

from __future__ import annotations

import argparse
import sys

from bleuprint.cli.checks import paired
from bleuprint.cli.errors import EXIT_FIELDS, EXIT_USAGE, CliError, Reporter
from bleuprint.errors import InputDecodeError
from bleuprint.io import read_lines, read_stream_lines


def _read_file(path: str, encoding: str) -> list[str]:
    try:
        return read_lines(path, encoding)
    except InputDecodeError as e:
        raise CliError(f"cannot decode {e}") from None
    except OSError as e:
        reason = e.strerror or str(e)
        raise CliError(f"cannot read {path}: {reason}") from None


def read_references(args: argparse.Namespace) -> tuple[list[list[str]], list[str]]:
    """The reference streams and, for messages, the file each stream came from."""
    if args.num_refs == 1:
        return [_read_file(path, args.encoding) for path in args.refs], list(args.refs)
    n = args.num_refs
    path = args.refs[0]
    rows = [line.split("\t", n - 1) for line in _read_file(path, args.encoding)]
    for lineno, fields in enumerate(rows, 1):
        if len(fields) != n:
            raise CliError(
                f"FATAL: line {lineno}: expected {n} fields, but found {len(fields)}. ({path})",
                EXIT_FIELDS,
            )
    streams = [list(stream) for stream in zip(*rows)] if rows else [[] for _ in range(n)]
    return streams, [f"{path} (field {k + 1})" for k in range(n)]


def read_systems(args: argparse.Namespace, reporter: Reporter) -> tuple[list[list[str]], list[str]]:
    """The system outputs and their names (paths, or ``System N`` for stdin fields). In a
    paired test, a file given again as the baseline is skipped, as in sacrebleu."""
    if args.input is not None:
        return _read_system_files(args, reporter)
    return _read_stdin_systems(args.encoding)


def _read_system_files(
    args: argparse.Namespace, reporter: Reporter
) -> tuple[list[list[str]], list[str]]:
    names: list[str] = []
    systems = []
    for path in args.input:
        if names and path == names[0] and paired(args):
            reporter.info(f"Ignoring {path!r} as it was also given as the baseline.")
            continue
        if path in names:
            raise CliError(
                f"{path!r} is given twice to -i/--input; every system needs a different file name",
                EXIT_USAGE,
            )
        systems.append(_read_file(path, args.encoding))
        names.append(path)
    return systems, names


def _read_stdin_systems(encoding: str) -> tuple[list[list[str]], list[str]]:
    """Standard input: one system, or tab-separated fields that are separate systems."""
    if sys.stdin is None:
        lines: list[str] = []
    else:
        try:
            lines = read_stream_lines(sys.stdin.buffer, encoding, "<stdin>")
        except InputDecodeError as e:
            raise CliError(f"cannot decode {e}") from None
    # sacrebleu reads the first line with readline(), so empty input is one empty segment.
    first = lines[0] if lines else ""
    # sacrebleu: the first line's fields are not rstripped one by one, later lines' are.
    fields = first.rstrip().split("\t")
    num_sys = len(fields)
    if num_sys == 1:
        stripped = [line.rstrip() for line in lines] if lines else [""]
        if "\t" not in "\n".join(stripped):  # the common case: one system, checked in C
            return [stripped], ["System 1"]
    systems: list[list[str]] = [[f] for f in fields]
    for lineno, line in enumerate(lines[1:], 2):
        fields = line.rstrip().split("\t")
        if len(fields) != num_sys:
            raise CliError(
                "FATAL: the number of tab-delimited fields in the input stream differ across "
                f"lines (line 1 has {num_sys}, line {lineno} has {len(fields)})",
                EXIT_FIELDS,
            )
        for stream, sent in zip(systems, fields):
            stream.append(sent.rstrip())
    return systems, [f"System {i + 1}" for i in range(num_sys)]


def check_lengths(
    systems: list[list[str]],
    names: list[str],
    refs: list[list[str]],
    ref_names: list[str],
    from_stdin: bool,
) -> None:
    for system, name in zip(systems, names):
        label = f"standard input ({name})" if from_stdin and len(systems) > 1 else name
        if from_stdin and len(systems) == 1:
            label = "standard input"
        if not system:
            raise CliError(f"the system output {label} is empty: nothing to score")
        for ref, ref_name in zip(refs, ref_names):
            if len(ref) != len(system):
                raise CliError(
                    "System and reference streams have different lengths: "
                    f"{label} has {_lines(len(system))}, {ref_name} has {_lines(len(ref))}"
                )


def _lines(n: int) -> str:
    return f"{n} line" if n == 1 else f"{n} lines"
