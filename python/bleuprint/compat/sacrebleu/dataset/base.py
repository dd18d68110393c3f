"""sacrebleu's ``sacrebleu.dataset.base``."""

from bleuprint.testsets import SACREBLEU_DIR, Dataset

__all__ = ["SACREBLEU_DIR", "Dataset"]
