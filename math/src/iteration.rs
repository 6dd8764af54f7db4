//! Privacy amplification by iteration: one pass of projected noisy SGD that releases only its last
//! iterate.
//!
//! # The statement implemented
//!
//! Feldman, Mironov, Talwar & Thakurta, "Privacy amplification by iteration" (FOCS 2018,
//! arXiv 1808.06651): their theorem for projected noisy SGD (Section 5), a consequence of their
//! Theorem 22 on contractive noisy iterations. The algorithm (their PNSGD; Algorithm 1 of Brown's
//! lecture notes "Privacy amplification", §3.1, with b = 1) runs T steps on T records, one
//! record per step,
//!
//! w_{t+1} = Π_K(w_t − η·(∇f(w_t; x_t) + Z_t)),   Z_t ~ N(0, σ²·I),
//!
//! and releases w_{T+1} only. Assumptions:
//!
//! - K is a closed convex set and Π_K the Euclidean projection onto it (K = ℝ^d is allowed);
//! - every loss f(·; x) is convex and β-smooth on K, and the step size satisfies η ≤ 2/β: then
//!   w ↦ w − η∇f(w; x) is 1-Lipschitz (contractive), and so is the projection;
//! - every loss is L-Lipschitz on K: ‖∇f(w; x)‖ ≤ L for all w and x. Clipping gradients does
//!   **not** provide this, because a clipped gradient step need not be contractive;
//! - the noise is Gaussian, added to the gradient before the step size multiplies it (so the
//!   noise on the iterate is ησ and η cancels from the result);
//! - neighbouring data sets differ by **replacing** one record ([`RELATION`]), and the order in
//!   which records are used is fixed and public (no shuffling is assumed or credited).
//!
//! Conclusion: for the record used at step t, the last iterate is (α, ε_t(α))-RDP for every α > 1
//! with
//!
//! ε_t(α) = α·Δ²/(2σ²·(T − t + 1)),   Δ = 2L,
//!
//! i.e. the theorem's (α, α·2L²/(σ²(T − t + 1))). Δ = 2L is the sensitivity of one gradient under
//! replace-one. The factor 1/(T − t + 1) is the amplification: the shift Δ caused by the record
//! is spread over the noise of its own step and of the T − t steps after it (Theorem 22 with the
//! shift split evenly, η·Δ/(T − t + 1) per step).
//!
//! **Batches.** The lecture's Algorithm 1 averages b records per step (n = T·b) and adds
//! N(0, σ²I) to the average. One record then moves the averaged gradient by at most Δ = 2L/b, and
//! Theorem 22 applies unchanged with that shift, giving ε_t(α) = α·(2L/b)²/(2σ²(T − t + 1)). b = 1
//! is the theorem as stated. The same coefficient 2/(z·b)² (noise multiplier z = σ/L) is what
//! TensorFlow Privacy's logistic-regression tutorial uses for its amplification-by-iteration
//! numbers.
//!
//! **Baseline.** Without amplification the record's step is a Gaussian mechanism with sensitivity
//! Δ and noise σ, (α, αΔ²/(2σ²))-RDP (Mironov 2017, Prop. 7), and the last iterate inherits that
//! by post-processing; releasing every iterate (composition) costs the record no more, since it
//! is used in one step only. That is [`composition_rdp`], the same for every position: it is what
//! the record at t = T gets under amplification too.
//!
//! Both are **upper bounds** on the RDP of the last iterate (the theorem is not claimed tight).
//! They are closed forms, computed to within a few ulp. Conversion to (ε, δ) uses the crate's
//! RDP → (ε, δ) conversions ([`crate::rdp`]), minimised over [`orders`].
//!
//! Many passes over the same records on a bounded set (Altschuler & Talwar 2022, arXiv
//! 2205.13710: the loss stops growing with T) are in [`many_passes`]. Not covered: strongly
//! convex losses (exponential rather than 1/(T − t + 1) decay; Balle, Barthe, Gaboardi & Geumlek
//! 2019, arXiv 1905.12264).

pub mod many_passes;

use crate::rdp::{
    check_order, default_orders, epsilon_for_delta_over_steps, Conversion, Converted, Curve,
    MAX_ORDER,
};
use crate::subsampling::MAX_COUNT;
use crate::{check_positive, MathError, Relation};

