//! Cooperative cancellation of long calls.
//!
//! The caller (the Python bindings, on Ctrl-C) sets a [`Cancel`] flag; the row loops in
//! [`crate::parallel`] check it before and after every row, and the kernels that can run long
//! on one line (Levenshtein, TER's shift search) poll [`checkpoint`] every 64 DP rows or 32
//! shift candidates and stop early, so a cancelled call returns
//! [`crate::ErrorKind::Interrupted`] within milliseconds. A kernel that stops early returns a
//! meaningless result, which the row loop discards. The core never depends on Python: the flag
//! is plain shared state, made current for a thread with [`Cancel::run`].
//!
//! [`Cancel::run_watched`] also runs a caller's check every so often on the thread that
//! started the call (the bindings run Python's signal handlers there, which only work on the
//! main thread), from the serial row loops and the kernels' polls, and from the wait of a
//! parallel loop. So a watched call does its work on the calling thread, like any other: a
//! thread made per call would take its allocations from another malloc arena, whose freed
//! pages must be faulted in again (10% of a 100,000-segment BLEU call).

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

/// A shared cancellation flag.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag that is not set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every loop that polls this flag to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Runs `f` with this flag as the current thread's, so [`check`] and the parallel helpers
    /// see it.
    pub fn run<R>(&self, f: impl FnOnce() -> R) -> R {
        // SAFETY: `self.0` is alive for the whole call.
        let _current = unsafe { CurrentGuard::enter(Arc::as_ptr(&self.0)) };
        f()
    }

    /// Runs `f` as [`Cancel::run`] does, and calls `hook` on this thread about every
    /// `interval` while `f` runs: from the serial row loops, the kernels' [`checkpoint`]s and a
    /// parallel loop's wait. The flag is set once `hook` returns `true`.
    pub fn run_watched<R, H: FnMut() -> bool>(
        &self,
        interval: Duration,
        mut hook: H,
        f: impl FnOnce() -> R,
    ) -> R {
        let watch = Watch {
            hook: call_hook::<H>,
            context: (&raw mut hook).cast(),
            interval,
            next: Cell::new(Instant::now() + interval),
            busy: Cell::new(false),
            flag: Arc::as_ptr(&self.0),
        };
        // SAFETY: `self.0` and `watch` (which borrows `hook`) live for the whole call.
        let _current = unsafe { CurrentGuard::enter(Arc::as_ptr(&self.0)) };
        let _watch = WatchGuard::enter(&watch);
        f()
    }

    /// Runs `f` with no flag and no watch current, so that a call made inside another's
    /// watch hook (a Python signal handler that scores) neither sees nor polls the outer one.
    pub fn run_unwatched<R>(f: impl FnOnce() -> R) -> R {
        // SAFETY: a null flag is never dereferenced.
        let _current = unsafe { CurrentGuard::enter(std::ptr::null()) };
        let _watch = WatchGuard::enter(std::ptr::null());
        f()
    }
}

/// [`Poller::poll`] looks at the clock once in this many rows: a row takes about a
/// microsecond.
const POLL_EVERY: u32 = 32;

/// A watched call's hook and when it is next due.
struct Watch {
    /// Calls the caller's closure behind `context`.
    hook: unsafe fn(*mut ()) -> bool,
    context: *mut (),
    interval: Duration,
    next: Cell<Instant>,
    /// Set while the hook runs, so that a call it makes does not run it again.
    busy: Cell<bool>,
    flag: *const AtomicBool,
}

/// # Safety
/// `context` must point to a live `H`.
unsafe fn call_hook<H: FnMut() -> bool>(context: *mut ()) -> bool {
    // SAFETY: `run_watched` stores a pointer to its own `H`, alive while the watch is current.
    unsafe { (*context.cast::<H>())() }
}

impl Watch {
    /// Runs the hook if it is due (or `now`), unless it is running already.
    fn tick(&self, now: bool) {
        if self.busy.get() {
            return;
        }
        if !now {
            let time = Instant::now();
            if time < self.next.get() {
                return;
            }
            self.next.set(time + self.interval);
        }
        self.busy.set(true);
        // SAFETY: `context` points to the hook of the `run_watched` that made this watch
        // current; it outlives the watch.
        let stop = unsafe { (self.hook)(self.context) };
        self.busy.set(false);
        if stop {
            // SAFETY: the flag outlives the watch (see `run_watched`).
            unsafe { (*self.flag).store(true, Ordering::Relaxed) };
        }
    }
}

thread_local! {
    /// The watch of the call that this thread started, or null.
    static WATCH: Cell<*const Watch> = const { Cell::new(std::ptr::null()) };
}

/// Makes a watch current for the thread until dropped, then restores the previous one.
struct WatchGuard {
    previous: *const Watch,
}

