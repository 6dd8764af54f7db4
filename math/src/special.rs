//! Elementary functions in log space.
//!
//! Everything goes through the pure-Rust `libm` crate (a port of musl's libm, errors below one ulp
//! for these functions) so that native and wasm32 builds agree bit for bit.

/// log(1 + x), accurate for small x (where `ln(1.0 + x)` would lose every digit below x ≈ 1e-16).
#[inline]
pub fn ln_1p(x: f64) -> f64 {
    libm::log1p(x)
}

/// e^x − 1, accurate for small x (where `exp(x) - 1.0` loses all digits below x ≈ 1e-16).
#[inline]
pub fn exp_m1(x: f64) -> f64 {
    libm::expm1(x)
}

/// Natural logarithm.
#[inline]
pub fn ln(x: f64) -> f64 {
    libm::log(x)
}

/// e^x.
#[inline]
pub fn exp(x: f64) -> f64 {
    libm::exp(x)
}

/// x^y.
#[inline]
pub fn pow(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

/// log(e^x − 1) for x > 0, without overflow for large x and without cancellation for small x.
///
/// Regimes: for x > 36, e^(−x) < 2^(−52) and log(e^x − 1) = x + log1p(−e^(−x)); otherwise
/// log(expm1(x)), where `expm1` keeps full relative accuracy down to subnormal x.
pub fn ln_exp_m1(x: f64) -> f64 {
    if x > 36.0 {
        x + ln_1p(-exp(-x))
    } else {
        ln(exp_m1(x))
    }
}

/// log(e^a + e^b), exact up to rounding, for any finite or −∞ inputs.
pub fn log_add_exp(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
    if hi == f64::NEG_INFINITY {
        return f64::NEG_INFINITY;
    }
    hi + ln_1p(exp(lo - hi))
}

/// log(1 + e^x) (softplus), accurate in both tails.
///
/// For x < −37, log1p(e^x) = e^x to double precision; for x > 37, x + e^(−x).
pub fn ln_1p_exp(x: f64) -> f64 {
    if x > 37.0 {
        x + exp(-x)
    } else {
        ln_1p(exp(x))
    }
}

/// log Γ(x + 1) = log x! for x ≥ 0, via libm's `lgamma`.
#[inline]
pub fn ln_factorial(x: f64) -> f64 {
    libm::lgamma(x + 1.0)
}

/// log C(n, k) for real 0 ≤ k ≤ n.
pub fn ln_binomial(n: f64, k: f64) -> f64 {
    ln_factorial(n) - ln_factorial(k) - ln_factorial(n - k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_exp_m1_matches_direct_form_in_the_middle_and_stays_finite_outside() {
        for &x in &[
            1e-300, 1e-20, 1e-8, 0.5, 1.0, 20.0, 36.0, 36.5, 100.0, 700.0,
        ] {
            let v = ln_exp_m1(x);
            assert!(v.is_finite(), "x = {x}");
            if (1e-3..=36.0).contains(&x) {
                // The naive form is only trustworthy away from 0.
                let direct = (x.exp() - 1.0).ln();
                assert!(
                    (v - direct).abs() <= 1e-12 * direct.abs().max(1.0),
                    "x = {x}"
                );
            }
        }
        // log(e^700 − 1) = 700 to double precision.
        assert_eq!(ln_exp_m1(700.0), 700.0);
        // log(expm1(1e-300)) = log(1e-300).
        assert!((ln_exp_m1(1e-300) - 1e-300f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn log_add_exp_handles_infinities_and_large_gaps() {
        assert_eq!(
            log_add_exp(f64::NEG_INFINITY, f64::NEG_INFINITY),
            f64::NEG_INFINITY
        );
        assert_eq!(log_add_exp(f64::NEG_INFINITY, 3.0), 3.0);
        assert!((log_add_exp(0.0, 0.0) - 2f64.ln()).abs() < 1e-15);
        assert_eq!(log_add_exp(1000.0, 0.0), 1000.0);
    }

    #[test]
    fn ln_binomial_small_cases() {
        assert!((ln_binomial(5.0, 2.0) - 10f64.ln()).abs() < 1e-12);
        assert!(ln_binomial(7.0, 0.0).abs() < 1e-12);
    }
}
