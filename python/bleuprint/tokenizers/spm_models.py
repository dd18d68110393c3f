"""The published SentencePiece models by ``tokenize=`` key (sacrebleu's ``SPM_MODELS``), in a
module of their own so that signatures and option checks read them without loading
:mod:`bleuprint.tokenizers.spm`, which loads and downloads the models."""

from __future__ import annotations

#: Models by ``tokenize=`` key: download URL and ``tok:`` signature (sacrebleu's table).
SPM_MODELS: dict[str, dict[str, str]] = {
    "spm": {
        "url": "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model",
        "signature": "flores101",
    },
    # same model as "spm"
    "flores101": {
        "url": "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model",
        "signature": "flores101",
    },
    "flores200": {
        "url": "https://tinyurl.com/flores200sacrebleuspm",
        "signature": "flores200",
    },
    "spBLEU-1K": {
        "url": "https://www.dlnlp.ai/spBLEU-1K/spbleu-1k_tokenizer_spm.model",
        "signature": "spBLEU-1K",
    },
}

__all__ = ["SPM_MODELS"]
