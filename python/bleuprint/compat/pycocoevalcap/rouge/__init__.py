"""pycocoevalcap's ``rouge`` package: :class:`~bleuprint.compat.pycocoevalcap.rouge.rouge.Rouge`."""
