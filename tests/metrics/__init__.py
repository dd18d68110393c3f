"""bleuprint.metrics (BLEU, chrF, TER, WER, statistics, presets): unit tests, golden vectors,
WMT22 and sample runs against sacrebleu and jiwer, and property tests."""
