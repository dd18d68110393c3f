"""What the scorers of the drop-in share: upstream's checks of ``gts`` and ``res`` (image id to
references, and to a one-caption list) and their layout as bleuprint's reference streams."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import zip_longest
from typing import Any, Optional


def upstream_assert(condition: bool) -> None:
    """Upstream's bare ``assert``: an ``AssertionError`` without a message (raised here, so
    that it holds under ``python -O`` too)."""
    if not condition:
        raise AssertionError


def check_captions(gts: Mapping[Any, Any], res: Mapping[Any, Any]) -> None:
    """Upstream's assertions: the same image ids, one caption each, at least one reference
    (upstream asserts them image by image; each fails with the same bare ``AssertionError``)."""
    upstream_assert(gts.keys() == res.keys())
    upstream_assert(all(type(hypo) is list and len(hypo) == 1 for hypo in res.values()))
    upstream_assert(all(type(ref) is list and len(ref) >= 1 for ref in gts.values()))


def caption_streams(
    gts: Mapping[Any, Sequence[str]], res: Mapping[Any, Sequence[str]]
) -> tuple[list[str], list[list[Optional[str]]]]:
    """The captions in ``gts``' key order, and the references as streams (``None`` where an
    image has fewer references than the most any has)."""
    captions = [res[image][0] for image in gts]
    # The references transposed in C: stream k holds each image's k-th reference.
    return captions, [list(stream) for stream in zip_longest(*gts.values())]
