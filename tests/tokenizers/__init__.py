"""bleuprint.tokenizers: every tokenizer against sacrebleu's, language defaults, MeCab,
SentencePiece, Unicode normalization, and memory across repeated calls."""
