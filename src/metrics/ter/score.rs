//! TER scores from statistics rows, with sacrebleu's float operations: the one home of
//! `TER._compute_score_from_stats` and of the per-segment average reference length.

use crate::error::{Error, Result};
use crate::resample::numpy_float::NumpyFloat;

use super::WIDTH;

/// sacrebleu's `TER._compute_score_from_stats` on summed `[edits, reference length]`, either
/// Python floats (the approximate randomization's float64 sums) or float32 (the bootstrap's).
/// Empty references score 100 with a non-empty hypothesis and 0 otherwise (sacrebleu #228).
pub fn score_from_sums(total_edits: NumpyFloat, sum_ref_lengths: NumpyFloat) -> NumpyFloat {
    let score = if sum_ref_lengths.value() > 0.0 {
        total_edits / sum_ref_lengths
    } else if total_edits.value() > 0.0 {
        NumpyFloat::Python(1.0) // empty references and a non-empty hypothesis
    } else {
        NumpyFloat::Python(0.0)
    };
    NumpyFloat::Python(100.0) * score
}

/// One row's `(edits, average reference length)`: sacrebleu's per-segment statistics. The
/// average is `ref_words / nrefs` (a row without references counts as one, as an empty
/// segment does), one correctly rounded float division as Python's `int / int`.
///
/// # Errors
/// [`crate::ErrorKind::Internal`] for a row that is not [`WIDTH`] long.
#[allow(clippy::cast_precision_loss)] // counts of words, far below 2**53
pub fn edits_and_length(row: &[i64]) -> Result<(i64, f64)> {
    match *row {
        [edits, ref_words, nrefs] => Ok((edits, ref_words as f64 / nrefs.max(1) as f64)),
        _ => Err(Error::internal(format!(
            "a TER statistics row has {WIDTH} columns, got {}",
            row.len()
        ))),
    }
}

/// A score with the sums behind it, as sacrebleu's `TERScore` reports them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TerScore {
    /// TER in percent.
    pub score: f64,
    /// The edits.
    pub edits: i64,
    /// The (summed) average reference length.
    pub ref_length: f64,
}

#[allow(clippy::cast_precision_loss)] // edit counts, far below 2**53
fn score(edits: i64, ref_length: f64) -> TerScore {
    let score = score_from_sums(
        NumpyFloat::Python(edits as f64),
        NumpyFloat::Python(ref_length),
    );
    TerScore {
        score: score.value(),
        edits,
        ref_length,
    }
}

/// Every row's score, each row scored as one segment.
///
/// # Errors
/// As [`edits_and_length`].
pub fn row_scores(rows: &[i64]) -> Result<Vec<TerScore>> {
    rows.chunks(WIDTH)
        .map(|row| edits_and_length(row).map(|(edits, length)| score(edits, length)))
        .collect()
}

/// Corpus TER of per-segment rows: the total edits over the average reference lengths added
/// left to right, as sacrebleu's `sum_of_lists` adds them.
///
/// # Errors
/// As [`edits_and_length`], or [`crate::ErrorKind::InvalidInput`] when the edits overflow.
pub fn corpus_score(rows: &[i64]) -> Result<TerScore> {
    let (mut edits, mut length) = (0i64, 0.0f64);
    for row in rows.chunks(WIDTH) {
        let (e, l) = edits_and_length(row)?;
        edits = edits
            .checked_add(e)
            .ok_or_else(|| Error::invalid_input("TER edit counts overflow int64"))?;
        length += l;
    }
    Ok(score(edits, length))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sacrebleu_scores() {
        // 'a b c' against 'a b c d e' and 'x': 2 edits over (5 + 1) / 2 = 3 words.
        let s = corpus_score(&[2, 6, 2]).unwrap();
        assert_eq!(
            (s.score, s.edits, s.ref_length),
            (100.0 * (2.0 / 3.0), 2, 3.0)
        );
        // Empty references: 100 with edits, 0 without.
        assert_eq!(corpus_score(&[2, 0, 1]).unwrap().score, 100.0);
        assert_eq!(corpus_score(&[0, 0, 1]).unwrap().score, 0.0);
        assert_eq!(corpus_score(&[]).unwrap().score, 0.0);
    }

    #[test]
    fn corpus_lengths_add_left_to_right() {
        let rows = [1, 1, 3, 1, 1, 3, 1, 1, 3, 0, 10, 1];
        let third = 1.0f64 / 3.0;
        let expected = ((third + third) + third) + 10.0;
        assert_eq!(corpus_score(&rows).unwrap().ref_length, expected);
        let each = row_scores(&rows).unwrap();
        assert_eq!(each.len(), 4);
        assert_eq!(each[0].score, 100.0 * (1.0 / third));
    }

    #[test]
    fn a_short_row_is_an_internal_error() {
        let err = corpus_score(&[1, 2]).unwrap_err();
        assert_eq!(err.kind(), crate::ErrorKind::Internal);
    }
}
