//! Which reference length a statistics row holds in its `ref_len` column. sacrebleu, nltk and
//! Moses take the closest length (ties to the shorter); other BLEU implementations differ.

/// The rule that turns a segment's reference lengths into the row's `ref_len`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RefLength {
    /// The length closest to the hypothesis length; ties go to the shorter one (sacrebleu
    /// `_get_closest_ref_len`, nltk `closest_ref_length`, Moses `multi-bleu.perl`).
    #[default]
    Closest,
    /// The closest length; ties go to the reference listed first (torchmetrics / torchtext:
    /// `target_len_list[diffs.index(min(diffs))]`). For reference streams, "first" is stream
    /// order among the streams that hold a reference for the segment.
    ClosestFirst,
    /// The shortest reference length (tensorflow/nmt, Hugging Face evaluate `bleu`).
    Shortest,
    /// The *sum* of the reference lengths. Rows are integers, so the caller divides the
    /// column by the number of references to get the average length (mteval-style average).
    Average,
}

crate::enums::name_table!(RefLength, "ref_length", {
    Closest => "closest",
    ClosestFirst => "closest-first",
    Shortest => "shortest",
    Average => "average",
});

impl RefLength {
    /// The `ref_len` column for a hypothesis of `hyp_len` tokens whose references have
    /// `ref_lens` tokens, in reference order; 0 when there are none.
    pub fn pick(self, hyp_len: usize, ref_lens: &[usize]) -> usize {
        match self {
            Self::Closest => ref_lens.iter().fold(None, |best, &len| match best {
                None => Some(len),
                Some(b) => {
                    let (d, db) = (hyp_len.abs_diff(len), hyp_len.abs_diff(b));
                    Some(if d < db || (d == db && len < b) {
                        len
                    } else {
                        b
                    })
                }
            }),
            // `min_by_key` keeps the first of equal minima.
            Self::ClosestFirst => ref_lens
                .iter()
                .copied()
                .min_by_key(|&len| hyp_len.abs_diff(len)),
            Self::Shortest => ref_lens.iter().copied().min(),
            Self::Average => Some(ref_lens.iter().sum()),
        }
        .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in RefLength::NAMES {
            assert_eq!(RefLength::from_name(name).unwrap().name(), name);
        }
        assert_eq!(RefLength::default(), RefLength::Closest);
        let err = RefLength::from_name("longest").unwrap_err();
        assert!(
            err.message()
                .contains("expected one of closest, closest-first, shortest, average"),
            "{err}"
        );
    }

    #[test]
    fn closest_prefers_the_shorter_on_ties() {
        let pick = |hyp, refs: &[usize]| RefLength::Closest.pick(hyp, refs);
        assert_eq!(pick(12, &[13, 11]), 11);
        assert_eq!(pick(12, &[11, 13]), 11);
        assert_eq!(pick(5, &[4, 6]), 4);
        assert_eq!(pick(5, &[7, 6, 3]), 6);
        assert_eq!(pick(0, &[0, 3]), 0);
    }

    #[test]
    fn closest_first_prefers_the_first_listed_on_ties() {
        let pick = |hyp, refs: &[usize]| RefLength::ClosestFirst.pick(hyp, refs);
        assert_eq!(pick(12, &[13, 11]), 13);
        assert_eq!(pick(12, &[11, 13]), 11);
        assert_eq!(pick(5, &[7, 6, 3]), 6);
        assert_eq!(pick(5, &[9, 6, 4]), 6);
    }

    #[test]
    fn shortest_and_average() {
        assert_eq!(RefLength::Shortest.pick(12, &[13, 11, 20]), 11);
        assert_eq!(RefLength::Shortest.pick(0, &[7]), 7);
        assert_eq!(RefLength::Average.pick(12, &[13, 11, 20]), 44);
        assert_eq!(RefLength::Average.pick(12, &[5]), 5);
    }

    #[test]
    fn no_references_give_zero() {
        for name in RefLength::NAMES {
            assert_eq!(RefLength::from_name(name).unwrap().pick(3, &[]), 0);
        }
    }
}
