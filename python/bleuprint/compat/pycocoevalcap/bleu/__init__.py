"""pycocoevalcap's ``bleu`` package: :class:`~bleuprint.compat.pycocoevalcap.bleu.bleu.Bleu`."""
