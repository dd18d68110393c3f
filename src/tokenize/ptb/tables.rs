//! The transition tables of Stanford CoreNLP 3.4.1's `PTBLexer`, read from the class file in
//! the user's `stanford-corenlp-3.4.1.jar` (pycocoevalcap's wheel ships it).
//!
//! CoreNLP is GPL; bleuprint is Apache-2.0, so it ships no copy of these tables. JFlex 1.5.1
//! wrote them into the class as string constants in its run-length packing; this module finds
//! them in the constant pool, unpacks them as the class's static initializer does, checks their
//! shape and compares a checksum of the result with the one recorded from the 3.4.1 jar, so a
//! different jar is refused rather than tokenizing differently.

use crate::error::{Error, Result};

/// The number of DFA states of 3.4.1's `PTBLexer` (`ZZ_ACTION.length`).
const STATES: usize = 4058;
/// The number of input character classes (`ZZ_CMAP`'s values are below it).
const CLASSES: usize = 125;
/// `ZZ_TRANS.length`.
const TRANSITIONS: usize = 472_250;
/// FNV-1a (64-bit) of the tables as the class unpacks them: `ZZ_CMAP`, `ZZ_ACTION`,
/// `ZZ_ROWMAP`, `ZZ_TRANS`, `ZZ_ATTRIBUTE`, each value as 4 little-endian bytes.
const CHECKSUM: u64 = 0x1bdf_5bfc_ed80_76ca;

/// The scanner's tables: the character classes of the 65,536 UTF-16 code units, each state's
/// action, row offset and attributes, and the row-compressed transitions. A transition holds
/// its target's row offset and number ([`Move`]), so that a step is one lookup.
#[derive(Debug)]
pub(super) struct Tables {
    cmap: Box<[u8]>,
    action: Box<[u8]>,
    rowmap: Box<[u32]>,
    trans: Box<[u32]>,
    attribute: Box<[u8]>,
}

/// A transition as [`Tables`] stores it, or [`NO_MOVE`]: the target's row offset (19 bits; 3.4.1's
/// last is 472,125), its number (12 bits; 3.4.1 has 4,058 states) and whether it accepts (the
/// low bit), so that a step is one lookup and a branch.
type Move = u32;
/// The bits below the row offset.
const ROW_SHIFT: u32 = 13;
/// No transition: the DFA stops.
const NO_MOVE: Move = u32::MAX;

impl Tables {
    /// The tables from `PTBLexer.class`'s bytes.
    ///
    /// # Errors
    /// `InvalidInput` when the bytes are not a class file holding 3.4.1's tables.
    pub(super) fn from_class_file(class: &[u8]) -> Result<Self> {
        let strings = packed_strings(class)?;
        // The large constants, in pool order: ZZ_ACTION, ZZ_ROWMAP, the nine ZZ_TRANS parts,
        // ZZ_ATTRIBUTE, ZZ_CMAP (javac's order for this class; the checksum confirms it).
        let [action, rowmap, t0, t1, t2, t3, t4, t5, t6, t7, t8, attribute, cmap] =
            <[Vec<u16>; 13]>::try_from(strings).map_err(|found| {
                not_the_class(format!("{} packed tables where 3.4.1 has 13", found.len()))
            })?;
        let trans_packed: Vec<u16> = [t0, t1, t2, t3, t4, t5, t6, t7, t8].concat();
        let cmap = run_lengths(&cmap, 0x1_0000)?;
        let action = run_lengths(&action, STATES)?;
        let attribute = run_lengths(&attribute, STATES)?;
        let rowmap: Vec<u32> = rowmap
            .chunks_exact(2)
            .map(|pair| match pair {
                [high, low] => (u32::from(*high) << 16) | u32::from(*low),
                _ => 0,
            })
            .collect();
        let trans: Vec<i32> = run_lengths(&trans_packed, TRANSITIONS)?
            .into_iter()
            .map(|value| i32::from(value) - 1)
            .collect();
        let mut hash = Fnv::new();
        for table in [&cmap, &action] {
            table.iter().for_each(|&v| hash.add(i32::from(v)));
        }
        rowmap.iter().for_each(|&v| hash.add(v as i32));
        trans.iter().for_each(|&v| hash.add(v));
        attribute.iter().for_each(|&v| hash.add(i32::from(v)));
        if hash.0 != CHECKSUM || rowmap.len() != STATES {
            return Err(not_the_class(
                "its tables differ from 3.4.1's (checksum mismatch)",
            ));
        }
        let narrow = |values: Vec<u16>, what: &str| -> Result<Box<[u8]>> {
            values
                .into_iter()
                .map(|v| u8::try_from(v).map_err(|_| not_the_class(format!("{what} value {v}"))))
                .collect()
        };
        // Every lookup the scanner makes stays inside the tables, so a failed `get` never
        // means anything but "no transition".
        let classes_ok = cmap.iter().all(|&c| usize::from(c) < CLASSES);
        // Whole rows of `CLASSES` columns each (JFlex shares identical rows, never overlaps them).
        let rows_ok = rowmap
            .iter()
            .all(|&row| row as usize % CLASSES == 0 && row as usize + CLASSES <= trans.len());
        let targets_ok = trans
            .iter()
            .all(|&t| t == -1 || usize::try_from(t).is_ok_and(|t| t < STATES));
        if !(classes_ok && rows_ok && targets_ok) {
            return Err(not_the_class("its tables point outside themselves"));
        }
        let fits = rowmap.iter().all(|&row| row < (1 << (32 - ROW_SHIFT)) - 1);
        if !fits || STATES > 1 << (ROW_SHIFT - 1) {
            return Err(not_the_class("its tables are larger than 3.4.1's"));
        }
        // Classes renumbered by their first code unit, so that a row's ASCII columns (what most
        // text reads) share fewer cache lines.
        let mut first_unit = vec![u32::MAX; CLASSES];
        for (unit, &class) in cmap.iter().enumerate() {
            if let Some(first) = first_unit.get_mut(usize::from(class)) {
                *first = (*first).min(unit as u32);
            }
        }
        let mut order: Vec<usize> = (0..CLASSES).collect();
        order.sort_by_key(|&class| first_unit.get(class).copied().unwrap_or(u32::MAX));
        let mut renumber = vec![0u16; CLASSES];
        for (new, &old) in order.iter().enumerate() {
            if let Some(slot) = renumber.get_mut(old) {
                *slot = new as u16;
            }
        }
        let cmap: Vec<u16> = cmap
            .iter()
            .map(|&class| renumber.get(usize::from(class)).copied().unwrap_or(0))
            .collect();
        let trans: Vec<i32> = trans
            .chunks(CLASSES)
            .flat_map(|row| order.iter().map(|&old| row.get(old).copied().unwrap_or(-1)))
            .collect();
        let trans = trans
            .iter()
            .map(|&target| match usize::try_from(target) {
                Ok(state) => match (rowmap.get(state), attribute.get(state)) {
                    (Some(&row), Some(&attribute)) => {
                        (row << ROW_SHIFT) | ((state as u32) << 1) | u32::from(attribute & 1)
                    }
                    _ => NO_MOVE,
                },
                Err(_) => NO_MOVE,
            })
            .collect();
        Ok(Self {
            cmap: narrow(cmap, "character class")?,
            action: narrow(action, "action")?,
            rowmap: rowmap.into_boxed_slice(),
            trans,
            attribute: narrow(attribute, "attribute")?,
        })
    }

