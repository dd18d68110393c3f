"""The errors of test-set handling (the downloader defines its own in ``download``)."""

from __future__ import annotations

from bleuprint.errors import BleuprintError


class TestSetError(BleuprintError):
    """A test set cannot be prepared from its raw files."""

    __test__ = False  # not a pytest test class, whatever its name says


class RawFormatError(TestSetError, ValueError):
    """A raw file does not have the structure its format requires."""
