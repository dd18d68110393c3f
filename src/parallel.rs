//! Worker resolution and an order-preserving parallel map.
//!
//! `workers` follows RapidFuzz: `1` is serial, `-1` means all cores (or `BLEUPRINT_NUM_THREADS`
//! when set). A larger count than [`max_threads`] is clamped to it: more threads than cores only
//! cost memory. Results are identical for every value: the map preserves order and every sum
//! downstream is over integers. After `fork()` the child runs serially, because rayon's threads
//! do not survive a fork.
//!
//! At most two pools live at a time (the default size and the last other size used), so no
//! threads accumulate however many distinct counts callers ask for.
//!
//! Every loop checks the calling thread's [`crate::cancel`] flag before and after each item and
//! stops with [`crate::ErrorKind::Interrupted`] once it is set; an item whose kernel saw the flag
//! and stopped early is never returned. Items on a pool thread run with the flag made current
//! there (the kernels poll it); items on the calling thread find it current already.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, Once, OnceLock};

use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::cancel;
use crate::error::{Error, Result};

/// Below this many items a batch runs on the calling thread: handing work to a pool costs
/// more than it saves.
const MIN_ITEMS_PER_PARALLEL_BATCH: usize = 64;

static FORKED: AtomicBool = AtomicBool::new(false);
static FORK_HOOK: Once = Once::new();
/// The cached pools: at most [`MAX_CACHED_POOLS`], the default size kept first.
static POOLS: Mutex<Vec<(usize, Arc<ThreadPool>)>> = Mutex::new(Vec::new());
const MAX_CACHED_POOLS: usize = 2;

#[cfg(unix)]
extern "C" fn mark_forked_child() {
    FORKED.store(true, Ordering::SeqCst);
}

/// Notes a fork in the child, whose copies of the pools have no threads. Windows has no fork.
fn install_fork_hook() {
    FORK_HOOK.call_once(|| {
        // SAFETY: registering a plain function that only stores to an atomic.
        #[cfg(unix)]
        unsafe {
            libc::pthread_atfork(None, None, Some(mark_forked_child));
        }
    });
}

static DEFAULT_THREADS: OnceLock<usize> = OnceLock::new();
static CORES: OnceLock<usize> = OnceLock::new();

fn cores() -> usize {
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The thread count used for `workers = -1`: `BLEUPRINT_NUM_THREADS` if it is a positive
/// integer, else the number of available cores. Read once per process: finding the core count
/// reads cgroup files, which would dominate the cost of scoring one sentence.
pub fn default_threads() -> usize {
    *DEFAULT_THREADS.get_or_init(|| {
        std::env::var("BLEUPRINT_NUM_THREADS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
            .unwrap_or_else(cores)
    })
}

/// The most threads a call uses: the number of cores, or `BLEUPRINT_NUM_THREADS` when that is
/// larger. A `workers` above it is clamped to it.
pub fn max_threads() -> usize {
    default_threads().max(cores())
}

/// Resolves a `workers` argument to a thread count: `-1` is [`default_threads`], a positive
/// count is clamped to [`max_threads`].
///
/// # Errors
/// [`crate::ErrorKind::InvalidOption`] for `0` or a negative value other than `-1`.
pub fn resolve_workers(workers: i64) -> Result<usize> {
    match workers {
        -1 => Ok(default_threads()),
        n if n >= 1 => Ok(usize::try_from(n).map_or(max_threads(), |n| n.min(max_threads()))),
        n => Err(Error::invalid_option(format!(
            "workers must be a positive thread count or -1 for all cores, got {n}"
        ))),
    }
}

fn pool(threads: usize) -> Option<Arc<ThreadPool>> {
    let mut pools = POOLS.lock().ok()?;
    if let Some((_, p)) = pools.iter().find(|(n, _)| *n == threads) {
        return Some(Arc::clone(p));
    }
    let built = ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("bleuprint-{i}"))
        .build()
        .ok()?;
    let built = Arc::new(built);
    if pools.len() >= MAX_CACHED_POOLS {
        // Drop the most recent non-default pool; its threads end once its work is done.
        let default = default_threads();
        if let Some(i) = pools.iter().rposition(|(n, _)| *n != default) {
            pools.remove(i);
        }
    }
    pools.push((threads, Arc::clone(&built)));
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
/// As [`resolve_workers`], or [`crate::ErrorKind::Interrupted`] once the call is cancelled.
pub fn map_init<T, S, R, I, F>(items: &[T], workers: i64, init: I, f: F) -> Result<Vec<R>>
where
    T: Sync,
    R: Send,
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, &T) -> R + Sync + Send,
{
    try_map_init(items, workers, init, |s, t| Ok(f(s, t)))
}

/// [`map_init`] of a fallible `f`: the results in order, or the first error in item order
/// (whatever the threads, as the serial loop finds it).
///
/// # Errors
/// As [`map_init`], or an error `f` returns.
pub fn try_map_init<T, S, R, I, F>(items: &[T], workers: i64, init: I, f: F) -> Result<Vec<R>>
where
    T: Sync,
    R: Send,
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, &T) -> Result<R> + Sync + Send,
{
    let flag = cancel::inherit();
    let each = |s: &mut S, t: &T| {
        flag.check()?;
        let r = f(s, t)?;
        // A kernel that saw the flag stopped early: its result is discarded.
        flag.check()?;
        Ok(r)
    };
    match pool_for(workers, items.len(), MIN_ITEMS_PER_PARALLEL_BATCH)? {
        Some(pool) => install(&pool, || {
            let all: Vec<Result<R>> = items
                .par_iter()
                .map_init(&init, |s, t| flag.run(|| each(s, t)))
                .collect();
            all.into_iter().collect()
        }),
        None => {
            let (mut scratch, mut poller) = (init(), cancel::Poller::current());
            items
                .iter()
                .map(|t| {
                    poller.poll();
                    each(&mut scratch, t)
                })
                .collect()
        }
    }
}

