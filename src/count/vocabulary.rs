//! Token texts to `u32` ids within one segment, without a `String` per token: the distinct
//! texts are concatenated in one arena and found through an [`IdTable`] keyed by their hash
//! (verified against the text, so hash collisions cannot merge two tokens).
//!
//! Tokens are compared as bytes, so both `&str` and `&[u8]` tokens (pre-split tokens taken
//! from Python, lone surrogates in their `surrogatepass` encoding) can be interned.

use std::hash::Hasher;

use rustc_hash::FxHasher;

use super::id_table::IdTable;

fn hash_token(token: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(token);
    h.finish()
}

/// A slot or id for the `n`-th distinct text. Running out takes 2^32 distinct texts in one
/// segment (96 GiB of spans alone); past that, ids stop at `u32::MAX` instead of
/// wrapping onto live ones.
fn to_u32(n: usize) -> u32 {
    debug_assert!(n < u32::MAX as usize, "vocabulary ids exhausted");
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Past this arena size (one very long segment) it is dropped rather than cleared.
const MAX_RETAINED_ARENA: usize = 1 << 16;

/// Interned token texts with the id each was given.
#[derive(Debug, Default)]
pub struct Vocabulary {
    arena: Vec<u8>,
    /// `spans[slot] = (start, end, id)` locates each distinct text in the arena.
    spans: Vec<(usize, usize, u32)>,
    /// Hash of the text -> slot in `spans`.
    slots: IdTable,
}

impl Vocabulary {
    /// Forgets every token.
    pub fn clear(&mut self) {
        if self.arena.capacity() > MAX_RETAINED_ARENA {
            (self.arena, self.spans) = (Vec::new(), Vec::new());
        }
        self.arena.clear();
        self.spans.clear();
        // A table that one long segment grew replaces itself.
        self.slots.clear();
    }

    /// Number of distinct tokens.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// True when no token is interned.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    fn find(&self, hash: u64, token: &[u8]) -> Option<u32> {
        let (arena, spans) = (&self.arena, &self.spans);
        let slot = self.slots.find(hash, |slot| {
            spans
                .get(slot as usize)
                .and_then(|&(s, e, _)| arena.get(s..e))
                == Some(token)
        })?;
        spans.get(slot as usize).map(|s| s.2)
    }

    /// The id of `token`, if it was interned.
    #[inline]
    pub fn lookup<T: AsRef<[u8]> + ?Sized>(&self, token: &T) -> Option<u32> {
        let token = token.as_ref();
        self.find(hash_token(token), token)
    }

    /// The id of `token`, giving it `make()` if it is new.
    #[inline]
    pub fn intern_with<T: AsRef<[u8]> + ?Sized>(
        &mut self,
        token: &T,
        make: impl FnOnce() -> u32,
    ) -> u32 {
        let token = token.as_ref();
        let hash = hash_token(token);
        if let Some(id) = self.find(hash, token) {
            return id;
        }
        let id = make();
        let start = self.arena.len();
        self.arena.extend_from_slice(token);
        let slot = to_u32(self.spans.len());
        self.slots.insert_new(hash, slot);
        self.spans.push((start, self.arena.len(), id));
        id
    }

    /// The id of `token`; new tokens get `0, 1, 2, ...` in order of first appearance.
    pub fn intern<T: AsRef<[u8]> + ?Sized>(&mut self, token: &T) -> u32 {
        let next = to_u32(self.spans.len());
        self.intern_with(token, || next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_ids_in_order_of_appearance() {
        let mut v = Vocabulary::default();
        let ids: Vec<u32> = ["a", "b", "a", "", "c", ""]
            .iter()
            .map(|t| v.intern(t))
            .collect();
        assert_eq!(ids, [0, 1, 0, 2, 3, 2]);
        assert_eq!(v.lookup("c"), Some(3));
        assert_eq!(v.lookup("d"), None);
        // Bytes and text share one key space.
        assert_eq!(v.lookup(b"c".as_slice()), Some(3));
        assert_eq!(v.intern(&[0xED, 0xA0, 0x80][..]), 4);
        v.clear();
        assert!(v.is_empty());
        assert_eq!(v.lookup("a"), None);
    }

    #[test]
    fn every_short_token_keeps_its_own_id() {
        // Every string of up to 9 bytes over {0, 'a', 'b'} keeps its own id.
        let mut all: Vec<Vec<u8>> = vec![Vec::new()];
        let mut last = all.clone();
        for _ in 0..9 {
            last = last
                .iter()
                .flat_map(|t| [0u8, b'a', b'b'].map(|b| [t.as_slice(), &[b]].concat()))
                .collect();
            all.extend(last.iter().cloned());
        }
        let mut v = Vocabulary::default();
        for (k, token) in all.iter().enumerate() {
            assert_eq!(v.intern(token.as_slice()), to_u32(k), "{token:?}");
        }
        for (k, token) in all.iter().enumerate() {
            assert_eq!(v.lookup(token.as_slice()), Some(to_u32(k)), "{token:?}");
        }
        assert_eq!(v.lookup(b"abababababa".as_slice()), None);
    }
}
