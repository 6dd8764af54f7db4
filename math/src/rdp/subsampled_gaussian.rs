//! The exact Rényi DP of the Poisson-subsampled Gaussian mechanism (add/remove; Mironov, Talwar &
//! Zhang 2019): whole orders by the binomial sum, fractional orders by the two-sided series with
//! its signs kept (or, for σ ≥ 10 and α ≤ σ, by direct quadrature), and the signs-dropped series a
//! widely used implementation computes, kept to show how much it overestimates.

use super::bounds::{check_rate, epsilon_from_ln_excess, integer_order, ln_binomial_mixture};
use super::mechanism::check_order;
use crate::special::{exp, ln, ln_1p, ln_binomial, ln_exp_m1, log_add_exp};
use crate::{check_positive, MathError};

/// Exact RDP of the Poisson-subsampled Gaussian mechanism (add/remove) at an integer order α ≥ 2:
/// A = Σ_{k=0..α} C(α,k)(1 − q)^{α−k} q^k e^{(k² − k)/(2σ²)} (Mironov, Talwar & Zhang 2019,
/// arXiv 1908.10530, Section 3.3), computed as A − 1 = Σ_{k≥2} C(α,k)(1−q)^{α−k}q^k·expm1((k²−k)/(2σ²))
/// (the binomial weights sum to 1 and the k = 0, 1 exponents vanish), every term positive.
///
/// Exact; within 1e-10 relative of mpmath on the reference table.
pub fn poisson_gaussian_integer(sigma: f64, q: f64, alpha: u64) -> Result<f64, MathError> {
    check_positive("σ", sigma)?;
    check_rate("q", q)?;
    check_order(alpha as f64)?;
    if alpha < 2 || q == 0.0 {
        return Ok(0.0);
    }
    let s2 = 2.0 * sigma * sigma;
    let ln_excess = ln_binomial_mixture(alpha, q, |k| ln_exp_m1((k * k - k) as f64 / s2));
    Ok(epsilon_from_ln_excess(ln_excess, alpha as f64))
}

/// Signed log-space accumulator: the sum of terms ±e^{l}, kept as log(positive part) and
/// log(negative part).
#[derive(Clone, Copy, Debug)]
struct SignedLogSum {
    pos: f64,
    neg: f64,
}

impl SignedLogSum {
    fn new() -> SignedLogSum {
        SignedLogSum {
            pos: f64::NEG_INFINITY,
            neg: f64::NEG_INFINITY,
        }
    }
    fn add(&mut self, positive: bool, ln_abs: f64) {
        if positive {
            self.pos = log_add_exp(self.pos, ln_abs);
        } else {
            self.neg = log_add_exp(self.neg, ln_abs);
        }
    }
    /// The sign (true = positive or zero) and log of the absolute value of the total.
    fn net(&self) -> (bool, f64) {
        if self.pos >= self.neg {
            if self.pos == f64::NEG_INFINITY {
                return (true, f64::NEG_INFINITY);
            }
            (true, self.pos + ln_1p(-exp(self.neg - self.pos)))
        } else {
            (false, self.neg + ln_1p(-exp(self.pos - self.neg)))
        }
    }
}

/// log|C(α, i)| and the sign of the generalised binomial coefficient C(α, i) = α(α−1)…(α−i+1)/i!
/// for real α > 1 and whole i ≥ 0: positive for i ≤ ⌊α⌋ + 1, then alternating.
fn ln_abs_binomial(alpha: f64, i: u64) -> (f64, bool) {
    let k = i as f64;
    if k <= alpha + 1.0 {
        (ln_binomial(alpha, k).max(f64::NEG_INFINITY), true)
    } else {
        // |C(α, i)| = Γ(i − α)/(Γ(−α)… ) is awkward near integers; use the reflection
        // |C(α, i)| = |Γ(α + 1)|/(i!·|Γ(α − i + 1)|) with |Γ(x)| for negative x from lgamma.
        let (lg_neg, _) = libm::lgamma_r(alpha - k + 1.0);
        let v = libm::lgamma(alpha + 1.0) - libm::lgamma(k + 1.0) - lg_neg;
        // Sign: the factors α − j for j = 0..i−1 are negative for j > α; there are i − ⌊α⌋ − 1 of them.
        let negatives = i - (alpha.floor() as u64) - 1;
        (v, negatives.is_multiple_of(2))
    }
}

/// Linear-scale tail of an alternating series, relative to e^{scale}, with Euler acceleration.
struct Tail {
    scale: f64,
    partial: f64,
    window: [f64; TAIL_WINDOW],
    count: usize,
    last: f64,
}

const TAIL_WINDOW: usize = 12;

