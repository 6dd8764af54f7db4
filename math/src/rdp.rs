//! Rényi differential privacy (Mironov 2017) of base and subsampled mechanisms, composition, and
//! conversion to (ε, δ).
//!
//! A mechanism is (α, ε(α))-RDP when the Rényi divergence of order α between its outputs on
//! neighbouring inputs is at most ε(α). All mechanisms here have sensitivity 1.
//!
//! Numerics. Every curve is ε(α) = log(A)/(α − 1) for a moment A ≥ 1 that is often 1 + tiny (small
//! sampling rates, large noise); computing log(A) from A loses all digits below 1e-16. So A − 1 is
//! computed directly, as a sum whose terms do not cancel, and ε(α) = log1p(A − 1)/(α − 1), in log
//! space where A − 1 could overflow.

use crate::special::{
    exp, ln, ln_1p, ln_1p_exp, ln_binomial, ln_binomial_whole, ln_exp_m1, log_add_exp,
};
use crate::{check_positive, MathError};

/// Largest Rényi order accepted.
pub const MAX_ORDER: f64 = 10_000.0;

/// A base mechanism with sensitivity 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mechanism {
    /// Gaussian noise with standard deviation σ (the noise multiplier).
    Gaussian {
        /// σ > 0.
        sigma: f64,
    },
    /// Laplace noise with scale b (pure ε = 1/b).
    Laplace {
        /// b > 0.
        scale: f64,
    },
    /// Binary randomized response: keep the bit with probability e^ε/(e^ε + 1).
    RandomizedResponse {
        /// ε ≥ 0.
        epsilon: f64,
    },
    /// k-ary randomized response: keep the value with probability e^ε/(e^ε + k − 1), otherwise
    /// report one of the other k − 1 values uniformly.
    KaryRandomizedResponse {
        /// ε ≥ 0.
        epsilon: f64,
        /// Number of values k ≥ 2.
        k: u64,
    },
}

/// Check a Rényi order: 1 < α ≤ [`MAX_ORDER`], not NaN (shared with the iteration bound).
pub(crate) fn check_order(alpha: f64) -> Result<(), MathError> {
    if alpha.is_nan() {
        return Err(MathError::NotANumber { name: "α" });
    }
    if !(alpha > 1.0 && alpha <= MAX_ORDER) {
        return Err(MathError::OutOfDomain {
            name: "α",
            value: alpha,
            expected: "above 1 and at most 10,000",
        });
    }
    Ok(())
}

impl Mechanism {
    /// Check the mechanism's parameter.
    pub fn validate(&self) -> Result<(), MathError> {
        match *self {
            Mechanism::Gaussian { sigma } => check_positive("σ", sigma),
            Mechanism::Laplace { scale } => check_positive("b", scale),
            Mechanism::RandomizedResponse { epsilon } => crate::check_epsilon("ε", epsilon),
            Mechanism::KaryRandomizedResponse { epsilon, k } => {
                crate::check_epsilon("ε", epsilon)?;
                if k < 2 {
                    return Err(MathError::OutOfDomain {
                        name: "k",
                        value: k as f64,
                        expected: "at least 2",
                    });
                }
                Ok(())
            }
        }
    }

