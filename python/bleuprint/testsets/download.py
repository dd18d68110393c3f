"""Downloads of test-set files: atomic, locked, MD5-verified, retried and resumed.

:func:`fetch` replaces sacrebleu's ``download_file``, which writes straight into the cache
(a cut-off transfer stays there as if complete, sacrebleu #16) and gives up on the first
error. Here:

- the data goes to ``DEST.part`` beside ``dest`` and is renamed into place only when complete
  and its MD5 matches, so ``dest`` is never partial;
- ``DEST.lock`` (the lock file sacrebleu's portalocker takes, also an ``flock``) serialises
  processes: a second one waits, then finds the file done;
- connection errors, timeouts, 408, 429 and 5xx are retried with exponential backoff; a
  transfer cut off mid-body resumes with an HTTP ``Range`` request;
- ``BLEUPRINT_TESTSET_MIRROR`` (a base URL or a folder) replaces the original server: the
  file is looked up there under :func:`cache_file_name`, the name sacrebleu gives it in its
  cache (``wmt19/google/ar`` + ``.../test.tgz`` -> ``wmt19_google_ar.test.tgz``).
"""

from __future__ import annotations

import email.utils
import hashlib
import http.client
import logging
import os
import re
import shutil
import socket
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import suppress
from pathlib import Path
from typing import Optional

from bleuprint.errors import BleuprintError, InvalidOptionError
from bleuprint.io import progress as _progress
from bleuprint.io.file_lock import file_lock

#: A base URL (``https://host/path``) or a local folder (a path or ``file://`` URL) holding
#: test-set files under their cache names; when set, the original servers are not contacted.
MIRROR_ENV = "BLEUPRINT_TESTSET_MIRROR"
#: Seconds a request may wait for the server (to connect, or for the next data) before it is
#: abandoned and retried.
TIMEOUT_ENV = "BLEUPRINT_DOWNLOAD_TIMEOUT"
DEFAULT_TIMEOUT = 60.0
#: Retries after the first attempt, for failures that made no progress.
DEFAULT_RETRIES = 4
#: Seconds before the first retry; each later one waits twice as long, up to MAX_BACKOFF.
DEFAULT_BACKOFF = 1.0
MAX_BACKOFF = 60.0

_CHUNK = 1 << 16
_log = logging.getLogger(__name__)


class DownloadError(BleuprintError, OSError):
    """A test-set file that can be neither downloaded nor fetched from the mirror."""

    __test__ = False


class ChecksumError(DownloadError):
    """Downloaded data whose MD5 sum is not the registry's."""


class _Transient(Exception):
    """A failure worth retrying (the server or the network may recover)."""


class _Permanent(Exception):
    """A failure that retrying cannot fix (404, 403, an unknown host)."""


def cache_file_name(testset: str, url: str) -> str:
    """The name sacrebleu gives a downloaded file in ``NAME/raw/``: the test set's name with
    ``/`` as ``_``, a dot, and the URL's last path segment."""
    return testset.replace("/", "_") + "." + os.path.basename(url)


def mirror_location(mirror: str, testset: str, url: str) -> str:
    """Where ``mirror`` (a base URL or a folder) holds the file: ``<mirror>/<cache file name>``.
    A URL for an ``http(s)`` mirror, otherwise a local path."""
    name = cache_file_name(testset, url)
    if _is_remote(mirror):
        return mirror.rstrip("/") + "/" + urllib.parse.quote(name)
    return str(_mirror_folder(mirror) / name)


def _is_remote(mirror: str) -> bool:
    return urllib.parse.urlsplit(mirror).scheme.lower() in ("http", "https")


def _mirror_folder(mirror: str) -> Path:
    if mirror.lower().startswith("file://"):
        return Path(urllib.request.url2pathname(urllib.parse.urlsplit(mirror).path))
    return Path(os.path.expanduser(mirror))


def _timeout_from_env() -> float:
    value = os.environ.get(TIMEOUT_ENV, "")
    if not value:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not seconds > 0:
        raise InvalidOptionError(
            f"{TIMEOUT_ENV}={value!r} is not a positive number of seconds; unset it for the "
            f"default ({DEFAULT_TIMEOUT:g})"
        )
    return seconds


