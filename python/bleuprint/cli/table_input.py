"""Table files as the command's input (``--hyp-column``, ``--ref-column``, ``--group-by``):
which columns are read, one :func:`bleuprint.io.tables.read_table` reader per system column read
in step a chunk of rows at a time, and every failure in the command's words (one line, never
a traceback).

A reader gives one hypothesis column; several systems are several readers of the same file,
so that each system's cells are checked and named by their own column. Only the first reader
reads the reference and group columns (the others read their hypothesis column alone).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple, Optional

from bleuprint.cli.errors import CliError
from bleuprint.errors import BleuprintError
from bleuprint.io.streaming import Chunk
from bleuprint.io.tables import read_table

#: Defaults of --hyp-column and --ref-column (the library's ``hyp_column`` and ``ref_columns``).
DEFAULT_HYP_COLUMN = "hyp"
DEFAULT_REF_COLUMN = "ref"

# The library's messages name its keyword arguments; the command's name its flags.
_FLAG_WORDING = (
    ("Choose them with hyp_column=, ref_columns= (and by=)",
     "Choose them with --hyp-column, --ref-column (and --group-by)"),
    ("plain text files (one segment per line) go to stats_stream/score_stream",
     "plain text files (one segment per line) are read without --hyp-column, --ref-column "
     "and --group-by"),
)  # fmt: skip


class TableColumns(NamedTuple):
    """The columns a command reads from its table; ``refs`` is empty when the references are
    the REF files."""

    hyps: list[str]
    refs: list[str]
    group: Optional[str]


def table_columns(args: argparse.Namespace) -> TableColumns:
    """The columns of the options, defaults filled in: ``hyp`` for the system, and for the
    references the REF files when given, else the column ``ref``."""
    hyps = list(args.hyp_column or [DEFAULT_HYP_COLUMN])
    if args.ref_column is not None:
        refs = list(args.ref_column)
    else:
        refs = [] if args.refs else [DEFAULT_REF_COLUMN]
    return TableColumns(hyps, refs, args.group_by)


class TableSystems:
    """The systems (and, with reference columns, the references and group keys) of one table
    file; :meth:`chunks` gives every system's :class:`~bleuprint.io.streaming.Chunk` of the same
    rows. Opening checks the format and the columns, before anything is scored."""

    def __init__(self, path: str, columns: TableColumns, chunk_rows: int) -> None:
        self.path = path
        self.columns = columns
        with table_errors(path):
            self._tables = [
                read_table(
                    path,
                    hyp_column=hyp,
                    # Placeholder references for the other readers: their own column, so they
                    # read nothing more; their references are never used.
                    ref_columns=columns.refs if k == 0 and columns.refs else [hyp],
                    by=columns.group if k == 0 else None,
                    chunk_size=chunk_rows,
                )
                for k, hyp in enumerate(columns.hyps)
            ]

    def chunks(self) -> Iterator[list[Chunk]]:
        """Each system's chunk of the next rows (the first one's carries the references and
        group keys); all readers read the same file, so their chunks hold the same rows."""
        readers = [table.chunks for table in self._tables]
        while True:
            with table_errors(self.path):
                parts = [next(reader, None) for reader in readers]
            if parts[0] is None:
                return
            yield [part for part in parts if part is not None]


@contextmanager
def table_errors(path: str) -> Iterator[None]:
    """A table's failures as the command's one-line messages: the library's (a missing
    column, a bad line), a missing optional package, an unreadable or damaged file."""
    try:
        yield
    except BleuprintError as e:
        raise CliError(flag_wording(str(e))) from None
    except ImportError as e:  # pyarrow or zstandard: the message names the pip extra
        raise CliError(str(e)) from None
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror or e}") from None
    except Exception as e:
        # pyarrow's own errors (ArrowInvalid: not a Parquet file, a damaged footer ...).
        if type(e).__module__.partition(".")[0] != "pyarrow":
            raise
        raise CliError(f"cannot read {path}: {e}") from None


def flag_wording(message: str) -> str:
    """A library message about a table, with the command's flags for the keyword arguments."""
    for api, cli in _FLAG_WORDING:
        message = message.replace(api, cli)
    return message


__all__ = [
    "DEFAULT_HYP_COLUMN",
    "DEFAULT_REF_COLUMN",
    "TableColumns",
    "TableSystems",
    "flag_wording",
    "table_columns",
    "table_errors",
]
