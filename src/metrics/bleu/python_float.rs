//! Python's float arithmetic as the upstreams' scoring code runs it: the builtin `sum()` of the
//! running interpreter, CPython's `math.fsum`, sacrebleu's `my_log`, and `math.exp`,
//! `math.log` and divisions with the exceptions Python raises ([`PythonError`]).

/// A result that is a value or the exception the Python code raises at that point.
pub type PyResult<T> = std::result::Result<T, PythonError>;

/// The value sacrebleu's `my_log` returns for `log(0)`.
pub const LOG_ZERO: f64 = -9_999_999_999.0;

/// Details of the Python arithmetic being reproduced that vary between interpreter versions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FloatSemantics {
    /// Python >= 3.12's builtin `sum()` adds floats with Neumaier compensation; older versions
    /// add left to right. sacrebleu sums the log precisions with `sum()`.
    pub compensated_sum: bool,
}

/// sacrebleu's `my_log`: the natural log, with [`LOG_ZERO`] for 0.
pub fn my_log(x: f64) -> f64 {
    if x == 0.0 {
        LOG_ZERO
    } else {
        x.ln()
    }
}

/// Python's builtin `sum(values)` (start `0`) for a sequence of floats.
pub fn py_sum(values: impl IntoIterator<Item = f64>, semantics: FloatSemantics) -> f64 {
    let mut values = values.into_iter();
    let Some(first) = values.next() else {
        return 0.0;
    };
    if !semantics.compensated_sum {
        return values.fold(first, |acc, x| acc + x);
    }
    // CPython 3.12 bltinmodule.c: Neumaier's improved Kahan-Babuska summation.
    let (mut sum, mut c) = (first, 0.0f64);
    for x in values {
        let t = sum + x;
        if sum.abs() >= x.abs() {
            c += (sum - t) + x;
        } else {
            c += (x - t) + sum;
        }
        sum = t;
    }
    if c != 0.0 && c.is_finite() {
        sum += c;
    }
    sum
}

/// A Python exception the upstream's own float code raises at this point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PythonError {
    /// `math.exp` overflowed: `OverflowError("math range error")`.
    MathRange,
    /// `math.log` of a number `<= 0`: `ValueError("math domain error")`.
    MathDomain,
    /// `math.fsum`'s partial sums overflowed: `OverflowError("intermediate overflow in fsum")`.
    FsumOverflow,
    /// `math.fsum` of `inf` and `-inf`: `ValueError("-inf + inf in fsum")`.
    FsumInfMinusInf,
    /// An int divided by zero: `ZeroDivisionError("division by zero")`.
    DivisionByZero,
    /// A float divided by zero: `ZeroDivisionError("float division by zero")`.
    FloatDivisionByZero,
    /// A list of scores times a float (multi-prediction with several weight sets):
    /// `TypeError("can't multiply sequence by non-int of type 'float'")`.
    SequenceTimesFloat,
}

impl PythonError {
    /// The builtin exception class's name.
    pub fn class_name(self) -> &'static str {
        match self {
            Self::MathRange | Self::FsumOverflow => "OverflowError",
            Self::MathDomain | Self::FsumInfMinusInf => "ValueError",
            Self::DivisionByZero | Self::FloatDivisionByZero => "ZeroDivisionError",
            Self::SequenceTimesFloat => "TypeError",
        }
    }

    /// CPython's message.
    pub fn message(self) -> &'static str {
        match self {
            Self::MathRange => "math range error",
            Self::MathDomain => "math domain error",
            Self::FsumOverflow => "intermediate overflow in fsum",
            Self::FsumInfMinusInf => "-inf + inf in fsum",
            Self::DivisionByZero => "division by zero",
            Self::FloatDivisionByZero => "float division by zero",
            Self::SequenceTimesFloat => "can't multiply sequence by non-int of type 'float'",
        }
    }
}

/// `math.exp(x)`: an `OverflowError` where the result overflows.
pub(super) fn py_exp(x: f64) -> PyResult<f64> {
    let y = x.exp();
    if y.is_infinite() && x.is_finite() {
        Err(PythonError::MathRange)
    } else {
        Ok(y)
    }
}

/// `math.log(x)`: a `ValueError` for `x <= 0`.
pub(super) fn py_log(x: f64) -> PyResult<f64> {
    if x <= 0.0 {
        Err(PythonError::MathDomain)
    } else {
        Ok(x.ln())
    }
}

