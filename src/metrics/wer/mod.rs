//! Word and character error rates (WER, CER) and jiwer's MER, WIL and WIP.
//!
//! Every segment becomes one integer row `[substitutions, deletions, insertions, hits,
//! ref_words, hyp_words]` from the alignment RapidFuzz would choose ([`levenshtein`]) between
//! the reference (first sequence) and the hypothesis (second), the way jiwer 4.0.0 calls
//! `rapidfuzz.distance.Levenshtein.opcodes(reference, hypothesis)`. Tokens are split as
//! jiwer's default transforms split them ([`crate::tokenize::jiwer`]). Corpus measures are ratios of the
//! summed columns ([`score`]).
//!
//! With several references, a segment is scored against the one needing the fewest edits
//! (substitutions + deletions + insertions); the first such reference wins ties.
//!
//! ```
//! use bleuprint::metrics::wer::{stream_stats, Split, Unit, WerStats};
//!
//! let split = Split { unit: Unit::Word, raw: false };
//! let rows = stream_stats(&["b a"], &[vec![Some("a b")]], WerStats::from(split), 1)?;
//! // One insertion, one hit, one deletion: RapidFuzz's choice among the optimal alignments.
//! assert_eq!(rows, [0, 1, 1, 1, 2, 2]);
//! # Ok::<(), bleuprint::Error>(())
//! ```

pub mod compound_pairs;
pub mod kaldi;
pub mod levenshtein;
pub mod score;

use rustc_hash::FxHashMap;

use crate::error::{row_item, to_i64};
use crate::error::{Error, Result};
use crate::parallel;
use crate::statistics::{self, no_references, Pairs, SegmentScorer, StatsMetric, Streams};

pub use crate::statistics::stream_stats;
use crate::tokenize::jiwer;
pub use crate::tokenize::jiwer::{Split, Unit};
pub use kaldi::KaldiAlign;
pub use levenshtein::{Aligner, EditCounts, EditOp, OpTag, Opcode};
pub use score::{measures, row_measures, EmptyReference, Measures};

/// Columns of a statistics row.
pub const WIDTH: usize = 6;

/// Names of the statistics columns, in order.
pub const COLUMNS: [&str; WIDTH] = [
    "substitutions",
    "deletions",
    "insertions",
    "hits",
    "ref_words",
    "hyp_words",
];

/// Characters below this code point are their own id; others are numbered from here.
const ASCII_IDS: u32 = 128;

/// Which rules pick one alignment among the cheapest, and so split the errors into
/// substitutions, deletions and insertions: RapidFuzz's (jiwer's) or kaldialign's
/// ([`kaldi`], with its costs and compounds).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum EditRules {
    /// RapidFuzz's `Levenshtein.opcodes`, as jiwer 4.0.0 calls it.
    #[default]
    RapidFuzz,
    /// kaldialign 0.12.0's `edit_distance` and `align`.
    Kaldi(KaldiAlign),
}

impl EditRules {
    /// Checks the rules against the unit.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for `merge_compounds` with characters.
    pub fn check(self, unit: Unit) -> Result<()> {
        match self {
            Self::Kaldi(k) if k.merge_compounds && unit == Unit::Char => {
                Err(Error::invalid_option(
                    "merge_compounds joins adjacent words; CER compares characters, where there \
                     is nothing to join: use it with WER (unit=\"word\"), or drop it",
                ))
            }
            Self::Kaldi(k) if k.compound_pairs && unit == Unit::Char => Err(Error::invalid_option(
                "compound_pairs joins words; CER compares characters, where there is \
                     nothing to join: use it with WER (unit=\"word\"), or drop it",
            )),
            _ => Ok(()),
        }
    }

    /// Whether alignment reads the words themselves, not only their ids.
    fn reads_words(self) -> bool {
        matches!(self, Self::Kaldi(k) if k.merge_compounds || k.compound_pairs)
    }
}

