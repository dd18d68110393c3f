"""The one bound on resampling work, shared by the library's checks and the command line's."""

from __future__ import annotations

#: The most resamples or trials: sacrebleu's defaults are 1,000 and 10,000, and a million
#: already takes minutes and gigabytes on a large test set (more is a MemoryError).
MAX_SAMPLES = 1_000_000
