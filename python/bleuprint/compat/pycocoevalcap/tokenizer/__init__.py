"""pycocoevalcap 1.2's ``tokenizer`` package: :class:`~.ptbtokenizer.PTBTokenizer`."""
