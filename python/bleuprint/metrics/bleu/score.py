"""BLEU's result and signatures: one score type for sacrebleu's BLEU and every preset.

:class:`BLEUScore` is sacrebleu's ``BLEUScore`` (counts, totals, precisions, brevity penalty,
lengths) and keeps, for the other upstreams' presets, their own types: nltk's int ``0``, a
list of scores for several weight sets, torchmetrics' ``numpy.float32``, precisions in 0..1.
"""

from __future__ import annotations

from typing import Any, Optional

from bleuprint.metrics.bleu.knobs import SMOOTH_DEFAULTS
from bleuprint.metrics.scores import Score, Signature
from bleuprint.tokenizers import normalization_signature, tokenizer_signature

#: Marks a ratio that :class:`BLEUScore` computes from the lengths, as sacrebleu does.
_FROM_LENGTHS: Any = object()


class BLEUScore(Score):
    """A BLEU score with the statistics behind it (sacrebleu's ``BLEUScore``).

    Attributes
    ----------
    score : float
        BLEU in 0..100 (sacrebleu); for other presets the upstream's value and type (0..1,
        nltk's int ``0``, a list per weight set, ``numpy.float32``).
    counts, totals : list
        Clipped n-gram matches and hypothesis n-gram counts per order.
    precisions : list of float
        Per-order precisions (percent under sacrebleu's arithmetic, else 0..1).
    bp : float
        Brevity penalty.
    sys_len, ref_len : int
        Hypothesis length and effective reference length, in tokens (``hyp_len`` is
        ``sys_len``).
    ratio : float
        ``sys_len / ref_len`` (0 without reference tokens), or the upstream's own ratio.
    config : BLEUConfig or None
        The configuration that scored it.
    """

    def __init__(
        self,
        score: Any,
        counts: list[Any],
        totals: list[Any],
        precisions: list[Any],
        bp: Any,
        sys_len: Any,
        ref_len: Any,
        *,
        ratio: Any = _FROM_LENGTHS,
        config: Any = None,
    ) -> None:
        super().__init__("BLEU", score)
        self.bp = bp
        self.counts = counts
        self.totals = totals
        self.sys_len = sys_len
        self.ref_len = ref_len
        self.precisions = precisions
        self.ratio = (sys_len / ref_len if ref_len else 0) if ratio is _FROM_LENGTHS else ratio
        self.config = config

    @property
    def hyp_len(self) -> Any:
        """The hypothesis length (``sys_len``), as the other upstreams name it."""
        return self.sys_len

    @hyp_len.setter
    def hyp_len(self, value: Any) -> None:
        self.sys_len = value

    @property
    def number(self) -> float:
        """The score as one float: the score itself, the first weight set's where there are
        several, and under the coco arithmetic's per-order list Bleu_N (the highest order, the
        BLEU that MBR, pairwise matrices and sentence score arrays use)."""
        score = self.score
        if isinstance(score, list):
            coco = self.config is not None and self.config.arithmetic == "coco"
            score = score[-1] if coco else score[0]
        return float(score)

    @property
    def knobs(self) -> Any:
        """The configuration that scored it (``config``; its older name)."""
        return self.config

    @property
    def prec_str(self) -> str:
        """The precisions as sacrebleu prints them: ``82.4/50.0/45.5/37.5``."""
        return "/".join([f"{p:.1f}" for p in self.precisions])

    @property
    def _sacrebleu_form(self) -> bool:
        """sacrebleu's text (``BLEU = 34.12 82.4/50.0/...``) fits sacrebleu's arithmetic; the
        other presets' scores (0..1, several weight sets) print their fields instead."""
        return self.config is None or self.config.arithmetic == "sacrebleu"

    @property
    def _verbose(self) -> str:  # type: ignore[override]
        if not self._sacrebleu_form:
            return ""
        if isinstance(self.sys_len, int) and isinstance(self.ref_len, int):
            lengths = f"hyp_len = {self.sys_len:d} ref_len = {self.ref_len:d}"
        else:  # an average reference length, or torchmetrics' float32 state
            lengths = f"hyp_len = {self.sys_len} ref_len = {self.ref_len}"
        return f"{self.prec_str} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} {lengths})"

    def _fields(self) -> tuple[Any, ...]:
        return (
            self.score, self.precisions, self.bp, self.ratio, self.sys_len, self.ref_len,
            self.counts, self.totals, self.config,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BLEUScore):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        if not self._sacrebleu_form:
            return (
                f"BLEUScore(score={self.score!r}, precisions={self.precisions!r}, "
                f"bp={self.bp!r}, ratio={self.ratio!r}, hyp_len={self.sys_len!r}, "
                f"ref_len={self.ref_len!r}, counts={self.counts!r}, totals={self.totals!r})"
            )
        return super().__repr__()


#: The name this result had for presets before there was one BLEU score type.
PresetScore = BLEUScore


class BLEUSignature(Signature):
    """``nrefs:N|case:mixed|eff:no|tok:13a|smooth:exp|version:bleuprint-X``.

    ``norm:nfc`` (or ``nfkc``) comes before the version when Unicode normalization is on.
    """

    def __init__(self, config: Any, nrefs: int) -> None:
        super().__init__(nrefs)
        self.abbreviations.update(
            {"case": "c", "eff": "e", "tok": "tok", "smooth": "s", "norm": "nm"}
        )
        smooth = config.smooth_method
        if SMOOTH_DEFAULTS[smooth] is not None:  # sacrebleu prints the value of those taking one
            smooth += f"[{config.effective_smooth_value:.2f}]"
        self.info.update(
            {
                "case": "lc" if config.lowercase else "mixed",
                "eff": "yes" if config.effective_order else "no",
                "tok": tokenizer_signature(config.tokenize, config.spm_model),
                "smooth": smooth,
            }
        )
        if config.normalize is not None:
            self.info["norm"] = normalization_signature(config.normalize)


class PresetSignature(Signature):
    """``nrefs:1|preset:nltk|version:...``: the preset these settings are, or the nearest one
    with the knobs that differ from it (``preset:nltk,smoothing=nltk3``)."""

    def __init__(self, label: str, nrefs: int, extra: Optional[dict[str, Any]] = None) -> None:
        super().__init__(nrefs, extra)
        self.abbreviations["preset"] = "p"
        self.info["preset"] = label
