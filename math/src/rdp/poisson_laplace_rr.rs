//! Exact Rényi DP of the Poisson-subsampled Laplace mechanism and of randomized response (binary
//! and k-ary), add/remove one, at any real order α > 1.
//!
//! Formula. Let P be the base mechanism's output distribution without the record and Q with it,
//! the pair at full sensitivity, and L = Q/P their likelihood ratio. Poisson sampling at rate q
//! turns the output with the record into the mixture M = (1 − q)P + qQ = aP with a = 1 + q(L − 1).
//! Both directions of the divergence are expectations under P of a power of a:
//!
//! - remove: e^{(α−1)·D_α(M‖P)} = ∫ M^α P^{1−α} = E_P\[a^α\];
//! - add:    e^{(α−1)·D_α(P‖M)} = ∫ P^α M^{1−α} = E_P\[a^{1−α}\].
//!
//! The subsampled RDP is the larger of the two (Zhu & Wang, ICML 2019, and Mironov, Talwar & Zhang
//! 2019, arXiv 1908.10530, write the Poisson-subsampled divergence this way; for the Gaussian the
//! remove direction is proved to dominate). Here both are computed and the larger returned: on
//! the reference table (`tools/reference/rdp_poisson_exact.py`) the remove direction is the larger
//! in every case, and at whole orders it equals the binomial sum
//! Σ_j C(α, j)(1 − q)^{α−j} q^j e^{(j−1)ε(j)} over the base curve.
//!
//! Since E_P\[a\] = 1, E_P\[a^s\] − 1 = E_P\[f_s(q(L − 1))\] with f_s(x) = (1 + x)^s − 1 − s·x, which is
//! non-negative for s > 1 and s < 0 (convexity): the value is a sum of non-negative terms and ε
//! keeps its relative accuracy when it is tiny (small q). Where a^s overflows the same sum is
//! taken in log space.
//!
//! - Laplace with scale b, P = Lap(0, b), Q = Lap(1, b): L = e^{−1/b} on y ≤ 0 (P-mass ½),
//!   L = e^{1/b} on y ≥ 1 (P-mass ½e^{−1/b}), and L = e^u with u = (2y − 1)/b on 0 < y < 1, where
//!   the P-mass is ¼e^{−1/(2b)}·e^{−u/2} du on u ∈ (−1/b, 1/b). That last part is integrated by
//!   adaptive Gauss–Legendre quadrature (10 against 20 points per panel, panels halved until the
//!   two agree to 1e-14 of the total).
//! - Randomized response at ε with k values (k = 2: binary), p = e^ε/(e^ε + k − 1),
//!   r = 1/(e^ε + k − 1): L = e^{−ε} with P-mass p, L = e^ε with mass r, L = 1 with mass (k − 2)r.
//!   Closed form.
//!
//! That the pair at full sensitivity is the worst is checked by the reference generator for
//! Laplace (both directions increase with the shift); for randomized response every pair of
//! distinct inputs gives the same divergence.
//!
//! Exact; within 1e-11 relative of mpmath's integration of the defining divergences on the
//! reference table (math/tests/rdp_poisson_exact.rs).

use super::mechanism::{check_order, Mechanism};
use crate::special::{exp, exp_m1, ln, ln_1p, log_add_exp};
use crate::MathError;

/// The exact RDP ε(α) of `mech` (Laplace or randomized response) under Poisson sampling at rate
/// `q` (add/remove one), the larger of the two directions; see the module documentation.
/// Errors for the Gaussian (use [`crate::rdp::poisson_gaussian`]) and outside the domain.
pub fn poisson_exact(mech: &Mechanism, q: f64, alpha: f64) -> Result<f64, MathError> {
    let (remove, add) = poisson_directions(mech, q, alpha)?;
    Ok(remove.max(add))
}