impl Tail {
    fn new(scale: f64) -> Tail {
        Tail {
            scale,
            partial: 0.0,
            window: [0.0; TAIL_WINDOW],
            count: 0,
            last: f64::NAN,
        }
    }
    /// Add a term; once the window is full, return the accelerated sum when it has settled.
    fn push(&mut self, x: f64) -> Option<f64> {
        self.partial += x;
        self.window.rotate_left(1);
        self.window[TAIL_WINDOW - 1] = self.partial;
        self.count += 1;
        if self.count < TAIL_WINDOW {
            return None;
        }
        // Repeated averaging of consecutive partial sums, TAIL_WINDOW − 1 times.
        let mut w = self.window;
        for level in 1..TAIL_WINDOW {
            for j in 0..TAIL_WINDOW - level {
                w[j] = 0.5 * (w[j] + w[j + 1]);
            }
        }
        let e = w[0];
        let settled = (e - self.last).abs() <= 1e-15 * (1.0 + e).abs();
        self.last = e;
        settled.then_some(e)
    }
}

/// A − 1 of the Poisson-subsampled Gaussian by direct integration, for σ ≥ 10 and α ≤ σ:
/// A − 1 = E_{t∼N(0,1)}[f(u(t))], u(t) = q·expm1(t/σ − 1/(2σ²)), f(u) = (1 + u)^α − 1 − αu
/// (the αu term integrates to 0, and f ≥ 0 by convexity, so nothing cancels). f is summed as its
/// binomial series Σ_{n≥2} C(α,n)uⁿ while |αu| < ½ (first term dominant), else directly. The
/// trapezoidal rule with step ¼ on t ∈ [−40, 40] converges exponentially for a Gaussian times an
/// entire function of moderate growth (error of order e^{−2π·a/h} for a strip of half-width a in
/// which the integrand stays moderate, a ≥ 5 here since α/σ ≤ 1): below 1e-15 relative. Used
/// where A − 1 is tiny and the MTZ series would cancel to O(1) terms (q near ½).
fn poisson_gaussian_quadrature(sigma: f64, q: f64, alpha: f64) -> f64 {
    let f = |u: f64| -> f64 {
        if (alpha * u).abs() < 0.5 {
            let mut term = alpha * (alpha - 1.0) / 2.0 * u * u;
            let mut sum = term;
            for n in 3..200 {
                let nf = n as f64;
                term *= (alpha - nf + 1.0) / nf * u;
                sum += term;
                if term.abs() <= 1e-18 * sum.abs() {
                    break;
                }
            }
            sum
        } else {
            crate::special::exp_m1(alpha * ln_1p(u)) - alpha * u
        }
    };
    let h = 0.25;
    let shift = 1.0 / (2.0 * sigma * sigma);
    let mut sum = 0.0;
    for i in -160i32..=160 {
        let t = i as f64 * h;
        let u = q * crate::special::exp_m1(t / sigma - shift);
        sum += exp(-0.5 * t * t) * f(u);
    }
    sum * h / (2.0 * std::f64::consts::PI).sqrt()
}

