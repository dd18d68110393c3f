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
