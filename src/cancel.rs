//! Cooperative cancellation of long calls.
//!
//! The caller (the Python bindings, on Ctrl-C) sets a [`Cancel`] flag; the row loops in
//! [`crate::parallel`] check it before and after every row, and the kernels that can run long
//! on one line (Levenshtein, TER's shift search) poll [`is_cancelled`] every 64 DP rows or 32
//! shift candidates and stop early, so a cancelled call returns
//! [`crate::ErrorKind::Interrupted`] within milliseconds. A kernel that stops early returns a
//! meaningless result, which the row loop discards. The core never depends on Python: the flag
//! is plain shared state, made current for a thread with [`Cancel::run`].

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

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

    #[test]
    fn a_long_wer_line_stops_inside_the_kernel() {
        let (hyp, reference) = (words(200_000, 1), words(200_000, 2));
        let split = crate::wer::Split {
            unit: crate::wer::Unit::Word,
            raw: false,
        };
        let (kind, late) = cancel_during(|| {
            crate::wer::stream_stats(&[hyp.as_str()], &[vec![Some(reference.as_str())]], split, 1)
        });
        assert_eq!(kind, ErrorKind::Interrupted);
        assert!(late < Duration::from_secs(1), "{late:?}");
    }

    #[test]
    fn a_long_ter_line_stops_inside_the_shift_search() {
        let (hyp, reference) = (words(30_000, 3), words(30_000, 4));
        let config = crate::ter::TerTokenizerConfig::default();
        let (kind, late) = cancel_during(|| {
            crate::ter::stream_stats(
                &[hyp.as_str()],
                &[vec![Some(reference.as_str())]],
                config,
                1,
            )
        });
        assert_eq!(kind, ErrorKind::Interrupted);
        assert!(late < Duration::from_secs(1), "{late:?}");
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
