//! Typed errors: every out-of-domain input is reported, never a panic.

use std::fmt;

/// Why a computation could not be carried out.
#[derive(Clone, Debug, PartialEq)]
pub enum MathError {
    /// An input was NaN.
    NotANumber {
        /// The parameter's symbol, e.g. "ε".
        name: &'static str,
    },
    /// An input lies outside the function's domain.
    OutOfDomain {
        /// The parameter's symbol, e.g. "p".
        name: &'static str,
        /// The offending value.
        value: f64,
        /// The domain, in words ("between 0 and 1").
        expected: &'static str,
    },
    /// Two inputs are each valid but not together (e.g. m > n without replacement).
    Inconsistent {
        /// What is wrong, in one sentence.
        reason: String,
    },
    /// An inverse has no solution in the domain (e.g. a target δ′ below what δ = 0 gives).
    NoSolution {
        /// Why, in one sentence.
        reason: String,
    },
    /// The root finder was given an interval whose end values have the same sign.
    NotBracketed {
        /// Function value at the lower end.
        f_lo: f64,
        /// Function value at the upper end.
        f_hi: f64,
    },
    /// The root finder did not reach its tolerance within its iteration budget.
    NoConvergence {
        /// Iterations used.
        iterations: usize,
    },
    /// An accountant cannot account for this event (a sampler or mechanism it has no analysis
    /// of).
    Unsupported {
        /// Why, in one sentence.
        reason: String,
    },
}

impl fmt::Display for MathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MathError::NotANumber { name } => write!(f, "{name} is not a number"),
            MathError::OutOfDomain {
                name,
                value,
                expected,
            } => write!(f, "{name} must be {expected} (got {})", short(*value)),
            MathError::Inconsistent { reason }
            | MathError::NoSolution { reason }
            | MathError::Unsupported { reason } => {
                write!(f, "{reason}")
            }
            MathError::NotBracketed { f_lo, f_hi } => write!(
                f,
                "root finder: no sign change on the interval (f = {f_lo:e} and {f_hi:e} at its ends)"
            ),
            MathError::NoConvergence { iterations } => {
                write!(f, "root finder: no convergence after {iterations} iterations")
            }
        }
    }
}

impl std::error::Error for MathError {}

/// A number for a message: as Rust prints it when that is short, else in scientific notation
/// (1e-300 rather than three hundred digits), the same value either way.
pub(crate) fn short(x: f64) -> String {
    let plain = format!("{x}");
    if plain.len() <= 12 {
        plain
    } else {
        format!("{x:e}")
    }
}
