//! Accuracy gains from sampling first (Hu, Drechsler & Kim, "Accuracy gains from privacy
//! amplification through sampling for differential privacy"), analytic part.
//!
//! An agency holds a population of N records and a target (ε, δ). It may instead draw a simple
//! random sample of n without replacement and spend the amplified (ε_n, δ_n) on it (their Theorem 1,
//! the replace-one bound of [`crate::subsampling`] with p = n/N). Does the released estimate get more
//! accurate? Relation: replace one (bounded DP, the paper's setting).

use crate::root::{brent, Tolerance};
use crate::special::{exp_m1, ln_1p};
use crate::subsampling::base_epsilon;
use crate::{check_delta, check_epsilon, MathError, Relation};

/// The neighbouring relation of every statement in this module: replace one (bounded DP, sampling
/// without replacement; the paper's setting). The median simulation holds for it too.
pub const RELATION: Relation = Relation::ReplaceOne;

fn check_rate(rate: f64) -> Result<(), MathError> {
    crate::check_rate("n/N", rate)
}

/// ε_n = log(1 + (N/n)(e^ε − 1)): the ε the sample may spend (Hu, Drechsler & Kim, Theorem 1 turned
/// around). Same as [`base_epsilon`] with p = n/N. Exact; relative error ≤ 3e-16.
pub fn epsilon_n(epsilon: f64, rate: f64) -> Result<f64, MathError> {
    check_rate(rate)?;
    base_epsilon(epsilon, rate)
}

/// δ_n = (N/n)δ (Hu, Drechsler & Kim, Theorem 1). Errors when it reaches 1 (no guarantee left).
pub fn delta_n(delta: f64, rate: f64) -> Result<f64, MathError> {
    check_delta("δ", delta)?;
    check_rate(rate)?;
    let d = delta / rate;
    if d >= 1.0 {
        return Err(MathError::NoSolution {
            reason: format!("δ_n = δ·N/n = {d:.3} is not below 1 at this sampling rate"),
        });
    }
    Ok(d)
}

/// q = 1 − ε²/ε_n² (Hu, Drechsler & Kim, eq. 5): with sensitivity independent of n, the sample can
/// only give an accuracy gain if its sampling variance is below q·V_N.
///
/// - Computed as q = u(2 − u) with u = (ε_n − ε)/ε_n and ε_n − ε = log1p((1 − p)(1 − e^{−ε})/p)
///   (algebra: ε_n − ε = log(e^{−ε} + (1 − e^{−ε})/p)), so q keeps full relative accuracy as
///   n/N → 1 where 1 − ε²/ε_n² would cancel. q(ε, 1) = 0; q → 1 as n/N → 0.
/// - Domain: ε ∈ (0, 500], n/N ∈ (0, 1]. Exact.
pub fn variance_fraction(epsilon: f64, rate: f64) -> Result<f64, MathError> {
    check_epsilon("ε", epsilon)?;
    check_rate(rate)?;
    if epsilon == 0.0 {
        return Err(MathError::OutOfDomain {
            name: "ε",
            value: 0.0,
            expected: "above 0",
        });
    }
    let en = base_epsilon(epsilon, rate)?;
    let gap = ln_1p((1.0 - rate) * (-exp_m1(-epsilon)) / rate);
    let u = (gap / en).clamp(0.0, 1.0);
    Ok(u * (2.0 - u))
}

/// The limit of q = 1 − ε²/ε_n² as ε → 0 at sampling rate n/N: 1 − (n/N)² (Hu, Drechsler & Kim,
/// Section 4.1, after Figure 4: with e^ε − 1 ≈ ε and log(1 + (N/n)ε) ≈ (N/n)ε, ε_n ≈ (N/n)ε).
///
/// - Computed as (1 − n/N)(1 + n/N), so it keeps full relative accuracy as n/N → 1.
/// - q decreases in ε (the sample's budget ε_n grows more slowly than ε/(n/N)), so this is the
///   supremum of q over ε > 0: an upper bound on q at every ε, approached as ε → 0. Replace one
///   (sampling without replacement). Domain: n/N ∈ (0, 1]. Exact.
pub fn variance_fraction_limit(rate: f64) -> Result<f64, MathError> {
    check_rate(rate)?;
    Ok((1.0 - rate) * (1.0 + rate))
}

