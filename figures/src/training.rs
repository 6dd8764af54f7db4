//! Figures of the training page: ε against the run's length, its privacy profile, the noise a
//! target needs, and the noise ratio of Steinke's "Limits of privacy amplification by subsampling"
//! for the Gaussian mechanism, from the model ([`amp_model::training`]). A run of phases is
//! drawn whole where the figure is about the run (its length, its profile); the sweeps over the
//! batch size or the rate are about its first phase and say so.

use amp_math::limits::noise_ratio;
use amp_math::pld::{self, Estimate, Noise};
use amp_math::rdp::{self, epsilon_for_delta_over_steps, Conversion};

use amp_math::accounting::{EpochSettings, RdpAccountant};

use super::{
    group_digits, log_grid, log_range, Axis, Band, Chart, ChartResult, LegendCorner, Marker,
    ModelError, Role, Series,
};
use amp_format::short_number;
use amp_model::param as p;
use amp_model::params::{Mechanism as MechanismChoice, ParamValues};
use amp_model::renyi::{drawn_rdp_delta, step_curve};
use amp_model::run::steps_for_epochs;
use amp_model::training::{
    accountant, cached_band, calibrate_at, rdp_epsilon, setting, Training, CALIBRATION, FIGURE,
    FIRST_PHASE_ONLY, MAX_STEPS, QUICK,
};

mod shapes;
mod tuning;
pub use shapes::{banded_noise, capped_batches};
pub use tuning::tuning_cost;

/// Why a figure that calibrates the noise at many batch sizes or rates is drawn without a cap.
const CAP_NOT_DRAWN: &str = "this figure calibrates the noise at many batch sizes, which is drawn \
     without a cap on the batch (M = 0); the readouts give the noise for your cap";

/// `epsilon-vs-epochs`: ε at δ against the length of training (epochs, or steps), the tight band
/// with its certified upper bound, and the RDP line.
pub fn epsilon_vs_epochs(values: &ParamValues) -> ChartResult {
    let t = setting(values)?;
    t.check_records(Some(amp_model::params::Batching::Poisson))?;
    // A run of phases, a user's several records or capped batches: through the accountant's
    // events.
    if t.needs_events() {
        return phased_epsilon_vs_length(&t);
    }
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
    let rdp: Vec<(f64, f64)> = step_curve(&t.rdp_setting())
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
    length_chart(&t, here, h, band, upper, rdp)
}

/// [`epsilon_vs_epochs`] for a run of phases: every phase's length scaled together, from a
/// sixteenth to twice the run (x: the run's epochs, or steps, in all), each point the whole run
/// composed at the figure's budget (Poisson sampling in every phase, as the tight readout).
fn phased_epsilon_vs_length(t: &Training) -> ChartResult {
    let here = if t.by_epochs {
        t.total_epochs()
    } else {
        t.total_steps() as f64
    };
    let acc = accountant(FIGURE, EpochSettings::FINE);
    let rdp_acc = RdpAccountant::default();
    let mut band = Vec::new();
    let mut upper = Vec::new();
    let mut rdp = Vec::new();
    let mut step = f64::NAN;
    for i in 1..=16 {
        let f = 2.0 * i as f64 / 16.0;
        let run = t.scaled(f).poisson_event();
        let x = here * f;
        if let Ok(b) = acc.band(&run) {
            step = b.step;
            if let Ok((eu, el)) = b.epsilon(t.delta) {
                band.push((x, el.max(0.0), eu));
                upper.push((x, eu));
            }
        }
        if let Ok(c) = rdp_acc.converted(&run, t.delta) {
            if c.epsilon.is_finite() {
                rdp.push((x, c.epsilon));
            }
        }
    }
    length_chart(t, here, step, band, upper, rdp)
}

