"""sacrebleu's ``sacrebleu.dataset.tsv``."""

from bleuprint.testsets import TSVDataset

__all__ = ["TSVDataset"]
