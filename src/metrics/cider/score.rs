//! CIDEr-D's per-image sums from captions as token ids, in `cider_scorer.py`'s float order.
//!
//! Per image and order `n`, pycocoevalcap adds over the references
//! `sim_n = penalty * sum(min(h, r) * r) / (|h| * |r|)`: `h` and `r` are the caption's and the
//! reference's TF-IDF weights of the caption's n-grams (in order of first occurrence, 0 where
//! the reference lacks one), `|h|` and `|r|` the vectors' norms (the division skipped where
//! either is 0), and `penalty = e ** (-(delta ** 2) / (2 * sigma ** 2))` with `delta` the
//! difference of the two captions' *bigram* counts (its `length` counts order 2, `n == 1`
//! 0-based). The norms square each weight with `pow(w, 2)`, which is libm's `pow` (numpy's
//! scalar power), not `w * w`: the two differ in the last bit for about one weight in 1,500.
//! The mean over the orders, the division by the number of references and the factor 10 are
//! numpy operations on the sums, done where numpy is ([`order_sums`] returns the sums).

use crate::count::ngrams::{empty, prefix_id, NgramIds, ABSENT};
use crate::count::{BagBuilder, NgramBag};
use crate::error::{Error, Result};
use crate::parallel;

/// How the sums are taken.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CiderSettings {
    /// N-gram orders counted, `1..=orders` (pycocoevalcap always counts 4).
    pub orders: usize,
    /// Sums per image (pycocoevalcap's `n`, which its mean divides by): the orders above
    /// `orders` are 0.
    pub columns: usize,
    /// `2 * sigma ** 2`, the length penalty's denominator, as Python computes it.
    pub two_sigma_squared: f64,
}

impl CiderSettings {
    /// Checks the settings.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for no orders, fewer columns than orders, or a
    /// denominator that is not a positive finite number.
    pub fn validate(&self) -> Result<()> {
        if self.orders == 0 || self.columns < self.orders {
            return Err(Error::invalid_option(format!(
                "CIDEr-D needs 1 or more n-gram orders and at least as many columns, got \
                 orders={} and columns={}",
                self.orders, self.columns
            )));
        }
        if !(self.two_sigma_squared.is_finite() && self.two_sigma_squared > 0.0) {
            return Err(Error::invalid_option(format!(
                "CIDEr-D's sigma must be a nonzero finite number, got 2 * sigma**2 = {}",
                self.two_sigma_squared
            )));
        }
        Ok(())
    }
}

/// Captions as token ids (the shape of [`super::CiderCaptions`], borrowed): per image its
/// caption, then its references.
#[derive(Debug, Clone, Copy)]
pub struct CaptionIds<'a> {
    /// Every caption's token ids, caption after caption.
    pub ids: &'a [u32],
    /// Where each caption's ids end.
    pub caption_ends: &'a [usize],
    /// Where each image's captions end.
    pub image_ends: &'a [usize],
}

impl CaptionIds<'_> {
    /// Checks that the ends run forward to the ends of what they index and that every image
    /// has a caption and at least one reference.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidInput`] naming the first problem.
    pub fn validate(&self) -> Result<()> {
        let forward = |ends: &[usize], last: usize, what: &str| {
            let mut start = 0;
            for (i, &end) in ends.iter().enumerate() {
                if end < start || end > last {
                    return Err(Error::invalid_input(format!(
                        "CIDEr-D statistics: {what} {i} ends at {end}, outside {start}..={last}"
                    )));
                }
                start = end;
            }
            if start == last {
                Ok(())
            } else {
                Err(Error::invalid_input(format!(
                    "CIDEr-D statistics: the {what}s end at {start}, not at {last}"
                )))
            }
        };
        forward(self.caption_ends, self.ids.len(), "caption")?;
        forward(self.image_ends, self.caption_ends.len(), "image")?;
        let mut start = 0;
        for (i, &end) in self.image_ends.iter().enumerate() {
            if end < start + 2 {
                return Err(Error::invalid_input(format!(
                    "CIDEr-D statistics: image {i} needs its caption and at least one reference"
                )));
            }
            start = end;
        }
        Ok(())
    }

    fn caption(&self, c: usize) -> &[u32] {
        let start = c
            .checked_sub(1)
            .and_then(|p| self.caption_ends.get(p))
            .copied()
            .unwrap_or(0);
        let end = self.caption_ends.get(c).copied().unwrap_or(start);
        self.ids.get(start..end).unwrap_or(&[])
    }

    /// The captions of image `i`: its caption's index, and the end of its references.
    fn image(&self, i: usize) -> (usize, usize) {
        let start = i
            .checked_sub(1)
            .and_then(|p| self.image_ends.get(p))
            .copied()
            .unwrap_or(0);
        (start, self.image_ends.get(i).copied().unwrap_or(start))
    }
}

