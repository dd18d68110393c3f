"""sacrebleu's ``sacrebleu.dataset.plain_text``."""

from bleuprint.testsets import PlainTextDataset

__all__ = ["PlainTextDataset"]
