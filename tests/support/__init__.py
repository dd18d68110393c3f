"""Helpers shared by several test files (fixtures stay in the ``conftest.py`` files).

- ``data``: where the repository, the test data and ../shared's WMT22 release are; reading
  lines as sacrebleu reads them; the WMT22 systems and references.
- ``golden``: the golden vectors of ``tests/data/golden_*.jsonl``.
- ``checks``: comparisons of bleuprint with an upstream (values and their types, warnings,
  BLEU fields, lines of tokenized text, WER against jiwer).
- ``cli``: running ``bleuprint`` and ``sacrebleu`` on the command line and comparing them.
- ``strategies``: hypothesis strategies for random text and random corpora.
- ``laziness``: how far a lazy input was read each time a metric computed statistics.
- ``upstream``: an upstream's published sdist, downloaded and verified.
- ``http_server``: a real HTTP server on 127.0.0.1 that injects faults.
- ``testsets_fixtures``: synthetic raw downloads of every registered test set;
  ``sacrebleu_datasets``: sacrebleu's own dataset objects on a chosen cache;
  ``sacrebleu_testsets``: those test sets served to sacrebleu's own suite.
"""
