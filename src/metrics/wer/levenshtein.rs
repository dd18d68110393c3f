//! Uniform Levenshtein distance and edit operations, choosing exactly the alignment that
//! RapidFuzz 3.14.6 (`rapidfuzz.distance.Levenshtein.editops` / `opcodes`, rapidfuzz-cpp's
//! `levenshtein_editops`) chooses.
//!
//! jiwer's MER, WIL and WIP depend on that choice: among the alignments of minimal cost, the
//! split into hits, substitutions, deletions and insertions differs (`a b` → `b a` is one
//! insertion, one hit and one deletion in RapidFuzz, not two substitutions). This module is a
//! port of rapidfuzz-cpp's code path, bit for bit:
//!
//! 1. the common prefix and suffix are removed (they are matches);
//! 2. small problems get the whole bit-parallel matrix of Hyyrö's algorithm (one 64-bit word
//!    per row when the first sequence has at most 64 elements, Ukkonen-banded blocks
//!    otherwise, or a diagonal band of one word when the distance is small), and the alignment
//!    is read back from the bottom-right corner preferring a deletion, then an insertion, then
//!    the diagonal;
//! 3. problems whose matrix would exceed 1 MiB are split with Hirschberg's algorithm on the
//!    middle row of the second sequence, and each half is solved the same way.
//!
//! Only equality of symbols matters, so the symbols are `u32` ids (words or characters mapped
//! to ids by the caller). Internally ids are remapped to a dense alphabet.

use rustc_hash::FxHashMap;

const WORD_SIZE: usize = 64;

/// Counts of the code paths taken, so tests can show that each one is exercised.
#[cfg(test)]
mod paths {
    use std::sync::atomic::AtomicUsize;
    pub static SINGLE_WORD: AtomicUsize = AtomicUsize::new(0);
    pub static SMALL_BAND: AtomicUsize = AtomicUsize::new(0);
    pub static BLOCK: AtomicUsize = AtomicUsize::new(0);
    pub static HIRSCHBERG: AtomicUsize = AtomicUsize::new(0);
}

macro_rules! took {
    ($path:ident) => {
        #[cfg(test)]
        paths::$path.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    };
}

/// The kind of one edit operation (RapidFuzz's `replace`, `insert`, `delete`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EditKind {
    /// `s1[src_pos]` becomes `s2[dest_pos]`.
    Replace,
    /// `s2[dest_pos]` is inserted before `s1[src_pos]`.
    Insert,
    /// `s1[src_pos]` is deleted.
    Delete,
}

/// One edit operation, as in RapidFuzz's `Editop`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EditOp {
    /// What happens.
    pub kind: EditKind,
    /// Position in the first sequence.
    pub src_pos: usize,
    /// Position in the second sequence.
    pub dest_pos: usize,
}

/// The tag of one opcode (RapidFuzz's `equal`, `replace`, `insert`, `delete`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OpTag {
    /// `s1[src_start..src_end] == s2[dest_start..dest_end]`.
    Equal,
    /// `s1[src_start..src_end]` is replaced by `s2[dest_start..dest_end]` (same length).
    Replace,
    /// `s2[dest_start..dest_end]` is inserted.
    Insert,
    /// `s1[src_start..src_end]` is deleted.
    Delete,
}

/// One opcode: a run of operations of the same kind, as in RapidFuzz's `Opcode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Opcode {
    /// What happens over the run.
    pub tag: OpTag,
    /// Start in the first sequence.
    pub src_start: usize,
    /// End (exclusive) in the first sequence.
    pub src_end: usize,
    /// Start in the second sequence.
    pub dest_start: usize,
    /// End (exclusive) in the second sequence.
    pub dest_end: usize,
}

/// Where the edit operations go. RapidFuzz sizes its editops array once, to the distance,
/// then fills it out of order (`index` is the operation's final position).
pub trait EditSink {
    /// Called with the total distance before the first `put`; RapidFuzz only sizes an empty
    /// array, so later calls are ignored by sinks that keep the operations.
    fn size_to(&mut self, n: usize);
    /// Records the operation at position `index` of the final list.
    fn put(&mut self, index: usize, op: EditOp);
}

impl EditSink for Vec<EditOp> {
    fn size_to(&mut self, n: usize) {
        if self.is_empty() {
            self.resize(
                n,
                EditOp {
                    kind: EditKind::Replace,
                    src_pos: 0,
                    dest_pos: 0,
                },
            );
        }
    }

    fn put(&mut self, index: usize, op: EditOp) {
        if let Some(slot) = self.get_mut(index) {
            *slot = op;
        }
    }
}

/// Counts of each operation kind, for callers that need no positions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EditCounts {
    /// Replacements (substitutions).
    pub replace: usize,
    /// Insertions.
    pub insert: usize,
    /// Deletions.
    pub delete: usize,
}

impl EditCounts {
    /// The distance: every operation costs one.
    pub fn total(&self) -> usize {
        self.replace + self.insert + self.delete
    }
}

impl EditSink for EditCounts {
    fn size_to(&mut self, _n: usize) {}

    fn put(&mut self, _index: usize, op: EditOp) {
        match op.kind {
            EditKind::Replace => self.replace += 1,
            EditKind::Insert => self.insert += 1,
            EditKind::Delete => self.delete += 1,
        }
    }
}

/// Reusable buffers for aligning many pairs (one per thread).
#[derive(Debug, Default)]
pub struct Aligner {
    /// Per-symbol match masks for the single-word case, indexed by dense id.
    pm: Vec<u64>,
    vp: Vec<u64>,
    vn: Vec<u64>,
    remap: FxHashMap<u32, u32>,
    remapped1: Vec<u32>,
    remapped2: Vec<u32>,
}