    /// `state`'s row offset, where [`Tables::step`] starts from it.
    #[inline(always)]
    pub(super) fn row(&self, state: usize) -> usize {
        self.rowmap.get(state).map_or(0, |&row| row as usize)
    }

    /// The transition on `unit` from the state whose row is `row`, or `None` where the DFA
    /// stops; [`Step`] reads it.
    #[inline(always)]
    pub(super) fn step(&self, row: usize, unit: u16) -> Option<Step> {
        let class = *self.cmap.get(usize::from(unit))?;
        let next = *self.trans.get(row + usize::from(class))?;
        (next != NO_MOVE).then_some(Step(next))
    }

    /// The state after reading `unit` in `state`, or `None` where the DFA stops.
    #[inline(always)]
    pub(super) fn next(&self, state: usize, unit: u16) -> Option<usize> {
        self.step(self.row(state), unit).map(Step::state)
    }

    /// `ZZ_ATTRIBUTE[state]`: bit 1 the state accepts, bit 8 no longer match can follow.
    #[inline(always)]
    pub(super) fn attribute(&self, state: usize) -> u8 {
        self.attribute.get(state).copied().unwrap_or(0)
    }

    /// `ZZ_ACTION[state]`: the rule whose action runs when the match ends in `state`.
    #[inline(always)]
    pub(super) fn action(&self, state: usize) -> u8 {
        self.action.get(state).copied().unwrap_or(0)
    }
}

/// A transition: the target state's number, row offset and whether it accepts.
#[derive(Debug, Clone, Copy)]
pub(super) struct Step(Move);

impl Step {
    #[inline(always)]
    pub(super) fn row(self) -> usize {
        (self.0 >> ROW_SHIFT) as usize
    }

    #[inline(always)]
    pub(super) fn state(self) -> usize {
        ((self.0 >> 1) & ((1 << (ROW_SHIFT - 1)) - 1)) as usize
    }

    #[inline(always)]
    pub(super) fn accepts(self) -> bool {
        self.0 & 1 == 1
    }
}

fn not_the_class(why: impl std::fmt::Display) -> Error {
    Error::invalid_input(format!(
        "not the PTBLexer class of Stanford CoreNLP 3.4.1 (the jar pycocoevalcap 1.2 ships): \
         {why}"
    ))
}

