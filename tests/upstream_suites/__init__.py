"""Upstream packages' own test suites, taken from their sdists and run against bleuprint."""
