//! Arguments shared by the bindings: `workers`, integer size options, and running a long call
//! so that Ctrl-C (or any signal handler that raises) interrupts it.

use std::panic::{self, AssertUnwindSafe};
use std::time::Duration;

use pyo3::conversion::FromPyObjectOwned;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use pyo3::Borrowed;

use super::errors::{type_error, type_name};
use crate::cancel::Cancel;
use crate::error::{Error, Result};

/// An integer option as an `i64`: a non-integer is an `InputTypeError`, an integer beyond
/// `i64` (`10**30`) an `InvalidOptionError`, each naming the option and what it accepts.
fn int_option(value: Borrowed<'_, '_, PyAny>, name: &str, accepted: &str) -> PyResult<i64> {
    match value.extract::<i64>() {
        Ok(v) => Ok(v),
        Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => {
            let shown = value
                .str()
                .map_or_else(|_| "?".to_owned(), |s| s.to_string());
            Err(Error::invalid_option(format!("{name} must be {accepted}, got {shown}")).into())
        }
        Err(e) if e.is_instance_of::<PyTypeError>(value.py()) => Err(type_error(format!(
            "{name} must be an int ({accepted}), got {}",
            type_name(&value.to_owned())
        ))),
        Err(e) => Err(e),
    }
}

/// An integer size option (an n-gram order, a length) in `min..=max`, checked before anything
/// is allocated.
pub(crate) fn size_option(
    value: &Bound<'_, PyAny>,
    name: &str,
    min: usize,
    max: usize,
) -> PyResult<usize> {
    let accepted = format!("an integer from {min} to {max}");
    let v = int_option(value.as_borrowed(), name, &accepted)?;
    let v = usize::try_from(v).map_err(|_| out_of_range(name, v, min, max))?;
    crate::error::check_range(name, v, min, max)?;
    Ok(v)
}

fn out_of_range(name: &str, v: i64, min: usize, max: usize) -> PyErr {
    Error::invalid_option(format!(
        "{name} must be an integer from {min} to {max}, got {v}"
    ))
    .into()
}

/// An argument of a plain type (`str`, `bool`, `float`): a value of another type is an
/// `InputTypeError` naming the argument and what it accepts, not pyo3's bare `TypeError`.
fn typed<'py, T: FromPyObjectOwned<'py>>(
    value: &Bound<'py, PyAny>,
    name: &str,
    expected: &str,
) -> PyResult<T> {
    value.extract::<T>().map_err(|e| {
        let e: PyErr = e.into();
        let py = value.py();
        // A number out of a type's range (a negative or huge int for u32) is a type mismatch
        // here too: the argument accepts a narrower type.
        if e.is_instance_of::<PyTypeError>(py) || e.is_instance_of::<PyOverflowError>(py) {
            type_error(format!(
                "{name} must be {expected}, got {}",
                type_name(value)
            ))
        } else {
            e
        }
    })
}

/// A `str` argument borrowed from the object, a non-`str` as an `InputTypeError`.
fn str_arg<'a>(value: &'a Bound<'_, PyAny>, name: &str) -> PyResult<&'a str> {
    match value.cast::<PyString>() {
        // A lone surrogate is no name of anything: an option error naming the argument, not
        // the UnicodeEncodeError of its encoding.
        Ok(s) => s.to_str().map_err(|_| {
            Error::invalid_option(format!(
                "{name} holds a lone surrogate, which is not text: {:?}",
                s.to_string_lossy()
            ))
            .into()
        }),
        Err(_) => Err(type_error(format!(
            "{name} must be a str, got {}",
            type_name(value)
        ))),
    }
}

/// An optional `str` argument (`None` or a `str`).
fn optional_str_arg<'a>(value: &'a Bound<'_, PyAny>, name: &str) -> PyResult<Option<&'a str>> {
    if value.is_none() {
        Ok(None)
    } else {
        str_arg(value, name).map(Some)
    }
}

/// Extractors for `#[pyo3(from_py_with = typed::name)]`, one per argument name, so a value of
/// the wrong type names its argument.
pub(crate) mod typed {
    use super::*;