/// `pow(x, 2)` as numpy's scalar power computes it: libm's `pow`, which is not always `x * x`
/// (`black_box` keeps the compiler from turning the one into the other).
#[inline]
fn numpy_square(x: f64) -> f64 {
    x.powf(std::hint::black_box(2.0))
}

/// Python's `math.e ** x`: libm's `pow(e, x)`, not `exp(x)` (they differ in the last bit).
#[inline]
fn e_to_the(x: f64) -> f64 {
    std::hint::black_box(std::f64::consts::E).powf(x)
}

/// One image's captions counted under ids local to the image, in a builder cleared for it so
/// its tables stay small and in cache: `bags` (reused) become its caption's bag, then its
/// references'.
fn count_image(
    builder: &mut BagBuilder,
    bags: &mut Vec<NgramBag>,
    captions: &CaptionIds<'_>,
    i: usize,
    orders: usize,
) {
    let (caption, end) = captions.image(i);
    builder.clear();
    bags.resize_with(end - caption, NgramBag::default);
    for (c, bag) in (caption..end).zip(bags.iter_mut()) {
        bag.clear();
        builder.add(bag, captions.caption(c), 0, orders);
    }
}

/// How the corpus's n-grams are split into parts that are counted apart: by a hash of their
/// first token. An n-gram's prefix starts with the same token, so each part maps its
/// n-grams onto ids of its own without the others; and a part's table, unlike one table of
/// the whole corpus, stays in cache.
#[derive(Debug, Clone, Copy)]
struct Parts {
    /// A power of two.
    count: usize,
    /// `32 - log2(count)`: the hash's top bits pick the part.
    shift: u32,
}

impl Parts {
    /// Enough parts that each holds about 2^17 n-grams of the `tokens` tokens' `orders`
    /// orders, up to 64 (16 to 256 parts timed the same on 40,504 COCO-shaped images).
    fn for_tokens(tokens: usize, orders: usize) -> Self {
        Self::new(
            (tokens.saturating_mul(orders) >> 17)
                .next_power_of_two()
                .clamp(1, 64),
        )
    }

    /// `count` parts, a power of two.
    fn new(count: usize) -> Self {
        Self {
            count,
            shift: 32 - count.trailing_zeros(),
        }
    }

    /// The part of an n-gram whose first token is `first`.
    #[inline]
    fn of(self, first: u32) -> usize {
        // Fibonacci hashing spreads the frequent tokens' small ids over the parts.
        let hash = u64::from(first.wrapping_mul(0x9E37_79B9));
        usize::try_from(hash >> self.shift).unwrap_or(0)
    }
}

/// An n-gram of [`ChunkNgrams::entries`]: `(prefix, last)`.
type Entry = (u32, u32);

/// A prefix field with no prefix: the n-gram is a unigram.
const NO_PREFIX: u32 = u32::MAX >> 1;
/// The prefix field's top bit: a reference of the image holds the n-gram.
const IN_REFERENCE: u32 = 1 << 31;

/// One chunk of images' n-grams (each image's under ids of its own), grouped by part.
#[derive(Debug, Default)]
struct ChunkNgrams {
    /// Part `p`'s n-grams are `entries[starts[p]..starts[p + 1]]`, in order of the images and
    /// their local ids, each `(prefix, last)`: the prefix's rank among them ([`NO_PREFIX`]
    /// for a unigram), with [`IN_REFERENCE`] set where a reference of the image holds the
    /// n-gram, and its last token. [`Part::count`] replaces the last token with the n-gram's
    /// id in the part's table, then [`document_frequencies`] that with its document frequency.
    entries: Vec<Entry>,
    starts: Vec<usize>,
    /// Where the chunk's n-grams are in `entries`, image after image, local id after local id.
    order: Vec<u32>,
}

