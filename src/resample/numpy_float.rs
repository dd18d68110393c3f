//! Floats that are either Python floats or `numpy.float32` scalars, combined with numpy 2's
//! promotion rules (NEP 50).
//!
//! sacrebleu's bootstrap resamples float32 statistics and scores them with its ordinary
//! Python code, so a score is a mix: `n_match / n_hyp` is float32, `eps` is a Python float,
//! and a Python float meeting a float32 is first rounded to float32 (a "weak" scalar). This
//! type replays that arithmetic so the result has both the value and the type sacrebleu gets.

use std::ops::{Add, Div, Mul, Sub};

/// A Python float (`f64`) or a `numpy.float32`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NumpyFloat {
    /// A Python float (or int): weak, it takes the other operand's type.
    Python(f64),
    /// A `numpy.float32` scalar.
    Float32(f32),
}

impl NumpyFloat {
    /// The value as `f64` (exact for both kinds).
    pub fn value(self) -> f64 {
        match self {
            Self::Python(v) => v,
            Self::Float32(v) => f64::from(v),
        }
    }

    /// Whether numpy would hold this value as float32.
    pub fn is_float32(self) -> bool {
        matches!(self, Self::Float32(_))
    }

    #[allow(clippy::cast_possible_truncation)] // numpy rounds a weak Python float to float32
    fn combine(
        self,
        other: Self,
        f64_op: fn(f64, f64) -> f64,
        f32_op: fn(f32, f32) -> f32,
    ) -> Self {
        match (self, other) {
            (Self::Python(a), Self::Python(b)) => Self::Python(f64_op(a, b)),
            (Self::Float32(a), Self::Float32(b)) => Self::Float32(f32_op(a, b)),
            (Self::Python(a), Self::Float32(b)) => Self::Float32(f32_op(a as f32, b)),
            (Self::Float32(a), Self::Python(b)) => Self::Float32(f32_op(a, b as f32)),
        }
    }
}

crate::enums::wrap_from!(NumpyFloat {
    Python(f64),
    Float32(f32),
});

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
    use super::NumpyFloat::{Float32, Python};

    #[test]
    fn python_floats_stay_double() {
        assert_eq!(Python(0.1) + Python(0.2), Python(0.1 + 0.2));
    }

    #[test]
    fn a_python_float_meeting_float32_is_rounded_first() {
        // numpy 2: np.float32(1) + 1e-16 == np.float32(1)
        assert_eq!(Python(1e-16) + Float32(1.0), Float32(1.0));
        assert_eq!(Float32(3.0) * Python(0.1), Float32(3.0 * 0.1f32));
        assert!((Float32(1.0) / Python(3.0)).is_float32());
    }
}