    /// (α − 1)·ε(α) = log E_Q[(P/Q)^α] for the worst pair (P, Q): the logarithm of the moment.
    ///
    /// - Gaussian: α(α − 1)/(2σ²) (Mironov 2017, Prop. 7). Exact.
    /// - Laplace: log((α/(2α−1))e^{(α−1)/b} + ((α−1)/(2α−1))e^{−α/b}) (Mironov 2017, Prop. 6, as on
    ///   the slides of seed 003). Exact.
    /// - Binary RR: log(p^α(1−p)^{1−α} + (1−p)^α p^{1−α}), p = e^ε/(e^ε + 1) (Mironov 2017, Prop.
    ///   5; seed 003). Exact.
    /// - k-ary RR: log(p^α r^{1−α} + r^α p^{1−α} + (k − 2)r), p = e^ε/(e^ε + k − 1),
    ///   r = 1/(e^ε + k − 1): the Rényi divergence between the output distributions on two
    ///   different inputs (all other outputs have the same probability r). Exact.
    ///
    /// Computed as log1p(A − 1) from a form of A − 1 without cancellation (see
    /// `laplace_ln_excess` and `rr_ln_excess`), so ε(α) keeps its relative accuracy when it is
    /// tiny (large b, small ε, α near 1): within 1e-12 relative of mpmath on the reference table.
    /// Domain: α ∈ (1, 10⁴].
    pub fn ln_moment(&self, alpha: f64) -> Result<f64, MathError> {
        self.validate()?;
        check_order(alpha)?;
        let a1 = alpha - 1.0;
        Ok(match *self {
            Mechanism::Gaussian { sigma } => alpha * a1 / (2.0 * sigma * sigma),
            Mechanism::Laplace { scale } => ln_1p_exp(laplace_ln_excess(alpha, 1.0 / scale)),
            Mechanism::RandomizedResponse { epsilon } => {
                ln_1p_exp(rr_ln_excess(epsilon, 2.0, alpha))
            }
            Mechanism::KaryRandomizedResponse { epsilon, k } => {
                ln_1p_exp(rr_ln_excess(epsilon, k as f64, alpha))
            }
        })
    }

    /// ε(α), the Rényi DP curve: [`Mechanism::ln_moment`]/(α − 1). Exact.
    pub fn rdp(&self, alpha: f64) -> Result<f64, MathError> {
        Ok(self.ln_moment(alpha)? / (alpha - 1.0))
    }

    /// ε(∞) = the pure-DP ε: ∞ for the Gaussian, 1/b for Laplace, ε for randomized response.
    pub fn rdp_infinity(&self) -> f64 {
        match *self {
            Mechanism::Gaussian { .. } => f64::INFINITY,
            Mechanism::Laplace { scale } => 1.0 / scale,
            Mechanism::RandomizedResponse { epsilon }
            | Mechanism::KaryRandomizedResponse { epsilon, .. } => epsilon,
        }
    }
}

/// log(A − 1) for the Laplace moment A = (α e^{(α−1)x} + (α−1) e^{−αx})/(2α − 1), x = 1/b.
///
/// The two terms of A − 1 = (α·expm1((α−1)x) + (α−1)·expm1(−αx))/(2α − 1) cancel to first order
/// in x (A − 1 ≈ α(α−1)x²/2). While αx < ½ the series
/// A − 1 = α(α−1)/(2α−1) · Σ_{n≥2} xⁿ/n! · ((α−1)^{n−1} − (−α)^{n−1})
/// is summed instead: its n = 2 term, (2α−1)x²/2, dominates the sum of the absolute values of the
/// rest by a factor of at least 2, so nothing cancels. Above, the direct form loses at most a
/// factor 5, and for (α−1)x > 30 log-sum-exp of A itself is used (A − 1 ≈ A).
fn laplace_ln_excess(alpha: f64, x: f64) -> f64 {
    let a1 = alpha - 1.0;
    let d = 2.0 * alpha - 1.0;
    if alpha * x < 0.5 {
        // Σ_{n≥2} xⁿ/n! ((α−1)^{n−1} − (−α)^{n−1}); for even n−1 the bracket is
        // −α^{n−1}(1 − (1 − 1/α)^{n−1}) = α^{n−1}·expm1((n−1)·log1p(−1/α)).
        let l1a = ln_1p(-1.0 / alpha);
        let mut sum = 0.0;
        let mut pow_x = x; // xⁿ/n!
        for n in 2..200u32 {
            let nf = n as f64;
            pow_x *= x / nf;
            let m = nf - 1.0;
            let bracket = if (n - 1) % 2 == 1 {
                crate::special::pow(a1, m) + crate::special::pow(alpha, m)
            } else {
                crate::special::pow(alpha, m) * crate::special::exp_m1(m * l1a)
            };
            let t = pow_x * bracket;
            sum += t;
            if t.abs() <= 1e-18 * sum.abs() {
                break;
            }
        }
        return ln(alpha * a1 / d) + ln(sum);
    }
    if a1 * x > 30.0 {
        let ln_a = log_add_exp(ln(alpha / d) + a1 * x, ln(a1 / d) - alpha * x);
        return ln_exp_m1(ln_a);
    }
    ln((alpha * crate::special::exp_m1(a1 * x) + a1 * crate::special::exp_m1(-alpha * x)) / d)
}

