//! A small open-addressing map from `u64` keys to `u32` ids, built for the per-segment tables
//! of [`crate::count::matcher`]: linear probing, and `clear` in O(1) by bumping a generation stamp, so
//! reusing the table across millions of short segments costs nothing per segment.
//!
//! Keys need not be unique: [`IdTable::find`] and [`IdTable::find_or_insert`] take an `eq`
//! check, so a key that is a hash (of a token's text) can be verified against the real value.

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    key: u64,
    value: u32,
    generation: u32,
}

/// Map from `u64` keys to `u32` values with O(1) clearing.
#[derive(Debug, Clone)]
pub struct IdTable {
    slots: Vec<Slot>,
    /// `64 - log2(slots.len())`: Fibonacci hashing takes the top bits of `key * K`.
    shift: u32,
    len: usize,
    generation: u32,
}

impl Default for IdTable {
    fn default() -> Self {
        Self::with_capacity_log2(8)
    }
}

const FIBONACCI: u64 = 0x9E37_79B9_7F4A_7C15;

/// A table with more slots than this (one very long segment) is replaced, not cleared.
pub const MAX_RETAINED_SLOTS: usize = 1 << 14;

impl IdTable {
    fn with_capacity_log2(bits: u32) -> Self {
        Self {
            slots: vec![Slot::default(); 1 << bits],
            shift: 64 - bits,
            len: 0,
            generation: 1,
        }
    }

    /// A table that holds `entries` entries without growing.
    pub fn with_capacity(entries: usize) -> Self {
        let slots = entries.saturating_mul(2).max(1 << 8).next_power_of_two();
        Self::with_capacity_log2(slots.trailing_zeros())
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there is no entry.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of slots (twice the entries it holds before growing, at least).
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        if self.slots.len() > MAX_RETAINED_SLOTS {
            *self = Self::default();
            return;
        }
        self.len = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // The stamp wrapped: stale slots could look live again, so wipe them once.
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }

    #[inline]
    fn start(&self, key: u64) -> usize {
        // Truncation is the point: the top bits of the product pick the slot.
        #[allow(clippy::cast_possible_truncation)]
        let index = (key.wrapping_mul(FIBONACCI) >> self.shift) as usize;
        index
    }

    /// Asks the processor to bring `key`'s first slot into cache (a hint: a table too large
    /// for the cache answers a lookup faster when its slot was asked for a few keys before).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        if let Some(slot) = self.slots.get(self.start(key)) {
            crate::statistics::prefetch(slot);
        }
    }

    /// The value stored under `key` for which `eq(value)` holds.
    #[inline]
    pub fn find(&self, key: u64, mut eq: impl FnMut(u32) -> bool) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = self.start(key);
        loop {
            let slot = self.slots.get(i)?;
            if slot.generation != self.generation {
                return None;
            }
            if slot.key == key && eq(slot.value) {
                return Some(slot.value);
            }
            i = (i + 1) & mask;
        }
    }

    /// The value under `key` for which `eq(value)` holds, or a new one from `make()`.
    #[inline]
    pub fn find_or_insert(
        &mut self,
        key: u64,
        mut eq: impl FnMut(u32) -> bool,
        make: impl FnOnce() -> u32,
    ) -> u32 {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let generation = self.generation;
        let mut i = self.start(key);
        loop {
            match self.slots.get_mut(i) {
                Some(slot) if slot.generation == generation => {
                    if slot.key == key && eq(slot.value) {
                        return slot.value;
                    }
                }
                Some(slot) => {
                    let value = make();
                    *slot = Slot {
                        key,
                        value,
                        generation,
                    };
                    self.len += 1;
                    return value;
                }
                // Unreachable: indices are masked to the table size.
                None => return make(),
            }
            i = (i + 1) & mask;
        }
    }

    /// Adds `value` under `key` without looking for an existing entry: for callers that just
    /// checked with [`IdTable::find`] that it is absent.
    #[inline]
    pub fn insert_new(&mut self, key: u64, value: u32) {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let generation = self.generation;
        let mut i = self.start(key);
        while let Some(slot) = self.slots.get_mut(i) {
            if slot.generation != generation {
                *slot = Slot {
                    key,
                    value,
                    generation,
                };
                self.len += 1;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let bits = 64 - self.shift + 1;
        let old = std::mem::replace(self, Self::with_capacity_log2(bits));
        for slot in old.slots.iter().filter(|s| s.generation == old.generation) {
            self.insert_new(slot.key, slot.value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_find_grow_and_clear() {
        let mut t = IdTable::default();
        for round in 0..3u64 {
            for k in 0..10_000u64 {
                let key = k * 7 + round;
                let id = u32::try_from(k).unwrap();
                assert_eq!(t.find_or_insert(key, |_| true, || id), id);
            }
            assert_eq!(t.len(), 10_000);
            for k in 0..10_000u64 {
                assert_eq!(
                    t.find(k * 7 + round, |_| true),
                    Some(u32::try_from(k).unwrap())
                );
            }
            assert_eq!(t.find(1 << 60, |_| true), None);
            t.clear();
            assert!(t.is_empty());
            assert_eq!(t.find(round, |_| true), None);
        }
    }

    #[test]
    fn a_sized_table_never_grows() {
        for entries in [0, 1, 128, 129, 100_000] {
            let mut t = IdTable::with_capacity(entries);
            let slots = t.capacity();
            for k in 0..entries as u64 {
                t.insert_new(k, u32::try_from(k).unwrap());
            }
            assert_eq!((t.len(), t.capacity()), (entries, slots));
        }
    }

    #[test]
    fn equal_keys_are_told_apart_by_eq() {
        // Two values under one key (a hash collision): eq decides which one is meant.
        let mut t = IdTable::default();
        assert_eq!(t.find_or_insert(42, |v| v == 1, || 1), 1);
        assert_eq!(t.find_or_insert(42, |v| v == 2, || 2), 2);
        assert_eq!(t.find(42, |v| v == 2), Some(2));
        assert_eq!(t.find(42, |v| v == 1), Some(1));
        assert_eq!(t.find(42, |v| v == 3), None);
    }

    #[test]
    fn insert_new_then_find() {
        let mut t = IdTable::default();
        for k in 0..1000u64 {
            t.insert_new(k, u32::try_from(k).unwrap() + 1);
        }
        assert_eq!(t.find(999, |_| true), Some(1000));
    }

    #[test]
    fn generation_wrap_wipes_stale_slots() {
        let mut t = IdTable::default();
        t.find_or_insert(5, |_| true, || 9);
        t.generation = u32::MAX;
        t.clear();
        assert_eq!(t.find(5, |_| true), None);
    }
}
