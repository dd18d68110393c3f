"""pycocoevalcap 1.2's ``spice`` package: :class:`~.spice.Spice`, pycocoevalcap's own."""
