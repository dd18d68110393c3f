"""Drop-in replacements for other libraries' APIs, computed by bleuprint's core.

Each module mirrors one library's functions, argument order and return values exactly:
:mod:`bleuprint.compat.jiwer` (jiwer 4.0.0).
"""
