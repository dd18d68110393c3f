"""mbrs metrics backed by bleuprint: sentence BLEU, chrF and chrF++ for mbrs' MBR decoders.

`mbrs <https://github.com/naist-nlp/mbrs>`_ (0.1.8) finds its metrics in a registry; importing
this module registers two classes there, under names of their own beside mbrs' ``bleu`` and
``chrf``::

    import bleuprint.integrations.mbrs          # registers "bleuprint_bleu", "bleuprint_chrf"
    from mbrs.decoders import DecoderMBR
    from mbrs.metrics import get_metric

    metric_type = get_metric("bleuprint_bleu")  # bleuprint.integrations.mbrs.MetricBLEU
    metric = metric_type(metric_type.Config(tokenize="13a"))
    decoder = DecoderMBR(DecoderMBR.Config(), metric)

Each class takes mbrs' own configuration (:class:`MetricBLEU.Config` and
:class:`MetricChrF.Config` subclass mbrs' and add no field: the same fields, defaults and
command-line options; chrF++ is ``MetricChrF.Config(word_order=2)``) and gives mbrs' own
results: ``score`` the same float, ``scores``, ``pairwise_scores``, ``expected_scores`` and
``expected_scores_reference_aggregation`` the same tensors (torch's default dtype, float32),
``corpus_score`` the same float. Every value is sacrebleu's (bleuprint's exact BLEU and chrF)
rounded as mbrs rounds it, and computed in bleuprint's core on its own threads instead of a
pool of processes scoring a cell at a time. Config fields that only tune mbrs' own computation
are accepted and have no effect: ``num_workers`` (bleuprint uses every core) and chrF's
``fastchrf`` (the values stay sacrebleu's chrF, which fastchrf's float32 values approximate).

``mbrs-decode`` loads the classes with ``--plugin_dir``, pointed at the directory
:data:`bleuprint.integrations.mbrs_plugin.PLUGIN_DIR` (see docs/mbr.md). Importing this module
imports mbrs and torch; ``import bleuprint`` and ``import bleuprint.integrations`` never do.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Optional

from bleuprint.analysis.pairwise import aggregate_utility
from bleuprint.errors import InvalidInputError
from bleuprint.metrics import BLEU, CHRF

try:
    with warnings.catch_warnings():
        # mbrs' metric modules import COMET, torchmetrics and transformers, which warn about
        # their own dependencies (pkg_resources, torch.jit) on import: nothing of the caller's.
        warnings.simplefilter("ignore")
        import torch  # type: ignore[import-not-found, unused-ignore]
        from mbrs import (  # type: ignore[import-not-found, unused-ignore]
            metrics as _mbrs_metrics,
        )
        from mbrs import timer as _timer  # type: ignore[import-not-found, unused-ignore]
except ImportError as error:
    raise ModuleNotFoundError(
        f"bleuprint.integrations.mbrs needs mbrs and torch ({error}); install them with: "
        "pip install mbrs (mbrs 0.1.8 requires unbabel-comet, which pins numpy<2; bleuprint "
        "works with numpy 1.24 and later)",
        name=getattr(error, "name", None) or "mbrs",
    ) from error

#: The registry names (mbrs' own are ``bleu`` and ``chrf``).
BLEU_NAME = "bleuprint_bleu"
CHRF_NAME = "bleuprint_chrf"

Tensor = Any  # torch.Tensor, untyped where mbrs is not installed (type checking)


def _tensor(values: Any) -> Tensor:
    """float64 scores as mbrs stores Python floats: ``torch.Tensor(list)``, i.e. each value
    rounded to nearest in torch's default dtype (float32)."""
    import numpy as np

    array = np.ascontiguousarray(values, dtype=np.float64)
    return torch.from_numpy(array).to(torch.get_default_dtype())


def _check_lprobs(reference_lprobs: Tensor, references: Sequence[str]) -> None:
    shape = list(reference_lprobs.shape)
    if shape != [len(references)]:
        raise InvalidInputError(
            f"reference_lprobs has shape {shape}, expected [{len(references)}]: one "
            "log-probability per reference"
        )