/// Both directions (remove, add) of [`poisson_exact`], as ε values.
pub fn poisson_directions(mech: &Mechanism, q: f64, alpha: f64) -> Result<(f64, f64), MathError> {
    mech.validate()?;
    crate::check_probability("q", q)?;
    check_order(alpha)?;
    if q == 0.0 {
        return Ok((0.0, 0.0));
    }
    if q == 1.0 {
        // No sampling: both directions are the base curve (every pair here is symmetric).
        let base = mech.rdp(alpha)?;
        return Ok((base, base));
    }
    let ratio = Ratio::of(mech)?;
    let remove = ln_moment(&ratio, q, alpha)? / (alpha - 1.0);
    let add = ln_moment(&ratio, q, 1.0 - alpha)? / (alpha - 1.0);
    Ok((remove, add))
}

/// The likelihood ratio L = Q/P under P: atoms (P-mass, log L) and, for Laplace, the continuous
/// part on u ∈ (−1/b, 1/b) with P-density ¼e^{−1/(2b)}e^{−u/2} and log L = u.
struct Ratio {
    atoms: Vec<(f64, f64)>,
    /// 1/b for Laplace.
    continuous: Option<f64>,
}

impl Ratio {
    fn of(mech: &Mechanism) -> Result<Ratio, MathError> {
        match *mech {
            Mechanism::Laplace { scale } => {
                let x = 1.0 / scale;
                Ok(Ratio {
                    atoms: vec![(0.5, -x), (0.5 * exp(-x), x)],
                    continuous: Some(x),
                })
            }
            Mechanism::RandomizedResponse { epsilon } => Ok(rr_ratio(epsilon, 2)),
            Mechanism::KaryRandomizedResponse { epsilon, k } => Ok(rr_ratio(epsilon, k)),
            Mechanism::Gaussian { .. } => Err(MathError::NoSolution {
                reason: "the Poisson-subsampled Gaussian has its own exact curve (rdp::poisson_gaussian)"
                    .into(),
            }),
        }
    }
}

fn rr_ratio(epsilon: f64, k: u64) -> Ratio {
    // p = e^ε/(e^ε + k − 1) and r = 1/(e^ε + k − 1), written without overflow for large ε.
    let km1 = (k - 1) as f64;
    let p = 1.0 / (1.0 + km1 * exp(-epsilon));
    let r = exp(-epsilon) * p;
    // The atom L = 1 contributes nothing to E_P[a^s] − 1 and is left out.
    Ratio {
        atoms: vec![(p, -epsilon), (r, epsilon)],
        continuous: None,
    }
}

/// log a = log((1 − q) + q·e^t) without cancellation: log1p(q(e^t − 1)) while that argument is
/// small, else the logarithm of a sum of positive terms (with e^t factored out for t > 0). When
/// a is small (q near 1, t very negative), log1p of an argument near −1 would lose digits that
/// the exponent s (up to 10⁴) then multiplies.
fn ln_mix(q: f64, t: f64) -> f64 {
    let x = q * exp_m1(t);
    if x.abs() < 0.5 {
        ln_1p(x)
    } else if t > 0.0 {
        t + ln(q + (1.0 - q) * exp(-t))
    } else {
        ln((1.0 - q) + q * exp(t))
    }
}

/// f_s(x) = (1 + x)^s − 1 − s·x for x > −1, given also ln(1 + x) = `la` (accurate), without
/// cancellation: a series while |x| and |(s − 1)x| are small, else directly (then the result is
/// not much smaller than s·x).
pub(crate) fn excess(s: f64, x: f64, la: f64) -> f64 {
    if x.abs() < 0.1 && ((s - 1.0) * x).abs() < 0.1 && (s * x).abs() < 0.5 {
        let mut term = s * (s - 1.0) / 2.0 * x * x;
        let mut sum = term;
        for n in 3..200 {
            let nf = n as f64;
            term *= (s - nf + 1.0) / nf * x;
            sum += term;
            if term.abs() <= 1e-18 * sum.abs() {
                break;
            }
        }
        sum
    } else {
        exp_m1(s * la) - s * x
    }
}

