"""How far a lazy input had been read each time a metric computed statistics: the tests that
bound how much text a streaming or table reader holds at once."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")


class ReadCounter:
    """Counts the items taken from the iterables it wraps (:meth:`counted`) and, once it
    watches a metric (:meth:`watch`), records that count at every call of its ``stats``."""

    def __init__(self) -> None:
        self.taken = 0
        self.seen: list[int] = []

    def counted(self, items: Iterable[T]) -> Iterator[T]:
        for item in items:
            self.taken += 1
            yield item

    def watch(self, metric: Any) -> None:
        original = metric.stats

        def counting(hyps: Any, refs: Any) -> Any:
            self.seen.append(self.taken)
            return original(hyps, refs)

        metric.stats = counting

    def reset(self) -> None:
        self.taken = 0
        self.seen.clear()
