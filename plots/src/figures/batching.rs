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
//! the lower bounds, so the band still holds the truth.

use std::cell::RefCell;
use std::rc::Rc;

use amp_math::batching::{
    allocation_pld, deterministic_epsilon, reshuffled_lower_epsilon, Neighbours,
};
use amp_math::pld::{Estimate, PldPair};
use amp_math::Relation;

use super::group_digits;
use super::training::{cached_band, Training};
use crate::format::short_number;
use crate::params::Batching;

/// The relation the three samplers are compared on.
pub const RELATION: Relation = Relation::ZeroOut;

/// The log-grid step of the balls-in-bins sums while the controls move, and once they rest: the
/// bracket of one epoch is about g·log₂T wide in the loss.
pub const QUICK_LOG_STEP: f64 = 4e-3;
/// See [`QUICK_LOG_STEP`].
pub const FINE_LOG_STEP: f64 = 1e-3;
/// Work budget of one balls-in-bins PLD (`amp_math::batching::allocation_work`; about a second
/// natively): a small σ or many steps per epoch coarsen the grid to stay within it.
pub const WORK_BUDGET: f64 = 1.2e9;

/// The log-grid step used for balls in bins: the requested one, coarsened to the work budget.
pub fn log_step_for(sigma: f64, steps_per_epoch: u64, requested: f64) -> f64 {
    amp_math::batching::affordable_log_step(sigma, steps_per_epoch, requested, WORK_BUDGET)
}

/// A band: the exact ε at δ lies in [lower, upper]; `upper` is certified.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    /// Lower bound on ε.
    pub lower: f64,
    /// Certified upper bound on ε.
    pub upper: f64,
}

/// The shape of the reader's run as the shuffle and balls-in-bins analyses see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Epochs {
    /// Steps per epoch T.
    pub steps_per_epoch: u64,
    /// Whole epochs for the upper bounds (rounded up).
    pub upper: u64,
    /// Whole epochs for the lower bounds (rounded down, at least 1).
    pub lower: u64,
}

/// Noise multiplier of the run, or why these samplers are not accounted for it.
pub fn gaussian_sigma(t: &Training) -> Result<f64, String> {
    match t.noise {
        amp_math::pld::Noise::Gaussian(s) => Ok(s),
        amp_math::pld::Noise::Laplace(_) => Err(
            "the shuffle and balls-in-bins bounds here are for Gaussian noise (DP-SGD); \
             choose the Gaussian mechanism"
                .into(),
        ),
    }
}

/// T and the whole epochs of the run (see the module notes).
pub fn epochs(t: &Training) -> Epochs {
    let steps_per_epoch = ((t.dataset as f64 / t.batch as f64).round() as u64).max(1);
    let e = t.steps as f64 / steps_per_epoch as f64;
    Epochs {
        steps_per_epoch,
        upper: (e.ceil() as u64).max(1),
        lower: (e.floor() as u64).max(1),
    }
}

/// Shuffled fixed-size batches, reshuffled every epoch: the deterministic-batches upper bound
/// (analytic Gaussian at μ = √E/σ) and Chua et al.'s reshuffled lower bound.
pub fn shuffle_band(sigma: f64, e: Epochs, delta: f64) -> Result<Band, String> {
    let upper = deterministic_epsilon(sigma, e.upper, Neighbours::ZeroOut, delta)
        .map_err(|x| x.to_string())?;
    let lower = reshuffled_lower_epsilon(sigma, e.steps_per_epoch, e.lower, delta)
        .map_err(|x| x.to_string())?;
    Ok(Band {
        lower: lower.min(upper),
        upper,
    })
}

