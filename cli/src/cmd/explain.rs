//! `amplify explain`: why a library prints another ε than the certified one, for a DP-SGD run
//! (the training page's "What each library reports", the same numbers): the certified band, then
//! what Opacus (its default PRV accountant, its RDP and Gaussian accountants), dp_accounting (RDP
//! and PLD) and TensorFlow Privacy's `compute_dp_sgd_privacy` print under their own defaults,
//! each with the cause of its gap ([`amp_model::libraries`]).

use amp_model::param as p;
use amp_site::pages::training::{
    LIBRARY_CAUSES, LIB_DPACC_PLD, LIB_DPACC_RDP, LIB_OPACUS_GDP, LIB_OPACUS_PRV, LIB_OPACUS_RDP,
    LIB_TF_PRIVACY, SPEC as TRAINING, TIGHT, TIGHT_LOWER,
};
use amp_site::pages::Precision;
use clap::{ArgGroup, ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, on};
use crate::output::{emit, lines, reading, to_value};

pub fn command() -> Command {
    Command::new("explain")
        .about("What each library (Opacus, dp_accounting, TensorFlow Privacy) prints for a DP-SGD run, beside the certified band, and why")
        .arg(args::param(p::DATASET))
        .arg(args::param(p::BATCH))
        .arg(args::param(p::EPOCHS))
        .arg(args::param(p::STEPS))
        .group(ArgGroup::new("length").args([p::EPOCHS.spec.name, p::STEPS.spec.name]))
        .arg(args::param(p::BATCHING))
        .arg(args::param(p::SIGMA))
        .arg(args::param(p::DELTA))
        .arg(args::json())
}

/// What each library prints; `estimate` marks the two predicted to their own tolerance (PRV to
/// 1e-3, the PLD to 0.2%), the rest are its number to 1e-6.
#[derive(Serialize)]
struct Record {
    epsilon: f64,
    epsilon_lower: f64,
    delta: f64,
    opacus_prv_estimate: f64,
    opacus_rdp: f64,
    /// Null where the library's root search raises (δ met at ε = 0).
    opacus_gdp: Option<f64>,
    dp_accounting_rdp: f64,
    dp_accounting_pld_estimate: f64,
    tf_privacy_compute_dp_sgd_privacy: f64,
    causes: Vec<String>,
    relation: &'static str,
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let v = super::train::run_values(m)?;
    let r = (TRAINING.readouts)(&v, Precision::Fine);
    let record = Record {
        epsilon: reading(&r, &TIGHT)?,
        epsilon_lower: reading(&r, &TIGHT_LOWER)?,
        delta: v.real(p::DELTA),
        opacus_prv_estimate: reading(&r, &LIB_OPACUS_PRV)?,
        opacus_rdp: reading(&r, &LIB_OPACUS_RDP)?,
        opacus_gdp: reading(&r, &LIB_OPACUS_GDP).ok(),
        dp_accounting_rdp: reading(&r, &LIB_DPACC_RDP)?,
        dp_accounting_pld_estimate: reading(&r, &LIB_DPACC_PLD)?,
        tf_privacy_compute_dp_sgd_privacy: reading(&r, &LIB_TF_PRIVACY)?,
        causes: r
            .text(&LIBRARY_CAUSES)
            .map(|t| t.lines().map(str::to_string).collect())
            .unwrap_or_default(),
        relation: amp_math::Relation::AddRemove.id(),
    };
    if on(m, "json") {
        emit(&record, true)
    } else {
        Ok(format!(
            "{}\n\n{}",
            lines(&to_value(&record)?, &["causes"]),
            record.causes.join("\n")
        ))
    }
}
