"""A real HTTP server on 127.0.0.1 for download tests, with faults injected per path.

Use the ``http_server`` fixture (register it with ``pytest_plugins = ["tests.support.http_server"]``
or import it), or :func:`running_server` outside pytest. Serve a file with
:meth:`FileServer.serve`, which returns its URL::

    url = http_server.serve("/wmt22.tgz", data, fail_first=[500], cut_after=100)

Faults (each a keyword of ``serve``):

- ``status=404``: every request is answered with that status (404, 403, ...);
- ``fail_first=[500, 503]``: the first requests get these statuses, later ones the file;
- ``cut_after=N`` (``cuts=1``): the first ``cuts`` answers that carry the body send only
  ``N`` bytes of it, then drop the connection (the headers announce the full length);
- ``delay=S`` (``delays=1``): the first ``delays`` requests wait ``S`` seconds before answering;
- ``hold=threading.Event()``: every answer waits until the test sets the event, before
  anything (or, with ``pause_after=N``, after the first ``N`` bytes of the body);
- ``ranges=False``: ``Range`` headers are ignored (always 200 with the whole body);
- ``headers={...}``: extra response headers (``Retry-After``, ...).

A wrong body (MD5 mismatch) is just other bytes: serve them. Every request is logged in
:attr:`FileServer.log` with its path, ``Range`` header and the status it got.
"""

from __future__ import annotations

import hashlib
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Optional

import pytest


@dataclass
class Served:
    """A file the server holds, and the faults it injects (see the module docstring)."""

    body: bytes
    status: Optional[int] = None
    fail_first: list[int] = field(default_factory=list)
    cut_after: Optional[int] = None
    cuts: int = 1
    delay: float = 0.0
    delays: int = 1
    hold: Optional[threading.Event] = None
    pause_after: Optional[int] = None
    ranges: bool = True
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def etag(self) -> str:
        return '"' + hashlib.md5(self.body, usedforsecurity=False).hexdigest() + '"'


@dataclass(frozen=True)
class Request:
    """One logged request: what was asked, and the status it was answered with."""

    method: str
    path: str
    range: Optional[str]
    status: int
    user_agent: Optional[str]


_RANGE = re.compile(r"bytes=(\d+)-(\d*)$")


