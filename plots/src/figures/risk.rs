//! Figures and readouts of the risk page: what a run's privacy means for a membership attacker
//! (issue 17). The optimal attacker's TPR at each FPR is a certified band from the privacy loss
//! distributions of both roundings ([`amp_math::risk::Tradeoff`]); beside it the curves that
//! coarser summaries allow: Gaussian DP's μ, the run's (ε, δ) and its Rényi DP curve.
//!
//! Gaussian and Laplace noise run on Poisson samples at rate q (add/remove one record);
//! randomized response is accounted without sampling (each step releases the person's value
//! afresh; replace one value). Costs are bounded by the same FFT budgets as the training page.

use std::cell::RefCell;
use std::rc::Rc;

use amp_math::pld::{self, Estimate, Noise, PldPair};
use amp_math::rdp::{Mechanism, Sampling};
use amp_math::risk::{
    bayes_band, clt_mu, eps_delta_tpr, gaussian_mu, gdp_tpr, profile_tpr, RiskTarget, Tradeoff,
};
use amp_math::special::ln;
use amp_math::Relation;

use super::renyi::{drawn_rdp_delta, step_curve, RdpSetting};
use super::{
    group_digits, log_grid, Axis, Band, Chart, ChartError, ChartResult, LegendCorner, Marker, Role,
    Series,
};
use crate::format::short_number;
use crate::param as p;
use crate::params::{Mechanism as MechanismChoice, ParamValues, TradeoffView};

pub use super::training::{FINE, QUICK};

/// Budget per composition in the TPR-against-steps figure (one forward transform, one inverse per
/// point).
const FIGURE: usize = 14_700;
/// Budget per evaluation inside a calibration for a figure.
const CALIBRATION: usize = 1_840;
/// Most steps the page accounts for.
pub const MAX_STEPS: u64 = 100_000_000;

/// What is released at each step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Source {
    /// Gaussian or Laplace noise on a sensitivity-1 query over a Poisson sample.
    Noise(Noise),
    /// k-ary randomized response of one person's value at ε (k = 2: binary), without sampling.
    Rr {
        /// ε of one release.
        epsilon: f64,
        /// Number of values.
        k: u64,
    },
}

/// The reader's setting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    /// The mechanism.
    pub source: Source,
    /// Poisson sampling rate (1 for randomized response).
    pub q: f64,
    /// Steps k.
    pub steps: u64,
    /// δ of the (ε, δ) summary.
    pub delta: f64,
    /// The false-positive rate of interest.
    pub fpr: f64,
    /// Prior of membership.
    pub prior: f64,
    /// Target TPR at the FPR (for the calibration).
    pub target_tpr: f64,
    /// Target ε at δ (for the calibration it is compared with).
    pub target_eps: f64,
}

impl Run {
    /// The neighbouring relation the numbers hold for.
    pub fn relation(&self) -> Relation {
        match self.source {
            Source::Noise(_) => Relation::AddRemove,
            Source::Rr { .. } => Relation::ReplaceOne,
        }
    }

    /// The mechanism in words: "Gaussian noise, σ = 1".
    pub fn label(&self) -> String {
        match self.source {
            Source::Noise(Noise::Gaussian(s)) => {
                format!("Gaussian noise, σ = {}", short_number(s, 4))
            }
            Source::Noise(Noise::Laplace(b)) => {
                format!("Laplace noise, b = {}", short_number(b, 4))
            }
            Source::Rr { epsilon, k: 2 } => {
                format!("randomized response, ε = {}", short_number(epsilon, 4))
            }
            Source::Rr { epsilon, k } => format!(
                "{k}-ary randomized response, ε = {}",
                short_number(epsilon, 4)
            ),
        }
    }

    /// The noise, when the mechanism adds noise.
    pub fn noise(&self) -> Option<Noise> {
        match self.source {
            Source::Noise(n) => Some(n),
            Source::Rr { .. } => None,
        }
    }

