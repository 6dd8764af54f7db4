//! Bindings between parameters: the checks that involve more than one parameter, and which
//! controls matter for the current values.

use amp_math::subsampling::Scheme;

use crate::model::sampling::sampling;

use super::View;
use crate::param as p;
use crate::params::{Length, Mechanism, ParamSpec, ParamValues, RandomizerKind};

/// A check that involves several parameters (each one alone is checked by its declaration).
pub struct Constraint {
    /// The parameters it involves; a URL that breaks it falls back to their defaults.
    pub params: &'static [&'static ParamSpec],
    /// The parameter to blame, and the message shown next to it, when it does not hold.
    pub check: fn(&ParamValues) -> Result<(), (&'static ParamSpec, String)>,
}

/// Every constraint between parameters.
pub static CONSTRAINTS: &[Constraint] = &[
    Constraint {
        params: &[p::M.spec, p::N.spec],
        check: |v| {
            sampling(v)
                .validate()
                .map_err(|e| (p::M.spec, e.to_string()))
        },
    },
    Constraint {
        params: &[p::BATCH.spec, p::DATASET.spec],
        check: |v| {
            let (b, d) = (v.count(p::BATCH), v.count(p::DATASET));
            if b > d {
                Err((
                    p::BATCH.spec,
                    format!("the batch size B = {b} cannot exceed the dataset size |x| = {d}"),
                ))
            } else {
                Ok(())
            }
        },
    },
];

/// Check every constraint; the first that fails names the parameter to blame and why.
pub fn check_together(values: &ParamValues) -> Result<(), (&'static ParamSpec, String)> {
    CONSTRAINTS.iter().try_for_each(|c| (c.check)(values))
}

/// Whether a parameter's control matters for the current values: the rate p only for Poisson
/// sampling, the sizes m and n only for the fixed-size schemes. Hidden controls keep their values.
///
/// Where the view shows a mechanism choice (the Rényi DP page), only the chosen mechanism's
/// parameter is relevant, the rate is q for both schemes, and n only sets m = q·n without
/// replacement.
pub fn is_relevant(view: View, values: &ParamValues, spec: &ParamSpec) -> bool {
    let shows = |q: &ParamSpec| view.params().iter().any(|s| s.name == q.name);
    let is = |q: &ParamSpec| spec.name == q.name;
    if shows(p::MECH.spec) {
        let mech = values.choice(p::MECH);
        let scheme = values.choice(p::SCHEME);
        return if is(p::SIGMA.spec) {
            mech == Mechanism::Gaussian
        } else if is(p::SCALE.spec) {
            mech == Mechanism::Laplace
        } else if is(p::EPS.spec) {
            matches!(
                mech,
                Mechanism::RandomizedResponse | Mechanism::KaryRandomizedResponse
            )
        } else if is(p::K.spec) {
            mech == Mechanism::KaryRandomizedResponse
        } else if is(p::Q.spec) && shows(p::FPR.spec) {
            // The risk page samples noise only; randomized response is accounted without it.
            matches!(mech, Mechanism::Gaussian | Mechanism::Laplace)
        } else if is(p::N.spec) {
            scheme == Scheme::WithoutReplacement
        } else if is(p::EPOCHS.spec) {
            values.choice(p::LENGTH) == Length::Epochs
        } else if is(p::STEPS.spec) {
            !shows(p::LENGTH.spec) || values.choice(p::LENGTH) == Length::Steps
        } else {
            true
        };
    }
    if shows(p::RANDOMIZER.spec) && is(p::K.spec) {
        return values.choice(p::RANDOMIZER) == RandomizerKind::KRr;
    }
    if !shows(p::SCHEME.spec) {
        return true;
    }
    let poisson = values.choice(p::SCHEME) == Scheme::Poisson;
    if is(p::P.spec) {
        poisson
    } else if is(p::M.spec) || is(p::N.spec) {
        !poisson
    } else {
        true
    }
}
