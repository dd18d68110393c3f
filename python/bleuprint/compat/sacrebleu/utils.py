"""sacrebleu's ``sacrebleu.utils``: file opening, colours and small numeric helpers here; the
test-set functions come from :mod:`bleuprint.testsets`, loaded on first use."""

from __future__ import annotations

import gzip
import importlib
import json
import logging
import math
import os
from collections.abc import Sequence
from types import SimpleNamespace
from typing import IO, Any, cast

from bleuprint.cli.output import single_system_lines, table_lines
from bleuprint.cli.paired_output import baseline_notes, json_value, p_value_text, score_cells
from bleuprint.errors import InvalidInputError

USERHOME = os.path.expanduser("~")
sacrelogger = logging.getLogger("sacrebleu")

#: Names served by :mod:`bleuprint.testsets` (sacrebleu keeps them in ``utils``).
DATASET_NAMES = frozenset(
    {
        "DATASETS",
        "SACREBLEU_DIR",
        "SUBSETS",
        "download_file",
        "download_test_set",
        "extract_tarball",
        "filter_subset",
        "get_available_origlangs",
        "get_available_subsets",
        "get_available_testsets",
        "get_available_testsets_for_langpair",
        "get_files",
        "get_langpairs_for_testset",
        "get_md5sum",
        "get_reference_files",
        "get_source_file",
        "print_test_set",
    }
)


def dataset_name(name: str) -> Any:
    """``name`` from :mod:`bleuprint.testsets`; an ``AttributeError`` that says why when that
    module (or the name) is not there."""
    try:  # on first use (start-up time): scoring never reads the test-set registry
        testsets = importlib.import_module("bleuprint.testsets")
    except ImportError as e:
        raise AttributeError(
            f"sacrebleu's {name} comes from bleuprint.testsets, which cannot be imported ({e})"
        ) from e
    try:
        return getattr(testsets, name)
    except AttributeError:
        raise AttributeError(f"bleuprint.testsets does not provide sacrebleu's {name}") from None


