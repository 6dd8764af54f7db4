//! What hyperparameter tuning costs: a private training is run a random number K of times (each
//! time with other hyperparameters) and only the best run is released, the others' outputs never
//! (Papernot & Steinke, "Hyperparameter tuning with Rényi differential privacy", ICLR 2022, arXiv
//! 2110.03620). Reporting one run's ε for this procedure understates it; composing K runs
//! overstates it many times over: the procedure costs a few times one run's RDP at each order.
//!
//! **The laws of K.** Truncated negative binomial with shape η > −1 and parameter γ ∈ (0, 1]:
//! P[K = k] ∝ (1 − γ)^k·C(k + η − 1, k) for k ≥ 1 (η = 1 is the geometric law, η → 0 the
//! logarithmic law P[K = k] ∝ (1 − γ)^k/k); its mean is η(1 − γ)/(γ(1 − γ^η)) ((1 − γ)/(γ ln(1/γ))
//! at η = 0). Or Poisson with mean μ (K = 0 releases nothing).
//!
//! **The bounds** (each holds for any neighbouring relation the single run's RDP holds for; the
//! output of the procedure is the best run's output and its score):
//! - truncated negative binomial (their Theorem 2): if one run is (λ, ε(λ))-RDP and
//!   (λ̂, ε(λ̂))-RDP, the procedure is (λ, ε′)-RDP with
//!   ε′ = ε(λ) + (1 + η)·((1 − 1/λ̂)·ε(λ̂) + ln(1/γ)/λ̂) + ln(E[K])/(λ − 1), for any λ̂ ≥ 1;
//! - Poisson (their Theorem 6): if one run is (λ, ε(λ))-RDP and (ε̂, δ̂)-DP with
//!   e^ε̂ ≤ 1 + 1/(λ − 1), the procedure is (λ, ε(λ) + μ·δ̂ + ln(μ)/(λ − 1))-RDP.
//!
//! Both are upper bounds. RDP at an order is at most RDP at any larger order, so each order's
//! value is also lowered to the smallest value at a larger order.

use crate::rdp::Curve;
use crate::special::{exp_m1, ln, ln_1p};
use crate::MathError;

/// The law of the number of runs K.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Repetitions {
    /// K ~ Poisson with this mean μ ≥ 1 (K = 0 possible: nothing is released).
    Poisson {
        /// E[K].
        mean: f64,
    },
    /// K ~ truncated negative binomial with this shape η > −1 and mean ≥ 1 (η = 0: logarithmic;
    /// η = 1: geometric).
    NegativeBinomial {
        /// The shape η.
        shape: f64,
        /// E[K].
        mean: f64,
    },
}

impl Repetitions {
    /// The geometric law with this mean (η = 1, γ = 1/mean).
    pub fn geometric(mean: f64) -> Repetitions {
        Repetitions::NegativeBinomial { shape: 1.0, mean }
    }

    /// The logarithmic law with this mean (η = 0).
    pub fn logarithmic(mean: f64) -> Repetitions {
        Repetitions::NegativeBinomial { shape: 0.0, mean }
    }

    /// E[K].
    pub fn mean(&self) -> f64 {
        match *self {
            Repetitions::Poisson { mean } | Repetitions::NegativeBinomial { mean, .. } => mean,
        }
    }

    /// Checks the mean (finite, at least 1) and the shape (finite, above −1).
    pub fn validate(&self) -> Result<(), MathError> {
        let mean = self.mean();
        if !(mean.is_finite() && mean >= 1.0) {
            return Err(MathError::OutOfDomain {
                name: "mean number of runs",
                value: mean,
                expected: "a finite number at least 1",
            });
        }
        if let Repetitions::NegativeBinomial { shape, .. } = *self {
            if !(shape.is_finite() && shape > -1.0) {
                return Err(MathError::OutOfDomain {
                    name: "shape η",
                    value: shape,
                    expected: "a finite number above −1",
                });
            }
        }
        Ok(())
    }
}

