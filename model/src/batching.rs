//! How a DP-SGD loop forms its batches, and what each way costs in privacy: Poisson sampling,
//! shuffling into fixed-size batches, and balls-in-bins (each example in one random step of each
//! epoch). All three are compared on one relation, **zero-out** (one example's clipped gradient
//! replaced by 0, the dataset size fixed) at sensitivity 1 in units of the clipping norm: for
//! Poisson sampling its pair is exactly the add/remove pair the training page's accountant uses,
//! and it is the relation of the shuffle and balls-in-bins analyses (`amp_math::batching`).
//!
//! A run of E epochs over |x| examples in batches of B has T = round(|x|/B) steps per epoch (at
//! least 1); Poisson sampling is accounted at q = B/|x| for the run's k steps. A length that is
//! not a whole number of epochs is rounded up for the upper bounds and down (to at least one) for
//! the lower bounds, so the band still holds the truth ([`super::run::epoch_shape`]). Each sampler
//! is an event ([`amp_math::accounting::Event::Epochs`]) the PLD accountant accounts.

use crate::ModelError;
use std::rc::Rc;

use amp_math::accounting::{
    calibrate, Accountant, Bounds, EpochSettings, Event, PldAccountant, Search, Target,
};
use amp_math::batching::{allocation_pld, reshuffled_lower_epsilon};
use amp_math::pld::{Estimate, Noise, PldPair};
use amp_math::Relation;

use super::memo::{remembered, Slot};
use super::run::epoch_shape;
use super::training::{accountant, band_of, cached_band, calibrate as calibrate_poisson, Training};
use crate::params::Batching;
use amp_format::{group_digits, short_number};

/// The relation the three samplers are compared on.
pub const RELATION: Relation = Relation::ZeroOut;

/// The log-grid step of the balls-in-bins sums while the controls move, and once they rest (the
/// bracket narrows like g²: at σ = 1, T = 1000, δ = 1e-5 it is 1.3e-3 wide in ε at 8e-3 and 2.8e-4
/// at 4e-3).
pub const QUICK_LOG_STEP: f64 = 8e-3;
/// See [`QUICK_LOG_STEP`].
pub const FINE_LOG_STEP: f64 = 4e-3;
/// The Poisson accountant's budget for a calibration to a target (the training page's refined one).
const FINE_BUCKETS: usize = super::training::FINE;
/// Work budget of one balls-in-bins PLD (`amp_math::batching::allocation_work`; about a second
/// natively): a small σ or many steps per epoch coarsen the grid to stay within it.
pub const WORK_BUDGET: f64 = 1.2e9;

/// The epoch samplers' settings for a requested balls-in-bins log-grid step and a precision
/// (`quick`: the shuffle lower bound on the coarser grid used while a control moves).
pub fn settings(log_step: f64, quick: bool) -> EpochSettings {
    let base = if quick {
        EpochSettings::QUICK
    } else {
        EpochSettings::FINE
    };
    EpochSettings {
        log_step,
        work: WORK_BUDGET,
        ..base
    }
}

/// The log-grid step used for balls in bins: the requested one, coarsened to the work budget.
/// The requested step is divided by σ when σ > 1 (the loss, and so the rounding it can bear,
/// shrinks as the noise grows).
pub fn log_step_for(sigma: f64, steps_per_epoch: u64, requested: f64) -> f64 {
    log_step_within(sigma, steps_per_epoch, requested, WORK_BUDGET)
}

/// [`log_step_for`] within another work budget.
pub fn log_step_within(sigma: f64, steps_per_epoch: u64, requested: f64, budget: f64) -> f64 {
    EpochSettings {
        log_step: requested,
        work: budget,
        ..EpochSettings::FINE
    }
    .log_step_for(sigma, steps_per_epoch)
}

/// A band: the exact ε at δ lies in [lower, upper]; `upper` is certified.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    /// Lower bound on ε.
    pub lower: f64,
    /// Certified upper bound on ε.
    pub upper: f64,
}

/// The shape of a phase as the shuffle and balls-in-bins analyses see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Epochs {
    /// Steps per epoch T.
    pub steps_per_epoch: u64,
    /// Whole epochs for the upper bounds (rounded up).
    pub upper: u64,
    /// Whole epochs for the lower bounds (rounded down, at least 1).
    pub lower: u64,
}