/// log(A − 1) for k-ary randomized response (k = 2 is the binary one): with
/// r = 1/(e^ε + k − 1), t = ε(α − 1) and u = e^t − 1,
/// A = r(e^{εα} + e^{−ε(α−1)} + k − 2), and A − 1 = r·u·(expm1(ε) + e^ε·u)/(1 + u),
/// a product of positive factors (no cancellation), evaluated in log space.
fn rr_ln_excess(epsilon: f64, k: f64, alpha: f64) -> f64 {
    if epsilon == 0.0 {
        return f64::NEG_INFINITY;
    }
    let t = epsilon * (alpha - 1.0);
    let ln_r = -log_add_exp(epsilon, ln(k - 1.0));
    let ln_u = ln_exp_m1(t);
    ln_r + ln_u + log_add_exp(ln_exp_m1(epsilon), epsilon + ln_u) - t
}

/// Convert a log moment-minus-one into ε(α): ε = log1p(A − 1)/(α − 1), given log(A − 1).
fn epsilon_from_ln_excess(ln_excess: f64, alpha: f64) -> f64 {
    if ln_excess == f64::NEG_INFINITY {
        return 0.0;
    }
    crate::special::ln_1p_exp(ln_excess) / (alpha - 1.0)
}

/// log of Σ_{j=2..α} C(α, j) γ^j (1 − γ)^{α−j} · w_j for an integer α ≥ 2, with log w_j supplied
/// (w_j ≥ 0). The common shape of the subsampled moments below, minus their leading 1.
fn ln_binomial_mixture(alpha: u64, gamma: f64, mut ln_w: impl FnMut(u64) -> f64) -> f64 {
    let a = alpha as f64;
    let (lg, l1g) = (ln(gamma), ln_1p(-gamma));
    let mut acc = f64::NEG_INFINITY;
    for j in 2..=alpha {
        let jf = j as f64;
        let w = ln_w(j);
        if w == f64::NEG_INFINITY {
            continue;
        }
        let rest = if gamma == 1.0 && j < alpha {
            f64::NEG_INFINITY
        } else if j == alpha {
            0.0
        } else {
            (a - jf) * l1g
        };
        acc = log_add_exp(acc, ln_binomial_whole(alpha, j) + jf * lg + rest + w);
    }
    acc
}

fn check_rate(name: &'static str, q: f64) -> Result<(), MathError> {
    crate::check_probability(name, q)
}

fn integer_order(alpha: f64) -> Option<u64> {
    (alpha.fract() == 0.0 && alpha >= 2.0).then_some(alpha as u64)
}

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

/// Upper bound on the RDP of a Poisson-subsampled mechanism (add/remove) at an integer order
/// (Zhu & Wang, "Poisson subsampled Rényi differential privacy", ICML 2019, Theorem 6, as on the
/// slides of seed 003):
/// A ≤ (1−γ)^{α−1}(αγ − γ + 1) + C(α,2)γ²(1−γ)^{α−2}e^{ε(2)} + 3Σ_{ℓ=3..α}C(α,ℓ)(1−γ)^{α−ℓ}γ^ℓ e^{(ℓ−1)ε(ℓ)},
/// computed as A − 1 = C(α,2)γ²(1−γ)^{α−2}(e^{ε(2)} − 1) + Σ_{ℓ≥3} C(α,ℓ)(1−γ)^{α−ℓ}γ^ℓ(3e^{(ℓ−1)ε(ℓ)} − 1).
/// Upper bound.
fn poisson_upper_integer(mech: &Mechanism, q: f64, alpha: u64) -> Result<f64, MathError> {
    if q == 0.0 {
        return Ok(0.0);
    }
    let mut bad = false;
    let v = ln_binomial_mixture(alpha, q, |j| match mech.ln_moment(j as f64) {
        Ok(m) if j == 2 => ln_exp_m1(m.max(f64::MIN_POSITIVE)),
        // log(3e^m − 1) = m + log(3 − e^{−m}), and 3e^m − 1 ≥ 2.
        Ok(m) => m + ln(3.0 - exp(-m)),
        Err(_) => {
            bad = true;
            f64::NEG_INFINITY
        }
    });
    if bad {
        return Err(MathError::NotANumber { name: "RDP bound" });
    }
    Ok(epsilon_from_ln_excess(v, alpha as f64))
}