def file_md5(path: Path) -> str:
    digest = hashlib.md5(usedforsecurity=False)
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def fetch(
    url: str,
    dest: Path,
    *,
    md5: str | None,
    testset: str,
    progress: bool | None = None,
    timeout: float | None = None,
    retries: int = DEFAULT_RETRIES,
    backoff: float = DEFAULT_BACKOFF,
) -> Path:
    """Puts the file at ``url`` (or its copy on ``$BLEUPRINT_TESTSET_MIRROR``) at ``dest`` and
    returns ``dest``.

    A ``dest`` already there is kept when its MD5 matches (any file when ``md5`` is None);
    one that does not (an interrupted sacrebleu download) is replaced. ``progress``: True for
    a bar on stderr, False for none, None for a bar when stderr is a terminal;
    ``BLEUPRINT_NO_PROGRESS`` turns it off. ``timeout``: seconds without data before a request
    is retried (default ``$BLEUPRINT_DOWNLOAD_TIMEOUT``, else 60). ``retries``: further
    attempts after failures that brought no new data, ``backoff`` seconds apart at first,
    doubling each time.

    Raises :class:`ChecksumError` when the data's MD5 is not ``md5`` and
    :class:`DownloadError` when the file cannot be had; both name the way out.
    """
    dest = Path(dest)
    expected = md5.lower() if md5 else None
    if timeout is None:
        timeout = _timeout_from_env()
    mirror = os.environ.get(MIRROR_ENV) or None
    source = mirror_location(mirror, testset, url) if mirror else url
    show = _progress.wanted_on_terminal() if progress is None else progress
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _unavailable(
            testset, url, dest, source, f"cannot create {dest.parent}: {exc}"
        ) from exc

    def waiting() -> None:
        message = f"waiting for another process downloading {dest.name} (lock {dest}.lock)"
        _log.info(message)
        if show:
            print(f"bleuprint: {message}", file=sys.stderr, flush=True)

    with file_lock(Path(f"{dest}.lock"), waiting):
        if dest.is_file() and dest.stat().st_size > 0:
            if expected is None:
                return dest
            found = file_md5(dest)
            if found == expected:
                return dest
            _log.warning(
                "%s has MD5 %s, not %s (an interrupted download?); fetching it again",
                dest, found, expected,
            )  # fmt: skip
        part = dest.with_name(dest.name + ".part")
        reporter = _progress.reporter(show, total=None, what=f"{testset} {dest.name}", unit="KiB")
        # A part left by an earlier run may belong to another version of the file: when the
        # result does not verify, it is downloaded once more from the start.
        attempts = 2 if _size(part) > 0 else 1
        for attempt in range(attempts):
            try:
                if mirror and not _is_remote(mirror):
                    _copy_local(Path(source), part)
                else:
                    _download(source, part, timeout, retries, backoff, reporter)
            except _Permanent as exc:
                raise _unavailable(testset, url, dest, source, str(exc)) from None
            try:
                _verify(part, expected, testset, source, dest)
            except ChecksumError:
                if attempt + 1 == attempts:
                    raise
                _log.warning("%s resumed from an earlier run did not verify; starting over", dest)
                continue
            break
        os.replace(part, dest)
    return dest


def install_file(source: Path, dest: Path, *, md5: str | None) -> bool:
    """Copies the local file ``source`` to ``dest`` the way :func:`fetch` places a download:
    through ``DEST.part``, under ``DEST.lock``, verified against ``md5``. Returns False (and
    copies nothing) when ``dest`` already holds that file."""
    expected = md5.lower() if md5 else None
    dest.parent.mkdir(parents=True, exist_ok=True)
    with file_lock(Path(f"{dest}.lock")):
        if dest.is_file() and expected is not None and file_md5(dest) == expected:
            return False
        part = dest.with_name(dest.name + ".part")
        try:
            shutil.copyfile(source, part)
        except BaseException:
            with suppress(OSError):
                part.unlink()
            raise
        _verify(part, expected, "", str(source), dest)
        os.replace(part, dest)
    return True