/// multi-bleu.perl's `log`, with `-9999999999` for 0 ([`my_log`]), and Python's `ValueError`
/// for a negative number.
pub(super) fn log_or_floor(x: f64) -> PyResult<f64> {
    if x < 0.0 {
        Err(PythonError::MathDomain)
    } else {
        Ok(my_log(x))
    }
}

/// `a / b` of Python ints (exact in `f64`).
pub(super) fn int_div(a: f64, b: f64) -> PyResult<f64> {
    if b == 0.0 {
        Err(PythonError::DivisionByZero)
    } else {
        Ok(a / b)
    }
}

/// `a / b` of Python floats.
pub(super) fn float_div(a: f64, b: f64) -> PyResult<f64> {
    if b == 0.0 {
        Err(PythonError::FloatDivisionByZero)
    } else {
        Ok(a / b)
    }
}

/// CPython's `math.fsum` (`Modules/mathmodule.c`, `math_fsum`), fed one value at a time:
/// Shewchuk's exact partials, then the sum of the partials rounded once, with the half-even
/// correction across partials.
#[derive(Debug, Clone, Default)]
pub struct Fsum {
    partials: Vec<f64>,
    special_sum: f64,
    inf_sum: f64,
}

impl Fsum {
    /// An empty sum.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds every value `other` holds: the result is `fsum` of both sets of values (the
    /// partials are exact, so sums of chunks merge into the sum of the whole, in any order).
    ///
    /// # Errors
    /// As [`Fsum::add`].
    pub fn merge(&mut self, other: &Self) -> PyResult<()> {
        for &p in &other.partials {
            self.add(p)?;
        }
        self.special_sum += other.special_sum;
        self.inf_sum += other.inf_sum;
        Ok(())
    }

    /// Adds `x`.
    ///
    /// # Errors
    /// [`PythonError::FsumOverflow`] when finite values overflow the partial sums.
    pub fn add(&mut self, x: f64) -> PyResult<()> {
        let xsave = x;
        let mut x = x;
        let mut kept = 0;
        for j in 0..self.partials.len() {
            let Some(&partial) = self.partials.get(j) else {
                break;
            };
            let mut y = partial;
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let yr = hi - x;
            let lo = y - yr;
            if lo != 0.0 {
                debug_assert!(
                    kept < self.partials.len(),
                    "`partials` has a slot for every index"
                );
                if let Some(slot) = self.partials.get_mut(kept) {
                    *slot = lo;
                }
                kept += 1;
            }
            x = hi;
        }
        self.partials.truncate(kept);
        if x != 0.0 {
            if !x.is_finite() {
                // An inf or nan summand, or an intermediate overflow.
                if xsave.is_finite() {
                    return Err(PythonError::FsumOverflow);
                }
                if xsave.is_infinite() {
                    self.inf_sum += xsave;
                }
                self.special_sum += xsave;
                self.partials.clear();
            } else {
                self.partials.push(x);
            }
        }
        Ok(())
    }

    /// The correctly rounded sum.
    ///
    /// # Errors
    /// [`PythonError::FsumInfMinusInf`] when both `inf` and `-inf` were added.
    pub fn total(&self) -> PyResult<f64> {
        if self.special_sum != 0.0 {
            return if self.inf_sum.is_nan() {
                Err(PythonError::FsumInfMinusInf)
            } else {
                Ok(self.special_sum)
            };
        }
        let mut partials = self.partials.iter().rev().copied();
        let Some(mut hi) = partials.next() else {
            return Ok(0.0);
        };
        let mut rest = partials.peekable();
        while let Some(y) = rest.next() {
            let x = hi;
            hi = x + y;
            let yr = hi - x;
            let lo = y - yr;
            if lo != 0.0 {
                // Half-even rounding across partials: the next lower partial has lo's sign.
                if let Some(&next) = rest.peek() {
                    if (lo < 0.0 && next < 0.0) || (lo > 0.0 && next > 0.0) {
                        let y = lo * 2.0;
                        let x = hi + y;
                        let yr = x - hi;
                        if y == yr {
                            hi = x;
                        }
                    }
                }
                break;
            }
        }
        Ok(hi)
    }
}

/// `math.fsum(values)`.
///
/// # Errors
/// As [`Fsum::add`] and [`Fsum::total`].
pub fn fsum(values: impl IntoIterator<Item = f64>) -> PyResult<f64> {
    let mut sum = Fsum::new();
    for v in values {
        sum.add(v)?;
    }
    sum.total()
}
