//! The sampling scheme the parameter values select (the subsampling and home pages, their
//! figures, `amplify subsample`).

use amp_math::subsampling::{Sampling, Scheme};

use crate::param as p;
use crate::params::ParamValues;

/// The sampling scheme the values select, with its sizes.
pub fn sampling(values: &ParamValues) -> Sampling {
    match values.choice(p::SCHEME) {
        Scheme::Poisson => Sampling::Poisson {
            p: values.real(p::P),
        },
        Scheme::WithoutReplacement => Sampling::WithoutReplacement {
            m: values.count(p::M),
            n: values.count(p::N),
        },
        Scheme::WithReplacement => Sampling::WithReplacement {
            m: values.count(p::M),
            n: values.count(p::N),
        },
    }
}
