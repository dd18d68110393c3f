"""Test-set downloads against a real HTTP server on 127.0.0.1 (tests/support/http_server.py) that
injects faults: atomic and locked (two real processes), MD5-verified, retried, resumed with
Range requests, the mirror (URL and folder), the offline error, the progress bar, and
importing a downloaded archive into the cache."""

from __future__ import annotations

import fcntl
import hashlib
import io
import os
import pty
import queue
import socket
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bleuprint.errors import BleuprintError, InputTypeError, InvalidOptionError
from bleuprint.io import progress
from bleuprint.testsets import registry
from bleuprint.testsets.archive_import import (
    ArchiveImportError,
    UnknownArchiveError,
    import_archive,
)
from bleuprint.testsets.download import (
    MIRROR_ENV,
    TIMEOUT_ENV,
    ChecksumError,
    DownloadError,
    cache_file_name,
    fetch,
    mirror_location,
)
from tests.support.http_server import FileServer, running_server

# Bytes that are not a repetition, so a resume at the wrong offset cannot go unnoticed.
DATA = hashlib.sha256(b"seed").digest() * 6000  # 192,000 bytes
DATA_MD5 = hashlib.md5(DATA, usedforsecurity=False).hexdigest()


@pytest.fixture
def http_server() -> Iterator[FileServer]:
    with running_server() as server:
        yield server


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (MIRROR_ENV, TIMEOUT_ENV, "BLEUPRINT_NO_PROGRESS"):
        monkeypatch.delenv(name, raising=False)


def _leftovers(dest: Path) -> list[str]:
    """Files beside ``dest`` other than it and its lock file (a partial download)."""
    return sorted(
        p.name for p in dest.parent.iterdir() if p.name not in (dest.name, dest.name + ".lock")
    )


def _md5(data: bytes) -> str:
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


# --- downloads --------------------------------------------------------------------------------


def test_a_download_lands_verified_at_dest(http_server: FileServer, tmp_path: Path) -> None:
    url = http_server.serve("/test.tgz", DATA)
    dest = tmp_path / "wmt-a" / "raw" / "wmt-a.test.tgz"
    assert fetch(url, dest, md5=DATA_MD5, testset="wmt-a", progress=False) == dest
    assert dest.read_bytes() == DATA
    assert _leftovers(dest) == []
    (request,) = http_server.requests("/test.tgz")
    assert request.range is None
    assert request.status == 200
    assert request.user_agent is not None
    assert request.user_agent.startswith("bleuprint")
    # Done once: a second call finds the verified file and asks the server nothing.
    fetch(url, dest, md5=DATA_MD5.upper(), testset="wmt-a", progress=False)
    assert len(http_server.requests("/test.tgz")) == 1


def test_without_md5_any_existing_file_is_kept(http_server: FileServer, tmp_path: Path) -> None:
    url = http_server.serve("/plain.txt", DATA)
    dest = tmp_path / "plain.txt"
    fetch(url, dest, md5=None, testset="t", progress=False)
    dest.write_bytes(b"edited")
    fetch(url, dest, md5=None, testset="t", progress=False)
    assert dest.read_bytes() == b"edited"
    assert len(http_server.requests("/plain.txt")) == 1


