//! Google's dp_accounting 0.6.0, its RDP accountant (`dp_accounting.rdp.RdpAccountant` at its
//! defaults): the fixed grid of orders, the Poisson-subsampled Gaussian's curve (whole orders by
//! the binomial sum; fractional orders by the two-sided series with every term added as positive),
//! its RDP → (ε, δ) conversions, and `RepeatAndSelectDpEvent` (tuning: run K times, release the
//! best; Papernot & Steinke 2022). Add/remove neighbours.
//!
//! How these differ from this crate's own RDP accounting ([`crate::rdp`]): the grid is fixed (no
//! search between orders), the fractional orders' series drops its signs (an overestimate), and
//! the conversions add a bound through the KL divergence (δ ≤ √(1 − e^{−ε(α)}), used at every
//! order) and leave out orders at or below 1.01. All values are upper bounds.

use crate::rdp::{poisson_gaussian_integer, poisson_gaussian_unsigned, Curve};
use crate::special::{exp, exp_m1, ln, ln_1p};
use crate::tuning::{self, Repetitions};
use crate::MathError;

/// The library's default orders: 1.1, 1.2, …, 10.9, then 11, 12, …, 63, then 128, 256, 512,
/// 1024 (156 orders; `DEFAULT_RDP_ORDERS`).
pub fn orders() -> Vec<f64> {
    let mut v: Vec<f64> = (1..100).map(|x| 1.0 + x as f64 / 10.0).collect();
    v.extend((11..64).map(|a| a as f64));
    v.extend([128.0, 256.0, 512.0, 1024.0]);
    v
}

/// One step's RDP at order α of the Gaussian mechanism with noise multiplier σ, Poisson-sampled
/// at rate q (q = 1: the mechanism itself, α/(2σ²)), as the library computes it: whole orders
/// exactly, fractional orders by the signs-dropped series ([`poisson_gaussian_unsigned`]).
pub fn poisson_gaussian_rdp(sigma: f64, q: f64, alpha: f64) -> Result<f64, MathError> {
    if q == 1.0 {
        crate::check_positive("σ", sigma)?;
        return Ok(alpha / (2.0 * sigma * sigma));
    }
    if alpha.fract() == 0.0 {
        poisson_gaussian_integer(sigma, q, alpha as u64)
    } else {
        poisson_gaussian_unsigned(sigma, q, alpha)
    }
}

/// The curve of `steps` compositions of [`poisson_gaussian_rdp`] on [`orders`].
pub fn poisson_gaussian_curve(sigma: f64, q: f64, steps: f64) -> Result<Curve, MathError> {
    poisson_gaussian_curve_on(orders(), sigma, q, steps)
}

/// [`poisson_gaussian_curve`] on another grid of orders (an `RdpAccountant(orders)`).
pub fn poisson_gaussian_curve_on(
    orders: Vec<f64>,
    sigma: f64,
    q: f64,
    steps: f64,
) -> Result<Curve, MathError> {
    let rdp = orders
        .iter()
        .map(|&a| poisson_gaussian_rdp(sigma, q, a).map(|r| r * steps))
        .collect::<Result<_, _>>()?;
    Ok(Curve::sampled(orders, rdp))
}

/// (ε, order) at δ > 0 from a curve, as `compute_epsilon` does: at each order the improved
/// conversion ε(α) + ln(1 − 1/α) − ln(δα)/(α − 1) (orders above 1.01 only), or 0 where the KL
/// bound already gives δ (δ² > 1 − e^{−ε(α)}); the smallest, at least 0.
pub fn epsilon(curve: &Curve, delta: f64) -> Result<(f64, f64), MathError> {
    crate::check_delta("δ", delta)?;
    let mut best = (f64::INFINITY, f64::NAN);
    for (&a, &r) in curve.orders.iter().zip(&curve.rdp) {
        let e = if r < 0.0 || delta * delta + exp_m1(-r) > 0.0 {
            0.0
        } else if a > 1.01 {
            r + ln_1p(-1.0 / a) - ln(delta * a) / (a - 1.0)
        } else {
            f64::INFINITY
        };
        if e < best.0 {
            best = (e, a);
        }
    }
    if best.0.is_finite() {
        Ok((best.0.max(0.0), best.1))
    } else {
        Err(MathError::NoSolution {
            reason: "ε is infinite at every order".into(),
        })
    }
}

/// (δ, order) at ε ≥ 0 from a curve, as `compute_delta` does: at each order the smaller of the KL
/// bound ½·ln(1 − e^{−ε(α)}) and, above order 1.01, (α − 1)(ε(α) − ε + ln(1 − 1/α)) − ln α (in
/// log space); the smallest, at most 1.
pub fn delta(curve: &Curve, epsilon: f64) -> Result<(f64, f64), MathError> {
    crate::check_epsilon("ε", epsilon)?;
    let mut best = (f64::INFINITY, f64::NAN);
    for (&a, &r) in curve.orders.iter().zip(&curve.rdp) {
        let mut l = if r <= 0.0 {
            f64::NEG_INFINITY
        } else {
            0.5 * ln_1p(-exp(-r))
        };
        if a > 1.01 {
            l = l.min((a - 1.0) * (r - epsilon + ln_1p(-1.0 / a)) - ln(a));
        }
        if l < best.0 {
            best = (l, a);
        }
    }
    Ok((exp(best.0).min(1.0), best.1))
}

/// The curve of `RepeatAndSelectDpEvent` (run K times, release the best) from one run's curve:
/// Papernot & Steinke's theorems as [`tuning::repeat_and_select`] states them, with the library's
/// choices: λ̂ over the grid; for Poisson K, δ̂ from [`delta`] at ε̂ = ln(1 + 1/(λ − 1)) and no
/// lowering of an order's value to a larger order's (the negative binomial's values are lowered).
pub fn repeat_and_select(curve: &Curve, reps: Repetitions) -> Result<Curve, MathError> {
    let delta_hat = |e: f64| delta(curve, e).map(|d| d.0);
    let lower = !matches!(reps, Repetitions::Poisson { .. });
    let rdp = tuning::theorem_values(curve, reps, &delta_hat)?;
    let rdp = if lower {
        tuning::lowered(&curve.orders, &rdp)
    } else {
        rdp
    };
    Ok(Curve::sampled(curve.orders.clone(), rdp))
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // std's functions as an independent check
mod tests {
    use super::*;

    #[test]
    fn the_grid_is_the_librarys() {
        let o = orders();
        assert_eq!(o.len(), 156);
        assert_eq!(
            (o[0], o[98], o[99], o[151], o[155]),
            (1.1, 10.9, 11.0, 63.0, 1024.0)
        );
    }

    #[test]
    fn the_kl_bound_and_the_cut_below_order_1_01_act() {
        // A tiny curve: δ² + e^{−ε(α)} − 1 > 0 at δ = 1e-5 once ε(α) < 1e-10.
        let c = Curve::sampled(vec![1.005, 2.0], vec![1e-12, 1e-12]);
        assert_eq!(epsilon(&c, 1e-5).unwrap().0, 0.0);
        // Only order 1.005 (no improved conversion there), not tiny: infinite at every order.
        let c = Curve::sampled(vec![1.005], vec![0.5]);
        assert!(epsilon(&c, 1e-5).is_err());
        let (d, _) = delta(&c, 0.1).unwrap();
        assert!((d - (1.0 - (-0.5f64).exp()).sqrt()).abs() < 1e-15);
    }
}