def __getattr__(name: str) -> Any:
    if name in DATASET_NAMES:
        return dataset_name(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Color:
    """ANSI colours, as sacrebleu's table output uses them."""

    ENABLE_COLORS = True

    @staticmethod
    def format(msg: str, color: str) -> str:
        """``msg`` in ``color`` (``green``, ``red``, ``yellow``, ...), if colours are on."""
        if not Color.ENABLE_COLORS:
            return msg
        codes = {
            "black": 30, "red": 31, "green": 32, "yellow": 33,
            "blue": 34, "magenta": 35, "cyan": 36, "white": 37,
        }  # fmt: skip
        if color not in codes:
            return msg  # as sacrebleu: an unknown colour leaves the text plain
        return f"\x1b[{codes[color]}m{msg}\x1b[0m"


def smart_open(file: str, mode: str = "rt", encoding: str = "utf-8") -> IO[Any]:
    """Opens ``file``, transparently decompressing ``.gz`` (sacrebleu's ``smart_open``)."""
    if file.endswith(".gz"):
        return cast("IO[Any]", gzip.open(file, mode=mode, encoding=encoding, newline="\n"))
    return open(file, mode=mode, encoding=encoding, newline="\n")


def my_log(num: float) -> float:
    """``log(num)``, floored to ``-9999999999`` at 0 (sacrebleu's helper; bleuprint's core
    applies the same floor inside BLEU, which does not call this)."""
    return -9999999999 if num == 0.0 else math.log(num)


def sum_of_lists(lists: Sequence[Sequence[Any]]) -> Any:
    """Column sums of statistics rows, in row order, keeping the first value's type (one row
    comes back as it is)."""
    if len(lists) == 1:
        return lists[0]
    size = len(lists[0])
    total = [type(lists[0][0])(0.0)] * size
    for row in lists:
        if len(row) != size:
            raise InvalidInputError(f"sum_of_lists needs rows of one length: {size} and {len(row)}")
        for i in range(size):
            total[i] += row[i]
    return total


def args_to_dict(args: Any, prefix: str, strip_prefix: bool = False) -> dict[str, Any]:
    """The options of an ``argparse.Namespace`` whose names start with ``prefix``."""
    prefix += "_"
    d = {}
    for k, v in args.__dict__.items():
        if k.startswith(prefix):
            k = k.replace(prefix, "") if strip_prefix else k
            d[k] = v
    return d


def sanity_check_lengths(
    system: Sequence[str], refs: Sequence[Sequence[str]], test_set: str = "", langpair: str = ""
) -> None:
    """Raises :class:`~bleuprint.errors.InvalidInputError` when a reference stream's length
    differs from the system's."""
    n_hyps = len(system)
    if any(len(ref_stream) != n_hyps for ref_stream in refs):
        where = f" for {test_set}/{langpair}" if test_set else ""
        raise InvalidInputError(
            f"System and reference streams have different lengths{where}: the system has "
            f"{n_hyps} lines, the references {[len(r) for r in refs]}; give one line per segment"
        )


def print_single_results(results: list[str], args: Any) -> None:
    """Prints one system's metric lines (``args.format``: ``json`` or text), as the command
    line does."""
    for line in single_system_lines(list(results), args.format, Color.ENABLE_COLORS):
        print(line)


def print_results_table(
    results: dict[str, list[Any]], signatures: dict[str, Any], args: Any
) -> None:
    """Prints the multi-system table (``results``: ``{"System": names, metric: [str or
    significance.Result, ...]}``) and the signatures, as the command line does; with
    ``args.paired_bs``/``args.paired_ar``, the paired test's explanation too."""
    names = list(results["System"])
    metrics = {k: v for k, v in results.items() if k != "System"}
    if args.format == "json":
        rows = [
            {
                "system": name,
                **{m: v[i] if isinstance(v[i], str) else vars(v[i]) for m, v in metrics.items()},
            }
            for i, name in enumerate(names)
        ]
        print(json.dumps(rows, indent=4, default=json_value))
        return
    color = Color.ENABLE_COLORS
    separator = "\n" if args.format == "text" else " "
    columns: dict[str, list[str]] = {"System": names}
    is_bootstrap = False
    for metric, values in metrics.items():
        if all(isinstance(v, str) for v in values):
            columns[metric + " (μ ± 95% CI)" if is_bootstrap else metric] = list(values)
            continue
        cells, is_bootstrap = score_cells(values, args.width, is_bootstrap)
        cells = [
            c if r.p_value is None else c + separator + p_value_text(r.p_value, None, color)
            for c, r in zip(cells, values)
        ]
        columns[metric + " (μ ± 95% CI)" if is_bootstrap else metric] = cells
    notes: list[str] = []
    if args.paired_bs or args.paired_ar:
        test = SimpleNamespace(
            test="bs" if args.paired_bs else "ar",
            n_samples=args.paired_bs_n if args.paired_bs else args.paired_ar_n,
            systems=names,
            correction="none",
        )
        baseline = names[0] if names[0].startswith("Baseline:") else ""
        notes = baseline_notes(test, baseline, color)
    signature_text = {name: str(sig) for name, sig in signatures.items()}
    for line in table_lines(columns, signature_text, args.format, args.width, color, notes):
        print(line)


def print_subset_results(
    metrics: dict[str, Any], full_system: Sequence[str], full_refs: Sequence[Any], args: Any
) -> None:
    """Prints each metric's score on every origlang and domain (or country) subset of the test
    sets ``args.test_set`` (the command line's ``--detail``), from each metric's statistics of
    every segment."""
    # On first use (start-up time): only --detail reads the subsets.
    details = importlib.import_module("bleuprint.testsets.details")
    rows = [metric.stats(list(full_system), list(full_refs)) for metric in metrics.values()]
    # sacrebleu iterates args.origlang (a list here; its command line's string would be
    # iterated letter by letter): one string is taken as one language.
    origlangs = [args.origlang] if isinstance(args.origlang, str) else args.origlang
    results = details.subset_scores(
        list(metrics.values()), rows, args.test_set, args.langpair, origlangs, args.subset
    )
    for line in details.detail_lines(results, args.width, lambda s: Color.format(s, "yellow")):
        print(line)