impl WatchGuard {
    fn enter(watch: *const Watch) -> Self {
        Self {
            previous: WATCH.with(|w| w.replace(watch)),
        }
    }
}

impl Drop for WatchGuard {
    fn drop(&mut self) {
        WATCH.with(|w| w.set(self.previous));
    }
}

/// A serial row loop's view of its thread's watch, read once before the loop, so that a row
/// costs a countdown, not a thread-local lookup.
pub(crate) struct Poller {
    watch: *const Watch,
    left: u32,
}

impl Poller {
    /// The current thread's watch (none outside a watched call).
    pub(crate) fn current() -> Self {
        Self {
            watch: WATCH.with(Cell::get),
            left: POLL_EVERY,
        }
    }

    /// Call once per row: runs the watch hook when it is due (the clock is read once in 32
    /// rows). Does nothing without a watch.
    #[inline]
    pub(crate) fn poll(&mut self) {
        if self.watch.is_null() {
            return;
        }
        self.left -= 1;
        if self.left == 0 {
            self.left = POLL_EVERY;
            // SAFETY: the loop runs inside the `run_watched` call that made this watch
            // current on this thread, so the watch is alive.
            unsafe { (*self.watch).tick(false) };
        }
    }
}

/// The interval of the current thread's watch, `None` without one.
pub(crate) fn watch_interval() -> Option<Duration> {
    with_watch(|watch| watch.interval)
}

/// Runs the current thread's watch hook now (a parallel loop's wait calls it every interval).
pub(crate) fn poll_now() {
    with_watch(|watch| watch.tick(true));
}

/// `f` of the current thread's watch, `None` on a thread without one.
fn with_watch<R>(f: impl FnOnce(&Watch) -> R) -> Option<R> {
    WATCH.with(|w| {
        let watch = w.get();
        // SAFETY: a non-null watch was made current by a `WatchGuard` that is still alive (it
        // restores the previous one when dropped), inside the `run_watched` that owns it.
        (!watch.is_null()).then(|| f(unsafe { &*watch }))
    })
}

thread_local! {
    /// The flag of the call running on this thread, or null. A raw pointer, not an `Arc`, so
    /// that making it current per row costs no shared reference-count traffic; it is only set
    /// by [`CurrentGuard`], which lives no longer than the `Arc` it points into.
    static CURRENT: Cell<*const AtomicBool> = const { Cell::new(std::ptr::null()) };
}

/// Makes a flag current for the thread until dropped, then restores the previous one.
struct CurrentGuard {
    previous: *const AtomicBool,
}

impl CurrentGuard {
    /// # Safety
    /// `flag` must be null or point to a flag that outlives the guard.
    unsafe fn enter(flag: *const AtomicBool) -> Self {
        Self {
            previous: CURRENT.with(|c| c.replace(flag)),
        }
    }
}

impl Drop for CurrentGuard {
    fn drop(&mut self) {
        CURRENT.with(|c| c.set(self.previous));
    }
}

/// The calling thread's current flag, handed to the worker threads of a parallel loop that
/// runs (and ends) inside the caller's [`Cancel::run`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Inherited(*const AtomicBool);

// SAFETY: the pointer is to an `AtomicBool`, which is `Sync`; it is only dereferenced while
// the `Cancel::run` that set it on the calling thread is still running (see `inherit`).
unsafe impl Send for Inherited {}
// SAFETY: as above.
unsafe impl Sync for Inherited {}

/// The flag current on this thread. The parallel helpers take it before handing work to the
/// pool and wait for that work to end, so the flag outlives every use by a worker.
pub(crate) fn inherit() -> Inherited {
    Inherited(CURRENT.with(Cell::get))
}

impl Inherited {
    /// Runs `f` with the inherited flag current on this (worker) thread.
    #[inline]
    pub(crate) fn run<R>(self, f: impl FnOnce() -> R) -> R {
        if self.0.is_null() {
            return f();
        }
        // SAFETY: see `inherit`: the flag outlives this call.
        let _current = unsafe { CurrentGuard::enter(self.0) };
        f()
    }

    /// `Err(Interrupted)` once the flag is set.
    #[inline]
    pub(crate) fn check(self) -> Result<()> {
        // SAFETY: see `inherit`.
        if !self.0.is_null() && unsafe { (*self.0).load(Ordering::Relaxed) } {
            Err(Error::interrupted())
        } else {
            Ok(())
        }
    }
}

/// A long kernel's periodic check (every 64 DP rows, 32 shift candidates): on the thread that
/// started a watched call it runs the watch hook when due (a clock read), then says whether
/// the call was cancelled. Checks made far more often use [`is_cancelled`].
#[inline]
pub fn checkpoint() -> bool {
    with_watch(|watch| watch.tick(false));
    is_cancelled()
}

