//! The iteration page's model (Brown, lecture notes "Privacy amplification", §3): the one pass of
//! noisy SGD the parameters describe, whether amplification by iteration applies to it (Feldman,
//! Mironov, Talwar & Thakurta 2018), and the readouts of its last iterate's privacy by the position
//! of the record, read by the iteration and home pages and the page's figures.

use amp_math::iteration::{check_step_size, composition_epsilon, iteration_epsilon, OnePassSgd};
use amp_math::rdp::Conversion;

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