    /// The Rényi DP view of one step.
    fn rdp_setting(&self) -> RdpSetting {
        let mech = match self.source {
            Source::Noise(Noise::Gaussian(sigma)) => Mechanism::Gaussian { sigma },
            Source::Noise(Noise::Laplace(scale)) => Mechanism::Laplace { scale },
            Source::Rr { epsilon, k: 2 } => Mechanism::RandomizedResponse { epsilon },
            Source::Rr { epsilon, k } => Mechanism::KaryRandomizedResponse { epsilon, k },
        };
        RdpSetting {
            mech,
            sampling: if self.q < 1.0 {
                Sampling::Poisson { q: self.q }
            } else {
                Sampling::Full
            },
            sizes: None,
        }
    }
}

/// The reader's setting, or why it cannot be used.
pub fn setting(values: &ParamValues) -> Result<Run, String> {
    let (source, q) = match values.choice(p::MECH) {
        MechanismChoice::Gaussian => (
            Source::Noise(Noise::Gaussian(values.real(p::SIGMA))),
            values.real(p::Q),
        ),
        MechanismChoice::Laplace => (
            Source::Noise(Noise::Laplace(values.real(p::SCALE))),
            values.real(p::Q),
        ),
        MechanismChoice::RandomizedResponse => (
            Source::Rr {
                epsilon: values.real(p::EPS),
                k: 2,
            },
            1.0,
        ),
        MechanismChoice::KaryRandomizedResponse => (
            Source::Rr {
                epsilon: values.real(p::EPS),
                k: values.count(p::K),
            },
            1.0,
        ),
    };
    if q <= 0.0 {
        return Err("choose a sampling rate q above 0".into());
    }
    let steps = values.count(p::STEPS);
    if steps > MAX_STEPS {
        return Err(format!(
            "{} steps is more than this page accounts for (at most {})",
            group_digits(steps),
            group_digits(MAX_STEPS)
        ));
    }
    Ok(Run {
        source,
        q,
        steps,
        delta: values.real(p::DELTA),
        fpr: values.real(p::FPR),
        prior: values.real(p::PRIOR),
        target_tpr: values.real(p::TARGET_TPR),
        target_eps: values.real(p::TARGET_EPS),
    })
}

/// The composed PLDs of both roundings of a run and the trade-off band they give.
#[derive(Clone, Debug, PartialEq)]
pub struct Attack {
    /// The grid step used.
    pub step: f64,
    /// Pessimistic (certified upper bounds).
    pub upper: PldPair,
    /// Optimistic (lower bounds).
    pub lower: PldPair,
    /// The attacker's TPR band at every FPR.
    pub tradeoff: Tradeoff,
}

impl Attack {
    /// From the composed pair of both roundings (the training page's band).
    pub fn new(step: f64, upper: PldPair, lower: PldPair) -> Result<Attack, String> {
        let tradeoff = Tradeoff::from_pairs(&upper, &lower).map_err(|e| e.to_string())?;
        Ok(Attack {
            step,
            upper,
            lower,
            tradeoff,
        })
    }

    /// The attacker's numbers at an FPR and a prior.
    pub fn numbers(&self, fpr: f64, prior: f64) -> Result<Numbers, String> {
        let tpr = self.tradeoff.tpr(fpr).map_err(|e| e.to_string())?;
        let bayes = bayes_band(&self.upper, &self.lower, prior).map_err(|e| e.to_string())?;
        Ok(Numbers {
            tpr,
            advantage: self.tradeoff.advantage(),
            bayes,
        })
    }
}

/// What the attacker can do, each as (certified upper bound, lower bound that an attack reaches).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Numbers {
    /// TPR at the FPR.
    pub tpr: (f64, f64),
    /// max(TPR − FPR) = δ(0).
    pub advantage: (f64, f64),
    /// The Bayes-optimal success of a membership guess at the prior.
    pub bayes: (f64, f64),
}

