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
    allocation_pld, deterministic_epsilon, deterministic_mu, reshuffled_lower_epsilon,
    reshuffled_lower_epsilon_at, reshuffled_lower_pair, Neighbours,
};
use amp_math::pld::{Estimate, PldPair};
use amp_math::Relation;

use super::group_digits;
use super::training::{cached_band, setting, Training};
use super::{log_range, Axis, Chart, ChartError, ChartResult, LegendCorner, Marker, Role, Series};
use crate::format::short_number;
use crate::param as p;
use crate::params::Batching;
use crate::params::ParamValues;
use amp_math::pld;

/// The relation the three samplers are compared on.
pub const RELATION: Relation = Relation::ZeroOut;

/// The log-grid step of the balls-in-bins sums while the controls move, and once they rest: the
/// bracket of one epoch is about g·log₂T wide in the loss.
pub const QUICK_LOG_STEP: f64 = 8e-3;
/// See [`QUICK_LOG_STEP`].
pub const FINE_LOG_STEP: f64 = 1e-3;
/// The log-grid step of `batching-comparison`'s balls-in-bins bands (before its work budget).
const COMPARISON_LOG_STEP: f64 = 4e-3;
/// The Poisson accountant's budget for a calibration to a target (the training page's refined one).
const FINE_BUCKETS: usize = super::training::FINE;
/// Work budget of one balls-in-bins PLD (`amp_math::batching::allocation_work`; about a second
/// natively): a small σ or many steps per epoch coarsen the grid to stay within it.
pub const WORK_BUDGET: f64 = 1.2e9;

/// The log-grid step used for balls in bins: the requested one, coarsened to the work budget.
/// The requested step is divided by σ when σ > 1 (the loss, and so the rounding it can bear,
/// shrinks as the noise grows).
pub fn log_step_for(sigma: f64, steps_per_epoch: u64, requested: f64) -> f64 {
    log_step_within(sigma, steps_per_epoch, requested, WORK_BUDGET)
}

/// [`log_step_for`] within another work budget.
pub fn log_step_within(sigma: f64, steps_per_epoch: u64, requested: f64, budget: f64) -> f64 {
    let wanted = requested / sigma.max(1.0);
    amp_math::batching::affordable_log_step(sigma, steps_per_epoch, wanted, budget).max(1e-5)
}

/// Work budget of the balls-in-bins PLD of the comparison figure.
const COMPARISON_BUDGET: f64 = 2e8;

/// Work budget of each balls-in-bins evaluation inside the noise figure's calibrations.
const NOISE_FIGURE_BUDGET: f64 = 1e7;

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
    // Epochs as the reader gave them (the page's steps are rounded from them), else steps / T;
    // within 1% of a whole number counts as that number.
    let mut e = if t.by_epochs {
        t.epochs()
    } else {
        t.steps as f64 / steps_per_epoch as f64
    };
    if (e - e.round()).abs() <= 0.01 * e.round() {
        e = e.round();
    }
    Epochs {
        steps_per_epoch,
        upper: (e.ceil() as u64).max(1),
        lower: (e.floor() as u64).max(1),
    }
}

/// Slices of the largest batch sum and loss-grid step of the reshuffled lower bound once the
/// controls rest (as [`amp_math::batching::reshuffled_lower_epsilon`]).
const LOWER_SLICES: usize = 20_000;
/// See [`LOWER_SLICES`].
const LOWER_STEP: f64 = 1e-4;
/// The same while a control moves: a tenth of the slices on a ten times coarser grid (about ten
/// times faster; still a valid, slightly weaker, lower bound).
const QUICK_LOWER: (usize, f64) = (2_000, 1e-3);

/// (slices, grid step) of the shuffle lower bound, quick or refined.
fn lower_grid(quick: bool) -> (usize, f64) {
    if quick {
        QUICK_LOWER
    } else {
        (LOWER_SLICES, LOWER_STEP)
    }
}

