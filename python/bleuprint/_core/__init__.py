"""The compiled core, private: use the ``bleuprint`` package.

The Rust extension is ``_ext`` (its stubs, ``_ext.pyi``, say what it holds); this package
re-exports all of it, so the package root keeps only its entry points and the code reads
``from bleuprint import _core``.
"""

from bleuprint._core._ext import *  # noqa: F403
from bleuprint._core._ext import __all__, __version__  # noqa: F401
