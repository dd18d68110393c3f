//! Token texts to `u32` ids within one segment, without a `String` per token: the distinct
//! texts are found through an [`IdTable`]. A text of at most 7 bytes (most words) is its own
//! key, so finding it compares no text; a longer one is keyed by its hash and kept in one
//! arena, against which a match is verified (hash collisions cannot merge two tokens).
//!
//! Tokens are compared as bytes, so both `&str` and `&[u8]` tokens (pre-split tokens taken
//! from Python, lone surrogates in their `surrogatepass` encoding) can be interned.

use std::hash::Hasher;

use rustc_hash::FxHasher;

use super::id_table::IdTable;

/// The longest text that is its own key.
const SHORT: usize = 7;

/// A long text's key: its hash with the top bit set, which no short text's key has.
const LONG_KEY: u64 = 1 << 63;

/// The key of a text of at most [`SHORT`] bytes: its bytes (little-endian) and, above them,
/// its length, so two texts share a key only when they are equal.
#[inline]
fn short_key(token: &[u8]) -> Option<u64> {
    let n = token.len();
    let bytes = match n {
        0 => 0,
        // The first, middle and last bytes cover lengths 1 to 3.
        1..=3 => {
            let byte = |k: usize| u64::from(token.get(k).copied().unwrap_or(0)) << (8 * k);
            byte(0) | byte(n / 2) | byte(n - 1)
        }
        // The first and last four bytes overlap on equal bytes for lengths 4 to 7.
        4..=SHORT => {
            let word = |at: usize| {
                token
                    .get(at..at + 4)
                    .and_then(|w| <[u8; 4]>::try_from(w).ok())
                    .map_or(0, |w| u64::from(u32::from_le_bytes(w)))
            };
            word(0) | word(n - 4) << (8 * (n - 4))
        }
        _ => return None,
    };
    Some(bytes | (n as u64) << 56)
}

fn long_key(token: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(token);
    h.finish() | LONG_KEY
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
    /// The texts longer than [`SHORT`] bytes, one after another.
    arena: Vec<u8>,
    /// `spans[slot] = (start, end, id)`: each distinct text's id and, for a long text, where
    /// it lies in the arena (`0..0` for a short one, which its key holds).
    spans: Vec<(usize, usize, u32)>,
    /// Key of the text ([`short_key`], else [`long_key`]) -> slot in `spans`.
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

    /// The key of `token` and whether it is the text itself (no comparison needed).
    #[inline]
    fn key(token: &[u8]) -> (u64, bool) {
        short_key(token).map_or_else(|| (long_key(token), false), |key| (key, true))
    }

    #[inline(always)]
    fn find(&self, key: u64, exact: bool, token: &[u8]) -> Option<u32> {
        let (arena, spans) = (&self.arena, &self.spans);
        let slot = if exact {
            self.slots.find(key, |_| true)?
        } else {
            self.slots.find(key, |slot| {
                spans
                    .get(slot as usize)
                    .and_then(|&(s, e, _)| arena.get(s..e))
                    == Some(token)
            })?
        };
        spans.get(slot as usize).map(|s| s.2)
    }

    /// The id of `token`, if it was interned.
    #[inline]
    pub fn lookup<T: AsRef<[u8]> + ?Sized>(&self, token: &T) -> Option<u32> {
        let token = token.as_ref();
        let (key, exact) = Self::key(token);
        self.find(key, exact, token)
    }

    /// The id of `token`, giving it `make()` if it is new.
    #[inline]
    pub fn intern_with<T: AsRef<[u8]> + ?Sized>(
        &mut self,
        token: &T,
        make: impl FnOnce() -> u32,
    ) -> u32 {
        let token = token.as_ref();
        let (key, exact) = Self::key(token);
        if let Some(id) = self.find(key, exact, token) {
            return id;
        }
        let id = make();
        let start = self.arena.len();
        if !exact {
            self.arena.extend_from_slice(token);
        }
        let slot = to_u32(self.spans.len());
        self.slots.insert_new(key, slot);
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
        // Every string of up to 8 bytes (short and long keys) over {0, 'a', 'b', 0xFF} keeps
        // its own id.
        let mut all: Vec<Vec<u8>> = vec![Vec::new()];
        let mut last = all.clone();
        for _ in 0..8 {
            last = last
                .iter()
                .flat_map(|t| [0u8, b'a', b'b', 0xFF].map(|b| [t.as_slice(), &[b]].concat()))
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
        // Only texts past 7 bytes reach the arena.
        assert_eq!(v.arena.len(), 4usize.pow(8) * 8);
    }

    #[test]
    fn short_keys_are_the_text_and_never_a_long_key() {
        assert_eq!(short_key(b""), Some(0));
        assert_eq!(short_key(b"a"), Some(0x0100_0000_0000_0061));
        assert_eq!(short_key(b"abcdefg"), Some(0x0767_6665_6463_6261));
        assert_eq!(short_key(b"abcdefgh"), None);
        let widest = short_key(&[0xFF; SHORT]).unwrap_or(LONG_KEY);
        assert_eq!(widest & LONG_KEY, 0);
        assert_ne!(long_key(b"abcdefgh") & LONG_KEY, 0);
    }
}