/// Noise multiplier of the run (its first phase's), or why these samplers are not accounted for
/// it.
pub fn gaussian_sigma(t: &Training) -> Result<f64, ModelError> {
    match t.noise {
        Noise::Gaussian(s) => Ok(s),
        Noise::Laplace(_) => Err(
            "the shuffle and balls-in-bins bounds here are for Gaussian noise (DP-SGD); \
             choose the Gaussian mechanism"
                .into(),
        ),
    }
}

/// T and the whole epochs of the run's first phase (see the module notes).
pub fn epochs(t: &Training) -> Epochs {
    let (steps_per_epoch, upper, lower) = epoch_shape(t.dataset, t.batch, t.steps, t.by_epochs);
    Epochs {
        steps_per_epoch,
        upper,
        lower,
    }
}

/// One epoch of balls-in-bins as (pessimistic, optimistic) PLDs, remembered for the last few
/// settings (the figures' sweeps over epochs compose them themselves).
pub fn allocation_plds(
    sigma: f64,
    steps_per_epoch: u64,
    log_step: f64,
) -> Result<Rc<(PldPair, PldPair)>, ModelError> {
    thread_local! {
        static SLOT: Slot<(u64, u64, u64), (PldPair, PldPair)> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let key = (sigma.to_bits(), steps_per_epoch, log_step.to_bits());
    remembered(&SLOT, key, || {
        let e = |x: amp_math::MathError| x.to_string();
        let up =
            allocation_pld(sigma, steps_per_epoch, log_step, Estimate::Pessimistic).map_err(e)?;
        let lo =
            allocation_pld(sigma, steps_per_epoch, log_step, Estimate::Optimistic).map_err(e)?;
        Ok((up, lo))
    })
}

/// ε at δ of an event by an accountant, remembered for the last few (the readouts and the CLI
/// ask for the same ones).
fn bounds_of(event: &Event, acc: &PldAccountant, delta: f64) -> Result<Rc<Bounds>, ModelError> {
    thread_local! {
        static SLOT: Slot<(Event, PldAccountant, u64), Bounds> = const { std::cell::RefCell::new(Vec::new()) };
    }
    remembered(&SLOT, (event.clone(), *acc, delta.to_bits()), || {
        acc.epsilon(event, delta).map_err(ModelError::from)
    })
}

/// Every phase's noise is Gaussian (the shuffle and balls-in-bins analyses need it).
fn check_gaussian(t: &Training) -> Result<(), ModelError> {
    gaussian_sigma(t).map(|_| ())
}

/// The band of the run with every phase formed by `batching` (Poisson: the training page's
/// composed band, at `buckets`; the others with the balls-in-bins log-grid step `log_step` and,
/// when `quick`, the shuffle lower bound on its coarser grid).
pub fn band_for(
    batching: Batching,
    t: &Training,
    buckets: usize,
    log_step: f64,
    quick: bool,
) -> Result<Band, ModelError> {
    t.check_records(Some(batching))?;
    if matches!(batching, Batching::Poisson | Batching::TruncatedPoisson) {
        return poisson_band(t, buckets);
    }
    check_gaussian(t)?;
    let acc = accountant(buckets, settings(log_step, quick));
    let b = bounds_of(&t.event(Some(batching)), &acc, t.delta)?;
    Ok(Band {
        lower: b.lower.unwrap_or(0.0),
        upper: b.upper,
    })
}

/// Poisson sampling at each phase's q for its steps, from the training page's composed band.
pub fn poisson_band(t: &Training, buckets: usize) -> Result<Band, ModelError> {
    let band = cached_band(t, buckets)?;
    let (upper, lower) = band.epsilon(t.delta).map_err(|x| x.to_string())?;
    Ok(Band { lower, upper })
}

/// The run as its phases form batches (each its own sampler): the band, the relation it holds for
/// and the grid step of the Poisson phases.
pub fn own_band(
    t: &Training,
    buckets: usize,
    log_step: f64,
    quick: bool,
) -> Result<(Band, Relation, f64), ModelError> {
    t.check_records(None)?;
    let event = t.event(None);
    let relation = event.relation().map_err(ModelError::from)?;
    if t.phases().iter().any(|ph| ph.batching != Batching::Poisson) {
        check_gaussian(t)?;
    }
    let acc = accountant(buckets, settings(log_step, quick));
    let b = bounds_of(&event, &acc, t.delta)?;
    let step = band_of(&event, &acc)?.step;
    Ok((
        Band {
            lower: b.lower.unwrap_or(0.0),
            upper: b.upper,
        },
        relation,
        step,
    ))
}

/// The membership attacker against the reader's loop as its phases form batches (`batching`:
/// every phase with that sampler; `None`: each with its own): the certified (upper) and the
/// reachable (lower) PLDs of the whole run. Poisson alone: the training page's composed band.
/// Shuffled epochs: upper, the Gaussian mechanism at μ = √E/σ (every fixed order gives exactly
/// this trade-off, and a shuffled run is a mixture of fixed orders chosen independently of the
/// data), discretised pessimistically; lower, Chua et al.'s pair through the largest batch sum.
/// Balls in bins: the dominating (split) and dominated (merged) PLDs composed over the epochs.
pub fn attack_pairs(
    batching: Option<Batching>,
    t: &Training,
    buckets: usize,
    log_step: f64,
    quick: bool,
) -> Result<(f64, PldPair, PldPair), ModelError> {
    t.check_records(batching)?;
    let event = t.event(batching);
    let band = if event == t.poisson_event() {
        cached_band(t, buckets)?
    } else {
        check_gaussian(t)?;
        band_of(&event, &accountant(buckets, settings(log_step, quick)))?
    };
    Ok((band.step, band.upper.clone(), band.lower.clone()))
}

/// How each sampler's numbers are obtained (the `method` of the CLI's JSON).
pub fn method(batching: Batching) -> &'static str {
    match batching {
        Batching::Poisson => {
            "privacy loss distribution of the Poisson-subsampled Gaussian, composed by FFT (pessimistic and optimistic grids)"
        }
        Batching::TruncatedPoisson => {
            "privacy loss distribution of capped Poisson batches: upper, the mixture of the Poisson-subsampled Gaussian (cap not reached) and its sensitivity-2 form at the rate when it is (Chua et al. 2025's split); lower, the most distinguishing of five worst-case datasets; composed by FFT"
        }
        Batching::Shuffle => {
            "upper: each example in one batch per epoch, E Gaussian steps composed exactly (analytic Gaussian, mu = sqrt(E)/sigma); lower: Chua et al. 2024 pair through the largest batch sum, composed over reshuffled epochs"
        }
        Batching::BallsInBins => {
            "PLD of the balls-in-bins pair (Chua et al. 2025; Feldman & Shenfeld 2025), its sums on a geometric grid split between grid points (upper: a dominating pair) and merged (lower: a dominated pair), composed over epochs"
        }
        Batching::Allocation => {
            "upper: k allocations of one step among floor(T/k) or ceil(T/k) steps (Feldman & Shenfeld 2025), each one epoch of balls in bins (its dominating discretisation), composed; lower: k = 1, the balls-in-bins epoch (its dominated discretisation); k > 1, the Gaussian mechanism of the sum of all T outputs (mu = k/(sigma sqrt T)), exact"
        }
    }
}

