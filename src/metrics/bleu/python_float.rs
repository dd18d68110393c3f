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

/// Bits per digit of [`ExactSum`]'s fixed-point accumulator.
const DIGIT_BITS: usize = 32;
/// Digits enough for every finite double (bit 0 is 2^-1074, the top one 2^1023 × (2 - 2^-52))
/// plus 2^31 of them added up, with one to spare for the sign.
const DIGITS: usize = 68;
/// Additions between carry normalizations: each adds less than 2^32 to a digit, so an `i64`
/// digit cannot overflow before 2^31 of them.
const ADDS_BETWEEN_CARRIES: u32 = 1 << 30;

/// `math.fsum` of many values at a few instructions each, where [`Fsum`]'s partials cost a
/// loop per value: every finite double is an integer multiple of 2^-1074, so the exact sum is
/// kept as a fixed-point integer (32-bit digits in `i64`s, carried now and then) and rounded
/// once at the end. The rounding runs the digits through [`Fsum`], so the result is
/// `math.fsum`'s correctly rounded value of the same exact sum, in any order and any split into
/// merged parts. Non-finite values go to an [`Fsum`] and give its result.
///
/// The one difference from `math.fsum`: it raises an intermediate overflow when partial sums
/// pass `f64::MAX` even where the exact total is representable; this sum returns that total.
#[derive(Debug, Clone)]
pub struct ExactSum {
    digits: [i64; DIGITS],
    adds: u32,
    special: Fsum,
}

impl Default for ExactSum {
    fn default() -> Self {
        Self {
            digits: [0; DIGITS],
            adds: 0,
            special: Fsum::new(),
        }
    }
}

impl ExactSum {
    /// An empty sum.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `x`.
    #[inline]
    pub fn add(&mut self, x: f64) {
        let bits = x.to_bits();
        let biased = ((bits >> 52) & 0x7ff) as usize;
        if biased == 0x7ff {
            // `add` of a non-finite value cannot fail (only finite overflow does).
            self.special.add(x).ok();
            return;
        }
        let fraction = bits & ((1 << 52) - 1);
        // x = mantissa × 2^(position - 1074); subnormals have no implicit bit.
        let (mantissa, position) = if biased == 0 {
            (fraction, 0)
        } else {
            (fraction | 1 << 52, biased - 1)
        };
        let wide = u128::from(mantissa) << (position % DIGIT_BITS);
        let low = position / DIGIT_BITS;
        let negative = bits >> 63 == 1;
        for (k, digit) in self.digits.iter_mut().skip(low).take(3).enumerate() {
            #[allow(clippy::cast_possible_truncation)] // the 32 bits of one digit
            let part = (wide >> (DIGIT_BITS * k)) as u32;
            if negative {
                *digit -= i64::from(part);
            } else {
                *digit += i64::from(part);
            }
        }
        self.adds += 1;
        if self.adds == ADDS_BETWEEN_CARRIES {
            self.carry();
        }
    }

    /// Carries every digit into `[0, 2^32)` but the top one, which keeps the sign.
    fn carry(&mut self) {
        let mut carry = 0i64;
        for digit in &mut self.digits {
            *digit += carry;
            carry = *digit >> DIGIT_BITS;
            *digit -= carry << DIGIT_BITS;
        }
        if let Some(top) = self.digits.last_mut() {
            *top += carry << DIGIT_BITS;
        }
        self.adds = 0;
    }

    /// Adds every value `other` holds.
    pub fn merge(&mut self, other: &Self) {
        self.carry();
        let mut other = other.clone();
        other.carry();
        for (digit, add) in self.digits.iter_mut().zip(other.digits) {
            *digit += add;
        }
        self.adds = 2;
        for &p in &other.special.partials {
            self.special.add(p).ok();
        }
        self.special.special_sum += other.special.special_sum;
        self.special.inf_sum += other.special.inf_sum;
    }

    /// The correctly rounded sum, as `math.fsum` gives it.
    ///
    /// # Errors
    /// [`PythonError::FsumInfMinusInf`] when both `inf` and `-inf` were added, and
    /// [`PythonError::FsumOverflow`] when the sum of finite values is beyond `f64::MAX`.
    pub fn total(&self) -> PyResult<f64> {
        if self.special.special_sum != 0.0 {
            return self.special.total();
        }
        let mut exact = self.clone();
        exact.carry();
        let negative = exact.digits.last().is_some_and(|&top| top < 0);
        if negative {
            for digit in &mut exact.digits {
                *digit = -*digit;
            }
            exact.carry();
        }
        let mut sum = Fsum::new();
        for (k, &digit) in exact.digits.iter().enumerate().rev() {
            if digit == 0 {
                continue;
            }
            // digit × 2^(32k - 1074): a power of two past f64's range means the sum is too.
            let exponent = i32::try_from(DIGIT_BITS * k).unwrap_or(i32::MAX) - 1074;
            let Some(scale) = power_of_two(exponent) else {
                return Err(PythonError::FsumOverflow);
            };
            #[allow(clippy::cast_precision_loss)] // a digit below 2^32 is exact
            let value = digit as f64 * scale;
            if value.is_infinite() {
                return Err(PythonError::FsumOverflow);
            }
            sum.add(if negative { -value } else { value })?;
        }
        sum.total()
    }
}

/// 2^`exponent` where a double holds it exactly (`-1074..=1023`).
fn power_of_two(exponent: i32) -> Option<f64> {
    // Subnormal powers are one fraction bit; normal ones a biased exponent.
    let bits = match exponent {
        -1074..=-1023 => 1u64 << u32::try_from(exponent + 1074).ok()?,
        -1022..=1023 => u64::try_from(exponent + 1023).ok()? << 52,
        _ => return None,
    };
    Some(f64::from_bits(bits))
}
