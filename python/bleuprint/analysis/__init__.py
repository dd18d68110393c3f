"""What is built on scores: one sentence's BLEU explained (:mod:`~bleuprint.analysis.explanation`),
pairwise matrices and MBR selection (:mod:`~bleuprint.analysis.pairwise`,
:mod:`~bleuprint.analysis.mbr`), BLEU of token IDs (:mod:`~bleuprint.analysis.token_ids`),
Self-BLEU (:mod:`~bleuprint.analysis.self_bleu`) and
the HTML report (:mod:`~bleuprint.analysis.report`)."""