/// WER statistics of text: how it splits into tokens, and the rules that align them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WerStats {
    /// Words or characters, jiwer's transforms.
    pub split: Split,
    /// Whose alignment.
    pub rules: EditRules,
}

impl From<Split> for WerStats {
    fn from(split: Split) -> Self {
        Self {
            split,
            rules: EditRules::RapidFuzz,
        }
    }
}

/// Per-thread buffers, reused across segments.
struct Scratch<'a> {
    rules: EditRules,
    /// The words of `ref_ids` and `hyp_ids`, kept only to merge compounds.
    ref_words: Vec<&'a [u8]>,
    hyp_words: Vec<&'a [u8]>,
    aligner: Aligner,
    tokens: Vec<&'a str>,
    words: FxHashMap<&'a [u8], u32>,
    chars: FxHashMap<char, u32>,
    next_id: u32,
    hyp_ids: Vec<u32>,
    ref_ids: Vec<u32>,
    editops: Vec<EditOp>,
}

impl<'a> Scratch<'a> {
    fn new(rules: EditRules) -> Self {
        Self {
            rules,
            ref_words: Vec::new(),
            hyp_words: Vec::new(),
            aligner: Aligner::new(),
            tokens: Vec::new(),
            words: FxHashMap::default(),
            chars: FxHashMap::default(),
            next_id: 0,
            hyp_ids: Vec::new(),
            ref_ids: Vec::new(),
            editops: Vec::new(),
        }
    }

    /// Forgets the ids of the previous segment.
    fn begin_segment(&mut self, unit: Unit) {
        self.words.clear();
        self.chars.clear();
        self.next_id = match unit {
            Unit::Word => 0,
            Unit::Char => ASCII_IDS,
        };
    }

    fn alphabet(&self) -> usize {
        self.next_id as usize
    }

    fn word_id(&mut self, token: &'a [u8]) -> u32 {
        let next = self.next_id;
        let id = *self.words.entry(token).or_insert(next);
        if id == next {
            self.next_id += 1;
        }
        id
    }

    /// The ids of the tokens of `text` into `out` (ids are shared within a segment), and
    /// where compounds are merged, its words into `words`.
    fn encode_text(
        &mut self,
        text: &'a str,
        split: Split,
        out: &mut Vec<u32>,
        words: &mut Vec<&'a [u8]>,
    ) {
        out.clear();
        words.clear();
        match split.unit {
            Unit::Word => {
                let mut tokens = std::mem::take(&mut self.tokens);
                tokens.clear();
                jiwer::tokens(text, split, &mut tokens);
                for token in &tokens {
                    let id = self.word_id(token.as_bytes());
                    out.push(id);
                }
                if self.rules.reads_words() {
                    words.extend(tokens.iter().map(|t| t.as_bytes()));
                }
                self.tokens = tokens;
            }
            Unit::Char => {
                for c in jiwer::char_text(text, split.raw).chars() {
                    let code = u32::from(c);
                    let id = if code < ASCII_IDS {
                        code
                    } else {
                        let next = self.next_id;
                        let id = *self.chars.entry(c).or_insert(next);
                        if id == next {
                            self.next_id += 1;
                        }
                        id
                    };
                    out.push(id);
                }
            }
        }
    }