impl Aligner {
    /// Fresh buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Writes RapidFuzz's editops for turning `s1` into `s2` into `sink`. `alphabet` bounds
    /// the ids (every id is `< alphabet`); pass `None` when unknown.
    pub fn editops_into<S: EditSink>(
        &mut self,
        s1: &[u32],
        s2: &[u32],
        alphabet: Option<usize>,
        sink: &mut S,
    ) {
        // Every table lookup below relies on this: an id at or above `alphabet` would find no
        // bits, a wrong distance.
        debug_assert!(
            alphabet.is_none_or(|a| s1.iter().chain(s2).all(|&c| (c as usize) < a)),
            "editops_into: an id is not below the alphabet the caller gave"
        );
        // No alphabet given: one past the largest id (0 for two empty sequences).
        let bound = alphabet.unwrap_or_else(|| {
            s1.iter()
                .chain(s2)
                .max()
                .map_or(0, |&m| (m as usize).saturating_add(1))
        });
        if bound > 4 * (s1.len() + s2.len()) + 256 {
            // Sparse ids: renumber densely (only equality matters) so tables stay small.
            let mut remap = std::mem::take(&mut self.remap);
            let mut r1 = std::mem::take(&mut self.remapped1);
            let mut r2 = std::mem::take(&mut self.remapped2);
            remap.clear();
            r1.clear();
            r2.clear();
            for (src, dst) in [(s1, &mut r1), (s2, &mut r2)] {
                for &c in src {
                    // Never saturates where it is used: `remap.len()` reaches 2^32 only once
                    // every `u32` is mapped, and then `c` already is, so `next` goes unused.
                    let next = u32::try_from(remap.len()).unwrap_or(u32::MAX);
                    dst.push(*remap.entry(c).or_insert(next));
                }
            }
            let dense = remap.len();
            self.editops_dense(&r1, &r2, dense, sink);
            self.remap = remap;
            self.remapped1 = r1;
            self.remapped2 = r2;
        } else {
            self.editops_dense(s1, s2, bound, sink);
        }
    }

    /// Counts of RapidFuzz's editops for turning `s1` into `s2`.
    pub fn counts(&mut self, s1: &[u32], s2: &[u32], alphabet: Option<usize>) -> EditCounts {
        let mut counts = EditCounts::default();
        self.editops_into(s1, s2, alphabet, &mut counts);
        counts
    }

    fn editops_dense<S: EditSink>(
        &mut self,
        s1: &[u32],
        s2: &[u32],
        alphabet: usize,
        sink: &mut S,
    ) {
        // `levenshtein_editops` with score_hint = SIZE_MAX (what the Python binding passes):
        // the cutoff is simply the longer length.
        let max = s1.len().max(s2.len());
        let mut ctx = Ctx {
            aligner: self,
            alphabet,
        };
        ctx.align_hirschberg(sink, s1, s2, 0, 0, 0, max);
    }
}

/// RapidFuzz's editops for turning `s1` into `s2`.
pub fn editops(s1: &[u32], s2: &[u32]) -> Vec<EditOp> {
    let mut ops = Vec::new();
    Aligner::new().editops_into(s1, s2, None, &mut ops);
    ops
}

/// RapidFuzz's opcodes for turning `s1` into `s2`.
pub fn opcodes(s1: &[u32], s2: &[u32]) -> Vec<Opcode> {
    let mut out = Vec::new();
    opcodes_from_editops(&editops(s1, s2), s1.len(), s2.len(), &mut out);
    out
}

/// RapidFuzz's `Opcodes(const Editops&)`: runs of same-kind operations at consecutive
/// positions merge, and the gaps between them are `Equal`.
pub fn opcodes_from_editops(
    ops: &[EditOp],
    src_len: usize,
    dest_len: usize,
    out: &mut Vec<Opcode>,
) {
    let (mut src_pos, mut dest_pos) = (0usize, 0usize);
    let mut i = 0;
    while let Some(first) = ops.get(i) {
        if src_pos < first.src_pos || dest_pos < first.dest_pos {
            out.push(Opcode {
                tag: OpTag::Equal,
                src_start: src_pos,
                src_end: first.src_pos,
                dest_start: dest_pos,
                dest_end: first.dest_pos,
            });
            src_pos = first.src_pos;
            dest_pos = first.dest_pos;
        }
        let (src_begin, dest_begin, kind) = (src_pos, dest_pos, first.kind);
        loop {
            match kind {
                EditKind::Replace => {
                    src_pos += 1;
                    dest_pos += 1;
                }
                EditKind::Insert => dest_pos += 1,
                EditKind::Delete => src_pos += 1,
            }
            i += 1;
            match ops.get(i) {
                Some(next)
                    if next.kind == kind
                        && next.src_pos == src_pos
                        && next.dest_pos == dest_pos => {}
                _ => break,
            }
        }
        out.push(Opcode {
            tag: match kind {
                EditKind::Replace => OpTag::Replace,
                EditKind::Insert => OpTag::Insert,
                EditKind::Delete => OpTag::Delete,
            },
            src_start: src_begin,
            src_end: src_pos,
            dest_start: dest_begin,
            dest_end: dest_pos,
        });
    }
    if src_pos < src_len || dest_pos < dest_len {
        out.push(Opcode {
            tag: OpTag::Equal,
            src_start: src_pos,
            src_end: src_len,
            dest_start: dest_pos,
            dest_end: dest_len,
        });
    }
}

/// `shr64`: a right shift that yields 0 for shifts of 64 or more. A negative shift only ever
/// meets a zero mask in RapidFuzz (an absent symbol); x86 masks the count, which we mirror.
#[inline]
fn shr64(a: u64, shift: isize) -> u64 {
    if shift >= 64 {
        0
    } else {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let count = (shift & 63) as u32;
        a >> count
    }
}

/// A length (or a sum of a few) as `isize`. Slices of `u32` hold at most `isize::MAX / 4`
/// items (Rust's allocation limit), so this never saturates.
#[inline]
fn to_isize(n: usize) -> isize {
    isize::try_from(n).unwrap_or(isize::MAX)
}

#[inline]
fn to_usize(n: isize) -> usize {
    // size_t conversion of a ptrdiff_t, wrapping like C++.
    #[allow(clippy::cast_sign_loss)]
    let v = n as usize;
    v
}

#[inline]
fn bit(b: bool) -> usize {
    usize::from(b)
}

/// rapidfuzz's `ShiftedBitMatrix<uint64_t>`: `rows × cols` words stored contiguously, each
/// row with a column offset. Reads past a row's words land in the next row, as in C++.
#[derive(Debug, Default)]
struct ShiftedBitMatrix {
    cols: usize,
    data: Vec<u64>,
    offsets: Vec<isize>,
}

impl ShiftedBitMatrix {
    fn new(rows: usize, cols: usize, fill: u64, buffer: Vec<u64>) -> Self {
        let mut data = buffer;
        data.clear();
        data.resize(rows * cols, fill);
        Self {
            cols,
            data,
            offsets: vec![0; rows],
        }
    }

    #[inline]
    fn set(&mut self, row: usize, col_word: usize, value: u64) {
        debug_assert!(
            row * self.cols + col_word < self.data.len(),
            "`data` has a slot for every index"
        );
        if let Some(slot) = self.data.get_mut(row * self.cols + col_word) {
            *slot = value;
        }
    }