/// One step's PLDs of both roundings on the grid step h (for randomized response, the step is
/// moved to divide ε, which makes its PLD exact).
fn one_step(source: Source, q: f64, h: f64) -> Result<(f64, PldPair, PldPair), String> {
    let e = |x: amp_math::MathError| x.to_string();
    match source {
        Source::Noise(n) => Ok((
            h,
            n.poisson(q, h, Estimate::Pessimistic).map_err(e)?,
            n.poisson(q, h, Estimate::Optimistic).map_err(e)?,
        )),
        Source::Rr { epsilon, k } => {
            let h = pld::step_dividing(epsilon, h);
            Ok((
                h,
                pld::randomized_response(epsilon, k, h, Estimate::Pessimistic).map_err(e)?,
                pld::randomized_response(epsilon, k, h, Estimate::Optimistic).map_err(e)?,
            ))
        }
    }
}

/// The grid step at which `steps` compositions need about `buckets` buckets.
fn step_for(source: Source, q: f64, steps: u64, buckets: usize) -> Result<f64, String> {
    match source {
        Source::Noise(n) => pld::step_for_budget(n, q, steps, buckets).map_err(|e| e.to_string()),
        Source::Rr { epsilon, k } => {
            // The composed window's width, measured at a coarse step.
            let rr = Source::Rr { epsilon, k };
            let probe = pld::step_dividing(epsilon, (epsilon / 4.0).min(0.05));
            let (_, up, _) = one_step(rr, 1.0, probe)?;
            let width = up.composed_span(steps) as f64 * probe;
            // A step dividing ε is at most ε, so a long run at a large ε can need more buckets
            // than the budget: refuse it rather than build it.
            // A step dividing ε makes the PLD exact. A coarser one would round each ±ε to a whole
            // step, and over a long run the pessimistic rounding would swamp the loss itself.
            let h = pld::step_dividing(epsilon, (width / buckets.max(16) as f64).max(1e-300));
            let (_, up, _) = one_step(rr, 1.0, h)?;
            if up.composed_span(steps) > 4 * buckets {
                return Err(format!(
                    "{} steps of randomized response at ε = {} is more than this page accounts for (the grid would be too long)",
                    group_digits(steps),
                    short_number(epsilon, 3)
                ));
            }
            Ok(h)
        }
    }
}

/// The run's attack band at a budget, remembered for the last run (the readouts and the figure
/// need the same one).
pub fn attack(run: &Run, buckets: usize) -> Result<Rc<Attack>, String> {
    type Key = (Source, u64, u64, usize);
    thread_local! {
        static LAST: RefCell<Option<(Key, Rc<Attack>)>> = const { RefCell::new(None) };
    }
    let key = (run.source, run.q.to_bits(), run.steps, buckets);
    if let Some(a) = LAST.with(|c| {
        c.borrow()
            .as_ref()
            .and_then(|(k, a)| (*k == key).then(|| a.clone()))
    }) {
        return Ok(a);
    }
    let h = step_for(run.source, run.q, run.steps, buckets)?;
    let (h, up, lo) = one_step(run.source, run.q, h)?;
    let e = |x: amp_math::MathError| x.to_string();
    let a = Rc::new(Attack::new(
        h,
        up.self_compose(run.steps).map_err(e)?,
        lo.self_compose(run.steps).map_err(e)?,
    )?);
    LAST.with(|c| *c.borrow_mut() = Some((key, a.clone())));
    Ok(a)
}

/// Gaussian DP's μ for the run and whether it is exact: √k/σ without sampling (exact), the
/// central-limit value of Bu et al. 2020 with it (an approximation). None for other mechanisms.
pub fn gdp(run: &Run) -> Option<Result<(f64, bool), String>> {
    match run.source {
        Source::Noise(Noise::Gaussian(sigma)) => Some(if run.q >= 1.0 {
            gaussian_mu(sigma, run.steps)
                .map(|m| (m, true))
                .map_err(|e| e.to_string())
        } else {
            clt_mu(run.q, sigma, run.steps)
                .map(|m| (m, false))
                .map_err(|e| e.to_string())
        }),
        _ => None,
    }
}

/// The certified ε at the run's δ (what an (ε, δ) summary of the run would say).
pub fn epsilon_at_delta(a: &Attack, delta: f64) -> Result<f64, String> {
    a.upper.epsilon_for_delta(delta).map_err(|e| e.to_string())
}

