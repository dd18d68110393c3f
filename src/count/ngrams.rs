//! N-gram ids: every n-gram of a sequence of symbols gets a dense `u32` id from the pair (id
//! of its `(n-1)`-gram prefix, its last symbol), an exact key, so no n-gram is ever built as a
//! string or a slice, and counts live in plain vectors indexed by id.
//!
//! A symbol is a `u32` the caller chose: a token's id from a [`super::Vocabulary`], a code
//! point. Order 1 extends the empty n-gram ([`empty`]), and every further order extends the
//! ids of the order below, one [`extend_order`] step per order. References intern their
//! n-grams ([`NgramIds::intern`]); a hypothesis only looks its n-grams up
//! ([`NgramIds::lookup`]), since one no reference has cannot match.
//!
//! ```
//! use bleuprint::count::ngrams::{empty, extend_order, NgramIds, ABSENT};
//!
//! let mut ids = NgramIds::default();
//! let symbols = [7, 8, 7, 8];
//! let mut order = vec![empty(0); symbols.len()];
//! extend_order(&mut order, &symbols, 1, |prefix, last| ids.intern(prefix, last));
//! assert_eq!(order, [0, 1, 0, 1]);
//! extend_order(&mut order, &symbols, 2, |prefix, last| ids.intern(prefix, last));
//! assert_eq!(order, [2, 3, 2]); // "7 8", "8 7", "7 8"
//! // A hypothesis "8 9": 8 is known, 9 and so "8 9" are not.
//! let (hypothesis, mut order) = ([8, 9], vec![empty(0); 2]);
//! extend_order(&mut order, &hypothesis, 1, |prefix, last| ids.lookup(prefix, last));
//! assert_eq!(order, [1, ABSENT]);
//! extend_order(&mut order, &hypothesis, 2, |prefix, last| ids.lookup(prefix, last));
//! assert_eq!(order, [ABSENT]);
//! ```

use super::id_table::IdTable;

/// No id: a symbol or an n-gram that was never interned.
pub const ABSENT: u32 = u32::MAX;

/// The ids just below [`ABSENT`] are the empty n-grams of the symbol spaces ([`empty`]); real
/// ids stay below this.
const RESERVED: u32 = ABSENT - 256;

/// The empty n-gram, the prefix of every order-1 n-gram, of symbol space `space`. Spaces keep
/// symbols of different kinds apart in one [`NgramIds`] (chrF's characters and words:
/// character 97 and word 97 are different unigrams); use `empty(0)` where there is one kind.
#[inline]
pub const fn empty(space: u8) -> u32 {
    ABSENT - 1 - space as u32
}

/// Sets `order` to the empty n-gram of `space` at each of `len` positions: "order 0", which
/// [`extend_order`] turns into order 1.
#[inline]
pub fn begin_orders(order: &mut Vec<u32>, len: usize, space: u8) {
    order.clear();
    order.resize(len, empty(space));
}

/// One order up: `order[i]`, the id of the `(n-1)`-gram of `symbols` starting at `i`, becomes
/// the id of the n-gram starting there, `id(order[i], symbols[i + n - 1])`; the last position
/// drops off, having no n symbols left. `n` counts from 1 (where `order` holds empty n-grams,
/// or the symbols' own ids when those are their unigram ids, as BLEU's tokens are).
#[inline]
pub fn extend_order(
    order: &mut Vec<u32>,
    symbols: &[u32],
    n: usize,
    mut id: impl FnMut(u32, u32) -> u32,
) {
    order.truncate((symbols.len() + 1).saturating_sub(n));
    let lasts = symbols.iter().skip(n.saturating_sub(1));
    for (slot, &last) in order.iter_mut().zip(lasts) {
        *slot = id(*slot, last);
    }
}

/// Dense ids of n-grams, `0, 1, 2, ...` in order of first appearance: the map (prefix id,
/// last symbol) -> id of one segment (cleared between segments in O(1)) or of a whole corpus.
#[derive(Debug, Clone, Default)]
pub struct NgramIds {
    table: IdTable,
    len: u32,
}

