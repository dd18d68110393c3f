//! BLEU configuration: the knobs that change a score.

use crate::error::{check_range, Error, Result};

/// The highest accepted `max_ngram_order`. Orders above 4 are rare and above 10 unheard of;
/// 255 keeps a statistics row (`2 + 2 * N` columns) small and every per-order buffer bounded.
pub const MAX_NGRAM_ORDER: usize = 255;

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

/// sacrebleu's smoothing methods with their default `smooth_value` (`None`: the method takes
/// no value): the one table of names and defaults.
pub const SMOOTHING_METHODS: [(&str, Option<f64>); 4] = [
    ("none", None),
    ("floor", Some(0.1)),
    ("add-k", Some(1.0)),
    ("exp", None),
];

impl Smoothing {
    /// Every method name accepted by [`Smoothing::from_name`], from [`SMOOTHING_METHODS`].
    pub const NAMES: [&'static str; SMOOTHING_METHODS.len()] = {
        let mut names = [""; SMOOTHING_METHODS.len()];
        let mut i = 0;
        while i < names.len() {
            // In bounds: both arrays have SMOOTHING_METHODS.len() entries.
            #[allow(clippy::indexing_slicing)]
            {
                names[i] = SMOOTHING_METHODS[i].0;
            }
            i += 1;
        }
        names
    };

    /// sacrebleu's default `smooth_value` for `name` (`None` for a method without a value or
    /// an unknown name).
    pub fn default_value(name: &str) -> Option<f64> {
        SMOOTHING_METHODS
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| *v)
    }

    /// The method's value (`floor`'s and `add-k`'s), 0 for the methods without one.
    ///
    /// Loops read the value through this, once. Matching the variant inside a loop lets the
    /// optimizer hoist the value's arithmetic out of the loop and run it whatever the
    /// variant, on the payload bytes of `Exp` or `None`, which are left over from earlier
    /// use of that memory. When they spell a subnormal float each such multiply takes a
    /// microcode assist: sentence BLEU of a 1024 x 1024 pairwise matrix ran 25% slower
    /// from it. `black_box` keeps the choice of 0 ahead of any arithmetic.
    #[inline]
    pub fn value(self) -> f64 {
        std::hint::black_box(match self {
            Self::Floor(v) | Self::AddK(v) => v,
            Self::None | Self::Exp => 0.0,
        })
    }

    /// Parses sacrebleu's method name; `value = None` takes sacrebleu's default for the method.
    /// The value of `floor` and `add-k` must be finite and `>= 0` (a negative one gives a
    /// negative count, and NaN or inf a NaN score).
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for an unknown name or a value out of range.
    pub fn from_name(name: &str, value: Option<f64>) -> Result<Self> {
        // Only methods with a default in SMOOTHING_METHODS take a value.
        let value = || {
            let v = value.or(Self::default_value(name)).ok_or_else(|| {
                Error::internal(format!(
                    "smooth_method {name:?} takes a smooth_value but SMOOTHING_METHODS gives it \
                     no default"
                ))
            })?;
            if v.is_finite() && v >= 0.0 {
                Ok(v)
            } else {
                Err(Error::invalid_option(format!(
                    "smooth_value for smooth_method {name:?} must be a finite number >= 0, got {v}"
                )))
            }
        };
        match name {
            "none" => Ok(Self::None),
            "floor" => Ok(Self::Floor(value()?)),
            "add-k" => Ok(Self::AddK(value()?)),
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
    /// [`crate::ErrorKind::InvalidOption`] for `max_order` outside `1..=`[`MAX_NGRAM_ORDER`],
    /// or a smoothing value that is negative or not finite.
    pub fn validate(&self) -> Result<()> {
        check_range("max_ngram_order", self.max_order, 1, MAX_NGRAM_ORDER)?;
        if let Smoothing::Floor(v) | Smoothing::AddK(v) = self.smoothing {
            if !(v.is_finite() && v >= 0.0) {
                return Err(Error::invalid_option(format!(
                    "smooth_value must be a finite number >= 0, got {v}"
                )));
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    fn with_order(max_order: usize) -> Result<()> {
        BleuConfig {
            max_order,
            ..BleuConfig::default()
        }
        .validate()
    }

    #[test]
    fn orders_are_bounded() {
        assert!(with_order(1).is_ok());
        assert!(with_order(MAX_NGRAM_ORDER).is_ok());
        for bad in [0, MAX_NGRAM_ORDER + 1, 1 << 31, usize::MAX] {
            let err = with_order(bad).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidOption);
            assert!(err.message().contains("max_ngram_order"), "{err}");
            assert!(err.message().contains(&bad.to_string()), "{err}");
        }
    }

    #[test]
    fn every_method_parses_without_a_value() {
        // `from_name` reports a method that takes a value but has no default as an internal
        // error; the table must never contain one.
        for name in Smoothing::NAMES {
            assert!(Smoothing::from_name(name, None).is_ok(), "{name}");
        }
    }

    #[test]
    fn smoothing_values_are_finite_and_not_negative() {
        assert_eq!(
            Smoothing::from_name("floor", None).unwrap(),
            Smoothing::Floor(0.1)
        );
        assert_eq!(
            Smoothing::from_name("add-k", Some(0.0)).unwrap(),
            Smoothing::AddK(0.0)
        );
        for bad in [-0.5, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            for method in ["floor", "add-k"] {
                let err = Smoothing::from_name(method, Some(bad)).unwrap_err();
                assert_eq!(err.kind(), ErrorKind::InvalidOption);
                assert!(err.message().contains("smooth_value"), "{err}");
            }
        }
        let config = BleuConfig {
            smoothing: Smoothing::AddK(-1.0),
            ..BleuConfig::default()
        };
        assert!(config.validate().is_err());
    }
}
