"""sacrebleu's ``sacrebleu.dataset.iwslt_xml``."""

from bleuprint.testsets import IWSLTXMLDataset

__all__ = ["IWSLTXMLDataset"]