/// The sampling rate n/N at which q reaches `target` (Hu, Drechsler & Kim, Section 4.1: q = 0.6 at
/// 16.77% for ε = 3 and at 61.40% for ε = 0.1).
///
/// q decreases strictly from 1 (n/N → 0) to 0 (n/N = 1), so the root is unique; found by
/// [`brent`] on log(n/N) to 4 ulp of the logarithm (so the rate itself within 6e-14 relative of
/// mpmath on the reference table). Domain: ε ∈ (0, 500], target ∈ (0, 1).
pub fn rate_for_variance_fraction(epsilon: f64, target: f64) -> Result<f64, MathError> {
    check_epsilon("ε", epsilon)?;
    if target.is_nan() || !(target > 0.0 && target < 1.0) {
        return Err(MathError::OutOfDomain {
            name: "target q",
            value: target,
            expected: "strictly between 0 and 1",
        });
    }
    let f = |ln_rate: f64| -> f64 {
        variance_fraction(epsilon, libm::exp(ln_rate)).map_or(f64::NAN, |q| q - target)
    };
    let lo = -700.0;
    if f(lo) < 0.0 {
        return Err(MathError::NoSolution {
            reason: format!("q stays below {target} at every sampling rate for ε = {epsilon}"),
        });
    }
    brent(f, lo, 0.0, Tolerance::TIGHT).map(libm::exp)
}

/// The noise-variance ratio r(ε, n/N) = V_noise(population)/V_noise(sample) for the mean with
/// global sensitivity R/n (Hu, Drechsler & Kim, eq. 8): r = ((n/N)·ε_n/ε)².
///
/// - It is the square of the noise ratio of Steinke, "Limits of privacy amplification by
///   subsampling", so 0 < r ≤ 1 for every ε > 0 (its eq. 6): the sample never needs less noise than
///   the population. Computed from [`base_epsilon`]; r → 1 as (N/n)ε → 0 with no 0/0.
/// - Domain: ε ∈ [0, 500] (r(0, ·) = 1, the limit), n/N ∈ (0, 1]. Exact.
pub fn mean_noise_ratio(epsilon: f64, rate: f64) -> Result<f64, MathError> {
    check_rate(rate)?;
    let r = crate::limits::noise_ratio(epsilon, rate)?;
    Ok(r * r)
}

/// Eq. 8 exactly as it is usually typed: `((n/N)·log(1 + (N/n)·(exp(ε) − 1))/ε)²` in plain double
/// precision, with no `expm1`/`log1p`.
///
/// For teaching only: below ε ≈ 1e-8 `exp(ε) − 1` keeps a handful of correct digits, and the result
/// scatters around 1, above it as often as below. That rounding, not mathematics, is behind the
/// values > 1 in the paper's Figure 5. Never used for a number the app presents as correct.
pub fn mean_noise_ratio_naive(epsilon: f64, rate: f64) -> f64 {
    let inner = crate::special::ln(1.0 + (1.0 / rate) * (libm::exp(epsilon) - 1.0));
    let x = rate * inner / epsilon;
    x * x
}

/// The two variances of Hu, Drechsler & Kim, eqs. 6–7, for the mean of values in a known range R
/// (global sensitivity R/N and R/n): V_N = 2(R/(εN))² and V_n = (1 − n/N)S²_N/n + 2(R/(ε_n n))².
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanVariances {
    /// V_N, the privatized population mean's variance (noise only).
    pub population: f64,
    /// The sample mean's sampling variance (1 − n/N)S²_N/n.
    pub sampling: f64,
    /// The sample's Laplace noise variance 2(R/(ε_n n))².
    pub sample_noise: f64,
}

impl MeanVariances {
    /// V_n, the privatized sample mean's total variance.
    pub fn sample_total(&self) -> f64 {
        self.sampling + self.sample_noise
    }
}

/// Eqs. 6–7 of Hu, Drechsler & Kim for population size N, sample size n = round(rate·N) (halves up,
/// at least 1), range R and population variance S²_N. Exact.
pub fn mean_variances(
    epsilon: f64,
    rate: f64,
    population: f64,
    range: f64,
    pop_variance: f64,
) -> Result<MeanVariances, MathError> {
    check_epsilon("ε", epsilon)?;
    check_rate(rate)?;
    if epsilon == 0.0 {
        return Err(MathError::OutOfDomain {
            name: "ε",
            value: 0.0,
            expected: "above 0",
        });
    }
    for (name, v) in [("N", population), ("R", range), ("S²", pop_variance)] {
        if !v.is_finite() || v < 0.0 || (name != "S²" && v == 0.0) {
            return Err(MathError::OutOfDomain {
                name,
                value: v,
                expected: "a positive finite number",
            });
        }
    }
    let n = (rate * population).round().max(1.0);
    let en = base_epsilon(epsilon, n / population)?;
    let pop = 2.0 * crate::special::powi(range / (epsilon * population), 2);
    let sampling = (1.0 - n / population) * pop_variance / n;
    let sample_noise = 2.0 * crate::special::powi(range / (en * n), 2);
    Ok(MeanVariances {
        population: pop,
        sampling,
        sample_noise,
    })
}

