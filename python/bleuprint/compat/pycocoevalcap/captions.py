"""What the scorers of the drop-in share: upstream's checks of ``gts`` and ``res`` (image id to
references, and to a one-caption list) and their layout as bleuprint's reference streams."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Optional


def upstream_assert(condition: bool) -> None:
    """Upstream's bare ``assert``: an ``AssertionError`` without a message (raised here, so
    that it holds under ``python -O`` too)."""
    if not condition:
        raise AssertionError


def check_captions(gts: Mapping[Any, Any], res: Mapping[Any, Any]) -> None:
    """Upstream's assertions: the same image ids, one caption each, at least one reference."""
    upstream_assert(gts.keys() == res.keys())
    for image in gts:
        hypo, ref = res[image], gts[image]
        upstream_assert(type(hypo) is list)
        upstream_assert(len(hypo) == 1)
        upstream_assert(type(ref) is list)
        upstream_assert(len(ref) >= 1)


def caption_streams(
    gts: Mapping[Any, Sequence[str]], res: Mapping[Any, Sequence[str]]
) -> tuple[list[str], list[list[Optional[str]]]]:
    """The captions in ``gts``' key order, and the references as streams (``None`` where an
    image has fewer references than the most any has)."""
    images = list(gts.keys())
    most = max((len(gts[i]) for i in images), default=0)
    streams = [[gts[i][k] if k < len(gts[i]) else None for i in images] for k in range(most)]
    return [res[i][0] for i in images], streams
