//! Figures and readouts of the risk page: what a run's privacy means for a membership attacker
//! (issue 17). The optimal attacker's TPR at each FPR is a certified band from the privacy loss
//! distributions of both roundings ([`amp_math::risk::Tradeoff`]); beside it the curves that
//! coarser summaries allow: Gaussian DP's μ, the run's (ε, δ) and its Rényi DP curve.
//!
//! Gaussian and Laplace noise run on Poisson samples at rate q (add/remove one record);
//! randomized response is accounted without sampling (each step releases the person's value
//! afresh; replace one value). Costs are bounded by the same FFT budgets as the training page.

use amp_math::pld::Noise;
use amp_math::risk::{eps_delta_tpr, gaussian_mu, gdp_tpr, profile_tpr, RiskTarget};
use amp_math::special::ln;

use super::{
    group_digits, log_grid, Axis, Band, Chart, ChartResult, LegendCorner, Marker, ModelError, Role,
    Series,
};
use amp_format::short_number;
use amp_model::param as p;
use amp_model::params::{ParamValues, TradeoffView};

use amp_math::accounting::{EpochSettings, Target};

use amp_model::risk::{
    attack, epsilon_at_delta, gdp, noise_for, percent, rdp_profile, setting, Attack, Run, Source,
    MAX_STEPS, QUICK,
};

/// Budget per composition in the TPR-against-steps figure (one forward transform, one inverse per
/// point).
const FIGURE: usize = 14_700;
/// Budget per evaluation inside a calibration for a figure.
const CALIBRATION: usize = 1_840;

/// FPRs at which the curves are drawn: dense near 0 (log-spaced) and evenly over [0, 1].
fn fpr_grid(lo: f64) -> Vec<f64> {
    let mut xs = log_grid(lo, 1.0, 90);
    xs.extend((1..100).map(|i| i as f64 / 100.0));
    amp_math::sort_floats(&mut xs);
    xs.dedup();
    xs
}

/// `tradeoff-curve`: the optimal attacker's trade-off after the run, as β against α or TPR
/// against FPR (log axes); the certified band, Gaussian DP's curve, what the run's (ε, δ) and its
/// Rényi DP curve allow, and random guessing.
pub fn tradeoff_curve(values: &ParamValues) -> ChartResult {
    let run = setting(values)?;
    let a = attack(&run, QUICK)?;
    let view = TradeoffAxes::new(
        run.fpr,
        values.choice(p::TRADEOFF_VIEW) == TradeoffView::Roc,
    );
    let mut c = tradeoff_start(&a, &view, run.delta);
    let (xs, y) = (&view.xs, |t: f64| view.y(t));
    // What the Rényi DP curve allows (the envelope of its (ε, δ(ε)) guarantees).
    let e_far = a
        .upper
        .epsilon_for_delta(1e-12)
        .unwrap_or(10.0)
        .clamp(0.5, 60.0);
    let profile = rdp_profile(&run, 1.5 * e_far);
    if !profile.is_empty() {
        c.series.push(Series {
            label: "what the Rényi DP curve allows".into(),
            points: xs
                .iter()
                .filter_map(|&x| Some((x, y(profile_tpr(&profile, x).ok()?))))
                .collect(),
            role: Role::Bound(0),
        });
    }
    // Gaussian DP: the numeric μ of the certified curve (Gomez et al. 2025), and the closed form.
    // (Without sampling the closed form is exact and the numeric μ finds it: one line, not two.)
    let mu = gdp(&run);
    let exact = matches!(mu, Some(Ok((_, true))));
    let numeric = (!exact)
        .then(|| amp_math::risk::gdp_fit(&a.upper).ok())
        .flatten();
    if let Some(fit) = numeric {
        c.series.push(Series {
            label: format!(
                "Gaussian DP, μ = {} (numeric, holds for error rates ≥ {})",
                short_number(fit.mu, 3),
                if fit.alpha_min > 0.0 {
                    short_number(fit.alpha_min, 1)
                } else {
                    "0".into()
                }
            ),
            points: xs
                .iter()
                .filter_map(|&x| Some((x, y(gdp_tpr(fit.mu, x).ok()?))))
                .collect(),
            role: Role::Family(3),
        });
    }
    if let Some(Ok((mu, exact))) = mu {
        c.series.push(Series {
            label: if exact {
                format!("Gaussian DP, μ = {} (exact)", short_number(mu, 3))
            } else {
                format!(
                    "Gaussian DP, μ = {} (central-limit approximation)",
                    short_number(mu, 3)
                )
            },
            points: xs
                .iter()
                .filter_map(|&x| Some((x, y(gdp_tpr(mu, x).ok()?))))
                .collect(),
            role: Role::Family(2),
        });
    }
    let (up, low) = tradeoff_finish(&mut c, &a, &view, run.fpr)?;
    c.summary = format!(
        "After {} steps of {}{}, an attacker who accuses {} of non-members catches at most {} of \
         members (certified), and the best attack catches at least {}. Random guessing would catch \
         {}.",
        group_digits(run.steps),
        run.label(),
        if run.q < 1.0 {
            format!(" at sampling rate q = {}", short_number(run.q, 3))
        } else {
            String::new()
        },
        percent(run.fpr),
        percent(up),
        percent(low),
        percent(run.fpr)
    );
    Ok(c)
}