/// A copyable privacy statement of a one-phase shuffled or balls-in-bins run (Gaussian noise),
/// quoting its own band (never the Poisson number).
pub fn statement(
    t: &Training,
    batching: Batching,
    band: &Band,
    log_step: f64,
) -> Result<String, ModelError> {
    let sigma = gaussian_sigma(t)?;
    let e = epochs(t);
    let (sampler, how) = match batching {
        Batching::Poisson | Batching::TruncatedPoisson => {
            return Err("internal: the Poisson statement is the training page's".into())
        }
        Batching::Shuffle => (
            format!(
                "shuffling the data every epoch and cutting it into {} batches of {} examples",
                group_digits(e.steps_per_epoch),
                group_digits(t.batch)
            ),
            "from composing the Gaussian mechanism over the epochs, valid for any order of the \
             batches; the lower bound is the test of Chua et al. (2024) on reshuffled epochs"
                .to_string(),
        ),
        Batching::BallsInBins => (
            format!(
                "placing each example in one of {} steps of every epoch uniformly at random \
                 (batches of {} examples on average)",
                group_digits(e.steps_per_epoch),
                group_digits(t.batch)
            ),
            format!(
                "from the privacy loss distribution of the balls-in-bins pair (Chua et al. 2025), \
                 computed exactly up to a discretisation that can only raise it (log-grid step {})",
                short_number(log_step_for(sigma, e.steps_per_epoch, log_step), 2)
            ),
        ),
        Batching::Allocation => {
            let k = t.first().participations();
            (
                format!(
                    "using each example in exactly {} of the {} steps, chosen uniformly at random \
                     (batches of {} examples on average)",
                    group_digits(k),
                    group_digits(t.steps),
                    short_number(k as f64 * t.dataset as f64 / t.steps as f64, 4)
                ),
                format!(
                    "from Feldman & Shenfeld's (2025) decomposition of random allocation into {} \
                     allocations of one step among about {} steps, each the balls-in-bins pair \
                     (Chua et al. 2025) discretised so that it can only raise ε (log-grid step {}); the lower bound \
                     is {}",
                    group_digits(k),
                    group_digits(t.steps / k),
                    short_number(log_step_for(sigma, t.steps / k, log_step), 2),
                    if k == 1 {
                        "the same pair discretised so that it can only lower ε"
                    } else {
                        "the Gaussian mechanism of the sum of all the steps' outputs, exact"
                    }
                ),
            )
        }
    };
    let length = if batching == Batching::Allocation {
        format!("{} steps", group_digits(t.steps))
    } else if e.upper == e.lower {
        format!("{} epochs", group_digits(e.upper))
    } else {
        format!(
            "{} steps (between {} and {} epochs)",
            group_digits(t.steps),
            group_digits(e.lower),
            group_digits(e.upper)
        )
    };
    Ok(format!(
        "Training with DP-SGD on {} examples, {sampler}, with Gaussian noise of standard deviation \
         {}·C added to the sum of per-example gradients clipped to L2 norm C, for {length}, \
         satisfies (ε, δ)-differential privacy with ε = {} and δ = {}, for datasets that differ in \
         one example whose gradient is replaced by zero (replacing it by another example doubles \
         the sensitivity). The ε is a certified upper bound {how}; the exact ε of this training \
         loop is at least {}.",
        group_digits(t.dataset),
        short_number(sigma, 4),
        short_number(band.upper, 4),
        short_number(t.delta, 3),
        short_number(band.lower, 4),
    ))
}

