"""``sacrebleu.metrics.lib_ter``: ``translation_edit_rate`` on token lists, computed by
bleuprint's TER core. sacrebleu's ``BeamEditDistance`` and ``trace_to_alignment`` (its
internals) are not provided."""

from __future__ import annotations

from bleuprint.compat.sacrebleu.metrics.helpers import check_tokens
from bleuprint.errors import InvalidInputError
from bleuprint.metrics.ter import TER


def translation_edit_rate(words_hyp: list[str], words_ref: list[str]) -> tuple[int, int]:
    """``(edits, reference length)`` of a tokenized hypothesis against a tokenized reference:
    Tercom's shifts and edit distance, sacrebleu's beam and limits."""
    for name, words in (("words_hyp", words_hyp), ("words_ref", words_ref)):
        for word in check_tokens(name, words):
            if not word or word != "".join(word.split()):
                raise InvalidInputError(
                    f"tokens must be non-empty and hold no whitespace, got {word!r}; "
                    "split the text with str.split()"
                )
    # Case-sensitive: the tokens are compared as given.
    stats = TER(case_sensitive=True, workers=1).stats(
        [" ".join(words_hyp)], [[" ".join(words_ref)]]
    )
    edits, ref_len, _ = stats.rows[0].tolist()
    return int(edits), int(ref_len)


__all__ = ["translation_edit_rate"]