/// The axes of a trade-off figure: β against α (linear), or TPR against FPR (log), and the FPRs
/// the curves are drawn at (the reader's α always inside).
pub(crate) struct TradeoffAxes {
    /// TPR against FPR on log axes (else β = 1 − TPR against α).
    pub roc: bool,
    /// The FPRs drawn.
    pub xs: Vec<f64>,
    lo: f64,
}

impl TradeoffAxes {
    /// For the reader's FPR (≥ 1e-9, so the axis starts at 1e-10 at least) and view.
    pub fn new(fpr: f64, roc: bool) -> TradeoffAxes {
        let lo = (fpr / 10.0).min(1e-3);
        let xs: Vec<f64> = if roc {
            log_grid(lo, 1.0, 120)
        } else {
            let mut xs = fpr_grid(1e-4);
            xs.insert(0, 0.0);
            xs
        };
        TradeoffAxes { roc, xs, lo }
    }

    /// TPR → what is drawn: TPR itself, or β = 1 − TPR.
    pub fn y(&self, tpr: f64) -> f64 {
        if self.roc {
            tpr
        } else {
            1.0 - tpr
        }
    }
}

/// A trade-off chart's start: its axes, the certified band of the optimal attacker, its certified
/// line, and what the (ε, δ) read off the certified pair at δ allows.
pub(crate) fn tradeoff_start(a: &Attack, view: &TradeoffAxes, delta: f64) -> Chart {
    let (roc, lo, xs) = (view.roc, view.lo, &view.xs);
    let y = |t: f64| view.y(t);
    let band = a.tradeoff.curve(xs);
    let mut c = Chart::new(
        if roc {
            Axis::numeric("false-positive rate α", true, lo, 1.0)
        } else {
            Axis::numeric("α: false-positive rate", false, 0.0, 1.0)
        },
        if roc {
            Axis::numeric("true-positive rate", true, lo, 1.0)
        } else {
            Axis::numeric("β: false-negative rate", false, 0.0, 1.0)
        },
        if roc {
            LegendCorner::LowerRight
        } else {
            LegendCorner::UpperRight
        },
        String::new(),
    );
    c.bands.push(Band {
        label: format!(
            "optimal attacker, certified band (PLD, grid step {})",
            short_number(a.step, 2)
        ),
        points: xs
            .iter()
            .zip(&band)
            .map(|(&x, &(up, low))| {
                let (p, q) = (y(up), y(low));
                (x, p.min(q), p.max(q))
            })
            .collect(),
    });
    c.series.push(Series {
        label: "no attacker does better (certified)".into(),
        points: xs.iter().zip(&band).map(|(&x, b)| (x, y(b.0))).collect(),
        role: Role::Highlight,
    });
    // What the (ε, δ) summary allows.
    let eps = epsilon_at_delta(a, delta);
    if let Ok(e) = eps {
        c.series.push(Series {
            label: format!(
                "what (ε, δ) = ({}, {}) allows",
                short_number(e, 3),
                short_number(delta, 2)
            ),
            points: xs
                .iter()
                .filter_map(|&x| Some((x, y(eps_delta_tpr(e, delta, x).ok()?))))
                .collect(),
            role: Role::Bound(1),
        });
    } else if let Err(why) = &eps {
        c.notes.push(format!(
            "No (ε, δ) region at δ = {}: {why}.",
            short_number(delta, 2)
        ));
    }
    c
}