/// One epoch of balls-in-bins as (pessimistic, optimistic) PLDs, remembered for the last few
/// settings (the readouts and the figures ask for the same ones).
pub fn allocation_plds(
    sigma: f64,
    steps_per_epoch: u64,
    log_step: f64,
) -> Result<Rc<(PldPair, PldPair)>, String> {
    type Key = (u64, u64, u64);
    type Entry = (Key, Rc<(PldPair, PldPair)>);
    thread_local! {
        static CACHE: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
    }
    let key = (sigma.to_bits(), steps_per_epoch, log_step.to_bits());
    if let Some(hit) = CACHE.with(|c| {
        c.borrow()
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.clone())
    }) {
        return Ok(hit);
    }
    let up = allocation_pld(sigma, steps_per_epoch, log_step, Estimate::Pessimistic)
        .map_err(|x| x.to_string())?;
    let lo = allocation_pld(sigma, steps_per_epoch, log_step, Estimate::Optimistic)
        .map_err(|x| x.to_string())?;
    let v = Rc::new((up, lo));
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= 4 {
            c.remove(0);
        }
        c.push((key, v.clone()));
    });
    Ok(v)
}

/// Balls-in-bins: the exact pair's PLD bracketed by rounding up and down, composed over the epochs
/// (the upper bound at the rounded-up count, the lower at the rounded-down one).
pub fn balls_band(sigma: f64, e: Epochs, delta: f64, log_step: f64) -> Result<Band, String> {
    let log_step = log_step_for(sigma, e.steps_per_epoch, log_step);
    let plds = allocation_plds(sigma, e.steps_per_epoch, log_step)?;
    let at = |pld: &PldPair, k: u64| -> Result<f64, String> {
        let all = if k == 1 {
            pld.clone()
        } else {
            pld.self_compose(k).map_err(|x| x.to_string())?
        };
        all.epsilon_for_delta(delta).map_err(|x| x.to_string())
    };
    let upper = at(&plds.0, e.upper)?;
    let lower = at(&plds.1, e.lower)?;
    Ok(Band {
        lower: lower.min(upper),
        upper,
    })
}

/// Poisson sampling at q = B/|x| for the run's steps, from the training page's composed band.
pub fn poisson_band(t: &Training, buckets: usize) -> Result<Band, String> {
    let band = cached_band(t, buckets)?;
    let (upper, lower) = band.epsilon(t.delta).map_err(|x| x.to_string())?;
    Ok(Band { lower, upper })
}

/// The band of the sampler the reader's loop uses.
pub fn band_for(
    batching: Batching,
    t: &Training,
    buckets: usize,
    log_step: f64,
) -> Result<Band, String> {
    match batching {
        Batching::Poisson => poisson_band(t, buckets),
        Batching::Shuffle => shuffle_band(gaussian_sigma(t)?, epochs(t), t.delta),
        Batching::BallsInBins => balls_band(gaussian_sigma(t)?, epochs(t), t.delta, log_step),
    }
}

/// How each sampler's numbers are obtained (the `method` of the CLI's JSON).
pub fn method(batching: Batching) -> &'static str {
    match batching {
        Batching::Poisson => {
            "privacy loss distribution of the Poisson-subsampled Gaussian, composed by FFT (pessimistic and optimistic grids)"
        }
        Batching::Shuffle => {
            "upper: each example in one batch per epoch, E Gaussian steps composed exactly (analytic Gaussian, mu = sqrt(E)/sigma); lower: Chua et al. 2024 pair through the largest batch sum, composed over reshuffled epochs"
        }
        Batching::BallsInBins => {
            "PLD of the balls-in-bins pair (Chua et al. 2025; Feldman & Shenfeld 2025), sums rounded up and down on a geometric grid, composed over epochs"
        }
    }
}

/// A copyable privacy statement of a shuffled or balls-in-bins run (Gaussian noise), quoting its
/// own band (never the Poisson number).
pub fn statement(
    t: &Training,
    batching: Batching,
    band: &Band,
    log_step: f64,
) -> Result<String, String> {
    let sigma = gaussian_sigma(t)?;
    let e = epochs(t);
    let (sampler, how) = match batching {
        Batching::Poisson => {
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
                 computed with sums rounded up and down (log-grid step {})",
                short_number(log_step_for(sigma, e.steps_per_epoch, log_step), 2)
            ),
        ),
    };
    let length = if e.upper == e.lower {
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
