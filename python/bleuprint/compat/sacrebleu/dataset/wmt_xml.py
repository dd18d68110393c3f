"""sacrebleu's ``sacrebleu.dataset.wmt_xml``."""

from bleuprint.testsets import WMTXMLDataset

__all__ = ["WMTXMLDataset"]
