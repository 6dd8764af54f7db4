//! The (ε, δ) side that Wang's slides ("Privacy amplification by subsampling and Rényi DP") compare
//! RDP against: the Gaussian mechanism's exact δ(ε) and its inverse (Balle & Wang 2018), the
//! per-step (ε, δ) of a base mechanism, and naive, advanced and optimal composition of the
//! amplified per-step guarantee.

use super::{Mechanism, Sampling};
use crate::root::{brent, Tolerance};
use crate::special::{
    exp, exp_m1, ln, ln_1p, ln_1p_exp, ln_binomial_whole, ln_normal_cdf, log_add_exp,
};
use crate::MathError;

/// δ(ε) of the Gaussian mechanism with sensitivity 1 and noise σ, exactly:
/// δ = Φ(1/(2σ) − εσ) − e^ε Φ(−1/(2σ) − εσ) (Balle & Wang 2018, arXiv 1805.06530, Theorem 8).
/// Computed as Φ(a)·(1 − e^{ε + log Φ(b) − log Φ(a)}), the exponent through erfcx in the lower tail
/// (within 1e-12 relative of mpmath down to δ = 1e-178 on the reference table). Exact; any relation for which
/// the query has sensitivity 1.
pub fn gaussian_delta(sigma: f64, epsilon: f64) -> Result<f64, MathError> {
    if !(sigma > 0.0 && sigma.is_finite()) {
        return Err(MathError::OutOfDomain {
            name: "σ",
            value: sigma,
            expected: "a positive finite number",
        });
    }
    crate::check_epsilon("ε", epsilon)?;
    let a = 0.5 / sigma - epsilon * sigma;
    let b = -0.5 / sigma - epsilon * sigma;
    let la = ln_normal_cdf(a);
    let x = if a < -1.0 {
        // Both in the lower tail: Φ(y) = ½·erfcx(−y/√2)·e^{−y²/2} and b² − a² = 2ε, so
        // ε + log Φ(b) − log Φ(a) = log erfcx(−b/√2) − log erfcx(−a/√2) exactly, without the two
        // large logarithms whose rounding would cost 1e-11 of δ.
        let r = std::f64::consts::FRAC_1_SQRT_2;
        ln(crate::special::erfcx(-b * r)) - ln(crate::special::erfcx(-a * r))
    } else {
        epsilon + ln_normal_cdf(b) - la
    };
    // 1 − e^x for x < 0, accurate near 0.
    let frac = -exp_m1(x.min(0.0));
    Ok((exp(la) * frac).clamp(0.0, 1.0))
}

/// The smallest ε with [`gaussian_delta`] ≤ δ, by [`brent`] (relative 4 ulp). δ ∈ (0, 1); 0 when
/// even ε = 0 meets δ. Exact.
pub fn gaussian_epsilon(sigma: f64, delta: f64) -> Result<f64, MathError> {
    crate::check_delta("δ", delta)?;
    if delta == 0.0 {
        return Err(MathError::OutOfDomain {
            name: "δ",
            value: delta,
            expected: "above 0 (the Gaussian mechanism has no pure ε)",
        });
    }
    if gaussian_delta(sigma, 0.0)? <= delta {
        return Ok(0.0);
    }
    // δ(ε) ≤ Φ(1/(2σ) − εσ) ≤ e^{−(εσ − 1/(2σ))²/2}: ε = 1/(2σ²) + √(2 log(1/δ))/σ is enough.
    let mut hi = 0.5 / (sigma * sigma) + libm::sqrt(2.0 * -ln(delta)) / sigma + 1e-12;
    hi = hi.min(crate::MAX_EPSILON);
    let f = |e: f64| {
        gaussian_delta(sigma, e)
            .map(|d| d - delta)
            .unwrap_or(f64::NAN)
    };
    if f(hi) > 0.0 {
        return Err(MathError::NoSolution {
            reason: format!("δ = {delta:e} needs ε above 500 at σ = {sigma}"),
        });
    }
    brent(f, 0.0, hi, Tolerance::TIGHT)
}