class _Metric(_mbrs_metrics.MetricAggregatable):  # type: ignore[misc, unused-ignore]
    """What both classes share: a bleuprint metric (``self.scorer``) scoring every method."""

    cfg: Any
    scorer: Any

    #: The bleuprint metric; mbrs' Config fields are its keyword arguments, but for
    #: ``_MBRS_ONLY``, which tune only mbrs' own computation.
    _METRIC: ClassVar[Callable[..., Any]]
    _MBRS_ONLY: ClassVar[tuple[str, ...]] = ("num_workers",)
    #: mbrs' arguments of ``Tensor.log_softmax`` when it turns reference log-probabilities into
    #: the aggregation's log weights (BLEU converts to float32; chrF keeps the input's dtype).
    _LOG_SOFTMAX: ClassVar[dict[str, Any]] = {}

    def __init__(self, cfg: Optional[Any] = None) -> None:
        super().__init__(self.Config() if cfg is None else cfg)
        fields = [f.name for f in dataclasses.fields(self.cfg) if f.name not in self._MBRS_ONLY]
        self.scorer = self._METRIC(**{name: getattr(self.cfg, name) for name in fields})

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.cfg!r})"

    def score(self, hypothesis: str, reference: str, source: Optional[str] = None) -> float:
        """The sentence score of ``hypothesis`` against ``reference`` (a Python float)."""
        return float(self.scorer.sentence_score(hypothesis, [reference]).score)

    def scores(
        self,
        hypotheses: list[str],
        references: list[str],
        sources: Optional[list[str]] = None,
    ) -> Tensor:
        """The sentence score of each hypothesis against its reference: ``(N,)``."""
        with _timer.measure("score") as t:
            t.set_delta_ncalls(len(hypotheses))
            if len(hypotheses) != len(references):
                raise InvalidInputError(
                    f"got {len(hypotheses)} hypotheses but {len(references)} references"
                )
            return _tensor(self.scorer.sentence_scores(hypotheses, [references]))

    def pairwise_scores(
        self, hypotheses: list[str], references: list[str], source: Optional[str] = None
    ) -> Tensor:
        """Every hypothesis against every reference: ``(H, R)``, cell ``(i, j)`` equal to
        ``score(hypotheses[i], references[j])`` rounded to the tensor's dtype."""
        with _timer.measure("score") as t:
            t.set_delta_ncalls(len(hypotheses) * len(references))
            if not hypotheses or not references:
                return torch.zeros((len(hypotheses), len(references)))
            return _tensor(self.scorer.pairwise(hypotheses, references))

    # expected_scores: mbrs' own (Metric.expected_scores), i.e. functional.expectation of the
    # float32 matrix above: the same mean, or softmax-weighted sum, as mbrs computes.

    def expected_scores_reference_aggregation(
        self,
        hypotheses: list[str],
        references: list[str],
        source: Optional[str] = None,
        reference_lprobs: Optional[Tensor] = None,
    ) -> Tensor:
        """Each hypothesis against the references' expected n-gram statistics (reference
        aggregation): mbrs' arithmetic, operation for operation, in bleuprint's core.
        ``reference_lprobs`` (``(R,)`` log-probabilities) are normalised with torch's
        ``log_softmax`` exactly as mbrs does; by default each reference weighs ``1 / R``."""
        with _timer.measure("expectation"):
            if not hypotheses:
                return torch.zeros((0,))
            if reference_lprobs is None:
                values = self.scorer.aggregate_utility(hypotheses, references)
            else:
                _check_lprobs(reference_lprobs, references)
                lprobs = reference_lprobs.log_softmax(dim=-1, **self._LOG_SOFTMAX).tolist()
                # mbrs' float32 values as they are: a log of weights would lose their last bits.
                values = aggregate_utility(self.scorer, hypotheses, references, log_weights=lprobs)
            return _tensor(values)

    def corpus_score(
        self,
        hypotheses: list[str],
        references_lists: list[list[str]],
        sources: Optional[list[str]] = None,
    ) -> float:
        """sacrebleu's corpus score; ``references_lists`` are reference streams
        (``references_lists[k][i]`` is the k-th reference of hypothesis i), as mbrs passes
        them to sacrebleu."""
        return float(self.scorer.corpus_score(hypotheses, references_lists).score)


def _config_doc(theirs: Any, note: str) -> str:
    """mbrs' docstring of the configuration (its field list is mbrs-decode's help), and ours."""
    return f"{(theirs.__doc__ or '').rstrip()}\n\n        bleuprint: {note}\n"


@_mbrs_metrics.register(BLEU_NAME)
class MetricBLEU(_Metric):
    """Sentence BLEU (sacrebleu's, by default with effective order and exp smoothing: mbrs'
    default), registered in mbrs as ``bleuprint_bleu``; equal to mbrs' ``MetricBLEU``."""

    _METRIC = BLEU
    _LOG_SOFTMAX = {"dtype": torch.float32}

    @dataclass
    class Config(_mbrs_metrics.MetricBLEU.Config):  # type: ignore[misc, unused-ignore]
        # mbrs' MetricBLEU.Config: the same fields and defaults.
        __doc__ = _config_doc(
            _mbrs_metrics.MetricBLEU.Config,
            "``num_workers`` has no effect (bleuprint scores on its own threads).",
        )


@_mbrs_metrics.register(CHRF_NAME)
class MetricChrF(_Metric):
    """chrF (``Config(word_order=2)``: chrF++), registered in mbrs as ``bleuprint_chrf``;
    equal to mbrs' ``MetricChrF``."""

    _METRIC = CHRF
    _MBRS_ONLY = ("num_workers", "fastchrf")

    @dataclass
    class Config(_mbrs_metrics.MetricChrF.Config):  # type: ignore[misc, unused-ignore]
        # mbrs' MetricChrF.Config: the same fields and defaults (word_order=2: chrF++), and
        # its refusal of fastchrf with word_order.
        __doc__ = _config_doc(
            _mbrs_metrics.MetricChrF.Config,
            "``num_workers`` and ``fastchrf`` have no effect: the scores are sacrebleu's chrF, "
            "which fastchrf approximates in float32.",
        )


#: The registered classes by name.
METRICS = {BLEU_NAME: MetricBLEU, CHRF_NAME: MetricChrF}

__all__ = ["BLEU_NAME", "CHRF_NAME", "METRICS", "MetricBLEU", "MetricChrF"]
