//! The limits of amplification by subsampling (Steinke, "Limits of privacy amplification by
//! subsampling"): how much more noise the subsampled Laplace mechanism adds than the
//! full-data one, as a function of ε and the rate p.
//!
//! Notation of the post: ε_p = log(1 + (e^ε − 1)/p) is the ε the mechanism on the sample may use
//! (eq. 3, the inverse of Theorem 1 of Steinke, "Privacy amplification by subsampling"); the noise
//! ratio is R(ε, p) = p·ε_p/ε (eq. 7), the full-data mechanism's Laplace scale 1/(εn) divided by
//! the subsampled one's 1/(ε_p p n). Its inverse 1/R is the factor by which the subsampled
//! mechanism's noise is larger.
//!
//! All statements are for Poisson sampling under add/remove neighbours (the post's setting) and pure
//! ε-DP Laplace mechanisms.
//!
//! Measured accuracy: the committed table `math/tests/data/limits.csv`, from
//! `tools/reference/limits.py` (mpmath, 60 digits).

use crate::root::{brent, Tolerance};
use crate::special::{exp_m1, ln, ln_1p};
use crate::subsampling::base_epsilon;
use crate::{check_epsilon, MathError, Relation};

/// The neighbouring relation of every statement in this module: add/remove one (Poisson sampling,
/// the post's setting).
pub const RELATION: Relation = Relation::AddRemove;

/// ε_p = log(1 + (e^ε − 1)/p): the per-sample ε that gives ε overall (Steinke, part 2, eq. 3).
///
/// Same function as [`base_epsilon`], named as in the post. Exact; relative error ≤ 3e-16.
pub fn epsilon_p(epsilon: f64, p: f64) -> Result<f64, MathError> {
    base_epsilon(epsilon, p)
}

fn check_rate(p: f64) -> Result<(), MathError> {
    crate::check_rate("p", p)
}

/// Noise ratio R(ε, p) = p·ε_p/ε = (p/ε)·log(1 + (e^ε − 1)/p) (Steinke, part 2, eq. 7).
///
/// - Meaning: the Laplace noise scale of the full-data mechanism divided by that of the subsampled
///   one at the same overall ε; 1 means subsampling is free.
/// - Bounds (eq. 6): p/(p + ε) ≤ R ≤ 1, checked by property tests.
/// - Regimes: for ε > 0 the quotient is formed from [`base_epsilon`], which keeps full relative
///   accuracy down to subnormal results, so there is no 0/0; R(0, p) = 1 (the limit); for ε below
///   1e-200, log(1 + x)/x with x = ε/p (e^ε − 1 = ε there to 1e-200 relative).
/// - Domain: ε ∈ [0, 500], p ∈ (0, 1]. Relation: add/remove (Poisson sampling).
/// - Exact (a property of the theorem's bound, not an estimate).
pub fn noise_ratio(epsilon: f64, p: f64) -> Result<f64, MathError> {
    check_epsilon("ε", epsilon)?;
    check_rate(p)?;
    if epsilon == 0.0 {
        return Ok(1.0);
    }
    if epsilon < 1e-200 {
        // e^ε − 1 = ε to 1e-200 relative, so R = log(1 + x)/x with x = ε/p (no product p·ε_p
        // to go subnormal). Not the series 1 − (1 − p)ε/(2p): that needs ε ≪ p, and p may be
        // smaller than ε here.
        let x = epsilon / p;
        return Ok(ln_1p(x) / x);
    }
    Ok((p * base_epsilon(epsilon, p)? / epsilon).min(1.0))
}

/// The noise factor 1/R(ε, p) = ε/(p·ε_p): how many times more Laplace noise the subsampled
/// mechanism adds. At least 1; at most 1 + ε/p (eq. 6). Exact.
pub fn noise_factor(epsilon: f64, p: f64) -> Result<f64, MathError> {
    Ok(1.0 / noise_ratio(epsilon, p)?)
}

