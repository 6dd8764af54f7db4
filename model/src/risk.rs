//! The risk page's model: what a run's privacy means for a membership attacker (issue 17). The
//! optimal attacker's TPR at each FPR is a certified band from the privacy loss distributions of
//! both roundings ([`amp_math::risk::Tradeoff`]) of the run as an event, accounted by the PLD
//! accountant at a budget of FFT buckets; beside it the curves that coarser summaries allow:
//! Gaussian DP's μ, the run's (ε, δ) and its Rényi DP curve.
//!
//! Gaussian and Laplace noise run on Poisson samples at rate q (add/remove one record);
//! randomized response is accounted without sampling (each step releases the person's value
//! afresh; replace one value).

use crate::ModelError;
use std::cell::RefCell;
use std::rc::Rc;

use amp_math::accounting::{calibrate_event, EpochSettings, Event, PldAccountant, Search, Target};
use amp_math::pld::{Noise, PldPair};
use amp_math::rdp::{Mechanism, Sampling};
use amp_math::risk::{bayes_band, clt_mu, gaussian_mu, RiskTarget, Tradeoff};
use amp_math::Relation;

use super::renyi::{rdp_profile_points, step_curve, RdpSetting};
use super::training::{accountant, band_of};
use crate::param as p;
use crate::params::{Mechanism as MechanismChoice, ParamValues};
use amp_format::{group_digits, short_number};

pub use super::training::{FINE, QUICK};

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
    /// Records per user R (Gaussian noise on a Poisson sample only; 1: one record).
    pub records: u64,
}

