//! Resampled column sums of statistics matrices, the inner loop of every significance test.
//!
//! - [`bootstrap_sums`]: for each resample, the sum of the rows an index matrix selects (rows
//!   drawn with replacement). Rows are added in index order, one after another, as numpy's
//!   `stats[idxs[k]].sum(0)` does, so float32 sums round exactly like sacrebleu's.
//! - [`randomization_sums`]: for each trial, the sums of two pseudo-systems made by swapping
//!   each segment between a baseline and a system where a swap matrix says so (approximate
//!   randomization). Integer sums, so any order gives the same result.
//!
//! The index and swap matrices come from numpy's generator on the Python side, so the draws
//! are the ones sacrebleu makes for the same seed. Matrices are row-major slices.

use std::ops::AddAssign;

use crate::error::{Error, Result};
use crate::parallel::map_init;

/// Rows of `stats` (`width` columns) summed per resample: `indices` holds one row of segment
/// indices per resample, each `stats.len() / width` long. Returns `n_resamples * width` sums.
///
/// # Errors
/// [`crate::ErrorKind::InvalidInput`] if the shapes disagree or an index is out of range;
/// as [`crate::parallel::resolve_workers`] for a bad `workers`.
pub fn bootstrap_sums<T>(stats: &[T], width: usize, indices: &[i64], workers: i64) -> Result<Vec<T>>
where
    T: Copy + Default + AddAssign + Send + Sync,
{
    let n_segments = segments(stats.len(), width)?;
    if n_segments == 0 {
        return Err(Error::invalid_input("cannot resample zero segments"));
    }
    if indices.len() % n_segments != 0 {
        return Err(Error::invalid_input(format!(
            "each resample needs {n_segments} indices (one per segment), got {} in all",
            indices.len()
        )));
    }
    if let Some(bad) = indices
        .iter()
        .find(|&&i| usize::try_from(i).map_or(true, |i| i >= n_segments))
    {
        return Err(Error::invalid_input(format!(
            "resample index {bad} is out of range for {n_segments} segments"
        )));
    }
    let rows: Vec<&[T]> = stats.chunks_exact(width).collect();
    let resamples: Vec<&[i64]> = indices.chunks_exact(n_segments).collect();
    let sums = map_init(
        &resamples,
        workers,
        || (),
        |(), resample| {
            let mut sum = vec![T::default(); width];
            for &i in *resample {
                // Checked above: every index is in range.
                let row = usize::try_from(i).ok().and_then(|i| rows.get(i));
                for (s, &v) in sum.iter_mut().zip(row.copied().unwrap_or_default()) {
                    *s += v;
                }
            }
            sum
        },
    )?;
    Ok(sums.concat())
}

/// Segments per matrix of `len` values in rows of `width`.
fn segments(len: usize, width: usize) -> Result<usize> {
    if width == 0 || len % width != 0 {
        return Err(Error::invalid_input(format!(
            "a statistics matrix of {len} values does not have rows of {width} columns"
        )));
    }
    Ok(len / width)
}

/// Segments handled by one lookup table: one byte of the packed swap matrix.
const BLOCK: usize = 8;

/// Approximate-randomization sums for `n_trials = swaps.len() / n_segments` trials.
///
/// In trial `k`, pseudo-system A takes segment `i` from `baseline` where `swaps[k][i]` is
/// true and from `system` otherwise; pseudo-system B takes the other one. This is sacrebleu's
/// `pos_sel @ bl_stats + neg_sel @ sys_stats` and its mirror. Returns `(a, b)`, each
/// `n_trials * width` sums.
///
/// A's sum is `sum(system) + sum(baseline - system over swapped segments)`. The second term
/// is read from per-block tables of all 256 subset sums of 8 segments, so a trial costs
/// `n_segments / 8` table rows instead of `n_segments` rows.
///
/// # Errors
/// [`crate::ErrorKind::InvalidInput`] if the shapes disagree; as
/// [`crate::parallel::resolve_workers`] for a bad `workers`.
pub fn randomization_sums(
    baseline: &[i64],
    system: &[i64],
    width: usize,
    swaps: &[bool],
    workers: i64,
) -> Result<(Vec<i64>, Vec<i64>)> {
    let n_segments = segments(baseline.len(), width)?;
    if system.len() != baseline.len() {
        return Err(Error::invalid_input(format!(
            "the baseline has {n_segments} segments but the system has {}",
            system.len() / width
        )));
    }
    if n_segments == 0 || swaps.len() % n_segments != 0 {
        return Err(Error::invalid_input(format!(
            "each trial needs {n_segments} swap flags (one per segment), got {} in all",
            swaps.len()
        )));
    }
    let column_sums = |m: &[i64]| {
        m.chunks_exact(width)
            .fold(vec![0i64; width], |mut acc, row| {
                acc.iter_mut().zip(row).for_each(|(a, &v)| *a += v);
                acc
            })
    };
    let (total_baseline, total_system) = (column_sums(baseline), column_sums(system));
    let diff: Vec<i64> = baseline.iter().zip(system).map(|(b, s)| b - s).collect();
    let tables = subset_sum_tables(&diff, width, n_segments);

    let entries: Vec<&[i64]> = tables.chunks_exact(width).collect();
    let trials: Vec<&[bool]> = swaps.chunks_exact(n_segments).collect();
    let per_trial = map_init(
        &trials,
        workers,
        || (),
        |(), flags| {
            let mut swapped = vec![0i64; width];
            for (block, chunk) in flags.chunks(BLOCK).enumerate() {
                let byte = chunk
                    .iter()
                    .enumerate()
                    .fold(0usize, |m, (bit, &f)| m | (usize::from(f) << bit));
                let entry = entries.get(block * 256 + byte).copied().unwrap_or_default();
                for (s, &v) in swapped.iter_mut().zip(entry) {
                    *s += v;
                }
            }
            let a: Vec<i64> = total_system
                .iter()
                .zip(&swapped)
                .map(|(t, s)| t + s)
                .collect();
            let b: Vec<i64> = total_baseline
                .iter()
                .zip(&swapped)
                .map(|(t, s)| t - s)
                .collect();
            (a, b)
        },
    )?;
    let (a, b): (Vec<_>, Vec<_>) = per_trial.into_iter().unzip();
    Ok((a.concat(), b.concat()))
}