    fn encode_tokens(&mut self, tokens: &[&'a [u8]], out: &mut Vec<u32>) {
        out.clear();
        for token in tokens {
            let id = self.word_id(token);
            out.push(id);
        }
    }

    /// Starts a segment of already-split tokens: `ref_ids` and `hyp_ids` get their ids.
    fn encode_token_pair(&mut self, reference: &[&'a [u8]], hypothesis: &[&'a [u8]]) {
        self.begin_segment(Unit::Word);
        if self.rules.reads_words() {
            self.ref_words.clear();
            self.ref_words.extend_from_slice(reference);
            self.hyp_words.clear();
            self.hyp_words.extend_from_slice(hypothesis);
        }
        let mut ids = std::mem::take(&mut self.ref_ids);
        self.encode_tokens(reference, &mut ids);
        self.ref_ids = ids;
        let mut ids = std::mem::take(&mut self.hyp_ids);
        self.encode_tokens(hypothesis, &mut ids);
        self.hyp_ids = ids;
    }

    /// Encodes the hypothesis of a text segment into `hyp_ids` (and `hyp_words`).
    fn encode_hypothesis(&mut self, hypothesis: &'a str, split: Split) {
        let (mut ids, mut words) = (
            std::mem::take(&mut self.hyp_ids),
            std::mem::take(&mut self.hyp_words),
        );
        self.encode_text(hypothesis, split, &mut ids, &mut words);
        (self.hyp_ids, self.hyp_words) = (ids, words);
    }

    /// The counts of aligning the current `ref_ids` to `hyp_ids`, and the lengths of the two
    /// sides as aligned (the leaderboard's compound pairs join words).
    fn counts(&mut self) -> (EditCounts, usize, usize) {
        if let EditRules::Kaldi(k) = self.rules {
            if k.compound_pairs {
                let (r, h) = compound_pairs::join_compound_pairs(
                    &self.ref_words,
                    &self.hyp_words,
                    &self.ref_ids,
                    &self.hyp_ids,
                );
                let r: Vec<&[u8]> = r.iter().map(|w| w.as_ref()).collect();
                let h: Vec<&[u8]> = h.iter().map(|w| w.as_ref()).collect();
                // The words decide: joined words have no ids.
                let counts = kaldi::counts(&r, &h, k);
                return (counts, r.len(), h.len());
            }
        }
        let counts = self.id_counts();
        (counts, self.ref_ids.len(), self.hyp_ids.len())
    }

    fn id_counts(&mut self) -> EditCounts {
        match self.rules {
            EditRules::RapidFuzz => {
                let alphabet = Some(self.alphabet());
                self.aligner.counts(&self.ref_ids, &self.hyp_ids, alphabet)
            }
            EditRules::Kaldi(k) if k.merge_compounds => {
                kaldi::counts(&self.ref_words, &self.hyp_words, k)
            }
            EditRules::Kaldi(k) => kaldi::counts_of_ids(&self.ref_ids, &self.hyp_ids, k),
        }
    }

    /// The opcodes of aligning the current `ref_ids` to `hyp_ids`.
    fn opcodes(&mut self) -> Result<Vec<Opcode>> {
        if let EditRules::Kaldi(k) = self.rules {
            if k.compound_pairs {
                return Err(Error::invalid_option(
                    "alignments are drawn between the words as written, and compound_pairs \
                     scores words it has joined: align without compound_pairs (the joined \
                     regions show as the substitutions, insertions or deletions they were)",
                ));
            }
            let steps = if k.merge_compounds {
                kaldi::alignment(&self.ref_words, &self.hyp_words, k)
            } else {
                kaldi::alignment_of_ids(&self.ref_ids, &self.hyp_ids, k)
            };
            return Ok(steps_to_opcodes(&steps, &self.ref_ids, &self.hyp_ids));
        }
        let alphabet = Some(self.alphabet());
        let mut editops = std::mem::take(&mut self.editops);
        editops.clear();
        self.aligner
            .editops_into(&self.ref_ids, &self.hyp_ids, alphabet, &mut editops);
        let mut out = Vec::new();
        levenshtein::opcodes_from_editops(
            &editops,
            self.ref_ids.len(),
            self.hyp_ids.len(),
            &mut out,
        );
        self.editops = editops;
        Ok(out)
    }

    /// Scores the hypothesis (already in `hyp_ids`) against each reference; returns the row
    /// of the best one and its position among `refs`, or `None` when there is no reference.
    fn best_reference(&mut self, refs: &[&'a str], split: Split) -> Option<([i64; WIDTH], usize)> {
        let mut best: Option<([i64; WIDTH], usize, usize)> = None;
        for (k, reference) in refs.iter().enumerate() {
            let (mut ids, mut words) = (
                std::mem::take(&mut self.ref_ids),
                std::mem::take(&mut self.ref_words),
            );
            self.encode_text(reference, split, &mut ids, &mut words);
            (self.ref_ids, self.ref_words) = (ids, words);
            let (counts, ref_len, hyp_len) = self.counts();
            let errors = counts.total();
            let better = match &best {
                None => true,
                Some(b) => errors < b.2,
            };
            if better {
                best = Some((counts_row(&counts, ref_len, hyp_len), k, errors));
            }
        }
        best.map(|(row, k, _)| (row, k))
    }
}

/// kaldialign's steps as opcodes: runs of one-to-one matches, substitutions, deletions and
/// insertions, as RapidFuzz's are; a merged compound (several words against one) is an `equal`
/// opcode of its own, its two spans of different lengths.
fn steps_to_opcodes(
    steps: &[(std::ops::Range<usize>, std::ops::Range<usize>)],
    ref_ids: &[u32],
    hyp_ids: &[u32],
) -> Vec<Opcode> {
    let mut out: Vec<Opcode> = Vec::new();
    for (r, h) in steps {
        let (tag, single) = match (r.len(), h.len()) {
            (0, _) => (OpTag::Insert, true),
            (_, 0) => (OpTag::Delete, true),
            (1, 1) if ref_ids.get(r.start) == hyp_ids.get(h.start) => (OpTag::Equal, true),
            (1, 1) => (OpTag::Replace, true),
            _ => (OpTag::Equal, false), // a compound
        };
        if let Some(last) = out.last_mut() {
            // A compound run (an `equal` of unequal spans) stays alone.
            let compound = last.src_end - last.src_start != last.dest_end - last.dest_start;
            if single && last.tag == tag && !(tag == OpTag::Equal && compound) {
                last.src_end = r.end;
                last.dest_end = h.end;
                continue;
            }
        }
        out.push(Opcode {
            tag,
            src_start: r.start,
            src_end: r.end,
            dest_start: h.start,
            dest_end: h.end,
        });
    }
    out
}

/// The statistics row of one alignment.
fn counts_row(counts: &EditCounts, ref_len: usize, hyp_len: usize) -> [i64; WIDTH] {
    let hits = ref_len.saturating_sub(counts.replace + counts.delete);
    [
        to_i64(counts.replace),
        to_i64(counts.delete),
        to_i64(counts.insert),
        to_i64(hits),
        to_i64(ref_len),
        to_i64(hyp_len),
    ]
}

/// A text segment's state: its references, aligned one by one to each hypothesis.
pub struct WerScorer<'a> {
    scratch: Scratch<'a>,
    split: Split,
    references: Vec<&'a str>,
}

impl<'a> SegmentScorer<'a, str> for WerScorer<'a> {
    fn prepare<I: Iterator<Item = &'a str>>(&mut self, references: I) -> Result<()> {
        self.references.clear();
        self.references.extend(references);
        Ok(())
    }

    /// The row of the reference needing the fewest edits. Ids are given in the order jiwer's
    /// caller sees the texts: the hypothesis, then each reference.
    fn score(&mut self, hypothesis: &'a str, row: &mut [i64]) -> Result<()> {
        let scratch = &mut self.scratch;
        scratch.begin_segment(self.split.unit);
        scratch.encode_hypothesis(hypothesis, self.split);
        if let Some((best, _)) = scratch.best_reference(&self.references, self.split) {
            row.copy_from_slice(&best);
        }
        Ok(())
    }
}