/// The smallest noise (σ, or b for Laplace) whose certified risk over `steps` steps at rate q
/// stays within the target, each evaluation at a budget, to relative accuracy `rel`.
pub fn sigma_for_risk(
    noise: Noise,
    q: f64,
    steps: u64,
    target: RiskTarget,
    buckets: usize,
    rel: f64,
) -> Result<f64, String> {
    let target = target.check().map_err(|e| e.to_string())?;
    pld::calibrate_sigma_within(
        |s| {
            let n = noise.with_size(s);
            let h = pld::step_for_budget(n, q, steps, buckets)?;
            let pair = n
                .poisson(q, h, Estimate::Pessimistic)?
                .self_compose(steps)?;
            target.risk(&pair)
        },
        target.value(),
        rel,
    )
    .map_err(|e| e.to_string())
}

/// The largest number of steps (at most `limit`) after which the certified risk of the run's
/// mechanism at rate q stays within the target, each evaluation at a budget: doubling until the
/// target is missed, then bisection (the risk grows with the steps). An error when even one step
/// misses it, or when `limit` steps still meet it.
pub fn steps_for_risk(
    source: Source,
    q: f64,
    target: RiskTarget,
    buckets: usize,
    limit: u64,
) -> Result<u64, String> {
    let target = target.check().map_err(|e| e.to_string())?;
    let meets = |k: u64| -> Result<bool, String> {
        let h = step_for(source, q, k, buckets)?;
        let (_, up, _) = one_step(source, q, h)?;
        let pair = up.self_compose(k).map_err(|e| e.to_string())?;
        Ok(target.risk(&pair).map_err(|e| e.to_string())? <= target.value())
    };
    if !meets(1)? {
        return Err("even one step gives the attacker more than the target".into());
    }
    let (mut lo, mut hi) = (1u64, 2u64);
    while meets(hi)? {
        if hi >= limit {
            return Err(format!(
                "{} steps still meet the target (the most this page searches)",
                group_digits(limit)
            ));
        }
        lo = hi;
        hi = hi.saturating_mul(2).min(limit);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if meets(mid)? {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(lo)
}

/// The smallest noise whose certified ε at δ over `steps` steps at rate q is at most `target`
/// (the training page's calibration too).
pub fn sigma_for_epsilon(
    noise: Noise,
    q: f64,
    steps: u64,
    delta: f64,
    target: f64,
    buckets: usize,
    rel: f64,
) -> Result<f64, String> {
    pld::calibrate_sigma_within(
        |s| {
            let n = noise.with_size(s);
            n.upper_epsilon(q, steps, delta, pld::step_for_budget(n, q, steps, buckets)?)
        },
        target,
        rel,
    )
    .map_err(|e| e.to_string())
}

/// The (ε, δ(ε)) points of the run's Rényi DP curve (improved conversion) on 33 points of ε
/// from 0 to `e_far`, remembered for the last run (each point is a conversion over the grid's
/// orders, [`drawn_rdp_delta`]; the FPR and the view change without it).
fn rdp_profile(run: &Run, e_far: f64) -> Rc<Vec<(f64, f64)>> {
    type Key = (Source, u64, u64, u64);
    type Points = Rc<Vec<(f64, f64)>>;
    thread_local! {
        static LAST: RefCell<Option<(Key, Points)>> = const { RefCell::new(None) };
    }
    let key = (run.source, run.q.to_bits(), run.steps, e_far.to_bits());
    if let Some(p) = LAST.with(|c| {
        c.borrow()
            .as_ref()
            .and_then(|(k, p)| (*k == key).then(|| p.clone()))
    }) {
        return p;
    }
    let points = match step_curve(&run.rdp_setting()) {
        Ok(curve) => {
            let curve = curve.times(run.steps as f64);
            (0..=32)
                .filter_map(|i| {
                    let e = e_far * i as f64 / 32.0;
                    drawn_rdp_delta(&curve, e).map(|d| (e, d))
                })
                .collect()
        }
        Err(_) => vec![],
    };
    let p = Rc::new(points);
    LAST.with(|c| *c.borrow_mut() = Some((key, p.clone())));
    p
}

/// FPRs at which the curves are drawn: dense near 0 (log-spaced) and evenly over [0, 1].
fn fpr_grid(lo: f64) -> Vec<f64> {
    let mut xs = log_grid(lo, 1.0, 90);
    xs.extend((1..100).map(|i| i as f64 / 100.0));
    amp_math::sort_floats(&mut xs);
    xs.dedup();
    xs
}

/// The membership sentence a practitioner can paste: "an attacker who wrongly accuses at most 1%
/// of non-members catches at most X% of members", from the TPR band at the FPR.
pub fn membership_sentence(fpr: f64, tpr: (f64, f64)) -> String {
    format!(
        "An attacker who wrongly accuses at most {} of non-members catches at most {} of members \
         (certified upper bound; the best possible attack catches at least {}). Guessing at random \
         would catch {}.",
        percent(fpr),
        percent(tpr.0),
        percent(tpr.1),
        percent(fpr)
    )
}

/// A percentage for a sentence: "12.3%".
pub fn percent(x: f64) -> String {
    format!("{}%", short_number(100.0 * x, 3))
}

/// `tradeoff-curve`: the optimal attacker's trade-off after the run, as β against α or TPR
/// against FPR (log axes); the certified band, Gaussian DP's curve, what the run's (ε, δ) and its
/// Rényi DP curve allow, and random guessing.
pub fn tradeoff_curve(values: &ParamValues) -> ChartResult {
    let run = setting(values)?;
    let a = attack(&run, QUICK)?;
    let roc = values.choice(p::TRADEOFF_VIEW) == TradeoffView::Roc;
    // The reader's α always inside the axes (α ≥ 1e-9, so the axis starts at 1e-10 at least).
    let lo = (run.fpr / 10.0).min(1e-3);
    let xs: Vec<f64> = if roc {
        log_grid(lo, 1.0, 120)
    } else {
        let mut xs = fpr_grid(1e-4);
        xs.insert(0, 0.0);
        xs
    };
    // TPR → what is drawn: TPR itself, or β = 1 − TPR.
    let y = |tpr: f64| if roc { tpr } else { 1.0 - tpr };
    let band = a.tradeoff.curve(&xs);
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
    let eps = epsilon_at_delta(&a, run.delta);
    if let Ok(e) = eps {
        c.series.push(Series {
            label: format!(
                "what (ε, δ) = ({}, {}) allows",
                short_number(e, 3),
                short_number(run.delta, 2)
            ),
            points: xs
                .iter()
                .filter_map(|&x| Some((x, y(eps_delta_tpr(e, run.delta, x).ok()?))))
                .collect(),
            role: Role::Bound(1),
        });
    } else if let Err(why) = &eps {
        c.notes.push(format!(
            "No (ε, δ) region at δ = {}: {why}.",
            short_number(run.delta, 2)
        ));
    }
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
    // Gaussian DP.
    let mu = gdp(&run);
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
    c.series.push(Series {
        label: "random guessing".into(),
        points: xs.iter().map(|&x| (x, y(x))).collect(),
        role: Role::Reference,
    });
    let (up, low) = a.tradeoff.tpr(run.fpr)?;
    c.markers.push(Marker {
        x: run.fpr,
        y: y(up),
        label: format!("α = {}: TPR ≤ {}", percent(run.fpr), percent(up)),
    });
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
fn tpr_over_steps(run: &Run, q: f64, ks: &[u64]) -> Result<Vec<(f64, f64)>, String> {
    let last = ks.iter().copied().max().unwrap_or(1);
    let h = step_for(run.source, q, last, FIGURE)?;
    let (h, up, lo) = one_step(run.source, q, h)?;
    let e = |x: amp_math::MathError| x.to_string();
    let ups = up.self_compose_many(ks).map_err(e)?;
    let los = lo.self_compose_many(ks).map_err(e)?;
    ups.into_iter()
        .zip(los)
        .map(|(u, l)| {
            Attack::new(h, u, l)?
                .tradeoff
                .tpr(run.fpr)
                .map_err(|e| e.to_string())
        })
        .collect()
}

/// `tpr-vs-steps`: the attacker's TPR at the reader's FPR as the run goes on, with Poisson
/// sampling at the reader's q and without sampling (every record in every step).
pub fn tpr_vs_steps(values: &ParamValues) -> ChartResult {
    let run = setting(values)?;
    // Ten times the reader's run, or the run itself when that is more than the budget allows.
    let mut last = (run.steps.saturating_mul(10)).clamp(10, MAX_STEPS);
    let mut ks = step_grid(last, 16);
    let band = match tpr_over_steps(&run, run.q, &ks) {
        Ok(b) => b,
        Err(_) => {
            last = run.steps.max(2);
            ks = step_grid(last, 16);
            tpr_over_steps(&run, run.q, &ks)?
        }
    };
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
        // Without sampling: exact for the Gaussian (μ = √k/σ), a PLD band otherwise.
        let full: Vec<(f64, f64)> = match run.source {
            Source::Noise(Noise::Gaussian(sigma)) => ks
                .iter()
                .filter_map(|&k| {
                    let mu = gaussian_mu(sigma, k).ok()?;
                    Some((x_of(k), gdp_tpr(mu, run.fpr).ok()?))
                })
                .collect(),
            _ => tpr_over_steps(&run, 1.0, &ks)?
                .into_iter()
                .zip(&ks)
                .map(|(b, &k)| (x_of(k), b.0))
                .collect(),
        };
        full_at_k = match run.source {
            Source::Noise(Noise::Gaussian(sigma)) => gaussian_mu(sigma, run.steps)
                .ok()
                .and_then(|mu| gdp_tpr(mu, run.fpr).ok()),
            _ => None,
        };
        c.series.push(Series {
            label: "no sampling: every record in every step".into(),
            points: full,
            role: Role::Family(1),
        });
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
    c.summary = format!(
        "At α = {}, the attacker's TPR after k = {} steps of {} is at most {}{}; it grows with k \
         towards 1.{}",
        percent(run.fpr),
        group_digits(run.steps),
        run.label(),
        percent(here.0),
        if sampled {
            format!(" with Poisson sampling at q = {}", short_number(run.q, 3))
        } else {
            String::new()
        },
        full_at_k
            .map(|t| format!(" Without sampling it would be {}.", percent(t)))
            .unwrap_or_default()
    );
    Ok(c)
}

/// `noise-for-risk`: the noise that keeps the attacker's TPR at the reader's FPR within the target,
/// against the noise a target ε at δ needs, over sampling rates q = B/|x| at the reader's number
/// of epochs (k·q passes over the data).
pub fn noise_for_risk(values: &ParamValues) -> ChartResult {
    let run = setting(values)?;
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
        .map_err(|e| ChartError::from(e.to_string()))?;
    let epochs = run.steps as f64 * run.q;
    let q_min = (epochs / 1e5).clamp(1e-5, 0.1).min(run.q);
    let qs = log_grid(q_min, 1.0, 13);
    let steps_at = |q: f64| ((epochs / q).round() as u64).max(1);
    let symbol = match noise {
        Noise::Gaussian(_) => "σ",
        Noise::Laplace(_) => "b",
    };
    let mut risk_pts = Vec::new();
    let mut eps_pts = Vec::new();
    for &q in &qs {
        let k = steps_at(q);
        if let Ok(s) = sigma_for_risk(noise, q, k, target, CALIBRATION, 1e-3) {
            risk_pts.push((q, s));
        }
        if let Ok(s) = sigma_for_epsilon(noise, q, k, run.delta, run.target_eps, CALIBRATION, 1e-3)
        {
            eps_pts.push((q, s));
        }
    }
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
    c.summary = format!(
        "The noise that keeps the attacker's TPR at α = {} below {} against the noise for \
         ε = {} at δ = {}, over sampling rates q at {} epochs (k = {}/q steps). Calibrating to \
         the attack you care about usually needs less noise than calibrating to ε.",
        percent(run.fpr),
        percent(run.target_tpr),
        short_number(run.target_eps, 3),
        short_number(run.delta, 2),
        short_number(epochs, 3),
        short_number(epochs, 3)
    );
    Ok(c)
}