/// JFlex's packing: (count, value) pairs, expanded to exactly `len` values.
fn run_lengths(packed: &[u16], len: usize) -> Result<Vec<u16>> {
    let mut out = Vec::with_capacity(len);
    for pair in packed.chunks(2) {
        let [count, value] = pair else {
            return Err(not_the_class("a packed table of odd length"));
        };
        out.extend(std::iter::repeat_n(*value, usize::from(*count)));
    }
    if out.len() == len {
        Ok(out)
    } else {
        Err(not_the_class(format!(
            "a packed table of {} values where {len} were expected",
            out.len()
        )))
    }
}

/// The UTF-8 constants of more than 1,000 code units in the class's constant pool, in pool
/// order, decoded from Java's modified UTF-8 into UTF-16 code units.
fn packed_strings(class: &[u8]) -> Result<Vec<Vec<u16>>> {
    let mut bytes = Reader { bytes: class };
    if bytes.take(4)? != [0xCA, 0xFE, 0xBA, 0xBE] {
        return Err(not_the_class("no class-file magic number"));
    }
    bytes.take(4)?; // minor and major version
    let count = bytes.u16()?;
    let mut strings = Vec::new();
    let mut index = 1;
    while index < count {
        let tag = bytes.take(1)?;
        let skip = match tag {
            [1] => {
                let len = usize::from(bytes.u16()?);
                let units = modified_utf8(bytes.take(len)?)?;
                if units.len() > 1000 {
                    strings.push(units);
                }
                0
            }
            [3 | 4] => 4,
            [5 | 6] => {
                index += 1; // eight-byte constants take two slots
                8
            }
            [7 | 8 | 16 | 19 | 20] => 2,
            [9 | 10 | 11 | 12 | 17 | 18] => 4,
            [15] => 3,
            other => return Err(not_the_class(format!("constant pool tag {other:?}"))),
        };
        bytes.take(skip)?;
        index += 1;
    }
    Ok(strings)
}

/// A cursor over the class file's bytes.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.bytes.len() {
            return Err(not_the_class("the class file ends early"));
        }
        let (head, tail) = self.bytes.split_at(n);
        self.bytes = tail;
        Ok(head)
    }

    fn u16(&mut self) -> Result<u16> {
        match self.take(2)? {
            [high, low] => Ok(u16::from_be_bytes([*high, *low])),
            _ => Err(not_the_class("the class file ends early")),
        }
    }
}

/// Java's modified UTF-8 (one to three bytes per UTF-16 code unit) as code units.
fn modified_utf8(bytes: &[u8]) -> Result<Vec<u16>> {
    let mut units = Vec::with_capacity(bytes.len());
    let mut rest = bytes;
    while let Some((&first, tail)) = rest.split_first() {
        let (unit, tail) = match (first, tail) {
            (0x00..=0x7F, _) => (u16::from(first), tail),
            (0xC0..=0xDF, [b1, tail @ ..]) => {
                ((u16::from(first & 0x1F) << 6) | u16::from(b1 & 0x3F), tail)
            }
            (0xE0..=0xEF, [b1, b2, tail @ ..]) => (
                (u16::from(first & 0x0F) << 12)
                    | (u16::from(b1 & 0x3F) << 6)
                    | u16::from(b2 & 0x3F),
                tail,
            ),
            _ => return Err(not_the_class("malformed modified UTF-8")),
        };
        units.push(unit);
        rest = tail;
    }
    Ok(units)
}

/// 64-bit FNV-1a over `i32` values, each as 4 little-endian bytes.
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, value: i32) {
        for byte in value.to_le_bytes() {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_lengths_expand_to_the_length_or_fail() {
        assert_eq!(run_lengths(&[2, 5, 1, 7], 3).unwrap(), [5, 5, 7]);
        assert!(run_lengths(&[2, 5, 1, 7], 4).is_err());
        assert!(run_lengths(&[2, 5, 1], 2).is_err());
    }

    #[test]
    fn modified_utf8_units() {
        assert_eq!(modified_utf8(&[0x41, 0xC0, 0x80]).unwrap(), [0x41, 0]);
        assert_eq!(modified_utf8(&[0xE2, 0x82, 0xAC]).unwrap(), [0x20AC]);
        assert_eq!(modified_utf8(&[0xED, 0xA0, 0x80]).unwrap(), [0xD800]);
        assert!(modified_utf8(&[0xE2, 0x82]).is_err());
        assert!(modified_utf8(&[0xF0, 0x9F, 0x98, 0x80]).is_err());
    }

    #[test]
    fn other_bytes_are_refused() {
        for bytes in [
            &b""[..],
            b"\xCA\xFE\xBA\xBE",
            b"PK\x03\x04",
            b"\xCA\xFE\xBA\xBE\0\0\0\x32\0\x02\x63",
        ] {
            let error = Tables::from_class_file(bytes).unwrap_err();
            assert!(
                error.message().contains("not the PTBLexer class"),
                "{error}"
            );
        }
        // A well-formed class with no tables.
        let empty = b"\xCA\xFE\xBA\xBE\0\0\0\x32\0\x02\x01\0\x03abc";
        let error = Tables::from_class_file(empty).unwrap_err();
        assert!(error.message().contains("0 packed tables"), "{error}");
    }
}