/// The per-step (ε, δ) guarantee of a mechanism: pure ε for Laplace and randomized response (δ
/// ignored, 0), [`gaussian_epsilon`] at δ for the Gaussian.
pub fn base_epsilon_delta(mech: &Mechanism, delta: f64) -> Result<(f64, f64), MathError> {
    mech.validate()?;
    match *mech {
        Mechanism::Gaussian { sigma } => Ok((gaussian_epsilon(sigma, delta)?, delta)),
        _ => Ok((mech.rdp_infinity(), 0.0)),
    }
}

/// Composition of k steps of the subsampled (ε, δ) guarantee, as the slides compare against.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Composed {
    /// Total ε.
    pub epsilon: f64,
    /// Total δ (at most the target).
    pub delta: f64,
}

/// Amplified per-step (ε′, δ′) for a base (ε, δ): ε′ = log(1 + γ(e^ε − 1)), δ′ = γδ (the slides'
/// subsampling lemma; Balle, Barthe & Gaboardi 2018). Poisson: add/remove; without replacement:
/// replace-one.
fn amplified(eps: f64, delta: f64, rate: f64) -> (f64, f64) {
    (ln_1p(rate * exp_m1(eps)), rate * delta)
}

/// One step's amplified (ε′, δ′): the mechanism's (ε, δ) at the per-step base δ
/// ([`base_epsilon_delta`]), then [`amplified`] at the sampling rate. What the three composition
/// theorems below compose.
fn amplified_step(mech: &Mechanism, base_delta: f64, rate: f64) -> Result<(f64, f64), MathError> {
    let (e0, d0) = base_epsilon_delta(mech, base_delta)?;
    Ok(amplified(e0, d0, rate))
}

/// Naive (basic) composition of k steps of the amplified (ε, δ) guarantee: (kε′, kδ′) (Dwork,
/// Kenthapadi, McSherry, Mironov & Naor 2006). For the Gaussian the base δ is chosen as
/// δ_total/(kγ) (capped below 1) so the total is the target δ. Upper bound.
pub fn naive_composition(
    mech: &Mechanism,
    sampling: Sampling,
    steps: f64,
    delta: f64,
) -> Result<Composed, MathError> {
    check_steps(steps)?;
    let rate = sampling.rate();
    let (e, d) = amplified_step(mech, per_step_base_delta(mech, delta, steps, rate), rate)?;
    Ok(Composed {
        epsilon: steps * e,
        delta: steps * d,
    })
}

fn per_step_base_delta(mech: &Mechanism, delta: f64, steps: f64, rate: f64) -> f64 {
    match mech {
        Mechanism::Gaussian { .. } => (delta / (steps * rate.max(f64::MIN_POSITIVE))).min(0.5),
        _ => 0.0,
    }
}

fn check_steps(steps: f64) -> Result<(), MathError> {
    if steps.is_nan() {
        return Err(MathError::NotANumber { name: "k" });
    }
    if !(1.0..=1e9).contains(&steps) {
        return Err(MathError::OutOfDomain {
            name: "k",
            value: steps,
            expected: "between 1 and 10⁹",
        });
    }
    Ok(())
}

/// Advanced composition of k steps of the amplified (ε′, δ′) guarantee:
/// ε = √(2k log(1/δ̃))·ε′ + kε′(e^{ε′} − 1), δ = kδ′ + δ̃ (Dwork, Rothblum & Vadhan 2010, Theorem
/// III.3). The target δ is split between δ̃ and the per-step δ′ (Gaussian only) at the best of 16
/// log-spaced splits. Upper bound.
pub fn advanced_composition(
    mech: &Mechanism,
    sampling: Sampling,
    steps: f64,
    delta: f64,
) -> Result<Composed, MathError> {
    check_steps(steps)?;
    crate::check_delta("δ", delta)?;
    if delta == 0.0 {
        return Err(MathError::OutOfDomain {
            name: "δ",
            value: delta,
            expected: "above 0 for advanced composition",
        });
    }
    let rate = sampling.rate();
    best_split(mech, rate, steps, delta, |slack, per_step| {
        let (e, d) = amplified_step(mech, per_step, rate)?;
        Ok(Composed {
            epsilon: libm::sqrt(2.0 * steps * -ln(slack * delta)) * e + steps * e * exp_m1(e),
            delta: steps * d + slack * delta,
        })
    })
}