/// The noise multiplier for a target ε at δ with every phase formed by `batching`, for the run's
/// |x|, batch sizes and lengths, one σ for all phases: (σ whose certified upper bound meets the
/// target, σ below which the sampler's lower bound already exceeds it, if known), each to
/// relative accuracy `rel` between 0.1 and 1,000. Balls in bins at the log-grid step the readouts
/// use for each σ.
pub fn sigma_for_target(
    batching: Batching,
    t: &Training,
    target: f64,
    log_step: f64,
    rel: f64,
) -> Result<(f64, Option<f64>), ModelError> {
    let e = epochs(t);
    let delta = t.delta;
    let acc = accountant(FINE_BUCKETS, settings(log_step, false));
    let run = |sampler: Batching| move |s: f64| t.with_noise(s).event(Some(sampler));
    let goal = Target::Epsilon {
        epsilon: target,
        delta,
    };
    let search = |lo: f64, hi: f64| Search::Bracketed { lo, hi, rel };
    let none = || format!("no σ between 0.1 and 1,000 meets ε ≤ {target}");
    // Fixed batches bound every sampler here from above except Poisson; bracket around them.
    let shuffled = run(Batching::Shuffle);
    let fixed = calibrate(
        |s| acc.measure(&shuffled(s), goal),
        target,
        search(0.1, 1000.0),
    )
    .map_err(|_| none())?;
    let (lo, hi) = (fixed / 30.0, fixed * 1.5);
    match batching {
        Batching::Poisson | Batching::TruncatedPoisson => {
            Ok((calibrate_poisson(t, target, FINE_BUCKETS, rel)?, None))
        }
        Batching::Shuffle => {
            let needs = if t.is_phased() {
                calibrate(
                    |s| Ok(acc.epsilon(&shuffled(s), delta)?.lower.unwrap_or(0.0)),
                    target,
                    search(lo, hi),
                )
            } else {
                calibrate(
                    |s| reshuffled_lower_epsilon(s, e.steps_per_epoch, e.lower, delta),
                    target,
                    search(lo, hi),
                )
            };
            Ok((fixed, needs.ok()))
        }
        Batching::BallsInBins | Batching::Allocation => {
            let balls = run(batching);
            let at = |s: f64, estimate: Estimate| {
                acc.compose(&balls(s), estimate)
                    .and_then(|(_, pair)| pair.epsilon_for_delta(delta))
            };
            let enough = calibrate(|s| at(s, Estimate::Pessimistic), target, search(lo, hi))
                .map_err(|_| none())?;
            let needs = calibrate(|s| at(s, Estimate::Optimistic), target, search(lo, enough));
            Ok((enough, needs.ok()))
        }
    }
}