    fn set_offset(&mut self, row: usize, offset: isize) {
        debug_assert!(
            row < self.offsets.len(),
            "`offsets` has a slot for every index"
        );
        if let Some(slot) = self.offsets.get_mut(row) {
            *slot = offset;
        }
    }

    #[inline]
    fn test_bit(&self, row: usize, col: usize) -> bool {
        // The backtrace reads only rows the matrix recorded, inside their band.
        debug_assert!(
            row < self.offsets.len(),
            "test_bit: row {row} was not recorded"
        );
        // In bounds: see the assertion; `new` gives every row an offset.
        #[allow(clippy::indexing_slicing)]
        let offset = self.offsets[row];
        let col = if offset < 0 {
            col + offset.unsigned_abs()
        } else if col >= offset.unsigned_abs() {
            col - offset.unsigned_abs()
        } else {
            // Left of the band.
            return false;
        };
        debug_assert!(
            row * self.cols + col / WORD_SIZE < self.data.len(),
            "test_bit: column {col} of row {row} is outside the matrix"
        );
        // In bounds: see the assertion; the band of a recorded row lies inside the matrix.
        #[allow(clippy::indexing_slicing)]
        let word = self.data[row * self.cols + col / WORD_SIZE];
        word & (1u64 << (col % WORD_SIZE)) != 0
    }
}

struct MatrixResult {
    vp: ShiftedBitMatrix,
    vn: ShiftedBitMatrix,
    dist: usize,
}

struct BitRow {
    first_block: usize,
    last_block: usize,
    prev_score: usize,
    /// (VP, VN) per block.
    vecs: Vec<(u64, u64)>,
    dist: usize,
}

/// rapidfuzz's `BlockPatternMatchVector`: per block of 64 positions of a sequence, the mask of
/// positions holding each symbol.
enum BlockPm {
    /// `bits[symbol * words + block]`.
    Dense { words: usize, bits: Vec<u64> },
    /// Only the nonzero masks, keyed by `(symbol, block)`.
    Sparse {
        words: usize,
        bits: FxHashMap<(u32, usize), u64>,
    },
}

impl BlockPm {
    fn new(s: &[u32], alphabet: usize) -> Self {
        let words = s.len().div_ceil(WORD_SIZE);
        if alphabet.saturating_mul(words) <= 1 << 22 {
            let mut bits = vec![0u64; alphabet * words];
            for (i, &c) in s.iter().enumerate() {
                let index = (c as usize) * words + i / WORD_SIZE;
                debug_assert!(index < bits.len(), "`bits` has a slot for every index");
                if let Some(slot) = bits.get_mut(index) {
                    *slot |= 1u64 << (i % WORD_SIZE);
                }
            }
            Self::Dense { words, bits }
        } else {
            let mut bits = FxHashMap::default();
            for (i, &c) in s.iter().enumerate() {
                *bits.entry((c, i / WORD_SIZE)).or_insert(0) |= 1u64 << (i % WORD_SIZE);
            }
            Self::Sparse { words, bits }
        }
    }

    fn words(&self) -> usize {
        match self {
            Self::Dense { words, .. } | Self::Sparse { words, .. } => *words,
        }
    }

    #[inline]
    fn get(&self, block: usize, c: u32) -> u64 {
        match self {
            Self::Dense { words, bits } => {
                let index = (c as usize) * words + block;
                // Ids are below the alphabet the table was sized for (`editops_into`).
                debug_assert!(index < bits.len(), "BlockPm: id {c} beyond the alphabet");
                // In bounds: `bits` has `alphabet * words` masks, and `block < words`.
                #[allow(clippy::indexing_slicing)]
                bits[index]
            }
            // No entry: `c` does not occur in this block of `s1`, so no bits are set.
            Self::Sparse { bits, .. } => bits.get(&(c, block)).copied().unwrap_or(0),
        }
    }
}

struct Ctx<'a> {
    aligner: &'a mut Aligner,
    alphabet: usize,
}

/// `s[i]`. Every caller's index is in bounds (the band loop reads `s1` while
/// `iter_s1 < s1.len()` and `s2` below `rows = s2.len()`; the backtrace reads `col - 1` and
/// `row - 1` of a matrix of `s1` by `s2`); debug builds check.
#[inline]
fn at(s: &[u32], i: usize) -> u32 {
    debug_assert!(
        i < s.len(),
        "levenshtein: index {i} past a sequence of {}",
        s.len()
    );
    // In bounds: see above.
    #[allow(clippy::indexing_slicing)]
    s[i]
}

/// `remove_common_affix`: strips the common prefix and suffix; returns the prefix length.
fn remove_common_affix<'s>(s1: &'s [u32], s2: &'s [u32]) -> (&'s [u32], &'s [u32], usize) {
    let prefix = s1.iter().zip(s2).take_while(|(a, b)| a == b).count();
    // In bounds: `prefix` and `suffix` count pairs of a zip, so neither exceeds either length.
    #[allow(clippy::indexing_slicing)]
    let (s1, s2) = (&s1[prefix..], &s2[prefix..]);
    let suffix = s1
        .iter()
        .rev()
        .zip(s2.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    #[allow(clippy::indexing_slicing)]
    (&s1[..s1.len() - suffix], &s2[..s2.len() - suffix], prefix)
}