/// WER statistics of text split by `Split` (words or characters, jiwer's transforms), aligned
/// by `rules`.
impl<'a> StatsMetric<'a, str> for WerStats {
    type Scorer = WerScorer<'a>;
    const SHARES_PREPARED_REFERENCES: bool = false;

    fn width(&self) -> usize {
        WIDTH
    }

    fn scorer(&self) -> WerScorer<'a> {
        WerScorer {
            scratch: Scratch::new(self.rules),
            split: self.split,
            references: Vec::new(),
        }
    }

    fn validate(&self) -> Result<()> {
        self.rules.check(self.split.unit)
    }
}

/// The `Pairs` layout gives every segment exactly one reference.
fn one_reference() -> Error {
    Error::internal("a token segment has exactly one reference")
}

/// WER statistics of already-split tokens (compared as bytes), one reference per hypothesis,
/// aligned by the rules it holds.
#[derive(Debug, Clone, Copy, Default)]
pub struct PreSplit(pub EditRules);

/// A token segment's state: its one reference.
pub struct WerTokenScorer<'a> {
    scratch: Scratch<'a>,
    reference: &'a [&'a [u8]],
}

impl<'a> SegmentScorer<'a, [&'a [u8]]> for WerTokenScorer<'a> {
    fn prepare<I: Iterator<Item = &'a [&'a [u8]]>>(&mut self, mut references: I) -> Result<()> {
        self.reference = references.next().ok_or_else(one_reference)?;
        Ok(())
    }

    fn score(&mut self, hypothesis: &'a [&'a [u8]], row: &mut [i64]) -> Result<()> {
        let reference = self.reference;
        self.scratch.encode_token_pair(reference, hypothesis);
        let (counts, ref_len, hyp_len) = self.scratch.counts();
        row.copy_from_slice(&counts_row(&counts, ref_len, hyp_len));
        Ok(())
    }
}