/// The bounds of eq. 6 on R: (p/(p + ε), 1).
pub fn noise_ratio_bounds(epsilon: f64, p: f64) -> Result<(f64, f64), MathError> {
    check_epsilon("ε", epsilon)?;
    check_rate(p)?;
    Ok((p / (p + epsilon), 1.0))
}

/// log(1 + c)/c, the floor of R when ε ≤ c·p (Steinke, part 2, eq. 8). 1 at c = 0.
///
/// Computed as `ln_1p(c)/c` (full relative accuracy for small c, where log(1 + c) would round to
/// 0 below c ≈ 1e-16). Domain c ≥ 0, finite. Exact infimum (eq. 8 is attained as p → 0).
pub fn ratio_floor(c: f64) -> Result<f64, MathError> {
    check_c(c)?;
    if c == 0.0 {
        return Ok(1.0);
    }
    Ok(ln_1p(c) / c)
}

/// c/log(1 + c): the most noise the subsampled mechanism adds, relative to the full-data one, when
/// ε ≤ c·p (Steinke, part 2, eq. 8; c = 2 gives 1.8205). An upper bound on 1/R over that region.
pub fn noise_factor_bound(c: f64) -> Result<f64, MathError> {
    Ok(1.0 / ratio_floor(c)?)
}

fn check_c(c: f64) -> Result<(), MathError> {
    if c.is_nan() {
        return Err(MathError::NotANumber { name: "c" });
    }
    if !(0.0..=1e12).contains(&c) {
        return Err(MathError::OutOfDomain {
            name: "c",
            value: c,
            expected: "between 0 and 1e12",
        });
    }
    Ok(())
}

/// The terms of the Taylor series of ε_p in ε around 0 (Steinke, part 2, eq. 5):
/// ε/p, −(1 − p)ε²/(2p²) and (2 − p)(1 − p)ε³/(6p³).
///
/// Returns the three terms separately; the k-th order approximation is the sum of the first k.
/// Exact values of the terms (each is a product, no cancellation).
pub fn taylor_terms(epsilon: f64, p: f64) -> Result<[f64; 3], MathError> {
    check_epsilon("ε", epsilon)?;
    check_rate(p)?;
    let x = epsilon / p;
    let q = 1.0 - p;
    Ok([x, -q * x * x / 2.0, (2.0 - p) * q * x * x * x / 6.0])
}

/// Mean squared error of the standard Laplace mechanism for the mean of a [0, 1]-valued query over
/// n records: 2/(εn)² (Steinke, part 2, eq. 1). Exact.
pub fn mse_standard(epsilon: f64, n: f64) -> Result<f64, MathError> {
    check_epsilon("ε", epsilon)?;
    check_n(n)?;
    if epsilon == 0.0 {
        return Err(MathError::OutOfDomain {
            name: "ε",
            value: epsilon,
            expected: "above 0 (ε = 0 needs infinite noise)",
        });
    }
    let s = epsilon * n;
    Ok(2.0 / (s * s))
}

/// The two parts of the subsampled Laplace mechanism's MSE bound (Steinke, part 2, eq. 2), with
/// |x| = n: the non-private sampling term 1/(pn) (an upper bound on the variance of the rescaled
/// sample sum) and the privacy-noise term 2/(ε_p·p·n)². Their sum is an upper bound on the MSE.
pub fn mse_subsampled_terms(epsilon: f64, p: f64, n: f64) -> Result<(f64, f64), MathError> {
    check_epsilon("ε", epsilon)?;
    check_rate(p)?;
    check_n(n)?;
    let ep = base_epsilon(epsilon, p)?;
    if ep == 0.0 {
        return Err(MathError::OutOfDomain {
            name: "ε",
            value: epsilon,
            expected: "above 0 (ε = 0 needs infinite noise)",
        });
    }
    let s = ep * p * n;
    Ok((1.0 / (p * n), 2.0 / (s * s)))
}

