"""Inputs and outputs around the statistics: reading files and standard input
(:mod:`~bleuprint.io.files`, :mod:`~bleuprint.io.line_reader`), the hypothesis/reference layout
checks (:mod:`~bleuprint.io.layout`), Arrow string columns (:mod:`~bleuprint.io.arrow_text`),
streams too large to hold (:mod:`~bleuprint.io.streaming`), tables
(:mod:`~bleuprint.io.tables`), shard files (:mod:`~bleuprint.io.shards`), progress bars
(:mod:`~bleuprint.io.progress`) and the lock that serialises downloads
(:mod:`~bleuprint.io.file_lock`)."""