/// The smallest ε of `eval(t, δ₀)` over 16 log-spaced splits of the target δ: a fraction t ∈
/// [10⁻⁴, 0.99] of it left to the composition theorem, the rest spent by the k steps, whose
/// per-step base δ₀ is then (1 − t)δ/(kγ), capped at ½. Only the Gaussian has a δ to split; the
/// others are evaluated once, at t = 1 and δ₀ = 0.
fn best_split(
    mech: &Mechanism,
    rate: f64,
    steps: f64,
    delta: f64,
    eval: impl Fn(f64, f64) -> Result<Composed, MathError>,
) -> Result<Composed, MathError> {
    if !matches!(mech, Mechanism::Gaussian { .. }) || rate == 0.0 {
        return eval(1.0, 0.0);
    }
    let mut best: Result<Composed, MathError> = Err(MathError::NoConvergence { iterations: 16 });
    const SPLITS: i32 = 16;
    for i in 0..SPLITS {
        let t = libm::pow(
            10.0,
            -4.0 + (4.0 + libm::log10(0.99)) * i as f64 / (SPLITS - 1) as f64,
        );
        let per_step = ((1.0 - t) * delta / (steps * rate)).min(0.5);
        // A split that leaves no room (the steps' δ alone over the target) is skipped; the
        // error is kept only if every split fails.
        match (eval(t, per_step), &best) {
            (Ok(c), Ok(b)) if c.epsilon >= b.epsilon => {}
            (Ok(c), _) => best = Ok(c),
            (Err(e), Err(_)) => best = Err(e),
            (Err(_), Ok(_)) => {}
        }
    }
    best
}

/// Largest k [`optimal_composition_epsilon`] accepts: its cost is one pass over k/2 terms.
pub const OPTIMAL_MAX_STEPS: f64 = 1e6;

/// The optimal composition of k mechanisms that are each (ε, δ)-DP: the smallest ε_k such that
/// every k-fold adaptive composition of (ε, δ)-DP mechanisms is (ε_k, δ_k)-DP (Kairouz, Oh &
/// Viswanath 2015, "The composition theorem for differential privacy", Theorem 3.3; Murtagh &
/// Vadhan 2016 for the profile between its grid points). The worst case is k independent
/// copies of the (ε, δ) randomized-response pair, whose privacy profile is
///
/// δ_k(ε′) = 1 − (1 − δ)^k·(1 − Σ_l C(k, l)·max(0, e^{(k−l)ε} − e^{ε′ + lε})/(1 + e^ε)^k).
///
/// On [(k − 2i)ε, (k − 2i + 2)ε] only the terms l < i are positive, so the sum is A_i − e^{ε′}B_i
/// with two partial sums kept as logarithms (log-sum-exp); the interval that holds the target is
/// found in one pass over i (from 40 standard deviations below the binomial's mean, where the
/// terms start to count) and ε′ solved there in closed form. Exact for the worst (ε, δ)-DP
/// mechanism, so for any given mechanism an upper bound (its own tight accounting may be lower).
/// Any neighbouring relation (the one the per-step guarantee holds for). Domain: ε ∈ (0, 500],
/// δ ∈ [0, 1), k a whole number in [1, 10⁶], δ_k ∈ (0, 1); 0 when ε′ = 0 already meets δ_k, kε
/// when δ_k = 1 − (1 − δ)^k; an error when the steps' δ alone exceed δ_k. Accuracy: a few ulp per term, about 1e-12 relative in ε_k.
pub fn optimal_composition_epsilon(
    epsilon: f64,
    delta: f64,
    steps: f64,
    delta_total: f64,
) -> Result<f64, MathError> {
    crate::check_epsilon("ε", epsilon)?;
    crate::check_delta("δ", delta)?;
    crate::check_delta("δ_k", delta_total)?;
    check_steps(steps)?;
    if steps.fract() != 0.0 || steps > OPTIMAL_MAX_STEPS {
        return Err(MathError::OutOfDomain {
            name: "k",
            value: steps,
            expected: "a whole number up to 10⁶ for the optimal composition",
        });
    }
    if delta >= 1.0 || delta_total == 0.0 || delta_total >= 1.0 {
        return Err(MathError::OutOfDomain {
            name: "δ",
            value: if delta >= 1.0 { delta } else { delta_total },
            expected: "δ below 1 and δ_k strictly between 0 and 1",
        });
    }
    // The share of δ_k left for the randomized-response part: 1 − (1 − δ_k)/(1 − δ)^k.
    let target = -exp_m1(ln_1p(-delta_total) - steps * ln_1p(-delta));
    if target <= 0.0 && target >= -1e-12 * delta_total {
        // δ_k is exactly what the k steps' δ spend (up to rounding): the theorem's point i = 0,
        // (kε, 1 − (1 − δ)^k).
        return Ok(steps * epsilon);
    }
    if target <= 0.0 {
        return Err(MathError::NoSolution {
            reason: format!(
                "{steps} steps at δ = {delta:e} already spend more than δ = {delta_total:e}"
            ),
        });
    }
    let k = steps as u64;
    let norm = steps * ln_1p_exp(epsilon);
    let (mut la, mut lb) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    // The terms of A are the Bin(k, 1/(1 + e^ε)) probabilities (times e^0), those of B are
    // smaller still below k/2: terms more than 40 standard deviations below A's mean are under
    // e^−800 of the sum and underflow anyway, so the pass starts there (k/2 − kε/4 + O(√k)
    // terms instead of k/2 at small ε).
    let flip = 1.0 / (1.0 + exp(epsilon));
    let skip = steps * flip - 40.0 * libm::sqrt(steps * flip * (1.0 - flip)) - 1.0;
    let first = if skip > 0.0 { skip as u64 } else { 0 };
    for i in first + 1..=k.div_ceil(2) + 1 {
        let l = i - 1;
        let lc = ln_binomial_whole(k, l) - norm;
        la = log_add_exp(la, lc + (k - l) as f64 * epsilon);
        lb = log_add_exp(lb, lc + l as f64 * epsilon);
        let left = ((k as f64 - 2.0 * i as f64) * epsilon).max(0.0);
        // The sum at the interval's left end: A_i·(1 − e^{left + log B_i − log A_i}).
        let at_left = exp(la) * -exp_m1(left + lb - la);
        if at_left >= target || left == 0.0 {
            let e = la + ln_1p(-target * exp(-la)) - lb;
            return Ok(if e.is_nan() { left } else { e.max(left) });
        }
    }
    Ok(0.0)
}

