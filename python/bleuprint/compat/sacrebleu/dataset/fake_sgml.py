"""sacrebleu's ``sacrebleu.dataset.fake_sgml``."""

from bleuprint.testsets import FakeSGMLDataset, WMTAdditionDataset

__all__ = ["FakeSGMLDataset", "WMTAdditionDataset"]
