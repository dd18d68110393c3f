"""mbrs' ``--plugin_dir`` module: importing it registers bleuprint's mbrs metrics
(``bleuprint_bleu``, ``bleuprint_chrf``). mbrs imports it as the top-level ``bleuprint_mbrs``."""

import atexit
import gc
import io

from bleuprint.integrations.mbrs import BLEU_NAME, CHRF_NAME, MetricBLEU, MetricChrF

__all__ = ["BLEU_NAME", "CHRF_NAME", "MetricBLEU", "MetricChrF"]


def _flush_open_files() -> None:
    """mbrs-decode writes its results (``-o FILE``) through a file it never closes, so they
    reach the disk only if the file object is finalized at exit, which CPython does not
    promise for objects still alive then (with ``bleuprint_bleu`` they were lost: an empty
    file). At exit, every open text file is flushed."""
    for obj in gc.get_objects():
        if isinstance(obj, io.TextIOWrapper) and not obj.closed:
            try:
                obj.flush()
            except (OSError, ValueError):  # a broken pipe or a detached stream
                pass


atexit.register(_flush_open_files)