/// The sampling-without-replacement upper bound of Wang, Balle & Kasiviswanathan (AISTATS 2019,
/// arXiv 1808.00087, Theorem 9, as on the slides of seed 003), replace-one, integer α ≥ 2:
/// A ≤ 1 + γ²C(α,2)min{4(e^{ε(2)} − 1), e^{ε(2)}min{2, (e^{ε(∞)} − 1)²}}
///       + Σ_{j=3..α} γ^j C(α,j) e^{(j−1)ε(j)} min{2, (e^{ε(∞)} − 1)^j}.
/// Upper bound.
fn wor_upper_integer(mech: &Mechanism, gamma: f64, alpha: u64) -> Result<f64, MathError> {
    if gamma == 0.0 {
        return Ok(0.0);
    }
    let a = alpha as f64;
    let eps_inf = mech.rdp_infinity();
    // log min{2, (e^{ε∞} − 1)^j}
    let ln_cap = |j: f64| -> f64 {
        if eps_inf == f64::INFINITY {
            std::f64::consts::LN_2
        } else {
            (j * ln_exp_m1(eps_inf.max(f64::MIN_POSITIVE))).min(std::f64::consts::LN_2)
        }
    };
    let m2 = mech.ln_moment(2.0)?;
    let lg = ln(gamma);
    let first = (ln(4.0) + ln_exp_m1(m2.max(f64::MIN_POSITIVE))).min(m2 + ln_cap(2.0));
    let mut acc = 2.0 * lg + ln_binomial(a, 2.0) + first;
    for j in 3..=alpha {
        let jf = j as f64;
        let m = mech.ln_moment(jf)?;
        acc = log_add_exp(acc, jf * lg + ln_binomial_whole(alpha, j) + m + ln_cap(jf));
    }
    Ok(epsilon_from_ln_excess(acc, a))
}

/// Largest even order ℓ of the Gaussian's Pearson–Vajda divergences used by
/// [`wor_upper_gaussian`]; terms of higher order keep Theorem 9's factor (still a bound).
const PEARSON_VAJDA_ORDERS: u64 = 64;

/// log E_q[(p/q − 1)^ℓ] for the Gaussian pair p = N(1, σ²), q = N(0, σ²) and even ℓ ≥ 2 (the
/// Pearson–Vajda χ^ℓ divergence; ℓ = 2 gives e^{1/σ²} − 1). Under q the likelihood ratio is
/// e^{t/σ − 1/(2σ²)} with t standard normal, so this is log E_t[expm1(t/σ − 1/(2σ²))^ℓ], a
/// non-negative integrand: no cancellation, unlike the alternating sum Σᵢ C(ℓ,i)(−1)^{ℓ−i}e^{i(i−1)/(2σ²)}
/// that defines it, which loses every digit when σ is large. Trapezoidal rule with step ⅛ in log
/// space on t ∈ [−40, max(40, ℓ/σ + 40)], which holds both of the integrand's modes (the tail
/// t → −∞ where |expm1| → 1, and the log-concave peak near ℓ/σ, of width about 1); the rule
/// converges exponentially for this entire integrand. Within 1e-10 relative of mpmath's exact
/// alternating sum at 80 digits on the reference table.
fn ln_gaussian_pearson_vajda(sigma: f64, l: u64) -> f64 {
    let shift = 1.0 / (2.0 * sigma * sigma);
    let h = 0.125;
    let hi = (l as f64 / sigma).max(0.0) + 40.0;
    let steps = ((hi + 40.0) / h).ceil() as u64;
    let (mut m, mut s) = (f64::NEG_INFINITY, 0.0);
    for k in 0..=steps {
        let t = -40.0 + k as f64 * h;
        let x = t / sigma - shift;
        // log|e^x − 1|, finite for large x too.
        let ln_g = if x > 0.0 {
            ln_exp_m1(x)
        } else {
            ln(-crate::special::exp_m1(x))
        };
        let v = -0.5 * t * t + l as f64 * ln_g;
        if !v.is_finite() {
            continue;
        }
        if v > m {
            s = s * exp(m - v) + 1.0;
            m = v;
        } else {
            s += exp(v - m);
        }
    }
    m + ln(s) + ln(h) - 0.5 * ln(2.0 * std::f64::consts::PI)
}