/// What a thread reuses from chunk to chunk while splitting them.
#[derive(Default)]
struct SplitScratch {
    builder: BagBuilder,
    bags: Vec<NgramBag>,
    in_reference: Vec<bool>,
    /// Per local id of the image at hand: its n-gram's first token, and its rank in its part.
    first: Vec<u32>,
    ranked: Vec<u32>,
    /// The chunk's n-grams in order: their part and entry.
    parted: Vec<(usize, Entry)>,
}

/// The n-grams of the images `images` (counted one image at a time under ids of its own), by
/// part.
///
/// # Errors
/// [`crate::ErrorKind::InvalidInput`] for a chunk with 2^31 n-grams or more in all.
fn split_chunk(
    scratch: &mut SplitScratch,
    captions: &CaptionIds<'_>,
    images: std::ops::Range<usize>,
    parts: Parts,
    orders: usize,
) -> Result<ChunkNgrams> {
    let SplitScratch {
        builder,
        bags,
        in_reference,
        first,
        ranked,
        parted,
    } = scratch;
    let mut ranks = vec![0u32; parts.count];
    parted.clear();
    for i in images {
        count_image(builder, bags, captions, i, orders);
        let keys = builder.keys();
        in_reference.clear();
        in_reference.resize(keys.len(), false);
        for bag in bags.get(1..).unwrap_or(&[]) {
            for order in 1..=bag.orders() {
                for &(id, _) in bag.entries(order) {
                    if let Some(flag) = in_reference.get_mut(id as usize) {
                        *flag = true;
                    }
                }
            }
        }
        first.clear();
        ranked.clear();
        for (&(prefix, last), &held) in keys.iter().zip(in_reference.iter()) {
            // A prefix is a marker (a unigram, whose first token is its last) or an n-gram
            // counted before its extension (a smaller local id), in the same part.
            let prefix = prefix_id(prefix).map(|p| p as usize);
            let head = prefix.and_then(|p| first.get(p).copied()).unwrap_or(last);
            first.push(head);
            let part = parts.of(head);
            let rank = ranks.get(part).copied().unwrap_or(0);
            ranked.push(rank);
            if let Some(r) = ranks.get_mut(part) {
                *r += 1;
            }
            let prefix_rank =
                prefix.map_or(NO_PREFIX, |p| ranked.get(p).copied().unwrap_or(NO_PREFIX));
            let flag = if held { IN_REFERENCE } else { 0 };
            parted.push((part, (prefix_rank | flag, last)));
        }
    }
    // Below 2^31 in all, every rank fits beside the flag and every position in a `u32`.
    if parted.len() >= NO_PREFIX as usize {
        return Err(Error::invalid_input(
            "CIDEr-D: 2^31 n-grams or more in one chunk of images; score fewer captions at a \
             time",
        ));
    }
    // A counting sort by part, keeping each part's order.
    let mut starts = Vec::with_capacity(parts.count + 1);
    let mut at = 0;
    for &count in &ranks {
        starts.push(at);
        at += count as usize;
    }
    starts.push(at);
    let mut next = starts.clone();
    let mut entries = vec![(0, 0); at];
    let mut order = Vec::with_capacity(at);
    for &(part, entry) in parted.iter() {
        if let Some(slot) = next.get_mut(part) {
            if let Some(e) = entries.get_mut(*slot) {
                *e = entry;
            }
            order.push(u32::try_from(*slot).unwrap_or(NO_PREFIX));
            *slot += 1;
        }
    }
    Ok(ChunkNgrams {
        entries,
        starts,
        order,
    })
}

/// One part's n-grams over the whole corpus: ids shared by all images, and each id's document
/// frequency, the number of images whose references hold it.
#[derive(Debug, Default)]
struct Part {
    table: NgramIds,
    df: Vec<u32>,
}

