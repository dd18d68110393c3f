//! The crate's one error type: an opaque [`Error`] with a public [`ErrorKind`].

use std::fmt;

/// What went wrong, for callers (the Python bindings) that map each kind to one exception class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// An option value that is not one of the accepted choices (unknown tokenizer, bad order).
    InvalidOption,
    /// Input whose shape or content breaks a documented invariant (ragged streams, no references).
    InvalidInput,
    /// Bytes that are not valid UTF-8.
    Decode,
    /// A value of the wrong type (the bindings raise it for non-`str` items; the pure-Rust core
    /// is typed and never does).
    InvalidType,
    /// A broken internal invariant, i.e. a bug in bleuprint; the message names the invariant.
    Internal,
    /// The caller cancelled the work (Ctrl-C in Python) before it finished.
    Interrupted,
}

/// An error from the bleuprint core. The message names the received value, what was expected
/// and where (argument, segment or stream index).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }

    pub(crate) fn invalid_option(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidOption, message)
    }

    pub(crate) fn invalid_input(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidInput, message)
    }

    /// A bug: `invariant` says what should have held.
    pub(crate) fn internal(invariant: impl Into<String>) -> Self {
        Self::new(
            ErrorKind::Internal,
            format!(
                "internal error (a bug in bleuprint, please report it): {}",
                invariant.into()
            ),
        )
    }

    /// The work was cancelled through a [`crate::cancel::Cancel`] flag.
    pub(crate) fn interrupted() -> Self {
        Self::new(ErrorKind::Interrupted, "interrupted")
    }

    /// The kind of failure.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The human-readable message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Shorthand for results whose error is [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// A count as a statistics value. Counts are lengths of in-memory buffers, so they fit in an
/// `i64` on every supported platform; saturating keeps a wrong count impossible to wrap.
pub(crate) fn to_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Item `i` of `items` in a loop over rows that were sized from `items`: a missing item is a
/// bug, reported as [`ErrorKind::Internal`] naming `what` instead of being read as empty.
///
/// # Errors
/// [`ErrorKind::Internal`] when `i` is out of range.
pub(crate) fn row_item<'a, T>(items: &'a [T], i: usize, what: &str) -> Result<&'a T> {
    items.get(i).ok_or_else(|| {
        Error::internal(format!("row {i} has no {what} (there are {})", items.len()))
    })
}

/// Checks an integer option against its inclusive range, naming the option, the value and the
/// accepted range.
///
/// # Errors
/// [`ErrorKind::InvalidOption`] when `value` is outside `min..=max`.
pub(crate) fn check_range(name: &str, value: usize, min: usize, max: usize) -> Result<()> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(Error::invalid_option(format!(
            "{name} must be an integer from {min} to {max}, got {value}"
        )))
    }
}
