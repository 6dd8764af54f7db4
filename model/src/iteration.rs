//! The iteration page's model (Brown, lecture notes "Privacy amplification", §3): the one pass of
//! noisy SGD the parameters describe, whether amplification by iteration applies to it (Feldman,
//! Mironov, Talwar & Thakurta 2018), and the readouts of its last iterate's privacy by the position
//! of the record, read by the iteration and home pages and the page's figures; and the run over
//! many passes on a bounded set (Brown, Theorem 3.1) with its readouts.

use amp_math::iteration::many_passes::{closed_form_curve, Accountant, Batches, ManyPasses};
use amp_math::iteration::{check_step_size, composition_epsilon, iteration_epsilon, OnePassSgd};
use amp_math::rdp::{epsilon_for_delta, Conversion};

use crate::param as p;
use crate::params::ParamValues;
use crate::ModelError;
use amp_format::short_number;

/// The run the parameters describe: T steps of b records each, noise σ in units of the gradient
/// bound L (L = 1).
pub fn run(values: &ParamValues) -> OnePassSgd {
    OnePassSgd {
        steps: values.count(p::ITERATIONS),
        sigma: values.real(p::SIGMA),
        lipschitz: 1.0,
        batch: values.count(p::STEP_BATCH),
    }
}

/// Why the theorem does not apply at these parameters (η > 2/β), or `None` when it does.
pub fn inapplicable(values: &ParamValues) -> Option<String> {
    check_step_size(values.real(p::STEP_SIZE), values.real(p::SMOOTHNESS))
        .err()
        .map(|_| {
            format!(
                "η = {} is larger than 2/β = {}: the updates need not be contractive, so amplification by iteration does not apply",
                short_number(values.real(p::STEP_SIZE), 4),
                short_number(2.0 / values.real(p::SMOOTHNESS), 4)
            )
        })
}

/// The readouts: ε at δ for the first record, the middle one and the last (= no amplification).
pub struct Readouts {
    /// ε of the record used first (t = 1), amplified by the T − 1 later steps.
    pub first: Result<f64, ModelError>,
    /// ε of the record used at t = ⌈T/2⌉.
    pub middle: Result<f64, ModelError>,
    /// ε without amplification (every position; the last record's too).
    pub composition: Result<f64, ModelError>,
}

/// [`Readouts`] at the parameters (improved RDP conversion).
pub fn readouts(values: &ParamValues) -> Readouts {
    let sgd = run(values);
    let delta = values.real(p::DELTA);
    let at = |t: u64| -> Result<f64, ModelError> {
        if let Some(why) = inapplicable(values) {
            return Err(ModelError::NotApplicable(why));
        }
        iteration_epsilon(t, &sgd, delta, Conversion::Improved)
            .map(|c| c.epsilon)
            .map_err(ModelError::from)
    };
    Readouts {
        first: at(1),
        middle: at(sgd.steps.div_ceil(2).max(1)),
        composition: composition_epsilon(&sgd, delta, Conversion::Improved)
            .map(|c| c.epsilon)
            .map_err(ModelError::from),
    }
}

/// The run over many passes the parameters describe (Brown, Theorem 3.1; Altschuler & Talwar
/// 2022): noise σ and diameter D in units of the gradient bound L (L = 1).
pub fn many_passes(values: &ParamValues) -> ManyPasses {
    let records = values.count(p::PASS_RECORDS);
    let batches = values.choice(p::PASS_BATCHES);
    ManyPasses {
        steps: values.count(p::PASS_STEPS),
        records,
        batch: match batches {
            Batches::Full => records,
            _ => values.count(p::PASS_BATCH),
        },
        batches,
        diameter: values.real(p::DIAMETER),
        sigma: values.real(p::SIGMA),
        step_size: values.real(p::STEP_SIZE),
        lipschitz: 1.0,
    }
}

