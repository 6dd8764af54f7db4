//! `page=training`: tight (ε, δ) accounting of a DP-SGD run (privacy loss distributions), Rényi DP
//! beside it, the noise for a target ε and a copyable statement.
//!
//! Still rendered by its own component in the app (its quick and refined accounting, status line
//! and statement are not yet declared as sections); its parameters are declared here.

use super::{Body, PageSpec, Precision, Readings};
use crate::param as p;
use crate::params::ParamValues;

/// The declaration.
pub static SPEC: PageSpec = PageSpec {
    id: "training",
    nav: "Training",
    heading: "Training with DP-SGD: the tight number",
    lede: "A private training run is many noisy steps, each on a random batch. \
           How much privacy the whole run spends depends on how the steps are counted: Rényi DP is quick and safe but loose, \
           while the privacy loss distribution gives the number itself, between two certified bounds. \
           Enter your run to get both, the noise a target needs, and a statement you can copy.",
    body: Body::Custom(&[
        p::DATASET.spec,
        p::BATCH.spec,
        p::MECH.spec,
        p::SIGMA.spec,
        p::SCALE.spec,
        p::LENGTH.spec,
        p::EPOCHS.spec,
        p::STEPS.spec,
        p::DELTA.spec,
        p::BATCHING.spec,
        p::TARGET_EPS.spec,
    ]),
    readouts,
    refines: true,
};

/// Nothing yet: the app's training component computes its own numbers.
pub fn readouts(_: &ParamValues, _: Precision) -> Readings {
    Readings::default()
}
