//! BLEU configuration: the knobs that change a score.

use crate::error::{Error, Result};

/// How zero n-gram precisions are smoothed (Chen & Cherry 2014), as in sacrebleu.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Smoothing {
    /// No smoothing: any zero precision gives BLEU 0.
    None,
    /// Method 1: a zero match count is replaced by the given value (sacrebleu default 0.1).
    Floor(f64),
    /// Method 2: the value is added to matches and totals of orders >= 2 (default 1).
    AddK(f64),
    /// Method 3 (NIST, mteval-v13a): the k-th zero precision becomes `1 / (2^k * total)`.
    Exp,
}

impl Smoothing {
    /// Every method name accepted by [`Smoothing::from_name`].
    pub const NAMES: [&'static str; 4] = ["none", "floor", "add-k", "exp"];

    /// Parses sacrebleu's method name; `value = None` takes sacrebleu's default for the method.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for an unknown name.
    pub fn from_name(name: &str, value: Option<f64>) -> Result<Self> {
        match name {
            "none" => Ok(Self::None),
            "floor" => Ok(Self::Floor(value.unwrap_or(0.1))),
            "add-k" => Ok(Self::AddK(value.unwrap_or(1.0))),
            "exp" => Ok(Self::Exp),
            other => Err(Error::invalid_option(format!(
                "unknown smooth_method {other:?}; expected one of {}",
                Self::NAMES.join(", ")
            ))),
        }
    }
}

/// Everything that turns statistics into a BLEU score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BleuConfig {
    /// Highest n-gram order N (sacrebleu `max_ngram_order`, default 4).
    pub max_order: usize,
    /// Smoothing of zero precisions.
    pub smoothing: Smoothing,
    /// Average only over the orders the hypothesis has n-grams for.
    pub effective_order: bool,
}

impl Default for BleuConfig {
    fn default() -> Self {
        Self {
            max_order: 4,
            smoothing: Smoothing::Exp,
            effective_order: false,
        }
    }
}

impl BleuConfig {
    /// Columns of one statistics row: `2 + 2 * max_order`.
    pub fn width(&self) -> usize {
        2 + 2 * self.max_order
    }

    /// Checks the invariants the rest of the crate relies on.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for `max_order == 0`.
    pub fn validate(&self) -> Result<()> {
        if self.max_order == 0 {
            return Err(Error::invalid_option(
                "max_ngram_order must be at least 1, got 0",
            ));
        }
        Ok(())
    }

    /// Names of the statistics columns, in order.
    pub fn column_names(&self) -> Vec<String> {
        let mut names = vec!["hyp_len".to_owned(), "ref_len".to_owned()];
        names.extend((1..=self.max_order).map(|n| format!("correct_{n}")));
        names.extend((1..=self.max_order).map(|n| format!("total_{n}")));
        names
    }
}