def test_a_truncated_file_at_dest_is_replaced(
    http_server: FileServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """What sacrebleu leaves after a cut-off download (sacrebleu #16, sockeye #337): a partial
    file at the final name. Its MD5 gives it away, and it is downloaded again."""
    url = http_server.serve("/test.tgz", DATA)
    dest = tmp_path / "test.tgz"
    dest.write_bytes(DATA[:5000])
    fetch(url, dest, md5=DATA_MD5, testset="wmt-a", progress=False)
    assert dest.read_bytes() == DATA
    assert "fetching it again" in caplog.text


@pytest.mark.parametrize("status", [404, 403, 410])
def test_client_errors_fail_at_once(http_server: FileServer, tmp_path: Path, status: int) -> None:
    url = http_server.serve("/gone.tgz", DATA, status=status)
    dest = tmp_path / "gone.tgz"
    with pytest.raises(DownloadError, match=f"HTTP {status}") as info:
        fetch(url, dest, md5=DATA_MD5, testset="wmt-gone", progress=False, backoff=0)
    assert isinstance(info.value, BleuprintError)
    assert len(http_server.requests("/gone.tgz")) == 1  # not retried
    assert not dest.exists()
    assert _leftovers(dest) == []


def test_server_errors_are_retried(http_server: FileServer, tmp_path: Path) -> None:
    url = http_server.serve(
        "/busy.tgz", DATA, fail_first=[500, 503, 429, 502], headers={"Retry-After": "0"}
    )
    dest = tmp_path / "busy.tgz"
    fetch(url, dest, md5=DATA_MD5, testset="wmt-busy", progress=False, backoff=0)
    assert dest.read_bytes() == DATA
    assert [r.status for r in http_server.requests("/busy.tgz")] == [500, 503, 429, 502, 200]


def test_retries_give_up(http_server: FileServer, tmp_path: Path) -> None:
    url = http_server.serve("/down.tgz", DATA, status=500)
    dest = tmp_path / "down.tgz"
    with pytest.raises(DownloadError, match="gave up after 3 attempts"):
        fetch(url, dest, md5=DATA_MD5, testset="wmt-down", progress=False, retries=2, backoff=0)
    assert len(http_server.requests("/down.tgz")) == 3
    assert not dest.exists()


def test_a_cut_off_transfer_resumes_with_a_range_request(
    http_server: FileServer, tmp_path: Path
) -> None:
    url = http_server.serve("/cut.tgz", DATA, cut_after=70_000, cuts=2)
    dest = tmp_path / "cut.tgz"
    fetch(url, dest, md5=DATA_MD5, testset="wmt-cut", progress=False, retries=0, backoff=0)
    assert dest.read_bytes() == DATA
    assert _leftovers(dest) == []
    log = http_server.requests("/cut.tgz")
    # Each cut brings new data, so it does not count against retries=0.
    assert [(r.range, r.status) for r in log] == [
        (None, 200),
        ("bytes=70000-", 206),
        ("bytes=140000-", 206),
    ]


def test_a_server_without_ranges_restarts_from_zero(
    http_server: FileServer, tmp_path: Path
) -> None:
    url = http_server.serve("/norange.tgz", DATA, cut_after=70_000, ranges=False)
    dest = tmp_path / "norange.tgz"
    fetch(url, dest, md5=DATA_MD5, testset="wmt-nr", progress=False, backoff=0)
    assert dest.read_bytes() == DATA  # the 200 body replaced the part instead of extending it
    log = http_server.requests("/norange.tgz")
    assert [(r.range, r.status) for r in log] == [(None, 200), ("bytes=70000-", 200)]


def test_a_link_that_always_drops_at_the_same_point_gives_up(
    http_server: FileServer, tmp_path: Path
) -> None:
    url = http_server.serve("/flaky.tgz", DATA, cut_after=1000, cuts=100, ranges=False)
    dest = tmp_path / "flaky.tgz"
    with pytest.raises(DownloadError, match="cut off after 1000 of 192000 bytes"):
        fetch(url, dest, md5=DATA_MD5, testset="wmt-f", progress=False, retries=2, backoff=0)
    assert len(http_server.requests("/flaky.tgz")) == 4  # the first, one resume, two retries
    assert not dest.exists()


def test_a_part_left_by_an_earlier_run_is_resumed(http_server: FileServer, tmp_path: Path) -> None:
    url = http_server.serve("/left.tgz", DATA)
    dest = tmp_path / "left.tgz"
    dest.with_name("left.tgz.part").write_bytes(DATA[:100_000])
    fetch(url, dest, md5=DATA_MD5, testset="wmt-l", progress=False)
    assert dest.read_bytes() == DATA
    assert [(r.range, r.status) for r in http_server.requests("/left.tgz")] == [
        ("bytes=100000-", 206)
    ]


def test_a_complete_part_is_not_downloaded_again(http_server: FileServer, tmp_path: Path) -> None:
    url = http_server.serve("/whole.tgz", DATA)
    dest = tmp_path / "whole.tgz"
    dest.with_name("whole.tgz.part").write_bytes(DATA)
    fetch(url, dest, md5=DATA_MD5, testset="wmt-w", progress=False)
    assert dest.read_bytes() == DATA
    assert [(r.range, r.status) for r in http_server.requests("/whole.tgz")] == [
        ("bytes=192000-", 416)
    ]


def test_a_stale_part_from_another_file_is_discarded(
    http_server: FileServer, tmp_path: Path
) -> None:
    """A part whose bytes belong to an older version: the resumed file fails its MD5, and
    one fresh download fixes it."""
    url = http_server.serve("/stale.tgz", DATA)
    dest = tmp_path / "stale.tgz"
    dest.with_name("stale.tgz.part").write_bytes(b"x" * 50_000)
    fetch(url, dest, md5=DATA_MD5, testset="wmt-s", progress=False)
    assert dest.read_bytes() == DATA
    assert [r.range for r in http_server.requests("/stale.tgz")] == ["bytes=50000-", None]


def test_a_wrong_body_is_refused_and_deleted(http_server: FileServer, tmp_path: Path) -> None:
    wrong = DATA[:-1] + b"?"
    url = http_server.serve("/wrong.tgz", wrong)
    dest = tmp_path / "wmt-bad.wrong.tgz"
    with pytest.raises(ChecksumError) as info:
        fetch(url, dest, md5=DATA_MD5, testset="wmt-bad", progress=False)
    message = str(info.value)
    assert DATA_MD5 in message
    assert _md5(wrong) in message
    assert str(dest) in message
    assert url in message
    assert not dest.exists()
    assert _leftovers(dest) == []


def test_a_slow_server_times_out_and_is_retried(http_server: FileServer, tmp_path: Path) -> None:
    url = http_server.serve("/slow.tgz", DATA, delay=30.0, delays=1)
    dest = tmp_path / "slow.tgz"
    fetch(url, dest, md5=DATA_MD5, testset="wmt-slow", progress=False, timeout=2.0, backoff=0)
    assert dest.read_bytes() == DATA
    assert len(http_server.requests("/slow.tgz")) == 2


def test_the_timeout_comes_from_the_environment(
    http_server: FileServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = http_server.serve("/slow.tgz", DATA, delay=30.0, delays=1)
    dest = tmp_path / "slow.tgz"
    monkeypatch.setenv(TIMEOUT_ENV, "2.0")
    fetch(url, dest, md5=DATA_MD5, testset="wmt-slow", progress=False, backoff=0)
    assert len(http_server.requests("/slow.tgz")) == 2
    for bad in ("soon", "0", "-1", "nan"):
        monkeypatch.setenv(TIMEOUT_ENV, bad)
        with pytest.raises(InvalidOptionError, match=TIMEOUT_ENV):
            fetch(url, tmp_path / "other", md5=None, testset="t", progress=False)


def test_no_partial_file_is_ever_visible_at_dest(http_server: FileServer, tmp_path: Path) -> None:
    hold = threading.Event()
    url = http_server.serve("/held.tgz", DATA, pause_after=100_000, hold=hold)
    dest = tmp_path / "held.tgz"
    part = dest.with_name("held.tgz.part")
    failures: list[BaseException] = []

    def run() -> None:
        try:
            fetch(url, dest, md5=DATA_MD5, testset="wmt-h", progress=False)
        except BaseException as exc:  # reported below
            failures.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    try:
        deadline = time.monotonic() + 60
        while not (part.exists() and part.stat().st_size == 100_000):
            assert time.monotonic() < deadline, "the first 100,000 bytes never arrived"
            time.sleep(0.01)
        assert not dest.exists()  # half the data is in, and only in the part file
    finally:
        hold.set()
        worker.join()
    assert failures == []
    assert dest.read_bytes() == DATA
    assert not part.exists()


# --- two processes ------------------------------------------------------------------------------

_FETCH_SCRIPT = """
import logging, sys
from pathlib import Path
logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(message)s")
from bleuprint.testsets.download import fetch
print(fetch(sys.argv[1], Path(sys.argv[2]), md5=sys.argv[3], testset="wmt-two", progress=False))
"""


def _lines(stream: io.TextIOBase | None) -> queue.Queue[str]:
    """The stream's lines, read by a thread, so a test can wait for one with a deadline."""
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert stream is not None
        try:
            for line in stream:
                lines.put(line)
        except (ValueError, OSError):  # the test closed the stream: nothing more to read
            pass

    threading.Thread(target=read, daemon=True).start()
    return lines


def test_two_processes_download_once(http_server: FileServer, tmp_path: Path) -> None:
    """The first process holds the lock while its answer is held back by the server; the
    second says it waits, and once the first is done finds the file without a request."""
    hold = threading.Event()
    url = http_server.serve("/two.tgz", DATA, hold=hold)
    dest = tmp_path / "wmt-two" / "raw" / "wmt-two.two.tgz"
    command = [sys.executable, "-c", _FETCH_SCRIPT, url, str(dest), DATA_MD5]
    kwargs = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True}
    with subprocess.Popen(command, **kwargs) as first:  # type: ignore[call-overload]
        try:
            http_server.wait_for_requests("/two.tgz", 1)
            with subprocess.Popen(command, **kwargs) as second:  # type: ignore[call-overload]
                try:
                    line = _lines(second.stderr).get(timeout=60)
                except queue.Empty:
                    line = "(nothing in 60 s)"
                finally:
                    hold.set()  # before any failure, or leaving the block waits for it forever
                assert "waiting for another process downloading wmt-two.two.tgz" in line
                out_second = second.stdout.read()
                assert second.wait() == 0
        finally:
            hold.set()
        out_first, err_first = first.communicate()
        assert first.returncode == 0, err_first
    assert out_first.strip() == str(dest)
    assert out_second.strip() == str(dest)
    assert len(http_server.requests("/two.tgz")) == 1
    assert dest.read_bytes() == DATA
    assert _leftovers(dest) == []


def test_sacrebleus_lock_is_respected(http_server: FileServer, tmp_path: Path) -> None:
    """sacrebleu's download_file locks DEST.lock with portalocker (an flock too): while it
    holds the lock, bleuprint waits instead of writing beside it."""
    portalocker = pytest.importorskip("portalocker")
    url = http_server.serve("/shared.tgz", DATA)
    dest = tmp_path / "wmt-two" / "raw" / "wmt-two.shared.tgz"
    dest.parent.mkdir(parents=True)
    command = [sys.executable, "-c", _FETCH_SCRIPT, url, str(dest), DATA_MD5]
    kwargs = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True}
    with subprocess.Popen(command, **kwargs) as child:  # type: ignore[call-overload]
        with portalocker.Lock(f"{dest}.lock", timeout=60):
            try:
                line = _lines(child.stderr).get(timeout=60)
            except queue.Empty:
                line = "(nothing in 60 s)"
            assert "waiting for another process" in line
            assert http_server.log == []
        out = child.stdout.read()
        assert child.wait() == 0
    assert out.strip() == str(dest)
    assert dest.read_bytes() == DATA


