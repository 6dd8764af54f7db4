//! DP-SGD with shuffled, fixed-size batches: the bounds that bracket its privacy (issue 18, first
//! part; the page, the CLI and balls-in-bins sampling come later).
//!
//! A training loop that shuffles the N examples and cuts them into T = N/B batches per epoch uses
//! each example exactly once per epoch. Its neighbouring relation here keeps N fixed: **zero-out**
//! (one example replaced by one whose clipped gradient is 0; the per-batch sum changes by at most
//! Δ = 1 in units of the clipping norm) or **replace-one** (one example replaced by another, Δ = 2).
//! Add/remove is not covered: adding an example moves the batch boundaries of every later one.
//!
//! - Upper bound (any fixed or random order): the permutation does not depend on the data, so for
//!   each order the run is E adaptive steps of the Gaussian mechanism with sensitivity Δ, i.e.
//!   μ-GDP with μ = Δ√E/σ, and mixing over orders cannot increase the hockey-stick divergence
//!   (joint convexity). Its profile is the analytic Gaussian one (Balle & Wang 2018, Theorem 8).
//! - Lower bound (Chua, Ghazi, Kamath, Kumar, Manurangsi, Sinha & Zhang 2024, "How private are
//!   DP-SGD implementations?", ICML; the "cube" test of their published code): with scalar
//!   gradients, N − 1 examples at −1 and the differing one at +1 against 0 (zero-out), the T batch
//!   sums, offset removed, are a mixture over the differing example's batch t of N(m·e_t, σ²I_T)
//!   with m = 2 under one dataset and m = 1 under the other. The test "some batch sum exceeds C"
//!   has P(max > C) = 1 − Φ((C − m)/σ)·Φ(C/σ)^{T−1}, so δ(ε) ≥ max_C [P_2(max > C) − e^ε P_1(max > C)].
//!   When every epoch uses the same order, the E noisy copies of each batch sum average to one
//!   with noise σ/√E (a sufficient statistic), so the one-epoch bound at σ/√E applies.

mod allocation;
pub use allocation::{
    affordable_log_step, allocation_atoms, allocation_epsilon, allocation_pld, allocation_work,
    AllocationAtoms, DEFAULT_LOG_STEP, MAX_ALLOCATION_WORK,
};

use crate::rdp::{gaussian_delta, gaussian_epsilon};
use crate::root::{brent, golden_section_min, Tolerance};
use crate::special::{exp_m1, ln, ln_normal_cdf};
use crate::MathError;

/// How two training sets differ (both of the same size N).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Neighbours {
    /// One example replaced by one with zero gradient: a batch sum moves by at most 1 (in units
    /// of the clipping norm).
    ZeroOut,
    /// One example replaced by any other: a batch sum moves by at most 2.
    ReplaceOne,
}

impl Neighbours {
    /// The L2 sensitivity Δ of one batch's clipped-gradient sum, in units of the clipping norm.
    pub fn sensitivity(self) -> f64 {
        match self {
            Neighbours::ZeroOut => 1.0,
            Neighbours::ReplaceOne => 2.0,
        }
    }
}

fn check_run(sigma: f64, epochs: u64) -> Result<(), MathError> {
    crate::check_positive("σ", sigma)?;
    if epochs == 0 {
        return Err(MathError::OutOfDomain {
            name: "epochs",
            value: 0.0,
            expected: "at least 1",
        });
    }
    Ok(())
}

/// The GDP μ = Δ√E/σ of E epochs in which each example is in exactly one batch (any order).
/// Exact for a fixed order; an upper bound for shuffled orders.
pub fn deterministic_mu(sigma: f64, epochs: u64, neighbours: Neighbours) -> Result<f64, MathError> {
    check_run(sigma, epochs)?;
    Ok(neighbours.sensitivity() * (epochs as f64).sqrt() / sigma)
}

