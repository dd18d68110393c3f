"""bleuprint.cli: the command line against sacrebleu's, and its own commands and options."""