impl Part {
    /// Maps the part's n-grams of every chunk (`chunks`, in order) onto its table, each
    /// entry's last token replaced with the n-gram's id, and counts each id's document
    /// frequency (an image's local ids are distinct, so an image counts once).
    fn count(&mut self, chunks: &mut [&mut [Entry]]) {
        for entries in chunks.iter_mut() {
            for k in 0..entries.len() {
                let Some(&(prefix, last)) = entries.get(k) else {
                    continue;
                };
                // The prefix's entry, counted before it, holds the prefix's id by now.
                let shared_prefix = match prefix & !IN_REFERENCE {
                    // A unigram: every caption is counted in symbol space 0 (`count_image`).
                    NO_PREFIX => empty(0),
                    rank => entries.get(rank as usize).map_or(ABSENT, |e| e.1),
                };
                let id = self.table.intern(shared_prefix, last);
                if self.df.len() < self.table.len() {
                    self.df.resize(self.table.len(), 0);
                }
                if let (true, Some(count)) =
                    (prefix & IN_REFERENCE != 0, self.df.get_mut(id as usize))
                {
                    *count += 1;
                }
                if let Some(entry) = entries.get_mut(k) {
                    entry.1 = id;
                }
            }
        }
    }
}

/// Counts the document frequencies of the corpus's n-grams, one part at a time on `workers`
/// threads, and leaves each chunk's entries holding theirs (in place of the last token).
///
/// # Errors
/// Cancellation.
fn document_frequencies(chunks: &mut [ChunkNgrams], parts: Parts, workers: i64) -> Result<()> {
    // Each part's entries of every chunk, as slices no other part touches.
    let mut work: Vec<(Part, Vec<&mut [Entry]>)> = (0..parts.count)
        .map(|_| (Part::default(), Vec::with_capacity(chunks.len())))
        .collect();
    for chunk in chunks.iter_mut() {
        let mut rest = chunk.entries.as_mut_slice();
        let lengths = chunk.starts.iter().zip(chunk.starts.iter().skip(1));
        for ((_, slices), (start, end)) in work.iter_mut().zip(lengths) {
            let Some((here, after)) =
                std::mem::take(&mut rest).split_at_mut_checked(end.saturating_sub(*start))
            else {
                break;
            };
            slices.push(here);
            rest = after;
        }
    }
    parallel::for_each_mut_init(
        &mut work,
        workers,
        || (),
        |(), (part, slices)| {
            part.count(slices);
            for entries in slices.iter_mut() {
                for entry in entries.iter_mut() {
                    entry.1 = part.df.get(entry.1 as usize).copied().unwrap_or(0);
                }
            }
            Ok(())
        },
    )
}

/// A caption's TF-IDF weights per order, in `bag`'s order, and their norms. `weights` hold
/// each local id's IDF and its [`numpy_square`], the square of a weight whose n-gram occurs
/// once (most do, and `pow` is the sums' costliest step).
fn norms(bag: &NgramBag, weights: &[(f64, f64)], orders: usize) -> Vec<f64> {
    (1..=orders)
        .map(|order| {
            let mut sum = 0.0;
            for &(id, tf) in bag.entries(order) {
                let (w, squared) = weights.get(id as usize).copied().unwrap_or_default();
                // `1.0 * w` is `w`: the same `pow` of the same value.
                sum += if tf == 1 {
                    squared
                } else {
                    numpy_square(f64::from(tf) * w)
                };
            }
            sum.sqrt()
        })
        .collect()
}

