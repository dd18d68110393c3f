"""Every emulated upstream BLEU as a preset: a name for a :class:`BleuKnobs` value.

``docs/compat.md``'s table is :func:`knob_table`'s output, so the documentation cannot drift
from these definitions (a test checks it).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from bleuprint.errors import InvalidOptionError
from bleuprint.metrics.bleu import knobs as _k
from bleuprint.metrics.bleu.knobs import SACREBLEU, BleuKnobs


@dataclass(frozen=True)
class Preset:
    """A preset: an upstream package's BLEU as knobs, and where it comes from."""

    name: str
    upstream: str
    knobs: BleuKnobs


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("sacrebleu", "sacrebleu 2.6.0 corpus_bleu", SACREBLEU),
        Preset(
            "nltk",
            "nltk 3.10.4 corpus_bleu on str.split() tokens",
            BleuKnobs(
                tokenizer="tokens",
                smoothing="nltk0",
                aggregation="nltk",
                arithmetic="nltk",
                scale=1,
            ),
        ),
        Preset(
            "hf",
            'HF evaluate load("bleu") (tensorflow/nmt compute_bleu)',
            BleuKnobs(ref_length="shortest", smoothing="none", arithmetic="nmt", scale=1),
        ),
        Preset(
            "nlgmetricverse",
            'nlg-metricverse / jury load_metric("bleu")',
            BleuKnobs(
                tokenizer="strip-punct",
                lowercase="unicode",
                ref_length="shortest",
                smoothing="none",
                drop_empty=True,
                arithmetic="nmt",
                scale=1,
            ),
        ),
        Preset(
            "torchmetrics",
            "torchmetrics BLEUScore / bleu_score",
            BleuKnobs(
                tokenizer="none",
                ref_length="closest-first",
                smoothing="none",
                arithmetic="torch",
                scale=1,
                dtype="float32",
            ),
        ),
        Preset(
            "torchmetrics-sacrebleu",
            "torchmetrics SacreBLEUScore / sacre_bleu_score",
            BleuKnobs(
                ref_length="closest-first",
                smoothing="none",
                arithmetic="torch",
                scale=1,
                dtype="float32",
            ),
        ),
        Preset(
            "moses",
            "Moses multi-bleu.perl (pre-tokenized text)",
            BleuKnobs(tokenizer="split-ascii", smoothing="none", arithmetic="moses"),
        ),
        Preset(
            "moses-detok",
            "Moses multi-bleu-detok.perl",
            BleuKnobs(smoothing="none", arithmetic="moses"),
        ),
        Preset(
            "mteval-v13a",
            "NIST mteval-v13a.pl (lowercases by default)",
            BleuKnobs(lowercase="ascii", arithmetic="mteval", scale=1),
        ),
        Preset(
            "mteval-v14",
            "NIST mteval-v14.pl --international-tokenization (lowercases by default)",
            BleuKnobs(tokenizer="mteval-intl", lowercase="unicode", arithmetic="mteval", scale=1),
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


def knob_table() -> str:
    """A Markdown table: one row per preset, one column per knob; values that differ from
    sacrebleu's are in bold."""
    names = [f.name for f in fields(BleuKnobs)]
    lines = [
        "| preset | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(names),
    ]
    for preset in PRESETS.values():
        differs = preset.knobs.differences(SACREBLEU)
        cells = []
        for name in names:
            value = getattr(preset.knobs, name)
            if name == "smooth_value":
                value = preset.knobs.effective_smooth_value
            text = "–" if value is None else str(value)
            cells.append(f"**{text}**" if name in differs else text)
        lines.append(f"| {preset.name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def knob_values() -> str:
    """A Markdown list of every knob's values and what each means (from the knob module)."""
    sections = [
        ("tokenizer", _k.TOKENIZERS),
        ("lowercase", _k.LOWERCASE),
        ("ref_length", _k.REF_LENGTHS),
        ("smoothing", _k.SMOOTHING_NOTES),
        ("aggregation", _k.AGGREGATIONS),
        ("arithmetic", _k.ARITHMETICS),
    ]
    lines = []
    for name, values in sections:
        lines.append(f"- `{name}`")
        lines += [f"  - `{value}`: {note}" for value, note in values.items()]
    lines += [
        "- `smooth_value`: the value of `floor`, `add-k`, `nltk1` (epsilon), `nltk4`/`nltk7` (K) "
        "and `nltk6` (alpha); `–` takes the method's default "
        + ", ".join(f"{k} {v:g}" for k, v in _k.SMOOTHINGS.items() if v is not None),
        "- `max_order`, `weights`: n-gram orders; one weight tuple or several (`–`: uniform)",
        "- `effective_order`: average only over orders the hypothesis has n-grams for",
        "- `auto_reweigh`: nltk's uniform re-weighting of hypotheses shorter than 4 tokens",
        f"- `drop_empty`: {_k.DROP_EMPTY_NOTE}",
        "- `scale`: 1 (0..1) or 100 (0..100); `dtype`: float64, or float32 (torchmetrics)",
    ]
    return "\n".join(lines) + "\n"
