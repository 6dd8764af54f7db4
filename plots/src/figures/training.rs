//! Figures and readouts of the training page: tight (ε, δ) accounting of DP-SGD with privacy loss
//! distributions ([`amp_math::pld`]), beside Rényi DP, for Poisson-sampled batches under
//! add/remove-one-example neighbours (seed 001's machine-learning regime; issue 6).
//!
//! Cost is bounded by a budget of FFT buckets per composition rather than by a fixed grid step
//! ([`pld::step_for_budget`]): what follows a slider uses [`QUICK`], the numbers shown once the
//! controls rest use [`FINE`]. A coarser grid never makes the upper bound invalid, only the band
//! between the two bounds wider, and the band is always shown.

use std::cell::RefCell;
use std::rc::Rc;

use amp_math::limits::noise_ratio;
use amp_math::pld::{self, Estimate, Noise};
use amp_math::rdp::{
    self, epsilon_for_delta_over_steps, Conversion, Converted, Curve, Mechanism, Sampling,
};

use super::renyi::{drawn_rdp_delta, step_curve, RdpSetting};
use super::{
    group_digits, log_grid, log_range, Axis, Band, Chart, ChartError, ChartResult, LegendCorner,
    Marker, Role, Series,
};
use crate::format::short_number;
use crate::param as p;
use crate::params::{Batching, Length, Mechanism as MechanismChoice, ParamValues};

/// FFT buckets per composition for numbers that follow a slider (about 10 ms natively). Budgets
/// are 90% of a power of two, so that the Chernoff window's slack does not double the transform.
pub const QUICK: usize = 29_500;
/// FFT buckets per composition for the refined numbers (grid step about [`pld::DEFAULT_STEP`]
/// for DP-SGD runs of about 2,000–10,000 steps at ε ≈ 7; finer for smaller ε).
pub const FINE: usize = 236_000;
/// Budget per composition in the ε-against-epochs figure (one forward transform, one inverse per
/// point).
pub(crate) const FIGURE: usize = 14_700;
/// Budget per evaluation inside a calibration for a figure (many evaluations per point).
pub(crate) const CALIBRATION: usize = 1_840;
/// Most steps the page accounts for.
pub const MAX_STEPS: u64 = 1_000_000_000;

/// The reader's training run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Training {
    /// The noise added to the clipped gradient sum (sensitivity 1).
    pub noise: Noise,
    /// Sampling rate q = B/|x|.
    pub q: f64,
    /// Steps k.
    pub steps: u64,
    /// δ.
    pub delta: f64,
    /// |x|.
    pub dataset: u64,
    /// B (expected batch size).
    pub batch: u64,
    /// Whether the length was given in epochs (else in steps).
    pub by_epochs: bool,
    /// How the loop forms its batches (the tight PLD numbers are for Poisson sampling; the other
    /// samplers have their own bands, `figures::batching`).
    pub batching: Batching,
}

impl Training {
    /// Epochs the steps make: k·q.
    pub fn epochs(&self) -> f64 {
        self.steps as f64 * self.q
    }

    /// The Rényi DP view of the same mechanism.
    pub fn rdp_setting(&self) -> RdpSetting {
        RdpSetting {
            mech: mechanism(self.noise),
            sampling: Sampling::Poisson { q: self.q },
            sizes: None,
        }
    }

    /// The noise in words: "Gaussian noise, σ = 1.1".
    pub fn noise_label(&self) -> String {
        match self.noise {
            Noise::Gaussian(s) => format!("Gaussian noise, σ = {}", short_number(s, 4)),
            Noise::Laplace(b) => format!("Laplace noise, b = {}", short_number(b, 4)),
        }
    }
}

fn mechanism(noise: Noise) -> Mechanism {
    match noise {
        Noise::Gaussian(sigma) => Mechanism::Gaussian { sigma },
        Noise::Laplace(scale) => Mechanism::Laplace { scale },
    }
}

