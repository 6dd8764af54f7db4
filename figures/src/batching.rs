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

use amp_math::accounting::{calibrate, Search};
use amp_math::batching::{deterministic_epsilon, reshuffled_lower_epsilon_at, Neighbours};
use amp_math::pld::{self, Estimate, Noise};

use super::group_digits;
use super::{log_range, Axis, Chart, ChartResult, LegendCorner, Marker, ModelError, Role, Series};
use amp_format::short_number;
use amp_model::batching::{allocation_plds, epochs, gaussian_sigma, log_step_within};
use amp_model::memo::{remembered, Slot};
use amp_model::param as p;
use amp_model::params::ParamValues;
use amp_model::training::{setting, CALIBRATION, FIGURE, FIRST_PHASE_ONLY};

/// The log-grid step of `batching-comparison`'s balls-in-bins bands (before its work budget).
const COMPARISON_LOG_STEP: f64 = 4e-3;
/// Work budget of the balls-in-bins PLD of the comparison figure.
const COMPARISON_BUDGET: f64 = 2e8;
/// Work budget of each balls-in-bins evaluation inside the noise figure's calibrations.
const NOISE_FIGURE_BUDGET: f64 = 1e7;
/// The longest epoch (steps) and run (epochs) for which `batching-noise` calibrates balls in bins.
/// Its grid's work model counts the sums, not their spread, which grows with the steps per epoch:
/// one calibration took 20–50 s at |x| = 10⁹ (6·10⁷ steps per epoch at B = 16) and 50 s at 10⁶
/// epochs, against milliseconds at the defaults, and a figure calibrates five batch sizes.
const NOISE_BALLS_MAX_STEPS_PER_EPOCH: u64 = 1_000_000;
const NOISE_BALLS_MAX_EPOCHS: u64 = 10_000;

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

/// One sampler's band: (epochs, lower bound, upper bound) per epoch count.
type Band = Vec<(f64, f64, f64)>;

/// The three samplers' bands for `batching-comparison` at each epoch count: (epochs, lower,
/// upper) per sampler, the first reason a point could not be computed, and the balls-in-bins
/// log-grid step used.
fn comparison_bands(
    t: &amp_model::training::Training,
    sigma: f64,
    tt: u64,
    counts: &[u64],
) -> Result<([Band; 3], Option<String>, f64), ModelError> {
    // Poisson: one PLD, composed for every count's steps at once.
    let ks: Vec<u64> = counts.iter().map(|&c| c * tt).collect();
    let k_max = *ks.last().unwrap_or(&1);
    let h = pld::step_for_budget(t.noise, t.q, k_max, FIGURE)?;
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
        .self_compose_many(counts)
        .map_err(|x| x.to_string())?;
    let b_lo = plds
        .1
        .self_compose_many(counts)
        .map_err(|x| x.to_string())?;
    let mut bands: [Band; 3] = Default::default();
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
    Ok((bands, why, g))
}

