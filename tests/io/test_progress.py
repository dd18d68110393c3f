"""Progress bars: ``progress=`` takes True (a tqdm bar on stderr), False/None or a callback;
the command line shows a bar only on a terminal, and BLEUPRINT_NO_PROGRESS turns bars off."""

from __future__ import annotations

import io

import pytest

from bleuprint.analysis import mbr
from bleuprint.errors import InputTypeError
from bleuprint.io import progress
from bleuprint.io.progress import reporter, wanted_on_terminal


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_values_of_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    assert reporter(None, total=3, what="x", unit="items") is None
    assert reporter(False, total=3, what="x", unit="items") is None
    calls: list[tuple[int, int]] = []
    callback = reporter(lambda d, t: calls.append((d, t)), total=3, what="x", unit="items")
    assert callback is not None
    callback(1, 3)
    assert calls == [(1, 3)]
    with pytest.raises(InputTypeError, match="progress must be True, False, None or a callable"):
        reporter("yes", total=3, what="x", unit="items")  # type: ignore[arg-type]


def test_a_bar_on_stderr_that_erases_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setattr(progress, "BAR_DELAY", 0.0)
    monkeypatch.delenv("BLEUPRINT_NO_PROGRESS", raising=False)
    chosen = mbr.select([["a b", "a c"], ["x", "x y"], ["q"]], "chrf", progress=True)
    assert [c.index for c in chosen] == [0, 1, 0]
    shown = terminal.getvalue()
    assert "bleuprint: mbr:" in shown
    assert "/3 [" in shown
    assert "sources" in shown
    assert "\x1b[3" not in shown  # no colour codes: NO_COLOR holds
    assert shown.endswith("\r")  # leave=False: the line is cleared at the end


def test_environment_and_terminal_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BLEUPRINT_NO_PROGRESS", raising=False)
    monkeypatch.setattr("sys.stderr", _Terminal())
    assert wanted_on_terminal() is True
    assert wanted_on_terminal(quiet=True) is False
    monkeypatch.setenv("BLEUPRINT_NO_PROGRESS", "1")
    assert wanted_on_terminal() is False
    assert reporter(True, total=2, what="x", unit="items") is None
    monkeypatch.delenv("BLEUPRINT_NO_PROGRESS")
    monkeypatch.setattr("sys.stderr", io.StringIO())
    assert wanted_on_terminal() is False
    monkeypatch.setattr("sys.stderr", None)
    assert wanted_on_terminal() is False


def test_a_quick_job_shows_no_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bar appears only once a job has run for BAR_DELAY seconds, so short jobs pay
    nothing for it (loading tqdm alone takes tens of milliseconds)."""
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.delenv("BLEUPRINT_NO_PROGRESS", raising=False)
    monkeypatch.setattr(progress, "BAR_DELAY", 3600.0)
    chosen = mbr.select([["a b", "a c"], ["x", "x y"], ["q"]], "chrf", progress=True)
    assert [c.index for c in chosen] == [0, 1, 0]
    assert terminal.getvalue() == ""