/// The neighbouring relation every result of this module holds for: replace one record.
pub const RELATION: Relation = Relation::ReplaceOne;

/// Largest number of points [`plot_positions`] returns.
pub const MAX_PLOT_POINTS: usize = 1_000_000;

/// One pass of noisy SGD as in the theorem (see the module documentation for its assumptions).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OnePassSgd {
    /// T ≥ 1: the number of noisy steps. Every record is used in exactly one of them.
    pub steps: u64,
    /// σ > 0: standard deviation, per coordinate, of the Gaussian noise added to each step's
    /// (averaged) gradient before the step size multiplies it.
    pub sigma: f64,
    /// L > 0: bound on the norm of every record's loss gradient, ‖∇f(w; x)‖ ≤ L on K.
    pub lipschitz: f64,
    /// b ≥ 1: records averaged in one step (b = 1 is the theorem as stated).
    pub batch: u64,
}

fn check_count(name: &'static str, v: u64) -> Result<(), MathError> {
    if !(1..=MAX_COUNT).contains(&v) {
        return Err(MathError::OutOfDomain {
            name,
            value: v as f64,
            expected: "a whole number between 1 and 2^53",
        });
    }
    Ok(())
}

impl OnePassSgd {
    /// Check the parameters: T and b in [1, 2^53], σ and L positive and finite, and the per-step
    /// RDP slope Δ²/(2σ²) small enough that α times it is finite at every order up to 10⁴.
    pub fn validate(&self) -> Result<(), MathError> {
        check_count("T", self.steps)?;
        check_count("b", self.batch)?;
        check_positive("σ", self.sigma)?;
        check_positive("L", self.lipschitz)?;
        let slope = self.step_rdp_slope();
        if !(slope * MAX_ORDER).is_finite() {
            return Err(MathError::Inconsistent {
                reason: format!(
                    "L/σ = {:e} is too large: the per-step Rényi DP overflows",
                    self.lipschitz / self.sigma
                ),
            });
        }
        Ok(())
    }

    /// Δ = 2L/b: how far replacing one record can move a step's averaged gradient. Exact.
    pub fn sensitivity(&self) -> f64 {
        2.0 * self.lipschitz / self.batch as f64
    }

    /// Δ²/(2σ²): the slope of one step's Rényi DP curve, ε(α) = α·Δ²/(2σ²) (the Gaussian
    /// mechanism, Mironov 2017, Prop. 7). Computed as ½(Δ/σ)² so that it does not overflow
    /// before it has to. Exact.
    pub fn step_rdp_slope(&self) -> f64 {
        let r = self.sensitivity() / self.sigma;
        0.5 * r * r
    }
}

/// T − t + 1: the number of noisy steps from step t to the end, step t included.
///
/// Errors unless 1 ≤ t ≤ T ≤ 2^53.
pub fn remaining_steps(t: u64, steps: u64) -> Result<u64, MathError> {
    check_count("T", steps)?;
    if t == 0 || t > steps {
        return Err(MathError::Inconsistent {
            reason: format!("the step t = {t} must be between 1 and T = {steps}"),
        });
    }
    Ok(steps - t + 1)
}

/// 1/(T − t + 1): the factor by which amplification by iteration multiplies the Rényi DP of the
/// record used at step t, against the unamplified [`composition_rdp`]. 1 at t = T, 1/T at t = 1.
///
/// Source and assumptions: the module documentation (Feldman, Mironov, Talwar & Thakurta 2018).
/// Exact (as a ratio of the two bounds).
pub fn amplification_factor(t: u64, steps: u64) -> Result<f64, MathError> {
    Ok(1.0 / remaining_steps(t, steps)? as f64)
}

/// How the noise of a run is spread over its T steps, always with the same total variance
/// Σ_s σ_s² = T·σ² as σ at every step (Brown's remark that early steps could take less noise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoiseSchedule {
    /// σ_s = σ at every step (the theorem as the lecture states it).
    Constant,
    /// Variance growing linearly with the step: σ_s² = 2σ²·s/(T + 1), less noise early.
    LinearVariance,
    /// All of the variance at the last step, σ_T² = T·σ², none before: output perturbation of a
    /// noiseless run.
    AtTheEnd,
}