/// A trade-off chart's end: random guessing and the marker at the reader's FPR; returns the TPR
/// band (certified upper, lower) there.
pub(crate) fn tradeoff_finish(
    c: &mut Chart,
    a: &Attack,
    view: &TradeoffAxes,
    fpr: f64,
) -> Result<(f64, f64), ModelError> {
    c.series.push(Series {
        label: "random guessing".into(),
        points: view.xs.iter().map(|&x| (x, view.y(x))).collect(),
        role: Role::Reference,
    });
    let (up, low) = a.tradeoff.tpr(fpr)?;
    c.markers.push(Marker {
        x: fpr,
        y: view.y(up),
        label: format!("α = {}: TPR ≤ {}", percent(fpr), percent(up)),
    });
    Ok((up, low))
}

/// Step counts from 1 to `last`, about `count` of them, log-spaced and distinct.
fn step_grid(last: u64, count: usize) -> Vec<u64> {
    let mut ks: Vec<u64> = log_grid(1.0, last.max(2) as f64, count)
        .into_iter()
        .map(|x| (x.round() as u64).max(1))
        .collect();
    ks.dedup();
    ks
}

/// TPR band at the FPR after each of `ks` steps (from one transform per rounding).
fn tpr_over_steps(run: &Run, q: f64, ks: &[u64]) -> Result<Vec<(f64, f64)>, ModelError> {
    let last = ks.iter().copied().max().unwrap_or(1);
    let e = ModelError::from;
    let (h, up, lo) = amp_model::training::accountant(FIGURE, EpochSettings::FINE)
        .release(&run.event(q, 1).leaves()[0].0.clone(), last)
        .map_err(e)?;
    let ups = up.self_compose_many(ks).map_err(e)?;
    let los = lo.self_compose_many(ks).map_err(e)?;
    ups.into_iter()
        .zip(los)
        .map(|(u, l)| {
            Attack::new(h, u, l)?
                .tradeoff
                .tpr(run.fpr)
                .map_err(ModelError::from)
        })
        .collect()
}

/// The step counts of the TPR-against-steps figure: the last one (the axis's end), the counts
/// drawn, and the TPR band at the FPR after each.
type StepsBand = (u64, Vec<u64>, Vec<(f64, f64)>);

/// The last step count, the step counts and the TPR band at each: ten times the reader's run, or
/// the run itself when that is more than the budget allows.
fn steps_and_band(run: &Run) -> Result<StepsBand, ModelError> {
    let mut last = (run.steps.saturating_mul(10)).clamp(10, MAX_STEPS);
    let mut ks = step_grid(last, 16);
    let band = match tpr_over_steps(run, run.q, &ks) {
        Ok(b) => b,
        Err(_) => {
            last = run.steps.max(2);
            ks = step_grid(last, 16);
            tpr_over_steps(run, run.q, &ks)?
        }
    };
    Ok((last, ks, band))
}

/// The series without sampling (every record in every step) over `ks`, and its TPR after the
/// reader's steps where that is exact (the Gaussian; `None` otherwise).
fn no_sampling_series(run: &Run, ks: &[u64]) -> Result<(Series, Option<f64>), ModelError> {
    let x_of = |k: u64| k as f64;
    // Without sampling: exact for the Gaussian (μ = √k/σ), a PLD band otherwise.
    let full: Vec<(f64, f64)> = match run.source {
        Source::Noise(Noise::Gaussian(sigma)) => ks
            .iter()
            .filter_map(|&k| {
                let mu = gaussian_mu(sigma, k).ok()?;
                Some((x_of(k), gdp_tpr(mu, run.fpr).ok()?))
            })
            .collect(),
        _ => tpr_over_steps(run, 1.0, ks)?
            .into_iter()
            .zip(ks)
            .map(|(b, &k)| (x_of(k), b.0))
            .collect(),
    };
    let full_at_k = match run.source {
        Source::Noise(Noise::Gaussian(sigma)) => gaussian_mu(sigma, run.steps)
            .ok()
            .and_then(|mu| gdp_tpr(mu, run.fpr).ok()),
        _ => None,
    };
    let series = Series {
        label: "no sampling: every record in every step".into(),
        points: full,
        role: Role::Family(1),
    };
    Ok((series, full_at_k))
}