def _verify(part: Path, expected: Optional[str], testset: str, source: str, dest: Path) -> None:
    if expected is None:
        return
    actual = file_md5(part)
    if actual != expected:
        with suppress(OSError):
            part.unlink()
        what = f" for test set {testset!r}" if testset else ""
        raise ChecksumError(
            f"the file{what} from {source} has MD5 {actual}, not "
            f"the expected {expected}; nothing was written to {dest}. The download was "
            "deleted: run again to retry; if it fails again, the file on the server (or "
            f"mirror, ${MIRROR_ENV}) is not the one the registry knows"
        )


def _unavailable(testset: str, url: str, dest: Path, source: str, reason: str) -> DownloadError:
    mirror = os.environ.get(MIRROR_ENV)
    where = (
        f"the mirror {source} (${MIRROR_ENV}={mirror}; original URL {url})"
        if mirror
        else url
    )  # fmt: skip
    return DownloadError(
        f"cannot download test set {testset!r} from {where}: {reason}. The file belongs in "
        f"the cache at {dest}. Either run `bleuprint --download {testset}` where there is "
        "network access and copy the cache folder ($SACREBLEU, default ~/.sacrebleu) here; or "
        f"set {MIRROR_ENV} to a URL or folder holding {dest.name}; or download {url} "
        "yourself and run `bleuprint testset import FILE`"
    )


def _copy_local(source: Path, part: Path) -> None:
    if not source.is_file():
        raise _Permanent(f"no file {source}")
    try:
        shutil.copyfile(source, part)
    except OSError as exc:
        with suppress(OSError):
            part.unlink()
        raise _Permanent(f"cannot copy {source}: {exc}") from exc


Reporter = Optional[_progress.ProgressCallback]