/// Steps of `epochs` passes at rate q: epochs/q rounded, at least 1.
pub fn steps_for_epochs(epochs: f64, q: f64) -> u64 {
    (epochs / q).round().clamp(1.0, u64::MAX as f64) as u64
}

/// The reader's run, or why it cannot be accounted for.
pub fn setting(values: &ParamValues) -> Result<Training, String> {
    let noise = match values.choice(p::MECH) {
        MechanismChoice::Gaussian => Noise::Gaussian(values.real(p::SIGMA)),
        MechanismChoice::Laplace => Noise::Laplace(values.real(p::SCALE)),
        MechanismChoice::RandomizedResponse | MechanismChoice::KaryRandomizedResponse => {
            return Err(
                "DP-SGD adds Gaussian or Laplace noise to the clipped gradients; \
                 randomized response is on the Rényi DP page"
                    .into(),
            )
        }
    };
    let (dataset, batch) = (values.count(p::DATASET), values.count(p::BATCH));
    let q = batch as f64 / dataset as f64;
    let by_epochs = values.choice(p::LENGTH) == Length::Epochs;
    let steps = if by_epochs {
        steps_for_epochs(values.real(p::EPOCHS), q)
    } else {
        values.count(p::STEPS)
    };
    if steps > MAX_STEPS {
        return Err(format!(
            "{} steps is more than this page accounts for (at most {})",
            group_digits(steps),
            group_digits(MAX_STEPS)
        ));
    }
    let delta = values.real(p::DELTA);
    if delta < 1e-11 {
        return Err("the tight accountant needs δ of at least 1e-11".into());
    }
    Ok(Training {
        noise,
        q,
        steps,
        delta,
        dataset,
        batch,
        by_epochs,
        batching: values.choice(p::BATCHING),
    })
}

/// Warnings about the setting that do not stop the accounting (shown beside the readouts).
pub fn warnings(t: &Training) -> Vec<String> {
    let mut out = Vec::new();
    if t.batching != Batching::Poisson {
        out.push(
            "The tight ε above is for Poisson sampling, not for your loop: it is what a Poisson \
             accountant would report. Your loop's own band is under \u{201c}How batches are \
             formed\u{201d}, on the zero-out relation."
                .into(),
        );
    }
    if t.delta >= 1.0 / t.dataset as f64 {
        out.push(format!(
            "δ = {} is at least 1/|x| = {}: a mechanism that publishes one random example \
             outright meets such a δ. Choose δ well below 1/|x|.",
            short_number(t.delta, 3),
            short_number(1.0 / t.dataset as f64, 3)
        ));
    }
    out
}

/// The composed band of the reader's run at a budget, remembered for the last run (the readouts
/// and the privacy profile need the same one).
pub fn cached_band(t: &Training, buckets: usize) -> Result<Rc<pld::Band>, String> {
    type Key = (Noise, u64, u64, usize);
    thread_local! {
        static LAST: RefCell<Option<(Key, Rc<pld::Band>)>> = const { RefCell::new(None) };
    }
    let key = (t.noise, t.q.to_bits(), t.steps, buckets);
    if let Some(b) = LAST.with(|c| {
        c.borrow()
            .as_ref()
            .and_then(|(k, b)| (*k == key).then(|| b.clone()))
    }) {
        return Ok(b);
    }
    let band = Rc::new(
        pld::Band::within(t.noise, t.q, t.steps, buckets, pld::STEP_RANGE.0)
            .map_err(|e| e.to_string())?,
    );
    LAST.with(|c| *c.borrow_mut() = Some((key, band.clone())));
    Ok(band)
}

/// The noise (σ, or b for Laplace) whose certified ε at δ over the run is at most `target`, to
/// relative accuracy `rel`, at a budget.
pub fn calibrate(
    t: &Training,
    q: f64,
    steps: u64,
    target: f64,
    buckets: usize,
    rel: f64,
) -> Result<f64, String> {
    super::risk::sigma_for_epsilon(t.noise, q, steps, t.delta, target, buckets, rel)
}