    macro_rules! str_args {
        ($read:ident -> $out:ty, $what:literal { $($name:ident($label:literal);)* }) => {$(
            #[doc = concat!("The `", $label, "` argument: ", $what, ".")]
            pub(crate) fn $name<'a>(value: &'a Bound<'_, PyAny>) -> PyResult<$out> {
                $read(value, $label)
            }
        )*};
    }

    macro_rules! typed_args {
        ($($name:ident($label:literal): $ty:ty, $expected:literal;)*) => {$(
            #[doc = concat!("The `", $label, "` argument: ", $expected, ".")]
            pub(crate) fn $name(value: &Bound<'_, PyAny>) -> PyResult<$ty> {
                super::typed(value, $label, $expected)
            }
        )*};
    }

    str_args!(str_arg -> &'a str, "a str" {
        ref_length("ref_length");
        smooth_method("smooth_method");
        unit("unit");
        name("name");
        empty_reference("empty_reference");
        arithmetic("arithmetic");
        promotion("promotion");
        aligner("aligner");
        stage("stage");
        keep("keep");
        multi_reference("multi_reference");
        text("text");
        line_breaks("line_breaks");
    });

    str_args!(optional_str_arg -> Option<&'a str>, "a str or None" {
        optional_tokenizer("tokenizer");
        normalize("normalize");
    });

    // Every array argument loads numpy first (`ensure_numpy`): rust-numpy's own first use
    // would turn a KeyboardInterrupt into a PanicException.
    macro_rules! array_args {
        ($array:ident { $($name:ident($label:literal): $elem:ty, $expected:literal;)* }) => {$(
            #[doc = concat!("The `", $label, "` argument: ", $expected, ".")]
            pub(crate) fn $name<'py>(
                value: &Bound<'py, PyAny>,
            ) -> PyResult<numpy::$array<'py, $elem>> {
                super::super::convert::ensure_numpy(value.py())?;
                super::typed(value, $label, $expected)
            }
        )*};
    }

    array_args!(PyReadonlyArray2 {
        rows_int64("rows"): i64, "a 2-D int64 numpy array";
        indices("indices"): i64, "a 2-D int64 numpy array";
        baseline("baseline"): i64, "a 2-D int64 numpy array";
        system("system"): i64, "a 2-D int64 numpy array";
        packed_swaps("packed_swaps"): u8, "a 2-D uint8 numpy array";
    });

    array_args!(PyReadonlyArray1 {
        tokens("tokens"): i64, "a 1-D int64 numpy array";
        ends("ends"): i64, "a 1-D int64 numpy array";
        reference_counts("reference_counts"): i64, "a 1-D int64 numpy array";
        caption_ends("caption_ends"): i64, "a 1-D int64 numpy array";
        image_ends("image_ends"): i64, "a 1-D int64 numpy array";
        log_table("log_table"): f64, "a 1-D float64 numpy array";
    });

    /// An argument's name: the function's own, or the one given (`tokens_flag = "tokens"`).
    macro_rules! label {
        ($name:ident) => {
            stringify!($name)
        };
        ($name:ident $label:literal) => {
            $label
        };
    }

    macro_rules! bool_args {
        ($($name:ident $(= $label:literal)?),* $(,)?) => {$(
            #[doc = concat!("The `", label!($name $($label)?), "` argument: a bool.")]
            pub(crate) fn $name(value: &Bound<'_, PyAny>) -> PyResult<bool> {
                super::typed(value, label!($name $($label)?), "a bool")
            }
        )*};
    }

    bool_args! {
        effective_order, compensated_sum, whitespace, eps_smoothing, normalized, no_punct,
        asian_support, raw, auto_reweigh, stem, tokens_flag = "tokens", rows_flag = "rows",
        corpus_flag = "corpus", sclite, merge_compounds, compound_pairs, package, remove_diacritics,
        split_letters, preserve_marks, include_self,
    }

    typed_args! {
        path("path"): std::path::PathBuf, "a str or os.PathLike";
        optional_weights("weights"): Option<Vec<Vec<f64>>>, "a sequence of sequences of float, or None";
        optional_uniform_weights("uniform_weights"): Option<bool>, "a bool or None";
        library_path("library_path"): std::path::PathBuf, "a str or os.PathLike";
        args("args"): Vec<String>, "a sequence of str";
        class_file("class_file"): Vec<u8>, "bytes";
        smooth_value("smooth_value"): Option<f64>, "a float or None";
        factor("factor"): f64, "a float";
        one_plus_factor("one_plus_factor"): f64, "a float";
        correct("correct"): Vec<f64>, "a sequence of float";
        total("total"): Vec<f64>, "a sequence of float";
        hyp_len("hyp_len"): f64, "a float";
        ref_len("ref_len"): f64, "a float";
        smoothed("smoothed"): Option<Vec<f64>>, "a sequence of float or None";
        positive("positive"): Option<Vec<bool>>, "a sequence of bool or None";
        item_lengths("item_lengths"): Option<(f64, f64)>, "a pair of floats or None";
        hypotheses_range("hypotheses"): (usize, usize), "a (start, stop) pair of ints >= 0";
        references_range("references"): (usize, usize), "a (start, stop) pair of ints >= 0";
        log_weights("log_weights"): Vec<f64>, "a sequence of float";
        beta("beta"): f64, "a float";
        two_sigma_squared("two_sigma_squared"): f64, "a float";
    }
}

