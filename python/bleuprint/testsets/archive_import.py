"""Filling the test-set cache from a file downloaded elsewhere (air-gapped machines).

:func:`import_archive` recognises the file by its MD5 sum among every registry URL's, so a
renamed download is still found; only when no sum matches does the name matter, to say
which test set it resembles. The file is copied to ``NAME/raw/<cache file name>`` for every
test set that uses it, exactly where a download would have put it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Protocol, Union

from bleuprint.errors import BleuprintError, InputTypeError
from bleuprint.testsets import registry as built_in
from bleuprint.testsets.cache import cache_root as default_cache_root
from bleuprint.testsets.download import cache_file_name, file_md5, install_file


class ArchiveImportError(BleuprintError, OSError):
    """A file that cannot be read, or copied into the cache."""


class UnknownArchiveError(BleuprintError, ValueError):
    """A file that is none of the registry's downloads."""


class RegistryEntry(Protocol):
    """What import needs of a registry entry (``bleuprint.testsets.registry.Entry``)."""

    @property
    def name(self) -> str: ...
    @property
    def data(self) -> tuple[str, ...]: ...
    @property
    def md5(self) -> Optional[tuple[str, ...]]: ...


@dataclass(frozen=True)
class ImportedFile:
    """One copy made by :func:`import_archive`."""

    testset: str
    url: str
    path: Path
    #: False when the cache already held this exact file (nothing was copied).
    copied: bool

    def __str__(self) -> str:
        done = "imported" if self.copied else "already cached"
        return f"{self.testset}: {done} as {self.path} (from {self.url})"


Registry = Union[Mapping[str, RegistryEntry], Iterable[RegistryEntry]]


def import_archive(
    path: Path, cache_root: Path | None = None, *, registry: Registry | None = None
) -> list[ImportedFile]:
    """Copies ``path`` into the cache (``cache_root``, default ``$SACREBLEU`` or
    ``~/.sacrebleu``) for every test set whose registry lists a download with its MD5 sum
    (for an entry without sums: with its file name). Returns what was imported, one item per
    test set. ``registry`` defaults to the built-in one.

    Raises :class:`UnknownArchiveError` for a file no test set knows, naming the test sets
    whose download has the same file name when there are any.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise InputTypeError(f"path must be a file path, got {type(path).__name__}")
    path = Path(path)
    if not path.is_file():
        raise UnknownArchiveError(f"{path} is not a file; pass the downloaded archive itself")
    entries = _entries(registry)
    try:
        digest = file_md5(path)
    except OSError as exc:
        raise ArchiveImportError(f"cannot read {path}: {exc}") from exc
    matches: list[tuple[RegistryEntry, str, Optional[str]]] = []
    same_name: list[tuple[RegistryEntry, str, Optional[str]]] = []
    for entry in entries:
        sums: list[Optional[str]] = list(entry.md5) if entry.md5 else [None] * len(entry.data)
        for url, md5 in zip(entry.data, sums):
            if md5 is not None and md5.lower() == digest:
                matches.append((entry, url, md5))
            elif path.name in (os.path.basename(url), cache_file_name(entry.name, url)):
                same_name.append((entry, url, md5))
    if not matches:
        unchecked = [m for m in same_name if m[2] is None]
        if unchecked:
            matches = unchecked
        elif same_name:
            expected = "; ".join(f"{e.name}: {md5} (from {url})" for e, url, md5 in same_name)
            raise UnknownArchiveError(
                f"{path} has MD5 {digest}, which is not the registry's for a file of that "
                f"name ({expected}); it is another version or a damaged download: "
                "download it again from the URL shown"
            )
        else:
            raise UnknownArchiveError(
                f"{path} (MD5 {digest}) is not a download of any built-in test set: neither "
                "its MD5 sum nor its name matches one in the registry (`bleuprint --list` shows "
                "the test sets)"
            )
    root = default_cache_root() if cache_root is None else Path(cache_root)
    imported = []
    for entry, url, md5 in matches:
        dest = root / entry.name / "raw" / cache_file_name(entry.name, url)
        try:
            copied = install_file(path, dest, md5=md5)
        except OSError as exc:
            raise ArchiveImportError(
                f"cannot copy {path} into the cache at {dest}: {exc}; make the folder "
                "writable, or choose another cache ($SACREBLEU or cache_root=)"
            ) from exc
        imported.append(ImportedFile(entry.name, url, dest, copied))
    return imported


def _entries(registry: Registry | None) -> list[RegistryEntry]:
    if registry is None:
        return list(built_in.entries().values())
    if isinstance(registry, Mapping):
        return list(registry.values())
    return list(registry)


__all__ = ["ArchiveImportError", "ImportedFile", "UnknownArchiveError", "import_archive"]