/// The summary of the TPR-against-steps figure, from the certified TPR after the reader's steps
/// (`here`) and, where known, the TPR without sampling (`full_at_k`).
fn tpr_vs_steps_summary(run: &Run, here: f64, sampled: bool, full_at_k: Option<f64>) -> String {
    format!(
        "At α = {}, the attacker's TPR after k = {} steps of {} is at most {}{}; it grows with k \
         towards 1.{}",
        percent(run.fpr),
        group_digits(run.steps),
        run.label(),
        percent(here),
        if sampled {
            format!(" with Poisson sampling at q = {}", short_number(run.q, 3))
        } else {
            String::new()
        },
        full_at_k
            .map(|t| format!(" Without sampling it would be {}.", percent(t)))
            .unwrap_or_default()
    )
}

/// `tpr-vs-steps`: the attacker's TPR at the reader's FPR as the run goes on, with Poisson
/// sampling at the reader's q and without sampling (every record in every step).
pub fn tpr_vs_steps(values: &ParamValues) -> ChartResult {
    let run = setting(values)?;
    let (last, ks, band) = steps_and_band(&run)?;
    let x_of = |k: u64| k as f64;
    let mut c = Chart::new(
        Axis::numeric("steps k", true, 1.0, last as f64),
        Axis::numeric(
            format!("TPR at α = {}", percent(run.fpr)),
            true,
            run.fpr * 0.8,
            1.0,
        ),
        LegendCorner::LowerRight,
        String::new(),
    );
    let sampled = run.q < 1.0;
    c.bands.push(Band {
        label: if sampled {
            format!(
                "Poisson sampling, q = {}: certified band",
                short_number(run.q, 3)
            )
        } else {
            "certified band".into()
        },
        points: ks
            .iter()
            .zip(&band)
            .map(|(&k, &(u, l))| (x_of(k), l, u))
            .collect(),
    });
    c.series.push(Series {
        label: if sampled {
            format!(
                "Poisson sampling, q = {} (certified upper bound)",
                short_number(run.q, 3)
            )
        } else {
            format!("{} (certified upper bound)", run.label())
        },
        points: ks.iter().zip(&band).map(|(&k, b)| (x_of(k), b.0)).collect(),
        role: Role::Highlight,
    });
    let mut full_at_k = None;
    if sampled {
        let (full, at_k) = no_sampling_series(&run, &ks)?;
        full_at_k = at_k;
        c.series.push(full);
    } else {
        c.notes.push(
            "Randomized response is accounted without sampling here: each step releases the \
             person's value afresh."
                .into(),
        );
    }
    c.series.push(Series {
        label: "random guessing".into(),
        points: vec![(1.0, run.fpr), (last as f64, run.fpr)],
        role: Role::Reference,
    });
    let here = attack(&run, QUICK)?.tradeoff.tpr(run.fpr)?;
    c.markers.push(Marker {
        x: x_of(run.steps),
        y: here.0,
        label: format!("k = {}: TPR ≤ {}", group_digits(run.steps), percent(here.0)),
    });
    c.summary = tpr_vs_steps_summary(&run, here.0, sampled, full_at_k);
    Ok(c)
}

/// The noise of the reader's run and the TPR target it is calibrated to, or why the
/// noise-for-risk figure is not drawn for this setting.
fn noise_and_target(run: &Run) -> Result<(Noise, RiskTarget), ModelError> {
    if run.records > 1 {
        return Err(ModelError::NotApplicable(
            "this figure calibrates the noise at many settings, which is drawn for one record per \
             user only (R = 1); the readouts give the noise for your R"
                .into(),
        ));
    }
    let Some(noise) = run.noise() else {
        return Err(
            "noise is calibrated for Gaussian or Laplace noise; randomized response has no noise scale"
                .into(),
        );
    };
    let target = RiskTarget::Tpr {
        fpr: run.fpr,
        tpr: run.target_tpr,
    };
    target
        .check()
        .map_err(|e| ModelError::from(e.to_string()))?;
    Ok((noise, target))
}

/// Points (q, noise) of one calibrated curve.
type NoisePoints = Vec<(f64, f64)>;

