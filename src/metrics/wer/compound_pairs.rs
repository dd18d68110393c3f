//! The Open ASR Leaderboard's compound-pair pass (`normalizer/eval_utils.py`'s
//! `normalize_compound_pairs`, run on its multilingual path before kaldialign): a reference
//! and a hypothesis are aligned word by word with Python's `difflib.SequenceMatcher(None, ref,
//! hyp)`, and where a differing region spells the same characters on both sides once its
//! words are joined ("white paper" / "whitepaper"), both sides become the joined word.
//!
//! `SequenceMatcher` is reproduced exactly, with its "autojunk" rule (in a hypothesis of 200
//! words or more, a word making up more than 1% of it + 1 does not start a match), since the
//! matches it picks decide which regions are compared.

use rustc_hash::FxHashMap;

/// A `difflib` opcode: (equal, ref range, hyp range); `equal` false for replace, delete and
/// insert.
type Region = (bool, std::ops::Range<usize>, std::ops::Range<usize>);

/// `SequenceMatcher(None, a, b).get_opcodes()` for sequences of ids.
fn opcodes(a: &[u32], b: &[u32]) -> Vec<Region> {
    let mut b2j: FxHashMap<u32, Vec<usize>> = FxHashMap::default();
    for (j, &x) in b.iter().enumerate() {
        b2j.entry(x).or_default().push(j);
    }
    if b.len() >= 200 {
        let most = b.len() / 100 + 1;
        b2j.retain(|_, js| js.len() <= most);
    }
    let mut blocks: Vec<(usize, usize, usize)> = Vec::new();
    let mut queue = vec![(0, a.len(), 0, b.len())];
    while let Some((alo, ahi, blo, bhi)) = queue.pop() {
        let (i, j, k) = longest_match(a, b, &b2j, (alo, ahi), (blo, bhi));
        if k > 0 {
            blocks.push((i, j, k));
            if alo < i && blo < j {
                queue.push((alo, i, blo, j));
            }
            if i + k < ahi && j + k < bhi {
                queue.push((i + k, ahi, j + k, bhi));
            }
        }
    }
    blocks.sort_unstable();
    // Adjacent blocks merged, then the sentinel.
    let mut merged: Vec<(usize, usize, usize)> = Vec::new();
    for (i, j, k) in blocks {
        match merged.last_mut() {
            Some(last) if last.0 + last.2 == i && last.1 + last.2 == j => last.2 += k,
            _ => merged.push((i, j, k)),
        }
    }
    merged.push((a.len(), b.len(), 0));
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    for (ai, bj, size) in merged {
        if i < ai || j < bj {
            out.push((false, i..ai, j..bj));
        }
        (i, j) = (ai + size, bj + size);
        if size > 0 {
            out.push((true, ai..i, bj..j));
        }
    }
    out
}

/// `find_longest_match(alo, ahi, blo, bhi)`: the longest block of `b2j` matches, earliest in
/// `a` then in `b`, extended by equal words either side (a popular word is not in `b2j` but
/// still extends a match; there is no junk).
fn longest_match(
    a: &[u32],
    b: &[u32],
    b2j: &FxHashMap<u32, Vec<usize>>,
    (alo, ahi): (usize, usize),
    (blo, bhi): (usize, usize),
) -> (usize, usize, usize) {
    let (mut besti, mut bestj, mut bestsize) = (alo, blo, 0);
    let mut j2len: FxHashMap<usize, usize> = FxHashMap::default();
    let mut next: FxHashMap<usize, usize> = FxHashMap::default();
    for i in alo..ahi {
        next.clear();
        if let Some(js) = a.get(i).and_then(|x| b2j.get(x)) {
            for &j in js {
                if j < blo {
                    continue;
                }
                if j >= bhi {
                    break;
                }
                let k = j
                    .checked_sub(1)
                    .and_then(|p| j2len.get(&p))
                    .copied()
                    .unwrap_or(0)
                    + 1;
                next.insert(j, k);
                if k > bestsize {
                    (besti, bestj, bestsize) = (i + 1 - k, j + 1 - k, k);
                }
            }
        }
        std::mem::swap(&mut j2len, &mut next);
    }
    let same = |i: usize, j: usize| a.get(i).is_some() && a.get(i) == b.get(j);
    while besti > alo && bestj > blo && same(besti - 1, bestj - 1) {
        (besti, bestj, bestsize) = (besti - 1, bestj - 1, bestsize + 1);
    }
    while besti + bestsize < ahi
        && bestj + bestsize < bhi
        && same(besti + bestsize, bestj + bestsize)
    {
        bestsize += 1;
    }
    (besti, bestj, bestsize)
}

/// One side's words after the pass: borrowed, or a joined compound (owned).
pub type JoinedWords<'w> = Vec<std::borrow::Cow<'w, [u8]>>;

/// The pass on one pair: the words of each side, a joined compound as one owned word. `ids`
/// are the words' ids (equal words, equal ids).
pub fn join_compound_pairs<'w>(
    reference: &[&'w [u8]],
    hypothesis: &[&'w [u8]],
    ref_ids: &[u32],
    hyp_ids: &[u32],
) -> (JoinedWords<'w>, JoinedWords<'w>) {
    use std::borrow::Cow;
    let mut new_ref: Vec<Cow<'w, [u8]>> = Vec::with_capacity(reference.len());
    let mut new_hyp: Vec<Cow<'w, [u8]>> = Vec::with_capacity(hypothesis.len());
    let words = |side: &[&'w [u8]], r: &std::ops::Range<usize>| -> Vec<&'w [u8]> {
        side.get(r.clone()).unwrap_or_default().to_vec()
    };
    for (equal, r, h) in opcodes(ref_ids, hyp_ids) {
        let (rw, hw) = (words(reference, &r), words(hypothesis, &h));
        if !equal {
            let (rc, hc) = (rw.concat(), hw.concat());
            if rc == hc {
                new_ref.push(Cow::Owned(rc));
                new_hyp.push(Cow::Owned(hc));
                continue;
            }
        }
        new_ref.extend(rw.into_iter().map(Cow::Borrowed));
        new_hyp.extend(hw.into_iter().map(Cow::Borrowed));
    }
    (new_ref, new_hyp)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(words: &[&str], table: &mut Vec<String>) -> Vec<u32> {
        words
            .iter()
            .map(|w| {
                let at = table.iter().position(|t| t == w).unwrap_or_else(|| {
                    table.push((*w).to_owned());
                    table.len() - 1
                });
                u32::try_from(at).unwrap_or(0)
            })
            .collect()
    }

    #[test]
    fn joins_compounds() {
        let r = ["the", "white", "paper", "is", "out"];
        let h = ["the", "whitepaper", "is", "out"];
        let mut table = Vec::new();
        let (ri, hi) = (ids(&r, &mut table), ids(&h, &mut table));
        let rb: Vec<&[u8]> = r.iter().map(|w| w.as_bytes()).collect();
        let hb: Vec<&[u8]> = h.iter().map(|w| w.as_bytes()).collect();
        let (nr, nh) = join_compound_pairs(&rb, &hb, &ri, &hi);
        let text = |v: &[std::borrow::Cow<[u8]>]| {
            v.iter()
                .map(|w| String::from_utf8_lossy(w).into_owned())
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(text(&nr), "the whitepaper is out");
        assert_eq!(text(&nh), "the whitepaper is out");
        assert_eq!(
            opcodes(&[0, 1, 2], &[0, 3, 2]),
            vec![(true, 0..1, 0..1), (false, 1..2, 1..2), (true, 2..3, 2..3)]
        );
    }
}