/// δ(ε) of E epochs of fixed-order batches: the analytic Gaussian profile
/// Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ) at μ = Δ√E/σ (Balle & Wang 2018, Theorem 8, through
/// [`gaussian_delta`]). A certified upper bound for shuffled fixed-size batches (see the module
/// notes; same-size neighbours only). Exact for a fixed order. ε ≥ 0.
pub fn deterministic_delta(
    sigma: f64,
    epochs: u64,
    neighbours: Neighbours,
    epsilon: f64,
) -> Result<f64, MathError> {
    let mu = deterministic_mu(sigma, epochs, neighbours)?;
    gaussian_delta(1.0 / mu, epsilon)
}

/// The smallest ε with [`deterministic_delta`] ≤ δ: a certified upper bound on ε for shuffled
/// fixed-size batches (same-size neighbours). δ ∈ (0, 1). To Brent's tolerance (relative 4 ulp).
pub fn deterministic_epsilon(
    sigma: f64,
    epochs: u64,
    neighbours: Neighbours,
    delta: f64,
) -> Result<f64, MathError> {
    let mu = deterministic_mu(sigma, epochs, neighbours)?;
    gaussian_epsilon(1.0 / mu, delta)
}

/// P(max_t X_t > C) for X = N(m·e_1, s²I_T) as log of the complement: the log of
/// Φ((C − m)/s)·Φ(C/s)^{T−1}.
fn ln_all_below(c: f64, m: f64, s: f64, steps: u64) -> f64 {
    ln_normal_cdf((c - m) / s) + (steps - 1) as f64 * ln_normal_cdf(c / s)
}

/// The cube test's hockey-stick value at threshold C: P_2(max > C) − e^ε P_1(max > C).
fn cube_value(c: f64, s: f64, steps: u64, epsilon: f64) -> f64 {
    let out_p = -exp_m1(ln_all_below(c, 2.0, s, steps));
    let out_q = -exp_m1(ln_all_below(c, 1.0, s, steps));
    if out_p <= 0.0 {
        return 0.0;
    }
    // out_p − e^ε out_q, as out_p·(1 − e^{ε + log out_q − log out_p}).
    if out_q <= 0.0 {
        return out_p;
    }
    -out_p * exp_m1(epsilon + ln(out_q) - ln(out_p))
}

/// The lower bound on δ(ε) of E epochs of shuffled batches of one order (T steps per epoch) under
/// zero-out, from Chua et al. 2024's pair and "some batch sum exceeds C" test, maximised over C:
/// a grid of 4,001 thresholds from 1 − 12s to 2 + s(12 + √(2 log T)) (s = σ/√E; the grid of the
/// authors' code is C ∈ [0, 100) in steps of 0.01), refined by golden section around the best.
/// Every C gives a valid lower bound, so the refinement only tightens it. ε ≥ 0; T ≥ 1.
pub fn shuffle_lower_delta(
    sigma: f64,
    steps_per_epoch: u64,
    epochs: u64,
    epsilon: f64,
) -> Result<f64, MathError> {
    check_run(sigma, epochs)?;
    crate::check_epsilon("ε", epsilon)?;
    if steps_per_epoch == 0 {
        return Err(MathError::OutOfDomain {
            name: "steps per epoch",
            value: 0.0,
            expected: "at least 1",
        });
    }
    let s = sigma / (epochs as f64).sqrt();
    let t = steps_per_epoch;
    let lo = 1.0 - 12.0 * s;
    let hi = 2.0 + s * (12.0 + (2.0 * ln(t as f64)).sqrt());
    const GRID: usize = 4000;
    let width = (hi - lo) / GRID as f64;
    let (mut best_c, mut best) = (lo, 0.0f64);
    for i in 0..=GRID {
        let c = lo + width * i as f64;
        let v = cube_value(c, s, t, epsilon);
        if v > best {
            best = v;
            best_c = c;
        }
    }
    if best > 0.0 {
        let f = |c: f64| -cube_value(c, s, t, epsilon);
        let c = golden_section_min(&f, best_c - width, best_c + width, 60);
        best = best.max(-f(c));
    }
    Ok(best.clamp(0.0, 1.0))
}