def _download(
    url: str, part: Path, timeout: float, retries: int, backoff: float, report: Reporter
) -> None:
    """Downloads ``url`` into ``part``, resuming what ``part`` already holds. A failure counts
    against ``retries`` only when it brought no new data, so a link that keeps dropping still
    finishes while a dead one gives up."""
    validator: list[str] = []  # the ETag or Last-Modified that makes a resume safe (If-Range)
    best = _size(part)
    failures = 0
    while True:
        try:
            done = _attempt(url, part, timeout, validator, report)
        except _Transient as exc:
            size = _size(part)
            if size > best:
                best, failures = size, 0
                _log.info("download of %s cut off at %d bytes (%s); resuming", url, size, exc)
                continue
            failures += 1
            if failures > retries:
                raise _Permanent(f"{exc} (gave up after {failures} attempts)") from None
            wait = min(backoff * 2 ** (failures - 1), MAX_BACKOFF)
            wait = max(wait, _retry_after(exc))
            _log.info("download of %s failed (%s); retrying in %.1f s", url, exc, wait)
            time.sleep(wait)
            continue
        if report is not None:
            report(done // 1024, done // 1024)  # closes the bar, total known or not
        return


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


class _Busy(_Transient):
    """A 429 or 503, with the server's Retry-After in seconds (0 when absent)."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def _retry_after(exc: _Transient) -> float:
    return min(exc.retry_after, MAX_BACKOFF) if isinstance(exc, _Busy) else 0.0


def _parse_retry_after(value: Optional[str]) -> float:
    if not value:
        return 0.0
    if value.strip().isdigit():
        return float(value.strip())
    when = email.utils.parsedate_to_datetime(value) if "," in value else None
    return max(0.0, when.timestamp() - time.time()) if when is not None else 0.0


_CONTENT_RANGE = re.compile(r"bytes\s+(\d+)-(\d+)/(\d+|\*)")


def _attempt(url: str, part: Path, timeout: float, validator: list[str], report: Reporter) -> int:
    """One request; returns the complete size, or raises _Transient/_Permanent (keeping in
    ``part`` whatever arrived)."""
    have = _size(part)
    headers = {"User-Agent": _user_agent(), "Accept-Encoding": "identity"}
    if have:
        headers["Range"] = f"bytes={have}-"
        if validator:
            headers["If-Range"] = validator[0]
    request = urllib.request.Request(url, headers=headers)
    try:
        response = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as exc:
        with exc:  # its body is an open socket
            if exc.code == 416 and have and _range_end(exc) == have:
                return have  # the part was complete already (an earlier run stopped at the end)
            raise _status_error(exc, have, part) from None
    except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
        reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
        if isinstance(reason, socket.gaierror):  # no DNS: offline, retrying will not help
            raise _Permanent(f"cannot resolve the host ({reason})") from None
        raise _Transient(str(reason) or type(reason).__name__) from None
    with response:
        status = response.status
        length = response.headers.get("Content-Length")
        if status == 206:
            match = _CONTENT_RANGE.match(response.headers.get("Content-Range", ""))
            if match is None or int(match.group(1)) != have:
                part.unlink()  # a range we did not ask for: start over
                raise _Transient(f"bad Content-Range {response.headers.get('Content-Range')!r}")
            total: Optional[int] = None if match.group(3) == "*" else int(match.group(3))
            mode = "ab"
        elif status == 200:  # a full body: the server ignores Range, or the file changed
            total = int(length) if length and length.isdigit() else None
            have, mode = 0, "wb"
        else:
            raise _Permanent(f"unexpected HTTP status {status}")
        if not validator:
            etag = response.headers.get("ETag", "")
            if etag and not etag.startswith("W/"):  # If-Range takes strong validators only
                validator.append(etag)
            elif response.headers.get("Last-Modified"):
                validator.append(response.headers["Last-Modified"])
        done = have
        total_k = None if total is None else -(-total // 1024)
        try:
            with part.open(mode) as out:
                while block := response.read1(_CHUNK):  # what has arrived, no more
                    out.write(block)
                    done += len(block)
                    if report is not None:
                        report(done // 1024, total_k)
                out.flush()
                os.fsync(out.fileno())
        except (OSError, http.client.HTTPException) as exc:
            reason = str(exc) or type(exc).__name__
            raise _Transient(f"transfer cut off after {done} bytes ({reason})") from None
    if total is not None and done < total:
        raise _Transient(f"transfer cut off after {done} of {total} bytes")
    if total is not None and done > total:
        part.unlink()
        raise _Transient(f"the server sent {done} bytes, more than the {total} it announced")
    return done


def _range_end(exc: urllib.error.HTTPError) -> Optional[int]:
    """The size a 416 answer announces (``Content-Range: bytes */SIZE``), if any."""
    match = re.match(r"bytes\s+\*/(\d+)", exc.headers.get("Content-Range", "") or "")
    return None if match is None else int(match.group(1))


def _status_error(exc: urllib.error.HTTPError, have: int, part: Path) -> Exception:
    code = exc.code
    if code == 416 and have:  # our partial data does not fit the file: start over
        part.unlink()
        return _Transient(f"the server refused to resume at byte {have} (HTTP 416)")
    if code in (429, 503):
        return _Busy(
            f"HTTP {code} {exc.reason}", _parse_retry_after(exc.headers.get("Retry-After"))
        )
    if code == 408 or code >= 500:
        return _Transient(f"HTTP {code} {exc.reason}")
    return _Permanent(f"HTTP {code} {exc.reason}")


def _user_agent() -> str:
    # Some servers refuse urllib's default "Python-urllib/3.x" User-Agent.
    from importlib import metadata

    try:
        return f"bleuprint/{metadata.version('bleuprint')}"
    except metadata.PackageNotFoundError:
        return "bleuprint"


__all__ = [
    "DEFAULT_BACKOFF",
    "DEFAULT_RETRIES",
    "DEFAULT_TIMEOUT",
    "MIRROR_ENV",
    "TIMEOUT_ENV",
    "ChecksumError",
    "DownloadError",
    "cache_file_name",
    "fetch",
    "file_md5",
    "install_file",
    "mirror_location",
]
