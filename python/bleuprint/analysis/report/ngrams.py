"""N-gram counts of every system against the first reference, by integer ids (numpy, no
per-n-gram Python work), and what compare-mt derives from them:

- per system, corpus counts of matched (clipped), over-generated and under-generated
  n-grams (compare-mt's ``compare_ngrams``: in each segment, matched = min(output count,
  reference count), over = output - matched, under = reference - matched);
- per pair of systems, the n-grams whose smoothed share ``(a + alpha) / (a + b + 2 alpha)``
  is most one-sided (compare-mt's ``extract_salient_features``);
- per segment, unigram counts for word accuracy.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from itertools import chain, count
from typing import Any, Optional

import numpy as np

KINDS = ("match", "over", "under")


class _Stream:
    """One stream's tokens as word ids with their segment and the tokens left in it."""

    def __init__(self, sentences: Sequence[Sequence[str]], vocab: defaultdict[str, int]) -> None:
        lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
        # A new word gets the next id from the vocabulary's factory: the loop stays in C.
        self.words = np.fromiter(
            map(vocab.__getitem__, chain.from_iterable(sentences)),
            dtype=np.int64,
            count=int(lengths.sum()),
        )
        self.segment = np.repeat(np.arange(len(sentences), dtype=np.int64), lengths)
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
        self.left = lengths[self.segment] - (np.arange(len(self.words)) - starts[self.segment])