# --- the mirror ---------------------------------------------------------------------------------

ORIGINAL = "https://data.statmt.org/wmt19/translation-task/test.tgz"


def test_the_mirror_file_name() -> None:
    assert cache_file_name("wmt19/google/ar", ORIGINAL) == "wmt19_google_ar.test.tgz"
    assert (
        mirror_location("https://m.example/sets/", "wmt19/google/ar", ORIGINAL)
        == "https://m.example/sets/wmt19_google_ar.test.tgz"
    )
    assert mirror_location("/srv/sets", "wmt22", "https://x/v1.1.tar.gz") == (
        "/srv/sets/wmt22.v1.1.tar.gz"
    )
    assert mirror_location("file:///srv/sets", "wmt22", "https://x/v1.1.tar.gz") == (
        "/srv/sets/wmt22.v1.1.tar.gz"
    )


def test_a_url_mirror_replaces_the_server(
    http_server: FileServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    http_server.serve("/mirror/wmt19_google_ar.test.tgz", DATA, cut_after=1000)
    monkeypatch.setenv(MIRROR_ENV, http_server.url + "/mirror/")
    dest = tmp_path / "wmt19_google_ar.test.tgz"
    fetch(ORIGINAL, dest, md5=DATA_MD5, testset="wmt19/google/ar", progress=False)
    assert dest.read_bytes() == DATA
    # Resumed from the mirror like any server; the original host was never asked (no network).
    assert [r.path for r in http_server.log] == ["/mirror/wmt19_google_ar.test.tgz"] * 2


def test_a_url_mirror_without_the_file(
    http_server: FileServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mirror = http_server.url + "/mirror"
    monkeypatch.setenv(MIRROR_ENV, mirror)
    dest = tmp_path / "wmt19.test.tgz"
    with pytest.raises(DownloadError) as info:
        fetch(ORIGINAL, dest, md5=DATA_MD5, testset="wmt19", progress=False)
    message = str(info.value)
    assert f"the mirror {mirror}/wmt19.test.tgz" in message
    assert f"{MIRROR_ENV}={mirror}" in message
    assert ORIGINAL in message
    assert "HTTP 404" in message


@pytest.mark.parametrize("form", ["path", "file-url"])
def test_a_folder_mirror(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str) -> None:
    folder = tmp_path / "mirror"
    folder.mkdir()
    (folder / "wmt19_google_ar.test.tgz").write_bytes(DATA)
    monkeypatch.setenv(MIRROR_ENV, str(folder) if form == "path" else folder.as_uri())
    dest = tmp_path / "cache" / "wmt19" / "google" / "ar" / "raw" / "wmt19_google_ar.test.tgz"
    fetch(ORIGINAL, dest, md5=DATA_MD5, testset="wmt19/google/ar", progress=False)
    assert dest.read_bytes() == DATA
    assert _leftovers(dest) == []


def test_a_folder_mirror_without_the_file_or_with_a_wrong_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "mirror"
    folder.mkdir()
    monkeypatch.setenv(MIRROR_ENV, str(folder))
    dest = tmp_path / "cache" / "wmt19.test.tgz"
    with pytest.raises(DownloadError, match="no file " + str(folder / "wmt19.test.tgz")):
        fetch(ORIGINAL, dest, md5=DATA_MD5, testset="wmt19", progress=False)
    (folder / "wmt19.test.tgz").write_bytes(b"not it")
    with pytest.raises(ChecksumError, match=_md5(b"not it")):
        fetch(ORIGINAL, dest, md5=DATA_MD5, testset="wmt19", progress=False)
    assert not dest.exists()
    assert _leftovers(dest) == []


# --- offline ------------------------------------------------------------------------------------


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_offline_error_names_every_way_out(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/wmt22/v1.1.tar.gz"
    dest = tmp_path / "wmt22" / "raw" / "wmt22.v1.1.tar.gz"
    with pytest.raises(DownloadError) as info:
        fetch(url, dest, md5=DATA_MD5, testset="wmt22", progress=False, retries=1, backoff=0)
    message = str(info.value)
    for part in (
        "test set 'wmt22'",
        url,
        str(dest),
        "bleuprint --download wmt22",
        MIRROR_ENV,
        "bleuprint testset import FILE",
        "gave up after 2 attempts",
    ):
        assert part in message
    assert isinstance(info.value, OSError)
    assert not dest.exists()


def test_an_unknown_host_is_not_retried(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No DNS (a typical offline machine): retrying cannot help, so it fails at once."""
    lookups: list[str] = []

    def no_dns(host: str, *args: object, **kwargs: object) -> list[object]:
        lookups.append(host)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    dest = tmp_path / "wmt22.v1.1.tar.gz"
    url = "https://testsets.invalid/v1.1.tar.gz"
    with pytest.raises(DownloadError, match="cannot resolve the host") as info:
        fetch(url, dest, md5=DATA_MD5, testset="wmt22", progress=False, retries=3, backoff=0)
    assert lookups == ["testsets.invalid"]
    assert "bleuprint --download wmt22" in str(info.value)


# --- progress -----------------------------------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_on_a_terminal_only(
    http_server: FileServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = http_server.serve("/bar.tgz", DATA)
    monkeypatch.setattr(progress, "BAR_DELAY", 0.0)
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    fetch(url, tmp_path / "1", md5=DATA_MD5, testset="wmt-bar", progress=None)
    shown = terminal.getvalue()
    assert "bleuprint: wmt-bar 1:" in shown
    assert "/188 [" in shown  # KiB done out of the total: 192,000 bytes
    assert "KiB/s" in shown
    assert shown.endswith("\r")  # erased when done
    # Not a terminal, progress=False, or BLEUPRINT_NO_PROGRESS: nothing.
    for stream, choice, env in [
        (io.StringIO(), None, None),
        (_Terminal(), False, None),
        (_Terminal(), True, "1"),
    ]:
        monkeypatch.setattr("sys.stderr", stream)
        if env:
            monkeypatch.setenv("BLEUPRINT_NO_PROGRESS", env)
        fetch(url, tmp_path / str(id(stream)), md5=DATA_MD5, testset="t", progress=choice)
        assert stream.getvalue() == ""
    # A bar asked for explicitly shows on any stream.
    monkeypatch.delenv("BLEUPRINT_NO_PROGRESS")
    plain = io.StringIO()
    monkeypatch.setattr("sys.stderr", plain)
    fetch(url, tmp_path / "forced", md5=DATA_MD5, testset="wmt-bar", progress=True)
    assert "bleuprint: wmt-bar forced:" in plain.getvalue()


_TTY_SCRIPT = """
import sys
from pathlib import Path
from bleuprint.io import progress
from bleuprint.testsets.download import fetch
progress.BAR_DELAY = 0.0
fetch(sys.argv[1], Path(sys.argv[2]), md5=sys.argv[3], testset="wmt-tty")
"""


def test_a_bar_on_a_pseudo_terminal(http_server: FileServer, tmp_path: Path) -> None:
    url = http_server.serve("/tty.tgz", DATA)
    env = {k: v for k, v in os.environ.items() if k != "BLEUPRINT_NO_PROGRESS"}
    leader, follower = pty.openpty()
    # A new pseudo-terminal is 0 columns wide, in which tqdm draws nothing: make it 100.
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    command = [sys.executable, "-c", _TTY_SCRIPT, url, str(tmp_path / "tty"), DATA_MD5]
    with subprocess.Popen(command, stderr=follower, env=env) as child:
        os.close(follower)
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            shown += chunk
        assert child.wait() == 0
    os.close(leader)
    assert b"bleuprint: wmt-tty tty:" in shown
    assert b"KiB/s" in shown
    # The same run with stderr on a pipe shows nothing.
    piped = subprocess.run(
        [*command[:-2], str(tmp_path / "piped"), DATA_MD5], capture_output=True, env=env
    )
    assert piped.returncode == 0
    assert piped.stderr == b""


# --- importing an archive -----------------------------------------------------------------------


def _entry(name: str, urls: list[str], md5: list[str] | None) -> registry.Entry:
    return registry.Entry(
        name=name, format="plain_text", data=tuple(urls), md5=None if md5 is None else tuple(md5),
        description=None, citation=None, langpairs={}, kwargs={},
    )  # fmt: skip


SHARED_URL = "https://data.example/wmt-x/test.tgz"
STAND_IN = [
    _entry("wmt-x", [SHARED_URL], [DATA_MD5]),
    _entry("wmt-x/google", [SHARED_URL, "https://refs.example/google.ref"], [DATA_MD5, "0" * 32]),
    _entry("wmt-y", ["https://data.example/wmt-y/test.tgz"], ["1" * 32]),
    _entry("plain", ["https://data.example/plain.tsv"], None),
]


def test_an_archive_is_found_by_its_md5_whatever_its_name(tmp_path: Path) -> None:
    archive = tmp_path / "downloaded (1).bin"
    archive.write_bytes(DATA)
    root = tmp_path / "cache"
    imported = import_archive(archive, root, registry=STAND_IN)
    assert [(i.testset, i.url, i.copied) for i in imported] == [
        ("wmt-x", SHARED_URL, True),
        ("wmt-x/google", SHARED_URL, True),
    ]
    assert imported[0].path == root / "wmt-x" / "raw" / "wmt-x.test.tgz"
    assert imported[1].path == root / "wmt-x" / "google" / "raw" / "wmt-x_google.test.tgz"
    for item in imported:
        assert item.path.read_bytes() == DATA
        assert _leftovers(item.path) == []
        assert "imported as" in str(item)
    again = import_archive(archive, root, registry={e.name: e for e in STAND_IN})
    assert [i.copied for i in again] == [False, False]


def test_an_imported_archive_is_not_downloaded_again(
    http_server: FileServer, tmp_path: Path
) -> None:
    url = http_server.serve("/wmt-x/test.tgz", DATA)
    archive = tmp_path / "test.tgz"
    archive.write_bytes(DATA)
    root = tmp_path / "cache"
    (imported,) = import_archive(archive, root, registry=[_entry("wmt-x", [url], [DATA_MD5])])
    assert fetch(url, imported.path, md5=DATA_MD5, testset="wmt-x", progress=False).exists()
    assert http_server.log == []


def test_an_entry_without_md5_is_matched_by_name(tmp_path: Path) -> None:
    archive = tmp_path / "plain.tsv"
    archive.write_bytes(b"a\tb\n")
    (imported,) = import_archive(archive, tmp_path / "cache", registry=STAND_IN)
    assert imported.path == tmp_path / "cache" / "plain" / "raw" / "plain.plain.tsv"


def test_the_default_cache_is_sacrebleus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "sb"))
    archive = tmp_path / "a.tgz"
    archive.write_bytes(DATA)
    (imported, _) = import_archive(archive, registry=STAND_IN)
    assert imported.path == tmp_path / "sb" / "wmt-x" / "raw" / "wmt-x.test.tgz"


def test_unknown_files_are_refused(tmp_path: Path) -> None:
    """Against the built-in registry: a file no test set has, and a file named like WMT22's
    download whose MD5 is not the registry's."""
    stranger = tmp_path / "mine.tgz"
    stranger.write_bytes(b"something else")
    with pytest.raises(UnknownArchiveError, match="is not a download of any built-in test set"):
        import_archive(stranger, tmp_path / "cache")
    wmt22 = registry.entries()["wmt22"]
    lookalike = tmp_path / os.path.basename(wmt22.data[0])
    lookalike.write_bytes(b"an older release")
    with pytest.raises(UnknownArchiveError) as info:
        import_archive(lookalike, tmp_path / "cache")
    message = str(info.value)
    assert f"wmt22: {wmt22.md5[0] if wmt22.md5 else None}" in message
    assert _md5(b"an older release") in message
    with pytest.raises(UnknownArchiveError, match="is not a file"):
        import_archive(tmp_path, tmp_path / "cache")
    with pytest.raises(InputTypeError, match="path must be a file path, got int"):
        import_archive(3, tmp_path / "cache")  # type: ignore[arg-type]
    assert not (tmp_path / "cache").exists()


def test_an_unwritable_cache_is_named(tmp_path: Path) -> None:
    archive = tmp_path / "a.tgz"
    archive.write_bytes(DATA)
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache folder should be")
    with pytest.raises(ArchiveImportError, match=f"cannot copy {archive} into the cache at"):
        import_archive(archive, blocker, registry=STAND_IN)