/// `batching-comparison`: ε at δ against whole epochs for the three samplers at the reader's σ,
/// |x| and B (zero-out, sensitivity 1), each as a band with its certified upper line; log y axis.
pub fn comparison(values: &ParamValues) -> ChartResult {
    let t = setting(values)?;
    t.check_records(Some(amp_model::params::Batching::Shuffle))?;
    let sigma = gaussian_sigma(&t)?;
    let e = epochs(&t);
    let counts = epoch_counts(e.upper);
    let tt = e.steps_per_epoch;
    let (bands, why, g) = comparison_bands(&t, sigma, tt, &counts)?;
    if bands.iter().all(|b| b.len() < 2) {
        return Err(ModelError::NotApplicable(why.unwrap_or_else(|| {
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
    let chosen = drawn_sampler(values);
    if let Some(b) = chosen.and_then(|i| bands[i].iter().find(|b| b.0 == e.upper as f64)) {
        c.markers.push(Marker {
            x: b.0,
            y: b.2,
            label: format!("your loop: ε ≤ {}", short_number(b.2, 3)),
        });
    }
    if t.is_phased() {
        c.notes.push(FIRST_PHASE_ONLY.into());
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
    calibrate(
        |s| eps(s).map_err(|reason| amp_math::MathError::NoSolution { reason }),
        target,
        Search::Bracketed { lo, hi, rel: 0.01 },
    )
    .ok()
}

/// `batching-noise`: the noise multiplier σ each sampler needs for the reader's target ε at δ,
/// against the batch size B (|x| and the epochs fixed; log axes). Certified: σ from each upper
/// bound; the shuffle's lower bound also gives the σ below which no analysis can help.
pub fn noise(values: &ParamValues) -> ChartResult {
    let t = setting(values)?;
    t.check_records(Some(amp_model::params::Batching::Shuffle))?;
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
    let (lines, balls_left_out) = noise_lines(&t, &e, target, &bs);
    let all: Vec<f64> = lines.iter().flatten().map(|p| p.1).collect();
    // A line needs two batch sizes to be drawn; a lone point is no curve.
    if lines.iter().all(|l| l.len() < 2) {
        return Err(ModelError::NotApplicable(format!(
            "no σ up to 1,000 reaches ε = {} at more than one batch size here",
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
    let chosen = drawn_sampler(values);
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
            } else if Some(family) == chosen {
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
    if balls_left_out {
        c.notes.push(format!(
            "Balls in bins is drawn where an epoch has at most {} steps and the run at most {} \
             epochs: beyond, each of its points would take minutes to calibrate.",
            group_digits(NOISE_BALLS_MAX_STEPS_PER_EPOCH),
            group_digits(NOISE_BALLS_MAX_EPOCHS)
        ));
    }
    if t.is_phased() {
        c.notes.push(FIRST_PHASE_ONLY.into());
    }
    Ok(c)
}

/// The four lines of `batching-noise` (Poisson, shuffled enough, balls in bins, shuffled needed
/// at least: (B, σ) where some σ up to 1,000 reaches the target) and whether balls in bins was
/// left out anywhere. Remembered for the last few runs: the reader's σ, sampler and mechanism
/// only move the marker and the highlight, and they should not calibrate every line again.
fn noise_lines(
    t: &amp_model::training::Training,
    e: &amp_model::batching::Epochs,
    target: f64,
    bs: &[u64],
) -> NoiseLines {
    type Key = (u64, u64, u64, u64, u64, u64, Vec<u64>);
    thread_local! {
        static SLOT: Slot<Key, NoiseLines> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let key = (
        t.dataset,
        e.steps_per_epoch,
        e.upper,
        e.lower,
        target.to_bits(),
        t.delta.to_bits(),
        bs.to_vec(),
    );
    let made = remembered(&SLOT, key, || {
        let mut lines: [Vec<(f64, f64)>; 4] = Default::default();
        let mut balls_left_out = false;
        for &b in bs {
            let (sigmas, balls_drawn) = noise_at_batch(t, e, target, b);
            balls_left_out |= !balls_drawn;
            for (i, s) in sigmas.into_iter().enumerate() {
                if let Some(s) = s {
                    lines[i].push((b as f64, s));
                }
            }
        }
        Ok::<_, std::convert::Infallible>((lines, balls_left_out))
    });
    match made {
        Ok(rc) => (*rc).clone(),
        Err(never) => match never {},
    }
}

/// What [`noise_lines`] returns.
type NoiseLines = ([Vec<(f64, f64)>; 4], bool);

/// One batch size of `batching-noise`: the σ of Poisson sampling, shuffled batches (enough),
/// balls in bins and shuffled batches (needed at least), each `None` where no σ up to 1,000
/// reaches the target; and whether balls in bins was calibrated at all (its size limits).
fn noise_at_batch(
    t: &amp_model::training::Training,
    e: &amp_model::batching::Epochs,
    target: f64,
    b: u64,
) -> ([Option<f64>; 4], bool) {
    let n = t.dataset;
    let steps_per_epoch = ((n as f64 / b as f64).round() as u64).max(1);
    let q = b as f64 / n as f64;
    let steps = e.upper * steps_per_epoch;
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
            let noise = Noise::Gaussian(s);
            let h =
                pld::step_for_budget(noise, q, steps, CALIBRATION).map_err(|x| x.to_string())?;
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
    // when the answer is outside), with the certified PLD only; never more than the fixed
    // batches' σ (the closed form above): balls in bins is the fixed schedule with its steps
    // in a random order the attacker does not see, a post-processing of it.
    let (b_lo, b_hi) = poisson.map_or((lo, hi), |p| ((p / 2.0).max(lo), (p * 2.0).min(hi)));
    let b_hi = shuffle.map_or(b_hi, |s| b_hi.min(s));
    let b_lo = b_lo.min(b_hi);
    let balls_drawn =
        steps_per_epoch <= NOISE_BALLS_MAX_STEPS_PER_EPOCH && e.upper <= NOISE_BALLS_MAX_EPOCHS;
    let balls = if balls_drawn {
        sigma_for(
            |s| {
                let g = log_step_within(s, steps_per_epoch, 8e-3, NOISE_FIGURE_BUDGET);
                let up = amp_math::batching::allocation_pld(
                    s,
                    steps_per_epoch,
                    g,
                    Estimate::Pessimistic,
                )
                .map_err(|x| x.to_string())?;
                let all = if e.upper == 1 {
                    up
                } else {
                    up.self_compose(e.upper).map_err(|x| x.to_string())?
                };
                all.epsilon_for_delta(t.delta).map_err(|x| x.to_string())
            },
            target,
            b_lo,
            b_hi,
        )
    } else {
        None
    };
    ([poisson, shuffle, balls, shuffle_needs], balls_drawn)
}

/// Which of the three drawn samplers (Poisson, shuffled, balls in bins) is the reader's own, if
/// one is: capped Poisson batches are drawn as Poisson's; random allocation is not drawn here.
fn drawn_sampler(values: &ParamValues) -> Option<usize> {
    use amp_model::params::Batching;
    match values.choice::<Batching>(p::BATCHING) {
        Batching::Poisson | Batching::TruncatedPoisson => Some(0),
        Batching::Shuffle => Some(1),
        Batching::BallsInBins => Some(2),
        Batching::Allocation => None,
    }
}