/// The last few (key, value) pairs of one expensive function.
type Memo<K, V> = RefCell<Vec<(K, Rc<V>)>>;

/// Remembers the last few values of an expensive function of a key (the readouts, the attacker
/// numbers and the CLI ask for the same ones).
fn remembered<K: PartialEq + Copy + 'static, V: 'static>(
    cache: &'static std::thread::LocalKey<Memo<K, V>>,
    key: K,
    make: impl FnOnce() -> Result<V, String>,
) -> Result<Rc<V>, String> {
    if let Some(hit) = cache.with(|c| {
        c.borrow()
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.clone())
    }) {
        return Ok(hit);
    }
    let v = Rc::new(make()?);
    cache.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= 4 {
            c.remove(0);
        }
        c.push((key, v.clone()));
    });
    Ok(v)
}

/// Reshuffled shuffling's lower-bound PLDs (Chua et al.'s pair through the largest batch sum,
/// composed over the rounded-down epochs) with `slices` slices on a loss grid of step `step`,
/// remembered.
pub fn shuffle_lower_pair(
    sigma: f64,
    e: Epochs,
    slices: usize,
    step: f64,
) -> Result<Rc<PldPair>, String> {
    type Entry = ((u64, u64, u64, usize, u64), Rc<PldPair>);
    thread_local! {
        static CACHE: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
    }
    let key = (
        sigma.to_bits(),
        e.steps_per_epoch,
        e.lower,
        slices,
        step.to_bits(),
    );
    remembered(&CACHE, key, || {
        reshuffled_lower_pair(sigma, e.steps_per_epoch, e.lower, slices, step)
            .map_err(|x| x.to_string())
    })
}

/// Shuffled fixed-size batches, reshuffled every epoch: the deterministic-batches upper bound
/// (analytic Gaussian at μ = √E/σ) and Chua et al.'s reshuffled lower bound (`quick`: on the
/// coarser grid used while a control moves).
pub fn shuffle_band(sigma: f64, e: Epochs, delta: f64, quick: bool) -> Result<Band, String> {
    let upper = deterministic_epsilon(sigma, e.upper, Neighbours::ZeroOut, delta)
        .map_err(|x| x.to_string())?;
    let (slices, step) = lower_grid(quick);
    let lower = shuffle_lower_pair(sigma, e, slices, step)?
        .epsilon_for_delta(delta)
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
    type Entry = ((u64, u64, u64), Rc<(PldPair, PldPair)>);
    thread_local! {
        static CACHE: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
    }
    let key = (sigma.to_bits(), steps_per_epoch, log_step.to_bits());
    remembered(&CACHE, key, || {
        let up = allocation_pld(sigma, steps_per_epoch, log_step, Estimate::Pessimistic)
            .map_err(|x| x.to_string())?;
        let lo = allocation_pld(sigma, steps_per_epoch, log_step, Estimate::Optimistic)
            .map_err(|x| x.to_string())?;
        Ok((up, lo))
    })
}

/// Balls in bins over the whole run as (pessimistic PLDs composed over the rounded-up epochs,
/// optimistic ones over the rounded-down epochs), remembered. `log_step` as given (already
/// through [`log_step_for`]).
pub fn balls_pairs(sigma: f64, e: Epochs, log_step: f64) -> Result<Rc<(PldPair, PldPair)>, String> {
    type Entry = ((u64, u64, u64, u64, u64), Rc<(PldPair, PldPair)>);
    thread_local! {
        static CACHE: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
    }
    let key = (
        sigma.to_bits(),
        e.steps_per_epoch,
        log_step.to_bits(),
        e.upper,
        e.lower,
    );
    remembered(&CACHE, key, || {
        let one = allocation_plds(sigma, e.steps_per_epoch, log_step)?;
        let over = |pld: &PldPair, epochs: u64| -> Result<PldPair, String> {
            if epochs == 1 {
                Ok(pld.clone())
            } else {
                pld.self_compose(epochs).map_err(|x| x.to_string())
            }
        };
        Ok((over(&one.0, e.upper)?, over(&one.1, e.lower)?))
    })
}

