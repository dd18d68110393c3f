"""COCO caption files: the annotations (references) and a results file (one caption per image),
read and checked, in the order pycocotools gives them to pycocoevalcap.

- Annotations: ``{"images": [{"id": ...}, ...], "annotations": [{"image_id": ..., "caption":
  str}, ...]}``; ``images`` may be absent (the images are then those of the annotations).
- Results: ``[{"image_id": ..., "caption": str}, ...]``.

Every problem raises :class:`~bleuprint.errors.InvalidInputError` naming the file, the entry
and the fix; no image is dropped in silence.
"""

from __future__ import annotations

import json
import os
from collections.abc import Hashable
from typing import Any, Union

from bleuprint.errors import InvalidInputError

Path = Union[str, "os.PathLike[str]"]


def _load(path: Path, what: str) -> Any:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except json.JSONDecodeError as error:
        raise InvalidInputError(f"{what} {os.fspath(path)!r} is not JSON: {error}") from error
    except UnicodeDecodeError as error:
        raise InvalidInputError(f"{what} {os.fspath(path)!r} is not UTF-8: {error}") from error


def _entry(item: Any, index: int, where: str) -> tuple[Hashable, str]:
    """An entry's ``(image_id, caption)``."""
    if not isinstance(item, dict):
        raise InvalidInputError(f"{where}: entry {index} is a {type(item).__name__}, not an object")
    if "image_id" not in item:
        raise InvalidInputError(f"{where}: entry {index} has no image_id")
    image = item["image_id"]
    if not isinstance(image, (int, str)) or isinstance(image, bool):
        raise InvalidInputError(
            f"{where}: entry {index} has image_id {image!r}; an image id is an int or a str"
        )
    caption = item.get("caption")
    if not isinstance(caption, str):
        raise InvalidInputError(
            f"{where}: entry {index} (image {image!r}) has caption {caption!r}; a caption is a str"
        )
    return image, caption


def read_coco_annotations(path: Path) -> dict[Hashable, list[str]]:
    """Image id to its reference captions, in the file's order of images (``images``, else
    the annotations') and of annotations."""
    where = f"annotations {os.fspath(path)!r}"
    data = _load(path, "annotations")
    if not isinstance(data, dict) or not isinstance(data.get("annotations"), list):
        raise InvalidInputError(
            f"{where}: expected a COCO captions file, an object with an 'annotations' list"
        )
    references: dict[Hashable, list[str]] = {}
    images = data.get("images")
    if images is not None:
        if not isinstance(images, list):
            raise InvalidInputError(f"{where}: 'images' is not a list")
        for i, image in enumerate(images):
            if not isinstance(image, dict) or not isinstance(image.get("id"), (int, str)):
                raise InvalidInputError(f"{where}: images entry {i} has no int or str 'id'")
            references.setdefault(image["id"], [])
    for i, item in enumerate(data["annotations"]):
        image, caption = _entry(item, i, where)
        if images is not None and image not in references:
            raise InvalidInputError(
                f"{where}: annotation {i} is for image {image!r}, which 'images' does not list"
            )
        references.setdefault(image, []).append(caption)
    if not any(references.values()):
        raise InvalidInputError(f"{where}: no annotations")
    return references


def read_coco_results(path: Path) -> dict[Hashable, str]:
    """Image id to its one caption, in the file's order."""
    where = f"results {os.fspath(path)!r}"
    data = _load(path, "results")
    if not isinstance(data, list):
        raise InvalidInputError(f"{where}: expected a COCO results file, a list of objects")
    results: dict[Hashable, str] = {}
    for i, item in enumerate(data):
        image, caption = _entry(item, i, where)
        if image in results:
            raise InvalidInputError(
                f"{where}: image {image!r} has more than one result (entry {i}); COCO scores "
                "one caption per image"
            )
        results[image] = caption
    if not results:
        raise InvalidInputError(f"{where}: no results")
    return results


__all__ = ["read_coco_annotations", "read_coco_results"]