/// Hands out `*len` and counts it, or [`ABSENT`] once the ids run out.
#[inline]
fn next_id(len: &mut u32) -> u32 {
    debug_assert!(*len < RESERVED, "n-gram ids exhausted");
    if *len >= RESERVED {
        return ABSENT;
    }
    *len += 1;
    *len - 1
}

/// The n-gram id in a prefix (of [`crate::count::BagBuilder::keys`]), or `None` for an
/// [`empty`] marker.
#[inline]
pub fn prefix_id(prefix: u32) -> Option<u32> {
    (prefix < RESERVED).then_some(prefix)
}

#[inline]
fn key(prefix: u32, last: u32) -> u64 {
    (u64::from(prefix) << 32) | u64::from(last)
}

impl NgramIds {
    /// Number of ids handed out: every id is below it, so it sizes vectors indexed by id.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True when no id was handed out.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The next id, for an item the caller keeps elsewhere in the same id space (BLEU's
    /// tokens, whose ids are their unigrams' ids). Running out takes 2^32 - 256 ids (tens of
    /// GiB of tables); past that every new id is [`ABSENT`] rather than one already in use.
    #[inline]
    pub fn new_id(&mut self) -> u32 {
        next_id(&mut self.len)
    }

    /// The id of the n-gram `prefix` + `last`, a new one if it was never seen.
    #[inline]
    pub fn intern(&mut self, prefix: u32, last: u32) -> u32 {
        let Self { table, len } = self;
        table.find_or_insert(key(prefix, last), |_| true, || next_id(len))
    }

    /// The id of the n-gram `prefix` + `last`, or [`ABSENT`] if it was never interned (always
    /// when either part is `ABSENT`: an n-gram with an unknown part is unknown).
    #[inline]
    pub fn lookup(&self, prefix: u32, last: u32) -> u32 {
        if prefix == ABSENT || last == ABSENT {
            return ABSENT;
        }
        self.table
            .find(key(prefix, last), |_| true)
            .unwrap_or(ABSENT)
    }

    /// [`IdTable::prefetch`] of the n-gram `(prefix, last)`'s slot.
    #[inline]
    pub fn prefetch(&self, prefix: u32, last: u32) {
        self.table.prefetch(key(prefix, last));
    }

    /// Slots of the table (see [`IdTable::capacity`]).
    pub fn capacity(&self) -> usize {
        self.table.capacity()
    }

    /// Forgets every n-gram; ids start from 0 again.
    pub fn clear(&mut self) {
        self.table.clear();
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbol_spaces_keep_unigrams_apart() {
        let mut ids = NgramIds::default();
        let (char_a, word_a) = (ids.intern(empty(0), 97), ids.intern(empty(1), 97));
        assert_ne!(char_a, word_a);
        assert_eq!(ids.intern(empty(0), 97), char_a);
        assert_eq!(ids.lookup(empty(1), 97), word_a);
        assert_eq!(ids.lookup(empty(2), 97), ABSENT);
        assert_eq!(ids.len(), 2);
        ids.clear();
        assert_eq!((ids.len(), ids.lookup(empty(0), 97)), (0, ABSENT));
    }

    #[test]
    fn orders_shrink_and_ids_run_out_without_wrapping() {
        let mut order = vec![5; 3];
        extend_order(&mut order, &[1, 2, 3], 3, |prefix, last| prefix + last);
        assert_eq!(order, [8]);
        extend_order(&mut order, &[1, 2, 3], 4, |prefix, last| prefix + last);
        assert!(order.is_empty());
        let mut ids = NgramIds {
            len: RESERVED - 1,
            ..NgramIds::default()
        };
        assert_eq!(ids.new_id(), RESERVED - 1);
        if !cfg!(debug_assertions) {
            assert_eq!(ids.new_id(), ABSENT);
        }
    }
}