impl Ctx<'_> {
    /// `levenshtein_align_hirschberg`.
    #[allow(clippy::too_many_arguments)]
    fn align_hirschberg<S: EditSink>(
        &mut self,
        sink: &mut S,
        s1: &[u32],
        s2: &[u32],
        src_pos: usize,
        dest_pos: usize,
        editop_pos: usize,
        max: usize,
    ) {
        // A cancelled call stops splitting; the row loop discards the partial alignment.
        if crate::cancel::is_cancelled() {
            return;
        }
        let (s1, s2, prefix) = remove_common_affix(s1, s2);
        let src_pos = src_pos + prefix;
        let dest_pos = dest_pos + prefix;
        let max = max.min(s1.len().max(s2.len()));
        let full_band = s1.len().min(max.saturating_mul(2).saturating_add(1));
        let matrix_size = (2 * full_band).saturating_mul(s2.len()) / 8;
        if matrix_size < 1024 * 1024 || s1.len() < 65 || s2.len() < 10 {
            self.align(sink, s1, s2, max, src_pos, dest_pos, editop_pos);
        } else {
            took!(HIRSCHBERG);
            let hpos = self.find_hirschberg_pos(s1, s2, max);
            sink.size_to(hpos.left_score + hpos.right_score);
            let (l1, r1) = s1.split_at(hpos.s1_mid.min(s1.len()));
            let (l2, r2) = s2.split_at(hpos.s2_mid.min(s2.len()));
            self.align_hirschberg(sink, l1, l2, src_pos, dest_pos, editop_pos, hpos.left_score);
            self.align_hirschberg(
                sink,
                r1,
                r2,
                src_pos + hpos.s1_mid,
                dest_pos + hpos.s2_mid,
                editop_pos + hpos.left_score,
                hpos.right_score,
            );
        }
    }

    /// `levenshtein_align`: the full (or banded) bit matrix, then the backtrace.
    #[allow(clippy::too_many_arguments)]
    fn align<S: EditSink>(
        &mut self,
        sink: &mut S,
        s1: &[u32],
        s2: &[u32],
        max: usize,
        src_pos: usize,
        dest_pos: usize,
        editop_pos: usize,
    ) {
        let max = max.min(s1.len().max(s2.len()));
        let full_band = s1.len().min(max.saturating_mul(2).saturating_add(1));
        let matrix = if s1.is_empty() || s2.is_empty() {
            MatrixResult {
                vp: ShiftedBitMatrix::default(),
                vn: ShiftedBitMatrix::default(),
                dist: s1.len() + s2.len(),
            }
        } else if s1.len() <= 64 {
            took!(SINGLE_WORD);
            self.hyrroe2003_matrix(s1, s2)
        } else if full_band <= 64 {
            took!(SMALL_BAND);
            self.small_band_matrix(s1, s2, max)
        } else {
            took!(BLOCK);
            let pm = BlockPm::new(s1, self.alphabet);
            match self.hyrroe2003_block(&pm, s1, s2, max, Record::Matrix) {
                BlockResult::Matrix(m) => m,
                BlockResult::Row(_) => return,
            }
        };
        if matrix.dist != 0 {
            sink.size_to(matrix.dist);
            recover_alignment(sink, s1, s2, &matrix, src_pos, dest_pos, editop_pos);
        }
        // Hand the row buffers back for the next pair.
        self.aligner.vp = matrix.vp.data;
        self.aligner.vn = matrix.vn.data;
    }

    /// `levenshtein_hyrroe2003<true, false>` with `PatternMatchVector(s1)`; `s1` holds 1..=64
    /// symbols.
    fn hyrroe2003_matrix(&mut self, s1: &[u32], s2: &[u32]) -> MatrixResult {
        let pm = &mut self.aligner.pm;
        if pm.len() < self.alphabet {
            pm.resize(self.alphabet, 0);
        }
        for (i, &c) in s1.iter().enumerate() {
            debug_assert!((c as usize) < pm.len(), "`pm` has a slot for every index");
            if let Some(slot) = pm.get_mut(c as usize) {
                *slot |= 1u64 << i;
            }
        }
        let mut vp_m = ShiftedBitMatrix::new(s2.len(), 1, !0, std::mem::take(&mut self.aligner.vp));
        let mut vn_m = ShiftedBitMatrix::new(s2.len(), 1, 0, std::mem::take(&mut self.aligner.vn));
        let mut vp = !0u64;
        let mut vn = 0u64;
        let mut dist = s1.len();
        let mask = 1u64 << (s1.len() - 1);
        for (i, &c) in s2.iter().enumerate() {
            // `pm` has an entry per id of the alphabet (`editops_into`).
            debug_assert!(
                (c as usize) < pm.len(),
                "pattern table: id {c} beyond the alphabet"
            );
            // In bounds: `pm` was grown to the alphabet above.
            #[allow(clippy::indexing_slicing)]
            let x = pm[c as usize];
            let d0 = (((x & vp).wrapping_add(vp)) ^ vp) | x | vn;
            let mut hp = vn | !(d0 | vp);
            let mut hn = d0 & vp;
            dist += bit(hp & mask != 0);
            dist -= bit(hn & mask != 0);
            hp = (hp << 1) | 1;
            hn <<= 1;
            vp = hn | !(d0 | hp);
            vn = hp & d0;
            debug_assert!(i < vp_m.data.len(), "`data` has a slot for every index");
            if let Some(slot) = vp_m.data.get_mut(i) {
                *slot = vp;
            }
            debug_assert!(i < vn_m.data.len(), "`data` has a slot for every index");
            if let Some(slot) = vn_m.data.get_mut(i) {
                *slot = vn;
            }
        }
        for &c in s1 {
            debug_assert!((c as usize) < pm.len(), "`pm` has a slot for every index");
            if let Some(slot) = pm.get_mut(c as usize) {
                *slot = 0;
            }
        }
        MatrixResult {
            vp: vp_m,
            vn: vn_m,
            dist,
        }
    }

    /// `levenshtein_hyrroe2003_small_band<true>`: one 64-bit word sliding along the diagonal.
    fn small_band_matrix(&mut self, s1: &[u32], s2: &[u32], max: usize) -> MatrixResult {
        let rows = s2.len();
        let mut vp_m = ShiftedBitMatrix::new(rows, 1, !0, std::mem::take(&mut self.aligner.vp));
        let mut vn_m = ShiftedBitMatrix::new(rows, 1, 0, std::mem::take(&mut self.aligner.vn));
        let start_offset = to_isize(max) + 2 - 64;
        for i in 0..rows {
            vp_m.set_offset(i, start_offset + to_isize(i));
            vn_m.set_offset(i, start_offset + to_isize(i));
        }
        let mut vp: u64 = !0u64 << (64 - max - 1);
        let mut vn: u64 = 0;
        let mut dist = max;
        let diagonal_mask = 1u64 << 63;
        let mut horizontal_mask = 1u64 << 62;
        let break_score = (2 * max + s2.len()).wrapping_sub(s1.len());
        // Symbol -> (position of its last update, mask), as rapidfuzz's HybridGrowingHashmap.
        let mut pm: FxHashMap<u32, (isize, u64)> = FxHashMap::default();
        let update = |pm: &mut FxHashMap<u32, (isize, u64)>, c: u32, pos: isize| {
            let x = pm.entry(c).or_insert((0, 0));
            x.1 = shr64(x.1, pos - x.0) | (1u64 << 63);
            x.0 = pos;
        };
        let mut iter_s1 = 0usize;
        let mut j = -to_isize(max);
        while j < 0 {
            update(&mut pm, at(s1, iter_s1), j);
            iter_s1 += 1;
            j += 1;
        }
        let failed = |dist: usize| dist > break_score;
        let mut i = 0usize;
        let diagonal_end = s1.len() - max;
        while i < rows {
            if i < diagonal_end || iter_s1 < s1.len() {
                update(&mut pm, at(s1, iter_s1), to_isize(i));
                iter_s1 += 1;
            }
            let pm_j = pm
                .get(&at(s2, i))
                .map_or(0, |&(pos, bits)| shr64(bits, to_isize(i) - pos));
            let x = pm_j;
            let d0 = (((x & vp).wrapping_add(vp)) ^ vp) | x | vn;
            let hp = vn | !(d0 | vp);
            let hn = d0 & vp;
            if i < diagonal_end {
                dist += bit(d0 & diagonal_mask == 0);
            } else {
                dist += bit(hp & horizontal_mask != 0);
                dist = dist.wrapping_sub(bit(hn & horizontal_mask != 0));
                horizontal_mask >>= 1;
            }
            if failed(dist) {
                return MatrixResult {
                    vp: vp_m,
                    vn: vn_m,
                    dist: max + 1,
                };
            }
            vp = hn | !((d0 >> 1) | hp);
            vn = (d0 >> 1) & hp;
            vp_m.set(i, 0, vp);
            vn_m.set(i, 0, vn);
            i += 1;
        }
        MatrixResult {
            vp: vp_m,
            vn: vn_m,
            dist: if dist > max { max + 1 } else { dist },
        }
    }

    /// `levenshtein_hyrroe2003_block`: blocks of 64 positions of `s1` inside Ukkonen's band,
    /// recording either every row's bits or the bits of row `stop_row`.
    #[allow(clippy::too_many_lines)]
    fn hyrroe2003_block(
        &mut self,
        pm: &BlockPm,
        s1: &[u32],
        s2: &[u32],
        max: usize,
        record: Record,
    ) -> BlockResult {
        let (len1, len2) = (s1.len(), s2.len());
        let vanished = |max: usize, record: Record| match record {
            Record::Matrix => BlockResult::Matrix(MatrixResult {
                vp: ShiftedBitMatrix::default(),
                vn: ShiftedBitMatrix::default(),
                dist: max.wrapping_add(1),
            }),
            Record::Row { .. } => BlockResult::Row(BitRow {
                first_block: 0,
                last_block: 0,
                prev_score: 0,
                vecs: Vec::new(),
                dist: max.wrapping_add(1),
            }),
        };
        if max < len1.abs_diff(len2) {
            return vanished(max, record);
        }
        let words = pm.words();
        let mut vecs: Vec<(u64, u64)> = vec![(!0, 0); words];
        let mut scores: Vec<usize> = (0..words).map(|i| (i + 1) * WORD_SIZE).collect();
        if let Some(last) = scores.last_mut() {
            *last = len1;
        }
        let last_mask = 1u64 << ((len1 - 1) % WORD_SIZE);

        let mut matrix = match record {
            Record::Matrix => {
                let full_band = len1.min(max.saturating_mul(2).saturating_add(1));
                let full_band_words = words.min(full_band / WORD_SIZE + 2);
                Some((
                    ShiftedBitMatrix::new(
                        len2,
                        full_band_words,
                        !0,
                        std::mem::take(&mut self.aligner.vp),
                    ),
                    ShiftedBitMatrix::new(
                        len2,
                        full_band_words,
                        0,
                        std::mem::take(&mut self.aligner.vn),
                    ),
                ))
            }
            Record::Row { .. } => None,
        };

        let mut max = max.min(len1.max(len2));
        let mut first_block = 0usize;
        let mut last_block = words
            .min((max.min((max + len1 - len2) / 2) + 1).div_ceil(WORD_SIZE))
            .wrapping_sub(1);
        let get_row_num = |word: usize| -> usize {
            if word + 1 == words {
                len1 - 1
            } else {
                (word + 1) * WORD_SIZE - 1
            }
        };

        for (row, &ch) in s2.iter().enumerate() {
            // Long lines poll the cancel flag; a cancelled call stops with whatever rows are
            // done, and the row loop discards the result.
            if row % 64 == 63 && crate::cancel::checkpoint() {
                break;
            }
            let mut hp_carry: u64 = 1;
            let mut hn_carry: u64 = 0;
            if let Some((vp_m, vn_m)) = matrix.as_mut() {
                vp_m.set_offset(row, to_isize(first_block * WORD_SIZE));
                vn_m.set_offset(row, to_isize(first_block * WORD_SIZE));
            }

            let mut advance_block = |word: usize,
                                     vecs: &mut Vec<(u64, u64)>,
                                     hp_carry: &mut u64,
                                     hn_carry: &mut u64,
                                     first_block: usize|
             -> isize {
                let pm_j = pm.get(word, ch);
                debug_assert!(word < vecs.len(), "block {word} beyond the {words} blocks");
                // In bounds: callers pass a block of the band, `first_block..=last_block`,
                // and `last_block < words`, the length of `vecs`.
                #[allow(clippy::indexing_slicing)]
                let (vp, vn) = vecs[word];
                let x = pm_j | *hn_carry;
                let d0 = (((x & vp).wrapping_add(vp)) ^ vp) | x | vn;
                let mut hp = vn | !(d0 | vp);
                let mut hn = d0 & vp;
                let (hp_carry_in, hn_carry_in) = (*hp_carry, *hn_carry);
                if word < words - 1 {
                    *hp_carry = hp >> 63;
                    *hn_carry = hn >> 63;
                } else {
                    *hp_carry = u64::from(hp & last_mask != 0);
                    *hn_carry = u64::from(hn & last_mask != 0);
                }
                hp = (hp << 1) | hp_carry_in;
                hn = (hn << 1) | hn_carry_in;
                let new = (hn | !(d0 | hp), hp & d0);
                debug_assert!(word < vecs.len(), "`vecs` has a slot for every index");
                if let Some(slot) = vecs.get_mut(word) {
                    *slot = new;
                }
                if let Some((vp_m, vn_m)) = matrix.as_mut() {
                    vp_m.set(row, word.wrapping_sub(first_block), new.0);
                    vn_m.set(row, word.wrapping_sub(first_block), new.1);
                }
                #[allow(clippy::cast_possible_wrap)]
                let delta = *hp_carry as isize - *hn_carry as isize;
                delta
            };

            let mut word = first_block;
            while word <= last_block {
                let delta =
                    advance_block(word, &mut vecs, &mut hp_carry, &mut hn_carry, first_block);
                debug_assert!(word < scores.len(), "`scores` has a slot for every index");
                if let Some(score) = scores.get_mut(word) {
                    *score = to_usize(to_isize(*score) + delta);
                }
                word += 1;
            }

            let score_at = |scores: &Vec<usize>, i: usize| {
                debug_assert!(i < scores.len(), "score of block {i} beyond the blocks");
                // In bounds: `i` is a block of the band, below `words`, the length of `scores`.
                #[allow(clippy::indexing_slicing)]
                scores[i]
            };
            let remaining = (to_isize(len2) - to_isize(row) - 1)
                .max(to_isize(len1) - (to_isize((1 + last_block) * WORD_SIZE - 1) - 1));
            max = to_usize(to_isize(max).min(to_isize(score_at(&scores, last_block)) + remaining));

            // Band adjustment: the next block, if it is not beneath the band.
            if last_block + 1 < words {
                let cond = to_isize(max + 2 * WORD_SIZE + row + len1)
                    - to_isize(score_at(&scores, last_block) + 2 + len2);
                if to_isize(get_row_num(last_block)) < cond {
                    last_block += 1;
                    debug_assert!(last_block < vecs.len(), "`vecs` has a slot for every index");
                    if let Some(slot) = vecs.get_mut(last_block) {
                        *slot = (!0, 0);
                    }
                    let chars_in_block = if last_block + 1 == words {
                        (len1 - 1) % WORD_SIZE + 1
                    } else {
                        64
                    };
                    #[allow(clippy::cast_possible_truncation)]
                    let start = (score_at(&scores, last_block - 1) + chars_in_block)
                        .wrapping_sub(hp_carry as usize)
                        .wrapping_add(hn_carry as usize);
                    let delta = advance_block(
                        last_block,
                        &mut vecs,
                        &mut hp_carry,
                        &mut hn_carry,
                        first_block,
                    );
                    debug_assert!(
                        last_block < scores.len(),
                        "`scores` has a slot for every index"
                    );
                    if let Some(score) = scores.get_mut(last_block) {
                        *score = to_usize(to_isize(start) + delta);
                    }
                }
            }

            let mut band_gone = false;
            loop {
                let s = score_at(&scores, last_block);
                let in_band_cond1 = s < max + WORD_SIZE;
                let cond = to_isize(max + 2 * WORD_SIZE + row + len1 + 1) - to_isize(s + 2 + len2);
                let in_band_cond2 = to_isize(get_row_num(last_block)) <= cond;
                if in_band_cond1 && in_band_cond2 {
                    break;
                }
                if last_block == first_block {
                    // Every block left the band (C++ would step below first_block).
                    band_gone = true;
                    break;
                }
                last_block -= 1;
            }
            if !band_gone {
                while first_block <= last_block {
                    let s = score_at(&scores, first_block);
                    let in_band_cond1 = s < max + WORD_SIZE;
                    let cond = to_isize(s + len1 + row) - to_isize(max + len2);
                    let in_band_cond2 = to_isize(get_row_num(first_block)) >= cond;
                    if in_band_cond1 && in_band_cond2 {
                        break;
                    }
                    first_block += 1;
                }
                band_gone = last_block < first_block;
            }
            if band_gone {
                // The distance exceeds max: the band stops to exist.
                return match matrix {
                    Some((vp, vn)) => BlockResult::Matrix(MatrixResult {
                        vp,
                        vn,
                        dist: max + 1,
                    }),
                    None => vanished(max, record),
                };
            }

            if let Record::Row { stop_row } = record {
                if row == stop_row {
                    let prev_score = if first_block == 0 {
                        stop_row + 1
                    } else {
                        let relevant_bits = ((first_block + 1) * 64).min(len1) % 64;
                        let mut mask = !0u64;
                        if relevant_bits != 0 {
                            mask >>= 64 - relevant_bits;
                        }
                        debug_assert!(first_block < vecs.len(), "first block beyond the blocks");
                        // In bounds: `first_block <= last_block < words` (the band is not
                        // gone), and `vecs` has `words` entries.
                        #[allow(clippy::indexing_slicing)]
                        let (vp, vn) = vecs[first_block];
                        score_at(&scores, first_block)
                            .wrapping_add((vn & mask).count_ones() as usize)
                            .wrapping_sub((vp & mask).count_ones() as usize)
                    };
                    return BlockResult::Row(BitRow {
                        first_block,
                        last_block,
                        prev_score,
                        vecs,
                        dist: 0,
                    });
                }
            }
        }

        // One score per block, and `s1` is not empty here, so there is a last one.
        debug_assert!(!scores.is_empty(), "hyrroe2003_block without blocks");
        // In bounds: `words = len1.div_ceil(64) >= 1` (`last_mask` above needs `len1 >= 1`).
        #[allow(clippy::indexing_slicing)]
        let mut dist = scores[words - 1];
        if dist > max {
            dist = max + 1;
        }
        match matrix {
            Some((vp, vn)) => BlockResult::Matrix(MatrixResult { vp, vn, dist }),
            None => BlockResult::Row(BitRow {
                first_block,
                last_block,
                prev_score: 0,
                vecs,
                dist,
            }),
        }
    }

    /// `levenshtein_row`: the bits of row `stop_row` of the banded block computation.
    fn levenshtein_row(&mut self, s1: &[u32], s2: &[u32], max: usize, stop_row: usize) -> BitRow {
        let pm = BlockPm::new(s1, self.alphabet);
        match self.hyrroe2003_block(&pm, s1, s2, max, Record::Row { stop_row }) {
            BlockResult::Row(row) => row,
            BlockResult::Matrix(m) => BitRow {
                first_block: 0,
                last_block: 0,
                prev_score: 0,
                vecs: Vec::new(),
                dist: m.dist,
            },
        }
    }

    /// `find_hirschberg_pos`: where an optimal alignment crosses the middle row of `s2`.
    fn find_hirschberg_pos(&mut self, s1: &[u32], s2: &[u32], max: usize) -> HirschbergPos {
        let mut max = max;
        loop {
            if let Some(pos) = self.try_hirschberg_pos(s1, s2, max) {
                return pos;
            }
            if crate::cancel::is_cancelled() {
                // Any split: `align_hirschberg` returns at once when cancelled.
                return HirschbergPos {
                    left_score: 0,
                    right_score: 0,
                    s1_mid: 0,
                    s2_mid: 0,
                };
            }
            // The band was too narrow: double it (C++ recurses with max * 2).
            max = max.max(1).saturating_mul(2);
        }
    }

    fn try_hirschberg_pos(&mut self, s1: &[u32], s2: &[u32], max: usize) -> Option<HirschbergPos> {
        let mut hpos = HirschbergPos {
            left_score: 0,
            right_score: 0,
            s1_mid: 0,
            s2_mid: 0,
        };
        let left_size = s2.len() / 2;
        let right_size = s2.len() - left_size;
        hpos.s2_mid = left_size;
        let s1_len = s1.len();
        let mut best_score = usize::MAX;

        let rev1: Vec<u32> = s1.iter().rev().copied().collect();
        let rev2: Vec<u32> = s2.iter().rev().copied().collect();
        let right_row = self.levenshtein_row(&rev1, &rev2, max, right_size - 1);
        if right_row.dist > max {
            return None;
        }
        let right_first_pos = right_row.first_block * 64;
        let right_last_pos = s1_len.min(right_row.last_block * 64 + 64);
        let mut right_scores = vec![0usize; right_last_pos.wrapping_sub(right_first_pos) + 1];
        if let Some(first) = right_scores.first_mut() {
            *first = right_row.prev_score;
        }
        for i in right_first_pos..right_last_pos {
            // `i` runs inside the row's blocks, `k` below `right_scores.len() - 1`.
            debug_assert!(
                i / 64 < right_row.vecs.len(),
                "right row: block {} missing",
                i / 64
            );
            let mask = 1u64 << (i % 64);
            let k = i - right_first_pos;
            debug_assert!(
                k + 1 < right_scores.len(),
                "right scores: position {k} missing"
            );
            // In bounds: `i` lies in the row's blocks `first_block..=last_block`, which `vecs`
            // holds, and `right_scores` has one more entry than `right_first_pos..right_last_pos`.
            #[allow(clippy::indexing_slicing)]
            {
                let (vp, vn) = right_row.vecs[i / 64];
                right_scores[k + 1] = right_scores[k]
                    .wrapping_sub(bit(vn & mask != 0))
                    .wrapping_add(bit(vp & mask != 0));
            }
        }

        let left_row = self.levenshtein_row(s1, s2, max, left_size - 1);
        if left_row.dist > max {
            return None;
        }
        let left_first_pos = left_row.first_block * 64;
        let left_last_pos = s1_len.min(left_row.last_block * 64 + 64);
        let mut left_score = left_row.prev_score;
        // The boundary.
        if s1_len >= left_first_pos + right_first_pos {
            let right_index = s1_len - left_first_pos - right_first_pos;
            if let Some(&r) = right_scores.get(right_index) {
                best_score = r.wrapping_add(left_score);
                hpos.left_score = left_score;
                hpos.right_score = r;
                hpos.s1_mid = left_first_pos;
            }
        }
        for i in left_first_pos..left_last_pos {
            debug_assert!(
                i / 64 < left_row.vecs.len(),
                "left row: block {} missing",
                i / 64
            );
            // In bounds: `i` lies in the row's blocks `first_block..=last_block`, which `vecs`
            // holds.
            #[allow(clippy::indexing_slicing)]
            let (vp, vn) = left_row.vecs[i / 64];
            let mask = 1u64 << (i % 64);
            left_score = left_score
                .wrapping_sub(bit(vn & mask != 0))
                .wrapping_add(bit(vp & mask != 0));
            if s1_len < i + 1 + right_first_pos {
                continue;
            }
            let right_index = s1_len - i - 1 - right_first_pos;
            let Some(&r) = right_scores.get(right_index) else {
                continue;
            };
            if r.wrapping_add(left_score) < best_score {
                best_score = r.wrapping_add(left_score);
                hpos.left_score = left_score;
                hpos.right_score = r;
                hpos.s1_mid = i + 1;
            }
        }
        if hpos.left_score.wrapping_add(hpos.right_score) > max {
            None
        } else {
            Some(hpos)
        }
    }
}