/// For each block of 8 segments, the sums of `rows` over all 256 subsets of the block:
/// entry `(block * 256 + mask) * width` holds the sum of the rows whose bit is set in `mask`.
fn subset_sum_tables(rows: &[i64], width: usize, n_segments: usize) -> Vec<i64> {
    let n_blocks = n_segments.div_ceil(BLOCK);
    let rows: Vec<&[i64]> = rows.chunks_exact(width).collect();
    let mut tables = Vec::with_capacity(n_blocks * 256 * width);
    let mut entry = vec![0i64; width];
    for block in 0..n_blocks {
        let start = tables.len();
        for mask in 0..256usize {
            // The entry of `mask` is the entry without its lowest bit plus that bit's row.
            entry.fill(0);
            if mask > 0 {
                let previous = start + (mask & (mask - 1)) * width;
                entry.copy_from_slice(tables.get(previous..previous + width).unwrap_or_default());
                let segment = block * BLOCK + mask.trailing_zeros() as usize;
                let row = rows.get(segment).copied().unwrap_or_default();
                entry.iter_mut().zip(row).for_each(|(e, &v)| *e += v);
            }
            tables.extend_from_slice(&entry);
        }
    }
    tables
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bootstrap_adds_rows_in_index_order() {
        let stats = [1i64, 10, 2, 20, 3, 30];
        let sums = bootstrap_sums(&stats, 2, &[0, 0, 2, 1, 1, 1], 1).unwrap();
        assert_eq!(sums, [5, 50, 6, 60]);
    }

    #[test]
    fn float32_sums_round_as_sequential_addition() {
        // 2^24 + 1 + 1 in float32: each addition rounds back to 2^24.
        let stats = [16_777_216.0f32, 1.0, 1.0];
        let sums = bootstrap_sums(&stats, 1, &[0, 1, 2], 1).unwrap();
        assert_eq!(sums, [16_777_216.0]);
    }

    #[test]
    fn bad_indices_are_errors() {
        assert!(bootstrap_sums(&[1i64, 2], 1, &[0, 2], 1).is_err());
        assert!(bootstrap_sums(&[1i64, 2], 1, &[0, -1], 1).is_err());
        assert!(bootstrap_sums(&[1i64, 2], 1, &[0, 1, 1], 1).is_err());
        assert!(bootstrap_sums::<i64>(&[], 1, &[], 1).is_err());
    }

    fn naive(baseline: &[i64], system: &[i64], width: usize, swaps: &[bool]) -> Vec<i64> {
        let n = baseline.len() / width;
        let mut out = Vec::new();
        for flags in swaps.chunks(n) {
            let mut a = vec![0; width];
            for (i, &f) in flags.iter().enumerate() {
                let row = if f { baseline } else { system };
                for j in 0..width {
                    a[j] += row[i * width + j];
                }
            }
            out.extend(a);
        }
        out
    }

    #[test]
    fn randomization_matches_the_definition() {
        // 19 segments: two full blocks and a partial one.
        let n = 19;
        let width = 3;
        let baseline: Vec<i64> = (0..n * width).map(|v| (v * 7 % 11) as i64).collect();
        let system: Vec<i64> = (0..n * width).map(|v| (v * 5 % 13) as i64).collect();
        let swaps: Vec<bool> = (0..n * 40)
            .map(|v| (v * 2_654_435_761usize) % 7 < 3)
            .collect();
        for workers in [1, 2] {
            let (a, b) = randomization_sums(&baseline, &system, width, &swaps, workers).unwrap();
            assert_eq!(a, naive(&baseline, &system, width, &swaps));
            let flipped: Vec<bool> = swaps.iter().map(|f| !f).collect();
            assert_eq!(b, naive(&baseline, &system, width, &flipped));
        }
    }

    #[test]
    fn randomization_shape_errors() {
        assert!(randomization_sums(&[1, 2], &[1], 1, &[true, false], 1).is_err());
        assert!(randomization_sums(&[1, 2], &[1, 2], 1, &[true], 1).is_err());
    }
}
