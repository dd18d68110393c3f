"""bleuprint.testsets: the registry, readers, cache and downloads, against sacrebleu 2.6.0."""
