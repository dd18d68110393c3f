"""The test-set cache, laid out as sacrebleu lays it out so either tool can use the other's.

    $SACREBLEU (default ~/.sacrebleu)/
      NAME/raw/NAME_.BASENAME         each download ("/" in NAME becomes "_")
      NAME/raw/...                    what the archives hold, extracted
      NAME/NAME_.PAIR.FIELD           one text field, one segment a line (":" becomes "-")
      NAME/NAME_.PAIR.bleuprint.json  bleuprint's record of the pair's fields (sacrebleu
                                      never reads it): names, line counts and SHA-256 sums

A pair's text files are used only when they match that record; files without a record (made
by sacrebleu) are used when every field of the pair has the same, non-zero, line count.
Anything else is rebuilt from the raw files.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import tarfile
import tempfile
import zipfile
from pathlib import Path
from typing import Any, Protocol, cast

from bleuprint.testsets import fields as fields_of
from bleuprint.testsets.errors import TestSetError
from bleuprint.testsets.registry import Entry

SIDECAR_SUFFIX = ".bleuprint.json"
SIDECAR_VERSION = 1


class _Fetch(Protocol):
    def __call__(
        self, url: str, dest: Path, *, md5: str | None, testset: str, progress: bool | None = ...
    ) -> Path: ...


def cache_root() -> Path:
    """``$SACREBLEU``, else ``~/.sacrebleu`` (read at each call)."""
    env = os.environ.get("SACREBLEU")
    return Path(env) if env else Path(os.path.expanduser("~")) / ".sacrebleu"


def outdir(entry: Entry) -> Path:
    return cache_root() / entry.name


def rawdir(entry: Entry) -> Path:
    return outdir(entry) / "raw"


def download_name(entry: Entry, url: str) -> str:
    """The file name a download is stored under in the raw folder."""
    return f"{entry.file_stem}.{os.path.basename(url)}"


def text_path(entry: Entry, langpair: str, field: str) -> Path:
    return outdir(entry) / f"{entry.file_stem}.{langpair}.{field.replace(':', '-')}"


def sidecar_path(entry: Entry, langpair: str) -> Path:
    return outdir(entry) / f"{entry.file_stem}.{langpair}{SIDECAR_SUFFIX}"


# -- raw files -----------------------------------------------------------------------------


def fetch_function() -> _Fetch:
    """``bleuprint.testsets.download.fetch``, imported when first needed."""
    try:  # start-up time: HTTP loads only when a file must be downloaded
        module = importlib.import_module("bleuprint.testsets.download")
    except ImportError as e:
        raise TestSetError(
            f"cannot download test sets: bleuprint.testsets.download is unavailable ({e}); "
            "place the raw files in the cache by hand (see docs/testsets.md)"
        ) from None
    return cast(_Fetch, module.fetch)


def _is_archive(path: Path) -> bool:
    return path.name.endswith((".tar.gz", ".tgz", ".zip"))


def extract(archive: Path, dest: Path) -> None:
    """Unpack ``archive`` into ``dest``, file by file atomically, never outside ``dest``."""
    with tempfile.TemporaryDirectory(dir=dest, prefix=".extract-") as tmp:
        if archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as zipped:
                zipped.extractall(tmp)  # zipfile drops absolute and ".." parts itself
        else:
            with tarfile.open(archive) as tar:
                if hasattr(tarfile, "data_filter"):
                    tar.extractall(tmp, filter="data")
                else:  # Pythons without extraction filters: refuse escaping members
                    base = os.path.realpath(tmp)
                    for member in tar.getmembers():
                        target = os.path.realpath(os.path.join(tmp, member.name))
                        if member.issym() or member.islnk() or not target.startswith(base):
                            raise TestSetError(f"{archive} has an unsafe member {member.name}")
                    tar.extractall(tmp)
        for folder, _, files in os.walk(tmp):
            target_folder = dest / os.path.relpath(folder, tmp)
            target_folder.mkdir(parents=True, exist_ok=True)
            for name in files:
                os.replace(os.path.join(folder, name), target_folder / name)


def ensure_raw(entry: Entry, langpairs: list[str], *, progress: bool | None = None) -> None:
    """Download what is missing of ``entry``'s raw data and extract it.

    A download already in the raw folder is kept (sacrebleu's rule), but when files the
    requested pairs need are missing, each download is verified (a damaged one, such as an
    interrupted sacrebleu download, is fetched again) and extracted again.
    """
    raw = rawdir(entry)
    raw.mkdir(parents=True, exist_ok=True)
    checksums: list[str | None] = list(entry.md5) if entry.md5 else [None] * len(entry.data)
    for url, md5 in zip(entry.data, checksums):
        download = raw / download_name(entry, url)
        if download.is_file() and download.stat().st_size > 0:
            continue
        fetch_function()(url, download, md5=md5, testset=entry.name, progress=progress)
        if _is_archive(download):
            extract(download, raw)
    needed = [p for pair in langpairs for p in fields_of.raw_files(entry, pair, raw)]
    if all(p.is_file() for p in needed):
        return
    for url, md5 in zip(entry.data, checksums):
        download = raw / download_name(entry, url)
        fetch_function()(url, download, md5=md5, testset=entry.name, progress=progress)
        if _is_archive(download):
            extract(download, raw)
    missing = [str(p) for p in needed if not p.is_file()]
    if missing:
        raise TestSetError(
            f"test set {entry.name}: the raw files {', '.join(missing)} are missing after "
            f"extraction; delete {raw} so that it is downloaded again"
        )


# -- text files ----------------------------------------------------------------------------


def _file_record(path: Path) -> tuple[int, str]:
    data = path.read_bytes()
    return data.count(b"\n"), hashlib.sha256(data).hexdigest()


def _read_sidecar(entry: Entry, langpair: str) -> list[dict[str, Any]] | None:
    path = sidecar_path(entry, langpair)
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("version") != SIDECAR_VERSION:
        return None
    found = record.get("fields")
    return found if isinstance(found, list) else None


def recorded_names(entry: Entry, langpair: str) -> list[str] | None:
    """The pair's field names when its text files match bleuprint's record, else None."""
    record = _read_sidecar(entry, langpair)
    if record is None:
        return None
    try:
        for item in record:
            path = text_path(entry, langpair, str(item["name"]))
            if not path.is_file() or _file_record(path) != (item["lines"], item["sha256"]):
                return None
        return [str(item["name"]) for item in record]
    except (KeyError, TypeError, OSError):
        return None


def unrecorded_files_valid(entry: Entry, langpair: str, names: list[str]) -> bool:
    """Whether text files without a record (sacrebleu's) can be trusted: all fields exist
    and have the same, non-zero, number of lines."""
    counts = set()
    for name in names:
        path = text_path(entry, langpair, name)
        if not path.is_file():
            return False
        counts.add(path.read_bytes().count(b"\n"))
    return len(counts) == 1 and 0 not in counts


def write_pair(entry: Entry, langpair: str, fields: dict[str, list[str]]) -> None:
    """Write the pair's text files (each atomically), then the record of them."""
    folder = outdir(entry)
    folder.mkdir(parents=True, exist_ok=True)
    record = []
    for name, lines in fields.items():
        data = "".join(line + "\n" for line in lines).encode("utf-8")
        _write_atomic(text_path(entry, langpair, name), data)
        record.append(
            {"name": name, "lines": len(lines), "sha256": hashlib.sha256(data).hexdigest()}
        )
    document = {"version": SIDECAR_VERSION, "fields": record}
    _write_atomic(sidecar_path(entry, langpair), json.dumps(document, indent=1).encode())


def _write_atomic(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def rebuild(entry: Entry, langpair: str, *, progress: bool | None = None) -> list[str]:
    """Process the pair's raw files into text files again; returns the field names."""
    ensure_raw(entry, [langpair], progress=progress)
    built = fields_of.build(entry, langpair, rawdir(entry))
    write_pair(entry, langpair, built)
    return list(built)


def field_names(entry: Entry, langpair: str, *, progress: bool | None = None) -> list[str]:
    """The pair's field names (WMT XML: read from the record, else from the raw file)."""
    names = fields_of.static_names(entry, langpair)
    if names is not None:
        return names
    recorded = recorded_names(entry, langpair)
    if recorded is not None:
        return recorded
    ensure_raw(entry, [langpair], progress=progress)
    return list(fields_of.build(entry, langpair, rawdir(entry)))


def prepare(entry: Entry, langpair: str, *, progress: bool | None = None) -> list[str]:
    """Make sure the pair's text files are present and trustworthy; returns the field names."""
    recorded = recorded_names(entry, langpair)
    if recorded is not None:
        expected = fields_of.static_names(entry, langpair)
        if expected is None or expected == recorded:
            return recorded
    elif sidecar_path(entry, langpair).exists():
        return rebuild(entry, langpair, progress=progress)  # recorded, but changed since
    else:
        names = field_names(entry, langpair, progress=progress)
        if unrecorded_files_valid(entry, langpair, names):
            return names
    return rebuild(entry, langpair, progress=progress)


def remove_text_files(entry: Entry) -> None:
    """Delete every processed text file and record of ``entry`` (the raw folder stays)."""
    folder = outdir(entry)
    if not folder.is_dir():
        return
    for path in folder.iterdir():
        if path.is_file() and path.name.startswith(f"{entry.file_stem}."):
            path.unlink()