/// Maps `f` over `0..len` in order, on `workers` threads.
///
/// # Errors
/// As [`resolve_workers`], or [`crate::ErrorKind::Interrupted`] once the call is cancelled.
pub fn map_range<R, F>(len: usize, workers: i64, f: F) -> Result<Vec<R>>
where
    R: Send,
    F: Fn(usize) -> R + Sync + Send,
{
    let flag = cancel::inherit();
    let each = |i: usize| {
        flag.check()?;
        let r = f(i);
        flag.check()?;
        Ok(r)
    };
    match pool_for(workers, len, MIN_ITEMS_PER_PARALLEL_BATCH)? {
        Some(pool) => install(&pool, || {
            (0..len)
                .into_par_iter()
                .map(|i| flag.run(|| each(i)))
                .collect()
        }),
        None => {
            let mut poller = cancel::Poller::current();
            (0..len)
                .map(|i| {
                    poller.poll();
                    each(i)
                })
                .collect()
        }
    }
}

/// Fills `out` (row-major, `width` columns) row by row on `workers` threads; `f(scratch, i, row)`
/// writes row `i`. Stops at the first error.
///
/// # Errors
/// As [`resolve_workers`], the first error returned by `f`, or
/// [`crate::ErrorKind::Interrupted`] once the call is cancelled.
pub fn fill_rows<S, I, F>(out: &mut [i64], width: usize, workers: i64, init: I, f: F) -> Result<()>
where
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, usize, &mut [i64]) -> Result<()> + Sync + Send,
{
    // A zero-width output has no rows to fill.
    let rows = out.len().checked_div(width).unwrap_or(0);
    let pool = pool_for(workers, rows, MIN_ITEMS_PER_PARALLEL_BATCH)?;
    if width == 0 {
        return Ok(());
    }
    let flag = cancel::inherit();
    let each = |s: &mut S, (i, row): (usize, &mut [i64])| {
        flag.check()?;
        let r = f(s, i, row);
        flag.check()?;
        r
    };
    match pool {
        Some(pool) => install(&pool, || {
            out.par_chunks_mut(width)
                .enumerate()
                .try_for_each_init(&init, |s, item| flag.run(|| each(s, item)))
        }),
        None => {
            let (mut scratch, mut poller) = (init(), cancel::Poller::current());
            out.chunks_mut(width).enumerate().try_for_each(|item| {
                poller.poll();
                each(&mut scratch, item)
            })
        }
    }
}