/// The break-even sampling rate of the subsampled Laplace mechanism's error (Steinke, part 2,
/// eq. 2): the smallest p at which the privacy-noise term 2/(ε_p·p·n)² has fallen to the
/// non-private sampling term 1/(pn), i.e. p·ε_p² = 2/n. Below it the privacy noise dominates the
/// error (it grows like 1/p², the sampling term only like 1/p); above it the sampling error does.
/// (The subsampled mechanism's MSE never drops below the standard mechanism's 2/(εn)², so there is
/// no rate at which the two mechanisms' errors are equal; this crossover is where subsampling stops
/// being limited by privacy.)
///
/// - Why a root finder: p·ε_p(ε, p)² is not monotone in p. Writing z = (e^ε − 1)/p, it equals
///   (e^ε − 1)·log²(1 + z)/z, which rises as p grows from 0 until z ≈ 3.92 (where
///   2z/(1 + z) = log(1 + z)) and falls after. The smallest root lies on the rising side, in
///   (0, min(1, (e^ε − 1)/3.92)], found by [`crate::root::brent`] on its logarithm to 4 ulp.
/// - Returns `None` when the privacy-noise term dominates at every rate (p·ε_p² < 2/n throughout).
/// - Domain: ε ∈ (0, 500], n ∈ [1, 1e15]. Relation: add/remove (Poisson). Exact up to the root
///   finder's tolerance.
pub fn mse_break_even_rate(epsilon: f64, n: f64) -> Result<Option<f64>, MathError> {
    check_epsilon("ε", epsilon)?;
    check_n(n)?;
    if epsilon == 0.0 {
        return Ok(None);
    }
    // z* solves 2z/(1 + z) = log(1 + z): 3.92155363456750 (mpmath).
    const Z_PEAK: f64 = 3.921_553_634_567_505;
    let peak = (exp_m1(epsilon) / Z_PEAK).min(1.0);
    let g = |p: f64| -> f64 {
        match base_epsilon(epsilon, p) {
            Ok(ep) => ln(p) + 2.0 * ln(ep) + ln(n) - std::f64::consts::LN_2,
            Err(_) => f64::NAN,
        }
    };
    let lo = 1e-300f64.max(peak * 1e-280);
    if g(peak) < 0.0 {
        return Ok(None);
    }
    if g(lo) >= 0.0 {
        return Ok(Some(lo));
    }
    brent(g, lo, peak, Tolerance::TIGHT).map(Some)
}

fn check_n(n: f64) -> Result<(), MathError> {
    if n.is_nan() {
        return Err(MathError::NotANumber { name: "n" });
    }
    if !(1.0..=1e15).contains(&n) {
        return Err(MathError::OutOfDomain {
            name: "n",
            value: n,
            expected: "between 1 and 1e15",
        });
    }
    Ok(())
}

/// The machine-learning regime of Steinke, part 2 (its back-of-the-envelope calculation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Regime {
    /// Sampling rate p = batch / dataset size.
    pub p: f64,
    /// Number of steps k.
    pub steps: u64,
    /// Epochs p·k (expected number of times each record is used).
    pub epochs: f64,
    /// Per-step pure ε = ε*/√k.
    pub epsilon_per_step: f64,
    /// c = ε/p.
    pub c: f64,
    /// The exact noise factor 1/R(ε, p).
    pub noise_factor: f64,
    /// The bound c/log(1 + c) on it.
    pub noise_factor_bound: f64,
}

/// How long training runs: epochs (converted to k = round(epochs/p) steps, at least 1) or steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Duration {
    /// Passes over the data.
    Epochs(f64),
    /// Optimisation steps.
    Steps(u64),
}

/// Steinke's asymptotic point (part 2, "Is ε ≤ c·p realistic?"): with batches of a fixed size
/// B, p = B/|x|, and keeping the per-step ε = ε*/√k of [`regime`] within c·p takes
/// k ≥ (ε*·|x|/(c·B))² steps, Ω(|x|²), and so p·k ≥ ε*²·|x|/(c²·B) epochs, Ω(|x|).
///
/// Returns (k, p·k) for the least whole k meeting it. Exact up to the rounding of the square
/// (k as a float, exact below 2^53). The inputs are checked as in [`regime`]; c > 0 finite.
pub fn steps_for_proportional(
    dataset: u64,
    batch: u64,
    total_epsilon: f64,
    c: f64,
) -> Result<(f64, f64), MathError> {
    let p = regime(dataset, batch, Duration::Steps(1), total_epsilon)?.p;
    check_c(c)?;
    let root = total_epsilon / (c * p);
    let k = (root * root).ceil().max(1.0);
    if !k.is_finite() {
        return Err(MathError::OutOfDomain {
            name: "c",
            value: c,
            expected: "large enough that the number of steps is finite",
        });
    }
    Ok((k, k * p))
}