/// Everything the readouts show.
#[derive(Clone, Debug, PartialEq)]
pub struct Account {
    /// Certified upper bound on ε at δ (pessimistic PLD).
    pub upper: f64,
    /// Lower bound on ε at δ (optimistic PLD).
    pub lower: f64,
    /// The grid step used.
    pub step: f64,
    /// ε from Rényi DP (improved conversion) with its order.
    pub rdp: Result<Converted, String>,
    /// The noise for the target ε (certified), or why there is none.
    pub calibrated: Result<f64, String>,
    /// Whether these are the refined numbers.
    pub fine: bool,
}

/// The readouts at a budget: [`QUICK`] while the controls move, [`FINE`] once they rest.
pub fn account(values: &ParamValues, fine: bool) -> Result<Account, String> {
    let t = setting(values)?;
    let band = cached_band(&t, if fine { FINE } else { QUICK })?;
    let (upper, lower) = band.epsilon(t.delta).map_err(|e| e.to_string())?;
    let rdp = step_curve(&t.rdp_setting())
        .map_err(|e| e.to_string())
        .and_then(|c| {
            rdp::epsilon_for_delta(&c.times(t.steps as f64), t.delta, Conversion::Improved)
                .map_err(|e| e.to_string())
        });
    let (cal_budget, cal_rel) = if fine { (QUICK, 1e-4) } else { (3_680, 1e-3) };
    let calibrated = calibrate(
        &t,
        t.q,
        t.steps,
        values.real(p::TARGET_EPS),
        cal_budget,
        cal_rel,
    );
    Ok(Account {
        upper,
        lower,
        step: band.step,
        rdp,
        calibrated,
        fine,
    })
}

/// A copyable privacy statement of the run, in plain words.
pub fn statement(t: &Training, a: &Account) -> String {
    let length = if t.by_epochs {
        format!(
            "{} steps ({} epochs)",
            group_digits(t.steps),
            short_number(t.epochs(), 4)
        )
    } else {
        format!("{} steps", group_digits(t.steps))
    };
    let sampling = match t.batching {
        Batching::Poisson => "Poisson-sampled batches of expected size",
        Batching::Shuffle => "batches of fixed size",
        Batching::BallsInBins => "balls-in-bins batches of expected size",
    };
    let noise = match t.noise {
        Noise::Gaussian(s) => format!(
            "Gaussian noise of standard deviation {}·C (noise multiplier σ = {0}) added to the sum \
             of per-example gradients clipped to L2 norm C",
            short_number(s, 4)
        ),
        Noise::Laplace(b) => format!(
            "Laplace noise of scale {}·C added to the sum of per-example gradients clipped to L1 \
             norm C",
            short_number(b, 4)
        ),
    };
    format!(
        "Training with DP-SGD on {} examples, {sampling} {} (rate q = {}), {noise}, for {length}, \
         satisfies (ε, δ)-differential privacy with ε = {} and δ = {}, for datasets that differ by \
         adding or removing one example. The ε is a certified upper bound from a privacy loss \
         distribution accountant (grid step {}); the exact ε of this mechanism is at least {}.",
        group_digits(t.dataset),
        group_digits(t.batch),
        short_number(t.q, 4),
        short_number(a.upper, 4),
        short_number(t.delta, 3),
        short_number(a.step, 2),
        short_number(a.lower, 4),
    )
}

fn rdp_curve(t: &Training) -> Result<Curve, String> {
    step_curve(&t.rdp_setting()).map_err(|e| e.to_string())
}