/// The many-pass readouts: the last iterate after T steps, composition, the plateau, the burn-in
/// and the closed form where it holds.
pub struct ManyPassReadouts {
    /// ε at δ of the last iterate after T steps (the worst record).
    pub last: Result<f64, ModelError>,
    /// ε at δ when every iterate is released.
    pub composition: Result<f64, ModelError>,
    /// ε at δ of the last iterate for any number of steps.
    pub plateau: Result<f64, ModelError>,
    /// Steps from which the last iterate's bound no longer grows.
    pub burn_in: Result<f64, ModelError>,
    /// ε at δ of the closed form 8αL²/(n²σ²)·min{T, Dn/(Lη)}, where its conditions hold.
    pub closed_form: Result<f64, ModelError>,
    /// The attacker's view: the largest true-positive rate at a false-positive rate of
    /// [`ATTACK_FPR`] that the last iterate's RDP curve after T steps allows ([`attack_tpr`]).
    pub attack: Result<f64, ModelError>,
}

/// The false-positive rate of the many-pass attacker readout: an attacker who wrongly accuses 1%
/// of non-members.
pub const ATTACK_FPR: f64 = 0.01;

/// The largest TPR at FPR `fpr` that an RDP curve allows: the profile δ(ε) it implies (improved
/// conversion, [`crate::renyi::rdp_profile_points`]) at 65 points ε ∈ [0, ε(10⁻¹²)], then the least
/// of the (ε, δ) regions' TPR ([`amp_math::risk::profile_tpr`]; Kairouz, Oh & Viswanath 2015,
/// Theorem 2.1). An upper bound on any membership test: every point is a valid guarantee, and a
/// guarantee from a Rényi bound holds both ways round under replace-one.
pub fn attack_tpr(curve: &amp_math::rdp::Curve, fpr: f64) -> Result<f64, ModelError> {
    let far = epsilon_for_delta(curve, 1e-12, Conversion::Improved)?.epsilon;
    let points = crate::renyi::rdp_profile_points(curve, far, 64);
    Ok(amp_math::risk::profile_tpr(&points, fpr)?)
}

/// [`ManyPassReadouts`] at the parameters (improved RDP conversion).
pub fn many_pass_readouts(values: &ParamValues) -> ManyPassReadouts {
    let run = many_passes(values);
    let delta = values.real(p::DELTA);
    let fail = |e: ModelError| ManyPassReadouts {
        last: Err(e.clone()),
        composition: Err(e.clone()),
        plateau: Err(e.clone()),
        burn_in: Err(e.clone()),
        closed_form: Err(e.clone()),
        attack: Err(e),
    };
    if let Some(why) = inapplicable(values) {
        return fail(ModelError::NotApplicable(why));
    }
    let accountant = match Accountant::new(&run) {
        Ok(a) => a,
        Err(e) => return fail(e.into()),
    };
    let li = match accountant.last_iterate(delta, Conversion::Improved) {
        Ok(li) => li,
        Err(e) => return fail(e.into()),
    };
    let attack = accountant
        .last_curve(run.steps)
        .map_err(ModelError::from)
        .and_then(|c| attack_tpr(&c, ATTACK_FPR));
    ManyPassReadouts {
        last: Ok(li.last.epsilon),
        composition: Ok(li.composition.epsilon),
        plateau: Ok(li.plateau.epsilon),
        burn_in: Ok(li.burn_in),
        closed_form: closed_form_epsilon(&run, delta),
        attack,
    }
}

/// ε at δ of the closed form, or why it is not shown.
pub fn closed_form_epsilon(run: &ManyPasses, delta: f64) -> Result<f64, ModelError> {
    if run.batches != Batches::Poisson {
        return Err(ModelError::NotApplicable(
            "the closed form is stated for Poisson batches".into(),
        ));
    }
    match closed_form_curve(run)? {
        Some(curve) => Ok(epsilon_for_delta(&curve, delta, Conversion::Improved)?.epsilon),
        None => Err(ModelError::NotApplicable(
            "its conditions do not hold here (Mironov, Talwar & Zhang need q ≤ 1/5 and a noise multiplier bσ/(2√2·L) of at least 4)".into(),
        )),
    }
}