/// σ²/Σ_{s≥t} σ_s²: the factor by which a schedule's amplified Rényi DP of the record used at
/// step t, ε_t(α) = α·Δ²/(2 Σ_{s≥t} σ_s²), is below the one-step curve α·Δ²/(2σ²).
///
/// - Source: Feldman, Mironov, Talwar & Thakurta 2018 (arXiv 1808.06651), Theorem 22 with noise
///   σ_s at step s: the shift Δ the record introduces is spent over the steps s ≥ t as shifts
///   a_s with Σ a_s = Δ, each costing α·a_s²/(2σ_s²); the best split, a_s ∝ σ_s², gives
///   α·Δ²/(2 Σ_{s≥t} σ_s²). Steps without noise take no shift, which the contraction allows.
/// - Values: constant 1/(T − t + 1); linear variance (T + 1)/((T − t + 1)(T + t)) (the sum
///   σ²(T(T + 1) − t(t − 1))/(T + 1), factored so that nothing cancels); at the end 1/T for
///   every t.
/// - Relation: replace one. Domain: 1 ≤ t ≤ T ≤ 2^53. Exact (as a ratio of the two bounds),
///   within 2 ulp.
pub fn schedule_factor(schedule: NoiseSchedule, t: u64, steps: u64) -> Result<f64, MathError> {
    let m = remaining_steps(t, steps)? as f64;
    let big_t = steps as f64;
    Ok(match schedule {
        NoiseSchedule::Constant => amplification_factor(t, steps)?,
        NoiseSchedule::LinearVariance => (big_t + 1.0) / (m * (big_t + t as f64)),
        NoiseSchedule::AtTheEnd => 1.0 / big_t,
    })
}

/// (ε, δ) of the last iterate for the records used at each of `positions` under a noise
/// `schedule` of the same total variance as `sgd`'s constant σ: [`epsilon_by_position`] with
/// [`schedule_factor`] in place of 1/(T − t + 1). Relation: replace one. Upper bound.
pub fn epsilon_by_position_scheduled(
    sgd: &OnePassSgd,
    schedule: NoiseSchedule,
    positions: &[u64],
    delta: f64,
    conversion: Conversion,
) -> Result<Vec<Converted>, MathError> {
    sgd.validate()?;
    let factors = positions
        .iter()
        .map(|&t| schedule_factor(schedule, t, sgd.steps))
        .collect::<Result<Vec<_>, _>>()?;
    epsilon_for_delta_over_steps(&base_curve(sgd), &factors, delta, conversion)
}

/// Slope of the amplified RDP curve of the record used at step t: Δ²/(2σ²(T − t + 1)), so that
/// ε_t(α) = α times it. Upper bound (see [`iteration_rdp`]).
pub fn iteration_rdp_slope(t: u64, sgd: &OnePassSgd) -> Result<f64, MathError> {
    sgd.validate()?;
    let m = remaining_steps(t, sgd.steps)?;
    Ok(sgd.step_rdp_slope() / m as f64)
}

/// Rényi DP at order α of the last iterate, for the record used at step t of T, with
/// amplification by iteration:
///
/// ε_t(α) = α·Δ²/(2σ²·(T − t + 1)),   Δ = 2L/b.
///
/// - Source: Feldman, Mironov, Talwar & Thakurta 2018 (arXiv 1808.06651), the projected noisy
///   SGD theorem of Section 5, from their Theorem 22; for b > 1 the same argument with shift
///   2ηL/b (module documentation).
/// - Assumptions: convex, β-smooth, L-Lipschitz losses; η ≤ 2/β ([`check_step_size`]); Gaussian
///   noise on the gradient; one pass in a fixed public order; only the last iterate released.
/// - Relation: replace one ([`RELATION`]).
/// - Domain: α ∈ (1, 10⁴], 1 ≤ t ≤ T ≤ 2^53, and [`OnePassSgd::validate`].
/// - Accuracy: closed form, within 2 ulp.
/// - Upper bound on the true RDP.
pub fn iteration_rdp(alpha: f64, t: u64, sgd: &OnePassSgd) -> Result<f64, MathError> {
    check_order(alpha)?;
    Ok(alpha * iteration_rdp_slope(t, sgd)?)
}