/// Optimal composition of k steps of the amplified (ε′, δ′) guarantee
/// ([`optimal_composition_epsilon`]), the target δ split as in [`advanced_composition`] for the
/// Gaussian. The best any theorem can do knowing only each step's (ε′, δ′); an upper bound.
/// k a whole number up to 10⁶.
pub fn optimal_composition(
    mech: &Mechanism,
    sampling: Sampling,
    steps: f64,
    delta: f64,
) -> Result<Composed, MathError> {
    check_steps(steps)?;
    crate::check_delta("δ", delta)?;
    let rate = sampling.rate();
    let eval = |per_step: f64| -> Result<Composed, MathError> {
        let (e, d) = amplified_step(mech, per_step, rate)?;
        Ok(Composed {
            epsilon: optimal_composition_epsilon(e, d, steps, delta)?,
            delta,
        })
    };
    let split = best_split(mech, rate, steps, delta, |_, per_step| eval(per_step));
    // Unlike advanced composition, the theorem needs no slack of its own: the whole δ may go to
    // the steps ((1 − δ/k)^k ≥ 1 − δ leaves a sliver), which is best at k = 1.
    match (split, per_step_base_delta(mech, delta, steps, rate)) {
        (Ok(c), d0) if d0 > 0.0 => Ok(match eval(d0) {
            Ok(all) if all.epsilon < c.epsilon => all,
            _ => c,
        }),
        (split, _) => split,
    }
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;

    #[test]
    fn gaussian_delta_round_trip() {
        for &s in &[0.3, 1.0, 5.0] {
            for &d in &[1e-3, 1e-8] {
                let e = gaussian_epsilon(s, d).unwrap();
                let back = gaussian_delta(s, e).unwrap();
                assert!(((back - d) / d).abs() < 1e-8, "σ = {s}, δ = {d}: {back}");
            }
        }
    }
}
