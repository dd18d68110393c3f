"""Drop-in replacements for other libraries' APIs, computed by bleuprint's core.

Each module mirrors one library's functions, argument order and return values exactly, so
switching is one import line:

- :mod:`bleuprint.compat.sacrebleu`: sacrebleu 2.6.0's whole module tree (``install()``
  makes ``import sacrebleu`` load it);
- :mod:`bleuprint.compat.nltk`: nltk 3.10.4's ``nltk.translate.bleu_score``;
- :mod:`bleuprint.compat.evaluate`: HF evaluate's ``load("bleu" | "google_bleu" | "sacrebleu" |
  "chrf" | "ter" | "rouge")``;
- :mod:`bleuprint.compat.nlgmetricverse`: nlg-metricverse's ``NLGMetricverse`` with ``bleu``;
- :mod:`bleuprint.compat.torchmetrics`: torchmetrics' BLEU and ROUGE functions and classes;
- :mod:`bleuprint.compat.rouge_score`: rouge-score 0.1.2's modules (``install()`` makes
  ``import rouge_score`` load it);
- :mod:`bleuprint.compat.moses`: Moses' ``multi-bleu.perl`` and ``multi-bleu-detok.perl``;
- :mod:`bleuprint.compat.mteval`: NIST ``mteval-v13a.pl`` and ``mteval-v14.pl``;
- :mod:`bleuprint.compat.jiwer`: jiwer 4.0.0's modules (WER, CER, MER, WIL, WIP, transforms,
  the ``jiwer`` command line).

The BLEU modules are presets of :mod:`bleuprint.presets`; see ``docs/compat.md``.
"""