/// The regime calculator: dataset size |x|, batch size B (p = B/|x|), a duration, and an overall
/// budget ε* read as ½ε*²-zCDP, which composes over k steps from per-step pure ε = ε*/√k
/// (Steinke, part 2, footnote 3: pure ε-DP implies ½ε²-zCDP, and zCDP adds up).
///
/// Steps from epochs are rounded to the nearest whole step (at least 1). Exact given its inputs.
pub fn regime(
    dataset: u64,
    batch: u64,
    duration: Duration,
    total_epsilon: f64,
) -> Result<Regime, MathError> {
    if dataset == 0 || dataset > 1 << 53 {
        return Err(MathError::OutOfDomain {
            name: "dataset size",
            value: dataset as f64,
            expected: "a whole number from 1 to 2^53",
        });
    }
    if batch == 0 || batch > dataset {
        return Err(MathError::Inconsistent {
            reason: format!("the batch size must be between 1 and the dataset size {dataset}"),
        });
    }
    check_epsilon("ε*", total_epsilon)?;
    if total_epsilon == 0.0 {
        return Err(MathError::OutOfDomain {
            name: "ε*",
            value: 0.0,
            expected: "above 0",
        });
    }
    let p = batch as f64 / dataset as f64;
    let steps = match duration {
        Duration::Steps(k) => {
            if k == 0 || k > 1 << 53 {
                return Err(MathError::OutOfDomain {
                    name: "steps",
                    value: k as f64,
                    expected: "a whole number from 1 to 2^53",
                });
            }
            k
        }
        Duration::Epochs(e) => {
            if e.is_nan() || !(0.0..=1e9).contains(&e) || e == 0.0 {
                return Err(MathError::OutOfDomain {
                    name: "epochs",
                    value: e,
                    expected: "above 0 and at most 1e9",
                });
            }
            ((e / p).round() as u64).max(1)
        }
    };
    let epsilon_per_step = total_epsilon / (steps as f64).sqrt();
    let c = epsilon_per_step / p;
    Ok(Regime {
        p,
        steps,
        epochs: steps as f64 * p,
        epsilon_per_step,
        c,
        noise_factor: noise_factor(epsilon_per_step, p)?,
        noise_factor_bound: noise_factor_bound(c)?,
    })
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;

    #[test]
    fn steps_for_proportional_is_the_least_run_meeting_c() {
        // |x| = 60,000, B = 256, ε* = 3, c = 1: (3·60000/256)² = 703.125² = 494,384.77 → 494,385
        // steps, 494,385·256/60,000 = 2,109.376 epochs (exact decimal arithmetic).
        let (k, epochs) = steps_for_proportional(60_000, 256, 3.0, 1.0).unwrap();
        assert_eq!(k, 494_385.0);
        assert!((epochs - 2_109.376).abs() < 1e-9, "{epochs}");
        // The least such run, checked through the regime calculator itself, across sizes.
        for (d, b, t, c) in [
            (60_000u64, 256u64, 3.0, 1.0),
            (1_000_000, 32, 1.0, 0.5),
            (500, 50, 8.0, 2.0),
            (10, 10, 0.1, 1.0),
        ] {
            let (k, _) = steps_for_proportional(d, b, t, c).unwrap();
            let at = |k: f64| regime(d, b, Duration::Steps(k as u64), t).unwrap().c;
            assert!(
                at(k) <= c * (1.0 + 1e-12),
                "{d} {b}: c {} at k = {k}",
                at(k)
            );
            if k > 1.0 {
                assert!(
                    at(k - 1.0) > c,
                    "{d} {b}: k − 1 = {} already meets c",
                    k - 1.0
                );
            }
        }
        // Quadratic in |x| and the epochs linear, at a fixed batch.
        let (k1, e1) = steps_for_proportional(100_000, 32, 1.0, 1.0).unwrap();
        let (k2, e2) = steps_for_proportional(200_000, 32, 1.0, 1.0).unwrap();
        assert!((k2 / k1 - 4.0).abs() < 1e-6 && (e2 / e1 - 2.0).abs() < 1e-6);
        assert!(steps_for_proportional(100, 200, 1.0, 1.0).is_err());
        assert!(steps_for_proportional(100, 10, 1.0, 0.0).is_err());
        assert!(steps_for_proportional(100, 10, 1.0, f64::NAN).is_err());
    }

    #[test]
    fn seed_values() {
        // Seed 001: ε ≤ 2p gives a noise ratio of at least log(3)/2 = 0.5493 (at most 1.8205×).
        assert!((ratio_floor(2.0).unwrap() - 0.549_306_144_334_054_8).abs() < 1e-15);
        assert!((noise_factor_bound(2.0).unwrap() - 1.820_478_453_253_674_8).abs() < 1e-15);
        // Math reference checks: c = 0.2 → 1.0970, 0.5 → 1.2332, 5 → 2.7906.
        for (c, v) in [(0.2, 1.0970), (0.5, 1.2332), (5.0, 2.7906)] {
            assert!((noise_factor_bound(c).unwrap() - v).abs() < 5e-5, "c = {c}");
        }
    }

    #[test]
    fn regime_example_of_the_issue() {
        // Batch 256 of 60,000 for 3 epochs with ε* = 3: 703 steps of ε = 0.113 each, c = 26.5,
        // noise factor 7.87, bound 8.00 (mpmath: 7.869192972692523 and 7.999966350081475).
        let r = regime(60_000, 256, Duration::Epochs(3.0), 3.0).unwrap();
        assert_eq!(r.steps, 703);
        assert!((r.epsilon_per_step - 0.113_147_142_960_707_13).abs() < 1e-15);
        assert!((r.c - 26.518_861_631_415_734).abs() < 1e-12);
        assert!((r.noise_factor - 7.869_192_972_692_523).abs() < 1e-12);
        assert!((r.noise_factor_bound - 7.999_966_350_081_475).abs() < 1e-12);
    }

    #[test]
    fn break_even_balances_the_two_terms() {
        for &(eps, n) in &[(1.0, 1e4), (0.1, 1e6), (3.0, 100.0), (0.01, 1e9)] {
            let p = mse_break_even_rate(eps, n).unwrap().unwrap();
            let (sampling, noise) = mse_subsampled_terms(eps, p, n).unwrap();
            assert!(
                ((sampling - noise) / noise).abs() < 1e-12,
                "ε = {eps}, n = {n}, p = {p}"
            );
            // Just below it the privacy noise dominates; just above it the sampling error does.
            let (s_lo, n_lo) = mse_subsampled_terms(eps, p * 0.99, n).unwrap();
            assert!(n_lo > s_lo, "ε = {eps}, n = {n}");
            let (s_hi, n_hi) = mse_subsampled_terms(eps, p * 1.01, n).unwrap();
            assert!(s_hi > n_hi, "ε = {eps}, n = {n}");
        }
        // Tiny ε with few records: the privacy noise dominates at every rate.
        assert_eq!(mse_break_even_rate(0.01, 10.0).unwrap(), None);
    }

    #[test]
    fn limits_at_zero() {
        assert_eq!(noise_ratio(0.0, 0.01).unwrap(), 1.0);
        assert_eq!(ratio_floor(0.0).unwrap(), 1.0);
        assert!((noise_ratio(1e-250, 1e-9).unwrap() - 1.0).abs() < 1e-15);
        assert!(mse_standard(0.0, 100.0).is_err());
        assert!(regime(100, 200, Duration::Steps(10), 1.0).is_err());
    }
}
