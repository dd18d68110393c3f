"""pyarrow string columns as the core's :class:`~bleuprint._core.TextColumn`: the cells'
bytes and offsets handed over in one piece, so a column of millions of cells is counted
without a Python string per cell (``to_pylist`` made one each)."""

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
    as a ``TextColumn`` with the same cells and nulls; ``None`` for anything else."""
    if not is_text(values):
        return None
    import numpy as np

    pa = sys.modules["pyarrow"]

    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks() if values.num_chunks != 1 else values.chunk(0)
    n = len(values)
    if n == 0:
        return _core.TextColumn(b"", np.zeros(1, dtype=np.int64).tobytes())
    _, offsets_buffer, data_buffer = values.buffers()
    width = np.int32 if pa.types.is_string(values.type) else np.int64
    # A slice of a larger array starts `values.offset` cells into the buffers.
    offsets = np.frombuffer(offsets_buffer, dtype=width, count=values.offset + n + 1)
    offsets = offsets[values.offset :].astype(np.int64)
    start, end = int(offsets[0]), int(offsets[-1])
    data = data_buffer[start:end].to_pybytes() if end > start else b""
    valid = None
    if values.null_count:
        mask = values.is_valid().to_numpy(zero_copy_only=False)
        valid = mask.astype(np.uint8).tobytes()
    return _core.TextColumn(data, (offsets - start).tobytes(), valid)


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