/// ε at δ of one epoch's PLD composed over `epochs` epochs.
fn epsilon_after(pld: &PldPair, epochs: u64, delta: f64) -> Result<f64, String> {
    let eps = if epochs == 1 {
        pld.epsilon_for_delta(delta)
    } else {
        pld.self_compose(epochs)
            .and_then(|all| all.epsilon_for_delta(delta))
    };
    eps.map_err(|x| x.to_string())
}

/// Balls-in-bins: the exact pair's PLD bracketed by rounding up and down, composed over the epochs
/// (the upper bound at the rounded-up count, the lower at the rounded-down one).
pub fn balls_band(sigma: f64, e: Epochs, delta: f64, log_step: f64) -> Result<Band, String> {
    let log_step = log_step_for(sigma, e.steps_per_epoch, log_step);
    let pairs = balls_pairs(sigma, e, log_step)?;
    let upper = pairs
        .0
        .epsilon_for_delta(delta)
        .map_err(|x| x.to_string())?;
    let lower = pairs
        .1
        .epsilon_for_delta(delta)
        .map_err(|x| x.to_string())?;
    Ok(Band {
        lower: lower.min(upper),
        upper,
    })
}

/// The membership attacker against the reader's loop as its sampler forms batches: the
/// certified (upper) and the reachable (lower) PLDs of the whole run, zero-out. Poisson: the
/// training page's composed band. Shuffle: upper, the Gaussian mechanism at μ = √E/σ (every
/// fixed order gives exactly this trade-off, and a shuffled run is a mixture of fixed orders
/// chosen independently of the data), discretised pessimistically; lower, Chua et al.'s pair
/// through the largest batch sum ([`shuffle_lower_pair`]). Balls in bins: [`balls_pairs`].
pub fn attack_pairs(
    batching: Batching,
    t: &Training,
    buckets: usize,
    log_step: f64,
    quick: bool,
) -> Result<(f64, PldPair, PldPair), String> {
    match batching {
        Batching::Poisson => {
            let band = cached_band(t, buckets)?;
            Ok((band.step, band.upper.clone(), band.lower.clone()))
        }
        Batching::Shuffle => {
            let sigma = gaussian_sigma(t)?;
            let e = epochs(t);
            let mu =
                deterministic_mu(sigma, e.upper, Neighbours::ZeroOut).map_err(|x| x.to_string())?;
            // One grid for both (the trade-off needs it): the lower bound's own step unless the
            // Gaussian's loss range needs a coarser one within the budget.
            let (slices, lower_step) = lower_grid(quick);
            let noise = pld::Noise::Gaussian(1.0 / mu);
            let step = pld::step_for_budget(noise, 1.0, 1, buckets)
                .map_err(|x| x.to_string())?
                .max(lower_step);
            let upper = pld::poisson_gaussian(1.0 / mu, 1.0, step, Estimate::Pessimistic)
                .map_err(|x| x.to_string())?;
            let lower = shuffle_lower_pair(sigma, e, slices, step)?;
            Ok((step, upper, (*lower).clone()))
        }
        Batching::BallsInBins => {
            let sigma = gaussian_sigma(t)?;
            let e = epochs(t);
            let g = log_step_for(sigma, e.steps_per_epoch, log_step);
            let pairs = balls_pairs(sigma, e, g)?;
            Ok((pairs.0.remove.step, pairs.0.clone(), pairs.1.clone()))
        }
    }
}

/// Poisson sampling at q = B/|x| for the run's steps, from the training page's composed band.
pub fn poisson_band(t: &Training, buckets: usize) -> Result<Band, String> {
    let band = cached_band(t, buckets)?;
    let (upper, lower) = band.epsilon(t.delta).map_err(|x| x.to_string())?;
    Ok(Band { lower, upper })
}

