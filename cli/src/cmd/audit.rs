//! `amplify audit`: what a privacy audit proves, from its counts (Steinke, Nasr & Jagielski 2023
//! for one run with m canaries; Clopper–Pearson bounds on the error rates for many runs): the ε
//! lower bound at the confidence, and for one run what all r guesses right would prove and the
//! guesses, all right, needed for a target ε. What an ideal attacker against a given run would
//! typically prove is the risk page's (`amplify page risk`, `amplify plot audit-canaries`).

use amp_model::audit::Plan;
use amp_model::param as p;
use amp_model::params::AuditMode;
use clap::{ArgMatches, Command};
use serde::Serialize;

use crate::args;
use crate::output::{emit, finite};

pub fn command() -> Command {
    Command::new("audit")
        .about("The ε lower bound an audit's counts prove (one run with m canaries, or many runs), the guesses needed for a target")
        .args(args::group(&p::group::AUDIT, &[
            p::AUDIT_CANARIES.spec,
            p::AUDIT_GUESSES.spec,
            p::AUDIT_CORRECT.spec,
            p::AUDIT_TARGET.spec,
            p::AUDIT_FALSE_POSITIVES.spec,
            p::AUDIT_RUNS_WITHOUT.spec,
            p::AUDIT_FALSE_NEGATIVES.spec,
            p::AUDIT_RUNS_WITH.spec,
            p::AUDIT_THRESHOLDS.spec,
        ]))
        .arg(args::param(p::DELTA).help("δ of the guarantee the audit tests (default 1e-6)"))
        .arg(args::json())
}

#[derive(Serialize)]
struct OneRun {
    mode: &'static str,
    canaries: u64,
    guesses: u64,
    correct: u64,
    delta: f64,
    confidence: f64,
    /// Lower bound on ε proved by the counts.
    epsilon_lower: f64,
    /// Lower bound all r guesses right would prove.
    epsilon_lower_all_right: f64,
    target: f64,
    /// The fewest guesses, all right, on the canaries that prove the target; null if none do.
    guesses_needed: Option<u64>,
    relation: &'static str,
}

#[derive(Serialize)]
struct ManyRuns {
    mode: &'static str,
    false_positives: u64,
    runs_without: u64,
    false_negatives: u64,
    runs_with: u64,
    thresholds: u64,
    delta: f64,
    confidence: f64,
    epsilon_lower: f64,
    relation: &'static str,
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let v = args::values(m)?;
    args::refuse_irrelevant(m, &p::group::AUDIT, &v)?;
    let plan = Plan::of(&v);
    let relation = amp_math::Relation::AddRemove.id();
    let certified = finite(
        "epsilon_lower",
        plan.certified().map_err(|e| e.to_string())?,
    )?;
    let json = args::on(m, "json");
    match plan.mode {
        AuditMode::OneRun => emit(
            &OneRun {
                mode: "one-run",
                canaries: plan.canaries,
                guesses: plan.guesses,
                correct: plan.correct,
                delta: plan.delta,
                confidence: plan.confidence,
                epsilon_lower: certified,
                epsilon_lower_all_right: plan.perfect().map_err(|e| e.to_string())?,
                target: plan.target,
                guesses_needed: plan.needed().ok(),
                relation,
            },
            json,
        ),
        AuditMode::ManyRuns => {
            let [fp, without, fneg, with, thresholds] = plan.counts;
            emit(
                &ManyRuns {
                    mode: "many-runs",
                    false_positives: fp,
                    runs_without: without,
                    false_negatives: fneg,
                    runs_with: with,
                    thresholds,
                    delta: plan.delta,
                    confidence: plan.confidence,
                    epsilon_lower: certified,
                    relation,
                },
                json,
            )
        }
    }
}
