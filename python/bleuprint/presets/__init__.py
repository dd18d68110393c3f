"""Every upstream BLEU bleuprint reproduces, as a preset: a name, the upstream it stands for,
and the values of :class:`~bleuprint.BLEUConfig`'s knobs that make its score. Data only: no
preset carries code of its own, and the knobs not named take sacrebleu's values.

``BLEU(preset="nltk")`` scores with a preset; ``BLEUConfig.from_preset(name, **changes)``
gives its configuration; the ``compat`` modules map their upstream's arguments onto one.
``docs/compat.md``'s table is made from this data (a test keeps it in step).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from bleuprint.errors import InvalidOptionError


class Preset(NamedTuple):  # a NamedTuple, which costs start-up less than a dataclass
    """A preset: an upstream package's BLEU as knob values, and where it comes from. The
    name is what signatures print (``preset:nltk``)."""

    name: str
    upstream: str
    knobs: Mapping[str, Any]


# torchmetrics' two BLEUs differ only in the tokenizer (its BLEUScore splits on spaces).
_TORCHMETRICS = {
    "ref_length": "closest-first",
    "smooth_method": "none",
    "arithmetic": "torch",
    "scale": 1,
    "dtype": "float32",
}

PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("sacrebleu", "sacrebleu 2.6.0 corpus_bleu", {}),
        Preset(
            "nltk",
            "nltk 3.10.4 corpus_bleu on str.split() tokens",
            {
                "tokenize": "tokens",
                "smooth_method": "nltk0",
                "aggregation": "nltk",
                "arithmetic": "nltk",
                "scale": 1,
            },
        ),
        Preset(
            "hf",
            'HF evaluate load("bleu") (tensorflow/nmt compute_bleu)',
            {"ref_length": "shortest", "smooth_method": "none", "arithmetic": "nmt", "scale": 1},
        ),
        Preset(
            "nlgmetricverse",
            'nlg-metricverse / jury load_metric("bleu")',
            {
                "tokenize": "strip-punct",
                "lowercase": True,
                "ref_length": "shortest",
                "smooth_method": "none",
                "drop_empty": True,
                "arithmetic": "nmt",
                "scale": 1,
            },
        ),
        Preset(
            "torchmetrics",
            "torchmetrics BLEUScore / bleu_score",
            {"tokenize": "none", **_TORCHMETRICS},
        ),
        Preset(
            "torchmetrics-sacrebleu",
            "torchmetrics SacreBLEUScore / sacre_bleu_score",
            _TORCHMETRICS,
        ),
        Preset(
            "moses",
            "Moses multi-bleu.perl (pre-tokenized text)",
            {"tokenize": "split-ascii", "smooth_method": "none", "arithmetic": "moses"},
        ),
        Preset(
            "moses-detok",
            "Moses multi-bleu-detok.perl",
            {"smooth_method": "none", "arithmetic": "moses"},
        ),
        Preset(
            "mteval-v13a",
            "NIST mteval-v13a.pl (lowercases by default)",
            {"lowercase": "ascii", "arithmetic": "mteval", "scale": 1},
        ),
        Preset(
            "mteval-v14",
            "NIST mteval-v14.pl --international-tokenization (lowercases by default)",
            {"tokenize": "mteval-intl", "lowercase": True, "arithmetic": "mteval", "scale": 1},
        ),
        Preset(
            "coco",
            "pycocoevalcap 1.2 Bleu (bleu_scorer.py), on PTB-tokenized captions",
            {"tokenize": "none", "smooth_method": "none", "arithmetic": "coco", "scale": 1},
        ),
    )
}


def get_preset(name: str) -> Preset:
    """The preset called ``name``; an :class:`InvalidOptionError` lists the names."""
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidOptionError(
            f"unknown preset {name!r}; expected one of {', '.join(PRESETS)}"
        ) from None


__all__ = ["PRESETS", "Preset", "get_preset"]