/// Whether the current thread's call was cancelled.
#[inline]
pub fn is_cancelled() -> bool {
    CURRENT.with(|c| {
        let flag = c.get();
        // SAFETY: a non-null pointer was set by a `CurrentGuard` that is still alive (it
        // restores the previous value when dropped) and whose flag outlives it.
        !flag.is_null() && unsafe { (*flag).load(Ordering::Relaxed) }
    })
}

/// `Err(Interrupted)` when the current thread's call was cancelled.
///
/// # Errors
/// [`crate::ErrorKind::Interrupted`] after [`Cancel::cancel`].
#[inline]
pub fn check() -> Result<()> {
    if is_cancelled() {
        Err(Error::interrupted())
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;
    use std::time::{Duration, Instant};

    fn words(n: usize, seed: u64) -> String {
        let mut state = seed;
        (0..n)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                format!("w{}", (state >> 33) % 50)
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Cancels `flag` after 200 ms while `work` runs under it; returns the error and how long
    /// after the cancel it came. The lines below take seconds uncancelled (release build), so
    /// only polling inside the kernel ends them in time.
    fn cancel_during<R>(work: impl FnOnce() -> Result<R> + Send) -> (ErrorKind, Duration) {
        let flag = Cancel::new();
        std::thread::scope(|scope| {
            let canceller = flag.clone();
            let cancelled_at = scope.spawn(move || {
                std::thread::sleep(Duration::from_millis(200));
                canceller.cancel();
                Instant::now()
            });
            let err = flag.run(work).err().map(|e| e.kind());
            let ended = Instant::now();
            let at = cancelled_at.join().unwrap();
            (err.unwrap(), ended.saturating_duration_since(at))
        })
    }

    /// A watched call whose hook asks to stop on its third run, over rows of 1 ms each: the
    /// hook runs on the calling thread, in serial loops and while a parallel loop waits.
    #[test]
    fn a_watched_call_runs_its_hook_on_the_calling_thread_and_stops_when_asked() {
        for workers in [1, 2] {
            let caller = std::thread::current().id();
            let mut runs = 0;
            let hook = || {
                assert_eq!(std::thread::current().id(), caller);
                runs += 1;
                runs == 3
            };
            let started = Instant::now();
            let outcome = Cancel::new().run_watched(Duration::from_millis(10), hook, || {
                crate::parallel::map_range(10_000, workers, |_| {
                    std::thread::sleep(Duration::from_millis(1));
                })
            });
            assert_eq!(
                outcome.err().map(|e| e.kind()),
                Some(ErrorKind::Interrupted)
            );
            assert_eq!(runs, 3, "workers={workers}");
            assert!(
                started.elapsed() < Duration::from_secs(2),
                "workers={workers}"
            );
        }
    }

    #[test]
    fn an_unwatched_call_inside_a_watched_one_sees_neither_flag_nor_hook() {
        let flag = Cancel::new();
        flag.cancel();
        let mut runs = 0;
        let (inner, outer) = flag.run_watched(
            Duration::ZERO,
            || {
                runs += 1;
                false
            },
            || {
                let inner = Cancel::run_unwatched(|| {
                    poll_now();
                    checkpoint()
                });
                (inner, checkpoint())
            },
        );
        assert!(!inner && outer);
        assert_eq!(runs, 1, "only the outer checkpoint runs the hook");
    }

    /// One line of `words` words against another, scored by `metric` under a flag cancelled
    /// after 200 ms, stops within a second of it.
    fn a_long_line_stops<M: for<'b> crate::statistics::StatsMetric<'b, str> + Send>(
        metric: M,
        words: usize,
    ) {
        let (hyp, reference) = (self::words(words, 1), self::words(words, 2));
        let (kind, late) = cancel_during(|| {
            crate::statistics::stream_stats(
                &[hyp.as_str()],
                &[vec![Some(reference.as_str())]],
                metric,
                1,
            )
        });
        assert_eq!(kind, ErrorKind::Interrupted);
        assert!(late < Duration::from_secs(1), "{late:?}");
    }

    #[test]
    fn a_long_wer_line_stops_inside_the_kernel() {
        let split = crate::metrics::wer::Split {
            unit: crate::metrics::wer::Unit::Word,
            raw: false,
        };
        a_long_line_stops(crate::metrics::wer::WerStats::from(split), 200_000);
    }

    #[test]
    fn a_long_ter_line_stops_inside_the_shift_search() {
        a_long_line_stops(crate::metrics::ter::TerTokenizerConfig::default(), 30_000);
    }

    #[test]
    fn no_flag_no_interruption() {
        assert!(!is_cancelled());
        assert!(check().is_ok());
        let flag = Cancel::new();
        assert!(flag.run(check).is_ok());
        flag.cancel();
        assert_eq!(flag.run(check).unwrap_err().kind(), ErrorKind::Interrupted);
        assert!(check().is_ok(), "the flag is only current inside run");
    }
}
