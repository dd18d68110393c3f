"""kaldialign 0.12.0 (``kaldialign``), computed by bleuprint's core.

``from bleuprint.compat.kaldialign import edit_distance, align, batch_error_rate,
bootstrap_wer_ci`` works as the same import from ``kaldialign``; :func:`install` makes
``import kaldialign`` load this package, for code you cannot edit; ``python -m
bleuprint.compat.kaldialign script.py ARGS`` runs a script that way.

The four functions take kaldialign's arguments and return its dicts and lists, with its
assertion errors; the counts are kaldialign's (Kaldi's tie rule, ``sclite_mode``'s costs 3/3/4,
``merge_compounds``), from :class:`bleuprint.WER` with ``aligner="kaldialign"``, and the
bootstrap is :func:`bleuprint.significance.bisani_ney_ci`, equal to kaldialign's for the same
seed. Symbols may be str, int or any orderable values, as there: without
``merge_compounds`` they compare as Python values, with it as their ``str``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any, Optional

from bleuprint.compat.aliasing import Alias, AlreadyImportedError
from bleuprint.metrics.wer import WERConfig
from bleuprint.significance.bisani_ney import bisani_ney_ci

__version__ = "0.12.0"

__all__ = ["align", "batch_error_rate", "bootstrap_wer_ci", "edit_distance"]


class KaldialignAlreadyImportedError(AlreadyImportedError):
    """The real kaldialign was imported before ``install()``."""


_alias = Alias("kaldialign", __name__, KaldialignAlreadyImportedError)
install, uninstall, installed = _alias.install, _alias.uninstall, _alias.installed


@functools.cache
def _config(sclite_mode: bool, merge_compounds: bool) -> WERConfig:
    # One config (and core kernel) per option pair, not one per call.
    return WERConfig(aligner="kaldialign", sclite_mode=sclite_mode, merge_compounds=merge_compounds)


def _tokens(
    sources: Sequence[Sequence[Sequence[Any]]], merge_compounds: bool, extra: tuple[Any, ...] = ()
) -> tuple[list[list[list[str]]], dict[str, Any]]:
    """Every sequence of ``sources`` as tokens the core compares as kaldialign compares them:
    ``str(symbol)`` with ``merge_compounds`` (kaldialign joins their text), else the index of
    the symbol among all of them, sorted (kaldialign's ``sym2int``, whose ``sorted`` raises
    the same ``TypeError`` for symbols that do not order). Returns them and token -> symbol."""
    if merge_compounds:
        return [[[str(s) for s in seq] for seq in source] for source in sources], {}
    symbols = sorted({s for source in sources for seq in source for s in seq} | set(extra))
    index = {s: str(k) for k, s in enumerate(symbols)}
    back = {token: s for s, token in index.items()}
    return [[[index[s] for s in seq] for seq in source] for source in sources], back


def _error_rate(total: int, ref_len: int) -> float:
    try:
        return total / ref_len
    except ZeroDivisionError:
        return 0.0 if total == 0 else float("inf")


def _counts(row: Sequence[int], ref_len: int) -> dict[str, Any]:
    s, d, i = (int(v) for v in row[:3])
    return {"ins": i, "del": d, "sub": s, "total": s + d + i, "ref_len": ref_len}


def edit_distance(
    ref: Iterable[Any],
    hyp: Iterable[Any],
    sclite_mode: bool = False,
    merge_compounds: bool = False,
) -> dict[str, Any]:
    """The edit distance of ``ref`` and ``hyp``: ``ins``, ``del``, ``sub``, ``total``,
    ``ref_len`` and ``err_rate`` (``total / ref_len``)."""
    ref, hyp = list(ref), list(hyp)
    (refs, hyps), _ = _tokens([[ref], [hyp]], merge_compounds)
    row = _config(bool(sclite_mode), bool(merge_compounds)).token_rows(hyps, refs)[0]
    ans = _counts(row, len(ref))
    ans["err_rate"] = _error_rate(ans["total"], len(ref))
    return ans


def batch_error_rate(
    refs: Iterable[Iterable[Any]],
    hyps: Iterable[Iterable[Any]],
    sclite_mode: bool = False,
    merge_compounds: bool = False,
) -> dict[str, Any]:
    """The counts of every pair summed, and ``err_rate`` = total errors / reference symbols."""
    # kaldialign asserts; an AssertionError raised here survives python -O.
    if isinstance(refs, str) or isinstance(hyps, str):
        raise AssertionError("The input must be an iterable of reference and hypothesis sequences.")
    refs_l, hyps_l = [list(r) for r in refs], [list(h) for h in hyps]
    if len(refs_l) != len(hyps_l):
        raise AssertionError(
            f"Inconsistent number of reference ({len(refs_l)}) and hypothesis ({len(hyps_l)}) "
            "sequences."
        )
    ans: dict[str, Any] = {"ins": 0, "del": 0, "sub": 0, "total": 0, "ref_len": 0}
    if refs_l:
        (r_tokens, h_tokens), _ = _tokens([refs_l, hyps_l], merge_compounds)
        rows = _config(bool(sclite_mode), bool(merge_compounds)).token_rows(h_tokens, r_tokens)
        for row, ref in zip(rows.tolist(), refs_l):
            for key, value in _counts(row, len(ref)).items():
                ans[key] += value
    ans["err_rate"] = _error_rate(ans["total"], ans["ref_len"])
    return ans


def align(
    ref: Iterable[Any],
    hyp: Iterable[Any],
    eps_symbol: Any,
    sclite_mode: bool = False,
    merge_compounds: bool = False,
) -> list[tuple[Any, Any]]:
    """The alignment of ``ref`` and ``hyp`` as pairs: ``eps_symbol`` first for an insertion,
    second for a deletion; with ``merge_compounds``, a compound is its words joined with
    spaces (``("white paper", "whitepaper")``) and every symbol is a ``str``."""
    ref, hyp = list(ref), list(hyp)
    (refs, hyps), back = _tokens([[ref], [hyp]], merge_compounds, (eps_symbol,))
    config = _config(bool(sclite_mode), bool(merge_compounds))
    _, _, ops, _ = config.pair_alignments(hyps, refs, tokens=True)
    r, h = refs[0], hyps[0]
    if merge_compounds:
        ref_out, hyp_out, eps = r, h, str(eps_symbol)
    else:
        ref_out, hyp_out, eps = [back[t] for t in r], [back[t] for t in h], eps_symbol
    out: list[tuple[Any, Any]] = []
    for tag, a, b, c, d in ops.tolist():
        if tag == 3:  # insert
            out += [(eps, hyp_out[j]) for j in range(c, d)]
        elif tag == 2:  # delete
            out += [(ref_out[i], eps) for i in range(a, b)]
        elif b - a != d - c:  # a merged compound
            out.append((" ".join(ref_out[a:b]), " ".join(hyp_out[c:d])))
        else:  # equal or substitute, one to one
            out += list(zip(ref_out[a:b], hyp_out[c:d]))
    return out


def bootstrap_wer_ci(
    refs: Sequence[Sequence[Any]],
    hyps: Sequence[Sequence[Any]],
    hyps2: Optional[Sequence[Sequence[Any]]] = None,
    replications: int = 10000,
    seed: int = 0,
    merge_compounds: bool = False,
) -> dict[str, Any]:
    """Bisani and Ney's bootstrap 95% interval of WER (``wer``, ``ci95``, ``ci95min``,
    ``ci95max``); with ``hyps2``, both systems' and ``p_s2_improv_over_s1``."""
    # kaldialign asserts; an AssertionError raised here survives python -O.
    if len(hyps) != len(refs):
        raise AssertionError(
            f"Inconsistent number of reference ({len(refs)}) and hypothesis ({len(hyps)}) "
            "sequences."
        )
    if replications <= 0:
        raise AssertionError("The number of replications must be greater than 0.")
    if seed < 0:
        raise AssertionError("The seed must be 0 or greater.")
    if isinstance(refs, str) or isinstance(hyps, str):
        raise AssertionError("The input must be a list of strings or list of lists of ints.")
    if hyps2 is not None and len(hyps2) != len(refs):
        raise AssertionError(
            f"Inconsistent number of reference ({len(refs)}) and hypothesis ({len(hyps2)}) "
            "sequences for the second system (hyp2_seqs)."
        )
    sources = [refs, hyps] if hyps2 is None else [refs, hyps, hyps2]
    tokens, _ = _tokens(sources, merge_compounds)
    config = _config(False, bool(merge_compounds))
    rows = config.token_rows(tokens[1], tokens[0])
    rows2 = None if hyps2 is None else config.token_rows(tokens[2], tokens[0])
    return bisani_ney_ci(rows, rows2, replications=replications, seed=seed)
