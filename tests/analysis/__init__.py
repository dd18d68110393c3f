"""bleuprint.analysis: pairwise scores and MBR, explain, token-ID BLEU and the report (with
compare-mt and a real browser)."""