/// `epsilon-vs-epochs`: ε at δ against the length of training (epochs, or steps), the tight band
/// with its certified upper bound, and the RDP line.
pub fn epsilon_vs_epochs(values: &ParamValues) -> ChartResult {
    let t = setting(values)?;
    let here = if t.by_epochs {
        t.epochs()
    } else {
        t.steps as f64
    };
    // 16 lengths, equally spaced up to twice the reader's (as whole steps).
    let xs: Vec<f64> = (1..=16).map(|i| 2.0 * here * i as f64 / 16.0).collect();
    let ks: Vec<u64> = xs
        .iter()
        .map(|&x| {
            if t.by_epochs {
                steps_for_epochs(x, t.q)
            } else {
                (x.round() as u64).max(1)
            }
        })
        .collect();
    let k_max = *ks.last().unwrap_or(&1);
    let h = pld::step_for_budget(t.noise, t.q, k_max, FIGURE)?;
    let many = |est| {
        t.noise
            .poisson(t.q, h, est)
            .and_then(|p| p.self_compose_many(&ks))
            .map_err(|e| e.to_string())
    };
    let (up, lo) = (many(Estimate::Pessimistic)?, many(Estimate::Optimistic)?);
    let mut band = Vec::new();
    let mut upper = Vec::new();
    for ((&x, u), l) in xs.iter().zip(&up).zip(&lo) {
        if let (Ok(eu), Ok(el)) = (u.epsilon_for_delta(t.delta), l.epsilon_for_delta(t.delta)) {
            band.push((x, el.max(0.0), eu));
            upper.push((x, eu));
        }
    }
    let rdp: Vec<(f64, f64)> = rdp_curve(&t)
        .ok()
        .and_then(|c| {
            let kf: Vec<f64> = ks.iter().map(|&k| k as f64).collect();
            epsilon_for_delta_over_steps(&c, &kf, t.delta, Conversion::Improved).ok()
        })
        .map(|all| {
            xs.iter()
                .zip(all)
                .filter(|(_, c)| c.epsilon.is_finite())
                .map(|(&x, c)| (x, c.epsilon))
                .collect()
        })
        .unwrap_or_default();
    let y_max = upper
        .iter()
        .chain(&rdp)
        .map(|p| p.1)
        .fold(0.0f64, f64::max)
        .max(1e-6);
    let x_label = if t.by_epochs { "epochs" } else { "steps k" };
    // The reader's own point from the readouts' band (the same numbers as the readouts).
    let now = cached_band(&t, QUICK)
        .ok()
        .and_then(|b| b.epsilon(t.delta).ok());
    let mut c =
        Chart::new(
            Axis::numeric(x_label, false, 0.0, 2.0 * here),
            Axis::numeric(
                format!("ε at δ = {}", short_number(t.delta, 3)),
                false,
                0.0,
                1.08 * y_max,
            ),
            LegendCorner::UpperLeft,
            format!(
            "ε at δ = {} against {x_label} for {}, q = {}: at {} {x_label} the tight accountant \
             gives ε between {} and {}{}.",
            short_number(t.delta, 3),
            t.noise_label(),
            short_number(t.q, 4),
            short_number(here, 4),
            now.map(|e| short_number(e.1, 4)).unwrap_or_else(|| "—".into()),
            now.map(|e| short_number(e.0, 4)).unwrap_or_else(|| "—".into()),
            rdp_at(&t)
                .map(|e| format!(" and Rényi DP gives {}", short_number(e, 4)))
                .unwrap_or_default()
        ),
        );
    c.bands.push(Band {
        label: format!("tight band (PLD, grid step {})", short_number(h, 2)),
        points: band,
    });
    c.series.push(Series {
        label: "tight ε, certified upper bound (PLD)".into(),
        points: upper,
        role: Role::Highlight,
    });
    c.series.push(Series {
        label: "Rényi DP (improved conversion)".into(),
        points: rdp,
        role: Role::Family(1),
    });
    if let Some((eu, _)) = now {
        c.markers.push(Marker {
            x: here,
            y: eu,
            label: format!("you: ε ≤ {}", short_number(eu, 4)),
        });
    }
    Ok(c)
}

