//! The checks that involve more than one parameter, and which controls matter for the current
//! values (the app's bindings and the figure sweeps both read them).

use crate::param::{self as p, group::GROUPS};
use crate::params::{ParamSpec, ParamValues};
use crate::sampling::sampling;

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
    Constraint {
        params: &[p::AUDIT_GUESSES.spec, p::AUDIT_CANARIES.spec],
        check: |v| {
            at_most(
                v,
                p::AUDIT_GUESSES,
                p::AUDIT_CANARIES,
                "guesses r",
                "canaries m",
            )
        },
    },
    Constraint {
        params: &[p::AUDIT_CORRECT.spec, p::AUDIT_GUESSES.spec],
        check: |v| {
            at_most(
                v,
                p::AUDIT_CORRECT,
                p::AUDIT_GUESSES,
                "right guesses v",
                "guesses r",
            )
        },
    },
    Constraint {
        params: &[p::AUDIT_FALSE_POSITIVES.spec, p::AUDIT_RUNS_WITHOUT.spec],
        check: |v| {
            at_most(
                v,
                p::AUDIT_FALSE_POSITIVES,
                p::AUDIT_RUNS_WITHOUT,
                "false positives",
                "runs without the canary",
            )
        },
    },
    Constraint {
        params: &[p::AUDIT_FALSE_NEGATIVES.spec, p::AUDIT_RUNS_WITH.spec],
        check: |v| {
            at_most(
                v,
                p::AUDIT_FALSE_NEGATIVES,
                p::AUDIT_RUNS_WITH,
                "false negatives",
                "runs with the canary",
            )
        },
    },
    Constraint {
        params: &[p::BATCH_2.spec, p::DATASET.spec, p::PHASES.spec],
        check: |v| phase_batch(v, 2, p::BATCH_2),
    },
    Constraint {
        params: &[p::BATCH_3.spec, p::DATASET.spec, p::PHASES.spec],
        check: |v| phase_batch(v, 3, p::BATCH_3),
    },
    Constraint {
        params: &[p::BATCH_4.spec, p::DATASET.spec, p::PHASES.spec],
        check: |v| phase_batch(v, 4, p::BATCH_4),
    },
];

/// One count is at most another (events at most trials, guesses at most canaries).
fn at_most(
    v: &ParamValues,
    events: crate::params::Count,
    trials: crate::params::Count,
    what: &str,
    of: &str,
) -> Result<(), (&'static ParamSpec, String)> {
    let (e, t) = (v.count(events), v.count(trials));
    if e > t {
        Err((
            events.spec,
            format!("the {what}, {e}, cannot exceed the {of}, {t}"),
        ))
    } else {
        Ok(())
    }
}

/// A later phase's batch size is at most the dataset size, while the run has that phase.
fn phase_batch(
    v: &ParamValues,
    phase: usize,
    batch: crate::params::Count,
) -> Result<(), (&'static ParamSpec, String)> {
    let active = v.choice::<crate::params::PhaseCount>(p::PHASES).count() >= phase;
    let (b, d) = (v.count(batch), v.count(p::DATASET));
    if active && b > d {
        Err((
            batch.spec,
            format!(
                "the batch size of phase {phase}, {b}, cannot exceed the dataset size |x| = {d}"
            ),
        ))
    } else {
        Ok(())
    }
}

/// Check every constraint; the first that fails names the parameter to blame and why.
pub fn check_together(values: &ParamValues) -> Result<(), (&'static ParamSpec, String)> {
    CONSTRAINTS.iter().try_for_each(|c| (c.check)(values))
}

/// Whether a parameter's control matters for the current values: every parameter group that the
/// shown parameters hold whole ([`crate::params::Group::applies`]) allows it (its rules hold).
/// Hidden controls keep their values.
pub fn relevant(shown: &[&ParamSpec], values: &ParamValues, spec: &ParamSpec) -> bool {
    GROUPS
        .iter()
        .filter(|g| g.applies(shown))
        .all(|g| g.allows(values, spec, shown))
}