class NgramTable:
    """Counts for a reference stream and named systems, orders 1..``max_order``.

    ``sparse[name][kind]`` is a pair ``(global n-gram ids, counts)``, ids sorted;
    ``unigram_segments[name]`` is ``(segments, word ids, match, ref, out)`` for word
    accuracy; :meth:`text` turns a global id back into its n-gram.
    """

    def __init__(
        self,
        ref: Sequence[Sequence[str]],
        systems: dict[str, Sequence[Sequence[str]]],
        max_order: int = 4,
    ) -> None:
        vocab: defaultdict[str, int] = defaultdict(count(1).__next__)  # ids start at 1
        names = list(systems)
        streams = [_Stream(ref, vocab)] + [_Stream(systems[n], vocab) for n in names]
        self.words = [""] + list(vocab)  # id -> word (ids start at 1)
        self.max_order = max_order
        base = len(vocab) + 1
        self._uniques: list[np.ndarray] = []  # per order: prev id * base + word id
        self._offsets: list[int] = []
        offset = 0
        prev = [s.words.copy() for s in streams]  # order-1 "ids" are word ids for now
        per_order: list[list[tuple[np.ndarray, np.ndarray]]] = []  # [(segments, ids)] per stream
        for n in range(1, max_order + 1):
            keys, parts = [], []
            for s, p in zip(streams, prev):
                valid = np.nonzero(s.left >= n)[0]
                word = s.words[valid + n - 1]
                key = word if n == 1 else p[valid] * base + word
                keys.append(key)
                parts.append(valid)
            uniq, inverse = np.unique(np.concatenate(keys), return_inverse=True)
            self._uniques.append(uniq)
            self._offsets.append(offset)
            ids_all = np.split(inverse.reshape(-1), np.cumsum([len(k) for k in keys])[:-1])
            next_prev = []
            order_counts = []
            for s, valid, ids in zip(streams, parts, ids_all):
                full = np.full(len(s.words), -1, dtype=np.int64)
                full[valid] = ids
                next_prev.append(full)
                order_counts.append((s.segment[valid], ids))
            prev = next_prev
            per_order.append(order_counts)
            offset += len(uniq)
        self.size = offset
        self.sparse: dict[str, dict[str, tuple[np.ndarray, np.ndarray]]] = {}
        self.unigram_segments: dict[str, tuple[np.ndarray, ...]] = {}
        # The reference's (segment, n-gram) counts per order, shared by every system.
        reference = [
            np.unique(seg * len(uniq) + ids, return_counts=True)
            for (seg, ids), uniq in zip((c[0] for c in per_order), self._uniques)
        ]
        for k, name in enumerate(names, start=1):
            kinds: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {x: [] for x in KINDS}
            for n, order_counts in enumerate(per_order, start=1):
                size = len(self._uniques[n - 1])
                rk, rc = reference[n - 1]
                seg_o, ids_o = order_counts[k]
                ok, oc = np.unique(seg_o * size + ids_o, return_counts=True)
                at = np.minimum(np.searchsorted(rk, ok), max(len(rk) - 1, 0))
                found = (rk[at] == ok) if len(rk) else np.zeros(len(ok), dtype=bool)
                r = np.where(found, rc[at] if len(rk) else 0, 0)
                match = np.minimum(oc, r)
                matched_ref = np.zeros_like(rc)
                matched_ref[at[found]] = match[found]
                under = rc - matched_ref
                off = self._offsets[n - 1]
                for kind, keys_, counts in (
                    ("match", ok, match),
                    ("over", ok, oc - match),
                    ("under", rk, under),
                ):
                    kinds[kind].append(_collapse(keys_ % size, counts, size, off))
                if n == 1:
                    words_o = self._uniques[0][ok % size]
                    words_r = self._uniques[0][rk % size]
                    self.unigram_segments[name] = (
                        ok // size,
                        words_o,
                        match,
                        oc,
                        rk // size,
                        words_r,
                        rc,
                    )
            self.sparse[name] = {
                kind: (
                    np.concatenate([p[0] for p in parts_]),
                    np.concatenate([p[1] for p in parts_]),
                )
                for kind, parts_ in kinds.items()
            }

    def text(self, gid: int) -> str:
        """The n-gram of a global id, words joined by spaces."""
        n = int(np.searchsorted(self._offsets, gid, side="right"))
        local = gid - self._offsets[n - 1]
        words: list[str] = []
        base = len(self.words)
        key = int(self._uniques[n - 1][local])
        for order in range(n, 1, -1):
            words.append(self.words[key % base])
            key = int(self._uniques[order - 2][key // base])
        words.append(self.words[key])
        return " ".join(reversed(words))


def _collapse(
    ids: np.ndarray, counts: np.ndarray, size: int, offset: int
) -> tuple[np.ndarray, np.ndarray]:
    """Sums counts per id (ids below ``size``); drops zeros; ids sorted and moved by
    ``offset``."""
    sums = np.bincount(ids, weights=counts, minlength=size)  # exact: integers below 2**53
    present = np.flatnonzero(sums)
    return present + offset, sums[present].astype(np.int64)


def salient(
    table: NgramTable,
    left: str,
    right: str,
    kind: str,
    alpha: float = 1.0,
    top: int = 10,
    lookup: Optional[_Lookup] = None,
) -> dict[str, list[dict[str, Any]]]:
    """The ``top`` n-grams most characteristic of each side, highest share first; ties go
    to the larger total count, then the lower id. ``lookup``: a scratch vector to reuse
    across calls on the same table."""
    a_ids, a_counts = table.sparse[left][kind]
    b_ids, b_counts = table.sparse[right][kind]
    lookup = lookup if lookup is not None else _Lookup(table.size)
    return {
        "left": _side(table, lookup, a_ids, a_counts, b_ids, b_counts, alpha, top),
        "right": _side(table, lookup, b_ids, b_counts, a_ids, a_counts, alpha, top),
    }


class _Lookup:
    """Reads sparse count vectors ``(ids, counts)`` at given ids through one dense scratch
    vector of every global id: a scatter and a gather, cheaper than searching sorted ids."""

    def __init__(self, size: int) -> None:
        self._dense = np.zeros(size)

    def __call__(self, keys: np.ndarray, ids: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """The counts of ``keys`` (0 where absent), as floats."""
        dense = self._dense
        dense[ids] = counts
        found = dense[keys]
        dense[ids] = 0  # all zeros again for the next call
        return found


def _side(
    table: NgramTable,
    lookup: _Lookup,
    my_ids: np.ndarray,
    my_counts: np.ndarray,
    other_ids: np.ndarray,
    other_counts: np.ndarray,
    alpha: float,
    top: int,
) -> list[dict[str, Any]]:
    # An n-gram this side never has scores at most alpha / (1 + 2 alpha): when `top` of its
    # own n-grams beat that, they are the answer; otherwise rank the union.
    keys = my_ids
    mine = my_counts.astype(np.float64)
    other = lookup(keys, other_ids, other_counts)
    share = (mine + alpha) / (mine + other + 2 * alpha)
    if np.count_nonzero(share > alpha / (1 + 2 * alpha)) < top:
        keys = np.union1d(my_ids, other_ids)
        mine = lookup(keys, my_ids, my_counts)
        other = lookup(keys, other_ids, other_counts)
        share = (mine + alpha) / (mine + other + 2 * alpha)
    return _top(table, keys, share, mine, other, top)


def _top(
    table: NgramTable,
    keys: np.ndarray,
    share: np.ndarray,
    mine: np.ndarray,
    other: np.ndarray,
    top: int,
) -> list[dict[str, Any]]:
    if len(keys) == 0:
        return []
    if len(keys) > top:
        candidates = np.nonzero(share >= _kth_largest(share, top))[0]
    else:
        candidates = np.arange(len(keys))
    order = candidates[
        np.lexsort((keys[candidates], -(mine + other)[candidates], -share[candidates]))
    ]
    return [
        {
            "ngram": table.text(int(keys[i])),
            "score": float(share[i]),
            "count": int(mine[i]),
            "other": int(other[i]),
        }
        for i in order[:top]
    ]


def _kth_largest(values: np.ndarray, k: int) -> float:
    """The ``k``-th largest of ``values`` (more than ``k`` of them). Shares are mostly ties
    (2/3 for an n-gram seen once on one side only), on which ``np.partition`` is slow (20 ms
    for 67,000 values): the ``k``-th largest of a sample bounds the answer from below, and
    only the few values above that bound are sorted."""
    sample = values[:: max(1, len(values) // 4096)]
    bound = np.sort(sample)[-k] if len(sample) >= k else values.min()
    above = values[values > bound]
    return float(bound) if len(above) < k else float(np.sort(above)[-k])


def characteristic_ngrams(
    table: NgramTable, pairs: Sequence[tuple[str, str]], alpha: float = 1.0, top: int = 10
) -> list[dict[str, Any]]:
    """For each pair ``(a, b)`` and each kind, the n-grams characteristic of a and of b."""
    lookup = _Lookup(table.size)  # one scratch vector for every pair
    return [
        {
            "left": a,
            "right": b,
            **{k: salient(table, a, b, k, alpha, top, lookup) for k in KINDS},
        }
        for a, b in pairs
    ]