fn rdp_at(t: &Training) -> Option<f64> {
    let c = rdp_curve(t).ok()?;
    rdp::epsilon_for_delta(&c.times(t.steps as f64), t.delta, Conversion::Improved)
        .ok()
        .map(|c| c.epsilon)
}

/// `privacy-profile`: δ(ε) of the run, the tight band and the RDP bound, on a log δ axis.
pub fn privacy_profile(values: &ParamValues) -> ChartResult {
    let t = setting(values)?;
    let band = cached_band(&t, QUICK)?;
    let (e_here, _) = band.epsilon(t.delta)?;
    let e_far = band
        .upper
        .epsilon_for_delta(1e-10)
        .unwrap_or(2.0 * e_here)
        .max(1.2 * e_here)
        .max(1e-3);
    let y_min = 1e-11;
    let xs: Vec<f64> = (0..=60).map(|i| e_far * i as f64 / 60.0).collect();
    let mut pts = Vec::new();
    let mut upper = Vec::new();
    let (his, los) = (band.upper.delta_curve(&xs), band.lower.delta_curve(&xs));
    for ((&e, &hi), &lo) in xs.iter().zip(&his).zip(&los) {
        if hi >= y_min {
            pts.push((e, lo.max(y_min), hi));
            upper.push((e, hi));
        }
    }
    let rdp: Vec<(f64, f64)> = rdp_curve(&t)
        .map(|c| {
            let c = c.times(t.steps as f64);
            xs.iter()
                .filter_map(|&e| {
                    let d = drawn_rdp_delta(&c, e)?;
                    (d >= y_min).then_some((e, d))
                })
                .collect()
        })
        .unwrap_or_default();
    let mut c = Chart::new(
        Axis::numeric("ε", false, 0.0, e_far),
        Axis::numeric("δ(ε)", true, y_min, 1.0),
        LegendCorner::UpperRight,
        format!(
            "The privacy profile δ(ε) of {} steps of {} at q = {}: δ = {} is reached at ε ≤ {} \
             (certified); every (ε, δ(ε)) on the curve holds at once.",
            group_digits(t.steps),
            t.noise_label(),
            short_number(t.q, 4),
            short_number(t.delta, 3),
            short_number(e_here, 4)
        ),
    );
    c.bands.push(Band {
        label: format!("tight band (PLD, grid step {})", short_number(band.step, 2)),
        points: pts,
    });
    c.series.push(Series {
        label: "δ(ε), certified upper bound (PLD)".into(),
        points: upper,
        role: Role::Highlight,
    });
    c.series.push(Series {
        label: "Rényi DP bound (improved conversion)".into(),
        points: rdp,
        role: Role::Family(1),
    });
    c.markers.push(Marker {
        x: e_here,
        y: t.delta,
        label: format!(
            "δ = {}: ε ≤ {}",
            short_number(t.delta, 3),
            short_number(e_here, 4)
        ),
    });
    Ok(c)
}