class FileServer:
    """In-memory files behind a threaded ``http.server`` on 127.0.0.1 (a free port)."""

    def __init__(self) -> None:
        self.files: dict[str, Served] = {}
        self.log: list[Request] = []
        self._lock = threading.Condition()
        self._stopping = threading.Event()
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.owner = self  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        """The base URL, without a trailing slash."""
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def serve(self, path: str, body: bytes, **faults: object) -> str:
        """Serves ``body`` at ``path`` (``/name``) with the given faults; returns its URL."""
        with self._lock:
            self.files[path] = Served(body, **faults)  # type: ignore[arg-type]
        return self.url + path

    def requests(self, path: str, method: str = "GET") -> list[Request]:
        with self._lock:
            return [r for r in self.log if r.path == path and r.method == method]

    def wait_for_requests(self, path: str, count: int, timeout: float = 60.0) -> None:
        """Blocks until ``path`` has had ``count`` requests (a failure after ``timeout``)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while len([r for r in self.log if r.path == path]) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"{path} did not get {count} requests: {self.log}")
                self._lock.wait(left)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()  # ends delays early
        with self._lock:
            for served in self.files.values():
                if served.hold is not None:
                    served.hold.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()

    # -- called by the handler's threads --

    def _record(self, request: Request) -> None:
        with self._lock:
            self.log.append(request)
            self._lock.notify_all()

    def _answer(self, handler: _Handler, method: str) -> None:
        """Decides the answer, logs it, then waits (delay, hold) and sends it."""
        path = handler.path.split("?", 1)[0]
        asked = handler.headers.get("Range")
        with self._lock:
            served = self.files.get(path)
            status, headers, body, cut, delay = _decide(served, method, handler.headers)
        self._record(Request(method, path, asked, status, handler.headers.get("User-Agent")))
        if served is not None and served.hold is not None and served.pause_after is None:
            served.hold.wait()
        if delay:
            self._stopping.wait(delay)
        if cut is not None:
            handler.close_connection = True
            _send(handler, status, headers, body[:cut], method)
            # Drop the connection before the announced length has been sent.
            handler.wfile.flush()
            handler.connection.shutdown(socket.SHUT_RDWR)
        elif served is not None and served.hold is not None and served.pause_after is not None:
            _send(handler, status, headers, body[: served.pause_after], method)
            handler.wfile.flush()
            served.hold.wait()
            if method == "GET":
                handler.wfile.write(body[served.pause_after :])
        else:
            _send(handler, status, headers, body, method)


def _decide(
    served: Optional[Served], method: str, asked: Message
) -> tuple[int, dict[str, str], bytes, Optional[int], float]:
    """Status, headers, body, bytes before a cut (or None) and delay for one request, counting
    the faults it uses up. Called under the server's lock."""
    if served is None:
        return 404, {"Content-Length": "0"}, b"", None, 0.0
    delay = 0.0
    if served.delays > 0 and served.delay > 0:
        served.delays -= 1
        delay = served.delay
    fault = served.status if served.status is not None else None
    if fault is None and served.fail_first:
        fault = served.fail_first.pop(0)
    if fault is not None:
        return fault, {"Content-Length": "0", **served.headers}, b"", None, delay
    status, body = 200, served.body
    headers = {"ETag": served.etag, **served.headers}
    if served.ranges:
        headers["Accept-Ranges"] = "bytes"
    match = _RANGE.match(asked.get("Range") or "")
    if_range = asked.get("If-Range")
    if served.ranges and match and (if_range is None or if_range == served.etag):
        start = int(match.group(1))
        last = len(body) - 1
        end = min(int(match.group(2)), last) if match.group(2) else last
        if start > last:
            headers.update({"Content-Range": f"bytes */{len(body)}", "Content-Length": "0"})
            return 416, headers, b"", None, delay
        status, body = 206, body[start : end + 1]
        headers["Content-Range"] = f"bytes {start}-{end}/{len(served.body)}"
    headers["Content-Length"] = str(len(body))
    cut = served.cut_after if served.cuts > 0 and method == "GET" else None
    if cut is not None:
        served.cuts -= 1
    return status, headers, body, cut, delay


def _send(
    handler: BaseHTTPRequestHandler, status: int, headers: dict[str, str], body: bytes, method: str
) -> None:
    handler.send_response(status)
    for name, value in headers.items():
        handler.send_header(name, value)
    handler.end_headers()
    if method == "GET" and body:
        handler.wfile.write(body)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):  # a client that gave up
            super().handle_error(request, client_address)  # type: ignore[arg-type]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: ThreadingHTTPServer

    def do_GET(self) -> None:
        self._run("GET")

    def do_HEAD(self) -> None:
        self._run("HEAD")

    def _run(self, method: str) -> None:
        try:
            self.server.owner._answer(self, method)  # type: ignore[attr-defined]
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up (a timeout): nothing to answer

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass  # the test reads FileServer.log instead


@contextmanager
def running_server() -> Iterator[FileServer]:
    # A handler answering a client that timed out writes to a closed socket: with SIGPIPE at
    # its default (an in-process CLI call in this worker may have set it) that would kill
    # the whole test process, so Python's own setting holds while the server runs.
    import signal

    previous = signal.signal(signal.SIGPIPE, signal.SIG_IGN) if hasattr(signal, "SIGPIPE") else None
    server = FileServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
        if previous is not None:
            signal.signal(signal.SIGPIPE, previous)


@pytest.fixture
def http_server() -> Iterator[FileServer]:
    """A fresh :class:`FileServer` per test, stopped at its end."""
    with running_server() as server:
        yield server
