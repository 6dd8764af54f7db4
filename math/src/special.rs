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

/// x^n for a whole exponent (libm's `pow`, not std's `powi`, whose repeated multiplication
/// rounds differently from one platform to another).
#[inline]
pub fn powi(x: f64, n: i32) -> f64 {
    libm::pow(x, n as f64)
}

/// Base-10 logarithm.
#[inline]
pub fn log10(x: f64) -> f64 {
    libm::log10(x)
}

/// √(x² + y²) without overflow or underflow in the squares.
#[inline]
pub fn hypot(x: f64, y: f64) -> f64 {
    libm::hypot(x, y)
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

/// log n! for whole n ≤ 10,000 from a table filled once per thread with [`ln_factorial`] (the
/// same values, without three `lgamma` calls per binomial coefficient in long sums); larger n
/// fall back to [`ln_factorial`].
pub fn ln_factorial_whole(n: u64) -> f64 {
    const TABLE_MAX: u64 = 10_000;
    if n > TABLE_MAX {
        return ln_factorial(n as f64);
    }
    thread_local! {
        static TABLE: std::cell::RefCell<Vec<f64>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    TABLE.with(|t| {
        let mut t = t.borrow_mut();
        while t.len() as u64 <= n {
            let k = t.len() as f64;
            t.push(ln_factorial(k));
        }
        t[n as usize]
    })
}

/// log C(n, k) for whole 0 ≤ k ≤ n, through [`ln_factorial_whole`]. Same values as
/// [`ln_binomial`].
pub fn ln_binomial_whole(n: u64, k: u64) -> f64 {
    ln_factorial_whole(n) - ln_factorial_whole(k) - ln_factorial_whole(n - k)
}

/// log C(n, k) for real 0 ≤ k ≤ n.
pub fn ln_binomial(n: f64, k: f64) -> f64 {
    ln_factorial(n) - ln_factorial(k) - ln_factorial(n - k)
}

/// Stirling's-series error term δ(n) = log n! − [(n + ½) log n − n + ½ log 2π], for n > 0.
///
/// Loader (2000), "Fast and accurate computation of binomial probabilities": the truncated
/// asymptotic series 1/(12n) − 1/(360n³) + 1/(1260n⁵) − 1/(1680n⁷) + 1/(1188n⁹) for n > 15
/// (fewer terms as n grows), and the definition through lgamma below, where every term is small.
pub fn stirling_error(n: f64) -> f64 {
    const S0: f64 = 1.0 / 12.0;
    const S1: f64 = 1.0 / 360.0;
    const S2: f64 = 1.0 / 1260.0;
    const S3: f64 = 1.0 / 1680.0;
    const S4: f64 = 1.0 / 1188.0;
    let nn = n * n;
    if n > 500.0 {
        (S0 - S1 / nn) / n
    } else if n > 80.0 {
        (S0 - (S1 - S2 / nn) / nn) / n
    } else if n > 35.0 {
        (S0 - (S1 - (S2 - S3 / nn) / nn) / nn) / n
    } else if n > 15.0 {
        (S0 - (S1 - (S2 - (S3 - S4 / nn) / nn) / nn) / nn) / n
    } else {
        ln_factorial(n) - (n + 0.5) * ln(n) + n - 0.5 * ln(2.0 * std::f64::consts::PI)
    }
}

/// The deviance term bd0(x, M) = x log(x/M) + M − x ≥ 0, accurate when x ≈ M (Loader 2000):
/// there it is summed as the series 2x Σ_j v^{2j+1}/(2j + 1) − (x − M)v with v = (x − M)/(x + M),
/// instead of the difference of nearly equal terms.
pub fn binomial_deviance(x: f64, m: f64) -> f64 {
    if (x - m).abs() < 0.1 * (x + m) {
        let v = (x - m) / (x + m);
        let mut s = (x - m) * v;
        let mut ej = 2.0 * x * v;
        let v2 = v * v;
        for j in 1..1000 {
            ej *= v2;
            let s1 = s + ej / (2 * j + 1) as f64;
            if s1 == s {
                return s1;
            }
            s = s1;
        }
        s
    } else {
        x * ln(x / m) + m - x
    }
}

/// log of the binomial probability P(K = k), K ~ Bin(m, q), 0 < q < 1, 0 < k < m, by Loader's
/// saddle-point form: log P is the sum of δ(m) − δ(k) − δ(m − k), of −bd0(k, mq) − bd0(m − k,
/// m(1 − q)), and of ½ log(m/(2π k (m − k))), with δ = [`stirling_error`] and bd0 =
/// [`binomial_deviance`]. All terms stay moderate, so near the mode the result keeps ~1e-15
/// relative accuracy even for m near 2^53, where log C(m, k) + k log q + (m − k) log(1 − q) would
/// cancel terms of size m.
pub fn ln_binomial_pmf(k: f64, m: f64, q: f64) -> f64 {
    stirling_error(m)
        - stirling_error(k)
        - stirling_error(m - k)
        - binomial_deviance(k, m * q)
        - binomial_deviance(m - k, m * (1.0 - q))
        + 0.5 * ln(m / (2.0 * std::f64::consts::PI * k * (m - k)))
}

/// log erfc(x) without underflow: libm's erfc up to x = 25 (erfc(25) ≈ 8e-274), beyond it the
/// asymptotic series erfc(x) = e^{−x²}/(x√π)·(1 − 1/(2x²) + 3/(4x⁴) − 15/(8x⁶) + 105/(16x⁸)
/// − 945/(32x¹⁰)), whose next term is below 2e-15 relative there (Abramowitz & Stegun 7.1.23).
pub fn ln_erfc(x: f64) -> f64 {
    if x < 25.0 {
        ln(libm::erfc(x))
    } else {
        let u = 1.0 / (2.0 * x * x);
        let series =
            1.0 - u * (1.0 - 3.0 * u * (1.0 - 5.0 * u * (1.0 - 7.0 * u * (1.0 - 9.0 * u))));
        -x * x - ln(x) - 0.5 * ln(std::f64::consts::PI) + ln(series)
    }
}

/// The scaled complementary error function erfcx(x) = e^{x²}·erfc(x) for x ≥ 0, to a few ulp:
/// below x = 26 as erfc(x)·e^{hi}·e^{lo} with x² = hi + lo split exactly by a fused multiply-add
/// (so the large exponent adds no rounding error), beyond it the asymptotic series of
/// [`ln_erfc`] (next term below 1e-15 relative). Used where two tail probabilities are divided,
/// so their Gaussian factors cancel exactly instead of through rounded logarithms.
pub fn erfcx(x: f64) -> f64 {
    if x < 26.0 {
        let hi = x * x;
        let lo = x.mul_add(x, -hi);
        libm::erfc(x) * exp(hi) * exp(lo)
    } else {
        let u = 1.0 / (2.0 * x * x);
        let series =
            1.0 - u * (1.0 - 3.0 * u * (1.0 - 5.0 * u * (1.0 - 7.0 * u * (1.0 - 9.0 * u))));
        series / (x * std::f64::consts::PI.sqrt())
    }
}

/// log Φ(y), Φ the standard normal distribution function, accurate in both tails.
pub fn ln_normal_cdf(y: f64) -> f64 {
    let r = y / std::f64::consts::SQRT_2;
    if y > 0.0 {
        ln_1p(-0.5 * libm::erfc(r))
    } else {
        -std::f64::consts::LN_2 + ln_erfc(-r)
    }
}

/// Φ(y), the standard normal distribution function, accurate in both tails (erfc).
pub fn normal_cdf(y: f64) -> f64 {
    0.5 * libm::erfc(-y / std::f64::consts::SQRT_2)
}

/// The standard normal quantile Φ⁻¹(p) for p in (0, 1): −∞ at 0, +∞ at 1, NaN outside. A start
/// from Abramowitz & Stegun 26.2.23 (error below 4.5e-4), then Newton's method on log Φ(z) = log p
/// (on the lower half; the upper half by symmetry, 1 − p being exact there), whose derivative
/// φ(z)/Φ(z) is formed in log space so nothing underflows down to p = 1e-300. Checked against
/// mpmath quantiles (`tools/reference/risk.py`) to 1e-14 relative, and Φ(Φ⁻¹(p)) = p.
pub fn normal_quantile(p: f64) -> f64 {
    if p.is_nan() || !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if p == 0.0 {
        return f64::NEG_INFINITY;
    }
    if p == 1.0 {
        return f64::INFINITY;
    }
    if p > 0.5 {
        return -normal_quantile(1.0 - p);
    }
    // p ≤ 1/2: the upper-tail point x with 1 − Φ(x) = p, negated.
    let t = (-2.0 * ln(p)).sqrt();
    let x = t
        - (2.515_517 + t * (0.802_853 + t * 0.010_328))
            / (1.0 + t * (1.432_788 + t * (0.189_269 + t * 0.001_308)));
    let mut z = -x;
    let target = ln(p);
    let ln_density = |z: f64| -0.5 * z * z - 0.5 * ln(2.0 * std::f64::consts::PI);
    for _ in 0..8 {
        let g = ln_normal_cdf(z) - target;
        let slope = exp(ln_density(z) - ln_normal_cdf(z));
        let next = z - g / slope;
        if (next - z).abs() <= 1e-15 * z.abs().max(1.0) {
            return next;
        }
        z = next;
    }
    z
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
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
    fn loader_binomial_matches_direct_small_cases() {
        // Bin(10, 0.3) at k = 3: C(10,3)·0.3³·0.7⁷ = 0.266827932.
        let direct = 120.0 * 0.3f64.powi(3) * 0.7f64.powi(7);
        assert!((ln_binomial_pmf(3.0, 10.0, 0.3).exp() / direct - 1.0).abs() < 1e-14);
        for &(k, m, q) in &[
            (1.0f64, 2.0f64, 0.5f64),
            (50.0, 100.0, 0.5),
            (7.0, 1000.0, 0.01),
        ] {
            let d = ln_binomial(m, k) + k * q.ln() + (m - k) * (1.0 - q).ln();
            assert!((ln_binomial_pmf(k, m, q) - d).abs() < 1e-12, "{k} {m} {q}");
        }
    }

    #[test]
    fn log_normal_tails() {
        // Φ(−40): log = −804.608442013754… (mpmath), beyond where erfc underflows.
        assert!((ln_normal_cdf(-40.0) - (-804.608_442_013_754_3)).abs() < 1e-9);
        assert!((ln_normal_cdf(0.0) - 0.5f64.ln()).abs() < 1e-16);
        // Φ(10) = 1 − 7.62e-24: log ≈ −7.62e-24.
        assert!((ln_normal_cdf(10.0) + 7.619_853_024_160_527e-24).abs() < 1e-37);
        // Continuity at the switch point x = 25.
        let (a, b) = (ln_erfc(25.0 - 1e-9), ln_erfc(25.0));
        assert!((a - b).abs() < 1e-7, "{a} {b}");
    }

    #[test]
    fn ln_binomial_small_cases() {
        assert!((ln_binomial(5.0, 2.0) - 10f64.ln()).abs() < 1e-12);
        assert!(ln_binomial(7.0, 0.0).abs() < 1e-12);
    }
}