/// `noise-for-target`: the noise needed for the target ε at δ against the batch size, at the
/// reader's epochs (k = epochs·|x|/B), and below it that noise per example of the batch, σ/B,
/// which is what the averaged gradient carries.
pub fn noise_for_target(values: &ParamValues) -> ChartResult {
    let t = setting(values)?;
    let target = values.real(p::TARGET_EPS);
    if target <= 0.0 {
        return Err("choose a target ε above 0".into());
    }
    let epochs = t.epochs();
    let lo_b = ((t.dataset as f64) * 1e-4).max(1.0);
    let mut batches: Vec<u64> = log_grid(lo_b, t.dataset as f64, 10)
        .into_iter()
        .map(|b| b.round().max(1.0) as u64)
        .collect();
    batches.push(t.batch);
    amp_math::heap_sort_by(&mut batches, |a, b| a < b);
    batches.dedup();
    let mut sigma = Vec::new();
    let mut per = Vec::new();
    let mut failed = Vec::new();
    for &b in &batches {
        let q = b as f64 / t.dataset as f64;
        let k = steps_for_epochs(epochs, q).min(MAX_STEPS);
        match calibrate(&t, q, k, target, CALIBRATION, 2e-3) {
            Ok(s) => {
                sigma.push((b as f64, s));
                per.push((b as f64, s / b as f64));
            }
            Err(_) => failed.push(b),
        }
    }
    let name = match t.noise {
        Noise::Gaussian(_) => "noise multiplier σ",
        Noise::Laplace(_) => "Laplace scale b",
    };
    if sigma.len() < 2 {
        return Err(ChartError::NotApplicable(format!(
            "no {name} in [0.2, 10⁴] meets ε = {} at these settings",
            short_number(target, 4)
        )));
    }
    let (s_lo, s_hi) = log_range(sigma.iter().map(|p| &p.1));
    let (p_lo, p_hi) = log_range(per.iter().map(|p| &p.1));
    let mine = sigma.iter().find(|p| p.0 == t.batch as f64).map(|p| p.1);
    let x = Axis::numeric("batch size B", true, lo_b, t.dataset as f64);
    let mut lower = Chart::new(
        x.clone(),
        Axis::numeric(format!("{name} / B"), true, p_lo, p_hi),
        LegendCorner::UpperRight,
        String::new(),
    );
    lower.series.push(Series {
        label: "noise per example in the batch".into(),
        points: per,
        role: Role::Highlight,
    });
    let mut c = Chart::new(
        x,
        Axis::numeric(name, true, s_lo, s_hi),
        LegendCorner::UpperLeft,
        format!(
            "The {name} needed for ε = {} at δ = {} over {} epochs of {} examples, against the batch \
             size (certified PLD bound, to 0.2%): {}. Larger batches need more noise per step but \
             less per example, so the averaged gradient is less noisy.",
            short_number(target, 4),
            short_number(t.delta, 3),
            short_number(epochs, 4),
            group_digits(t.dataset),
            mine.map(|s| format!("at B = {} it is {}", group_digits(t.batch), short_number(s, 4)))
                .unwrap_or_else(|| "none at your batch size".into())
        ),
    );
    c.series.push(Series {
        label: format!("{name} for ε = {}", short_number(target, 4)),
        points: sigma,
        role: Role::Highlight,
    });
    if let Some(s) = mine {
        c.markers.push(Marker {
            x: t.batch as f64,
            y: s,
            label: format!("B = {}: {}", group_digits(t.batch), short_number(s, 4)),
        });
    }
    if !failed.is_empty() {
        c.notes.push(format!(
            "No noise in [0.2, 10⁴] meets the target at B = {}; those points are left out.",
            failed
                .iter()
                .map(|b| group_digits(*b))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    c.lower = Some(Box::new(lower));
    Ok(c)
}

/// The σ of a full-data Gaussian mechanism composed k times that meets (ε, δ) exactly: k
/// compositions of N(0, σ²) are one Gaussian mechanism with σ/√k, so σ = √k·σ₁ with σ₁ from the
/// analytic Gaussian mechanism (Balle & Wang 2018).
fn full_data_sigma(epsilon: f64, delta: f64, steps: u64) -> Result<f64, String> {
    let one = amp_math::root::brent(
        // Below the bracket's low end ε is beyond every target (ε of the analytic Gaussian
        // is refused past its domain: count that as "too much").
        |ls: f64| match rdp::gaussian_epsilon(amp_math::special::exp(ls), delta) {
            Ok(e) => e - epsilon,
            Err(_) => 1e6,
        },
        amp_math::special::ln(1e-2),
        amp_math::special::ln(1e5),
        amp_math::root::Tolerance {
            abs: 1e-9,
            rel: 0.0,
            max_iterations: 200,
        },
    )
    .map_err(|e| e.to_string())
    .map(amp_math::special::exp)?;
    Ok(one * (steps as f64).sqrt())
}

/// `gaussian-noise-ratio`: seed 001's noise ratio for the Gaussian mechanism (its footnote 5): for
/// a target (ε, δ) over k steps, the noise σ_full of the full-data mechanism over the effective
/// noise σ_p/p of the Poisson-subsampled one (tight accountant), against p, beside the Laplace
/// ratio of the limits page (one step, pure ε).
pub fn gaussian_noise_ratio(values: &ParamValues) -> ChartResult {
    // Gaussian whatever the page's mechanism; only the run's shape (k, δ, q) is read.
    let mut gaussian = values.clone();
    gaussian.set_choice(p::MECH, MechanismChoice::Gaussian);
    let t = setting(&gaussian)?;
    let target = values.real(p::TARGET_EPS);
    if target <= 0.0 {
        return Err("choose a target ε above 0".into());
    }
    let k = t.steps;
    let full = full_data_sigma(target, t.delta, k)?;
    let mut ps = log_grid(1e-4, 1.0, 11);
    ps.push(t.q);
    amp_math::sort_floats(&mut ps);
    ps.dedup();
    let mut ratio = Vec::new();
    let mut failed = 0;
    for &p in &ps {
        match calibrate(&t, p, k, target, CALIBRATION, 2e-3) {
            Ok(s) => ratio.push((p, (p * full / s).min(1.5))),
            Err(_) => failed += 1,
        }
    }
    if ratio.len() < 2 {
        return Err(ChartError::NotApplicable(format!(
            "no noise multiplier σ in [0.2, 10⁴] meets ε = {} at these settings",
            short_number(target, 4)
        )));
    }
    let laplace: Vec<(f64, f64)> = log_grid(1e-4, 1.0, 80)
        .into_iter()
        .filter_map(|p| noise_ratio(target, p).ok().map(|r| (p, r)))
        .collect();
    let mine = ratio.iter().find(|r| r.0 == t.q).map(|r| r.1);
    let mut c = Chart::new(
        Axis::numeric("sampling rate p", true, 1e-4, 1.0),
        Axis::numeric("noise ratio R = σ_full / (σ_p / p)", false, 0.0, 1.1),
        LegendCorner::UpperLeft,
        format!(
            "For ε = {} at δ = {} over {} steps, the full-data Gaussian mechanism needs σ = {}; \
             the subsampled one's effective noise σ_p/p is larger, by the factor 1/R{}. As for \
             Laplace, R < 1: subsampling costs accuracy at a fixed privacy target, and the cost \
             grows as p shrinks.",
            short_number(target, 4),
            short_number(t.delta, 3),
            group_digits(k),
            short_number(full, 4),
            mine.map(|r| format!(
                " (R = {} at your q = {})",
                short_number(r, 3),
                short_number(t.q, 3)
            ))
            .unwrap_or_default()
        ),
    );
    c.series.push(Series {
        label: format!("Gaussian, {} steps (tight accountant)", group_digits(k)),
        points: ratio,
        role: Role::Highlight,
    });
    c.series.push(Series {
        label: "Laplace, one step, pure ε (limits page)".into(),
        points: laplace,
        role: Role::Family(1),
    });
    c.series.push(Series {
        label: "no cost (R = 1)".into(),
        points: vec![(1e-4, 1.0), (1.0, 1.0)],
        role: Role::Reference,
    });
    if let Some(r) = mine {
        c.markers.push(Marker {
            x: t.q,
            y: r,
            label: format!("your q: R = {}", short_number(r, 3)),
        });
    }
    if failed > 0 {
        c.notes.push(format!(
            "{failed} rates left out: no σ in [0.2, 10⁴] meets the target there."
        ));
    }
    Ok(c)
}