/// Runs `f` on every item of `items` (mutably, in parallel on `workers` threads), with
/// per-thread scratch state from `init`. Stops at the first error.
///
/// # Errors
/// As [`resolve_workers`], the first error returned by `f`, or
/// [`crate::ErrorKind::Interrupted`] once the call is cancelled.
pub fn for_each_mut_init<T, S, I, F>(items: &mut [T], workers: i64, init: I, f: F) -> Result<()>
where
    T: Send,
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, &mut T) -> Result<()> + Sync + Send,
{
    let flag = cancel::inherit();
    let each = |s: &mut S, item: &mut T| {
        flag.check()?;
        let r = f(s, item);
        flag.check()?;
        r
    };
    // Each item is already a sizeable task, so two are enough to share out.
    match pool_for(workers, items.len(), 2)? {
        Some(pool) => install(&pool, || {
            items
                .par_iter_mut()
                .try_for_each_init(&init, |s, item| flag.run(|| each(s, item)))
        }),
        None => {
            let (mut scratch, mut poller) = (init(), cancel::Poller::current());
            items.iter_mut().try_for_each(|item| {
                poller.poll();
                each(&mut scratch, item)
            })
        }
    }
}

/// Runs `job` on `pool`, as `ThreadPool::install` does. Under a
/// [`cancel::Cancel::run_watched`] call, the calling thread runs the watch hook every interval
/// while it waits, instead of blocking.
fn install<R: Send>(pool: &ThreadPool, job: impl FnOnce() -> R + Send) -> R {
    let Some(interval) = cancel::watch_interval() else {
        return pool.install(job);
    };
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let mut outcome = None;
    pool.in_place_scope(|scope| {
        let slot = &mut outcome;
        scope.spawn(move |_| {
            *slot = Some(panic::catch_unwind(AssertUnwindSafe(job)));
            // The receiver lives until the scope ends, after this job.
            let _ = done_tx.send(());
        });
        while let Err(mpsc::RecvTimeoutError::Timeout) = done_rx.recv_timeout(interval) {
            cancel::poll_now();
        }
    });
    match outcome {
        Some(Ok(result)) => result,
        Some(Err(panic)) => panic::resume_unwind(panic),
        // The scope ends only after the spawned job, which always fills the slot.
        None => unreachable!("the scope ran its job"),
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
    fn a_watched_parallel_loop_gives_the_same_rows_and_passes_a_panic_on() {
        let watched = |f: &(dyn Fn(usize) -> usize + Sync)| {
            cancel::Cancel::new().run_watched(
                std::time::Duration::ZERO,
                || false,
                || map_range(1_000, 2, f),
            )
        };
        assert_eq!(
            watched(&|i| i * 2).unwrap(),
            map_range(1_000, 1, |i| i * 2).unwrap()
        );
        let panicked = std::panic::catch_unwind(|| {
            watched(&|i| {
                assert!(i != 500, "deliberate");
                i
            })
        });
        assert!(panicked.is_err());
    }

    #[test]
    fn rejects_zero_and_negative_workers() {
        for bad in [0, -2, -100, i64::MIN] {
            assert!(resolve_workers(bad).is_err());
        }
        assert_eq!(resolve_workers(1).unwrap(), 1);
    }

    #[test]
    fn clamps_large_worker_counts() {
        assert_eq!(resolve_workers(i64::MAX).unwrap(), max_threads());
        assert_eq!(resolve_workers(1_000_000).unwrap(), max_threads());
        assert!(resolve_workers(2).unwrap() <= 2);
    }

    #[test]
    fn keeps_at_most_two_pools() {
        let items: Vec<u64> = (0..1000).collect();
        for workers in [2, 3, 4, 2, -1] {
            map_init(&items, workers, || (), |(), x| x + 1).unwrap();
        }
        assert!(POOLS.lock().unwrap().len() <= MAX_CACHED_POOLS);
    }

    #[test]
    fn a_cancelled_call_stops_with_interrupted() {
        let items: Vec<u64> = (0..10_000).collect();
        let flag = cancel::Cancel::new();
        flag.cancel();
        for workers in [1, 2] {
            let err = flag
                .run(|| map_init(&items, workers, || (), |(), x| x + 1))
                .unwrap_err();
            assert_eq!(err.kind(), crate::ErrorKind::Interrupted);
            let mut rows = vec![0i64; 2000];
            let err = flag
                .run(|| fill_rows(&mut rows, 2, workers, || (), |(), _, _| Ok(())))
                .unwrap_err();
            assert_eq!(err.kind(), crate::ErrorKind::Interrupted);
        }
        // Outside the flag's run, the same call works.
        assert_eq!(
            map_init(&items, 2, || (), |(), x| x + 1).unwrap().len(),
            10_000
        );
    }
}
