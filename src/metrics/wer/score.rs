//! WER, MER, WIL and WIP from statistics rows, with jiwer 4.0.0's formulas and float
//! operations: the one home of these measures.

use crate::error::{Error, Result};

use super::WIDTH;

/// What a row without reference words scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmptyReference {
    /// bleuprint's rule (sacrebleu's for TER): WER 1 with errors, else 0.
    Ratio,
    /// jiwer's: WER is the insertion count.
    Jiwer,
}

crate::enums::name_table!(EmptyReference, "empty_reference", {
    Ratio => "ratio",
    Jiwer => "jiwer",
});

/// The four measures as fractions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measures {
    /// Word (or character) error rate: `(S + D + I) / (H + S + D)`.
    pub wer: f64,
    /// Match error rate: `(S + D + I) / (H + S + D + I)`.
    pub mer: f64,
    /// Word information lost: `1 - WIP`.
    pub wil: f64,
    /// Word information preserved: `H / ref_words * H / hyp_words`.
    pub wip: f64,
}

/// The measures of one (summed) row `[S, D, I, H, ref_words, hyp_words]`. Without reference
/// words, WER follows `empty`, MER is 1 and WIP 0 if the hypotheses have words, else 0 and 1
/// (jiwer's values).
///
/// # Errors
/// [`crate::ErrorKind::Internal`] for a row that is not [`WIDTH`] long.
#[allow(clippy::cast_precision_loss)] // token counts, far below 2**53
pub fn measures(row: &[i64], empty: EmptyReference) -> Result<Measures> {
    let [s, d, i, h, ref_words, hyp_words] = *row else {
        return Err(Error::internal(format!(
            "a WER statistics row has {WIDTH} columns, got {}",
            row.len()
        )));
    };
    let errors = s + d + i;
    let (wer, mer, wip) = if ref_words == 0 {
        let wer = match empty {
            EmptyReference::Ratio => f64::from(u8::from(errors > 0)),
            EmptyReference::Jiwer => i as f64,
        };
        let (mer, wip) = if hyp_words > 0 {
            (1.0, 0.0)
        } else {
            (0.0, 1.0)
        };
        (wer, mer, wip)
    } else {
        // jiwer: float(S + D + I) / float(H + S + D), and (float(H) / ref) * (float(H) / hyp).
        let wer = errors as f64 / (h + s + d) as f64;
        let mer = errors as f64 / (h + s + d + i) as f64;
        let wip = if hyp_words >= 1 {
            (h as f64 / ref_words as f64) * (h as f64 / hyp_words as f64)
        } else {
            0.0
        };
        (wer, mer, wip)
    };
    Ok(Measures {
        wer,
        mer,
        wil: 1.0 - wip,
        wip,
    })
}

/// The measures of every row.
///
/// # Errors
/// As [`measures`].
pub fn row_measures(rows: &[i64], empty: EmptyReference) -> Result<Vec<Measures>> {
    rows.chunks(WIDTH).map(|row| measures(row, empty)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jiwer_formulas() {
        // S=1, D=1, I=1, H=2 over 4 reference and 4 hypothesis words.
        let m = measures(&[1, 1, 1, 2, 4, 4], EmptyReference::Ratio).unwrap();
        assert_eq!(m.wer, 3.0 / 4.0);
        assert_eq!(m.mer, 3.0 / 5.0);
        assert_eq!(m.wip, (2.0 / 4.0) * (2.0 / 4.0));
        assert_eq!(m.wil, 1.0 - m.wip);
    }

    #[test]
    fn empty_references() {
        let ratio = measures(&[0, 0, 3, 0, 0, 3], EmptyReference::Ratio).unwrap();
        assert_eq!((ratio.wer, ratio.mer, ratio.wip), (1.0, 1.0, 0.0));
        let jiwer = measures(&[0, 0, 3, 0, 0, 3], EmptyReference::Jiwer).unwrap();
        assert_eq!(jiwer.wer, 3.0);
        let nothing = measures(&[0; 6], EmptyReference::Ratio).unwrap();
        assert_eq!(
            (nothing.wer, nothing.mer, nothing.wil, nothing.wip),
            (0.0, 0.0, 0.0, 1.0)
        );
    }

    #[test]
    fn rows_and_errors() {
        let rows = [1, 0, 0, 1, 2, 2, 0, 0, 0, 2, 2, 2];
        let all = row_measures(&rows, EmptyReference::Ratio).unwrap();
        assert_eq!(all.iter().map(|m| m.wer).collect::<Vec<_>>(), [0.5, 0.0]);
        assert_eq!(
            measures(&[1, 2, 3], EmptyReference::Ratio)
                .unwrap_err()
                .kind(),
            crate::ErrorKind::Internal
        );
        assert!(EmptyReference::from_name("zero").is_err());
    }
}