/// The band of the sampler the reader's loop uses.
/// `quick`: the shuffle lower bound on the coarser grid used while a control moves (the others
/// follow `buckets` and `log_step`).
pub fn band_for(
    batching: Batching,
    t: &Training,
    buckets: usize,
    log_step: f64,
    quick: bool,
) -> Result<Band, String> {
    match batching {
        Batching::Poisson => poisson_band(t, buckets),
        Batching::Shuffle => shuffle_band(gaussian_sigma(t)?, epochs(t), t.delta, quick),
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

/// Whole epochs drawn by `batching-comparison`: up to 12 counts from 1 to twice the reader's
/// (at least 4), equally spaced and distinct.
fn epoch_counts(reader: u64) -> Vec<u64> {
    let top = (2 * reader).max(4);
    let mut v: Vec<u64> = (1..=12u64)
        .map(|i| ((top as f64 * i as f64 / 12.0).round() as u64).max(1))
        .collect();
    v.dedup();
    v
}

/// `batching-comparison`: ε at δ against whole epochs for the three samplers at the reader's σ,
/// |x| and B (zero-out, sensitivity 1), each as a band with its certified upper line; log y axis.
pub fn comparison(values: &ParamValues) -> ChartResult {
    let t = setting(values)?;
    let sigma = gaussian_sigma(&t)?;
    let e = epochs(&t);
    let counts = epoch_counts(e.upper);
    let tt = e.steps_per_epoch;
    // Poisson: one PLD, composed for every count's steps at once.
    let ks: Vec<u64> = counts.iter().map(|&c| c * tt).collect();
    let k_max = *ks.last().unwrap_or(&1);
    let h = pld::step_for_budget(t.noise, t.q, k_max, super::training::FIGURE)?;
    let many = |est| {
        t.noise
            .poisson(t.q, h, est)
            .and_then(|p| p.self_compose_many(&ks))
            .map_err(|x| x.to_string())
    };
    let (p_up, p_lo) = (many(Estimate::Pessimistic)?, many(Estimate::Optimistic)?);
    let g = log_step_within(sigma, tt, COMPARISON_LOG_STEP, COMPARISON_BUDGET);
    let plds = allocation_plds(sigma, tt, g)?;
    let b_up = plds
        .0
        .self_compose_many(&counts)
        .map_err(|x| x.to_string())?;
    let b_lo = plds
        .1
        .self_compose_many(&counts)
        .map_err(|x| x.to_string())?;
    let mut bands: [Vec<(f64, f64, f64)>; 3] = Default::default();
    let mut why: Option<String> = None;
    let mut push =
        |i: usize, x: f64, lo: Result<f64, String>, up: Result<f64, String>| match (lo, up) {
            (Ok(l), Ok(u)) if u > 0.0 && u.is_finite() => bands[i].push((x, l.clamp(0.0, u), u)),
            (Err(e), _) | (_, Err(e)) => {
                why.get_or_insert(e);
            }
            _ => {}
        };
    let err = |x: amp_math::MathError| x.to_string();
    for (j, &c) in counts.iter().enumerate() {
        let x = c as f64;
        push(
            0,
            x,
            p_lo[j].epsilon_for_delta(t.delta).map_err(err),
            p_up[j].epsilon_for_delta(t.delta).map_err(err),
        );
        push(
            1,
            x,
            // Coarser than the readouts (4,000 slices, loss grid 1e-3, at most 100 epochs, fewer
            // epochs only lose privacy loss): still a lower bound.
            reshuffled_lower_epsilon_at(sigma, tt, c.min(100), t.delta, 4_000, 1e-3).map_err(err),
            deterministic_epsilon(sigma, c, Neighbours::ZeroOut, t.delta).map_err(err),
        );
        push(
            2,
            x,
            b_lo[j].epsilon_for_delta(t.delta).map_err(err),
            b_up[j].epsilon_for_delta(t.delta).map_err(err),
        );
    }
    if bands.iter().all(|b| b.len() < 2) {
        return Err(ChartError::NotApplicable(why.unwrap_or_else(|| {
            "at this noise and δ, ε = 0 for every sampler (δ already covers the whole \
             privacy loss), which a log axis cannot show"
                .into()
        })));
    }
    // The y range from the upper bounds, down to a hundredth of the smallest (lower bounds
    // below it are drawn at the axis).
    let uppers: Vec<f64> = bands.iter().flatten().map(|b| b.2).collect();
    let (lo_up, hi) = log_range(uppers.iter());
    let lows: Vec<f64> = bands
        .iter()
        .flatten()
        .map(|b| b.1)
        .filter(|&l| l >= lo_up / 100.0)
        .collect();
    let lo = lows.iter().copied().fold(lo_up, f64::min);
    let top = *counts.last().unwrap_or(&4) as f64;
    let names = [
        "Poisson sampling (q = B/|x|)",
        "shuffled fixed-size batches",
        "balls in bins",
    ];
    let at = |i: usize| {
        bands[i]
            .iter()
            .find(|b| b.0 == e.upper as f64)
            .map(|b| format!("{}–{}", short_number(b.1, 3), short_number(b.2, 3)))
            .unwrap_or_else(|| "—".into())
    };
    let mut c = Chart::new(
        Axis::numeric("epochs", false, 0.0, top),
        Axis::numeric(
            format!("ε at δ = {} (zero-out)", short_number(t.delta, 3)),
            true,
            lo / 1.5,
            hi * 3.0,
        ),
        LegendCorner::LowerRight,
        format!(
            "ε at δ = {} against epochs for σ = {}, |x| = {}, B = {} (T = {} steps per epoch), all \
             on the zero-out relation; solid: certified upper bound, dashed: lower bound. At {} \
             epochs: Poisson sampling {}, shuffling {}, balls in bins {} (balls in bins on a \
             log-grid step of {}).",
            short_number(t.delta, 3),
            short_number(sigma, 4),
            group_digits(t.dataset),
            group_digits(t.batch),
            group_digits(tt),
            e.upper,
            at(0),
            at(1),
            at(2),
            short_number(g, 2)
        ),
    );
    let floor = lo / 1.5;
    for (i, band) in bands.iter().enumerate() {
        c.series.push(Series {
            label: format!("{}: upper bound", names[i]),
            points: band.iter().map(|b| (b.0, b.2)).collect(),
            role: Role::Family(i),
        });
        c.series.push(Series {
            label: format!("{}: lower bound", names[i]),
            points: band.iter().map(|b| (b.0, b.1.max(floor))).collect(),
            role: Role::Bound(i),
        });
    }
    let chosen = values.choice(p::BATCHING) as usize;
    if let Some(b) = bands[chosen].iter().find(|b| b.0 == e.upper as f64) {
        c.markers.push(Marker {
            x: b.0,
            y: b.2,
            label: format!("your loop: ε ≤ {}", short_number(b.2, 3)),
        });
    }
    Ok(c)
}

/// σ whose ε at δ (from `eps`, increasing as σ falls) is at most `target`, by bisection on log σ
/// in [lo, hi] (widened to [0.1, 1,000] if the bracket fails) to a relative 1% (a figure's
/// resolution); `None` if even σ = 1,000 does not reach it.
fn sigma_for(
    eps: impl Fn(f64) -> Result<f64, String>,
    target: f64,
    lo: f64,
    hi: f64,
) -> Option<f64> {
    sigma_within(eps, target, lo, hi, 0.01)
}

/// [`sigma_for`] to relative accuracy `rel` (the σ returned meets the target; σ/(1 + rel) may not).
fn sigma_within(
    eps: impl Fn(f64) -> Result<f64, String>,
    target: f64,
    lo: f64,
    hi: f64,
    rel: f64,
) -> Option<f64> {
    let fits = |s: f64| eps(s).map(|e| e <= target).unwrap_or(false);
    let (mut lo, mut hi) = (lo.max(0.1), hi.min(1000.0));
    if !fits(hi) {
        (lo, hi) = (hi, 1000.0);
        if !fits(hi) {
            return None;
        }
    }
    if fits(lo) {
        (lo, hi) = (0.1, lo);
        if fits(lo) {
            return Some(lo);
        }
    }
    while hi / lo > 1.0 + rel {
        let mid = (lo * hi).sqrt();
        if fits(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// `batching-noise`: the noise multiplier σ each sampler needs for the reader's target ε at δ,
/// against the batch size B (|x| and the epochs fixed; log axes). Certified: σ from each upper
/// bound; the shuffle's lower bound also gives the σ below which no analysis can help.
pub fn noise(values: &ParamValues) -> ChartResult {
    let t = setting(values)?;
    gaussian_sigma(&t)?;
    let target = values.real(p::TARGET_EPS);
    let e = epochs(&t);
    let n = t.dataset;
    let b_lo = (t.batch / 16).max(1);
    let b_hi = (t.batch * 16).min(n);
    let bs: Vec<u64> = {
        let mut v: Vec<u64> = super::log_grid(b_lo as f64, b_hi as f64, 5)
            .into_iter()
            .map(|b| b.round() as u64)
            .collect();
        v.dedup();
        v
    };
    let mut lines: [Vec<(f64, f64)>; 4] = Default::default();
    for &b in &bs {
        let steps_per_epoch = ((n as f64 / b as f64).round() as u64).max(1);
        let q = b as f64 / n as f64;
        let steps = e.upper * steps_per_epoch;
        let x = b as f64;
        // Fixed batches first (closed form): the others need at most a few times its σ.
        let shuffle = sigma_for(
            |s| {
                deterministic_epsilon(s, e.upper, Neighbours::ZeroOut, t.delta)
                    .map_err(|x| x.to_string())
            },
            target,
            0.1,
            1000.0,
        );
        let (lo, hi) = shuffle.map_or((0.1, 1000.0), |s| (s / 30.0, s * 1.5));
        let poisson = sigma_for(
            |s| {
                let noise = amp_math::pld::Noise::Gaussian(s);
                let h = pld::step_for_budget(noise, q, steps, super::training::CALIBRATION)
                    .map_err(|x| x.to_string())?;
                noise
                    .upper_epsilon(q, steps, t.delta, h)
                    .map_err(|x| x.to_string())
            },
            target,
            lo,
            hi,
        );
        let shuffle_needs = sigma_for(
            |s| {
                // Coarser slices and grid than the readouts: still a lower bound.
                reshuffled_lower_epsilon_at(s, steps_per_epoch, e.lower, t.delta, 2_000, 1e-3)
                    .map_err(|x| x.to_string())
            },
            target,
            lo,
            hi,
        );
        // Balls in bins needs about Poisson's σ: search near it first (the search widens itself
        // when the answer is outside), with the certified PLD only.
        let (b_lo, b_hi) = poisson.map_or((lo, hi), |p| ((p / 2.0).max(lo), (p * 2.0).min(hi)));
        let balls = sigma_for(
            |s| {
                let g = log_step_within(s, steps_per_epoch, 8e-3, NOISE_FIGURE_BUDGET);
                let up = allocation_pld(s, steps_per_epoch, g, Estimate::Pessimistic)
                    .map_err(|x| x.to_string())?;
                epsilon_after(&up, e.upper, t.delta)
            },
            target,
            b_lo,
            b_hi,
        );
        for (i, s) in [poisson, shuffle, balls, shuffle_needs]
            .into_iter()
            .enumerate()
        {
            if let Some(s) = s {
                lines[i].push((x, s));
            }
        }
    }
    let all: Vec<f64> = lines.iter().flatten().map(|p| p.1).collect();
    if all.is_empty() {
        return Err(ChartError::NotApplicable(format!(
            "no σ up to 1,000 reaches ε = {} here",
            short_number(target, 3)
        )));
    }
    let (lo, hi) = log_range(all.iter());
    let mut c = Chart::new(
        Axis::numeric("batch size B", true, b_lo as f64, b_hi as f64),
        Axis::numeric("noise multiplier σ", true, lo / 1.3, hi * 1.3),
        LegendCorner::UpperLeft,
        format!(
            "The noise multiplier σ each sampler needs for ε ≤ {} at δ = {} over {} epochs of |x| = \
             {} examples, against the batch size (zero-out; certified upper bounds, and for \
             shuffling also the σ below which its lower bound already exceeds the target).",
            short_number(target, 3),
            short_number(t.delta, 3),
            e.upper,
            group_digits(n)
        ),
    );
    let chosen = values.choice(p::BATCHING) as usize;
    let labels = [
        "Poisson sampling",
        "shuffled batches (enough)",
        "balls in bins",
        "shuffled batches (needed at least)",
    ];
    for (i, pts) in lines.into_iter().enumerate() {
        let family = if i == 3 { 1 } else { i };
        c.series.push(Series {
            label: labels[i].into(),
            points: pts,
            role: if i == 3 {
                Role::Bound(1)
            } else if family == chosen {
                Role::Highlight
            } else {
                Role::Family(family)
            },
        });
    }
    c.markers.push(Marker {
        x: t.batch as f64,
        y: gaussian_sigma(&t)?,
        label: format!("you: σ = {}", short_number(gaussian_sigma(&t)?, 3)),
    });
    Ok(c)
}

/// The noise multiplier for a target ε at δ with a sampler, for the run's |x|, B and length:
/// (σ whose certified upper bound meets the target, σ below which the sampler's lower bound
/// already exceeds it, if known), each to relative accuracy `rel` between 0.1 and 1,000. Balls in
/// bins at the log-grid step the readouts use for each σ.
pub fn sigma_for_target(
    batching: Batching,
    t: &Training,
    target: f64,
    log_step: f64,
    rel: f64,
) -> Result<(f64, Option<f64>), String> {
    let e = epochs(t);
    let tt = e.steps_per_epoch;
    let delta = t.delta;
    let det = |s: f64| {
        deterministic_epsilon(s, e.upper, Neighbours::ZeroOut, delta).map_err(|x| x.to_string())
    };
    let none = || format!("no σ between 0.1 and 1,000 meets ε ≤ {target}");
    // Fixed batches bound every sampler here from above except Poisson; bracket around them.
    let fixed = sigma_within(det, target, 0.1, 1000.0, rel).ok_or_else(none)?;
    let (lo, hi) = (fixed / 30.0, fixed * 1.5);
    match batching {
        Batching::Poisson => {
            let s = super::training::calibrate(t, t.q, t.steps, target, FINE_BUCKETS, rel)?;
            Ok((s, None))
        }
        Batching::Shuffle => {
            let needs = sigma_within(
                |s| reshuffled_lower_epsilon(s, tt, e.lower, delta).map_err(|x| x.to_string()),
                target,
                lo,
                hi,
                rel,
            );
            Ok((fixed, needs))
        }
        Batching::BallsInBins => {
            let at = |s: f64, upper: bool| -> Result<f64, String> {
                let plds = allocation_plds(s, tt, log_step_for(s, tt, log_step))?;
                let (pld, k) = if upper {
                    (&plds.0, e.upper)
                } else {
                    (&plds.1, e.lower)
                };
                epsilon_after(pld, k, delta)
            };
            let enough = sigma_within(|s| at(s, true), target, lo, hi, rel).ok_or_else(none)?;
            let needs = sigma_within(|s| at(s, false), target, lo, enough, rel);
            Ok((enough, needs))
        }
    }
}