/// The largest ε whose [`shuffle_lower_delta`] is still at least δ: the true ε at δ of shuffled
/// batches (zero-out, one order for all epochs) is at least this. δ ∈ (0, 1). 0 when even ε = 0
/// gives less than δ. To Brent's tolerance on the (decreasing) lower profile.
pub fn shuffle_lower_epsilon(
    sigma: f64,
    steps_per_epoch: u64,
    epochs: u64,
    delta: f64,
) -> Result<f64, MathError> {
    crate::check_delta("δ", delta)?;
    if delta == 0.0 {
        return Err(MathError::OutOfDomain {
            name: "δ",
            value: 0.0,
            expected: "above 0",
        });
    }
    let f = |e: f64| {
        shuffle_lower_delta(sigma, steps_per_epoch, epochs, e)
            .map(|d| d - delta)
            .unwrap_or(f64::NAN)
    };
    if f(0.0) <= 0.0 {
        return Ok(0.0);
    }
    // The lower bound never exceeds the upper one, whose ε at δ brackets the root.
    let hi = deterministic_epsilon(sigma, epochs, Neighbours::ZeroOut, delta)? * 1.001 + 1e-9;
    if f(hi) > 0.0 {
        return Err(MathError::Inconsistent {
            reason: format!("the shuffle lower bound exceeds the upper bound at δ = {delta:e}"),
        });
    }
    brent(f, 0.0, hi, Tolerance::TIGHT)
}

/// The Chua et al. lower-bound pair seen through the statistic M = max_t x_t (one epoch, T steps,
/// noise σ): M's law is F_m(c) = Φ((c − m)/σ)·Φ(c/σ)^{T−1} with m = 2 and m = 1. Its range is cut
/// into `slices` equal slices between 1 − 12σ and 2 + σ(12 + √(2 log T)) plus the two tails;
/// the atoms are (log(p_i/q_i), p_i) for P‖Q and (log(q_i/p_i), q_i) for Q‖P, with the slices'
/// masses under the two laws. Knowing only the slice of M is post-processing of the epoch's
/// output, so these exact atoms are the PLDs of a pair that the true pair dominates.
fn max_statistic_atoms(sigma: f64, steps: u64, slices: usize) -> [Vec<(f64, f64)>; 2] {
    let lo = 1.0 - 12.0 * sigma;
    let hi = 2.0 + sigma * (12.0 + (2.0 * ln(steps as f64)).sqrt());
    let width = (hi - lo) / slices as f64;
    let mut cuts = vec![f64::NEG_INFINITY];
    cuts.extend((0..=slices).map(|i| lo + width * i as f64));
    cuts.push(f64::INFINITY);
    let ln_f = |c: f64, m: f64| -> f64 {
        if c == f64::NEG_INFINITY {
            f64::NEG_INFINITY
        } else if c == f64::INFINITY {
            0.0
        } else {
            ln_all_below(c, m, sigma, steps)
        }
    };
    // F(c₂) − F(c₁) from log F, by the side that keeps it accurate.
    let mass = |a: f64, b: f64| -> f64 {
        if b == f64::NEG_INFINITY {
            return 0.0;
        }
        if b <= -std::f64::consts::LN_2 {
            // Both below ½: F₂(1 − F₁/F₂).
            if a == f64::NEG_INFINITY {
                return crate::special::exp(b);
            }
            -crate::special::exp(b) * exp_m1(a - b)
        } else {
            // S₁ − S₂ with S = −expm1(log F).
            (exp_m1(b) - exp_m1(a)).max(0.0)
        }
    };
    let mut fwd = Vec::with_capacity(cuts.len());
    let mut rev = Vec::with_capacity(cuts.len());
    for w in cuts.windows(2) {
        let p = mass(ln_f(w[0], 2.0), ln_f(w[1], 2.0));
        let q = mass(ln_f(w[0], 1.0), ln_f(w[1], 1.0));
        match (p > 0.0, q > 0.0) {
            (true, true) => {
                let l = ln(p) - ln(q);
                fwd.push((l, p));
                rev.push((-l, q));
            }
            (true, false) => fwd.push((f64::INFINITY, p)),
            (false, true) => rev.push((f64::INFINITY, q)),
            (false, false) => {}
        }
    }
    [fwd, rev]
}

