"""Java, the oracle's runtime: pycocoevalcap runs Stanford CoreNLP 3.4.1's PTB tokenizer and
METEOR 1.5 in it. ``tools/install_test_packages.sh`` installs Debian's default-jre-headless."""

from __future__ import annotations

import os
import shutil

import pytest


def require_java() -> None:
    """Skips the test without ``java`` on PATH (fails it in CI, which must have it)."""
    if shutil.which("java") is None:
        if os.environ.get("CI"):
            pytest.fail(
                "CI needs Java for the pycocoevalcap tests: run tools/install_test_packages.sh"
            )
        pytest.skip("no java on PATH (tools/install_test_packages.sh installs it)")