/// The chart of ε against the run's length: the band, its upper line, the RDP line and the
/// reader's own point from the readouts' band.
fn length_chart(
    t: &Training,
    here: f64,
    h: f64,
    band: Vec<(f64, f64, f64)>,
    upper: Vec<(f64, f64)>,
    rdp: Vec<(f64, f64)>,
) -> ChartResult {
    let y_max = upper
        .iter()
        .chain(&rdp)
        .map(|p| p.1)
        .fold(0.0f64, f64::max)
        .max(1e-6);
    let x_label = match (t.by_epochs, t.is_phased()) {
        (true, false) => "epochs",
        (false, false) => "steps k",
        (true, true) => "epochs, all phases",
        (false, true) => "steps k, all phases",
    };
    // In the sentence: what the axis counts, and the unit of the reader's point.
    let (against, unit) = match (t.by_epochs, t.is_phased()) {
        (_, false) => (x_label, x_label),
        (true, true) => ("the epochs of the whole run", "epochs"),
        (false, true) => ("the steps of the whole run", "steps"),
    };
    // The reader's own point from the readouts' band (the same numbers as the readouts).
    let now = cached_band(t, QUICK)
        .ok()
        .and_then(|b| b.epsilon(t.delta).ok());
    let mut c = Chart::new(
        Axis::numeric(x_label, false, 0.0, 2.0 * here),
        Axis::numeric(
            format!("ε at δ = {}", short_number(t.delta, 3)),
            false,
            0.0,
            1.08 * y_max,
        ),
        LegendCorner::UpperLeft,
        format!(
            "ε at δ = {} against {against} for {}: at {} {unit} the tight accountant \
             gives ε between {} and {}{}.",
            short_number(t.delta, 3),
            run_label(t, ", q = "),
            short_number(here, 4),
            now.map(|e| short_number(e.1, 4))
                .unwrap_or_else(|| "—".into()),
            now.map(|e| short_number(e.0, 4))
                .unwrap_or_else(|| "—".into()),
            rdp_at(t)
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
    // No Rényi DP line (a user with several records): no legend entry for it either.
    if !rdp.is_empty() {
        c.series.push(Series {
            label: "Rényi DP (improved conversion)".into(),
            points: rdp,
            role: Role::Family(1),
        });
    }
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
    rdp_epsilon(t).ok().map(|c| c.epsilon)
}

/// The run's noise and rate in words (`Gaussian noise, σ = 1, q = 0.01` with `rate` = ", q = "),
/// and its phases when it has several (`2 phases (the first: Gaussian noise, σ = 1, q = 0.01)`).
fn run_label(t: &Training, rate: &str) -> String {
    let first = format!("{}{rate}{}", t.noise_label(), short_number(t.q, 4));
    if t.is_phased() {
        format!("{} phases (the first: {first})", t.phases().len())
    } else {
        first
    }
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
    let rdp: Vec<(f64, f64)> = RdpAccountant::default()
        .curve(&t.poisson_event())
        .map(|c| {
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
            "The privacy profile δ(ε) of {} steps of {}: δ = {} is reached at ε ≤ {} \
             (certified); every (ε, δ(ε)) on the curve holds at once.",
            group_digits(t.total_steps()),
            run_label(&t, " at q = "),
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
    // No Rényi DP line (a user with several records): no legend entry for it either.
    if !rdp.is_empty() {
        c.series.push(Series {
            label: "Rényi DP bound (improved conversion)".into(),
            points: rdp,
            role: Role::Family(1),
        });
    }
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

/// The noise `noise-for-target` calibrates at each batch size.
type NoisePerBatch = (Vec<(f64, f64)>, Vec<(f64, f64)>, Vec<u64>);

/// The noise for the target ε at each batch size over the reader's epochs: the points (B, σ),
/// the points (B, σ/B), and the batch sizes at which no noise meets the target.
fn noise_per_batch(t: &Training, batches: &[u64], epochs: f64, target: f64) -> NoisePerBatch {
    let mut sigma = Vec::new();
    let mut per = Vec::new();
    let mut failed = Vec::new();
    for &b in batches {
        let q = b as f64 / t.dataset as f64;
        let k = steps_for_epochs(epochs, q).min(MAX_STEPS);
        match calibrate_at(t, q, k, target, CALIBRATION, 2e-3) {
            Ok(s) => {
                sigma.push((b as f64, s));
                per.push((b as f64, s / b as f64));
            }
            Err(_) => failed.push(b),
        }
    }
    (sigma, per, failed)
}

/// `noise-for-target`: the noise needed for the target ε at δ against the batch size, at the
/// reader's epochs (k = epochs·|x|/B), and below it that noise per example of the batch, σ/B,
/// which is what the averaged gradient carries.
pub fn noise_for_target(values: &ParamValues) -> ChartResult {
    let t = setting(values)?;
    if t.records > 1 {
        return Err(ModelError::NotApplicable(
            "this figure calibrates the noise at many settings, which is drawn for one record per \
             user only (R = 1); the readouts give the noise for your R"
                .into(),
        ));
    }
    if t.max_batch > 0 {
        return Err(ModelError::NotApplicable(CAP_NOT_DRAWN.into()));
    }
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
    let (sigma, per, failed) = noise_per_batch(&t, &batches, epochs, target);
    let name = match t.noise {
        Noise::Gaussian(_) => "noise multiplier σ",
        Noise::Laplace(_) => "Laplace scale b",
    };
    if sigma.len() < 2 {
        return Err(ModelError::NotApplicable(format!(
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
    if t.is_phased() {
        c.notes.push(FIRST_PHASE_ONLY.into());
    }
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

/// `gaussian-noise-ratio`: the noise ratio of Steinke's second post for the Gaussian mechanism (its
/// footnote 5): for a target (ε, δ) over k steps, the noise σ_full of the full-data mechanism over
/// the effective noise σ_p/p of the Poisson-subsampled one (tight accountant), against p, beside
/// the Laplace ratio of the limits page (one step, pure ε).
pub fn gaussian_noise_ratio(values: &ParamValues) -> ChartResult {
    if values.count(p::RECORDS) > 1 {
        return Err(ModelError::NotApplicable(
            "this figure calibrates the noise at many settings, which is drawn for one record per \
             user only (R = 1); the readouts give the noise for your R"
                .into(),
        ));
    }
    if values.count(p::MAX_BATCH) > 0 {
        return Err(ModelError::NotApplicable(CAP_NOT_DRAWN.into()));
    }
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
        match calibrate_at(&t, p, k, target, CALIBRATION, 2e-3) {
            Ok(s) => ratio.push((p, (p * full / s).min(1.5))),
            Err(_) => failed += 1,
        }
    }
    if ratio.len() < 2 {
        return Err(ModelError::NotApplicable(format!(
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
    if t.is_phased() {
        c.notes.push(FIRST_PHASE_ONLY.into());
    }
    Ok(c)
}