/// The noise for the TPR target and the noise for the ε target at each sampling rate of `qs`
/// (k = `epochs`/q steps); rates where no noise in the searched range meets a target are left out.
fn noise_curves(
    run: &Run,
    noise: Noise,
    target: RiskTarget,
    qs: &[f64],
    epochs: f64,
) -> (NoisePoints, NoisePoints) {
    let steps_at = |q: f64| ((epochs / q).round() as u64).max(1);
    let mut risk_pts = Vec::new();
    let mut eps_pts = Vec::new();
    for &q in qs {
        let k = steps_at(q);
        if let Ok(s) = noise_for(
            noise,
            q,
            k,
            run.records,
            Target::Risk(target),
            CALIBRATION,
            1e-3,
        ) {
            risk_pts.push((q, s));
        }
        if let Ok(s) = noise_for(
            noise,
            q,
            k,
            run.records,
            run.epsilon_target(),
            CALIBRATION,
            1e-3,
        ) {
            eps_pts.push((q, s));
        }
    }
    (risk_pts, eps_pts)
}

/// The summary of the noise-for-risk figure at `epochs` passes over the data.
fn noise_for_risk_summary(run: &Run, epochs: f64) -> String {
    format!(
        "The noise that keeps the attacker's TPR at α = {} below {} against the noise for \
         ε = {} at δ = {}, over sampling rates q at {} epochs (k = {}/q steps). Calibrating to \
         the attack you care about usually needs less noise than calibrating to ε.",
        percent(run.fpr),
        percent(run.target_tpr),
        short_number(run.target_eps, 3),
        short_number(run.delta, 2),
        short_number(epochs, 3),
        short_number(epochs, 3)
    )
}

/// `noise-for-risk`: the noise that keeps the attacker's TPR at the reader's FPR within the target,
/// against the noise a target ε at δ needs, over sampling rates q = B/|x| at the reader's number
/// of epochs (k·q passes over the data).
pub fn noise_for_risk(values: &ParamValues) -> ChartResult {
    let run = setting(values)?;
    let (noise, target) = noise_and_target(&run)?;
    let epochs = run.steps as f64 * run.q;
    let q_min = (epochs / 1e5).clamp(1e-5, 0.1).min(run.q);
    let qs = log_grid(q_min, 1.0, 13);
    let symbol = match noise {
        Noise::Gaussian(_) => "σ",
        Noise::Laplace(_) => "b",
    };
    let (risk_pts, eps_pts) = noise_curves(&run, noise, target, &qs, epochs);
    if risk_pts.len() < 2 && eps_pts.len() < 2 {
        return Err(
            "no noise in the searched range (0.2 to 10⁴) meets either target at enough rates to draw"
                .into(),
        );
    }
    let (lo, hi) = super::log_range(risk_pts.iter().chain(&eps_pts).map(|(_, s)| s));
    let mut c = Chart::new(
        Axis::numeric(
            format!(
                "sampling rate q = B/|x| (k = {}/q steps)",
                short_number(epochs, 3)
            ),
            true,
            q_min,
            1.0,
        ),
        Axis::numeric(format!("noise {symbol}"), true, lo, hi),
        LegendCorner::UpperLeft,
        String::new(),
    );
    c.series.push(Series {
        label: format!(
            "{symbol} for TPR ≤ {} at α = {}",
            percent(run.target_tpr),
            percent(run.fpr)
        ),
        points: risk_pts.clone(),
        role: Role::Highlight,
    });
    c.series.push(Series {
        label: format!(
            "{symbol} for ε ≤ {} at δ = {}",
            short_number(run.target_eps, 3),
            short_number(run.delta, 2)
        ),
        points: eps_pts.clone(),
        role: Role::Family(1),
    });
    let here = risk_pts
        .iter()
        .min_by(|a, b| ln(a.0 / run.q).abs().total_cmp(&ln(b.0 / run.q).abs()));
    if let Some(&(q, s)) = here {
        c.markers.push(Marker {
            x: q,
            y: s,
            label: format!(
                "q = {}: {symbol} = {}",
                short_number(q, 2),
                short_number(s, 3)
            ),
        });
    }
    let missing = qs.len() * 2 - risk_pts.len() - eps_pts.len();
    if missing > 0 {
        c.notes.push(format!(
            "{missing} points left out: no noise between 0.2 and 10⁴ is the answer there."
        ));
    }
    c.summary = noise_for_risk_summary(&run, epochs);
    Ok(c)
}
