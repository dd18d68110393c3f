"""sacrebleu 2.6.0's ``sacrebleu.dataset``: the registry of test sets and its classes.

A thin view of :mod:`bleuprint.testsets`: ``DATASETS`` holds bleuprint's dataset objects,
which have sacrebleu's attributes and methods (``name``, ``data``, ``md5``, ``langpairs``,
``maybe_download``, ``process_to_text``, ``get_files``, ``fieldnames``, ``source``,
``references``, ...) over bleuprint's validated cache.
"""

from __future__ import annotations

from bleuprint.compat.sacrebleu.dataset.base import Dataset
from bleuprint.compat.sacrebleu.dataset.fake_sgml import FakeSGMLDataset, WMTAdditionDataset
from bleuprint.compat.sacrebleu.dataset.iwslt_xml import IWSLTXMLDataset
from bleuprint.compat.sacrebleu.dataset.plain_text import PlainTextDataset
from bleuprint.compat.sacrebleu.dataset.tsv import TSVDataset
from bleuprint.compat.sacrebleu.dataset.wmt_xml import WMTXMLDataset
from bleuprint.testsets import COUNTRIES, DATASETS, DOMAINS, SUBSETS

__all__ = [
    "COUNTRIES",
    "DATASETS",
    "DOMAINS",
    "SUBSETS",
    "Dataset",
    "FakeSGMLDataset",
    "IWSLTXMLDataset",
    "PlainTextDataset",
    "TSVDataset",
    "WMTAdditionDataset",
    "WMTXMLDataset",
]
