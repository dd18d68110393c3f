"""How the command line's results look: sacrebleu's tables, aligned score lines and sentence
lines, byte for byte as sacrebleu 2.6.0 prints them, and how they reach stdout. The paired
tests' tables are in :mod:`bleuprint.cli.paired_output`.

tabulate and json load when a table or JSON output needs them, so ``bleuprint -V`` stays quick.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from typing import Any

from bleuprint.cli.parser import OUTPUT_FORMATS

#: Environment variables that override ``-f/--format``, strongest first.
FORMAT_ENV_VARS = ("BLEUPRINT_FORMAT", "SACREBLEU_FORMAT")


def colored(enabled: bool, text: str, code: str) -> str:
    # colorama's Fore.<COLOR> ... Style.RESET_ALL, which sacrebleu only keeps on a terminal.
    return f"\x1b[{code}m{text}\x1b[0m" if enabled else text


def table_lines(
    columns: dict[str, list[str]],
    signatures: dict[str, str],
    fmt: str,
    width: int,
    color: bool,
    notes: Sequence[str] = (),
) -> list[str]:
    """sacrebleu's multi-system output (``print_results_table``): a table (text, latex) or
    a JSON list, then ``notes`` (the paired test's explanations) and the signature of every
    metric (not in JSON)."""
    if fmt == "json":
        names = columns["System"]
        metric_columns = [k for k in columns if k != "System"]
        rows = [
            {"system": name, **{m: columns[m][i] for m in metric_columns}}
            for i, name in enumerate(names)
        ]
        import json  # start-up time (see the module docstring)

        return [json.dumps(rows, indent=4)]

    table: dict[str, list[str]] = {}
    has_baseline = False
    for name, column in columns.items():
        column = list(column)
        if column[0].startswith("Baseline:") or has_baseline:
            has_baseline = True
            column[0] = colored(color, column[0], "33")
        table[colored(color, name, "36")] = column
    lines = [tabulate_table(table, fmt, width), "", *notes]
    return lines + signature_lines(signatures)


def grouped_lines(
    group_name: str,
    keys: list[Any],
    columns: dict[str, list[str]],
    signatures: dict[str, str],
    fmt: str,
    width: int,
    color: bool,
) -> list[str]:
    """Grouped scores as the multi-system table prints systems: a table whose first column is
    the group column (one row per key), then the signatures; in JSON a list of
    ``{group_name: key, metric: score, ...}`` objects."""
    if fmt == "json":
        rows = [
            {group_name: _json_key(key), **{m: scores[i] for m, scores in columns.items()}}
            for i, key in enumerate(keys)
        ]
        import json  # start-up time (see the module docstring)

        return [json.dumps(rows, indent=4)]
    table = {colored(color, group_name, "36"): [str(key) for key in keys]}
    table.update({colored(color, m, "36"): scores for m, scores in columns.items()})
    # numparse off: a key such as "1.25" or "007" is printed as it is written.
    return [tabulate_table(table, fmt, width, numparse=False), "", *signature_lines(signatures)]


def _json_key(key: Any) -> Any:
    """A group key as JSON: strings, numbers, booleans and null as they are, tuples as lists,
    anything else (dates, ...) as its text."""
    if key is None or isinstance(key, (str, int, float, bool)):
        return key
    if isinstance(key, tuple):
        return [_json_key(k) for k in key]
    return str(key)


def tabulate_table(table: dict[str, list[str]], fmt: str, width: int, numparse: bool = True) -> str:
    """``tabulate`` as sacrebleu calls it (``numparse=False`` keeps strings such as ``+0.9``
    or ``0.0123`` as written)."""
    from tabulate import tabulate  # loaded for tables only

    return str(
        tabulate(
            table,
            headers="keys",
            tablefmt="fancy_grid" if fmt == "text" else "latex_booktabs",
            colalign=("right",),
            stralign="center",
            numalign="center",
            floatfmt=f".{width}f",
            disable_numparse=not numparse,
        )
    )


def signature_lines(signatures: dict[str, str]) -> list[str]:
    lines = ["-----------------", "Metric signatures", "-----------------"]
    return lines + [f" - {name:<10} {sig}" for name, sig in signatures.items()]


def single_system_lines(results: list[str], fmt: str, color: bool = False) -> list[str]:
    """sacrebleu's ``print_single_results``: a JSON array for several metrics, else the text
    lines right-aligned on their ``=`` (confidence intervals in cyan with ``color``)."""
    if fmt == "json":
        return ["[\n" + ",\n".join(results) + "\n]"] if len(results) > 1 else results
    if color and "μ" in results[0]:
        # sacrebleu colours each "(μ = ... ± ...)" before aligning the lines on "=".
        pattern = re.compile(r"(\(μ = [0-9\.]+ ± [0-9\.]+\))")
        results = [pattern.sub(lambda m: colored(True, m.group(), "36"), r) for r in results]
    if len(results) == 1:
        return results
    lines = []
    cuts = []
    for line in results:
        if "=" in line:
            cuts.append(line.index("=") - 1)
        else:
            lines.append(line)  # a bare score (-b)
    if cuts:
        w = max(cuts)
        lines += [f"{line[:cut]:>{w}}{line[cut:]}" for cut, line in zip(cuts, results)]
    return lines


def sentence_lines(stats: Any, width: int, score_only: bool, signature: str) -> list[str]:
    """sacrebleu's ``-sl`` output: ``score.format(width, score_only, signature)`` per segment,
    with every score computed in one batched call into the core."""
    if score_only:
        return [f"{score:.{width}f}" for score in stats.sentence_scores().tolist()]
    return [s.format(width, False, signature) for s in stats.sentence_results()]


def output_format(flag: str) -> str:
    """``-f``, unless BLEUPRINT_FORMAT or SACREBLEU_FORMAT names a format."""
    for var in FORMAT_ENV_VARS:
        value = os.environ.get(var, "").lower()
        if value in OUTPUT_FORMATS:
            return value
    return flag


def colors_enabled(no_color: bool) -> bool:
    """Colours (as sacrebleu prints them) only on a terminal, unless -nc or NO_COLOR."""
    return not (os.environ.get("NO_COLOR") or no_color) and isatty(sys.stdout)


def isatty(stream: Any) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def write_lines(lines: list[str]) -> None:
    if lines:
        write_text("\n".join(lines) + "\n")


def write_text(text: str) -> None:
    stdout = sys.stdout
    if stdout is None:
        return
    # sacrebleu reopens stdout as UTF-8 whatever the locale says; so do we.
    buffer = getattr(stdout, "buffer", None)
    if buffer is not None:
        stdout.flush()
        buffer.write(text.encode("utf-8", "surrogateescape"))
        buffer.flush()
    else:
        stdout.write(text)
        stdout.flush()