impl Run {
    /// The neighbouring relation the numbers hold for.
    pub fn relation(&self) -> Relation {
        match self.source {
            Source::Noise(_) if self.records > 1 => Relation::AddRemoveUser,
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
    pub(crate) fn rdp_setting(&self) -> RdpSetting {
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
pub fn setting(values: &ParamValues) -> Result<Run, ModelError> {
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
    let records = values.count(p::RECORDS);
    if records > 1 && !matches!(source, Source::Noise(Noise::Gaussian(_))) {
        return Err(ModelError::NotApplicable(format!(
            "R = {records} records per user are accounted for Gaussian noise only (the mixture \
             of Gaussians); choose the Gaussian mechanism or R = 1"
        )));
    }
    let steps = values.count(p::STEPS);
    if steps > MAX_STEPS {
        return Err(ModelError::NotApplicable(format!(
            "{} steps is more than this page accounts for (at most {})",
            group_digits(steps),
            group_digits(MAX_STEPS)
        )));
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
        records,
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
    pub fn new(step: f64, upper: PldPair, lower: PldPair) -> Result<Attack, ModelError> {
        let tradeoff = Tradeoff::from_pairs(&upper, &lower).map_err(ModelError::from)?;
        Ok(Attack {
            step,
            upper,
            lower,
            tradeoff,
        })
    }

    /// The attacker's numbers at an FPR and a prior.
    pub fn numbers(&self, fpr: f64, prior: f64) -> Result<Numbers, ModelError> {
        let tpr = self.tradeoff.tpr(fpr).map_err(ModelError::from)?;
        let bayes = bayes_band(&self.upper, &self.lower, prior).map_err(ModelError::from)?;
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

/// Gaussian DP's μ for the run and whether it is exact: √k/σ without sampling (exact), the
/// central-limit value of Bu et al. 2020 with it (an approximation). None for other mechanisms.
pub fn gdp(run: &Run) -> Option<Result<(f64, bool), ModelError>> {
    if run.records > 1 {
        return Some(Err(ModelError::NotApplicable(format!(
            "no central-limit μ is computed here for R = {} records per user",
            run.records
        ))));
    }
    match run.source {
        Source::Noise(Noise::Gaussian(sigma)) => Some(if run.q >= 1.0 {
            gaussian_mu(sigma, run.steps)
                .map(|m| (m, true))
                .map_err(ModelError::from)
        } else {
            clt_mu(run.q, sigma, run.steps)
                .map(|m| (m, false))
                .map_err(ModelError::from)
        }),
        _ => None,
    }
}

/// The certified ε at the run's δ (what an (ε, δ) summary of the run would say).
pub fn epsilon_at_delta(a: &Attack, delta: f64) -> Result<f64, ModelError> {
    a.upper.epsilon_for_delta(delta).map_err(ModelError::from)
}

/// The (ε, δ(ε)) points of the run's Rényi DP curve (improved conversion) on 33 points of ε
/// from 0 to `e_far`, remembered for the last run (each point is a conversion over the grid's
/// orders, [`rdp_profile_points`]; the FPR and the view change without it).
pub fn rdp_profile(run: &Run, e_far: f64) -> Rc<Vec<(f64, f64)>> {
    type Key = (Source, u64, u64, u64, u64);
    type Points = Rc<Vec<(f64, f64)>>;
    thread_local! {
        static LAST: RefCell<Option<(Key, Points)>> = const { RefCell::new(None) };
    }
    let key = (
        run.source,
        run.q.to_bits(),
        run.steps,
        e_far.to_bits(),
        run.records,
    );
    if let Some(p) = LAST.with(|c| {
        c.borrow()
            .as_ref()
            .and_then(|(k, p)| (*k == key).then(|| p.clone()))
    }) {
        return p;
    }
    let curve = if run.records > 1 {
        Err(crate::ModelError::from(
            "no Rényi DP for several records per user".to_string(),
        ))
    } else {
        step_curve(&run.rdp_setting())
    };
    let points = match curve {
        Ok(curve) => {
            let curve = curve.times(run.steps as f64);
            rdp_profile_points(&curve, e_far, 32)
        }
        Err(_) => vec![],
    };
    let p = Rc::new(points);
    LAST.with(|c| *c.borrow_mut() = Some((key, p.clone())));
    p
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

impl Run {
    /// The mechanism of one step.
    pub fn mechanism(&self) -> Mechanism {
        match self.source {
            Source::Noise(noise) => super::training::mechanism(noise),
            Source::Rr { epsilon, k: 2 } => Mechanism::RandomizedResponse { epsilon },
            Source::Rr { epsilon, k } => Mechanism::KaryRandomizedResponse { epsilon, k },
        }
    }

    /// The run as an event: `steps` releases at rate q (randomized response without sampling).
    pub fn event(&self, q: f64, steps: u64) -> Event {
        match self.source {
            Source::Noise(_) => {
                Event::poisson_users(self.mechanism(), q, self.records).repeated(steps)
            }
            Source::Rr { .. } => Event::Mechanism(self.mechanism()).repeated(steps),
        }
    }

    /// The reader's target ε at the run's δ, as a calibration target.
    pub fn epsilon_target(&self) -> Target {
        Target::Epsilon {
            epsilon: self.target_eps,
            delta: self.delta,
        }
    }

    /// The same run with another noise size (randomized response is left as it is).
    pub fn with_noise(&self, size: f64) -> Run {
        match self.source {
            Source::Noise(n) => Run {
                source: Source::Noise(n.with_size(size)),
                ..*self
            },
            Source::Rr { .. } => *self,
        }
    }
}

/// The PLD accountant at a budget.
fn at(buckets: usize) -> PldAccountant {
    accountant(buckets, EpochSettings::FINE)
}

/// The run's attack band at a budget, remembered (the readouts and the figure need the same one).
pub fn attack(run: &Run, buckets: usize) -> Result<Rc<Attack>, ModelError> {
    type Key = (Event, usize);
    thread_local! {
        static SLOT: super::memo::Slot<Key, Attack> = const { RefCell::new(Vec::new()) };
    }
    let event = run.event(run.q, run.steps);
    super::memo::remembered(&SLOT, (event.clone(), buckets), || {
        let band = band_of(&event, &at(buckets))?;
        Attack::new(band.step, band.upper.clone(), band.lower.clone())
    })
}

/// The smallest noise (σ, or b for Laplace) whose certified ε at δ, or attacker's risk, over
/// `steps` steps at rate q stays within the target, each evaluation at a budget, to relative
/// accuracy `rel`.
pub fn noise_for(
    noise: Noise,
    q: f64,
    steps: u64,
    records: u64,
    target: Target,
    buckets: usize,
    rel: f64,
) -> Result<f64, ModelError> {
    let mechanism = |s: f64| super::training::mechanism(noise.with_size(s));
    calibrate_event(
        &at(buckets),
        |s| Event::poisson_users(mechanism(s), q, records).repeated(steps),
        target,
        Search::Noise { rel },
    )
    .map_err(ModelError::from)
}

/// The largest number of steps (at most `limit`) after which the certified risk of the run's
/// mechanism at rate q stays within the target, each evaluation at a budget: doubling until the
/// target is missed, then bisection (the risk grows with the steps). An error when even one step
/// misses it, or when `limit` steps still meet it.
pub fn steps_for_risk(
    run: &Run,
    q: f64,
    target: RiskTarget,
    buckets: usize,
    limit: u64,
) -> Result<u64, ModelError> {
    calibrate_event(
        &at(buckets),
        |k| run.event(q, k as u64),
        Target::Risk(target),
        Search::Count { limit },
    )
    .map(|k| k as u64)
    .map_err(ModelError::from)
}

/// The composed pessimistic PLD pair of the run at rate q over `steps` steps at a budget (the
/// figures' sweeps).
pub fn upper_pair(run: &Run, q: f64, steps: u64, buckets: usize) -> Result<PldPair, ModelError> {
    at(buckets)
        .compose(&run.event(q, steps), amp_math::pld::Estimate::Pessimistic)
        .map(|(_, pair)| pair)
        .map_err(ModelError::from)
}
