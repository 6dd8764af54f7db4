//! `page=shuffling`: amplification by shuffling, every published bound side by side (seed 004
//! §1.3, §2).
//!
//! Still rendered by its own component in the app (its table of every bound is not yet declared as
//! sections); its parameters are declared here.

use super::{Body, PageSpec, Precision, Readings};
use crate::param as p;
use crate::params::ParamValues;

/// The declaration.
pub static SPEC: PageSpec = PageSpec {
    id: "shuffling",
    nav: "Shuffling",
    heading: "Amplification by shuffling",
    lede: "Each user randomizes their own answer before sending it, so no one, not even the collector, sees a true value. \
           If a shuffler then strips the order and the senders, each answer hides among everyone else's, and the release as a whole is much more private than any one answer. \
           Four generations of bounds say how much more; this page puts every one side by side, with where it holds.",
    body: Body::Custom(&[
        p::EPS0.spec,
        p::USERS.spec,
        p::DELTA.spec,
        p::RANDOMIZER.spec,
        p::K.spec,
        p::TARGET_EPS.spec,
        p::P.spec,
        p::EPS.spec,
    ]),
    readouts,
    refines: false,
};

/// Nothing yet: the app's shuffling component computes its own numbers.
pub fn readouts(_: &ParamValues, _: Precision) -> Readings {
    Readings::default()
}