/// Rényi DP at order α of the record's step without amplification: α·Δ²/(2σ²), Δ = 2L/b. This is
/// the lecture's baseline (Brown, §3.2): the Gaussian mechanism of the record's one step
/// (Mironov 2017, Prop. 7), which bounds the last iterate by post-processing and also the
/// release of every iterate (the record is used in one step only). The same at every position,
/// and equal to [`iteration_rdp`] at t = T.
///
/// Relation: replace one. Domain: α ∈ (1, 10⁴] and [`OnePassSgd::validate`]. Exact for the
/// one-step Gaussian mechanism, an upper bound for the last iterate. Closed form, within 1 ulp.
pub fn composition_rdp(alpha: f64, sgd: &OnePassSgd) -> Result<f64, MathError> {
    check_order(alpha)?;
    sgd.validate()?;
    Ok(alpha * sgd.step_rdp_slope())
}

/// Checks the step-size condition η ≤ 2/β under which a gradient step on a convex β-smooth loss
/// is contractive (the hypothesis of the theorem; Feldman et al. 2018, Section 5). Ok(()) when
/// it holds, `Inconsistent` when η > 2/β (the guarantee then does not apply), and domain errors
/// unless η and β are positive and finite.
pub fn check_step_size(step_size: f64, smoothness: f64) -> Result<(), MathError> {
    check_positive("η", step_size)?;
    check_positive("β", smoothness)?;
    if step_size > 2.0 / smoothness {
        return Err(MathError::Inconsistent {
            reason: format!(
                "the step size η = {step_size} exceeds 2/β = {}: the gradient step is not \
                 guaranteed to be contractive, and amplification by iteration does not apply",
                2.0 / smoothness
            ),
        });
    }
    Ok(())
}

/// The orders over which (ε, δ) is optimised: the crate's [`default_orders`] (up to 1024) and
/// 1536, 2048, 3072, 4096, 6144, 8192, 10⁴. Early records of long runs have tiny curves whose
/// best order is α* ≈ 1 + √(log(1/δ)/slope), often above 1024. Below a slope of about
/// log(1/δ)/10⁸ even 10⁴ is short of α*; the result is then looser than the continuous optimum
/// but still a valid upper bound.
pub fn orders() -> Vec<f64> {
    let mut v = default_orders();
    v.extend([1536.0, 2048.0, 3072.0, 4096.0, 6144.0, 8192.0, MAX_ORDER]);
    v
}

fn base_curve(sgd: &OnePassSgd) -> Curve {
    let slope = sgd.step_rdp_slope();
    let orders = orders();
    let rdp = orders.iter().map(|a| a * slope).collect();
    Curve::sampled(orders, rdp)
}

/// (ε, δ) of the last iterate for the records used at each of `positions` (any order, repeats
/// allowed), with amplification by iteration: for each t, the smallest ε over [`orders`] of the
/// conversion of ε_t(α) = α·Δ²/(2σ²(T − t + 1)) at the target δ.
///
/// Computed with [`epsilon_for_delta_over_steps`] on the one-step curve scaled by
/// 1/(T − t + 1), so a whole curve costs about 160 operations per position (the figure
/// `iteration-privacy-by-position`; see [`plot_positions`] for a sample of positions that
/// draws it faithfully for any T).
///
/// - Source: [`iteration_rdp`]; conversions as in [`Conversion`] (Mironov 2017, Prop. 3;
///   Canonne, Kamath & Steinke 2020, Prop. 12).
/// - Relation: replace one. Domain: δ ∈ (0, 1), every position in [1, T].
/// - Upper bound on the true ε (an upper bound on RDP, converted by a sufficient condition).
pub fn epsilon_by_position(
    sgd: &OnePassSgd,
    positions: &[u64],
    delta: f64,
    conversion: Conversion,
) -> Result<Vec<Converted>, MathError> {
    epsilon_by_position_scheduled(sgd, NoiseSchedule::Constant, positions, delta, conversion)
}

/// (ε, δ) of the last iterate for the record used at step t, with amplification by iteration:
/// [`epsilon_by_position`] at one position. Relation: replace one. Upper bound.
pub fn iteration_epsilon(
    t: u64,
    sgd: &OnePassSgd,
    delta: f64,
    conversion: Conversion,
) -> Result<Converted, MathError> {
    Ok(epsilon_by_position(sgd, &[t], delta, conversion)?[0])
}