impl<'a> StatsMetric<'a, [&'a [u8]]> for PreSplit {
    type Scorer = WerTokenScorer<'a>;

    fn width(&self) -> usize {
        WIDTH
    }

    fn scorer(&self) -> WerTokenScorer<'a> {
        WerTokenScorer {
            scratch: Scratch::new(self.0),
            reference: &[],
        }
    }
}

/// The alignment of one segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SegmentAlignment {
    /// The statistics row.
    pub row: [i64; WIDTH],
    /// Which reference stream was aligned (the best one).
    pub stream: usize,
    /// RapidFuzz's opcodes from the reference to the hypothesis.
    pub opcodes: Vec<Opcode>,
}

/// Like [`stream_stats`], with the opcodes of every segment's best reference.
///
/// # Errors
/// As [`stream_stats`].
pub fn stream_alignments(
    hyps: &[&str],
    streams: &[Vec<Option<&str>>],
    stats: WerStats,
    workers: i64,
) -> Result<Vec<SegmentAlignment>> {
    stats.validate()?;
    let WerStats { split, rules } = stats;
    let layout = Streams::new(hyps, streams);
    statistics::map_segments(
        &layout,
        true,
        workers,
        || (Scratch::new(rules), Vec::new()),
        |(scratch, refs), i, hyp, references| {
            refs.clear();
            refs.extend(references);
            scratch.begin_segment(split.unit);
            scratch.encode_hypothesis(hyp, split);
            let (best, k) = scratch
                .best_reference(refs, split)
                .ok_or_else(|| no_references(i))?;
            let reference = *row_item(refs, k, "best reference")?;
            let (mut ids, mut words) = (
                std::mem::take(&mut scratch.ref_ids),
                std::mem::take(&mut scratch.ref_words),
            );
            scratch.encode_text(reference, split, &mut ids, &mut words);
            (scratch.ref_ids, scratch.ref_words) = (ids, words);
            // The k-th reference present at segment i is in that stream.
            let stream = streams
                .iter()
                .enumerate()
                .filter(|(_, s)| matches!(s.get(i), Some(Some(_))))
                .nth(k)
                .map(|(stream, _)| stream)
                .ok_or_else(|| Error::internal(format!("segment {i} has no reference {k}")))?;
            Ok(SegmentAlignment {
                row: best,
                stream,
                opcodes: scratch.opcodes()?,
            })
        },
    )
}

