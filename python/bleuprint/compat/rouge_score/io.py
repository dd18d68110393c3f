"""rouge-score 0.1.2's ``rouge_score.io``: reading records from target and prediction files,
scoring them and writing the CSV, as rouge-score does.

With this package's ``RougeScorer`` each file pair's records are scored in one core call
(``RougeScorer.score_batch``); any other scorer's ``score`` is called record by record.
rouge-score logs through absl; this module logs the same messages through :mod:`logging`.
"""

from __future__ import annotations

import glob
import logging
from itertools import zip_longest
from typing import Any, Optional

from bleuprint.compat.rouge_score.rouge_scorer import RougeScorer
from bleuprint.compat.rouge_score.tokenize import ensure_str

_log = logging.getLogger(__name__)


def compute_scores_and_write_to_csv(
    target_filepattern: str,
    prediction_filepattern: str,
    output_filename: str,
    scorer: Any,
    aggregator: Any,
    delimiter: str = "\n",
) -> None:
    """Runs aggregate score calculations and outputs results to a CSV file.

    Args:
      target_filepattern: Pattern for files containing target text.
      prediction_filepattern: Pattern for files containing prediction text.
      output_filename: Name of file to write results to.
      scorer: A BaseScorer object to compute scores.
      aggregator: An aggregator to aggregate scores. If None, outputs are per-example scores.
      delimiter: Record delimiter.
    """
    target_filenames = _glob(target_filepattern)
    prediction_filenames = _glob(prediction_filepattern)
    if len(target_filenames) < 1 or len(target_filenames) != len(prediction_filenames):
        raise ValueError(
            "Must have equal and positive number of target and "
            f"prediction files. Found: {len(target_filenames):d} target files "
            f"({target_filepattern}), {len(prediction_filenames):d} prediction files "
            f"({prediction_filepattern})."
        )

    scores = _compute_scores(target_filenames, prediction_filenames, scorer, delimiter)
    if aggregator:
        for score in scores:
            aggregator.add_scores(score)
        _write_aggregates_to_csv(output_filename, aggregator.aggregate())
    else:
        _write_scores_to_csv(output_filename, scores)


def _glob(filepattern: str) -> list[str]:
    return glob.glob(filepattern)


def _open(filepattern: str, mode: str = "r") -> Any:
    return open(filepattern, mode)


def _record_gen(filename: str, delimiter: str) -> Any:
    """Opens file and yields records separated by delimiter."""
    with _open(filename) as f:
        records = f.read().split(ensure_str(delimiter))
    if records[-1]:
        # Need a final delimiter at end of file to be able to detect an empty last record.
        _log.warning("Expected delimiter at end of file")
    else:
        records = records[:-1]
    yield from records


def _compute_scores(
    target_filenames: list[str], prediction_filenames: list[str], scorer: Any, delimiter: str
) -> list[Any]:
    """Computes aggregates scores across the given target and prediction files.

    Args:
      target_filenames: List of filenames from which to read target lines.
      prediction_filenames: List of filenames from which to read prediction lines.
      scorer: A BaseScorer object to compute scores.
      delimiter: string delimiter between each record in input files

    Returns:
      A list of dicts mapping score_type to Score objects.
    Raises:
      ValueError: If invalid targets or predictions are provided.
    """
    scores: list[Any] = []
    for target_filename, prediction_filename in zip(
        sorted(target_filenames), sorted(prediction_filenames)
    ):
        _log.info("Reading targets from %s.", target_filename)
        _log.info("Reading predictions from %s.", prediction_filename)
        targets = _record_gen(target_filename, delimiter)
        preds = _record_gen(prediction_filename, delimiter)
        pairs: list[tuple[str, str]] = []
        mismatch: Optional[ValueError] = None
        for target_rec, prediction_rec in zip_longest(targets, preds):
            if target_rec is None or prediction_rec is None:
                mismatch = ValueError(
                    "Must have equal number of lines across target and "
                    f"prediction files. Mismatch between files: {target_filename}, "
                    f"{prediction_filename}."
                )
                break
            pairs.append((target_rec, prediction_rec))
        # The records before a mismatch are scored first (a bad type raises there first).
        if isinstance(scorer, RougeScorer) and type(scorer).score is RougeScorer.score:
            if pairs:
                scores += scorer.score_batch([t for t, _ in pairs], [p for _, p in pairs])
        else:
            scores += [scorer.score(t, p) for t, p in pairs]
        if mismatch is not None:
            raise mismatch

    return scores


def _write_aggregates_to_csv(output_filename: str, aggregates: Any) -> None:
    """Writes aggregate scores to an output CSV file.

    Output file is a comma separated where each line has the format:
      score_type-(P|R|F),low_ci,mean,high_ci

    P/R/F indicates whether the score is a precision, recall or f-measure.

    Args:
      output_filename: Name of file to write results to.
      aggregates: A dict mapping each score_type to a AggregateScore object.
    """
    _log.info("Writing results to %s.", output_filename)
    with _open(output_filename, "w") as output_file:
        output_file.write("score_type,low,mid,high\n")
        for score_type, aggregate in sorted(aggregates.items()):
            low, mid, high = aggregate.low, aggregate.mid, aggregate.high
            output_file.write(f"{score_type}-R,{low.recall:f},{mid.recall:f},{high.recall:f}\n")
            output_file.write(
                f"{score_type}-P,{low.precision:f},{mid.precision:f},{high.precision:f}\n"
            )
            output_file.write(
                f"{score_type}-F,{low.fmeasure:f},{mid.fmeasure:f},{high.fmeasure:f}\n"
            )
    _log.info("Finished writing results.")


def _write_scores_to_csv(output_filename: str, scores: list[Any]) -> None:
    """Writes scores for each individual example to an output CSV file.

    Output file is a comma separated where each line has the format:
      id,score1,score2,score3,...

    The header row indicates the type of each score column.

    Args:
      output_filename: Name of file to write results to.
      scores: A list of dicts mapping each score_type to a Score object.
    """
    if len(scores) < 1:
        _log.warning("No scores to write")
        return
    rouge_types = sorted(scores[0].keys())

    _log.info("Writing results to %s.", output_filename)
    with _open(output_filename, "w") as out_file:
        out_file.write("id")
        for rouge_type in rouge_types:
            out_file.write(f",{rouge_type}-P,{rouge_type}-R,{rouge_type}-F")
        out_file.write("\n")
        for i, result in enumerate(scores):
            out_file.write(f"{i:d}")
            for rouge_type in rouge_types:
                score = result[rouge_type]
                out_file.write(f",{score.precision:f},{score.recall:f},{score.fmeasure:f}")
            out_file.write("\n")
    _log.info("Finished writing results.")