/// (ε, δ) of the record's step without amplification: the conversion of [`composition_rdp`]
/// over [`orders`]. The same at every position; equal to [`iteration_epsilon`] at t = T.
/// Relation: replace one. Upper bound (the RDP → (ε, δ) conversion is a sufficient condition;
/// the exact δ(ε) of one Gaussian step is `rdp::gaussian_delta` with σ/Δ).
pub fn composition_epsilon(
    sgd: &OnePassSgd,
    delta: f64,
    conversion: Conversion,
) -> Result<Converted, MathError> {
    iteration_epsilon(sgd.steps, sgd, delta, conversion)
}

/// Positions t ∈ [1, T] at which to evaluate the curve ε(t) for a figure: every position when
/// T ≤ `max_points`, otherwise about half of the points evenly spread over [1, T] and half with
/// T − t + 1 evenly spread on a log scale from 1 to T (the curve is flat early and rises fast in
/// the last steps), merged, sorted and without repeats. Always contains 1 and T; never more than
/// `max_points` positions.
///
/// Domain: 1 ≤ T ≤ 2^53, 2 ≤ `max_points` ≤ [`MAX_PLOT_POINTS`].
pub fn plot_positions(steps: u64, max_points: usize) -> Result<Vec<u64>, MathError> {
    check_count("T", steps)?;
    if !(2..=MAX_PLOT_POINTS).contains(&max_points) {
        return Err(MathError::OutOfDomain {
            name: "points",
            value: max_points as f64,
            expected: "between 2 and 1,000,000",
        });
    }
    if steps <= max_points as u64 {
        return Ok((1..=steps).collect());
    }
    let linear = max_points / 2;
    let geometric = max_points - linear;
    let tf = steps as f64;
    let mut v = Vec::with_capacity(max_points);
    for i in 0..linear {
        // 1 + i·(T − 1)/(linear − 1), rounded; linear ≥ 1.
        let x = if linear == 1 {
            1.0
        } else {
            1.0 + (tf - 1.0) * i as f64 / (linear - 1) as f64
        };
        v.push((x.round() as u64).clamp(1, steps));
    }
    let ln_t = crate::special::ln(tf);
    for i in 0..geometric {
        let m = if geometric == 1 {
            1.0
        } else {
            crate::special::exp(ln_t * i as f64 / (geometric - 1) as f64)
        };
        let m = (m.round() as u64).clamp(1, steps);
        v.push(steps - m + 1);
    }
    crate::heap_sort_by(&mut v, |a, b| a < b);
    v.dedup();
    Ok(v)
}

/// Euler–Mascheroni constant γ.
const EULER_GAMMA: f64 = 0.577_215_664_901_532_9;

/// The harmonic number H_T = Σ_{k=1..T} 1/k: summed from the smallest term for T ≤ 10⁴, else
/// ln T + γ + 1/(2T) − 1/(12T²) + 1/(120T⁴), whose next term, 1/(252T⁶), is below 1e-26.
fn harmonic(steps: u64) -> f64 {
    if steps <= 10_000 {
        (1..=steps).rev().map(|k| 1.0 / k as f64).sum()
    } else {
        let t = steps as f64;
        let inv2 = 1.0 / (t * t);
        crate::special::ln(t) + EULER_GAMMA + 0.5 / t - inv2 / 12.0 + inv2 * inv2 / 120.0
    }
}

/// The average over the T positions of [`amplification_factor`]: H_T/T = (1/T)·Σ_{m=1..T} 1/m,
/// about (ln T + 0.5772)/T. The average record's RDP is this fraction of the unamplified one.
///
/// A summary of the per-position guarantees, **not** a guarantee for anyone: every record has
/// its own guarantee, at its own position, and the theorem credits nothing to a random or secret
/// order. Domain: 1 ≤ T ≤ 2^53. Relative error below 1e-15.
pub fn mean_amplification_factor(steps: u64) -> Result<f64, MathError> {
    check_count("T", steps)?;
    Ok(harmonic(steps) / steps as f64)
}