/// A lower bound on ε at δ for E epochs of shuffled fixed-size batches **reshuffled every epoch**
/// (zero-out, T steps per epoch, noise multiplier σ): Chua et al.'s pair reduced to the largest
/// batch sum of each epoch, sliced, and composed over the E independent epochs as optimistic PLDs
/// (the multi-epoch analysis of Chua, Ghazi, Kamath, Kumar, Manurangsi, Sinha & Zhang, "Scalable
/// DP-SGD: shuffling vs. Poisson subsampling", NeurIPS 2024, as their published code evaluates it),
/// the larger of the two directions. Every step of it only loses information (post-processing,
/// rounding down), so it is a valid lower bound; the exact ε of the shuffled loop is at least this.
/// δ ∈ [1e-11, 1); E ≤ 10⁵.
pub fn reshuffled_lower_epsilon(
    sigma: f64,
    steps_per_epoch: u64,
    epochs: u64,
    delta: f64,
) -> Result<f64, MathError> {
    reshuffled_lower_epsilon_at(sigma, steps_per_epoch, epochs, delta, 20_000, 1e-4)
}

/// [`reshuffled_lower_epsilon`] with `slices` slices of the largest batch sum and a loss grid of
/// step `step`: fewer slices or a coarser grid is faster and still a valid, weaker, lower bound.
pub fn reshuffled_lower_epsilon_at(
    sigma: f64,
    steps_per_epoch: u64,
    epochs: u64,
    delta: f64,
    slices: usize,
    step: f64,
) -> Result<f64, MathError> {
    reshuffled_lower_pair(sigma, steps_per_epoch, epochs, slices, step)?.epsilon_for_delta(delta)
}

/// The optimistic PLDs behind [`reshuffled_lower_epsilon_at`]: Chua et al.'s pair reduced to the
/// largest batch sum of each epoch, composed over the E epochs; `remove` is P‖Q (the dataset with
/// the differing example's gradient present against zeroed), `add` the reverse. Every privacy
/// profile, trade-off curve or attack success read from it is a lower bound on the shuffled
/// loop's (post-processing and rounding down only lose information). Domain as there.
pub fn reshuffled_lower_pair(
    sigma: f64,
    steps_per_epoch: u64,
    epochs: u64,
    slices: usize,
    step: f64,
) -> Result<crate::pld::PldPair, MathError> {
    use crate::pld::{Estimate, Pld, PldPair};
    check_run(sigma, epochs)?;
    if steps_per_epoch == 0 || epochs > 100_000 || slices < 10 || !(1e-6..=0.1).contains(&step) {
        return Err(MathError::OutOfDomain {
            name: "steps per epoch",
            value: steps_per_epoch as f64,
            expected: "at least 1, with at most 10⁵ epochs, 10 slices or more and a grid step in [1e-6, 0.1]",
        });
    }
    let [fwd, rev] = max_statistic_atoms(sigma, steps_per_epoch, slices);
    let remove = Pld::from_loss_atoms(&fwd, step, Estimate::Optimistic, true);
    let add = Pld::from_loss_atoms(&rev, step, Estimate::Optimistic, true);
    if epochs == 1 {
        return Ok(PldPair { remove, add });
    }
    let (remove, add) = crate::pld::compose_two(&[(&remove, epochs)], &[(&add, epochs)])?;
    Ok(PldPair { remove, add })
}