/// One image's sums over its references of each order's `sim_n`; `weights` are the IDF of
/// its local ids with their squares ([`norms`]), `reference_weights` zeros at least as long,
/// left zero.
fn image_sums(
    bags: &[NgramBag],
    weights: &[(f64, f64)],
    reference_weights: &mut [f64],
    settings: CiderSettings,
) -> Vec<f64> {
    let mut sums = vec![0.0f64; settings.columns];
    let Some((hypothesis, references)) = bags.split_first() else {
        return sums;
    };
    let hypothesis_norms = norms(hypothesis, weights, settings.orders);
    for reference in references {
        for order in 1..=settings.orders {
            for &(id, tf) in reference.entries(order) {
                let w = weights.get(id as usize).map_or(0.0, |w| w.0);
                if let Some(slot) = reference_weights.get_mut(id as usize) {
                    *slot = f64::from(tf) * w;
                }
            }
        }
        let reference_norms = norms(reference, weights, settings.orders);
        // Lengths count bigrams: far below 2^53, so exact as floats.
        #[allow(clippy::cast_precision_loss)]
        let delta = hypothesis.total(2) as f64 - reference.total(2) as f64;
        let penalty = e_to_the(-(delta * delta) / settings.two_sigma_squared);
        let pairs = hypothesis_norms.iter().zip(&reference_norms);
        for ((order, sum), (&h_norm, &r_norm)) in (1..).zip(sums.iter_mut()).zip(pairs) {
            let mut value = 0.0;
            for &(id, tf) in hypothesis.entries(order) {
                let w = weights.get(id as usize).map_or(0.0, |w| w.0);
                let h = f64::from(tf) * w;
                let r = reference_weights.get(id as usize).copied().unwrap_or(0.0);
                // Python's min(h, r): h unless r is smaller.
                let clipped = if r < h { r } else { h };
                value += clipped * r;
            }
            if h_norm != 0.0 && r_norm != 0.0 {
                value /= h_norm * r_norm;
            }
            *sum += value * penalty;
        }
        for order in 1..=settings.orders {
            for &(id, _) in reference.entries(order) {
                if let Some(slot) = reference_weights.get_mut(id as usize) {
                    *slot = 0.0;
                }
            }
        }
    }
    sums
}

/// What a thread reuses from image to image while taking the sums.
#[derive(Default)]
struct Scratch {
    builder: BagBuilder,
    bags: Vec<NgramBag>,
    weights: Vec<(f64, f64)>,
    reference_weights: Vec<f64>,
}

/// Images per task of [`order_sums`]: enough tasks to share out over the threads, up to 64
/// images each.
fn images_per_task(images: usize) -> usize {
    (images / 256).clamp(1, 64)
}