std::thread_local! {
    /// The last σ's [`ln_gaussian_pearson_vajda`] at ℓ = 2, 4, …, [`PEARSON_VAJDA_ORDERS`]: a
    /// curve or an accountant asks for many orders at one σ.
    static PEARSON_VAJDA: std::cell::RefCell<(u64, Vec<f64>)> =
        const { std::cell::RefCell::new((0, Vec::new())) };
}

fn gaussian_pearson_vajda_table(sigma: f64) -> Vec<f64> {
    PEARSON_VAJDA.with(|c| {
        let mut c = c.borrow_mut();
        if c.0 != sigma.to_bits() || c.1.is_empty() {
            let table = (1..=PEARSON_VAJDA_ORDERS / 2)
                .map(|k| ln_gaussian_pearson_vajda(sigma, 2 * k))
                .collect();
            *c = (sigma.to_bits(), table);
        }
        c.1.clone()
    })
}

/// The tighter sampling-without-replacement bound for the Gaussian of Wang, Balle &
/// Kasiviswanathan (AISTATS 2019, arXiv 1808.00087, Theorem 27 in the appendix; autodp's
/// `improved_bound_flag`), replace-one, integer α ≥ 2. For a mechanism with one pair of
/// neighbouring outputs (p, q) that is the worst case for every Rényi and every Pearson–Vajda
/// divergence, as the Gaussian's shift by the sensitivity is, each term j ≥ 3 of Theorem 9 may
/// use the smaller of its own factor and 4·D_j, where D_j = E_q[(p/q − 1)^j] for even j and the
/// Cauchy–Schwarz bound √(D_{j−1}·D_{j+1}) for odd j:
/// A ≤ 1 + γ²C(α,2)·min{4(e^{1/σ²} − 1), 2e^{1/σ²}}
///       + Σ_{j=3..α} γ^j C(α,j)·min{2e^{j(j−1)/(2σ²)}, 4·D_j}.
/// D_j from [`ln_gaussian_pearson_vajda`] up to j = [`PEARSON_VAJDA_ORDERS`]; above, Theorem 9's
/// term (so never above [`wor_upper`]'s sum). Upper bound.
fn wor_upper_gaussian_integer(sigma: f64, gamma: f64, alpha: u64) -> Result<f64, MathError> {
    if gamma == 0.0 {
        return Ok(0.0);
    }
    let mech = Mechanism::Gaussian { sigma };
    let a = alpha as f64;
    let lg = ln(gamma);
    let table = gaussian_pearson_vajda_table(sigma);
    let ln_d = |l: u64| -> Option<f64> {
        (l <= PEARSON_VAJDA_ORDERS).then(|| table[(l / 2 - 1) as usize])
    };
    let m2 = mech.ln_moment(2.0)?;
    let first = (ln(4.0) + ln_exp_m1(m2.max(f64::MIN_POSITIVE))).min(m2 + std::f64::consts::LN_2);
    let mut acc = 2.0 * lg + ln_binomial(a, 2.0) + first;
    // Theorem 9's own sum alongside, so that the result is never above it even by rounding.
    let mut acc_general = acc;
    for j in 3..=alpha {
        let weight = j as f64 * lg + ln_binomial_whole(alpha, j);
        // Summed in the same order as `wor_upper_integer`, so the two agree to the bit.
        let general = weight + mech.ln_moment(j as f64)? + std::f64::consts::LN_2;
        let tight = match (ln_d(2 * (j / 2)), ln_d(2 * j.div_ceil(2))) {
            (Some(x), Some(y)) => weight + ln(4.0) + 0.5 * (x + y),
            _ => f64::INFINITY,
        };
        acc = log_add_exp(acc, general.min(tight));
        acc_general = log_add_exp(acc_general, general);
    }
    Ok(epsilon_from_ln_excess(acc.min(acc_general), a))
}

