//! The settings that change chrF statistics or scores.

use crate::error::{check_range, Error, Result};

/// The highest accepted `char_order` and `word_order`. sacrebleu's defaults are 6 and 0 (2
/// for chrF++); 255 keeps a row (`3 * (char_order + word_order)` columns) small and every
/// per-order buffer bounded.
pub const MAX_ORDER: usize = 255;

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

    /// Names of the statistics columns: `char1_hyp, char1_ref, char1_match, ...`, then the
    /// word orders (`word1_hyp`, ...).
    pub fn column_names(&self) -> Vec<String> {
        let kinds = (1..=self.char_order)
            .map(|n| format!("char{n}"))
            .chain((1..=self.word_order).map(|n| format!("word{n}")));
        kinds
            .flat_map(|k| ["hyp", "ref", "match"].map(|part| format!("{k}_{part}")))
            .collect()
    }

    /// Checks the settings.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for an order above [`MAX_ORDER`], no orders at all,
    /// or a `beta` whose square is not a finite number (sacrebleu accepts `beta = 0`: the
    /// F-score is then the precision).
    pub fn validate(&self) -> Result<()> {
        check_range("char_order", self.char_order, 0, MAX_ORDER)?;
        check_range("word_order", self.word_order, 0, MAX_ORDER)?;
        if self.order() == 0 {
            return Err(Error::invalid_option(
                "chrF needs char_order + word_order >= 1, got 0 and 0",
            ));
        }
        if !(self.factor.is_finite() && self.factor >= 0.0 && self.one_plus_factor.is_finite()) {
            return Err(Error::invalid_option(format!(
                "chrF beta must be a finite number with a finite square, got beta ** 2 = {}",
                self.factor
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_are_bounded() {
        let with = |char_order, word_order| {
            ChrfConfig {
                char_order,
                word_order,
                ..ChrfConfig::default()
            }
            .validate()
        };
        assert!(with(MAX_ORDER, MAX_ORDER).is_ok());
        assert!(with(0, 2).is_ok());
        assert!(with(0, 0).is_err());
        for (c, w, name) in [
            (MAX_ORDER + 1, 0, "char_order"),
            (6, 1 << 62, "word_order"),
            (1 << 31, 2, "char_order"),
        ] {
            let err = with(c, w).unwrap_err();
            assert!(err.message().contains(name), "{err}");
        }
    }
}
