"""Fixtures for the whole suite: the WMT22 data in ../shared (skipped cleanly when absent), and
the hypothesis profile and signal handling every test runs under. Helpers that several test
files import are in tests/support/."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from hypothesis import settings

from tests.support.data import WMT22

# CI draws the same examples on every run, so a red build is reproducible rather than a coin
# toss; on a developer's machine hypothesis explores new examples each time.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# A suite started in the background by a script (`make check &`) inherits SIGINT ignored, and
# so would every process the Ctrl-C tests start (an ignored signal stays ignored across exec):
# give this process Python's handler back, which exec resets to the default for the children.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def wmt22() -> Path:
    if not (WMT22 / "system-outputs").is_dir():
        pytest.skip("../shared/data/wmt22 is not available")
    return WMT22
