//! The settings that change chrF statistics or scores.

use crate::error::{Error, Result};

/// chrF settings. `beta` enters only as `factor = beta²` and `1 + factor`, which the caller
/// computes with the same arithmetic as sacrebleu (Python ints stay exact there).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChrfConfig {
    /// Highest character n-gram order (sacrebleu's `char_order`, default 6).
    pub char_order: usize,
    /// Highest word n-gram order (`word_order`; 2 is chrF++).
    pub word_order: usize,
    /// `beta ** 2`.
    pub factor: f64,
    /// `1 + beta ** 2`.
    pub one_plus_factor: f64,
    /// Keep whitespace inside character n-grams.
    pub whitespace: bool,
    /// Average per-order F-scores with eps for empty orders (chrF++.py), instead of the F-score
    /// of the averaged precision and recall over orders that have n-grams (the default).
    pub eps_smoothing: bool,
}

impl Default for ChrfConfig {
    fn default() -> Self {
        Self {
            char_order: 6,
            word_order: 0,
            factor: 4.0,
            one_plus_factor: 5.0,
            whitespace: false,
            eps_smoothing: false,
        }
    }
}

impl ChrfConfig {
    /// Character orders plus word orders.
    pub fn order(&self) -> usize {
        self.char_order + self.word_order
    }

    /// Columns of a statistics row: `[hyp, ref, match]` for every order.
    pub fn width(&self) -> usize {
        3 * self.order()
    }

    /// Checks the settings.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for no orders at all or a negative or non-finite
    /// beta.
    pub fn validate(&self) -> Result<()> {
        if self.order() == 0 {
            return Err(Error::invalid_option(
                "chrF needs char_order + word_order >= 1",
            ));
        }
        if !(self.factor.is_finite() && self.factor >= 0.0 && self.one_plus_factor.is_finite()) {
            return Err(Error::invalid_option("chrF beta must be a finite number"));
        }
        Ok(())
    }
}
