//! The base mechanisms with sensitivity 1 and their exact Rényi DP curves (Mironov 2017): the
//! Gaussian, Laplace, binary and k-ary randomized response, and the check of a Rényi order.
//!
//! A mechanism is (α, ε(α))-RDP when the Rényi divergence of order α between its outputs on
//! neighbouring inputs is at most ε(α). All mechanisms here have sensitivity 1.
//!
//! Numerics. Every curve is ε(α) = log(A)/(α − 1) for a moment A ≥ 1 that is often 1 + tiny (small
//! sampling rates, large noise); computing log(A) from A loses all digits below 1e-16. So A − 1 is
//! computed directly, as a sum whose terms do not cancel, and ε(α) = log1p(A − 1)/(α − 1), in log
//! space where A − 1 could overflow.

use crate::special::{ln, ln_1p, ln_1p_exp, ln_exp_m1, log_add_exp};
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
    ///   Wang's slides "Privacy amplification by subsampling and Rényi DP"). Exact.
    /// - Binary RR: log(p^α(1−p)^{1−α} + (1−p)^α p^{1−α}), p = e^ε/(e^ε + 1) (Mironov 2017, Prop.
    ///   5; Wang's slides). Exact.
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
}
