"""BLEU of token-ID sequences, for RL rewards and any caller that already has token IDs.

:func:`token_bleu` counts n-grams of integer tokens in the Rust core (no detokenizing, no
strings) and scores them with nltk's ``sentence_bleu`` arithmetic (the ``nltk`` preset:
every ``SmoothingFunction`` method and weight set), sacrebleu's sentence BLEU
(``preset="sacrebleu"``: the tokens joined as words, ``tokenize="none"``, effective order) or
fairseq's ``Scorer`` (``preset="fairseq"``: libbleu's trimming, unk never matches).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Optional, Union

from bleuprint.errors import InputTypeError, InvalidInputError, InvalidOptionError
from bleuprint.metrics.bleu.config import BLEUConfig
from bleuprint.metrics.bleu.knobs import NLTK_PARAMETERS, normalize_weights, weight_sets_as_given

if TYPE_CHECKING:
    import numpy as np

#: What ``smoothing=`` accepts: nltk's method number, ``"methodN"``, or a ``SmoothingFunction``
#: method (nltk's own or :class:`bleuprint.compat.nltk.SmoothingFunction`'s).
Smoothing = Union[int, str, Callable[..., Any], None]

TOKEN_PRESETS = ("nltk", "sacrebleu", "fairseq")

#: fairseq's ``BleuConfig`` defaults (its dictionaries' pad, eos and unk symbols).
FAIRSEQ_IDS = {"pad_id": 1, "eos_id": 2, "unk_id": 3}

# Reference tokens equal to unk_id become this, which no candidate token (>= 0) equals.
_NEVER_MATCHES = -1


def _smoothing_knob(smoothing: Smoothing) -> tuple[str, Optional[float]]:
    """``("nltkN", parameter value)`` for a smoothing argument."""
    if smoothing is None:
        return "nltk0", None
    owner = None
    if callable(smoothing):
        owner = getattr(smoothing, "__self__", None)
        name = getattr(smoothing, "__name__", "")
    elif isinstance(smoothing, str):
        name = smoothing
    elif isinstance(smoothing, int) and not isinstance(smoothing, bool):
        name = f"method{smoothing}"
    else:
        raise InputTypeError(
            f"smoothing must be a method number, 'methodN' or a SmoothingFunction method, got "
            f"{type(smoothing).__name__}"
        )
    method = name[6:] if name.startswith("method") else ""
    if not method.isdigit() or not 0 <= int(method) <= 7:
        raise InvalidOptionError(
            f"unknown smoothing {smoothing!r}; expected nltk's method0 .. method7 (a number, "
            "'methodN' or SmoothingFunction().methodN)"
        )
    parameter = NLTK_PARAMETERS.get(int(method))
    # The parameter keeps its type: nltk's arithmetic differs for alpha=4 and alpha=4.0.
    value = getattr(owner, parameter) if owner is not None and parameter else None
    return f"nltk{method}", value


def _as_int_array(values: Any, what: str) -> Optional[np.ndarray]:
    """An integer numpy view of an array or DLPack tensor (no copy where possible), or None
    for Python lists."""
    import numpy as np

    if isinstance(values, np.ndarray):
        array = values
    elif hasattr(values, "__dlpack__"):
        try:
            array = np.from_dlpack(values)
        except (BufferError, RuntimeError, TypeError) as e:
            raise InputTypeError(
                f"{what} is a tensor numpy cannot read ({e}); move it to the CPU first "
                "(e.g. tensor.cpu())"
            ) from None
    else:
        return None
    if array.dtype == object or not np.issubdtype(array.dtype, np.integer):
        raise InputTypeError(
            f"{what} must hold integer token IDs, got dtype {array.dtype}; ragged sequences "
            "must be padded with pad_id (or passed as lists of lists)"
        )
    return array


def _is_int64(value: Any) -> bool:
    """An int (not a float or a str) that fits a signed 64-bit ID."""
    import numpy as np

    return isinstance(value, (int, np.integer)) and -(2**63) <= int(value) < 2**63


class _Sequences:
    """Token sequences flattened for the core: ``tokens``, cumulative ``ends``.

    ``trim`` says what pad and eos do: ``"mask"`` drops every pad and cuts at the first eos;
    ``"fairseq"`` trims leading pads and trailing eos/pads as libbleu's ``bleu_trim`` does.
    After :meth:`start_references`, tokens equal to ``unk_id`` never match.
    """

    def __init__(
        self,
        pad_id: Optional[int],
        eos_id: Optional[int],
        unk_id: Optional[int] = None,
        trim: str = "mask",
    ) -> None:
        self.pad_id, self.eos_id, self.unk_id, self.trim = pad_id, eos_id, unk_id, trim
        self.references = False
        self.parts: list[np.ndarray] = []
        self.lengths: list[np.ndarray] = []

    def start_references(self) -> None:
        """What is added from now on are references."""
        self.references = True

    def add_matrix(self, array: np.ndarray, what: str) -> None:
        """Rows of a 2-D integer array, trimmed at eos and without pads."""
        import numpy as np

        array = np.asarray(array, dtype=np.int64)
        lengths = np.full(array.shape[0], array.shape[1], dtype=np.int64)
        self.add_flat(array.reshape(-1), lengths, what)

    def add_lists(self, rows: Sequence[Any], what: str) -> None:
        """Ragged rows (lists of ints, or 1-D integer arrays): one conversion for all of them,
        trimmed at eos and without pads."""
        import numpy as np

        sequences = []
        for i, row in enumerate(rows):
            if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
                array = _as_int_array(row, f"{what}[{i}]")
                if array is None or array.ndim != 1:
                    raise InputTypeError(
                        f"{what}[{i}] must be a sequence of int token IDs, got {type(row).__name__}"
                    )
                row = array.tolist()
            sequences.append(row)
        lengths = np.fromiter(map(len, sequences), dtype=np.int64, count=len(sequences))
        flat = [t for row in sequences for t in row]
        try:
            tokens = np.array(flat) if flat else np.zeros(0, dtype=np.int64)
        except (TypeError, ValueError, OverflowError):
            tokens = np.array(flat, dtype=object)
        # A float, a str, a huge int or a list (numpy then makes a matrix): never truncated.
        if tokens.ndim != 1 or tokens.dtype.kind not in "iub":
            at = next(k for k, t in enumerate(flat) if not _is_int64(t))
            row = int(np.searchsorted(np.cumsum(lengths), at, side="right"))
            if isinstance(flat[at], (int, np.integer)):
                raise InvalidInputError(f"{what}[{row}] holds {flat[at]}, beyond 64-bit token IDs")
            raise InputTypeError(
                f"{what}[{row}] must hold int token IDs, got {type(flat[at]).__name__} {flat[at]!r}"
            )
        self.add_flat(tokens.astype(np.int64), lengths, what)

    def add_flat(self, tokens: np.ndarray, lengths: np.ndarray, what: str) -> None:
        """Sequences given as their tokens back to back and their lengths."""
        import numpy as np

        if lengths.size == 0:  # no sequences: nothing to mask (the caller refuses an empty batch)
            return
        if self.trim == "fairseq":
            keep = self._fairseq_keep(tokens, lengths, what)
        elif self.pad_id is None and self.eos_id is None:  # every token counts: no masks
            keep = None
        else:
            keep = np.ones(tokens.shape, dtype=bool)
            if self.pad_id is not None:
                keep &= tokens != self.pad_id
            if self.eos_id is not None:
                # The first eos of each row and everything after it are not part of it.
                seen = np.cumsum(tokens == self.eos_id)
                starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
                before = np.concatenate([[0], seen])[starts]
                keep &= (seen - np.repeat(before, lengths)) == 0
        bad = tokens < 0 if keep is None else keep & (tokens < 0)
        if bad.any():
            at = int(np.flatnonzero(bad)[0])
            ends = np.cumsum(lengths)
            row = int(np.searchsorted(ends, at, side="right"))
            col = at - (int(ends[row - 1]) if row else 0)
            raise InvalidInputError(
                f"{what}[{row}][{col}] is {int(tokens[at])}: token IDs are >= 0; if it is "
                "padding, pass pad_id"
            )
        if self.references and self.unk_id is not None:
            tokens = np.where(tokens == self.unk_id, _NEVER_MATCHES, tokens)
        if keep is None:
            self.parts.append(tokens)
            self.lengths.append(lengths)
            return
        self.parts.append(tokens[keep])
        # Kept tokens per row: the running count of kept tokens at each row's end.
        kept = np.concatenate([[0], np.cumsum(keep)])[np.cumsum(lengths)]
        self.lengths.append(np.diff(np.concatenate([[0], kept])).astype(np.int64))

    def _fairseq_keep(self, tokens: np.ndarray, lengths: np.ndarray, what: str) -> np.ndarray:
        """libbleu's ``bleu_trim``: leading pads off, then trailing eos and pads off, never
        the first token left (so ``[eos]`` stays one token). Vectorized over rows."""
        import numpy as np

        n = tokens.shape[0]
        position = np.arange(n)
        row_of = np.repeat(np.arange(lengths.shape[0]), lengths)
        leading = tokens == self.pad_id
        # Per row: the first token that is not a pad, and the last that is neither pad nor eos.
        first = np.full(lengths.shape[0], n)
        np.minimum.at(first, row_of[~leading], position[~leading])
        ends = np.cumsum(lengths)
        bare = np.flatnonzero(first >= ends)
        if bare.size:
            raise InvalidInputError(
                f"{what}[{int(bare[0])}] has no tokens besides padding: fairseq's Scorer cannot "
                "score it (libbleu reads out of bounds); leave such pairs out"
            )
        trailing = leading | (tokens == self.eos_id)
        last = first.copy()
        np.maximum.at(last, row_of[~trailing], position[~trailing])
        return (position >= first[row_of]) & (position <= last[row_of])

    def flat(self) -> tuple[np.ndarray, np.ndarray]:
        import numpy as np

        tokens = np.concatenate(self.parts) if self.parts else np.zeros(0, dtype=np.int64)
        lengths = np.concatenate(self.lengths) if self.lengths else np.zeros(0, dtype=np.int64)
        return np.ascontiguousarray(tokens, dtype=np.int64), np.cumsum(lengths, dtype=np.int64)


def _add(sequences: _Sequences, values: Any, what: str) -> int:
    """Adds candidates (a ``[B, L]`` array or lists); returns B."""
    array = _as_int_array(values, what)
    if array is not None:
        if array.ndim != 2:
            raise InvalidInputError(f"{what} must be 2-D [B, L], got shape {array.shape}")
        sequences.add_matrix(array, what)
        return int(array.shape[0])
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise InputTypeError(f"{what} must be a [B, L] array or a list of token-ID lists")
    sequences.add_lists(values, what)
    return len(values)


def _add_references(sequences: _Sequences, values: Any, b: int) -> list[int]:
    """Adds references (``[B, R, L]``, ``[B, L]`` for one each, or ragged lists: per
    candidate, a list of token-ID lists); returns the count per candidate."""
    sequences.start_references()
    array = _as_int_array(values, "references")
    if array is not None:
        if array.ndim == 2:
            array = array[:, None, :]
        if array.ndim != 3:
            raise InvalidInputError(
                f"references must be [B, R, L] (or [B, L]), got shape {array.shape}"
            )
        if array.shape[0] != b:
            raise InvalidInputError(f"{b} candidates but references has {array.shape[0]} rows")
        sequences.add_matrix(array.reshape(-1, array.shape[2]), "references")
        return [int(array.shape[1])] * b
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise InputTypeError("references must be a [B, R, L] array or lists of token-ID lists")
    if len(values) != b:
        raise InvalidInputError(f"{b} candidates but {len(values)} reference lists")
    counts = []
    for i, refs in enumerate(values):
        if isinstance(refs, (str, bytes)) or not hasattr(refs, "__len__") or not len(refs):
            raise InvalidInputError(
                f"references[{i}] must list at least one token-ID sequence (an empty "
                "reference is [[]])"
            )
        sequences.add_lists(refs, f"references[{i}]")
        counts.append(len(refs))
    return counts


def token_bleu(
    candidates: Any,
    references: Any,
    *,
    pad_id: Optional[int] = None,
    eos_id: Optional[int] = None,
    unk_id: Optional[int] = None,
    max_order: int = 4,
    weights: Any = None,
    smoothing: Smoothing = None,
    auto_reweigh: bool = False,
    preset: Optional[str] = None,
    corpus: bool = False,
    workers: int = -1,
) -> Any:
    """BLEU of every candidate token-ID sequence against its references: float64 ``(B,)``
    (``(B, W)`` for ``W`` weight sets).

    Parameters
    ----------
    candidates
        ``[B, L]`` integer array (numpy, or any DLPack tensor on the CPU: torch, jax; read
        without a copy), or a list of token-ID lists.
    references
        ``[B, R, L]`` (or ``[B, L]``: one each), or per candidate a list of token-ID lists.
    pad_id
        Padding: removed before counting, so it never matches. Needed for ragged batches.
    eos_id
        End of sequence: it and every token after it are ignored.
    unk_id
        Unknown token: in a reference it never matches (fairseq's rule).
    max_order, weights
        nltk's ``weights`` (default: ``1 / max_order`` each, for ``max_order`` orders).
    smoothing
        nltk's ``SmoothingFunction`` method (``SmoothingFunction().method1``), its number or
        ``"methodN"``; default nltk's own (none, with its warning and 0).
    auto_reweigh
        nltk's ``auto_reweigh``.
    preset
        ``None``/``"nltk"``: nltk's ``sentence_bleu`` (0..1), bit-exact on the same tokens.
        ``"sacrebleu"``: sacrebleu's ``sentence_bleu`` (0..100) of the tokens joined by
        spaces with ``tokenize="none"`` (exp smoothing, effective order).
        ``"fairseq"``: fairseq's ``Scorer`` (0..100, no smoothing, ``max_order`` <= 4, one
        reference each). pad, eos and unk default to fairseq's 1, 2 and 3 and act as in
        libbleu: leading pads and trailing eos/pads are trimmed, a reference unk never
        matches.
    corpus
        One corpus score instead: nltk's ``corpus_bleu`` (sacrebleu's ``corpus_bleu``,
        fairseq's ``Scorer.score()`` after adding every pair).

    Errors name the problem: a non-integer dtype, a negative ID that is not ``pad_id``,
    mismatched batch sizes, a candidate without references.
    """
    import numpy as np

    name = "nltk" if preset is None else preset
    if name not in TOKEN_PRESETS:
        raise InvalidOptionError(
            f"preset must be one of {', '.join(TOKEN_PRESETS)}, got {preset!r}"
        )
    ids = {"pad_id": pad_id, "eos_id": eos_id, "unk_id": unk_id}
    for label, value in ids.items():
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise InputTypeError(f"{label} must be an int or None, got {type(value).__name__}")
    if name == "fairseq":
        ids = {k: FAIRSEQ_IDS[k] if v is None else v for k, v in ids.items()}
    sequences = _Sequences(**ids, trim="fairseq" if name == "fairseq" else "mask")
    b = _add(sequences, candidates, "candidates")
    counts = _add_references(sequences, references, b)
    if b == 0:
        raise InvalidInputError("candidates is empty: there is nothing to score")
    if name == "fairseq" and any(n != 1 for n in counts):
        raise InvalidInputError(
            "fairseq's Scorer takes one reference per candidate; pass [B, L] references or "
            "one list each"
        )
    tokens, ends = sequences.flat()
    config = _config(name, max_order, weights, smoothing, auto_reweigh)
    rows = config.token_id_rows(tokens, ends, counts, workers=workers)
    if corpus:
        return config.score_corpus(rows).score
    # One score per candidate, or one per weight set (nltk's list) with several weight sets.
    return np.array([s.score for s in config.score_rows_detailed(rows)], dtype=np.float64)


def _config(
    name: str, max_order: int, weights: Any, smoothing: Smoothing, auto_reweigh: bool
) -> BLEUConfig:
    if isinstance(max_order, bool) or not isinstance(max_order, int) or max_order < 1:
        raise InvalidOptionError(f"max_order must be an int >= 1, got {max_order!r}")
    if name == "fairseq":
        if weights is not None or smoothing is not None or auto_reweigh:
            raise InvalidOptionError(
                "preset='fairseq' has no weights, smoothing or auto_reweigh: fairseq's "
                "Scorer averages max_order unsmoothed log precisions"
            )
        if max_order > 4:
            raise InvalidOptionError("fairseq's Scorer counts n-grams up to order 4")
        return BLEUConfig(
            tokenize="tokens", smooth_method="none", arithmetic="fairseq", max_ngram_order=max_order
        )
    if weights is None:
        weights = (1 / max_order,) * max_order
    if name == "sacrebleu":
        if smoothing is not None or auto_reweigh:
            raise InvalidOptionError("preset='sacrebleu' uses its own smoothing (exp)")
        return BLEUConfig(tokenize="tokens", max_ngram_order=max_order, effective_order=True)
    method, value = _smoothing_knob(smoothing)
    # nltk re-weighs only a weight set equal to the *tuple* (0.25, 0.25, 0.25, 0.25).
    reweigh = auto_reweigh and any(
        w == (0.25, 0.25, 0.25, 0.25) for w in weight_sets_as_given(weights)
    )
    return BLEUConfig.from_preset(
        "nltk", weights=normalize_weights(weights), auto_reweigh=reweigh, smooth_method=method,
        smooth_value=value,
    )  # fmt: skip


__all__ = ["FAIRSEQ_IDS", "TOKEN_PRESETS", "token_bleu"]