/// Per image, the sums over its references of each order's `sim_n` (row-major, `columns` per
/// image). `log_table[k]` is `numpy.log(max(1.0, k))` for `k` up to the number of images at
/// least (the IDF's logs, and `log_table[images]` its `ref_len`).
///
/// Three passes, each on `workers` threads:
/// 1. each chunk of images has its captions counted one image at a time under ids of the
///    image's own (in tables that fit in cache), and keeps its n-grams grouped into parts by
///    their first token (an n-gram's prefix starts with the same token);
/// 2. each part maps its n-grams of every chunk onto ids of the corpus and counts their
///    document frequencies, in a table that fits in cache;
/// 3. each image is counted again, the same way, and its sums taken over its own small
///    arrays. Counting twice costs less than keeping every caption's bag in memory. The
///    square of a weight whose n-gram occurs once is taken once per document frequency.
///
/// # Errors
/// The captions' or settings' [`crate::ErrorKind::InvalidInput`] or `InvalidOption`; a
/// `log_table` too short; cancellation.
pub fn order_sums(
    captions: &CaptionIds<'_>,
    log_table: &[f64],
    settings: CiderSettings,
    workers: i64,
) -> Result<Vec<f64>> {
    settings.validate()?;
    captions.validate()?;
    let images = captions.image_ends.len();
    let Some(&ref_len) = log_table.get(images) else {
        return Err(Error::invalid_input(format!(
            "CIDEr-D needs the logs of 0..={images}, got {} values",
            log_table.len()
        )));
    };
    let per_task = images_per_task(images);
    let tasks: Vec<std::ops::Range<usize>> = (0..images)
        .step_by(per_task)
        .map(|first| first..images.min(first + per_task))
        .collect();
    let parts = Parts::for_tokens(captions.ids.len(), settings.orders);
    let mut chunks =
        parallel::try_map_init(&tasks, workers, SplitScratch::default, |scratch, images| {
            split_chunk(scratch, captions, images.clone(), parts, settings.orders)
        })?;
    document_frequencies(&mut chunks, parts, workers)?;
    // Per document frequency (at most the number of images): the IDF and its square.
    let idf_of_df: Vec<(f64, f64)> = log_table
        .iter()
        .take(images + 1)
        .map(|&log_df| {
            let idf = ref_len - log_df;
            (idf, numpy_square(idf))
        })
        .collect();
    let jobs: Vec<(&std::ops::Range<usize>, &ChunkNgrams)> = tasks.iter().zip(&chunks).collect();
    let chunk_sums = parallel::map_init(
        &jobs,
        workers,
        Scratch::default,
        |scratch, &(images, chunk)| {
            let Scratch {
                builder,
                bags,
                weights,
                reference_weights,
            } = scratch;
            let mut sums = Vec::with_capacity(images.len() * settings.columns);
            let mut order = chunk.order.iter();
            for i in images.clone() {
                // The same counting as the first pass: the same local ids, in the same order.
                count_image(builder, bags, captions, i, settings.orders);
                weights.clear();
                for &at in order.by_ref().take(builder.ids()) {
                    let df = chunk.entries.get(at as usize).map_or(0, |e| e.1);
                    // An n-gram's df is at most the number of images: it is in the table.
                    let idf = idf_of_df.get(df as usize).copied();
                    weights.push(idf.unwrap_or((f64::NAN, f64::NAN)));
                }
                if reference_weights.len() < weights.len() {
                    reference_weights.resize(weights.len(), 0.0);
                }
                sums.extend(image_sums(bags, weights, reference_weights, settings));
            }
            sums
        },
    )?;
    Ok(chunk_sums.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETTINGS: CiderSettings = CiderSettings {
        orders: 4,
        columns: 4,
        two_sigma_squared: 72.0,
    };

    fn logs(n: usize) -> Vec<f64> {
        (0..=n).map(|k| (k.max(1) as f64).ln()).collect()
    }

    #[test]
    fn libm_not_shortcuts() {
        // Values Python gives: math.pow(x, 2.0) and math.e ** x.
        let x = 19.255_170_834_324_42_f64;
        assert_eq!(numpy_square(x), 370.761_603_859_017_84);
        assert_ne!(x * x, 370.761_603_859_017_84);
        assert_eq!(e_to_the(-9.0 / 72.0), 0.882_496_902_584_595_5);
    }

    #[test]
    fn identical_captions_have_cosine_one() {
        // Two images, so the shared n-grams have a positive IDF against the other image's.
        let ids = [0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5];
        let (caption_ends, image_ends) = ([3, 6, 9, 12], [2, 4]);
        let captions = CaptionIds {
            ids: &ids,
            caption_ends: &caption_ends,
            image_ends: &image_ends,
        };
        let sums = order_sums(&captions, &logs(2), SETTINGS, 1).unwrap();
        // Orders 1..3 match exactly (cosine 1, up to the rounding of the norms); a 3-token
        // caption has no 4-gram.
        for (i, sum) in sums.iter().enumerate() {
            let expected = if i % 4 == 3 { 0.0 } else { 1.0 };
            assert!((sum - expected).abs() < 1e-15, "{sums:?}");
        }
    }

    #[test]
    fn one_image_has_no_idf() {
        // log(1) - log(1) = 0: every weight is 0, so every norm and sum is 0.
        let ids = [0, 1, 0, 1];
        let captions = CaptionIds {
            ids: &ids,
            caption_ends: &[2, 4],
            image_ends: &[2],
        };
        let sums = order_sums(&captions, &logs(1), SETTINGS, 1).unwrap();
        assert_eq!(sums, [0.0; 4]);
    }

    /// Images of random captions over a small vocabulary (xorshift, so n-grams recur), with
    /// 1 to 5 references each.
    fn random_captions(images: usize) -> (Vec<u32>, Vec<usize>, Vec<usize>) {
        let mut state = 0x2545_F491_4F6C_DD1D_u64;
        let mut next = move |below: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % below
        };
        let (mut ids, mut caption_ends, mut image_ends) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..images {
            for _ in 0..2 + next(5) {
                for _ in 0..next(9) {
                    ids.push(u32::try_from(next(40)).unwrap());
                }
                caption_ends.push(ids.len());
            }
            image_ends.push(caption_ends.len());
        }
        (ids, caption_ends, image_ends)
    }

    #[test]
    fn parts_count_each_image_once_whatever_the_split() {
        use std::collections::{HashMap, HashSet};
        let (ids, caption_ends, image_ends) = random_captions(300);
        let captions = CaptionIds {
            ids: &ids,
            caption_ends: &caption_ends,
            image_ends: &image_ends,
        };
        // The yardstick: per n-gram (as tokens), the images whose references hold it.
        let mut holders: HashMap<Vec<u32>, HashSet<usize>> = HashMap::new();
        for i in 0..image_ends.len() {
            let (caption, end) = captions.image(i);
            for c in caption + 1..end {
                let tokens = captions.caption(c);
                for n in 1..=4 {
                    for gram in tokens.windows(n) {
                        holders.entry(gram.to_vec()).or_default().insert(i);
                    }
                }
            }
        }
        for (count, workers) in [(1, 1), (2, 2), (8, -1), (256, 2)] {
            let parts = Parts::new(count);
            let per_task = 7;
            let tasks: Vec<_> = (0..300)
                .step_by(per_task)
                .map(|i| i..300.min(i + per_task))
                .collect();
            let mut scratch = SplitScratch::default();
            let mut chunks: Vec<ChunkNgrams> = tasks
                .iter()
                .map(|images| {
                    split_chunk(&mut scratch, &captions, images.clone(), parts, 4).unwrap()
                })
                .collect();
            document_frequencies(&mut chunks, parts, workers).unwrap();
            let mut builder = BagBuilder::default();
            let mut bags = Vec::new();
            for (images, chunk) in tasks.iter().zip(&chunks) {
                let mut order = chunk.order.iter();
                for i in images.clone() {
                    count_image(&mut builder, &mut bags, &captions, i, 4);
                    // Each local id's n-gram as tokens, from its key's chain of prefixes.
                    let mut grams: Vec<Vec<u32>> = Vec::new();
                    for &(prefix, last) in builder.keys() {
                        let mut gram =
                            prefix_id(prefix).map_or_else(Vec::new, |p| grams[p as usize].clone());
                        gram.push(last);
                        grams.push(gram);
                    }
                    assert_eq!(grams.len(), builder.ids());
                    for gram in &grams {
                        let at = *order.next().unwrap() as usize;
                        let df = holders.get(gram).map_or(0, HashSet::len);
                        assert_eq!(chunk.entries[at].1 as usize, df, "{gram:?} {count}");
                    }
                }
                assert!(order.next().is_none());
            }
        }
        let sums = order_sums(&captions, &logs(300), SETTINGS, 1).unwrap();
        for workers in [2, 3, -1] {
            assert_eq!(
                order_sums(&captions, &logs(300), SETTINGS, workers).unwrap(),
                sums
            );
        }
    }

    #[test]
    fn bad_statistics_are_errors() {
        let ids = [0, 1];
        let image = |caption_ends: &[usize], image_ends: &[usize]| {
            let captions = CaptionIds {
                ids: &ids,
                caption_ends,
                image_ends,
            };
            order_sums(&captions, &logs(3), SETTINGS, 1)
                .unwrap_err()
                .message()
                .to_owned()
        };
        assert!(image(&[1, 3], &[2]).contains("caption 1 ends at 3"));
        assert!(image(&[1], &[1]).contains("the captions end at 1, not at 2"));
        assert!(image(&[1, 2], &[1, 2]).contains("image 0 needs its caption"));
        let captions = CaptionIds {
            ids: &ids,
            caption_ends: &[1, 2],
            image_ends: &[2],
        };
        let err = order_sums(&captions, &[0.0], SETTINGS, 1).unwrap_err();
        assert!(err.message().contains("logs of 0..=1"));
        let bad = CiderSettings {
            two_sigma_squared: 0.0,
            ..SETTINGS
        };
        assert!(order_sums(&captions, &logs(1), bad, 1).is_err());
    }
}
