"""The text of ``bleuprint --help`` around the options: quick usage, input rules, environment
variables and exit statuses."""

from __future__ import annotations

from bleuprint import __version__
from bleuprint.cli.errors import PROG

DESCRIPTION = f"""\
{PROG} {__version__}: exact, fast BLEU, chrF, TER, WER and ROUGE. Scores are bit-identical to
sacrebleu 2.6.0 (ROUGE: rouge-score 0.1.2) and every sacrebleu BLEU, chrF and TER invocation
works unchanged.

Quick usage:
    {PROG} ref.en [ref2.en ...] -i hyp.en          one system, one or more references
    cat hyp.en | {PROG} ref.en                     the system output on standard input
    {PROG} ref.en -i sys1.en sys2.en -f text       several systems: a table
    {PROG} ref.en -i hyp.en -m bleu chrf ter       several metrics
    {PROG} ref.en -i hyp.en -ci -f text            a bootstrap confidence interval
    {PROG} ref.en -i base.en sys1.en -pbs -f text  paired test against the baseline (first)
    {PROG} -i t.parquet --hyp-column hyp --ref-column ref   a table's columns (JSONL, Arrow)
    {PROG} -i t.jsonl --group-by lang -f text      one exact corpus score per group"""

EPILOG = f"""\
other commands:
  {PROG} stats REF -i HYP [--shard K/N] -o part.npz   statistics of (a shard of) the input
  {PROG} merge part*.npz [-ci | -pbs ...]             what one run over every shard prints
  {PROG} mbr SAMPLES -n N [-m bleu|chrf|chrf++|ter]   minimum Bayes risk selection
  {PROG} explain --hyp TEXT --ref TEXT                one sentence's BLEU step by step
  {PROG} compare-presets REF -i HYP                   one file under every preset
  (each takes --help)

input rules:
  Files: only \\n ends a line, each line is rstrip()-ed (CRLF files work), a final newline
  adds no empty line, a leading UTF-8 byte order mark is removed. *.gz, *.bz2, *.xz and
  *.zst files are decompressed. Standard input uses universal newlines; tab-separated fields
  on standard input are separate systems. Input is read and scored a chunk at a time, so
  its size is not limited by memory. Tables (--hyp-column, --ref-column, --group-by):
  .jsonl/.ndjson (compressed too), .parquet, .arrow/.feather/.ipc; cells are not stripped.

environment:
  BLEUPRINT_FORMAT, SACREBLEU_FORMAT   override -f/--format (json, text or latex)
  NO_COLOR                             disable colours, like -nc
  BLEUPRINT_NUM_THREADS                threads for scoring (default: all cores)
  SACREBLEU_SEED, BLEUPRINT_SEED       seed of -ci, -pbs and -par: an integer (default
                                       12345), or None for a different draw every run

exit status:
  0   success
  1   unreadable or undecodable input, different line counts, empty system output, a
      table column that is missing or holds a non-string cell, a missing optional package;
      a statistical option refused as sacrebleu refuses it (e.g. -ci with two systems)
  2   bad usage (e.g. -pbsn 0, -w 1000, a second -i, an invalid SACREBLEU_SEED), or an
      option that {PROG} does not support yet
  17  a tab-separated line with the wrong number of fields (-nr, or systems on stdin)
  130 interrupted (Ctrl-C)"""


STATS_DESCRIPTION = f"""\
{PROG} stats: count the statistics of every system and metric, as '{PROG}' would score them,
and write them to a file instead of printing scores. Takes every option of '{PROG}' that
decides the statistics (references, -i, -nr, -e, -m, -tok, -lc, chrF and TER options, ...).

Job arrays: run shard K of N in task K, then merge:
    {PROG} stats ref.de -i hyp.de -m bleu chrf --shard 3/8 -o part3.npz
    {PROG} merge part*.npz -f text                 exactly what one run would print
    {PROG} merge part*.npz -ci                     with a bootstrap interval"""

MERGE_DESCRIPTION = f"""\
{PROG} merge: the output of one run over the whole input, from the shard files that
'{PROG} stats --shard K/N' wrote. The files must come from the same command (systems,
metric settings, input length, {PROG} version) and hold every shard 1..N once; anything else
is refused. The rows are put back in order, so -ci and the paired tests draw the same samples
as one run."""