/// Statistics rows for already-split tokens, one reference per hypothesis.
///
/// # Errors
/// [`crate::ErrorKind::InvalidInput`] when the two lists differ in length.
pub fn token_stats<'a>(
    hyps: &'a [Vec<&'a [u8]>],
    refs: &'a [Vec<&'a [u8]>],
    rules: EditRules,
    workers: i64,
) -> Result<Vec<i64>> {
    statistics::rows(&Pairs::new(hyps, refs), &PreSplit(rules), workers)
}

/// Like [`token_stats`], with every segment's opcodes.
///
/// # Errors
/// As [`token_stats`].
pub fn token_alignments<'a>(
    hyps: &'a [Vec<&'a [u8]>],
    refs: &'a [Vec<&'a [u8]>],
    rules: EditRules,
    workers: i64,
) -> Result<Vec<SegmentAlignment>> {
    statistics::map_segments(
        &Pairs::new(hyps, refs),
        true,
        workers,
        || Scratch::new(rules),
        |scratch, _, hyp, references| {
            let reference = references.next().ok_or_else(one_reference)?;
            scratch.encode_token_pair(reference, hyp);
            let opcodes = scratch.opcodes()?;
            let mut counts = EditCounts::default();
            for op in &opcodes {
                match op.tag {
                    OpTag::Replace => counts.replace += op.src_end - op.src_start,
                    OpTag::Delete => counts.delete += op.src_end - op.src_start,
                    OpTag::Insert => counts.insert += op.dest_end - op.dest_start,
                    OpTag::Equal => {}
                }
            }
            Ok(SegmentAlignment {
                row: counts_row(&counts, reference.len(), hyp.len()),
                stream: 0,
                opcodes,
            })
        },
    )
}