/// Upper bound on the RDP of the Gaussian mechanism (noise σ, sensitivity 1) under sampling
/// without replacement of a fraction γ (replace one), any order: Wang, Balle & Kasiviswanathan's
/// Gaussian-specific Theorem 27 at integer orders ([`wor_upper_gaussian_integer`]), interpolated
/// in between like [`wor_upper`], and never above the base curve. Never above [`wor_upper`] (each
/// term is the smaller of the two theorems'). γ = 1 gives the base curve. Upper bound.
pub fn wor_upper_gaussian(sigma: f64, gamma: f64, alpha: f64) -> Result<f64, MathError> {
    let mech = Mechanism::Gaussian { sigma };
    mech.validate()?;
    check_rate("γ", gamma)?;
    let base = mech.rdp(alpha)?;
    if gamma == 1.0 {
        return Ok(base);
    }
    Ok(interpolate_upper(alpha, |a| wor_upper_gaussian_integer(sigma, gamma, a))?.min(base))
}

/// The sampling-without-replacement lower bound of Wang, Balle & Kasiviswanathan (AISTATS 2019,
/// Proposition 11, as on the slides): the RDP of the pair X = (0,…,0,1), X′ = (0,…,0,0) for a
/// mechanism whose worst case is that pair at every order,
/// ε′(α) ≥ (α/(α−1))log(1−γ) + (1/(α−1))log(1 + αγ/(1−γ) + Σ_{j=2..α}C(α,j)(γ/(1−γ))^j e^{(j−1)ε(j)}),
/// i.e. A = Σ_j C(α,j)γ^j(1−γ)^{α−j}e^{(j−1)ε(j)}, computed as A − 1 with expm1 weights.
/// Integer α ≥ 2 only (interpolating a lower bound is not a lower bound). Lower bound.
pub fn wor_lower(mech: &Mechanism, gamma: f64, alpha: u64) -> Result<f64, MathError> {
    mech.validate()?;
    check_rate("γ", gamma)?;
    check_order(alpha as f64)?;
    if alpha < 2 {
        return Err(MathError::OutOfDomain {
            name: "α",
            value: alpha as f64,
            expected: "a whole number at least 2 for the lower bound",
        });
    }
    if gamma == 0.0 {
        return Ok(0.0);
    }
    let mut bad = false;
    let v = ln_binomial_mixture(alpha, gamma, |j| match mech.ln_moment(j as f64) {
        Ok(m) => ln_exp_m1(m.max(f64::MIN_POSITIVE)),
        Err(_) => {
            bad = true;
            f64::NEG_INFINITY
        }
    });
    if bad {
        return Err(MathError::NotANumber { name: "RDP bound" });
    }
    Ok(epsilon_from_ln_excess(v, alpha as f64))
}

/// An upper bound at any real order α > 1 from upper bounds at integer orders, by convexity of the
/// log moment (α − 1)ε(α) in α (it is a cumulant generating function): linear interpolation of
/// (α − 1)ε(α) between ⌊α⌋ and ⌈α⌉ (and 0 at α = 1) stays above the true curve.
fn interpolate_upper(
    alpha: f64,
    at: impl Fn(u64) -> Result<f64, MathError>,
) -> Result<f64, MathError> {
    check_order(alpha)?;
    if let Some(a) = integer_order(alpha) {
        return at(a);
    }
    let lo = alpha.floor();
    let hi = lo + 1.0;
    let k_lo = if lo < 2.0 {
        0.0
    } else {
        (lo - 1.0) * at(lo as u64)?
    };
    let k_hi = (hi - 1.0) * at(hi as u64)?;
    let t = alpha - lo;
    Ok(((1.0 - t) * k_lo + t * k_hi) / (alpha - 1.0))
}

/// Upper bound on the RDP of `mech` under Poisson sampling at rate q (add/remove), any order:
/// Zhu & Wang (ICML 2019) at integer orders, interpolated in between, and never above the base
/// curve: subsampling cannot increase Rényi DP (couple the two runs on the same sample; the
/// divergence of the mixtures is at most the largest divergence of the coupled components, by
/// joint quasi-convexity), while the bound's factors 3 do not shrink with the noise, so for large
/// q or σ the base curve is the smaller of the two. q = 1 gives the base curve.
pub fn poisson_upper(mech: &Mechanism, q: f64, alpha: f64) -> Result<f64, MathError> {
    mech.validate()?;
    check_rate("q", q)?;
    let base = mech.rdp(alpha)?;
    if q == 1.0 {
        return Ok(base);
    }
    Ok(interpolate_upper(alpha, |a| poisson_upper_integer(mech, q, a))?.min(base))
}