/// ROUGE's `types`: a sequence of str (a text with a lone surrogate comes through lossily, so
/// that the type check names it as an unknown type).
pub(crate) fn rouge_types(value: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let wrong = || {
        type_error(format!(
            "types must be a sequence of str, got {}",
            type_name(value)
        ))
    };
    if value.is_instance_of::<PyString>() {
        return Err(wrong());
    }
    let items = value.try_iter().map_err(|_| wrong())?;
    items
        .map(|item| {
            let item = item?;
            item.cast::<PyString>()
                .map(|s| s.to_string_lossy().into_owned())
                .map_err(|_| {
                    type_error(format!(
                        "types must be a sequence of str, got a {} in it",
                        type_name(&item)
                    ))
                })
        })
        .collect()
}

/// The `workers` argument (`#[pyo3(from_py_with = workers)]`): `-1` for all cores (or
/// `BLEUPRINT_NUM_THREADS`), else a positive thread count, clamped to the number of cores (see
/// `crate::parallel`).
pub(crate) fn workers(value: &Bound<'_, PyAny>) -> PyResult<i64> {
    let accepted = "a positive thread count or -1 for all cores";
    let n = int_option(value.as_borrowed(), "workers", accepted)?;
    crate::parallel::resolve_workers(n)?;
    Ok(n)
}

/// CIDEr-D's `orders` and `columns` arguments (n-gram orders counted, sums per image).
pub(crate) fn cider_orders(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    size_option(value, "orders", 1, crate::metrics::bleu::MAX_NGRAM_ORDER)
}

/// CIDEr-D's `columns` argument.
pub(crate) fn cider_columns(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    size_option(value, "columns", 1, crate::metrics::bleu::MAX_NGRAM_ORDER)
}

/// BLEU's `max_order` argument (sacrebleu's `max_ngram_order`).
pub(crate) fn max_ngram_order(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    size_option(
        value,
        "max_ngram_order",
        1,
        crate::metrics::bleu::MAX_NGRAM_ORDER,
    )
}

/// BLEU's `scale` argument: 1 (0..1) or 100 (0..100).
pub(crate) fn scale(value: &Bound<'_, PyAny>) -> PyResult<u32> {
    let v = size_option(value, "scale", 1, 100)?;
    match u32::try_from(v) {
        Ok(v @ (1 | 100)) => Ok(v),
        _ => Err(Error::invalid_option(format!("scale must be 1 or 100, got {v}")).into()),
    }
}

