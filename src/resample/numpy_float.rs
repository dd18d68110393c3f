//! Floats that are Python floats or numpy scalars, combined with the scalar promotion of the
//! numpy that is loaded: numpy 2's NEP 50 or numpy 1's legacy rule.
//!
//! sacrebleu's bootstrap resamples float32 statistics and scores them with its ordinary
//! Python code, so a score is a mix: `n_match / n_hyp` is float32, `eps` is a Python float.
//! What a Python float meeting a `numpy.float32` gives depends on numpy ([`Promotion`]), so
//! the same sacrebleu computes different bootstrap figures under numpy 1 and numpy 2. This
//! type replays either arithmetic, so the result has both the value and the type sacrebleu
//! gets under the numpy it runs with.

use std::ops::{Add, Div, Mul, Sub};

/// How numpy types a `numpy.float32` scalar meeting a Python float (or int).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Promotion {
    /// numpy 2 (NEP 50): the Python float is "weak": it is rounded to float32 first and the
    /// result is a `numpy.float32`.
    Weak,
    /// numpy 1: between two scalars, value-based casting is plain type promotion, where a
    /// Python float counts as float64: the float32 is widened, the operation is done in
    /// double precision and the result is a `numpy.float64`.
    Legacy,
}

crate::enums::name_table!(Promotion, "numpy scalar promotion", {
    Weak => "weak",
    Legacy => "legacy",
});

/// A Python float or a numpy float scalar.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NumpyFloat {
    /// A Python float (or int).
    Python(f64),
    /// A `numpy.float32` scalar, with the promotion it meets Python floats under.
    Float32(f32, Promotion),
    /// A `numpy.float64` scalar: numpy 1's result of a float32 meeting a Python float. It
    /// wins over float32 under either promotion.
    Float64(f64),
}

impl NumpyFloat {
    /// The value as `f64` (exact for every kind).
    pub fn value(self) -> f64 {
        match self {
            Self::Python(v) | Self::Float64(v) => v,
            Self::Float32(v, _) => f64::from(v),
        }
    }

    /// Whether numpy holds this value as a numpy scalar (`numpy.float32` under
    /// [`Promotion::Weak`], `numpy.float64` under [`Promotion::Legacy`]), not a Python float.
    pub fn is_numpy(self) -> bool {
        !matches!(self, Self::Python(_))
    }

    /// Whether this is a `numpy.float32`.
    pub fn is_float32(self) -> bool {
        matches!(self, Self::Float32(..))
    }

    /// The value stored into an element of a float32 array (`array[k] += x`), where numpy
    /// rounds whatever the arithmetic gave to float32; `like` is the element read before.
    #[allow(clippy::cast_possible_truncation)] // numpy's cast to float32 rounds
    pub fn stored_like(self, like: Self) -> Self {
        match like {
            Self::Float32(_, promotion) => Self::Float32(self.value() as f32, promotion),
            _ => self,
        }
    }

    #[allow(clippy::cast_possible_truncation)] // NEP 50 rounds a weak Python float to float32
    fn combine(
        self,
        other: Self,
        f64_op: fn(f64, f64) -> f64,
        f32_op: fn(f32, f32) -> f32,
    ) -> Self {
        use Promotion::Weak;
        match (self, other) {
            (Self::Python(a), Self::Python(b)) => Self::Python(f64_op(a, b)),
            (Self::Float32(a, p), Self::Float32(b, _)) => Self::Float32(f32_op(a, b), p),
            (Self::Python(a), Self::Float32(b, Weak)) => Self::Float32(f32_op(a as f32, b), Weak),
            (Self::Float32(a, Weak), Self::Python(b)) => Self::Float32(f32_op(a, b as f32), Weak),
            // numpy 1's float32 meeting a Python float, and any numpy.float64: double wins.
            (a, b) => Self::Float64(f64_op(a.value(), b.value())),
        }
    }
}

impl From<f64> for NumpyFloat {
    fn from(value: f64) -> Self {
        Self::Python(value)
    }
}

impl Add for NumpyFloat {
    type Output = Self;
    fn add(self, other: Self) -> Self {
        self.combine(other, |a, b| a + b, |a, b| a + b)
    }
}

impl Sub for NumpyFloat {
    type Output = Self;
    fn sub(self, other: Self) -> Self {
        self.combine(other, |a, b| a - b, |a, b| a - b)
    }
}

impl Mul for NumpyFloat {
    type Output = Self;
    fn mul(self, other: Self) -> Self {
        self.combine(other, |a, b| a * b, |a, b| a * b)
    }
}

impl Div for NumpyFloat {
    type Output = Self;
    fn div(self, other: Self) -> Self {
        self.combine(other, |a, b| a / b, |a, b| a / b)
    }
}

#[cfg(test)]
mod tests {
    use super::NumpyFloat::{Float32, Float64, Python};
    use super::Promotion::{Legacy, Weak};

    #[test]
    fn python_floats_stay_double() {
        assert_eq!(Python(0.1) + Python(0.2), Python(0.1 + 0.2));
    }

    #[test]
    fn nep_50_rounds_a_python_float_meeting_float32_first() {
        // numpy 2: np.float32(1) + 1e-16 == np.float32(1)
        assert_eq!(Python(1e-16) + Float32(1.0, Weak), Float32(1.0, Weak));
        assert_eq!(
            Float32(3.0, Weak) * Python(0.1),
            Float32(3.0 * 0.1f32, Weak)
        );
        assert!((Float32(1.0, Weak) / Python(3.0)).is_float32());
    }

    #[test]
    fn numpy_1_widens_float32_meeting_a_python_float() {
        // numpy 1: np.float32(3) * 0.1 == np.float64(0.30000000000000004)
        assert_eq!(Float32(3.0, Legacy) * Python(0.1), Float64(3.0 * 0.1));
        assert_eq!(Python(1e-16) + Float32(1.0, Legacy), Float64(1.0 + 1e-16));
        // Two float32 stay float32; a float64 then wins over float32.
        let third = Float32(1.0, Legacy) / Float32(3.0, Legacy);
        assert_eq!(third, Float32(1.0f32 / 3.0, Legacy));
        assert_eq!(Float64(0.5) + third, Float64(0.5 + f64::from(1.0f32 / 3.0)));
        assert!(third.is_numpy() && !Python(1.0).is_numpy());
    }

    #[test]
    fn storing_into_a_float32_array_rounds() {
        let element = Float32(0.1, Legacy);
        let sum = element + Python(1e-9);
        assert_eq!(sum, Float64(f64::from(0.1f32) + 1e-9));
        assert_eq!(
            sum.stored_like(element),
            Float32((f64::from(0.1f32) + 1e-9) as f32, Legacy)
        );
        assert_eq!(Python(2.0).stored_like(Python(1.0)), Python(2.0));
    }
}
