"""pyarrow string columns as the core's :class:`~bleuprint._core.TextColumn`: the cells'
buffers handed over in place (the Arrow C data interface), so a column of millions of cells
is counted without a copy and without a Python string per cell (``to_pylist`` made one
each)."""

from __future__ import annotations

import sys
from typing import Any, Optional

from bleuprint import _core


def is_text(values: Any) -> bool:
    """Whether ``values`` is a pyarrow ``Array`` or ``ChunkedArray`` of ``string`` or
    ``large_string`` (what :func:`text_column` converts)."""
    pa = sys.modules.get("pyarrow")  # an Arrow object means pyarrow is imported already
    if pa is None or not isinstance(values, (pa.Array, pa.ChunkedArray)):
        return False
    return bool(pa.types.is_string(values.type) or pa.types.is_large_string(values.type))


def text_column(values: Any) -> Optional[_core.TextColumn]:
    """``values`` (a pyarrow ``Array`` or ``ChunkedArray`` of ``string`` or ``large_string``)
    as a ``TextColumn`` with the same cells and nulls, read in place through the Arrow C data
    interface (no copy of the text); ``None`` for anything else."""
    if not is_text(values):
        return None
    pa = sys.modules["pyarrow"]

    chunks = values.chunks if isinstance(values, pa.ChunkedArray) else [values]
    return _core.TextColumn.from_arrow([chunk.__arrow_c_array__() for chunk in chunks])


def text_columns(hypotheses: Any, references: Any) -> Optional[tuple[Any, list[Any]]]:
    """The hypotheses and each reference stream as ``TextColumn`` s when every one of them is
    a pyarrow string column; ``None`` otherwise (the lists path takes them)."""
    if not isinstance(references, (list, tuple)) or not references:
        return None
    columns = [text_column(v) for v in (hypotheses, *references)]
    if any(c is None for c in columns):
        return None
    return columns[0], columns[1:]


__all__ = ["is_text", "text_column", "text_columns"]
