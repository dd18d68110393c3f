"""pycocoevalcap 1.2's ``cider`` package: :class:`~.cider.Cider`."""
