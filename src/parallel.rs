//! Worker resolution and an order-preserving parallel map.
//!
//! `workers` follows RapidFuzz: `1` is serial, `-1` means all cores (or `BLEUPRINT_NUM_THREADS`
//! when set). Results are identical for every value: the map preserves order and every sum
//! downstream is over integers. After `fork()` the child runs serially, because rayon's threads
//! do not survive a fork.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once, OnceLock};

use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::error::{Error, Result};

/// Below this many items a batch runs on the calling thread: handing work to a pool costs
/// more than it saves.
const MIN_ITEMS_PER_PARALLEL_BATCH: usize = 64;

static FORKED: AtomicBool = AtomicBool::new(false);
static FORK_HOOK: Once = Once::new();
static POOLS: OnceLock<Mutex<HashMap<usize, Arc<ThreadPool>>>> = OnceLock::new();

extern "C" fn mark_forked_child() {
    FORKED.store(true, Ordering::SeqCst);
}

fn install_fork_hook() {
    FORK_HOOK.call_once(|| {
        // SAFETY: registering a plain function that only stores to an atomic.
        unsafe {
            libc::pthread_atfork(None, None, Some(mark_forked_child));
        }
    });
}

static DEFAULT_THREADS: OnceLock<usize> = OnceLock::new();

/// The thread count used for `workers = -1`: `BLEUPRINT_NUM_THREADS` if it is a positive
/// integer, else the number of available cores. Read once per process: finding the core count
/// reads cgroup files, which would dominate the cost of scoring one sentence.
pub fn default_threads() -> usize {
    *DEFAULT_THREADS.get_or_init(|| {
        std::env::var("BLEUPRINT_NUM_THREADS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    })
}

/// Resolves a `workers` argument to a thread count.
///
/// # Errors
/// [`crate::ErrorKind::InvalidOption`] for `0` or a negative value other than `-1`.
pub fn resolve_workers(workers: i64) -> Result<usize> {
    match workers {
        -1 => Ok(default_threads()),
        n if n >= 1 => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        n => Err(Error::invalid_option(format!(
            "workers must be a positive thread count or -1 for all cores, got {n}"
        ))),
    }
}

fn pool(threads: usize) -> Option<Arc<ThreadPool>> {
    let pools = POOLS.get_or_init(|| Mutex::new(HashMap::new()));
    let mut pools = pools.lock().ok()?;
    if let Some(p) = pools.get(&threads) {
        return Some(Arc::clone(p));
    }
    let built = ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("bleuprint-{i}"))
        .build()
        .ok()?;
    let built = Arc::new(built);
    pools.insert(threads, Arc::clone(&built));
    Some(built)
}

/// The pool to run `items` work items on, or `None` to run them on the calling thread: for
/// `workers = 1`, batches under `min_items`, a forked child, or a pool that cannot be built.
fn pool_for(workers: i64, items: usize, min_items: usize) -> Result<Option<Arc<ThreadPool>>> {
    let threads = resolve_workers(workers)?;
    install_fork_hook();
    let serial = threads <= 1 || items < min_items || FORKED.load(Ordering::SeqCst);
    Ok(if serial { None } else { pool(threads) })
}

/// Maps `f` over `items` in order, on `workers` threads. Each thread gets its own scratch state
/// from `init`, so hot loops reuse their buffers.
///
/// # Errors
/// As [`resolve_workers`].
pub fn map_init<T, S, R, I, F>(items: &[T], workers: i64, init: I, f: F) -> Result<Vec<R>>
where
    T: Sync,
    R: Send,
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, &T) -> R + Sync + Send,
{
    Ok(
        match pool_for(workers, items.len(), MIN_ITEMS_PER_PARALLEL_BATCH)? {
            Some(pool) => {
                pool.install(|| items.par_iter().map_init(&init, |s, t| f(s, t)).collect())
            }
            None => {
                let mut scratch = init();
                items.iter().map(|t| f(&mut scratch, t)).collect()
            }
        },
    )
}

/// Maps `f` over `0..len` in order, on `workers` threads.
///
/// # Errors
/// As [`resolve_workers`].
pub fn map_range<R, F>(len: usize, workers: i64, f: F) -> Result<Vec<R>>
where
    R: Send,
    F: Fn(usize) -> R + Sync + Send,
{
    Ok(
        match pool_for(workers, len, MIN_ITEMS_PER_PARALLEL_BATCH)? {
            Some(pool) => pool.install(|| (0..len).into_par_iter().map(&f).collect()),
            None => (0..len).map(f).collect(),
        },
    )
}

/// Fills `out` (row-major, `width` columns) row by row on `workers` threads; `f(scratch, i, row)`
/// writes row `i`. Stops at the first error.
///
/// # Errors
/// As [`resolve_workers`], or the first error returned by `f`.
pub fn fill_rows<S, I, F>(out: &mut [i64], width: usize, workers: i64, init: I, f: F) -> Result<()>
where
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, usize, &mut [i64]) -> Result<()> + Sync + Send,
{
    let rows = out.len().checked_div(width).unwrap_or(0);
    let pool = pool_for(workers, rows, MIN_ITEMS_PER_PARALLEL_BATCH)?;
    if width == 0 {
        return Ok(());
    }
    match pool {
        Some(pool) => pool.install(|| {
            out.par_chunks_mut(width)
                .enumerate()
                .try_for_each_init(&init, |s, (i, row)| f(s, i, row))
        }),
        None => {
            let mut scratch = init();
            out.chunks_mut(width)
                .enumerate()
                .try_for_each(|(i, row)| f(&mut scratch, i, row))
        }
    }
}

/// Runs `f` on every item of `items` (mutably, in parallel on `workers` threads), with
/// per-thread scratch state from `init`. Stops at the first error.
///
/// # Errors
/// As [`resolve_workers`], or the first error returned by `f`.
pub fn for_each_mut_init<T, S, I, F>(items: &mut [T], workers: i64, init: I, f: F) -> Result<()>
where
    T: Send,
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, &mut T) -> Result<()> + Sync + Send,
{
    // Each item is already a sizeable task, so two are enough to share out.
    match pool_for(workers, items.len(), 2)? {
        Some(pool) => pool.install(|| {
            items
                .par_iter_mut()
                .try_for_each_init(&init, |s, item| f(s, item))
        }),
        None => {
            let mut scratch = init();
            items.iter_mut().try_for_each(|item| f(&mut scratch, item))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_output_for_every_worker_count() {
        let items: Vec<u64> = (0..10_000).collect();
        let serial = map_init(&items, 1, || 0u64, |_, x| x * x).unwrap();
        for workers in [-1, 2, 3] {
            assert_eq!(
                map_init(&items, workers, || 0u64, |_, x| x * x).unwrap(),
                serial
            );
        }
    }

    #[test]
    fn rejects_zero_and_negative_workers() {
        for bad in [0, -2, -100] {
            assert!(resolve_workers(bad).is_err());
        }
        assert_eq!(resolve_workers(3).unwrap(), 3);
    }
}
