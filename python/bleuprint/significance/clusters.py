"""Groups of systems that are not significantly different from each other."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence


def rank_clusters(ranked: Sequence[str], different: Collection[frozenset[str]]) -> list[list[str]]:
    """Splits systems, best first, into consecutive clusters.

    Walking down the ranking, a system joins the current cluster when it is not
    significantly different from any system already in it, and starts a new cluster
    otherwise. So within a cluster no pair differs significantly, and every cluster boundary
    is justified by at least one significant difference.

    Parameters
    ----------
    ranked
        System names from best to worst score.
    different
        The pairs (as frozensets of two names) whose difference is significant.
    """
    clusters: list[list[str]] = []
    for system in ranked:
        if clusters and not any(frozenset((system, m)) in different for m in clusters[-1]):
            clusters[-1].append(system)
        else:
            clusters.append([system])
    return clusters


def cluster_numbers(clusters: Sequence[Sequence[str]]) -> Mapping[str, int]:
    """Each system's cluster number, 1 for the best cluster."""
    return {s: k for k, members in enumerate(clusters, start=1) for s in members}
