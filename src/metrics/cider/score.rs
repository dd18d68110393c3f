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

use crate::count::ngrams::{prefix_id, NgramIds, ABSENT};
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

/// An image's local ids (as [`count_image`] numbers them): each one's n-gram as
/// `(prefix, last)` ([`BagBuilder::keys`]) and whether a reference holds it.
struct LocalNgrams {
    keys: Vec<(u32, u32)>,
    in_reference: Vec<bool>,
}

fn local_ngrams(builder: &BagBuilder, bags: &[NgramBag]) -> LocalNgrams {
    let keys = builder.keys();
    let mut in_reference = vec![false; keys.len()];
    for bag in bags.get(1..).unwrap_or(&[]) {
        for order in 1..=bag.orders() {
            for &(id, _) in bag.entries(order) {
                if let Some(flag) = in_reference.get_mut(id as usize) {
                    *flag = true;
                }
            }
        }
    }
    LocalNgrams { keys, in_reference }
}

/// Keys looked ahead by [`document_frequencies`]'s prefetch.
const PREFETCH_AHEAD: usize = 8;

/// Maps every image's local ids onto ids shared by all images (the corpus's n-grams), and
/// counts each shared id's document frequency: the number of images whose references hold
/// it (an image's local ids are distinct, so each counts once). Returns the images' maps and
/// the frequencies.
fn document_frequencies(images: &[LocalNgrams]) -> (Vec<Vec<u32>>, Vec<u32>) {
    let mut shared = NgramIds::default();
    let mut df: Vec<u32> = Vec::new();
    let maps = images
        .iter()
        .map(|image| {
            let mut map: Vec<u32> = Vec::with_capacity(image.keys.len());
            // A prefix is a marker, or an n-gram counted before its extension (a smaller
            // local id): mapped once its own key has been.
            let shared_prefix = |map: &[u32], prefix: u32| {
                prefix_id(prefix).map_or(Some(prefix), |p| map.get(p as usize).copied())
            };
            let pairs = image.keys.iter().zip(&image.in_reference);
            for (k, (&(prefix, last), &in_reference)) in pairs.enumerate() {
                // The shared table is far larger than the cache: each key's slot is asked for
                // a few keys ahead, where its prefix is mapped already (always, for unigrams).
                if let Some(&(p, l)) = image.keys.get(k + PREFETCH_AHEAD) {
                    if let Some(p) = shared_prefix(&map, p) {
                        shared.prefetch(p, l);
                    }
                }
                let prefix = shared_prefix(&map, prefix).unwrap_or(ABSENT);
                let id = shared.intern(prefix, last);
                map.push(id);
                if df.len() < shared.len() {
                    df.resize(shared.len(), 0);
                }
                if let (true, Some(count)) = (in_reference, df.get_mut(id as usize)) {
                    *count += 1;
                }
            }
            map
        })
        .collect();
    (maps, df)
}

/// A caption's TF-IDF weights per order, in `bag`'s order, and their norms.
fn norms(bag: &NgramBag, weights: &[f64], orders: usize) -> Vec<f64> {
    (1..=orders)
        .map(|order| {
            let mut sum = 0.0;
            for &(id, tf) in bag.entries(order) {
                let w = weights.get(id as usize).copied().unwrap_or(0.0);
                sum += numpy_square(f64::from(tf) * w);
            }
            sum.sqrt()
        })
        .collect()
}

/// One image's sums over its references of each order's `sim_n`; `weights` are the IDF of
/// its local ids, `reference_weights` zeros at least as long, left zero.
fn image_sums(
    bags: &[NgramBag],
    weights: &[f64],
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
                let w = weights.get(id as usize).copied().unwrap_or(0.0);
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
                let w = weights.get(id as usize).copied().unwrap_or(0.0);
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

/// What a thread reuses from image to image.
#[derive(Default)]
struct Scratch {
    builder: BagBuilder,
    bags: Vec<NgramBag>,
    weights: Vec<f64>,
    reference_weights: Vec<f64>,
}

/// Per image, the sums over its references of each order's `sim_n` (row-major, `columns` per
/// image). `log_table[k]` is `numpy.log(max(1.0, k))` for `k` up to the number of images at
/// least (the IDF's logs, and `log_table[images]` its `ref_len`).
///
/// Three passes: each image's captions counted under ids of its own (in parallel, in tables
/// that fit in cache), keeping only its n-grams' keys; one serial pass mapping those onto the
/// corpus's ids and counting the document frequencies; then each image counted again and its
/// sums taken (in parallel, over its own small arrays). Counting twice costs less than
/// keeping every caption's bag in memory.
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
    let image_indices: Vec<usize> = (0..images).collect();
    let local = parallel::map_init(
        &image_indices,
        workers,
        || (BagBuilder::default(), Vec::new()),
        |(builder, bags), &i| {
            count_image(builder, bags, captions, i, settings.orders);
            local_ngrams(builder, bags)
        },
    )?;
    let (maps, df) = document_frequencies(&local);
    drop(local);
    let per_image =
        parallel::map_init(&image_indices, workers, Scratch::default, |scratch, &i| {
            let Scratch {
                builder,
                bags,
                weights,
                reference_weights,
            } = scratch;
            // The same counting as the first pass: the same local ids.
            count_image(builder, bags, captions, i, settings.orders);
            let map = maps.get(i).map_or(&[][..], Vec::as_slice);
            // An n-gram's df is at most the number of images, so every log is in the table.
            weights.clear();
            weights.extend(map.iter().map(|&id| {
                let df = df.get(id as usize).copied().unwrap_or(0) as usize;
                ref_len - log_table.get(df).copied().unwrap_or(f64::NAN)
            }));
            if reference_weights.len() < map.len() {
                reference_weights.resize(map.len(), 0.0);
            }
            image_sums(bags, weights, reference_weights, settings)
        })?;
    Ok(per_image.into_iter().flatten().collect())
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