/// Exact RDP of the Poisson-subsampled Gaussian (add/remove) at any real order α > 1
/// (Mironov, Talwar & Zhang 2019, arXiv 1908.10530, Section 3.3: the fractional-α series).
///
/// With μ₀ = N(0, σ²), L(z) = e^{(2z − 1)/(2σ²)} and z₀ = σ² log(1/q − 1) + ½ (where qL = 1 − q),
/// A = E_{μ₀}[((1 − q) + qL)^α] splits at z₀ into two binomial series,
/// A₁ = Σ_i C(α,i)(1−q)^{α−i}q^i e^{c_i}Φ((z₀ − i)/σ) and
/// A₂ = Σ_i C(α,i)(1−q)^i q^{α−i} e^{c_{α−i}}Φ((α − i − z₀)/σ), c_x = (x² − x)/(2σ²),
/// whose coefficients C(α, i) change sign past i = ⌊α⌋ + 1. The signs are kept (a widely used
/// implementation takes absolute values, which overestimates; see the page).
///
/// For q ≤ ½, the binomial expansion 1 = Σ_i C(α,i)(1−q)^{α−i}q^i converges, and subtracting it term
/// by term gives A − 1 = Σ_i C(α,i)(1−q)^{α−i}q^i·expm1(c_i + log Φ((z₀ − i)/σ)) + A₂, so ε keeps
/// its relative accuracy even when it is 1e-15; for q > ½ the mirror expansion
/// 1 = Σ_i C(α,i)(1−q)^i q^{α−i} is subtracted from A₂ instead. Terms up to i = α + 2 are added in
/// log space with their signs, the alternating tail in linear scale with Euler acceleration.
///
/// For σ ≥ 10 and α ≤ σ the same A − 1 is integrated directly instead
/// (`poisson_gaussian_quadrature`): there it is tiny, and near q = ½ both expansions of 1 converge
/// too slowly to subtract without losing digits (2.7e-6 relative at σ = 10⁴, q = ½, α = 1.01).
///
/// Integer orders give the same value as [`poisson_gaussian_integer`] (tested). Exact; within 1e-8
/// relative of mpmath's numerical integration of the divergence (reference table).
pub fn poisson_gaussian(sigma: f64, q: f64, alpha: f64) -> Result<f64, MathError> {
    check_positive("σ", sigma)?;
    check_rate("q", q)?;
    check_order(alpha)?;
    if q == 0.0 {
        return Ok(0.0);
    }
    if q == 1.0 {
        return Ok(alpha / (2.0 * sigma * sigma));
    }
    if let Some(a) = integer_order(alpha) {
        return poisson_gaussian_integer(sigma, q, a);
    }
    if sigma >= 10.0 && alpha <= sigma {
        let excess = poisson_gaussian_quadrature(sigma, q, alpha);
        return Ok(if excess > 0.0 {
            epsilon_from_ln_excess(ln(excess), alpha)
        } else {
            0.0
        });
    }
    let s2 = sigma * sigma;
    let c = |x: f64| (x * x - x) / (2.0 * s2);
    let z0 = s2 * (ln_1p(-q) - ln(q)) + 0.5;
    let (lq, l1q) = (ln(q), ln_1p(-q));
    // Which binomial expansion of 1 = ((1 − q) + q)^α to subtract: the one in powers of
    // q/(1 − q) converges for q ≤ ½, the one in powers of (1 − q)/q for q ≥ ½.
    let first = q <= 0.5;
    // C·w·expm1(x) in log space with its sign (the sign of expm1(x) is the sign of x).
    let excess_term = |base: f64, x: f64, sign: bool| -> (f64, bool) {
        if x == 0.0 {
            (f64::NEG_INFINITY, true)
        } else if x > 0.0 {
            (base + ln_exp_m1(x), sign)
        } else {
            (base + ln(-crate::special::exp_m1(x)), !sign)
        }
    };
    let mut acc = SignedLogSum::new();
    let max_terms: u64 = 1_000_000;
    let mut tail: Option<Tail> = None;
    for i in 0..max_terms {
        let k = i as f64;
        let (lb, bsign) = ln_abs_binomial(alpha, i);
        // First series (z < z₀).
        let x1 = c(k) + crate::special::ln_normal_cdf((z0 - k) / sigma);
        let base1 = lb + (alpha - k) * l1q + k * lq;
        // Second series (z > z₀).
        let j = alpha - k;
        let x2 = c(j) + crate::special::ln_normal_cdf((j - z0) / sigma);
        let base2 = lb + k * l1q + j * lq;
        let ((l1, s1), (l2, s2)) = if first {
            (excess_term(base1, x1, bsign), (base2 + x2, bsign))
        } else {
            ((base1 + x1, bsign), excess_term(base2, x2, bsign))
        };
        let mut term = SignedLogSum::new();
        term.add(s1, l1);
        term.add(s2, l2);
        let (t_sign, t_ln) = term.net();
        acc.add(t_sign, t_ln);
        // Past i = ⌊α⌋ + 1 the coefficients, and so the terms, alternate in sign and shrink only
        // like i^{−α−1} times a geometric factor that tends to 1 as q → ½. From there the tail is
        // summed in linear scale relative to e^{L}, the larger of the positive and negative parts
        // so far (the partial sum itself may still be negative near q = ½), and accelerated by
        // repeated averaging of the last partial sums (the Euler transform for alternating series
        // with smooth terms), stopping when the averaged estimate moves by less than 1e-15 e^{L}.
        if tail.is_none() && k > alpha + 2.0 {
            let scale = acc.pos.max(acc.neg);
            if scale == f64::NEG_INFINITY {
                return Ok(0.0);
            }
            let (s_sign, s_ln) = acc.net();
            let mut t = Tail::new(scale);
            let rel = exp(s_ln - scale);
            t.partial = if s_sign { rel } else { -rel };
            tail = Some(t);
            continue;
        }
        if let Some(t) = tail.as_mut() {
            let x = if t_sign {
                exp(t_ln - t.scale)
            } else {
                -exp(t_ln - t.scale)
            };
            if let Some(e) = t.push(x) {
                // A − 1 = e^L·e.
                if e.is_nan() || e <= 0.0 {
                    return Err(MathError::NoConvergence {
                        iterations: i as usize,
                    });
                }
                return Ok(epsilon_from_ln_excess(t.scale + ln(e), alpha));
            }
        }
    }
    Err(MathError::NoConvergence {
        iterations: max_terms as usize,
    })
}

