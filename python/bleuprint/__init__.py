"""bleuprint: exact, fast BLEU."""

from bleuprint._core import __version__

__all__ = ["__version__"]
