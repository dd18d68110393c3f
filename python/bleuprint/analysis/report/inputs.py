"""What a report is made from: system outputs, references, optional sources and metadata,
checked once so every analysis can trust them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Optional

from bleuprint.errors import InvalidInputError, InvalidOptionError
from bleuprint.io.layout import as_text_sequence
from bleuprint.tokenizers import tokenize

#: Metadata columns a report breaks scores down by.
META_FIELDS = ("origlang", "domain", "docid")
METRIC_NAMES = ("bleu", "chrf", "ter", "rouge")
#: The metrics a report shows unless told.
DEFAULT_METRICS = ("bleu", "chrf", "ter")


@dataclass(frozen=True)
class ReportInputs:
    """Checked inputs: ``systems`` maps a name to its hypotheses, ``references`` holds
    streams (``references[k][i]`` is reference ``k`` of segment ``i``)."""

    systems: dict[str, list[str]]
    references: list[list[str]]
    sources: Optional[list[str]] = None
    meta: dict[str, list[str]] = field(default_factory=dict)
    metrics: tuple[str, ...] = DEFAULT_METRICS
    train_counts: Optional[dict[str, int]] = None
    test_set: Optional[str] = None

    @property
    def n_segments(self) -> int:
        return len(self.references[0])


def check_inputs(
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str]],
    *,
    sources: Optional[Sequence[str]] = None,
    meta: Optional[Mapping[str, Sequence[str]]] = None,
    metrics: Sequence[str] = DEFAULT_METRICS,
    train_counts: Optional[Mapping[str, int]] = None,
    test_set: Optional[str] = None,
) -> ReportInputs:
    """Checks lengths, names and options; raises :class:`InvalidInputError` or
    :class:`InvalidOptionError` with the fix."""
    if not isinstance(systems, Mapping) or not systems:
        raise InvalidInputError("report needs systems as a non-empty {name: hypotheses} mapping")
    streams = as_text_sequence(references, "references")
    if not streams:
        raise InvalidInputError(
            "report needs references as a list of streams (one list of lines per reference)"
        )
    refs = [list(as_text_sequence(r, "reference stream")) for r in streams]
    n = len(refs[0])
    if n == 0:
        raise InvalidInputError("report needs at least one segment")
    for k, r in enumerate(refs):
        if len(r) != n or not all(isinstance(x, str) for x in r):
            raise InvalidInputError(
                f"reference stream {k + 1} has {len(r)} lines of text, expected {n} strings"
            )
    named: dict[str, list[str]] = {}
    for name, hyps in systems.items():
        if not isinstance(name, str) or not name:
            raise InvalidInputError("system names must be non-empty strings")
        hyps = as_text_sequence(hyps, f"system {name!r}")
        if len(hyps) != n or not all(isinstance(x, str) for x in hyps):
            raise InvalidInputError(
                f"system {name!r} needs {n} hypotheses (one per reference line), got {len(hyps)}"
            )
        named[name] = list(hyps)
    metric_names = as_text_sequence(metrics, "metrics")
    if not all(isinstance(m, str) for m in metric_names):
        raise InvalidOptionError(f"metrics must be names among {', '.join(METRIC_NAMES)}")
    chosen = tuple(m.lower() for m in metric_names)
    unknown = [m for m in chosen if m not in METRIC_NAMES]
    if unknown or not chosen or len(set(chosen)) != len(chosen):
        raise InvalidOptionError(
            f"metrics must be distinct names among {', '.join(METRIC_NAMES)}; got {list(metrics)}"
        )
    src = None if sources is None else list(as_text_sequence(sources, "sources"))
    if src is not None and (len(src) != n or not all(isinstance(x, str) for x in src)):
        raise InvalidInputError(f"the source needs {n} lines of text, got {len(src)} items")
    columns: dict[str, list[str]] = {}
    if meta is not None and not isinstance(meta, Mapping):
        raise InvalidInputError("meta must map docid/origlang/domain to one value per segment")
    for key, values in (meta or {}).items():
        if key not in META_FIELDS:
            raise InvalidOptionError(
                f"unknown metadata column {key!r}; use {', '.join(META_FIELDS)}"
            )
        if values is None:
            continue
        values = as_text_sequence(values, f"metadata {key!r}")
        if len(values) != n:
            raise InvalidInputError(f"metadata {key!r} has {len(values)} values, expected {n}")
        columns[key] = [str(v) for v in values]
    if train_counts is not None and not (
        isinstance(train_counts, Mapping)
        and all(isinstance(c, int) and not isinstance(c, bool) for c in train_counts.values())
    ):
        raise InvalidInputError("train_counts must map words to integer counts")
    counts = None if train_counts is None else {str(w): c for w, c in train_counts.items()}
    return ReportInputs(named, refs, src, columns, chosen, counts, test_set)


def read_meta_tsv(text: str) -> dict[str, list[str]]:
    """A ``--meta`` TSV: a header naming columns among origlang, domain, docid, then one row
    per segment. Other columns are ignored."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise InvalidInputError("the metadata TSV is empty; it needs a header line")
    header = lines[0].split("\t")
    wanted = [(i, h) for i, h in enumerate(header) if h in META_FIELDS]
    if not wanted:
        raise InvalidInputError(
            f"the metadata TSV header {header} names none of {', '.join(META_FIELDS)}"
        )
    columns: dict[str, list[str]] = {h: [] for _, h in wanted}
    for number, line in enumerate(lines[1:], start=2):
        cells = line.split("\t")
        if len(cells) != len(header):
            raise InvalidInputError(
                f"metadata TSV line {number} has {len(cells)} cells, the header {len(header)}"
            )
        for i, h in wanted:
            columns[h].append(cells[i])
    return columns


def read_train_counts(text: str) -> dict[str, int]:
    """Word counts for ``--train-vocab``: a ``word<TAB>count`` file, or else a corpus (one
    sentence per line) tokenized as the report tokenizes (13a)."""
    lines = [line for line in text.split("\n") if line]
    pairs = [line.split("\t") for line in lines]
    if pairs and all(len(p) == 2 and p[1].strip().isdigit() for p in pairs):
        return {w: int(c) for w, c in pairs}
    counts: dict[str, int] = {}
    for sentence in tokenize(lines, "13a"):
        for word in sentence.split():
            counts[word] = counts.get(word, 0) + 1
    return counts
