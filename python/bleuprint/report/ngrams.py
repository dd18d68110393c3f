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

from collections.abc import Sequence
from typing import Any

import numpy as np

KINDS = ("match", "over", "under")


class _Stream:
    """One stream's tokens as word ids with their segment and the tokens left in it."""

    def __init__(self, sentences: Sequence[Sequence[str]], vocab: dict[str, int]) -> None:
        lengths = np.fromiter((len(s) for s in sentences), dtype=np.int64, count=len(sentences))
        get = vocab.setdefault
        self.words = np.fromiter(
            (get(w, len(vocab) + 1) for s in sentences for w in s),
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
        vocab: dict[str, int] = {}
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
        for k, name in enumerate(names, start=1):
            kinds: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {x: [] for x in KINDS}
            for n, order_counts in enumerate(per_order, start=1):
                size = len(self._uniques[n - 1])
                seg_r, ids_r = order_counts[0]
                seg_o, ids_o = order_counts[k]
                rk, rc = np.unique(seg_r * size + ids_r, return_counts=True)
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
                    kinds[kind].append(_collapse(keys_ % size + off, counts))
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


def _collapse(ids: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sums counts per id; drops zeros; ids sorted."""
    keep = counts > 0
    uniq, inverse = np.unique(ids[keep], return_inverse=True)
    return uniq, np.bincount(inverse.reshape(-1), weights=counts[keep], minlength=len(uniq)).astype(
        np.int64
    )


def salient(
    table: NgramTable, left: str, right: str, kind: str, alpha: float = 1.0, top: int = 10
) -> dict[str, list[dict[str, Any]]]:
    """The ``top`` n-grams most characteristic of each side, highest share first; ties go
    to the larger total count, then the lower id."""
    a_ids, a_counts = table.sparse[left][kind]
    b_ids, b_counts = table.sparse[right][kind]
    return {
        "left": _side(table, a_ids, a_counts, b_ids, b_counts, alpha, top),
        "right": _side(table, b_ids, b_counts, a_ids, a_counts, alpha, top),
    }


def _lookup(keys: np.ndarray, ids: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The counts of ``keys`` in the sorted sparse vector ``(ids, counts)`` (0 if absent)."""
    if len(ids) == 0:
        return np.zeros(len(keys))
    at = np.minimum(np.searchsorted(ids, keys), len(ids) - 1)
    return np.where(ids[at] == keys, counts[at], 0).astype(np.float64)


def _side(
    table: NgramTable,
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
    other = _lookup(keys, other_ids, other_counts)
    share = (mine + alpha) / (mine + other + 2 * alpha)
    if np.count_nonzero(share > alpha / (1 + 2 * alpha)) < top:
        keys = np.union1d(my_ids, other_ids)
        mine = _lookup(keys, my_ids, my_counts)
        other = _lookup(keys, other_ids, other_counts)
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
        kth = np.partition(share, len(share) - top)[len(share) - top]
        candidates = np.nonzero(share >= kth)[0]
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


def characteristic_ngrams(
    table: NgramTable, pairs: Sequence[tuple[str, str]], alpha: float = 1.0, top: int = 10
) -> list[dict[str, Any]]:
    """For each pair ``(a, b)`` and each kind, the n-grams characteristic of a and of b."""
    return [
        {"left": a, "right": b, **{k: salient(table, a, b, k, alpha, top) for k in KINDS}}
        for a, b in pairs
    ]
