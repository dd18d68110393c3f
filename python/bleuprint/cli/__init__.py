"""The ``bleuprint`` command: sacrebleu's command line, with identical output.

Every BLEU, chrF and TER invocation of ``sacrebleu`` 2.6.0 works unchanged and prints the same
bytes on stdout, except that signatures say ``version:bleuprint-X`` instead of
``version:2.6.0``; that includes confidence intervals (``-ci``) and paired significance tests
(``-pbs``, ``-par``). ``-m wer cer`` adds the WER family, ``--paired-all`` compares every pair
of systems with a multiple-comparison correction (``--correction``). Options that belong to
features bleuprint does not have yet (built-in test sets) are accepted by the parser, so the
usage text is familiar, and exit with status 2 and a one-line message when used. See
``docs/cli.md``.

The modules, in the order a run uses them:

- :mod:`~bleuprint.cli.entry`: :func:`main`, subcommands, exit statuses, Ctrl-C.
- :mod:`~bleuprint.cli.parser`, :mod:`~bleuprint.cli.metric_options` and
  :mod:`~bleuprint.cli.help_text`: the options and the help.
- :mod:`~bleuprint.cli.checks`: option values and combinations, before any work.
- :mod:`~bleuprint.cli.input`: reading references and systems (and group keys), with
  :mod:`~bleuprint.cli.table_input` for tables (``--hyp-column``, ``--ref-column``,
  ``--group-by``).
- :mod:`~bleuprint.cli.metric_objects` and :mod:`~bleuprint.cli.running`: scoring.
- :mod:`~bleuprint.cli.output` and :mod:`~bleuprint.cli.paired_output`: sacrebleu's text.
- :mod:`~bleuprint.cli.compat`: the presets: ``explain``, ``compare-presets``, ``--preset``.
- :mod:`~bleuprint.cli.errors`: :class:`CliError`, exit statuses, stderr messages.

Only ``argparse`` and the already-loaded package are imported up front, so ``bleuprint -V`` is
quick; numpy (for statistics), tabulate (for tables), the significance tests and the compat
code load when needed.
"""

from bleuprint.cli.entry import main
from bleuprint.cli.errors import CliError
from bleuprint.cli.output import sentence_lines
from bleuprint.cli.parser import build_parser

__all__ = ["CliError", "build_parser", "main", "sentence_lines"]