/// log E_P[a^s] with a = 1 + q(L − 1), for s > 1 or s < 0.
fn ln_moment(ratio: &Ratio, q: f64, s: f64) -> Result<f64, MathError> {
    // log a at log L = t.
    let ln_a = |t: f64| ln_mix(q, t);
    // Largest s·log a anywhere (the extremes of L are atoms or the ends of the continuous part).
    let extremes = ratio
        .atoms
        .iter()
        .map(|&(_, t)| s * ln_a(t))
        .chain(
            ratio
                .continuous
                .iter()
                .flat_map(|&x| [s * ln_a(-x), s * ln_a(x)]),
        )
        .fold(f64::NEG_INFINITY, f64::max);
    if extremes < 600.0 {
        // E − 1 as a sum of non-negative terms.
        let mut excess_sum: f64 = ratio
            .atoms
            .iter()
            .map(|&(w, t)| w * excess(s, q * exp_m1(t), ln_a(t)))
            .sum();
        if let Some(x) = ratio.continuous {
            let f = |u: f64| exp(-0.5 * u) * excess(s, q * exp_m1(u), ln_a(u));
            let scale = excess_sum.max(1e-300);
            excess_sum += 0.25 * exp(-0.5 * x) * integrate(&f, -x, x, scale, noise(extremes, x))?;
        }
        if !excess_sum.is_finite() || excess_sum < 0.0 {
            return Err(MathError::NotANumber {
                name: "subsampled Rényi moment",
            });
        }
        Ok(ln_1p(excess_sum))
    } else {
        // Log space: log Σ w·a^s, the continuous part scaled by its largest value.
        let mut total = f64::NEG_INFINITY;
        for &(w, t) in &ratio.atoms {
            total = log_add_exp(total, ln(w) + s * ln_a(t));
        }
        if let Some(x) = ratio.continuous {
            let g = |u: f64| -0.5 * u + s * ln_a(u);
            let top = g(-x).max(g(x));
            let f = |u: f64| exp(g(u) - top);
            let part = integrate(&f, -x, x, 0.0, noise(top.abs(), x))?;
            total = log_add_exp(total, ln(0.25 * part) - 0.5 * x + top);
        }
        if total.is_nan() {
            return Err(MathError::NotANumber {
                name: "subsampled Rényi moment",
            });
        }
        Ok(total)
    }
}

/// The relative rounding of an integrand that is the exponential of an argument up to `exponent`
/// (and of e^{−u/2} on |u| ≤ x): about 1e-16 of the argument, at least 1e-12.
fn noise(exponent: f64, x: f64) -> f64 {
    (2e-16 * (exponent.abs() + x)).max(1e-12)
}

/// Gauss–Legendre nodes and weights on [−1, 1] (n points), by Newton's method on the Legendre
/// recurrence.
fn gauss_legendre(n: usize) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let mut x = libm::cos(std::f64::consts::PI * (i as f64 + 0.75) / (n as f64 + 0.5));
        let mut dp = 1.0;
        for _ in 0..100 {
            let (mut p0, mut p1) = (1.0, x);
            for j in 2..=n {
                let jf = j as f64;
                let p2 = ((2.0 * jf - 1.0) * x * p1 - (jf - 1.0) * p0) / jf;
                p0 = p1;
                p1 = p2;
            }
            dp = n as f64 * (x * p1 - p0) / (x * x - 1.0);
            let dx = p1 / dp;
            x -= dx;
            if dx.abs() < 1e-16 {
                break;
            }
        }
        out.push((x, 2.0 / ((1.0 - x * x) * dp * dp)));
    }
    out
}

fn rule(nodes: &[(f64, f64)], f: &impl Fn(f64) -> f64, lo: f64, hi: f64) -> f64 {
    let (mid, half) = (0.5 * (lo + hi), 0.5 * (hi - lo));
    half * nodes
        .iter()
        .map(|&(x, w)| w * f(mid + half * x))
        .sum::<f64>()
}