/// The tokens of every line under `split` (characters as one-character slices).
///
/// # Errors
/// [`crate::ErrorKind::InvalidOption`] for a bad `workers` value.
pub fn split_lines<'a>(lines: &[&'a str], split: Split, workers: i64) -> Result<Vec<Vec<&'a str>>> {
    parallel::map_init(
        lines,
        workers,
        || (),
        |(), line| {
            let mut out = Vec::new();
            jiwer::tokens(line, split, &mut out);
            out
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const WORDS: Split = Split {
        unit: Unit::Word,
        raw: false,
    };
    const CHARS: Split = Split {
        unit: Unit::Char,
        raw: false,
    };

    fn sum(rows: &[i64]) -> [i64; WIDTH] {
        let mut total = [0; WIDTH];
        for r in rows.chunks(WIDTH) {
            for (t, v) in total.iter_mut().zip(r) {
                *t += v;
            }
        }
        total
    }

    #[test]
    fn jiwer_documentation_vectors() {
        // process_words doc example: H=5 S=2 D=2 I=4.
        let hyps = [
            "shoe order one",
            "quite bit of an even longest sentence here",
        ];
        let refs = vec![vec![
            Some("short one here"),
            Some("quite a bit of longer sentence"),
        ]];
        let rows = stream_stats(&hyps, &refs, WerStats::from(WORDS), 1).unwrap();
        assert_eq!(sum(&rows), [2, 2, 4, 5, 9, 11]);
        // cer(["i can spell", "i hope"], ["i kan cpell", "i hop"]): H 14, S 2, D 1, I 0.
        let rows = stream_stats(
            &["i kan cpell", "i hop"],
            &[vec![Some("i can spell"), Some("i hope")]],
            WerStats::from(CHARS),
            1,
        )
        .unwrap();
        assert_eq!(sum(&rows), [2, 1, 0, 14, 17, 16]);
        // wer("a", "a b c d") = 3 insertions.
        let rows =
            stream_stats(&["a b c d"], &[vec![Some("a")]], WerStats::from(WORDS), 1).unwrap();
        assert_eq!(rows, [0, 0, 3, 1, 1, 4]);
        // A single tab does not separate words.
        let rows = stream_stats(
            &["a\tb c"],
            &[vec![Some("a b c")]],
            WerStats::from(WORDS),
            1,
        )
        .unwrap();
        assert_eq!(rows, [1, 1, 0, 1, 3, 2]);
    }

    #[test]
    fn best_reference_has_fewest_edits_and_first_wins_ties() {
        let hyps = ["a b c", "x y"];
        let streams = vec![
            vec![Some("a b d"), Some("x z")],
            vec![Some("a b c"), None],
            vec![Some("a b c"), Some("x w")],
        ];
        let aligned = stream_alignments(&hyps, &streams, WerStats::from(WORDS), 1).unwrap();
        assert_eq!(aligned[0].stream, 1);
        assert_eq!(aligned[0].row, [0, 0, 0, 3, 3, 3]);
        assert_eq!(aligned[1].stream, 0);
        let rows = stream_stats(&hyps, &streams, WerStats::from(WORDS), 1).unwrap();
        assert_eq!(&rows[..WIDTH], &aligned[0].row);
        assert_eq!(&rows[WIDTH..], &aligned[1].row);
    }

    #[test]
    fn errors_name_the_problem() {
        let err = stream_stats(
            &["a"],
            &[vec![Some("a"), Some("b")]],
            WerStats::from(WORDS),
            1,
        )
        .unwrap_err();
        assert!(err
            .message()
            .contains("stream 0 has 2 segments but there are 1"));
        let err = stream_stats(
            &["a", "b"],
            &[vec![Some("a"), None]],
            WerStats::from(WORDS),
            1,
        )
        .unwrap_err();
        assert!(err.message().contains("segment 1 has no references"));
        assert!(stream_stats(&["a"], &[], WerStats::from(WORDS), 1).is_err());
        assert!(token_stats(&[vec![]], &[], EditRules::RapidFuzz, 1).is_err());
    }

    #[test]
    fn tokens_match_text() {
        let hyps = ["the cat sat", "", "a b a b"];
        let refs = ["the cat is here", "x", "b a b a"];
        let rows = stream_stats(
            &hyps,
            &[refs.iter().map(|r| Some(*r)).collect()],
            WerStats::from(WORDS),
            1,
        )
        .unwrap();
        let split = |s: &[&'static str]| -> Vec<Vec<&'static [u8]>> {
            s.iter()
                .map(|l| {
                    l.split(' ')
                        .filter(|w| !w.is_empty())
                        .map(str::as_bytes)
                        .collect()
                })
                .collect()
        };
        let token_rows =
            token_stats(&split(&hyps), &split(&refs), EditRules::RapidFuzz, 1).unwrap();
        assert_eq!(rows, token_rows);
        let aligned =
            token_alignments(&split(&hyps), &split(&refs), EditRules::RapidFuzz, 1).unwrap();
        let from_alignments: Vec<i64> = aligned.iter().flat_map(|a| a.row).collect();
        assert_eq!(rows, from_alignments);
    }

    #[test]
    fn same_rows_for_every_worker_count() {
        let hyps: Vec<String> = (0..500)
            .map(|i| format!("w{} x y{} z", i % 7, i % 3))
            .collect();
        let refs: Vec<String> = (0..500)
            .map(|i| format!("x w{} z y{}", i % 5, i % 2))
            .collect();
        let hyps: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let streams = vec![refs.iter().map(|r| Some(r.as_str())).collect::<Vec<_>>()];
        let serial = stream_stats(&hyps, &streams, WerStats::from(CHARS), 1).unwrap();
        assert_eq!(
            stream_stats(&hyps, &streams, WerStats::from(CHARS), 3).unwrap(),
            serial
        );
    }

    #[test]
    fn split_lines_keeps_order() {
        let out = split_lines(&["a  b", " c\td "], WORDS, 1).unwrap();
        assert_eq!(out, vec![vec!["a", "b"], vec!["c\td"]]);
    }
}
