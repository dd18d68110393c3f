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

- :mod:`~bleuprint.cli.entry`: :func:`main`, which module runs each subcommand
  (``SUBCOMMANDS``), exit statuses, Ctrl-C.
- :mod:`~bleuprint.cli.parser`, :mod:`~bleuprint.cli.metric_options`,
  :mod:`~bleuprint.cli.compat` (``--preset``), :mod:`~bleuprint.cli.actions` and
  :mod:`~bleuprint.cli.help_text`: the options and the help.
- :mod:`~bleuprint.cli.checks`: option values and combinations, before any work.
- :mod:`~bleuprint.cli.input`: reading references and systems (and group keys), with
  :mod:`~bleuprint.cli.table_input` for tables (``--hyp-column``, ``--ref-column``,
  ``--group-by``) and :mod:`~bleuprint.cli.test_sets` for the built-in test sets (``-t``).
- :mod:`~bleuprint.cli.metric_objects` and :mod:`~bleuprint.cli.running`: scoring.
- :mod:`~bleuprint.cli.output` and :mod:`~bleuprint.cli.paired_output`: sacrebleu's text.
- The subcommands: :mod:`~bleuprint.cli.shards` (``stats``, ``merge``),
  :mod:`~bleuprint.cli.presets` (``explain``, ``compare-presets``),
  :mod:`~bleuprint.cli.preset_output` (the ``--preset`` output, loaded by scoring runs that
  ask for it),
  :mod:`~bleuprint.cli.mbr`, :mod:`~bleuprint.cli.self_bleu`, :mod:`~bleuprint.cli.report` and
  :mod:`~bleuprint.cli.testset_cache` (``testset import``).
- :mod:`~bleuprint.cli.errors`: :class:`CliError`, exit statuses, stderr messages.

Only ``argparse``, the already-loaded package and the parser's modules are imported up front,
so ``bleuprint -V`` is quick: :mod:`~bleuprint.cli.entry` imports the module that runs the
command (scoring, or a subcommand's) when it runs, and with it numpy, the test sets, tabulate,
the significance tests, the presets and the compat code as that command needs them.
"""

from bleuprint.cli.entry import main
from bleuprint.cli.errors import CliError
from bleuprint.cli.output import sentence_lines
from bleuprint.cli.parser import build_parser

__all__ = ["CliError", "build_parser", "main", "sentence_lines"]
