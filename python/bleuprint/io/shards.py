"""Shard files: the statistics of one part of an input (``bleuprint stats --shard K/N``),
with every metric's configuration, and their merge into the statistics of the whole input.

Shard ``K`` of ``N`` holds segments ``floor((K-1)*L/N)`` to ``floor(K*L/N)`` of an input of
``L`` segments, for every system and metric. Merging checks that the shards belong together
(same systems, settings, input length and bleuprint version; every shard number once) and
puts their rows back in order, so every score, interval and test equals one run's.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Union

from bleuprint._core import __version__
from bleuprint.errors import StatsFormatError, StatsMismatchError
from bleuprint.io.npz import read_npz
from bleuprint.metrics.config import config_from_dict
from bleuprint.metrics.stats import Stats, check_nrefs

#: The ``format`` written into every shard file's metadata.
FORMAT = "bleuprint-shard/1"


def shard_window(index: int, count: int, total: int) -> tuple[int, int]:
    """Segments ``[start, stop)`` of shard ``index`` (1-based) of ``count`` over ``total``."""
    return (index - 1) * total // count, index * total // count


@dataclass
class Shard:
    """The statistics of shard ``index`` of ``count`` (``1`` of ``1``: the whole input).

    ``stats[s][m]`` belongs to system ``systems[s]`` and metric ``metrics[m]`` (``"BLEU"``,
    ``"CHRF"``, ...); ``total`` counts the segments of the whole input, ``start`` is this
    shard's first.
    """

    systems: list[str]
    metrics: list[str]
    stats: list[list[Stats]]
    index: int = 1
    count: int = 1
    start: int = 0
    total: int = 0
    from_stdin: bool = False
    version: str = __version__
    path: str = ""
    #: Per metric: whether ``stats`` holds one row of sums (``load(rows=False)``).
    summed: tuple[bool, ...] = ()

    @property
    def segments(self) -> int:
        """Segments in this shard (counted from a metric that kept its rows)."""
        kept = [m for m in range(len(self.metrics)) if not self._summed(m)]
        if not kept:
            return shard_window(self.index, self.count, self.total)[1] - self.start
        return len(self.stats[0][kept[0]])

    def _summed(self, metric: int) -> bool:
        return bool(self.summed) and self.summed[metric]

    def save(self, path: Union[str, os.PathLike]) -> None:
        """Writes the shard as an ``.npz`` archive: one int64 array per system and metric and
        a JSON ``meta`` with the configurations (read back without unpickling)."""
        import numpy as np

        meta = {
            "format": FORMAT,
            "version": self.version,
            "shard": [self.index, self.count],
            "start": self.start,
            "total": self.total,
            "from_stdin": self.from_stdin,
            "systems": self.systems,
            "segments": self.segments,
            "metrics": [
                {"name": name, "config": stats.config.to_dict(), "nrefs": stats.nrefs}
                for name, stats in zip(self.metrics, self.stats[0])
            ],
        }
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta))}
        for s, row in enumerate(self.stats):
            for m, stats in enumerate(row):
                arrays[f"rows_{s}_{m}"] = stats.rows
                # The sums alone give a corpus score: merge reads rows only when it must.
                arrays[f"sums_{s}_{m}"] = stats.sum()[None, :]
        with open(path, "wb") as f:
            np.savez_compressed(f, **arrays)

    @classmethod
    def load(cls, path: Union[str, os.PathLike], rows: bool = True) -> Shard:
        """Reads a shard file written by :meth:`save`; anything else raises
        :class:`StatsFormatError` saying what is wrong. With ``rows=False`` the per-segment
        rows of metrics whose corpus score needs only their sums are not read: their
        statistics are one row of sums (``summed`` says which), all that a corpus score
        needs, and quick to read from a thousand files."""
        name = os.fspath(path)

        def not_shard(why: str) -> StatsFormatError:
            return StatsFormatError(
                f"{name!r} is not a bleuprint shard file (written by 'bleuprint stats'): {why}"
            )

        def read(get: Callable[[str], Any], listing: list[str]) -> Shard:
            meta = get("meta") if "meta" in listing else None
            if meta is None or meta.shape != () or meta.dtype.kind != "U":
                raise not_shard("it has no JSON 'meta' string")
            info = json.loads(str(meta))
            if not isinstance(info, dict) or info.get("format") != FORMAT:
                what = info.get("format") if isinstance(info, dict) else None
                raise not_shard(f"its format is {what!r}, not {FORMAT!r}")
            systems, metrics = list(info["systems"]), list(info["metrics"])
            configs = [config_from_dict(metric["config"]) for metric in metrics]
            nrefs = [check_nrefs(metric["nrefs"]) for metric in metrics]
            # TER's corpus score needs its rows in order; the others' only their sums.
            summed = tuple(
                not rows and bool(getattr(c, "corpus_from_sums", False)) for c in configs
            )
            names = {
                (s, m): f"{'sums' if summed[m] else 'rows'}_{s}_{m}"
                for s in range(len(systems))
                for m in range(len(metrics))
            }
            every = {f"{kind}_{s}_{m}" for s, m in names for kind in ("rows", "sums")}
            if set(listing) - {"meta"} != every:
                raise not_shard(
                    f"it holds arrays {sorted(listing)}, not one rows_ and one sums_ array per "
                    f"system and metric ({len(systems)} x {len(metrics)})"
                )
            if not systems or not metrics:
                raise not_shard("it names no system or no metric")
            stats = [
                [Stats(get(names[s, m]), config, nrefs[m]) for m, config in enumerate(configs)]
                for s in range(len(systems))
            ]
            shard = cls(
                systems=[str(s) for s in systems],
                metrics=[str(m["name"]) for m in metrics],
                stats=stats,
                index=int(info["shard"][0]),
                count=int(info["shard"][1]),
                start=int(info["start"]),
                total=int(info["total"]),
                from_stdin=bool(info["from_stdin"]),
                version=str(info["version"]),
                path=name,
                summed=summed,
            )
            shard._check_window(int(info["segments"]), not_shard)
            return shard

        try:
            return read_npz(name, not_shard, read)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            if isinstance(e, StatsFormatError):
                raise
            why = f"its metadata is incomplete or malformed ({type(e).__name__}: {e})"
            raise not_shard(why) from None

    def _check_window(self, segments: int, not_shard: Callable[[str], Exception]) -> None:
        index, count = self.index, self.count
        if not 1 <= index <= count:
            raise not_shard(f"its shard number {index}/{count} is impossible")
        kept = {len(x) for r in self.stats for m, x in enumerate(r) if not self._summed(m)}
        lengths = {segments} | kept
        expected = shard_window(index, count, self.total)
        if lengths != {expected[1] - expected[0]} or self.start != expected[0]:
            raise not_shard(
                f"shard {index}/{count} of {self.total} segments should hold segments "
                f"{expected[0]} to {expected[1]}, but it holds {sorted(lengths)} from "
                f"{self.start}"
            )


def merge_shards(shards: Sequence[Shard]) -> Shard:
    """The whole input's statistics from all of its shards, in any order.

    Raises
    ------
    StatsMismatchError
        When the shards do not belong together: a different bleuprint version, systems,
        metric settings or input length; a shard number missing or given twice.
    """
    if not shards:
        raise StatsMismatchError("no shard files to merge")
    first = shards[0]
    for shard in shards[1:]:
        _check_together(first, shard)
    counts = {s.count for s in shards}
    if len(counts) > 1:
        raise StatsMismatchError(
            "the shards split the input differently: "
            + ", ".join(f"{s.path} is {s.index}/{s.count}" for s in shards)
        )
    count = first.count
    by_index: dict[int, Shard] = {}
    for shard in shards:
        if shard.index in by_index:
            raise StatsMismatchError(
                f"shard {shard.index}/{count} is given twice: {by_index[shard.index].path} "
                f"and {shard.path}"
            )
        by_index[shard.index] = shard
    missing = [k for k in range(1, count + 1) if k not in by_index]
    if missing:
        which = (
            f"shard {missing[0]}" if len(missing) == 1 else f"shards {', '.join(map(str, missing))}"
        )
        verb = "is" if len(missing) == 1 else "are"
        raise StatsMismatchError(
            f"{which} of {count} {verb} missing: every shard 1..{count} is needed for the "
            "whole input's score"
        )
    ordered = [by_index[k] for k in range(1, count + 1)]
    stats = [
        [
            _merged([s.stats[i][m] for s in ordered], first._summed(m))
            for m in range(len(first.metrics))
        ]
        for i in range(len(first.systems))
    ]
    return Shard(
        systems=first.systems,
        metrics=first.metrics,
        stats=stats,
        total=first.total,
        from_stdin=first.from_stdin,
        version=first.version,
        summed=first.summed,
    )


def _merged(parts: list[Stats], summed: bool) -> Stats:
    """Rows in shard order, or (for shards read as sums) one row of the sums."""
    if not summed:
        return Stats.concatenate(parts)
    import numpy as np

    total = np.concatenate([p.rows for p in parts]).sum(axis=0, dtype=np.int64)[None, :]
    nrefs = {p.nrefs for p in parts}
    return Stats._trusted(total, parts[0].config, nrefs.pop() if len(nrefs) == 1 else -1)


def _check_together(first: Shard, other: Shard) -> None:
    def refuse(what: str, a: Any, b: Any) -> StatsMismatchError:
        return StatsMismatchError(
            f"{first.path} and {other.path} are not shards of one run: {what} differ "
            f"({a} and {b}); make every shard with the same command and --shard K/N"
        )

    if first.version != other.version:
        # The version is part of every signature, and scores may change between versions.
        raise refuse("the bleuprint versions", first.version, other.version)
    if first.systems != other.systems:
        raise refuse("the systems", first.systems, other.systems)
    if first.metrics != other.metrics:
        raise refuse("the metrics", first.metrics, other.metrics)
    for name, a, b in zip(first.metrics, first.stats[0], other.stats[0]):
        if a.config != b.config:
            raise refuse(f"the {name} settings", a.config, b.config)
    if first.total != other.total:
        raise refuse("the input lengths", f"{first.total} segments", f"{other.total} segments")
    if first.summed != other.summed:
        raise refuse("the ways they were read (rows or sums)", first.summed, other.summed)
    if first.from_stdin != other.from_stdin:
        raise refuse("the inputs", "stdin" if first.from_stdin else "files",
                     "stdin" if other.from_stdin else "files")  # fmt: skip


__all__ = ["FORMAT", "Shard", "merge_shards", "shard_window"]