/// chrF's `char_order` argument.
pub(crate) fn char_order(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    size_option(
        value,
        "char_order",
        0,
        crate::metrics::chrf::config::MAX_ORDER,
    )
}

/// chrF's `word_order` argument.
pub(crate) fn word_order(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    size_option(
        value,
        "word_order",
        0,
        crate::metrics::chrf::config::MAX_ORDER,
    )
}

/// GLEU's `min_len` argument.
pub(crate) fn min_len(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    size_option(value, "min_len", 1, crate::metrics::gleu::MAX_LEN)
}

/// GLEU's `max_len` argument.
pub(crate) fn max_len(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    size_option(value, "max_len", 1, crate::metrics::gleu::MAX_LEN)
}

/// A line count (`max_lines`): any non-negative `i64`.
pub(crate) fn line_count(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    let max = usize::try_from(i64::MAX).unwrap_or(usize::MAX);
    size_option(value, "max_lines", 0, max)
}

/// Inputs below this many bytes of text run without signal checks: they end in milliseconds,
/// and a watched run costs a few microseconds (its set-up, clock reads, a parallel loop's
/// hand-off).
pub(crate) const WATCH_MIN_BYTES: usize = 1 << 16;

/// The same for TER, whose shift search spends about a millisecond on every few hundred bytes
/// of one line: 4 KiB keeps an unwatched call well under a second.
pub(crate) const WATCH_MIN_BYTES_TER: usize = 1 << 12;

/// How often a watched call checks for signals.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` without the GIL. When `watch` is set (a large input), the work's loops and
/// kernels (or, while a parallel loop runs, this thread waiting for it) briefly take the GIL
/// about every 50 ms to run Python's signal handlers ([`Cancel::run_watched`]): if one raises
/// (Ctrl-C's `KeyboardInterrupt`, an alarm's exception), the work is cancelled through its
/// [`Cancel`] flag, stops within milliseconds, and that exception is raised here. Small inputs
/// run without the checks.
pub(crate) fn run_interruptible<R, F>(py: Python<'_>, watch: bool, work: F) -> PyResult<R>
where
    R: Send,
    F: FnOnce() -> Result<R> + Send,
{
    // A panic would be a bug in the core: it becomes an internal error, not a PanicException.
    let work = || {
        panic::catch_unwind(AssertUnwindSafe(work))
            .unwrap_or_else(|_| Err(Error::internal("the core panicked; please report this bug")))
    };
    if !watch {
        return Ok(py.detach(|| Cancel::run_unwatched(work))?);
    }
    run_watched(py, work)
}

/// Input bytes from which a statistics call hands the pages it freed back to the OS.
pub(crate) const RELEASE_MIN_BYTES: usize = 1 << 20;

/// Returns the pages freed so far to the OS now: mimalloc keeps them for a second by default,
/// so a stream's consecutive chunks, counted on threads that do not reuse each other's pages,
/// would each add their peak to the process's. Reusing pages is what makes mimalloc fast, so
/// this runs only after calls of at least [`RELEASE_MIN_BYTES`] (a stream's chunks).
pub(crate) fn release_freed_memory() {
    // SAFETY: mi_collect only walks mimalloc's own structures; any thread may call it.
    unsafe { libmimalloc_sys::mi_collect(true) }
}

/// [`run_interruptible`]'s watched run.
fn run_watched<R, F>(py: Python<'_>, work: F) -> PyResult<R>
where
    R: Send,
    F: FnOnce() -> Result<R> + Send,
{
    let cancel = Cancel::new();
    let mut raised = None;
    let outcome = py.detach(|| {
        // Once a handler has raised, the call is cancelled: its exception is the one kept.
        let check_signals = || {
            if raised.is_none() {
                raised = Python::attach(|py| py.check_signals()).err();
            }
            raised.is_some()
        };
        cancel.run_watched(SIGNAL_POLL, check_signals, work)
    });
    match (outcome, raised) {
        // The exception the signal handler raised, whether or not the work noticed in time.
        (_, Some(raised)) => Err(raised),
        (outcome, None) => Ok(outcome?),
    }
}