/// Upper bound on the RDP of `mech` under sampling without replacement of a fraction γ (replace
/// one), any order: Wang, Balle & Kasiviswanathan (AISTATS 2019) at integer orders, interpolated
/// in between, and never above the base curve (the same coupling argument as [`poisson_upper`]).
/// γ = 1 gives the base curve.
pub fn wor_upper(mech: &Mechanism, gamma: f64, alpha: f64) -> Result<f64, MathError> {
    mech.validate()?;
    check_rate("γ", gamma)?;
    let base = mech.rdp(alpha)?;
    if gamma == 1.0 {
        return Ok(base);
    }
    Ok(interpolate_upper(alpha, |a| wor_upper_integer(mech, gamma, a))?.min(base))
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests {

    /// Domain edges and the pure-DP limit (mutation testing: tools/mutants.sh).
    #[test]
    fn domain_edges_and_the_pure_limit() {
        let g = Mechanism::Gaussian { sigma: 2.0 };
        assert!(check_order(MAX_ORDER).is_ok() && check_order(1.0 + 1e-12).is_ok());
        assert!(check_order(1.0).is_err() && check_order(MAX_ORDER + 1.0).is_err());
        assert!(matches!(
            check_order(f64::NAN),
            Err(MathError::NotANumber { .. })
        ));
        assert!(g.rdp(MAX_ORDER).is_ok());
        let k2 = Mechanism::KaryRandomizedResponse { epsilon: 1.0, k: 2 };
        assert!(k2.validate().is_ok());
        assert!(Mechanism::KaryRandomizedResponse { epsilon: 1.0, k: 1 }
            .validate()
            .is_err());
        assert!(Mechanism::Laplace { scale: 0.0 }.validate().is_err());
        assert!(Mechanism::RandomizedResponse { epsilon: -1.0 }
            .validate()
            .is_err());
        // k = 2 is binary randomized response.
        let rr = Mechanism::RandomizedResponse { epsilon: 1.0 };
        assert!((k2.rdp(3.0).unwrap() - rr.rdp(3.0).unwrap()).abs() <= 1e-15);
        assert_eq!(g.rdp_infinity(), f64::INFINITY);
        assert_eq!(Mechanism::Laplace { scale: 0.5 }.rdp_infinity(), 2.0);
        assert_eq!(rr.rdp_infinity(), 1.0);
        assert_eq!(
            Mechanism::KaryRandomizedResponse { epsilon: 0.7, k: 5 }.rdp_infinity(),
            0.7
        );
        // Laplace with a tiny 1/b: ε(2) = log A with A − 1 = x² − x³/3 + O(x⁴), x = 1/b, which
        // the direct form (two expm1 terms of size 2x that cancel) gets only to about 1e-8.
        let x = 1e-8;
        let want = x * x * (1.0 - x / 3.0);
        let got = Mechanism::Laplace { scale: 1.0 / x }.rdp(2.0).unwrap();
        assert!((got - want).abs() <= 1e-13 * want, "{got:e} vs {want:e}");
        // Gaussian: α/(2σ²) exactly.
        assert_eq!(g.rdp(4.0).unwrap(), 0.5);
        assert_eq!(g.ln_moment(4.0).unwrap(), 1.5);
    }

    use super::*;

    #[test]
    fn base_curves_at_known_points() {
        let g = Mechanism::Gaussian { sigma: 2.0 };
        assert!((g.rdp(3.0).unwrap() - 3.0 / 8.0).abs() < 1e-16);
        // Laplace b = 1 at α = 2: log(2/3·e + 1/3·e^{−2}).
        let l = Mechanism::Laplace { scale: 1.0 };
        let direct = ((2.0 / 3.0) * 1f64.exp() + (1.0 / 3.0) * (-2f64).exp()).ln();
        assert!((l.rdp(2.0).unwrap() - direct).abs() < 1e-15);
        // Binary RR with ε: ε(α) → ε as α → ∞, and the curve is below ε.
        let r = Mechanism::RandomizedResponse { epsilon: 1.0 };
        assert!(r.rdp(2.0).unwrap() < 1.0 && r.rdp(9000.0).unwrap() > 0.99);
        // k-ary RR with k = 2 is binary RR.
        let k2 = Mechanism::KaryRandomizedResponse { epsilon: 1.0, k: 2 };
        assert!((k2.rdp(3.5).unwrap() - r.rdp(3.5).unwrap()).abs() < 1e-15);
    }

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

    #[test]
    #[allow(clippy::disallowed_methods)] // std's functions are an independent check here
    fn gaussian_wor_bound_sits_between_the_lower_bound_and_theorem_9() {
        // χ² of the pair: e^{1/σ²} − 1 (closed form).
        for sigma in [0.3f64, 1.0, 5.0, 100.0] {
            let want = (1.0 / (sigma * sigma)).exp_m1().ln();
            let got = ln_gaussian_pearson_vajda(sigma, 2);
            assert!(
                (got - want).abs() < 1e-12 * want.abs().max(1.0),
                "σ {sigma}"
            );
        }
        let mut strictly_below = 0;
        for sigma in [0.5, 1.0, 2.0, 5.0, 20.0] {
            let g = Mechanism::Gaussian { sigma };
            for gamma in [0.001, 0.01, 0.1, 0.5] {
                for alpha in [2u64, 3, 4, 7, 16, 32, 64, 100] {
                    let a = alpha as f64;
                    let tight = wor_upper_gaussian(sigma, gamma, a).unwrap();
                    let general = wor_upper(&g, gamma, a).unwrap();
                    let lower = wor_lower(&g, gamma, alpha).unwrap();
                    assert!(tight <= general, "σ {sigma} γ {gamma} α {alpha}");
                    assert!(
                        tight >= lower * (1.0 - 1e-12),
                        "σ {sigma} γ {gamma} α {alpha}"
                    );
                    if tight < 0.9 * general {
                        strictly_below += 1;
                    }
                }
            }
        }
        // Wang's slides' setting (σ = 5): the Gaussian-specific bound is well below Theorem 9.
        assert!(strictly_below > 20, "{strictly_below}");
        let g5 = Mechanism::Gaussian { sigma: 5.0 };
        let tight = wor_upper_gaussian(5.0, 0.01, 32.0).unwrap();
        assert!(tight < 0.5 * wor_upper(&g5, 0.01, 32.0).unwrap(), "{tight}");
        // The numbers the Rényi page quotes (σ = 5, γ = 0.01), to their printed digits.
        for (alpha, tight, general, lower) in [
            (16u64, 1.33e-4, 2.18e-4, 3.3e-5),
            (32, 2.70e-4, 6.47e-4, 6.6e-5),
        ] {
            let a = alpha as f64;
            // Within half a unit of the last printed digit.
            let near = |got: f64, want: f64, digits: f64| {
                let unit = 10f64.powf(want.log10().floor() - digits + 1.0);
                assert!((got - want).abs() <= 0.5 * unit, "{got} vs {want}");
            };
            near(wor_upper_gaussian(5.0, 0.01, a).unwrap(), tight, 3.0);
            near(wor_upper(&g5, 0.01, a).unwrap(), general, 3.0);
            near(wor_lower(&g5, 0.01, alpha).unwrap(), lower, 2.0);
        }
        // γ = 1 is the base curve; γ = 0 is 0; bad input is refused.
        assert_eq!(
            wor_upper_gaussian(2.0, 1.0, 3.0).unwrap(),
            g5_base(2.0, 3.0)
        );
        assert_eq!(wor_upper_gaussian(2.0, 0.0, 3.0).unwrap(), 0.0);
        assert!(wor_upper_gaussian(0.0, 0.1, 3.0).is_err());
        assert!(wor_upper_gaussian(1.0, 1.5, 3.0).is_err());
        assert!(wor_upper_gaussian(1.0, 0.1, 0.5).is_err());
    }

    fn g5_base(sigma: f64, alpha: f64) -> f64 {
        Mechanism::Gaussian { sigma }.rdp(alpha).unwrap()
    }
}
