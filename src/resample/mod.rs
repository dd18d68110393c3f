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
//!
//! Resampled sums are scored by each metric's score functions; sacrebleu's bootstrap holds them
//! as float32, which [`numpy_float`] reproduces (numpy 2's promotion of Python floats and
//! `numpy.float32`).

pub mod numpy_float;

use std::ops::AddAssign;

use crate::error::{Error, Result};
use crate::parallel::{for_each_mut_init, map_init};

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
                let row = usize::try_from(i)
                    .ok()
                    .and_then(|i| rows.get(i))
                    .ok_or_else(|| Error::internal("resample indices were checked in range"))?;
                for (s, &v) in sum.iter_mut().zip(*row) {
                    *s += v;
                }
            }
            Ok(sum)
        },
    )?;
    Ok(sums.into_iter().collect::<Result<Vec<_>>>()?.concat())
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
/// Bytes of lookup tables read by one pass over a batch of trials; kept within a core's L2
/// cache, since every trial reads a random entry of every table.
const TABLE_BYTES_PER_PASS: usize = 256 * 1024;
/// Trials summed together in one pass over a group of tables.
const TRIALS_PER_BATCH: usize = 256;

/// Approximate-randomization sums for `n_trials = swaps.len() / ceil(n_segments / 8)` trials.
///
/// `swaps` is the trial-by-segment swap matrix packed 8 segments to a byte, least
/// significant bit first (numpy's `packbits(..., axis=1, bitorder="little")`). In trial `k`,
/// pseudo-system A takes segment `i` from `baseline` where the flag is set and from `system`
/// otherwise; pseudo-system B takes the other one. This is sacrebleu's
/// `pos_sel @ bl_stats + neg_sel @ sys_stats` and its mirror. Returns `(a, b)`, each
/// `n_trials * width` sums.
///
/// A's sum is `sum(system) + sum(baseline - system over swapped segments)`. The second term
/// is read from per-block tables of all 256 subset sums of 8 segments, so a trial costs
/// `n_segments / 8` table rows instead of `n_segments` rows; tables are visited a group at a
/// time for a batch of trials, so the group stays in cache.
///
/// # Errors
/// [`crate::ErrorKind::InvalidInput`] if the shapes disagree; as
/// [`crate::parallel::resolve_workers`] for a bad `workers`.
pub fn randomization_sums(
    baseline: &[i64],
    system: &[i64],
    width: usize,
    swaps: &[u8],
    workers: i64,
) -> Result<(Vec<i64>, Vec<i64>)> {
    let n_segments = segments(baseline.len(), width)?;
    if system.len() != baseline.len() {
        return Err(Error::invalid_input(format!(
            "the baseline has {n_segments} segments but the system has {}",
            system.len() / width
        )));
    }
    let n_blocks = n_segments.div_ceil(BLOCK);
    if n_segments == 0 || swaps.len() % n_blocks != 0 {
        return Err(Error::invalid_input(format!(
            "each trial needs {n_blocks} bytes of packed swap flags ({n_segments} segments), \
             got {} bytes in all",
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
    let tables: Vec<&[i64]> = tables.chunks_exact(256 * width).collect();
    let blocks_per_pass = (TABLE_BYTES_PER_PASS / (256 * width * 8)).max(1);

    let n_trials = swaps.len() / n_blocks;
    let mut swapped = vec![0i64; n_trials * width];
    let mut batches: Vec<(&mut [i64], &[u8])> = swapped
        .chunks_mut(TRIALS_PER_BATCH * width)
        .zip(swaps.chunks(TRIALS_PER_BATCH * n_blocks))
        .collect();
    for_each_mut_init(
        &mut batches,
        workers,
        || (),
        |(), (sums, batch)| {
            for (pass, group) in tables.chunks(blocks_per_pass).enumerate() {
                let first = pass * blocks_per_pass;
                for (sum, flags) in sums
                    .chunks_exact_mut(width)
                    .zip(batch.chunks_exact(n_blocks))
                {
                    for (table, &byte) in group.iter().zip(flags.iter().skip(first)) {
                        // In bounds: a table holds 256 entries of `width` (see
                        // `subset_sum_tables`) and a byte is below 256.
                        #[allow(clippy::indexing_slicing)]
                        let entry = &table[usize::from(byte) * width..][..width];
                        for (s, &v) in sum.iter_mut().zip(entry) {
                            *s += v;
                        }
                    }
                }
            }
            Ok(())
        },
    )?;
    let mut a = Vec::with_capacity(swapped.len());
    let mut b = Vec::with_capacity(swapped.len());
    for trial in swapped.chunks_exact(width) {
        a.extend(total_system.iter().zip(trial).map(|(t, s)| t + s));
        b.extend(total_baseline.iter().zip(trial).map(|(t, s)| t - s));
    }
    Ok((a, b))
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
                // In bounds: `mask & (mask - 1) < mask`, so that entry is already written.
                #[allow(clippy::indexing_slicing)]
                entry.copy_from_slice(&tables[previous..previous + width]);
                let segment = block * BLOCK + mask.trailing_zeros() as usize;
                // The last block's segments past `n_segments` do not exist: they add nothing.
                if let Some(row) = rows.get(segment) {
                    entry.iter_mut().zip(*row).for_each(|(e, &v)| *e += v);
                }
            }
            tables.extend_from_slice(&entry);
        }
    }
    tables
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packs a row-major trial-by-segment flag matrix 8 segments to a byte, least significant
    /// bit first, as [`randomization_sums`] takes it.
    fn pack_swaps(flags: &[bool], n_segments: usize) -> Vec<u8> {
        flags
            .chunks(n_segments.max(1))
            .flat_map(|trial| {
                trial.chunks(BLOCK).map(|chunk| {
                    chunk
                        .iter()
                        .enumerate()
                        .fold(0u8, |m, (bit, &f)| m | (u8::from(f) << bit))
                })
            })
            .collect()
    }

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
        let packed = pack_swaps(&swaps, n);
        for workers in [1, 2] {
            let (a, b) = randomization_sums(&baseline, &system, width, &packed, workers).unwrap();
            assert_eq!(a, naive(&baseline, &system, width, &swaps));
            let flipped: Vec<bool> = swaps.iter().map(|f| !f).collect();
            assert_eq!(b, naive(&baseline, &system, width, &flipped));
        }
    }

    #[test]
    fn randomization_over_many_table_passes_and_trial_batches() {
        // 603 segments (76 blocks, the last partial) of width 18: several table groups per
        // pass; 700 trials: several batches.
        let (n, width) = (603, 18);
        let baseline: Vec<i64> = (0..n * width).map(|v| (v * 31 % 97) as i64).collect();
        let system: Vec<i64> = (0..n * width).map(|v| (v * 17 % 89) as i64 - 5).collect();
        let swaps: Vec<bool> = (0..n * 700)
            .map(|v| (v * 2_654_435_761usize) >> 7 & 1 == 1)
            .collect();
        let (a, b) =
            randomization_sums(&baseline, &system, width, &pack_swaps(&swaps, n), 2).unwrap();
        assert_eq!(a, naive(&baseline, &system, width, &swaps));
        let flipped: Vec<bool> = swaps.iter().map(|f| !f).collect();
        assert_eq!(b, naive(&baseline, &system, width, &flipped));
    }

    #[test]
    fn randomization_shape_errors() {
        assert!(randomization_sums(&[1, 2], &[1], 1, &[1], 1).is_err());
        // 9 segments need 2 bytes per trial.
        assert!(randomization_sums(&[1; 9], &[1; 9], 1, &[0, 0, 0], 1).is_err());
    }
}