#[derive(Clone, Copy)]
enum Record {
    Matrix,
    Row { stop_row: usize },
}

enum BlockResult {
    Matrix(MatrixResult),
    Row(BitRow),
}

struct HirschbergPos {
    left_score: usize,
    right_score: usize,
    s1_mid: usize,
    s2_mid: usize,
}

/// `recover_alignment`: walks back from the bottom-right corner of the bit matrix, preferring
/// a deletion, then an insertion, then the diagonal (a match, or a replacement).
fn recover_alignment<S: EditSink>(
    sink: &mut S,
    s1: &[u32],
    s2: &[u32],
    matrix: &MatrixResult,
    src_pos: usize,
    dest_pos: usize,
    editop_pos: usize,
) {
    let mut dist = matrix.dist;
    let mut col = s1.len();
    let mut row = s2.len();
    let mut emit = |dist: usize, kind: EditKind, col: usize, row: usize| {
        sink.put(
            editop_pos + dist,
            EditOp {
                kind,
                src_pos: col + src_pos,
                dest_pos: row + dest_pos,
            },
        );
    };
    while row != 0 && col != 0 {
        if matrix.vp.test_bit(row - 1, col - 1) {
            dist = dist.wrapping_sub(1);
            col -= 1;
            emit(dist, EditKind::Delete, col, row);
        } else {
            row -= 1;
            if row != 0 && matrix.vn.test_bit(row - 1, col - 1) {
                dist = dist.wrapping_sub(1);
                emit(dist, EditKind::Insert, col, row);
            } else {
                col -= 1;
                if at(s1, col) != at(s2, row) {
                    dist = dist.wrapping_sub(1);
                    emit(dist, EditKind::Replace, col, row);
                }
            }
        }
    }
    while col != 0 {
        dist = dist.wrapping_sub(1);
        col -= 1;
        emit(dist, EditKind::Delete, col, row);
    }
    while row != 0 {
        dist = dist.wrapping_sub(1);
        row -= 1;
        emit(dist, EditKind::Insert, col, row);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RapidFuzz's opcodes of `s1` to `s2` as `tag src_start..src_end dest_start..dest_end`,
    /// joined by `, ` (tags as RapidFuzz names them: equal, replace, insert, delete).
    fn tags(s1: &[u32], s2: &[u32]) -> String {
        let ops: Vec<String> = opcodes(s1, s2)
            .into_iter()
            .map(|o| {
                let tag = match o.tag {
                    OpTag::Equal => "equal",
                    OpTag::Replace => "replace",
                    OpTag::Insert => "insert",
                    OpTag::Delete => "delete",
                };
                let (src, dest) = (o.src_start..o.src_end, o.dest_start..o.dest_end);
                format!("{tag} {src:?} {dest:?}")
            })
            .collect();
        ops.join(", ")
    }

    /// Plain Wagner-Fischer distance, to check the bit-parallel paths.
    fn dp_distance(s1: &[u32], s2: &[u32]) -> usize {
        let mut prev: Vec<usize> = (0..=s2.len()).collect();
        for (i, a) in s1.iter().enumerate() {
            let mut cur = vec![i + 1; s2.len() + 1];
            for (j, b) in s2.iter().enumerate() {
                cur[j + 1] = (prev[j] + usize::from(a != b))
                    .min(prev[j + 1] + 1)
                    .min(cur[j] + 1);
            }
            prev = cur;
        }
        prev[s2.len()]
    }

    #[test]
    fn rapidfuzz_opcodes() {
        let cases: &[(&[u32], &[u32], &str)] = &[
            // jiwer: "a b" -> "b a" gives H=1, D=1, I=1.
            (
                &[0, 1],
                &[1, 0],
                "insert 0..0 0..1, equal 0..1 1..2, delete 1..2 2..2",
            ),
            (
                &[0, 1, 2],
                &[2, 0, 1],
                "insert 0..0 0..1, equal 0..2 1..3, delete 2..3 3..3",
            ),
            (&[], &[], ""),
            (&[1, 2], &[1, 2], "equal 0..2 0..2"),
            (&[], &[5, 6], "insert 0..0 0..2"),
            (&[5, 6], &[], "delete 0..2 0..0"),
            (
                &[1, 2, 3],
                &[1, 9, 3],
                "equal 0..1 0..1, replace 1..2 1..2, equal 2..3 2..3",
            ),
        ];
        for (s1, s2, expected) in cases {
            assert_eq!(tags(s1, s2), *expected, "{s1:?} -> {s2:?}");
        }
    }

    /// Deterministic pseudo-random sequences over a small alphabet.
    fn lcg_sequence(seed: &mut u64, len: usize, alphabet: u64) -> Vec<u32> {
        (0..len)
            .map(|_| {
                *seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                ((*seed >> 33) % alphabet) as u32
            })
            .collect()
    }

    fn check_consistent(s1: &[u32], s2: &[u32]) {
        let ops = editops(s1, s2);
        assert_eq!(ops.len(), dp_distance(s1, s2), "{s1:?} {s2:?}");
        // Applying the opcodes rebuilds s2.
        let mut rebuilt = Vec::new();
        let codes = opcodes(s1, s2);
        for o in &codes {
            match o.tag {
                OpTag::Equal => {
                    assert_eq!(s1[o.src_start..o.src_end], s2[o.dest_start..o.dest_end]);
                    rebuilt.extend_from_slice(&s1[o.src_start..o.src_end]);
                }
                OpTag::Replace | OpTag::Insert => {
                    rebuilt.extend_from_slice(&s2[o.dest_start..o.dest_end]);
                }
                OpTag::Delete => {}
            }
        }
        assert_eq!(rebuilt, s2);
    }

    #[test]
    fn every_path_is_an_optimal_alignment() {
        let mut seed = 7;
        // Short (single word), block, small band (inside Hirschberg) and Hirschberg paths.
        for &(len1, len2, alphabet) in &[
            (10, 12, 3),
            (64, 60, 4),
            (65, 70, 5),
            (200, 180, 6),
            (300, 300, 40),
            (2100, 2050, 30),
            (3000, 2990, 500),
        ] {
            let s1 = lcg_sequence(&mut seed, len1, alphabet);
            let s2 = lcg_sequence(&mut seed, len2, alphabet);
            check_consistent(&s1, &s2);
            // Nearly equal long sequences exercise the narrow bands.
            let mut s3 = s1.clone();
            for k in (0..s3.len()).step_by(97) {
                s3[k] = (s3[k] + 1) % alphabet as u32;
            }
            if s3.len() > 10 {
                s3.remove(5);
            }
            check_consistent(&s1, &s3);
            check_consistent(&s3, &s1);
        }
    }

    #[test]
    fn every_code_path_is_exercised() {
        use std::sync::atomic::Ordering::Relaxed;
        let mut seed = 11;
        let s1 = lcg_sequence(&mut seed, 5000, 20);
        let mut s2 = s1.clone();
        for k in (0..s2.len()).step_by(50) {
            s2[k] = 21;
        }
        s2.truncate(4990);
        check_consistent(&s1, &s2);
        // Few edits spread over the whole length: Hirschberg halves with narrow bands.
        let mut s3 = s1.clone();
        for k in (0..s3.len()).step_by(200) {
            s3[k] = 21;
        }
        check_consistent(&s1, &s3);
        check_consistent(&s1[..40], &s3[..45]);
        let taken: Vec<usize> = [
            &paths::SINGLE_WORD,
            &paths::SMALL_BAND,
            &paths::BLOCK,
            &paths::HIRSCHBERG,
        ]
        .iter()
        .map(|p| p.load(Relaxed))
        .collect();
        assert!(taken.iter().all(|&n| n > 0), "{taken:?}");
    }

    #[test]
    fn sparse_ids_align_like_dense_ones() {
        let dense = [0u32, 1, 2, 1, 0, 3];
        let other = [1u32, 2, 0, 3, 3];
        let sparse: Vec<u32> = dense.iter().map(|&c| c * 1_000_003 + 17).collect();
        let other_sparse: Vec<u32> = other.iter().map(|&c| c * 1_000_003 + 17).collect();
        assert_eq!(opcodes(&dense, &other), opcodes(&sparse, &other_sparse));
    }

    #[test]
    fn counts_match_editops() {
        let mut seed = 3;
        let mut aligner = Aligner::new();
        for len in [0, 1, 5, 63, 64, 65, 130] {
            let s1 = lcg_sequence(&mut seed, len, 4);
            let s2 = lcg_sequence(&mut seed, len + 3, 4);
            let ops = editops(&s1, &s2);
            let counts = aligner.counts(&s1, &s2, Some(4));
            let count = |k| ops.iter().filter(|o| o.kind == k).count();
            assert_eq!(counts.replace, count(EditKind::Replace));
            assert_eq!(counts.insert, count(EditKind::Insert));
            assert_eq!(counts.delete, count(EditKind::Delete));
        }
    }
}