/// The "no gains" threshold of Hu, Drechsler & Kim, Section 4.1: whatever g is, with the Laplace
/// mechanism and sensitivity Δ_N in the population, no accuracy gain is possible when the sampling
/// variance is at least 2Δ_N²(1/ε² − 1/ε_n²) = q·V_N. Returns that threshold. Exact.
pub fn no_gain_threshold(epsilon: f64, rate: f64, sensitivity: f64) -> Result<f64, MathError> {
    let q = variance_fraction(epsilon, rate)?;
    Ok(q * 2.0 * crate::special::powi(sensitivity / epsilon, 2))
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;

    #[test]
    fn the_small_epsilon_limit_of_q_bounds_it_and_is_reached() {
        // 1 − r² in exact decimal arithmetic: 0.9999 at r = 0.01, 0.64 at 0.6, 0 at 1.
        assert!((variance_fraction_limit(0.01).unwrap() - 0.9999).abs() < 1e-15);
        assert!((variance_fraction_limit(0.6).unwrap() - 0.64).abs() < 1e-15);
        assert_eq!(variance_fraction_limit(1.0).unwrap(), 0.0);
        assert!(variance_fraction_limit(0.0).is_err() && variance_fraction_limit(1.5).is_err());
        for r in [1e-4, 0.01, 0.1, 0.5, 0.9, 0.999] {
            let limit = variance_fraction_limit(r).unwrap();
            // Reached as ε → 0 (the next term is O(ε)), and q decreases in ε below it.
            let tiny = variance_fraction(1e-9, r).unwrap();
            assert!((tiny - limit).abs() < 1e-8, "r {r}: {tiny} against {limit}");
            let mut last = limit;
            for eps in [1e-6, 1e-3, 0.1, 1.0, 3.0, 10.0] {
                let q = variance_fraction(eps, r).unwrap();
                assert!(
                    q <= last * (1.0 + 1e-12),
                    "r {r}, ε {eps}: {q} above {last}"
                );
                last = q;
            }
        }
    }

    #[test]
    fn paper_values() {
        // Section 4.1: q = 0.6 at 16.77% (ε = 3) and 61.40% (ε = 0.1); mpmath 0.16767315743119744,
        // 0.61395900189017958.
        let a = rate_for_variance_fraction(3.0, 0.6).unwrap();
        assert!((a - 0.167_673_157_431_197_44).abs() < 1e-15, "{a}");
        let b = rate_for_variance_fraction(0.1, 0.6).unwrap();
        assert!((b - 0.613_959_001_890_179_6).abs() < 1e-15, "{b}");
        // Section 3 and 4.3: ε_n for N = 10001, n = 101.
        assert!((epsilon_n(0.1, 101.0 / 10001.0).unwrap() - 2.4348).abs() < 5e-5);
        assert!((epsilon_n(1.0, 101.0 / 10001.0).unwrap() - 5.1425).abs() < 5e-5);
    }

    #[test]
    fn naive_formula_shows_the_artifact_and_the_stable_one_does_not() {
        let mut above_one = 0;
        for k in 0..200 {
            let eps = 10f64.powf(-14.0 + 7.0 * k as f64 / 200.0);
            let r = mean_noise_ratio(eps, 1e-4).unwrap();
            assert!(r <= 1.0, "stable r = {r} > 1 at ε = {eps}");
            if mean_noise_ratio_naive(eps, 1e-4) > 1.0 {
                above_one += 1;
            }
        }
        assert!(
            above_one > 10,
            "the naive formula exceeded 1 only {above_one} times"
        );
    }

    #[test]
    fn q_is_zero_at_full_rate_and_consistent_with_the_direct_form() {
        assert_eq!(variance_fraction(1.0, 1.0).unwrap(), 0.0);
        for &(e, r) in &[(1.0, 0.3), (0.01, 0.5), (5.0, 0.01)] {
            let en = epsilon_n(e, r).unwrap();
            let direct = 1.0 - (e / en).powi(2);
            assert!((variance_fraction(e, r).unwrap() - direct).abs() < 1e-14);
        }
    }
}