/// E[K] of the truncated negative binomial law with shape η > −1 at γ = e^{−t}, t ≥ 0:
/// η·(e^t − 1)/(1 − e^{−ηt}), and (e^t − 1)/t at η = 0 (1 at t = 0). Exact up to rounding
/// (expm1 throughout: no cancellation as t → 0 or η → 0).
pub fn negative_binomial_mean(shape: f64, t: f64) -> f64 {
    if t <= 0.0 {
        return 1.0;
    }
    let up = exp_m1(t);
    let x = shape * t;
    if x.abs() < 1e-12 {
        // (1 − e^{−x})/η → t(1 − x/2) as x → 0.
        return up / (t * (1.0 - 0.5 * x));
    }
    shape * up / -exp_m1(-x)
}

/// t = ln(1/γ) of the truncated negative binomial law with shape η and the given mean ≥ 1: the
/// root of [`negative_binomial_mean`] (increasing in t), by bisection to the last bit. The mean 1
/// gives t = 0 (K = 1 always).
pub fn negative_binomial_ln_inverse_gamma(shape: f64, mean: f64) -> Result<f64, MathError> {
    Repetitions::NegativeBinomial { shape, mean }.validate()?;
    if mean == 1.0 {
        return Ok(0.0);
    }
    if shape == 1.0 {
        // Geometric: γ = 1/mean.
        return Ok(ln(mean));
    }
    let mut hi = 1.0;
    while negative_binomial_mean(shape, hi) < mean {
        hi *= 2.0;
        if hi > 1e6 {
            return Err(MathError::NoSolution {
                reason: format!(
                    "no truncated negative binomial law of shape {shape} has mean {mean}"
                ),
            });
        }
    }
    let mut lo = 0.0;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if negative_binomial_mean(shape, mid) < mean {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    // The larger t (smaller γ) is the conservative one: its mean is at least the target.
    Ok(hi)
}

/// The RDP curve of the whole procedure (run K times, release the best) on `curve`'s grid, from
/// one run's curve: [`theorem_values`], each then [`lowered`] to the smallest value at a larger
/// order. For Poisson K, `delta_hat(ε̂)` must give a δ̂ at which one run is (ε̂, δ̂)-DP (any valid
/// upper bound: the tighter, the tighter the result). Upper bound (module notes); orders at or
/// below 1 are left infinite.
pub fn repeat_and_select(
    curve: &Curve,
    reps: Repetitions,
    delta_hat: &dyn Fn(f64) -> Result<f64, MathError>,
) -> Result<Curve, MathError> {
    let rdp = theorem_values(curve, reps, delta_hat)?;
    Ok(Curve::sampled(
        curve.orders.clone(),
        lowered(&curve.orders, &rdp),
    ))
}

/// The procedure's RDP at each order of `curve` by the theorem for its law (module notes), before
/// any lowering: for Poisson K, δ̂ = `delta_hat(ε̂)` at ε̂ = ln(1 + 1/(λ − 1)); for the negative
/// binomial, the best λ̂ over the grid's orders ≥ 1. Orders at or below 1: infinite.
pub fn theorem_values(
    curve: &Curve,
    reps: Repetitions,
    delta_hat: &dyn Fn(f64) -> Result<f64, MathError>,
) -> Result<Vec<f64>, MathError> {
    reps.validate()?;
    if curve.orders.is_empty() || curve.orders.len() != curve.rdp.len() {
        return Err(MathError::Inconsistent {
            reason: "an RDP curve needs as many values as orders, and at least one".into(),
        });
    }
    let ln_mean = ln(reps.mean());
    let points = curve.orders.iter().zip(&curve.rdp);
    match reps {
        Repetitions::Poisson { mean } => points
            .map(|(&a, &r)| {
                if a <= 1.0 {
                    return Ok(f64::INFINITY);
                }
                let d = delta_hat(ln_1p(1.0 / (a - 1.0)))?;
                Ok(r + mean * d + ln_mean / (a - 1.0))
            })
            .collect(),
        Repetitions::NegativeBinomial { shape, mean } => {
            let t = negative_binomial_ln_inverse_gamma(shape, mean)?;
            // min over λ̂ of (1 − 1/λ̂)ε(λ̂) + ln(1/γ)/λ̂, over the grid's orders λ̂ ≥ 1.
            let c = points
                .clone()
                .filter(|(&a, _)| a >= 1.0)
                .map(|(&a, &r)| (1.0 - 1.0 / a) * r + t / a)
                .fold(f64::INFINITY, f64::min);
            let c = (1.0 + shape) * c;
            Ok(points
                .map(|(&a, &r)| {
                    if a > 1.0 {
                        r + c + ln_mean / (a - 1.0)
                    } else {
                        f64::INFINITY
                    }
                })
                .collect())
        }
    }
}

/// RDP is non-decreasing in the order, so a bound at a larger order bounds every smaller one:
/// each value lowered to the smallest at any order at least its own (orders in any sequence).
pub fn lowered(orders: &[f64], rdp: &[f64]) -> Vec<f64> {
    orders
        .iter()
        .map(|&a| {
            orders
                .iter()
                .zip(rdp)
                .filter(|(&b, _)| b >= a)
                .map(|(_, &r)| r)
                .fold(f64::INFINITY, f64::min)
        })
        .collect()
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // std's functions as an independent check
mod tests {
    use super::*;
    use crate::rdp::{epsilon_for_delta, Conversion};

    fn gaussian_curve(sigma: f64, steps: f64) -> Curve {
        let orders: Vec<f64> = (0..200).map(|i| 1.0 + 0.05 * (i + 1) as f64).collect();
        let rdp = orders
            .iter()
            .map(|a| steps * a / (2.0 * sigma * sigma))
            .collect();
        Curve::sampled(orders, rdp)
    }

    #[test]
    fn the_negative_binomial_mean_matches_its_series() {
        // E[K] = Σ k·P[K = k] summed directly, P[K = k] ∝ (1 − γ)^k·Γ(k + η)/(Γ(η)·k!).
        for &(shape, gamma) in &[
            (0.5f64, 0.1f64),
            (1.0, 0.05),
            (2.0, 0.3),
            (-0.5, 0.02),
            (0.0, 0.1),
        ] {
            let (mut z, mut m) = (0.0, 0.0);
            let mut w = 1.0; // Γ(k + η)/(Γ(η)k!)·η^{-1} at k = 1 is 1 (η ≠ 0); for η = 0: 1/k.
            for k in 1..200_000u32 {
                let kf = k as f64;
                let term = if shape == 0.0 {
                    (1.0 - gamma).powi(k as i32) / kf
                } else {
                    if k > 1 {
                        w *= (kf - 1.0 + shape) / kf;
                    }
                    (1.0 - gamma).powi(k as i32) * w
                };
                z += term;
                m += kf * term;
            }
            let ours = negative_binomial_mean(shape, -gamma.ln());
            assert!(
                ((ours - m / z) / ours).abs() < 1e-9,
                "η = {shape}, γ = {gamma}: {ours} vs {}",
                m / z
            );
        }
    }

    #[test]
    fn gamma_round_trips_through_the_mean() {
        for &shape in &[-0.9, -0.5, 0.0, 1e-13, 0.5, 1.0, 3.0, 50.0] {
            for &mean in &[1.0, 1.001, 2.0, 10.0, 100.0, 1e5] {
                let t = negative_binomial_ln_inverse_gamma(shape, mean).unwrap();
                let back = negative_binomial_mean(shape, t);
                assert!(
                    ((back - mean) / mean).abs() < 1e-12,
                    "η = {shape}, mean {mean}: {back}"
                );
                assert!(back >= mean * (1.0 - 1e-15));
            }
        }
        assert!(negative_binomial_ln_inverse_gamma(1.0, 0.5).is_err());
        assert!(negative_binomial_ln_inverse_gamma(-1.0, 5.0).is_err());
        assert!(negative_binomial_ln_inverse_gamma(f64::NAN, 5.0).is_err());
    }

    /// One run's ε ≤ the procedure's ε, which grows with E[K]; and for the Gaussian mechanism the
    /// geometric bound at order λ is the closed form of Theorem 2 with the best λ̂.
    #[test]
    fn tuning_costs_more_than_one_run_and_more_with_more_runs() {
        let one = gaussian_curve(2.0, 10.0);
        let zero = |_: f64| Ok(0.0);
        let e1 = epsilon_for_delta(&one, 1e-5, Conversion::Improved)
            .unwrap()
            .epsilon;
        let mut last = e1;
        for mean in [1.0, 2.0, 10.0, 100.0, 1000.0] {
            for reps in [Repetitions::geometric(mean), Repetitions::logarithmic(mean)] {
                let tuned = repeat_and_select(&one, reps, &zero).unwrap();
                for (a, b) in tuned.rdp.iter().zip(&one.rdp) {
                    assert!(a >= b);
                }
            }
            let tuned = repeat_and_select(&one, Repetitions::geometric(mean), &zero).unwrap();
            let e = epsilon_for_delta(&tuned, 1e-5, Conversion::Improved)
                .unwrap()
                .epsilon;
            assert!(e > last || mean == 1.0, "mean {mean}: {e} after {last}");
            last = e;
        }
        // Closed form at λ = 3, geometric mean 10: ε(λ) = λ·k/(2σ²) = 3.75 at k/σ² = 2.5; the
        // best λ̂ on the fine grid minimises (1 − 1/λ̂)·1.25·λ̂ + ln 10/λ̂ = 1.25(λ̂ − 1) + ln 10/λ̂,
        // at λ̂ = √(ln 10/1.25) ≈ 1.357 (the grid has 1.35): 2·(1.25·0.35 + ln 10/1.35).
        let tuned = repeat_and_select(&one, Repetitions::geometric(10.0), &zero).unwrap();
        let i = one
            .orders
            .iter()
            .position(|&a| (a - 3.0).abs() < 1e-9)
            .unwrap();
        let expect = 3.75 + 2.0 * (1.25 * 0.35 + 10f64.ln() / 1.35) + 10f64.ln() / 2.0;
        assert!(
            (tuned.rdp[i] - expect).abs() < 1e-12,
            "{} vs {expect}",
            tuned.rdp[i]
        );
    }

    #[test]
    fn the_poisson_bound_adds_the_mean_times_delta_hat() {
        let one = gaussian_curve(2.0, 10.0);
        let asked = std::cell::RefCell::new(Vec::new());
        let dh = |e: f64| {
            asked.borrow_mut().push(e);
            Ok(1e-3)
        };
        let tuned = repeat_and_select(&one, Repetitions::Poisson { mean: 5.0 }, &dh).unwrap();
        let i = one
            .orders
            .iter()
            .position(|&a| (a - 2.0).abs() < 1e-9)
            .unwrap();
        // At λ = 2: ε̂ = ln 2, and 2.5 + 5·1e-3 + ln 5 before the monotone lowering, which acts
        // here: 1.25λ + ln 5/(λ − 1) still falls past λ = 2 (its minimum is near 2.13).
        assert!((asked.borrow()[i] - 2f64.ln()).abs() < 1e-15);
        let raw = 2.5 + 5.0 * 1e-3 + 5f64.ln();
        assert!(tuned.rdp[i] <= raw + 1e-12);
        let min_above = one
            .orders
            .iter()
            .zip(&one.rdp)
            .filter(|(&a, _)| a >= 2.0)
            .map(|(&a, &r)| r + 5e-3 + 5f64.ln() / (a - 1.0))
            .fold(f64::INFINITY, f64::min);
        assert!((tuned.rdp[i] - min_above.min(raw)).abs() < 1e-12);
        assert!(repeat_and_select(&one, Repetitions::Poisson { mean: 0.5 }, &dh).is_err());
    }
}