/// The fractional-order series of [`poisson_gaussian`] with every term added as positive, as a
/// widely used implementation does; kept only to show on the page how much that overestimates.
///
/// Each |term| is at least the signed term, so this is still an upper bound on the exact value
/// (valid but loose: at q = 0.1, σ = 5, α = 1.5 it gives 6.37e-4 against the exact 3.05e-4,
/// math-reference). Stops as that implementation does, once both terms of an index past α are
/// below e^{−30} in absolute terms. Upper bound; fractional α > 1, 0 < q < 1.
pub fn poisson_gaussian_unsigned(sigma: f64, q: f64, alpha: f64) -> Result<f64, MathError> {
    check_positive("σ", sigma)?;
    check_rate("q", q)?;
    check_order(alpha)?;
    if q == 0.0 || q == 1.0 {
        return poisson_gaussian(sigma, q, alpha);
    }
    let s2 = sigma * sigma;
    let c = |x: f64| (x * x - x) / (2.0 * s2);
    let z0 = s2 * (ln_1p(-q) - ln(q)) + 0.5;
    let (lq, l1q) = (ln(q), ln_1p(-q));
    let mut acc = f64::NEG_INFINITY;
    for i in 0..1_000_000u64 {
        let k = i as f64;
        let j = alpha - k;
        let (lb, _) = ln_abs_binomial(alpha, i);
        let l1 = lb + k * lq + j * l1q + c(k) + crate::special::ln_normal_cdf((z0 - k) / sigma);
        let l2 = lb + j * lq + k * l1q + c(j) + crate::special::ln_normal_cdf((j - z0) / sigma);
        acc = log_add_exp(acc, log_add_exp(l1, l2));
        if k > alpha && l1.max(l2) < -30.0 {
            return Ok(acc.max(0.0) / (alpha - 1.0));
        }
    }
    Err(MathError::NoConvergence {
        iterations: 1_000_000,
    })
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;

    #[test]
    fn subsampled_gaussian_integer_matches_the_direct_sum() {
        // σ = 1, q = 0.5, α = 3: A = Σ C(3,k)(1/2)^3 e^{(k²−k)/2} = (1 + 3 + 3e + e³)/8.
        let a = (1.0 + 3.0 + 3.0 * 1f64.exp() + 3f64.exp()) / 8.0;
        let v = poisson_gaussian_integer(1.0, 0.5, 3).unwrap();
        assert!((v - a.ln() / 2.0).abs() < 1e-15, "{v}");
        assert_eq!(poisson_gaussian_integer(1.0, 0.0, 3).unwrap(), 0.0);
        // q = 1: the base curve α/(2σ²).
        assert!((poisson_gaussian_integer(2.0, 1.0, 5).unwrap() - 5.0 / 8.0).abs() < 1e-15);
    }
}
#[cfg(test)]
mod fractional_tests {
    use super::*;

    #[test]
    fn fractional_series_agrees_with_the_integer_sum_near_integers() {
        for &(sigma, q) in &[(1.0, 0.01), (5.0, 0.1), (0.8, 0.3), (2.0, 0.6), (1.0, 0.9)] {
            for &a in &[2.0f64, 3.0, 5.0, 10.0] {
                let exact = poisson_gaussian_integer(sigma, q, a as u64).unwrap();
                let near = poisson_gaussian(sigma, q, a + 1e-9).unwrap();
                assert!(
                    ((near - exact) / exact).abs() < 1e-6,
                    "σ = {sigma}, q = {q}, α = {a}: {near} vs {exact}"
                );
            }
        }
    }

    #[test]
    fn dropping_the_signs_overestimates_as_the_math_reference_says() {
        // mpmath, same series with absolute values: 6.36528e-4 (math-reference: "6.4e-4").
        let v = poisson_gaussian_unsigned(5.0, 0.1, 1.5).unwrap();
        assert!((v - 6.36528e-4).abs() < 1e-8, "{v}");
        assert!(v > poisson_gaussian(5.0, 0.1, 1.5).unwrap());
    }

    #[test]
    fn the_math_reference_value() {
        // math-reference: q = 0.1, σ = 5, α = 1.5: exact 3.05e-4 (a library that drops the signs
        // gives 6.4e-4).
        let v = poisson_gaussian(5.0, 0.1, 1.5).unwrap();
        assert!((v - 3.05e-4).abs() < 0.01e-4, "{v}");
    }
}