/// ∫ f over [lo, hi] for a smooth non-negative f: each panel by 10- and 20-point Gauss–Legendre,
/// halved until the two agree within the panel's share of 1e-14 (see below) of the larger of `scale` and a
/// first estimate of the integral, or within `noise` (the integrand's own relative rounding) of
/// the panel's value (depth ≤ 40). At most 400,000 panels: orders just above 1 with a small Laplace
/// scale and a tiny rate need over 20,000 (α = 1.001, b = 0.08, q = 7e-6: about 0.3 s; found by a
/// property test).
fn integrate(
    f: &impl Fn(f64) -> f64,
    lo: f64,
    hi: f64,
    scale: f64,
    noise: f64,
) -> Result<f64, MathError> {
    // Where 1e-14 would take more than 400,000 panels (a smaller Laplace scale still: b = 0.051,
    // q = 8.7e-6 near α = 1, found by a property test), the target relaxes to 1e-12, then 1e-10,
    // relative: still below every tolerance the reference tables are checked to.
    let mut last = Err(MathError::NoConvergence { iterations: 0 });
    for rel in [1e-14, 1e-12, 1e-10] {
        last = integrate_to(f, lo, hi, scale, noise, rel);
        if !matches!(last, Err(MathError::NoConvergence { .. })) {
            break;
        }
    }
    last
}

fn integrate_to(
    f: &impl Fn(f64) -> f64,
    lo: f64,
    hi: f64,
    scale: f64,
    noise: f64,
    rel: f64,
) -> Result<f64, MathError> {
    let (g10, g20) = (gauss_legendre(10), gauss_legendre(20));
    let whole = rule(&g20, f, lo, hi);
    let tol = rel * scale.max(whole.abs());
    let mut stack = vec![(lo, hi, 0u32)];
    let mut total = 0.0;
    let mut panels = 0;
    while let Some((a, b, depth)) = stack.pop() {
        panels += 1;
        if panels > 400_000 {
            return Err(MathError::NoConvergence { iterations: panels });
        }
        let (coarse, fine) = (rule(&g10, f, a, b), rule(&g20, f, a, b));
        if !fine.is_finite() {
            return Err(MathError::NotANumber {
                name: "quadrature of the subsampled Rényi moment",
            });
        }
        let share = tol * (b - a) / (hi - lo);
        // The two rules cannot agree better than the integrand is computed (`noise`, relative, of
        // one panel's value, not of the total).
        if (fine - coarse).abs() <= share.max(noise * fine.abs()) || depth >= 40 {
            total += fine;
        } else {
            let m = 0.5 * (a + b);
            stack.push((a, m, depth + 1));
            stack.push((m, b, depth + 1));
        }
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gauss_legendre_integrates_polynomials_exactly() {
        let nodes = gauss_legendre(10);
        let w: f64 = nodes.iter().map(|n| n.1).sum();
        assert!((w - 2.0).abs() < 1e-14);
        // x^18 on [−1, 1]: 2/19, exact for 10 points (degree ≤ 19).
        let i: f64 = nodes
            .iter()
            .map(|&(x, w)| w * crate::special::powi(x, 18))
            .sum();
        assert!((i - 2.0 / 19.0).abs() < 1e-15, "{i}");
    }

    #[test]
    fn excess_matches_its_definition_where_that_is_accurate() {
        for &(s, x) in &[
            (2.0, 0.5),
            (3.5, -0.3),
            (-2.0, 0.05),
            (1.5, 0.05),
            (-0.5, 2.0),
        ] {
            let direct: f64 = libm::pow(1.0 + x, s) - 1.0 - s * x;
            assert!(
                (excess(s, x, ln_1p(x)) - direct).abs() <= 1e-12 * direct.abs(),
                "{s} {x}"
            );
        }
        // Tiny x: s(s − 1)x²/2 to first order.
        let e = excess(4.0, 1e-9, ln_1p(1e-9));
        assert!((e - 6e-18).abs() < 1e-26, "{e}");
    }

    #[test]
    fn binary_rr_at_a_whole_order_is_the_binomial_sum() {
        // Remove direction at α = 2: E_P[a²] = 1 + q²(e^{ε(2)} − 1), ε(2) the base curve.
        let (eps, q) = (1.0, 0.1);
        let mech = Mechanism::RandomizedResponse { epsilon: eps };
        let base2 = mech.rdp(2.0).unwrap();
        let expected = ln_1p(q * q * exp_m1(base2));
        let (remove, _) = poisson_directions(&mech, q, 2.0).unwrap();
        assert!(
            (remove - expected).abs() < 1e-15 * expected,
            "{remove} vs {expected}"
        );
    }
}
